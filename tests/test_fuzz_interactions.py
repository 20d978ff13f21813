"""Hostile input, the short CI version: a few hundred generated interactions against one arena.

The long version is `python -m bench fuzz --examples N`. Each example must be answered exactly once,
log no error and change nothing unless it was a legitimate move (harness/hostile.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness.hostile import Arena, build_arena, close_loop
from harness.hostile_inputs import command_interaction, component_interaction

pytestmark = pytest.mark.xdist_group("fuzz")
CLICKS = 150
COMMANDS = 80


def fuzz(examples: int) -> settings:
    return settings(
        max_examples=examples, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck)
    )


class Ring:
    """The arena and the event loop it lives on, shared by the examples of this module."""

    def __init__(self, arena: Arena, loop: asyncio.AbstractEventLoop) -> None:
        self.arena = arena
        self.loop = loop

    def run(self, coroutine: Any) -> Any:
        return self.loop.run_until_complete(coroutine)


@pytest.fixture(scope="module")
def ring(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Ring]:
    loop = asyncio.new_event_loop()
    path: Path = tmp_path_factory.mktemp("fuzz") / "bot.sqlite3"
    arena = loop.run_until_complete(build_arena(path))
    try:
        yield Ring(arena, loop)
        loop.run_until_complete(arena.cache_agrees())
        assert not arena.h.errors, arena.h.errors
    finally:
        loop.run_until_complete(arena.h.close())
        close_loop(loop)


@fuzz(CLICKS)
@given(data=st.data())
def test_forged_clicks_and_selects(ring: Ring, data: st.DataObject) -> None:
    example = data.draw(component_interaction(ring.arena))
    ring.run(ring.arena.hit(example))


@fuzz(COMMANDS)
@given(data=st.data())
def test_bad_commands(ring: Ring, data: st.DataObject) -> None:
    example = data.draw(command_interaction(ring.arena))
    ring.run(ring.arena.hit(example))
