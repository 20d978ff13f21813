"""The optional compiled engine (python -m games.build): never stale, and reported honestly."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from games import build


def test_compiled_modules_are_not_older_than_their_sources() -> None:
    # A compiled module shadows its .py file: one left over from an older source would run old rules.
    for source in build.compiled_modules():
        for extension in build._extensions(source):
            assert extension.stat().st_mtime >= (build.ROOT / source).stat().st_mtime, (
                f"{extension.name} is older than {source}: run `python -m games.build` (or --clean)"
            )


def test_no_stray_extension_module_shadows_a_source() -> None:
    # Only COMPILED modules and mypyc's runtime library may be extension modules: any other (say, left by
    # an older build that compiled more) would run instead of its .py file unnoticed.
    package = build.ROOT / "games"
    expected = {build.ROOT / (source.removesuffix(".py")) for source in build.COMPILED}
    expected.add(build.ROOT / (build.GROUP.replace(".", "/") + "__mypyc"))
    for extension in [*package.rglob("*.so"), *package.rglob("*.pyd")]:
        assert extension.parent / extension.name.split(".")[0] in expected, f"stray {extension}: run --clean"


@pytest.mark.parametrize("source", build.COMPILED)
def test_running_compiled_says_how_each_module_runs(source: str) -> None:
    module = importlib.import_module(source.removesuffix(".py").replace("/", "."))
    running = source in build.running_compiled()
    assert running == (not str(module.__file__).endswith(".py"))
    assert running == (source in build.compiled_modules())


def test_makefile_rebuilds_when_any_compiled_source_changes() -> None:
    # make decides when to recompile from its own list of sources: one missing there would leave a stale
    # compiled module shadowing an edited .py file until the next full build.
    makefile = (build.ROOT / "Makefile").read_text()
    line = next(line for line in makefile.splitlines() if line.startswith("NATIVE_SOURCES :="))
    assert line.split(":=")[1].split() == list(build.COMPILED)


def test_optional_build_falls_back_to_interpreted(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def no_compiler() -> list[Path]:
        raise SystemExit("error: command 'gcc' failed: No such file or directory")

    removed: list[bool] = []
    monkeypatch.setattr(build, "build", no_compiler)
    monkeypatch.setattr(build, "clean", lambda: removed.append(True) or [])
    assert build.main(["--optional"]) == 0
    assert "runs interpreted" in capsys.readouterr().err
    assert build.main([]) == 2  # asked for explicitly, a failed build is an error
    assert "gcc" in capsys.readouterr().err
    assert removed == [True, True]  # and no half-built set of modules is left behind either way


def test_prefer_sources_runs_the_py_files_even_where_compiled() -> None:
    # The benchmark measures the interpreted engine beside the compiled one this way; in CI the compiled
    # modules exist (make test builds them), so this also shows the finder wins over the extensions.
    code = (
        "from games import build; build.prefer_sources(); import games, games.ai;"
        "from games.eggs_empires import engine, rules;"
        "print(build.running_compiled(), engine.__file__.endswith('.py'), games.get('eggs-empires').title)"
    )
    shown = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=build.ROOT
    ).stdout.split()
    assert shown == ["[]", "True", "Eggs", "and", "Empires"]


def test_prefer_sources_refuses_once_a_module_is_imported() -> None:
    importlib.import_module("games.ai")
    with pytest.raises(RuntimeError, match=r"games\.ai"):
        build.prefer_sources()
