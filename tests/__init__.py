"""The tests. With TEST_MINIMAL_GAME=1 the minimal game of tests/minimal_game/ is registered beside the
real ones before anything is collected (and in every `python -m tests.x` subprocess a test starts)."""

from tests import minimal_game

if minimal_game.wanted():
    minimal_game.register()
