"""`python -m tests.minimal_game MODULE [ARGS...]`: run `python -m MODULE ARGS...` with the minimal game
registered (importing `tests` registered it, TEST_MINIMAL_GAME being set)."""

from __future__ import annotations

import runpy
import sys

from tests import minimal_game

if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: python -m tests.minimal_game MODULE [ARGS...]")
    minimal_game.register()
    module = sys.argv[1]
    sys.argv = [module, *sys.argv[2:]]
    runpy.run_module(module, run_name="__main__", alter_sys=True)
