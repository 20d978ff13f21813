"""The database unavailable for a few seconds during play (short CI version of `python -m bench faults`).

SQLite always (an I/O error on every statement, and a write lock held by another connection);
PostgreSQL when TEST_POSTGRES_URL is set (the database closed to connections and its backends
terminated). Players who click meanwhile are told to try again in a moment and nothing is changed;
work committed before the outage (AI turns, notifications) resumes by itself; whole games end with
replay equal to the stored state and every event and log line shown once.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from harness import Harness
from harness.db_faults import PostgresOutage, SQLiteLock, SQLiteOutage
from harness.fault_play import (
    RECORDED,
    TRY_AGAIN,
    Recorder,
    Table,
    caught_up,
    check_game,
    open_game,
    play,
)
from harness.play import choice_components, decide_from_message
from storage import DatabaseUnavailable
from tests.storage.conftest import PG_SKIP, PG_URL, create_pg_database, drop_pg_database


def said(responses: list[dict[str, Any]], words: str) -> bool:
    return any(words in str((r.get("data") or {}).get("content") or "") for r in responses)


async def two_humans_and_an_ai(h: Harness, key: str) -> tuple[int, int, Recorder, int]:
    """Alice and Bob at a started game of `key` with one AI seat, its notifications recorded."""
    alice, bob = h.user("Alice"), h.user("Bob")
    recorder = Recorder()
    recorder.install(h.bot)  # type: ignore[arg-type]
    game_id = await open_game(Table.of(h), key, [alice, bob], 1, h.channel)
    return alice, bob, recorder, game_id


@pytest.fixture
async def outage_harness(tmp_path: Path) -> AsyncIterator[tuple[Harness, SQLiteOutage]]:
    with SQLiteOutage() as outage:
        h = await Harness.start(tmp_path / "bot.sqlite3")
        try:
            yield h, outage
        finally:
            await h.close()


async def first_prompt(h: Harness, user: int) -> dict[str, Any]:
    [dm] = h.dms(user)
    assert choice_components(dm)
    return dm


async def test_a_click_during_an_outage_is_refused_politely_and_changes_nothing(
    outage_harness: tuple[Harness, SQLiteOutage],
) -> None:
    h, outage = outage_harness
    alice, bob, recorder, game_id = await two_humans_and_an_ai(h, "eggs-empires")
    assert h.bot is not None
    db = h.bot.table.db
    before = (await db.get_game(game_id), await db.actions(game_id))
    dm = await first_prompt(h, alice)
    outage.down = True
    responses = await h.click(alice, choice_components(dm)[0]["custom_id"], message=dm)
    outage.down = False
    assert said(responses, TRY_AGAIN) and responses[-1]["data"]["flags"] & 64, responses
    after = (await db.get_game(game_id), await db.actions(game_id))
    assert after[0] is not None and before[0] is not None
    assert (after[0].version, after[0].state, len(after[1])) == (before[0].version, before[0].state, len(before[1]))
    # The same button works once the database is back, and the game plays to its end.
    responses = await h.click(alice, choice_components(dm)[0]["custom_id"], message=dm)
    assert not said(responses, TRY_AGAIN)
    stats = await play(Table.of(h), game_id, [alice, bob], rng=random.Random(1))
    check = await check_game(Table.of(h), game_id, recorder, stats)
    assert check.ok(), check.problems
    assert outage.refused > 0


async def test_a_commit_that_fails_leaves_nothing_half_applied(outage_harness: tuple[Harness, SQLiteOutage]) -> None:
    h, outage = outage_harness
    alice, bob, recorder, game_id = await two_humans_and_an_ai(h, "eggs-empires")
    assert h.bot is not None
    db = h.bot.table.db
    commit = db.commit_actions
    failing = 0

    async def failing_commit(*args: Any, **kwargs: Any) -> int:
        nonlocal failing
        if failing:  # everything before the commit was read; the commit itself meets the outage
            failing -= 1
            outage.down = True
            try:
                return await commit(*args, **kwargs)
            finally:
                outage.down = False
        return await commit(*args, **kwargs)

    db.commit_actions = failing_commit  # type: ignore[method-assign]

    async def fail_some_commits(step: int) -> None:
        nonlocal failing
        if step % 3 == 0:
            failing = 1

    stats = await play(Table.of(h), game_id, [alice, bob], rng=random.Random(4), between=fail_some_commits)
    assert stats.try_again >= 3, stats
    check = await check_game(Table.of(h), game_id, recorder, stats)
    assert check.ok(), check.problems


async def test_an_outage_right_after_a_commit_finds_the_turn_already_whole(
    outage_harness: tuple[Harness, SQLiteOutage],
) -> None:
    h, outage = outage_harness
    alice, bob, recorder, game_id = await two_humans_and_an_ai(h, "eggs-empires")
    assert h.bot is not None
    table = h.bot.table
    db = table.db
    commit = db.commit_actions
    armed = False

    async def commit_then_fail(*args: Any, **kwargs: Any) -> int:
        nonlocal armed
        version = await commit(*args, **kwargs)
        if armed:  # the database goes away just after this decision is committed
            armed = False
            outage.down = True
        return version

    db.commit_actions = commit_then_fail  # type: ignore[method-assign]
    # Bob decides first, so that Alice's decision resolves the turn (the AI and the log follow it).
    await decide_from_message(h, bob, await first_prompt(h, bob))
    actions_before = len(await db.actions(game_id))
    armed = True  # the next commit is Alice's
    responses = await h.click(
        alice, choice_components(await first_prompt(h, alice))[0]["custom_id"], message=h.dms(alice)[0]
    )
    # Her decision, the AI's turn it set off and the new deadline were one commit: nothing is owed.
    assert not said(responses, RECORDED) and not said(responses, TRY_AGAIN), responses
    assert table.stalled == []
    outage.down = False
    assert len(await db.actions(game_id)) == actions_before + 2
    db.commit_actions = commit  # type: ignore[method-assign]
    stats = await play(Table.of(h), game_id, [alice, bob], rng=random.Random(2))
    stats.accepted += 1  # Alice's decision
    check = await check_game(Table.of(h), game_id, recorder, stats)
    assert check.ok(), check.problems


async def test_an_outage_as_the_last_decision_finishes_the_game_resumes_by_itself(
    outage_harness: tuple[Harness, SQLiteOutage],
) -> None:
    h, outage = outage_harness
    alice, bob, recorder, game_id = await two_humans_and_an_ai(h, "eggs-empires")
    assert h.bot is not None
    table = h.bot.table
    db = table.db
    finish = db.finish_game
    failed = False

    async def finish_in_an_outage(*args: Any, **kwargs: Any) -> None:
        nonlocal failed
        if not failed:  # the last decision is committed; finishing the game meets the outage
            failed = True
            outage.down = True
            asyncio.get_running_loop().call_later(0.3, setattr, outage, "down", False)
        await finish(*args, **kwargs)

    db.finish_game = finish_in_an_outage  # type: ignore[method-assign]
    stats = await play(Table.of(h), game_id, [alice, bob], rng=random.Random(2))
    assert failed and table.stalls == 1
    await caught_up(Table.of(h))  # nobody clicks: the table finishes the game by itself
    assert table.stalled == []
    row = await db.get_game(game_id)
    assert row is not None and row.status == "finished"
    assert len(await db.results(game_id)) == 3
    check = await check_game(Table.of(h), game_id, recorder, stats)
    assert check.ok(), check.problems


def answers_timed(h: Harness) -> list[tuple[float, Any]]:
    """Every interaction callback the bot sends from now on, with when it was sent."""
    answered: list[tuple[float, Any]] = []
    webhook_request = h.fake.webhook_request

    async def timed(route: Any, session: Any, **kwargs: Any) -> Any:
        answered.append((time.monotonic(), kwargs.get("payload")))
        return await webhook_request(route, session, **kwargs)

    h.fake.webhook_request = timed  # type: ignore[method-assign]
    return answered


async def decide_while_locked(h: Harness, tmp_path: Path, seconds: float) -> tuple[float, float, float]:
    """Alice decides while another connection holds the write lock for `seconds`. Checks that her click
    was answered with a deferral, edited once the commit was done, and counted once; returns when she
    clicked, when the lock was released and when the first answer was sent."""
    alice, bob = h.user("Alice"), h.user("Bob")
    game_id = await open_game(Table.of(h), "eggs-empires", [alice, bob], 0, h.channel)
    answered = answers_timed(h)
    released = await SQLiteLock(str(tmp_path / "bot.sqlite3")).taken_for(seconds)
    released_at: list[float] = []
    released.add_done_callback(lambda _: released_at.append(time.monotonic()))
    start = time.monotonic()
    dm = await first_prompt(h, alice)
    await h.click(alice, choice_components(dm)[0]["custom_id"], message=dm)
    await released
    first_at, first = answered[0]
    assert first is not None and first["type"] == 6, "a deferred update, edited once the commit is done"
    assert "You chose" in (h.dms(alice)[0]["content"] or "")
    assert h.bot is not None
    assert len(await h.bot.table.db.actions(game_id)) == 1
    return start, released_at[0], first_at


async def test_a_write_lock_held_for_seconds_defers_the_answer_in_time(harness: Harness, tmp_path: Path) -> None:
    start, _released, first_at = await decide_while_locked(harness, tmp_path, 3.5)
    assert first_at - start < 3.0, "Discord got an answer within its 3 seconds"


async def test_a_decision_that_waits_is_acknowledged_long_before_its_answer(harness: Harness, tmp_path: Path) -> None:
    # A click whose commit waits (here a write lock held for 1.5 s) is deferred at once, not after the
    # 2 s that other interactions allow, so the player's client stops spinning; the answer follows.
    _start, released_at, first_at = await decide_while_locked(harness, tmp_path, 1.5)
    assert first_at < released_at, "the deferral came while the lock was still held"


@pytest.mark.parametrize("how", ["button", "command"])
async def test_a_lobby_join_during_a_held_write_lock_is_answered_in_time(
    harness: Harness, tmp_path: Path, how: str
) -> None:
    """Joining writes a seat: while another connection holds the write lock for 3.5 s, Discord must still
    hear within 3 s (a deferral), and the join is carried out once the lock is released."""
    h = harness
    alice, bob = h.user("Alice"), h.user("Bob")
    await h.slash(alice, "game new", game="eggs-empires", timer=0)
    answered = answers_timed(h)
    released = await SQLiteLock(str(tmp_path / "bot.sqlite3")).taken_for(3.5)
    start = time.monotonic()
    if how == "button":
        await h.click(bob, h.find_button(h.channel, "Join"))
    else:
        await h.slash(bob, "game join")
    await released
    await h.settle()
    first_at, first = answered[0]
    assert first_at - start < 3.0, "Discord got an answer within its 3 seconds"
    if how == "button":
        assert first["type"] == 6, "a deferred update of the lobby message"
    else:
        assert first["type"] == 5 and first["data"]["flags"] == 64, "a private 'thinking' deferral"
    row = await h.bot.table.db.channel_game(h.channel)  # type: ignore[union-attr]
    assert row is not None
    assert [s.user_id for s in await h.bot.table.db.seats(row.id)] == [alice, bob]  # type: ignore[union-attr]
    lobby = h.messages_in(h.channel)[-1]
    assert "Bob" in str(lobby["embeds"]), "the lobby shows the new player once the lock is gone"


async def test_turn_timers_continue_after_an_outage(outage_harness: tuple[Harness, SQLiteOutage]) -> None:
    h, outage = outage_harness
    alice, bob = h.user("Alice"), h.user("Bob")
    await h.slash(alice, "game new", game="eggs-empires", timer=60)
    await h.click(bob, h.find_button(h.channel, "Join"))
    await h.click(alice, h.find_button(h.channel, "Start"))
    assert h.bot is not None
    db = h.bot.table.db
    later = datetime.now(UTC) + timedelta(hours=1)
    outage.down = True
    with pytest.raises(DatabaseUnavailable):
        await db.due_games(later)  # the timer cannot even look
    outage.down = False
    await h.tick(later)  # the reminder
    await h.tick(later + timedelta(hours=1))  # the AI decides for both AFK players
    actions = await db.actions(1)
    assert len(actions) == 2 and all(a.afk for a in actions)
    h._errors.records.clear()


@pytest.mark.skipif(not PG_URL, reason=PG_SKIP)
async def test_postgres_refusing_connections_mid_game(tmp_path: Path) -> None:
    url = await create_pg_database()
    outage = PostgresOutage(url)
    h = await Harness.start(tmp_path / "unused.sqlite3", database_url=url)
    try:
        alice, bob, recorder, game_id = await two_humans_and_an_ai(h, "eight-minute-empire")
        assert h.bot is not None
        db = h.bot.table.db
        version = (await db.get_game(game_id)).version  # type: ignore[union-attr]
        await outage.start()
        refused = 0
        for user in (alice, bob):
            dms = h.dms(user)
            if dms and choice_components(dms[-1]):
                responses = await h.click(user, choice_components(dms[-1])[0]["custom_id"], message=dms[-1])
                refused += said(responses, TRY_AGAIN)
        await outage.stop()
        assert refused >= 1 and outage.terminated >= 1
        assert (await db.get_game(game_id)).version == version  # type: ignore[union-attr]
        rng = random.Random(3)

        async def another_outage(step: int) -> None:
            if step in (5, 15):
                await outage.start()
                asyncio.get_running_loop().call_later(0.5, lambda: asyncio.ensure_future(outage.stop()))

        stats = await play(Table.of(h), game_id, [alice, bob], rng=rng, between=another_outage)
        await outage.stop()
        await caught_up(Table.of(h))
        check = await check_game(Table.of(h), game_id, recorder, stats)
        assert check.ok(), check.problems
        h._errors.records.clear()  # the outages were logged, as they should be
    finally:
        await h.close()
        await drop_pg_database(url)
