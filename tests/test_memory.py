"""Memory per active game (issue 37): what the bot keeps for each game, and how its process allocates."""

from __future__ import annotations

import gc
import pickle
import random
import sys
import tracemalloc
from datetime import timedelta
from pathlib import Path
from typing import Any

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


# Not the bot's per-game memory: picture drawing (its caches are bounded: bot.render.kit), and what the fake
# Discord and the bench's players around it keep (the fake's records are set aside: `_bots_own`).
NOT_THE_BOTS = ("/bot/render/", "/PIL/", "/fakediscord/", "/harness/", "/bench/", "/tests/", tracemalloc.__file__)
# ~39 KB at 16418eb, ~25 of which the games' engine states; a regression that kept, say, each message the bot
# sent (~20 KB a game) would pass it.
MAX_KB_PER_GAME = 55


async def test_each_game_opened_adds_a_bounded_amount_of_the_bots_memory(tmp_path: Path) -> None:
    """Python memory the bot (table service, storage, delivery, discord.py) holds per game open: traced from
    10 to 30 games opened through the real bot in process, what picture drawing and the fake Discord hold set
    aside. Relative (more games against fewer): start-up's memory and the warm caches' do not count."""
    from bench.load import InProcessRun, plan
    from harness import Harness

    h = await Harness.start(tmp_path / "memory.sqlite3", seed=1)
    try:
        load = InProcessRun(h, 0.0, random.Random(1))
        _guild, channels = await h.add_guild(33)
        planned = plan(33, random.Random(1), None, 6)
        await load.open_all(planned[:3], channels[:3], concurrency=3)  # warm: imports, caches, first requests
        await h.settle()
        tracemalloc.start(1)
        try:
            await load.open_all(planned[3:13], channels[3:13], concurrency=4)
            await h.settle()
            fewer = _bots_own(h, tmp_path / "set-aside")
            await load.open_all(planned[13:], channels[13:], concurrency=4)
            await h.settle()
            more = _bots_own(h, tmp_path / "set-aside")
        finally:
            tracemalloc.stop()
        assert not h.errors, h.errors[:3]
    finally:
        await h.close()
    per_game = (more - fewer) / 20 / 1024
    assert 0 < per_game < MAX_KB_PER_GAME, f"{per_game:.1f} KB per game opened"


def _bots_own(h: Any, aside: Path) -> int:
    """Traced memory but NOT_THE_BOTS', the fake Discord's records set aside in a file meanwhile."""
    from bench.load.plan import FAKE_RECORDS

    fake = h.fake
    aside.write_bytes(pickle.dumps({name: getattr(fake, name) for name in FAKE_RECORDS}))
    for name in FAKE_RECORDS:
        setattr(fake, name, type(getattr(fake, name))())
    gc.collect()
    snapshot = tracemalloc.take_snapshot()
    for name, value in pickle.loads(aside.read_bytes()).items():
        setattr(fake, name, value)
    return sum(
        trace.size
        for trace in snapshot.traces
        if not any(name in frame.filename for frame in trace.traceback for name in NOT_THE_BOTS)
    )
