"""Optionally compile the hottest engine modules with mypyc, in place.

    python -m games.build            compile (needs mypy, which ships mypyc, and a C compiler)
    python -m games.build --clean    remove the compiled modules again
    python -m games.build --status   say which modules run compiled
    python -m games.build --check    import them, exit 1 unless every one runs compiled (the Docker image)
    python -m games.build --optional compile when this machine can, else say so and carry on interpreted

`make run`, `make test` and `make bench` compile with --optional whenever a compiled source changed, so the
engine that ships runs compiled wherever a C compiler and Python's headers are found.

mypyc turns the unchanged, type-annotated modules listed in COMPILED into C extension modules, the way
black and mypy ship. Each extension lands next to the .py file it was built from, and Python imports an
extension module in preference to a source file of the same name in the same folder; without them (a
fresh clone, or after --clean) the very same .py files run interpreted. Behaviour is identical either
way (the test suite passes both ways); only the speed differs. The outputs are git-ignored.

Only modules whose classes nothing outside subclasses are listed: a compiled class cannot be subclassed by
interpreted code, which rules out games/core.py (every game subclasses `Game`).
"""

from __future__ import annotations

import argparse
import importlib.abc
import importlib.machinery
import importlib.util
import os
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent  # the folder that holds the games package
COMPILED = (
    "games/ai.py",
    "games/eggs_empires/rules.py",
    "games/eggs_empires/engine.py",
)
# mypyc also builds one shared runtime library for the group; naming the group puts it in games/.
GROUP = "games._native"


def _extensions(source: str) -> list[Path]:
    """Compiled files built from `source` (any Python version or platform suffix)."""
    path = ROOT / source
    return sorted(path.parent.glob(path.stem + ".*.so")) + sorted(path.parent.glob(path.stem + ".*.pyd"))


def clean() -> list[Path]:
    """Remove every extension module under games/ (the package has none but these build outputs): also one
    left by an older COMPILED list, which would otherwise shadow its .py file for good."""
    package = ROOT / "games"
    removed = sorted(package.rglob("*.so")) + sorted(package.rglob("*.pyd"))
    for path in removed:
        path.unlink()
    return removed


def build() -> list[Path]:
    """Compile COMPILED in a scratch folder and copy the extension modules next to their sources."""
    # imported here: only this command needs mypy and setuptools
    from mypyc.build import mypycify
    from setuptools import setup

    clean()
    sources = [str(ROOT / s) for s in COMPILED]
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    # setuptools reads the configuration of the folder it runs in, so build in a folder of our own (not
    # next to the project's pyproject.toml); it is kept (git-ignored build/) so that rebuilds after a
    # small change only recompile what changed.
    work = ROOT / "build" / "mypyc"
    for module in [*COMPILED, GROUP.replace(".", "/") + ".py"]:
        (work / module).parent.mkdir(parents=True, exist_ok=True)
    cwd = os.getcwd()
    os.chdir(work)
    try:
        extensions = mypycify(sources, opt_level="3", group_name=GROUP)
        setup(name="games-native", ext_modules=extensions, script_args=["--quiet", "build_ext", "--inplace"])
    finally:
        os.chdir(cwd)
    # Only this build's outputs: the kept build folder may still hold modules an older COMPILED listed.
    outputs = [s.removesuffix(".py") + suffix for s in COMPILED] + [GROUP.replace(".", "/") + "__mypyc" + suffix]
    copied = []
    for output in outputs:
        target = ROOT / output
        shutil.copy(work / output, target)  # a fresh mtime: tests check that no compiled module is stale
        copied.append(target)
    return copied


def compiled_modules() -> list[str]:
    """The COMPILED modules that a fresh interpreter would import as extension modules."""
    return [s for s in COMPILED if _extensions(s)]


def running_compiled() -> list[str]:
    """The COMPILED modules this interpreter has imported as extension modules (benchmarks report it,
    so a figure always says whether it comes from the compiled or the interpreted engine)."""
    running = []
    for source in COMPILED:
        module = sys.modules.get(source.removesuffix(".py").replace("/", "."))
        if module is not None and not str(getattr(module, "__file__", "")).endswith(".py"):
            running.append(source)
    return running


def _failed(reason: str, optional: bool) -> int:
    clean()  # never leave some modules compiled and others not after a half-finished build
    if optional:
        print(f"note: the engine runs interpreted (about half as fast): {reason}", file=sys.stderr)
        return 0
    print(f"error: {reason}", file=sys.stderr)
    return 2


class _SourcesFirst(importlib.abc.MetaPathFinder):
    """Finds the COMPILED modules' .py files, ahead of the extension modules beside them."""

    def __init__(self) -> None:
        self.sources = {s.removesuffix(".py").replace("/", "."): ROOT / s for s in COMPILED}

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        source = self.sources.get(fullname)
        return importlib.util.spec_from_file_location(fullname, source) if source else None


def prefer_sources() -> None:
    """Make this interpreter run the COMPILED modules interpreted even where they are compiled (the
    benchmark measures both engines in one sitting this way). Call it before they are imported."""
    imported = [name for name in _SourcesFirst().sources if name in sys.modules]
    if imported:
        raise RuntimeError(f"already imported, too late to run them interpreted: {', '.join(imported)}")
    if not any(isinstance(finder, _SourcesFirst) for finder in sys.meta_path):
        sys.meta_path.insert(0, _SourcesFirst())


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m games.build", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--clean", action="store_true", help="remove the compiled modules")
    action.add_argument("--status", action="store_true", help="list the modules that run compiled")
    action.add_argument(
        "--check",
        action="store_true",
        help="import the modules and exit 1 unless every one runs compiled (the Docker image's build checks it)",
    )
    parser.add_argument(
        "--optional",
        action="store_true",
        help="when compiling fails (no C compiler, no Python headers, no mypy), remove any partial "
        "output, say so and exit 0: the .py files then run interpreted",
    )
    args = parser.parse_args(argv)
    if args.check:
        for source in COMPILED:
            importlib.import_module(source.removesuffix(".py").replace("/", "."))
        running = running_compiled()
        print(f"running compiled: {', '.join(running) or 'none'} ({len(running)} of {len(COMPILED)})")
        return 0 if running == list(COMPILED) else 1
    if args.clean:
        for path in clean():
            print(f"removed {path.relative_to(ROOT)}")
        return 0
    if not args.status:
        try:
            built = build()
        except ImportError as exc:
            return _failed(f"compiling needs mypy (it ships mypyc) and setuptools: {exc}", args.optional)
        except (Exception, SystemExit) as exc:  # setuptools exits when the C compiler fails or is missing
            return _failed(f"compiling failed ({exc}); a C compiler and Python's headers are needed", args.optional)
        for path in built:
            print(f"built {path.relative_to(ROOT)}")
    compiled = compiled_modules()
    print(f"compiled: {', '.join(compiled) or 'none'} ({len(compiled)} of {len(COMPILED)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
