"""A minimal game, written as a new contributor would following docs/adding-a-game.md: an engine
against `games.core` alone, a random AI, no renderer, English only ("Tiny Bid", in `tinybid/`).

This folder is a place to put on `games.__path__` (as games/ itself is), so that `tinybid` registers
the way every game does. It is registered only when a run opts in: with `TEST_MINIMAL_GAME=1` in the
environment (`tests/__init__.py` reads it, so pytest, its workers and the `python -m tests.x`
subprocesses the tests start all see the game); the ordinary suite runs with the real games alone.
`tests/test_adding_a_game.py` runs the per-game tests with it, and plays it through the Discord harness.
"""

from __future__ import annotations

import os
from pathlib import Path

FOLDER = Path(__file__).resolve().parent
KEY = "tiny-bid"
ENV = "TEST_MINIMAL_GAME"


def wanted() -> bool:
    """Does this run ask for the minimal game (TEST_MINIMAL_GAME set to anything but "" or "0")?"""
    return os.environ.get(ENV, "") not in ("", "0")


def register() -> None:
    """Put this folder on `games.__path__` (once) and discover the games again."""
    import games

    if str(FOLDER) not in games.__path__:
        games.__path__.append(str(FOLDER))
        games.forget()


def python_args(*args: str) -> list[str]:
    """The arguments of a `python -m MODULE ...` subprocess that sees the same games as this run: when the
    minimal game is registered here, the module runs through `python -m tests.minimal_game MODULE ...`,
    which registers it first (a module outside tests/ never reads TEST_MINIMAL_GAME)."""
    if wanted() and len(args) >= 2 and args[0] == "-m":
        return ["-m", "tests.minimal_game", *args[1:]]
    return list(args)
