"""The table service on its own (no Discord): lobby, turn loop, AI seats, AFK timers, replay, races."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import games
from storage import Database, GameRow, SeatRow
from table import Decided, Stale, TableError, TableService, TableUpdate

KEY = "eggs-empires"


class Recorder:
    """A notifier that remembers what it was told. Given the database, it also marks each turn's log
    line as posted, as the Discord notifier does (start-up resumption posts the lines never marked)."""

    def __init__(self, db: Database | None = None) -> None:
        self.updates: list[TableUpdate] = []
        self.reminders: list[tuple[int, list[int]]] = []
        self.db = db

    async def publish(self, update: TableUpdate) -> None:
        self.updates.append(update)
        if self.db is not None and update.game.id is not None:
            if update.events:
                await self.db.update_game(update.game.id, announced=update.version)
            # ... and what it showed, as Discord would have confirmed it (table.delivery).
            await self.db.record_delivered(
                {update.game.id: update.version},
                {update.game.id: (update.version, update.game.status != "active")},
                {(update.game.id, n.seat.seat): (n.version, n.prompt_digest, n.prompt is not None) for n in update.dms},
            )

    async def remind(self, game: GameRow, seats: list[SeatRow], deadline: datetime) -> None:
        assert game.id is not None
        self.reminders.append((game.id, [s.seat for s in seats]))

    async def remind_idle(self, game: GameRow, seats: list[SeatRow], since: datetime, can_end: bool) -> None:
        await self.remind(game, seats, since)


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2030, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(f"sqlite+aiosqlite:///{tmp_path / 't.sqlite3'}")
    try:
        yield database
    finally:
        await database.close()


async def lobby_of(table: TableService, humans: int, ais: int = 0, turn_seconds: int | None = None) -> int:
    row = await table.create_lobby(
        guild_id=1, channel_id=10, game_key=KEY, host_id=100, host_name="U0", turn_seconds=turn_seconds
    )
    assert row.id is not None
    for i in range(1, humans):
        await table.join(row.id, 100 + i, f"U{i}")
    for _ in range(ais):
        await table.add_ai(row.id, 100)
    return row.id


async def first_choice(table: TableService, game_id: int, user: int) -> Decided | None:
    notice = await table.private_view(game_id, user)
    if notice.prompt is None:
        return None
    pick = [c.id for c in notice.prompt.choices[: notice.prompt.pick]]
    return await table.decide(game_id, user, notice.seat.seat, notice.version, pick)


async def test_lobby_rules(db: Database) -> None:
    table = TableService(db)
    game_id = await lobby_of(table, 1)
    # A channel holds any number of lobbies; a person hosts at most two at once (a cap admins can change).
    await table.create_lobby(guild_id=1, channel_id=10, game_key=KEY, host_id=5, host_name="x")
    await table.create_lobby(guild_id=1, channel_id=10, game_key=KEY, host_id=5, host_name="x")
    with pytest.raises(TableError, match="already have 2 open lobbies"):
        await table.within_limits(1, 5)
    with pytest.raises(TableError, match="already have a seat"):
        await table.join(game_id, 100, "U0")
    with pytest.raises(TableError, match="needs 2 to 6"):
        await table.start(game_id, 100)
    await table.join(game_id, 101, "U1")
    with pytest.raises(TableError, match="Only the host"):
        await table.start(game_id, 101)
    with pytest.raises(TableError, match="cannot be"):
        await table.set_option(game_id, 100, "scoring", "nope")
    await table.set_option(game_id, 100, "scoring", "conpub")
    assert (await table.kick(game_id, 100, 1)) == "U1"
    assert [s.name for s in await db.seats(game_id)] == ["U0"]
    # The host leaving alone closes the lobby.
    assert await table.leave(game_id, 100) is True
    assert (await db.get_game(game_id)).status == "abandoned"  # type: ignore[union-attr]


async def test_a_whole_game_commits_every_action_and_replays(db: Database) -> None:
    recorder = Recorder()
    table = TableService(db, recorder)
    game_id = await lobby_of(table, 2, ais=1)
    await table.start(game_id, 100)
    assert recorder.updates[0].started
    for _ in range(500):
        row = await db.get_game(game_id)
        assert row is not None
        if row.status != "active":
            break
        for user in (100, 101):
            if (await db.get_game(game_id)).status == "active":  # type: ignore[union-attr]
                await first_choice(table, game_id, user)
    row = await db.get_game(game_id)
    assert row is not None and row.status == "finished"
    assert recorder.updates[-1].outcome is not None
    # Replay: the action log rebuilds the stored state exactly, AI decisions included.
    game = games.get(KEY)
    state = game.new(3, row.seed, row.options)
    actions = await db.actions(game_id)
    assert {a.seat for a in actions} == {0, 1, 2}
    for action in actions:
        game.apply(state, action.seat, list(action.action))
    assert game.to_json(state) == row.state


async def test_the_acknowledgement_comes_after_the_commit_and_before_the_others_hear(db: Database) -> None:
    recorder = Recorder()
    table = TableService(db, recorder)
    game_id = await lobby_of(table, 2)
    await table.start(game_id, 100)
    seen: list[str] = []

    async def ack(decided: Decided) -> None:
        _state, version = await db.load_state(game_id)
        assert version == decided.update.version  # committed already
        seen.append(f"ack:{len(recorder.updates)}")

    notice = await table.private_view(game_id, 100)
    assert notice.prompt is not None
    published_before = len(recorder.updates)
    await table.decide(game_id, 100, 0, notice.version, [notice.prompt.choices[0].id], ack=ack)
    assert seen == [f"ack:{published_before}"]
    assert len(recorder.updates) == published_before + 1


async def test_double_decisions_race_and_apply_once(db: Database) -> None:
    table = TableService(db)
    game_id = await lobby_of(table, 2)
    await table.start(game_id, 100)
    notice = await table.private_view(game_id, 100)
    assert notice.prompt is not None
    choice = [notice.prompt.choices[0].id]
    results = await asyncio.gather(
        *(table.decide(game_id, 100, 0, notice.version, choice) for _ in range(3)), return_exceptions=True
    )
    assert sum(isinstance(r, Decided) for r in results) == 1
    assert all(isinstance(r, Stale) for r in results if not isinstance(r, Decided))
    assert len(await db.actions(game_id)) == 1


async def test_a_decision_made_by_another_process_is_seen_before_ours_is_applied(db: Database) -> None:
    ours, theirs = TableService(db), TableService(db)
    game_id = await lobby_of(ours, 2)
    await ours.start(game_id, 100)
    mine = await ours.private_view(game_id, 100)
    assert mine.prompt is not None
    await ours.private_view(game_id, 101)  # both copies cached at the same version
    await theirs.private_view(game_id, 101)
    other = await theirs.private_view(game_id, 101)
    assert other.prompt is not None
    await theirs.decide(game_id, 101, 1, other.version, [other.prompt.choices[0].id])
    # Our cached copy is older than the stored version: it is reloaded, so nothing is lost or doubled.
    decided = await ours.decide(game_id, 100, 0, mine.version, [mine.prompt.choices[0].id])
    assert decided.update.version == 3
    assert len(await db.actions(game_id)) == 2


@pytest.mark.parametrize("seed", [1, 92, 148])  # 92 and 148 deal seat 0 several decisions in a row
async def test_afk_reminder_then_ai_then_ai_control_then_abandon(db: Database, seed: int) -> None:
    recorder = Recorder()
    clock = Clock()
    table = TableService(db, recorder, clock=clock, seeds=random.Random(seed))
    game_id = await lobby_of(table, 2, turn_seconds=60)
    await table.start(game_id, 100)
    row = await db.get_game(game_id)
    assert row is not None and row.deadline == clock.now + timedelta(seconds=30)
    assert await table.tick() == 0  # nothing due yet
    clock.now += timedelta(seconds=31)
    assert await table.tick() == 1
    assert recorder.reminders == [(game_id, [0, 1])]
    clock.now += timedelta(seconds=31)
    await first_choice(table, game_id, 100)  # seat 0 decides in time; seat 1 does not
    await table.tick()
    actions = await db.actions(game_id)
    assert [(a.seat, a.afk) for a in actions] == [(0, False), (1, True)]
    assert recorder.updates[-1].afk_seats == [1]
    seats = await db.seats(game_id)
    assert seats[1].afk_count == 1 and not seats[1].ai_controlled
    # Seat 1 stays away: a second AFK turn in a row hands the seat to the AI.
    for _ in range(2):
        clock.now += timedelta(minutes=5)
        await first_choice(table, game_id, 100)
        await table.tick()
        await table.tick()
        if (await db.seats(game_id))[1].ai_controlled:
            break
    assert (await db.seats(game_id))[1].ai_controlled
    # While the AI holds the seat, its moves are logged as AFK ones, not as the player's own.
    logged = len(await db.actions(game_id))
    later: list[tuple[int, bool]] = []
    for _ in range(20):  # until seat 1 has had a move (some deals give seat 0 several decisions in a row)
        await first_choice(table, game_id, 100)
        later = [(a.seat, a.afk) for a in (await db.actions(game_id))[logged:]]
        if any(seat == 1 for seat, _afk in later):
            break
    assert (1, True) in later and (1, False) not in later, later
    await table.back(game_id, 101)
    assert not (await db.seats(game_id))[1].ai_controlled
    # Now both players stay away: once every human is AI-controlled, the game is abandoned.
    for _ in range(20):
        clock.now += timedelta(minutes=5)
        await table.tick()
        if (await db.get_game(game_id)).status != "active":  # type: ignore[union-attr]
            break
    assert (await db.get_game(game_id)).status == "abandoned"  # type: ignore[union-attr]


async def test_a_new_service_after_restart_accepts_old_offers(db: Database) -> None:
    table = TableService(db)
    game_id = await lobby_of(table, 2)
    await table.start(game_id, 100)
    offered = await table.private_view(game_id, 101)
    await first_choice(table, game_id, 100)
    fresh = TableService(db)  # the process restarted: no caches
    assert offered.prompt is not None
    decided = await fresh.decide(game_id, 101, 1, offered.version, [offered.prompt.choices[0].id])
    assert decided.labels == [offered.prompt.choices[0].label]
    with pytest.raises(Stale):
        await fresh.decide(game_id, 101, 1, offered.version, [offered.prompt.choices[0].id])


async def test_deadlines_passed_while_down_are_worked_off_most_overdue_first_a_few_per_tick(db: Database) -> None:
    """After a long stop (issue 23), the timer handles at most `limit` due games per tick, the most overdue
    first, not every deadline in one burst of AI moves and requests."""
    recorder = Recorder()
    clock = Clock()
    table = TableService(db, recorder, clock=clock)
    started: list[int] = []
    for seconds in (600, 60, 300, 120, 30):  # different timers: different deadlines
        game_id = await lobby_of(table, 2, turn_seconds=seconds)
        await table.start(game_id, 100)
        started.append(game_id)
    clock.now += timedelta(hours=1)  # the process was down meanwhile: every deadline passed

    async def deadlines() -> dict[int, datetime]:
        rows = [await db.get_game(g) for g in started]
        return {row.id: row.deadline for row in rows if row is not None and row.id and row.deadline}

    ticks = 0
    while True:
        before = await deadlines()
        due = {g: d for g, d in before.items() if d <= clock.now}
        if not due:
            break
        assert await table.tick(limit=2) == min(2, len(due))
        after = await deadlines()
        handled = {g for g in started if after.get(g) != before.get(g)}
        assert handled == set(sorted(due, key=lambda g: (due[g], g))[:2]), "the two most overdue, no more"
        ticks += 1
    assert ticks >= 3, "five games due, two per tick (and their AFK deadlines after their reminders)"


async def test_a_click_on_a_game_still_owed_after_a_restart_repairs_that_game_first(db: Database) -> None:
    """Connect first, repair after (issue 23): while the background repair has not reached a game, a decision
    on it first shows its players what they were owed, then the decision's own update."""
    recorder = Recorder(db)
    table = TableService(db, recorder)
    game_id = await lobby_of(table, 2)
    await table.start(game_id, 100)
    await first_choice(table, game_id, 100)
    await first_choice(table, game_id, 101)  # a turn resolved...
    row = await db.get_game(game_id)
    assert row is not None
    await db.update_game(game_id, table_version=row.version - 1, delivered=row.version - 1)  # ...never shown

    after = Recorder(db)
    restarted = TableService(db, after)
    hold = asyncio.Event()
    restarted.start_repair(hold.wait)  # connected; the background repair waits (a long owed list ahead)
    decided = await first_choice(restarted, game_id, 100)
    assert decided is not None
    assert [u.version for u in after.updates] == [row.version, decided.update.version], (
        "the owed table first, then the click's"
    )
    assert after.updates[0].show_table
    hold.set()
    await restarted.repaired()
    assert len(after.updates) == 2, "the background repair does not show that game again"
