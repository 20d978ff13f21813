"""Memory per active game (issue 37): what the bot keeps for each game, and how its process allocates."""

from __future__ import annotations

import sys
from datetime import timedelta
from pathlib import Path

import pytest

from bot.ops import memory
from storage import Database
from table import TableService
from table.core import IDLE_STATE, WatchTimes
from tests.test_table import Clock, Recorder, first_choice, lobby_of


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt: Linux only")
def test_the_bot_limits_its_malloc_arenas_unless_the_operator_chose(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MALLOC_ARENA_MAX", raising=False)
    assert memory.limit_malloc_arenas() is True
    monkeypatch.setenv("MALLOC_ARENA_MAX", "4")
    assert memory.limit_malloc_arenas() is False, "MALLOC_ARENA_MAX set: glibc applies the operator's own"


def test_the_entry_point_limits_the_arenas_before_the_loop_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    import bot.__main__ as entry

    calls: list[str] = []

    def limit() -> bool:
        calls.append("arenas")
        return True

    async def run(settings: object) -> int:
        calls.append("run")
        return 0

    monkeypatch.setattr(entry, "configure_logging", lambda settings: None)  # the tests' own handlers stay
    monkeypatch.setattr(entry, "limit_malloc_arenas", limit)
    monkeypatch.setattr(entry, "run", run)
    monkeypatch.setenv("DISCORD_TOKEN", "x.y.z")
    assert entry.main([]) == 0
    assert calls == ["arenas", "run"]


async def test_the_engine_state_of_a_game_idle_for_a_while_is_dropped_and_read_again(tmp_path: Path) -> None:
    """A game not moved for IDLE_STATE keeps no engine state in memory (the timer's tick drops it); its next
    decision reads it from the database and goes on as if it had been kept."""
    db = await Database.open(f"sqlite+aiosqlite:///{tmp_path / 't.sqlite3'}")
    try:
        clock = Clock()
        # (the watchdog's look for idle games is left out: it reads the game, as a player's click would)
        table = TableService(db, Recorder(db), clock=clock, watch=WatchTimes(idle=timedelta(days=3650)))
        idle, busy = await lobby_of(table, 2), await lobby_of(table, 2)
        for game_id in (idle, busy):
            await table.start(game_id, 100)
        await table.tick()
        assert set(table._cache) == {idle, busy}
        for _ in range(2):
            clock.now += IDLE_STATE / 2 + timedelta(seconds=1)
            assert await first_choice(table, busy, 100) is not None or await first_choice(table, busy, 101)
            await table.tick()
        assert set(table._cache) == {busy}, "the game nobody moved for IDLE_STATE has no state kept"
        before = await db.get_game(idle)
        assert before is not None
        decided = await first_choice(table, idle, 100) or await first_choice(table, idle, 101)
        assert decided is not None, "read again, its players decide as before"
        after = await db.get_game(idle)
        assert after is not None and after.version > before.version
        assert idle in table._cache
    finally:
        await db.close()
