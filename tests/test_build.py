"""The optional compiled engine (python -m games.build): never stale, and reported honestly."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
import zipfile
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


@pytest.mark.slow
@pytest.mark.skipif(not build.compiled_modules(), reason="the engine is not compiled here (no C compiler)")
def test_a_wheel_built_after_compiling_installs_an_engine_that_runs_compiled(tmp_path: Path) -> None:
    """What the Docker image's stages do (docker itself may not run where the tests do): the build stage
    compiles, then builds the wheel; the runtime stage, with no compiler, installs it and checks
    (`python -m games.build --check`) that every compiled module is loaded compiled."""
    wheels, venv = tmp_path / "wheels", tmp_path / "venv"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(wheels), str(build.ROOT)],
        check=True,
        cwd=tmp_path,
    )
    [wheel] = wheels.glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        shipped = {name for name in archive.namelist() if name.endswith(".so")}
    assert {Path(p.removesuffix(".py")).as_posix() for p in build.COMPILED} <= {s.split(".")[0] for s in shipped}
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    target = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    # The engine imports nothing but the standard library: no dependency is needed to run the check.
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", target, str(wheel)], check=True
    )
    checked = subprocess.run(
        [python, "-m", "games.build", "--check"], check=False, capture_output=True, text=True, cwd=tmp_path
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert f"({len(build.COMPILED)} of {len(build.COMPILED)})" in checked.stdout


def test_the_dockerfile_compiles_in_a_build_stage_and_runs_slim() -> None:
    """The image runs the compiled engine: a build stage with a C compiler compiles it (failing rather
    than falling back to interpreted), a slim runtime stage of the same Python has no compiler and checks
    that every compiled module loads compiled."""
    dockerfile = (build.ROOT / "Dockerfile").read_text()
    stages = re.split(r"^FROM ", dockerfile, flags=re.M)[1:]
    assert len(stages) == 2
    builder, runtime = stages
    assert builder.startswith("${PYTHON_IMAGE} AS build") and runtime.startswith("${PYTHON_IMAGE}\n")
    assert re.search(r"^ARG PYTHON_IMAGE=python:3\.\d+-slim$", dockerfile, re.M)
    assert "gcc" in builder and "python -m games.build \\" in builder and "--optional" not in builder
    assert builder.index("python -m games.build") < builder.index("pip wheel")
    assert "gcc" not in runtime and "apt-get" not in runtime
    assert "python -m games.build --check" in runtime
    assert "*.so" in (build.ROOT / "pyproject.toml").read_text()  # the wheel carries the compiled modules
