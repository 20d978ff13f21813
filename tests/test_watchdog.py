"""The watchdog (issue 20, point 3): at every timer tick, games that should have moved and did not are
re-armed, logged with their id and what was re-armed, and counted (tablebot_games_stalled_total).

Driven through the harness: the real bot and discord.py objects, the fake Discord recording what
players see; the clock is the harness's.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from harness import Harness
from harness.play import choice_components, decide_from_message
from storage import Database
from table import TableService

GAME_ID = 1
KEY = "eggs-empires"


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator[Harness]:
    # Shards set: the bot does not keep games' rows in memory, as when another process shares its
    # database (the DM side of a sharded bot commits clicks of this process's games).
    harness = await Harness.start(tmp_path / "bot.sqlite3", shard_ids=[0], shard_count=1)
    try:
        yield harness
    finally:
        await harness.close()


def stalled(h: Harness, cause: str) -> float:
    assert h.bot is not None
    return float(h.bot.metrics.games_stalled.labels(KEY, cause)._value.get())


async def two_players(h: Harness, timer: int) -> list[int]:
    users = [h.user("Alice"), h.user("Bob")]
    await h.slash(users[0], "game new", game=KEY, timer=timer)
    await h.click(users[1], h.find_button(h.channel, "Join"))
    await h.click(users[0], h.find_button(h.channel, "Start"))
    return users


def prompts(h: Harness, users: list[int]) -> dict[int, list[str]]:
    """The choices each player sees now: the custom ids of the choice buttons and menus of the last of
    their DMs (messages, or answers and follow-ups to their clicks in DMs) that offers any."""
    seen: dict[int, list[str]] = {}
    for user in users:
        offering = [m for m in h.dms(user) if choice_components(m)]
        seen[user] = [str(c["custom_id"]) for c in choice_components(offering[-1])] if offering else []
    return seen


def shown_again(before: dict[int, list[str]], after: dict[int, list[str]]) -> set[int]:
    """The players who were shown new choices between two looks."""
    return {user for user, ids in after.items() if ids and ids != before[user]}


async def test_a_turn_committed_by_a_process_that_died_is_shown_by_the_watchdog_of_a_game_without_timer(
    h: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    """The table model's open gap: the DM side of a sharded bot commits the click that moves the turn
    on, and dies before sending anybody their new prompt. With no turn timer nothing else would ever
    look at the game: the watchdog finds it idle, sends the awaited players their prompt again, and
    they play on from their DMs."""
    users = await two_players(h, timer=0)
    assert h.bot is not None
    start = datetime.now(UTC)
    h.set_clock(start)
    # Alice decides from her DM in the bot; Bob's click is committed by the other process, which dies
    # before telling anybody (its notifier never runs).
    assert await decide_from_message(h, users[0], h.dms(users[0])[-1])
    dm_side = TableService(await Database.open(f"sqlite+aiosqlite:///{h.database}"))
    try:
        notice = await dm_side.private_view(GAME_ID, users[1])
        assert notice.prompt is not None
        await dm_side.decide(GAME_ID, users[1], notice.seat.seat, notice.version, [notice.prompt.choices[0].id])
    finally:
        await dm_side.db.close()
    committed = len(await h.bot.db.actions(GAME_ID))

    before = prompts(h, users)
    assert await h.tick(start + timedelta(hours=23)) == 0
    assert shown_again(before, prompts(h, users)) == set() and stalled(h, "idle") == 0  # not idle long enough

    with caplog.at_level(logging.WARNING, logger="table.watchdog"):
        await h.tick(start + timedelta(hours=25))
    assert shown_again(before, prompts(h, users)) == set(users)  # both get the new turn's prompt
    assert stalled(h, "idle") == 1
    [record] = [r for r in caplog.records if getattr(r, "event", None) == "game_stalled"]
    assert record.game_id == GAME_ID and record.rearmed == "prompt" and record.levelno == logging.WARNING
    assert f"game {GAME_ID} stalled (idle): re-armed prompt" in record.getMessage()

    # Looked at again one idle period later, not at the next tick.
    mark = len(h.fake.calls)
    await h.tick(start + timedelta(hours=26))
    assert h.calls_since(mark) == [] and stalled(h, "idle") == 1
    # The prompts are live: each player decides from their latest DM and the game moves on.
    for user in users:
        assert await decide_from_message(h, user, h.dms(user)[-1])
    assert len(await h.bot.db.actions(GAME_ID)) == committed + 2


async def test_a_game_whose_timer_keeps_failing_is_rearmed_after_the_grace(
    h: Harness, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The stand-in AI fails at every deadline (a bug): the timer makes no progress, the game sits past
    its deadline. After the grace the watchdog sends the players their prompt again with a fresh
    deadline and logs an error; once the fault is gone the timer plays the absent players' turn."""
    users = await two_players(h, timer=60)
    assert h.bot is not None
    table = h.bot.table
    start = datetime.now(UTC)

    async def broken_stand_in(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("the stand-in AI failed")

    monkeypatch.setattr(table, "_afk_turn", broken_stand_in)
    await h.tick(start + timedelta(seconds=31))  # the reminder at half time
    row = await h.bot.db.get_game(GAME_ID)
    assert row is not None and row.reminded
    with caplog.at_level(logging.WARNING):
        await h.tick(start + timedelta(seconds=62))  # the deadline: the stand-in fails
        mark = len(h.fake.calls)
        await h.tick(start + timedelta(seconds=100))  # still failing, within the grace
        assert stalled(h, "overdue") == 0 and h.calls_since(mark) == []
        now = start + timedelta(seconds=123)
        await h.tick(now)  # failing for the whole grace (60 s)
    assert stalled(h, "overdue") == 1
    sent = {call.path for call in h.calls_since(mark)}
    assert all(any(path.startswith(f"/channels/{h.dm_channel(u)}/") for path in sent) for u in users)
    [record] = [r for r in caplog.records if getattr(r, "event", None) == "game_stalled"]
    assert record.levelno == logging.ERROR and record.game_id == GAME_ID
    assert record.rearmed == "prompt,timer"
    assert "waiting for the human seats [0, 1]" in record.getMessage()  # the stall report
    row = await h.bot.db.get_game(GAME_ID)
    assert row is not None and row.deadline == now + timedelta(seconds=30) and not row.reminded
    for user in users:
        assert choice_components(h.dms(user)[-1])

    monkeypatch.undo()  # the fault is fixed: the re-armed timer reminds, then the stand-in plays
    version = row.version
    await h.tick(now + timedelta(seconds=31))
    await h.tick(now + timedelta(seconds=62))
    row = await h.bot.db.get_game(GAME_ID)
    assert row is not None and row.version == version + 2
    assert stalled(h, "overdue") == 1


async def test_a_game_without_timer_idle_for_days_reminds_its_players_then_lets_the_host_end_it(h: Harness) -> None:
    users = await two_players(h, timer=0)
    alice, bob = users
    assert h.bot is not None
    start = datetime.now(UTC)
    [thread] = h.threads()

    def reminders() -> list[dict[str, object]]:
        return [m for m in h.messages_in(thread) if "the game is waiting for you" in str(m["content"])]

    await h.tick(start + timedelta(hours=25))
    [first] = reminders()
    assert f"<@{alice}>" in str(first["content"]) and f"<@{bob}>" in str(first["content"])
    assert h.components(first) == []  # a day idle: a reminder only
    await h.tick(start + timedelta(hours=49))
    assert len(reminders()) == 2 and h.components(reminders()[-1]) == []
    await h.tick(start + timedelta(hours=73))  # three days since the game's start, nobody moved
    last = reminders()[-1]
    assert len(reminders()) == 3 and "the host can end the game" in str(last["content"])
    [end] = h.components(last)
    assert end["label"] == "End the game"

    refused = await h.click(bob, str(end["custom_id"]), message=last)
    assert refused[0]["type"] == 4 and "Only the host" in str(refused[0]["data"])
    row = await h.bot.db.get_game(GAME_ID)
    assert row is not None and row.status == "active"
    await h.click(alice, str(end["custom_id"]), message=last)
    row = await h.bot.db.get_game(GAME_ID)
    assert row is not None and row.status == "abandoned"
