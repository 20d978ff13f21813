"""A minimal game, written as a new contributor would following docs/adding-a-game.md: an engine
against `games.core` alone, a random AI, no renderer, English only ("Tiny Bid", in `tinybid/`).

This folder is a place to put on `games.__path__` (as games/ itself is), so that `tinybid` registers
the way every game does. It is registered only when a run opts in: with `TEST_MINIMAL_GAME=1` in the
environment (`tests/__init__.py` reads it, and `site/sitecustomize.py` on PYTHONPATH registers it in every Python
subprocess a test starts, so pytest, its workers, the bot in a subprocess and `python -m games` all see
the game); the ordinary suite runs with the real games alone.
`tests/test_adding_a_game.py` runs the per-game tests with it, and plays it through the Discord harness.
"""

from __future__ import annotations

import os
from pathlib import Path

FOLDER = Path(__file__).resolve().parent
SITE = FOLDER / "site"  # its sitecustomize registers the game in subprocesses
KEY = "tiny-bid"
ENV = "TEST_MINIMAL_GAME"


def wanted() -> bool:
    """Does this run ask for the minimal game (TEST_MINIMAL_GAME set to anything but "" or "0")?"""
    return os.environ.get(ENV, "") not in ("", "0")


def register() -> None:
    """Put this folder on `games.__path__` (once) and discover the games again; and `site/` on PYTHONPATH,
    whose sitecustomize does the same in every Python subprocess started from now on."""
    import games

    if str(FOLDER) not in games.__path__:
        games.__path__.append(str(FOLDER))
        games.forget()
    paths = os.environ.get("PYTHONPATH", "").split(os.pathsep)
    if str(SITE) not in paths:
        os.environ["PYTHONPATH"] = os.pathsep.join([str(SITE), *(p for p in paths if p)])
