"""The optional compiled engine (python -m games.build): never stale, and reported honestly."""

from __future__ import annotations

import importlib

import pytest

from games import build


def test_compiled_modules_are_not_older_than_their_sources() -> None:
    # A compiled module shadows its .py file: one left over from an older source would run old rules.
    for source in build.compiled_modules():
        for extension in build._extensions(source):
            assert extension.stat().st_mtime >= (build.ROOT / source).stat().st_mtime, (
                f"{extension.name} is older than {source}: run `python -m games.build` (or --clean)")


@pytest.mark.parametrize("source", build.COMPILED)
def test_running_compiled_says_how_each_module_runs(source: str) -> None:
    module = importlib.import_module(source.removesuffix(".py").replace("/", "."))
    running = source in build.running_compiled()
    assert running == (not str(module.__file__).endswith(".py"))
    assert running == (source in build.compiled_modules())
