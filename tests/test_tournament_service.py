"""The tournament service (table.tournaments.service) over the table service and a real database: whole
tournaments played to a podium, withdrawals and no-shows, round deadlines, restarts and crashes between any
two steps (a table is never opened twice), knockouts and round robins, and what it refuses."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections import Counter
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import text

import games
from storage import Database
from table import TableError, TableService
from table import messages as table_messages
from table.tournaments import messages, table_points
from table.tournaments.records import TournamentStatus, current_scores, ranked
from table.tournaments.service import TournamentService

REGGVERSE = "reggverse-riddles"
EGGS = "eggs-empires"
HOST = 1
GUILD = 5
TURN = 60  # seconds: the tables' turn timer


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2030, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


class Told:
    """A TournamentNotifier that remembers what it was told."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int | None]] = []
        self.last: TournamentStatus | None = None

    async def round_opened(self, status: TournamentStatus, number: int) -> None:
        self.calls.append(("opened", number))
        assert status.rounds[number - 1].status == "open" and status.tournament.current_round == number
        assert all(t.game_id is not None or t.result is not None for t in status.rounds[number - 1].tables)

    async def round_finished(self, status: TournamentStatus, number: int) -> None:
        self.calls.append(("finished", number))
        assert status.rounds[number - 1].status == "finished"
        assert sum(s.played + s.byes for s in status.standings) == sum(
            len(t.entrants) for r in status.rounds[:number] for t in r.tables
        ) + sum(len(r.pairing.byes) for r in status.rounds[:number])
        assert all(t.result is not None for t in status.rounds[number - 1].tables)

    async def finished(self, status: TournamentStatus) -> None:
        self.calls.append(("over", None))
        assert status.tournament.status == "finished" and status.champion == status.podium[0]
        self.last = status

    async def cancelled(self, status: TournamentStatus) -> None:
        self.calls.append(("cancelled", None))
        self.last = status


class Crash(Exception):
    """The process dies here: whatever was committed stays, the services' memory is lost."""


class World:
    """One database and the services of the process running now; `restart()` is a new process on it."""

    def __init__(self, db: Database, clock: Clock, seed: int = 0) -> None:
        self.db = db
        self.clock = clock
        self.told = Told()
        self.rng = random.Random(seed)
        self.table, self.tournaments = self._services()
        self.restarts = 0

    def _services(self) -> tuple[TableService, TournamentService]:
        table = TableService(self.db, clock=self.clock, seeds=random.Random(self.rng.random()))
        return table, TournamentService(self.db, table, self.told, seeds=random.Random(self.rng.random()))

    def restart(self) -> None:
        self.restarts += 1
        for name in ("open_table", "begin_round", "resolve_table", "set_round_status"):
            self.db.__dict__.pop(name, None)  # a crash planted on the old process's database methods
        self.table, self.tournaments = self._services()

    def crash_at(self, owner: Any, name: str, call: int) -> None:
        """Make the `call`-th call of `owner.name` from now on raise Crash before it does anything."""
        real = getattr(owner, name)
        count = 0

        async def crashing(*args: Any, **kwargs: Any) -> Any:
            nonlocal count
            count += 1
            if count == call:
                raise Crash(f"{name} #{call}")
            return await real(*args, **kwargs)

        setattr(owner, name, crashing)


def slow_reads(db: Database) -> None:
    """Let other tasks run right after each read of a tournament, as a slow database or another process would:
    two advances at once then both see a table without its game before either opens it."""
    read = db.tournament_snapshot

    async def slowly(tournament_id: int) -> Any:
        found = await read(tournament_id)
        for _ in range(3):
            await asyncio.sleep(0)
        return found

    db.tournament_snapshot = slowly  # type: ignore[method-assign]


async def at_once(dbs: list[Database], *calls: Any) -> None:
    """Run the advances `calls` at once, each taking its first step from a read of the tournament made at the
    same moment (two processes looking at once): the first read of each waits until every one has read."""
    reads = {id(db): db.tournament_snapshot for db in dbs}
    arrived = 0
    everyone = asyncio.Event()

    def gated(read: Any) -> Any:
        async def gate(tournament_id: int) -> Any:
            nonlocal arrived
            found = await read(tournament_id)
            if arrived < len(calls):
                arrived += 1
                if arrived == len(calls):
                    everyone.set()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(everyone.wait(), 2)
            return found

        return gate

    for db in dbs:
        db.tournament_snapshot = gated(reads[id(db)])  # type: ignore[method-assign]
    try:
        done = await asyncio.gather(*calls, return_exceptions=True)
    finally:
        for db in dbs:
            db.tournament_snapshot = reads[id(db)]  # type: ignore[method-assign]
    for outcome in done:
        if isinstance(outcome, BaseException):
            raise outcome


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(f"sqlite+aiosqlite:///{tmp_path / 't.sqlite3'}")
    try:
        yield database
    finally:
        await database.close()


async def raw(db: Database, sql: str, **params: Any) -> list[Any]:
    async with db.engine.connect() as conn:
        return list((await conn.execute(text(sql), params)).all())


async def opened_once(db: Database, tid: int) -> None:
    """Every game of the tournament is the game of exactly one of its tables, of the same round."""
    made = await raw(db, "SELECT id, tournament_round FROM games WHERE tournament_id = :t", t=tid)
    tables = await raw(
        db, "SELECT game_id, round FROM tournament_tables WHERE tournament_id = :t AND game_id IS NOT NULL", t=tid
    )
    assert sorted((int(g), int(r)) for g, r in made) == sorted((int(g), int(r)) for g, r in tables)


async def tournament(
    world: World,
    key: str,
    players: int,
    format: str = "swiss",
    **options: Any,
) -> tuple[int, list[int]]:
    row = await world.tournaments.create(
        guild_id=GUILD,
        channel_id=50,
        host_id=HOST,
        game_key=key,
        format=format,
        options={"turn_seconds": TURN, **options},
    )
    assert row.id is not None
    users = [100 + i for i in range(players)]
    for user in users:
        await world.tournaments.join(row.id, user, f"P{user}")
    return row.id, users


async def decide_once(world: World, tid: int, absent: set[int], limit: int | None = None) -> int:
    """Every human (not absent, not handed to the AI) whose decision is awaited at a table of the tournament
    decides (the first choices offered), at most `limit` decisions; how many were made."""
    snapshot = await world.db.tournament_snapshot(tid)
    assert snapshot is not None
    made = 0
    for game_id, status in sorted(snapshot.games.items()):
        if status != "active":
            continue
        for seat in await world.db.seats(game_id):
            if seat.user_id is None or seat.user_id in absent or seat.ai_controlled:
                continue
            if limit is not None and made >= limit:
                return made
            try:
                notice = await world.table.private_view(game_id, seat.user_id)
                if notice.prompt is None:
                    continue
                pick = [c.id for c in notice.prompt.choices[: notice.prompt.pick]]
                await world.table.decide(game_id, seat.user_id, notice.seat.seat, notice.version, pick)
            except TableError:
                continue  # the game ended meanwhile
            made += 1
    return made


async def play_round(world: World, tid: int, absent: set[int]) -> None:
    """Play the tournament's running games until none is running: the absent never decide, their turn
    timers run out (the clock moves on and the table service's timer ticks)."""
    for _ in range(20_000):
        snapshot = await world.db.tournament_snapshot(tid)
        assert snapshot is not None
        if not any(status == "active" for status in snapshot.games.values()):
            return
        if not await decide_once(world, tid, absent):
            world.clock.now += timedelta(seconds=TURN)
            await world.table.tick()
    raise AssertionError("the round did not end")


async def play_to_the_end(
    world: World,
    tid: int,
    absent: set[int],
    *,
    between: Callable[[int], Any] | None = None,
    restart_chance: float = 0.0,
) -> TournamentStatus:
    """Play rounds and advance until the tournament is over; `between(round)` runs after each advance, and a
    new process takes over at random between steps with `restart_chance`."""
    for _ in range(40):
        if world.rng.random() < restart_chance:
            world.restart()
        status = await world.tournaments.advance(tid)
        await opened_once(world.db, tid)
        if status.tournament.status != "running":
            return status
        if between is not None:
            await between(status.tournament.current_round)
        if world.rng.random() < restart_chance:
            world.restart()
        await play_round(world, tid, absent)
    raise AssertionError("the tournament did not end")


def seated(status: TournamentStatus, number: int) -> set[int]:
    return {e for t in status.rounds[number - 1].tables for e in t.entrants}


async def check_finished(world: World, tid: int, status: TournamentStatus, rounds: int) -> None:
    assert status.tournament.status == "finished" and status.tournament.finished_at is not None
    assert len(status.rounds) == rounds and all(r.status == "finished" for r in status.rounds)
    assert all(t.result is not None for r in status.rounds for t in r.tables)
    assert len(status.podium) == 3 and len(set(status.podium)) == 3
    assert status.champion == status.podium[0]
    assert world.told.calls.count(("over", None)) >= 1
    assert {n for what, n in world.told.calls if what == "opened"} == set(range(1, rounds + 1))
    assert {n for what, n in world.told.calls if what == "finished"} == set(range(1, rounds + 1))
    await opened_once(world.db, tid)
    # Every table's game ended and was recorded as an ordinary game: rated, of this tournament and round.
    for r in status.rounds:
        for t in r.tables:
            if t.game_id is None:
                continue
            game = await world.db.game_row(t.game_id)
            assert game is not None and (game.tournament_id, game.tournament_round) == (tid, r.number)
            assert game.status in ("finished", "abandoned")
            if t.outcome == "game":
                assert game.status == "finished" and game.finished_seq is not None  # rated


# --- whole Swiss tournaments ------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2])
async def test_an_eight_player_swiss_of_reggverse_with_a_withdrawal_a_dropped_no_show_and_restarts(
    db: Database, seed: int
) -> None:
    world = World(db, Clock(), seed)
    tid, users = await tournament(world, REGGVERSE, 8, no_show="drop", drop_after=2)
    no_show = users[-1]
    status = await world.tournaments.start(tid, HOST)
    assert status.tournament.status == "running" and status.options.rounds == 3  # swiss_rounds(8)
    assert [len(t.entrants) for t in status.rounds[0].tables] == [2, 2, 2, 2]
    leaving: list[tuple[int, int]] = []

    async def between(number: int) -> None:
        if number == 2:  # someone withdraws while their round-2 game runs (not the no-show's): the AI plays on
            status = await world.tournaments.status(tid)
            table = next(t for t in status.current.tables if no_show not in t.entrants)  # type: ignore[union-attr]
            assert table.game_id is not None
            await decide_once(world, tid, {no_show}, limit=3)
            await world.tournaments.withdraw(tid, table.entrants[0])
            seat = next(s for s in await db.seats(table.game_id) if s.user_id == table.entrants[0])
            assert seat.ai_controlled
            leaving.append((table.entrants[0], table.game_id))

    status = await play_to_the_end(world, tid, {no_show}, between=between, restart_chance=0.3)
    await check_finished(world, tid, status, 3)
    assert world.restarts > 0  # new processes took over between steps
    ((leaver, leaver_game),) = leaving
    by_user = {e.user_id: e for e in status.entrants}
    assert by_user[leaver].status == "withdrawn"
    assert by_user[no_show].status == "dropped" and by_user[no_show].missed_rounds == 2
    assert leaver in seated(status, 2) and leaver not in seated(status, 3)
    assert no_show in seated(status, 2) and no_show not in seated(status, 3)  # dropped after 2 missed rounds
    assert status.rounds[2].pairing.byes == ()  # 6 left: three tables
    leaver_table = await db.game_row(leaver_game)
    assert leaver_table is not None and leaver_table.status == "finished"  # their game went on to its end
    # A no-show is a loss: last at the table and no point, whatever its stand-in did (the game is rated as it ended).
    for r in status.rounds[:2]:
        t = next(t for t in r.tables if no_show in t.entrants)
        assert t.game_id is not None and t.result is not None
        assert t.result.forfeited == {no_show} and t.result.ranks[no_show] == len(t.entrants)
        assert all(t.result.ranks[e] < len(t.entrants) for e in t.entrants if e != no_show)
        assert table_points(t.result.ranks, t.result.forfeited)[no_show] == 0
    assert next(s for s in status.standings if s.entrant == no_show).points == 0
    assert [s.entrant for s in status.standings[:3]] == list(status.podium)
    # Nobody met the same opponent twice, and the players are rated as in any game.
    met = Counter(frozenset(t.entrants) for r in status.rounds for t in r.tables)
    assert max(met.values()) == 1
    rated = await db.ratings(GUILD, REGGVERSE, users)
    assert set(rated) == set(users) and all(r.games >= 2 for r in rated.values())


async def test_a_twelve_player_swiss_of_eggs_and_empires_at_tables_of_four(db: Database) -> None:
    world = World(db, Clock(), 3)
    tid, users = await tournament(world, EGGS, 12, table_size=4)  # no-shows: the AI stands in (rule "ai")
    no_show, leaver = users[5], users[9]
    status = await world.tournaments.start(tid, HOST)
    assert status.options.rounds == 4 and [len(t.entrants) for t in status.rounds[0].tables] == [4, 4, 4]

    async def between(number: int) -> None:
        if number == 2:
            await decide_once(world, tid, {no_show}, limit=5)
            await world.tournaments.withdraw(tid, leaver)

    status = await play_to_the_end(world, tid, {no_show}, between=between, restart_chance=0.3)
    await check_finished(world, tid, status, 4)
    assert world.restarts > 0
    by_user = {e.user_id: e for e in status.entrants}
    assert by_user[leaver].status == "withdrawn" and leaver not in seated(status, 3) | seated(status, 4)
    assert by_user[no_show].status == "active" and by_user[no_show].missed_rounds == 4  # played by the AI
    assert all(no_show in seated(status, n) for n in range(1, 5))
    assert sorted(len(t.entrants) for t in status.rounds[3].tables) == [3, 4, 4]  # 11 left
    assert all(t.outcome == "game" for r in status.rounds for t in r.tables)
    # The standings are the points of the recorded ranks (4/2/1/0 at four, 3/1/0 at three; ties share).
    points: dict[int, float] = dict.fromkeys(users, 0.0)
    for r in status.rounds:
        for t in r.tables:
            assert t.result is not None
            n = len(t.entrants)
            for e in t.entrants:
                rank = t.result.ranks[e]
                tied = sum(1 for x in t.result.ranks.values() if x == rank)
                ahead = sum(1 for x in t.result.ranks.values() if x < rank)
                places = [n - p + (p == 1) for p in range(ahead + 1, ahead + tied + 1)]
                points[e] += sum(places) / tied
    assert {s.entrant: float(s.points) for s in status.standings} == pytest.approx({u: points[u] for u in users})


# --- crashes between the steps ----------------------------------------------------------------------------------


CRASHES = [
    ("db", "open_table", 1),  # the pairing is stored, no table opened
    ("db", "open_table", 3),  # two tables opened
    ("table", "start", 2),  # the second table's lobby exists, not started
    ("table", "start", 5),  # round 2: its first table started, the second's lobby exists
    ("db", "set_round_status", 1),  # every table opened, the round not marked open
    ("db", "resolve_table", 3),  # two results of round 1 recorded
    ("db", "set_round_status", 2),  # every result recorded, the round not marked finished
    ("db", "begin_round", 2),  # round 1 finished, round 2 not paired
]


async def test_two_processes_opening_the_tables_a_crash_left_unopened_open_each_once(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'race.sqlite3'}"
    first, second = await Database.open(url), await Database.open(url)
    try:
        clock = Clock()
        one, two = World(first, clock, 3), World(second, clock, 4)
        tid, _users = await tournament(one, REGGVERSE, 8, rounds=1)
        one.crash_at(first, "open_table", 1)
        with pytest.raises(Crash):
            await one.tournaments.start(tid, HOST)  # round 1 paired and stored, no table opened
        one.restart()
        assert [t.game_id for t in (await one.tournaments.status(tid)).rounds[0].tables] == [None] * 4
        # Both processes read the round with its tables unopened at the same moment: each is opened once.
        await at_once([first, second], one.tournaments.advance(tid), two.tournaments.advance(tid))
        await opened_once(first, tid)
        assert await raw(first, "SELECT COUNT(*) FROM games WHERE tournament_id = :t", t=tid) == [(4,)]
        status = await two.tournaments.status(tid)
        assert status.rounds[0].status == "open" and all(t.game_status == "active" for t in status.rounds[0].tables)
    finally:
        await second.close()
        await first.close()


@pytest.mark.parametrize(("owner", "name", "call"), CRASHES)
async def test_a_crash_between_any_two_steps_opens_no_table_twice(
    db: Database, owner: str, name: str, call: int
) -> None:
    world = World(db, Clock(), 7)
    tid, _users = await tournament(world, REGGVERSE, 6, rounds=2)
    world.crash_at(world.db if owner == "db" else world.table, name, call)
    crashed = False
    try:
        await world.tournaments.start(tid, HOST)
        for _ in range(2):
            await play_round(world, tid, set())
            await world.tournaments.advance(tid)
    except Crash:
        crashed = True
    assert crashed
    await opened_once(db, tid)
    world.restart()
    status = await play_to_the_end(world, tid, set())
    await check_finished(world, tid, status, 2)
    assert all(t.game_id is not None for r in status.rounds for t in r.tables)
    assert await raw(db, "SELECT COUNT(*) FROM games WHERE tournament_id = :t", t=tid) == [(6,)]


async def test_two_processes_advancing_at_once_open_each_table_once(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'two.sqlite3'}"
    first, second = await Database.open(url), await Database.open(url)
    try:
        slow_reads(first)
        slow_reads(second)
        clock = Clock()
        one, two = World(first, clock, 1), World(second, clock, 2)
        tid, _users = await tournament(one, EGGS, 9, table_size=3, rounds=2)
        row = await first.tournament(tid)
        assert row is not None
        await one.tournaments.start(tid, HOST)  # round 1 opened by the first
        for _ in range(2):
            await play_round(one, tid, set())
            await asyncio.gather(*(w.tournaments.advance(tid) for w in (one, two, two, one)))
            await opened_once(first, tid)
        status = await two.tournaments.advance(tid)
        assert status.tournament.status == "finished"
        assert await raw(first, "SELECT COUNT(*) FROM games WHERE tournament_id = :t", t=tid) == [(6,)]
    finally:
        await second.close()
        await first.close()


OPERATIONS = st.lists(
    st.one_of(
        st.tuples(st.just("advance"), st.integers(0, 1)),
        st.tuples(st.just("together"), st.integers(0, 1)),
        st.tuples(st.just("decide"), st.integers(1, 40)),
        st.tuples(st.just("play"), st.integers(0, 1)),
        st.tuples(st.just("timeout"), st.integers(1, 3)),
        st.tuples(st.just("restart"), st.integers(0, 1)),
        st.tuples(st.just("crash"), st.integers(1, 3)),
        st.tuples(st.just("withdraw"), st.integers(0, 4)),
        st.tuples(st.just("tick"), st.integers(0, 1)),
    ),
    max_size=25,
)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(operations=OPERATIONS, seed=st.integers(0, 2**16))
def test_advance_called_any_number_of_times_in_any_order_never_opens_a_table_twice(
    tmp_path_factory: pytest.TempPathFactory, operations: list[tuple[str, int]], seed: int
) -> None:
    async def run() -> None:
        path = tmp_path_factory.mktemp("any-order") / "t.sqlite3"
        db = await Database.open(f"sqlite+aiosqlite:///{path}")
        slow_reads(db)
        try:
            clock = Clock()
            worlds = [World(db, clock, seed), World(db, clock, seed + 1)]
            tid, users = await tournament(worlds[0], REGGVERSE, 5, rounds=2)
            await worlds[0].tournaments.start(tid, HOST)
            refusals: list[tuple[str, Any]] = []
            for what, n in operations:
                world = worlds[n % 2]
                try:
                    if what == "advance":
                        await world.tournaments.advance(tid)
                    elif what == "together":
                        await at_once([db], *(w.tournaments.advance(tid) for w in worlds))
                    elif what == "decide":
                        await decide_once(worlds[0], tid, set(), limit=n)
                    elif what == "play":  # until no game of the tournament runs
                        await play_round(worlds[0], tid, set())
                    elif what == "timeout":
                        clock.now += timedelta(seconds=TURN * n)
                        await world.table.tick()
                    elif what == "restart":
                        world.restart()
                    elif what == "crash":
                        world.crash_at(db, "open_table", n)
                    elif what == "withdraw":
                        await world.tournaments.withdraw(tid, users[n])
                    else:
                        await world.tournaments.tick()
                except Crash:
                    world.restart()
                except TableError as refusal:
                    refusals.append((what, refusal.message))
                await opened_once(db, tid)
            allowed = (messages.NO_LONGER_PLAYING, messages.TOURNAMENT_OVER)
            assert all(what == "withdraw" and message in allowed for what, message in refusals), refusals
            for world in worlds:
                world.restart()
            status = await play_to_the_end(worlds[0], tid, set())
            await opened_once(db, tid)
            assert status.tournament.status == "finished"
            assert all(t.result is not None for r in status.rounds for t in r.tables)
        finally:
            await db.close()

    asyncio.run(run())


# --- knockout and round robin -----------------------------------------------------------------------------------


async def test_a_knockout_of_six_at_two_player_tables_is_played_to_its_champion(db: Database) -> None:
    world = World(db, Clock(), 11)
    tid, users = await tournament(world, REGGVERSE, 6, "knockout")
    status = await world.tournaments.start(tid, HOST)
    first = status.rounds[0]
    assert len(first.tables) == 2 and len(first.pairing.byes) == 2  # a bracket of 8: the top two seeds wait
    status = await play_to_the_end(world, tid, set(), restart_chance=0.3)
    await check_finished(world, tid, status, 3)
    going = set(users)
    for r in status.rounds:
        assert seated(status, r.number) | set(r.pairing.byes) <= going  # a loser is never seated again
        winners = {min(t.entrants, key=lambda e: t.result.ranks[e]) for t in r.tables if t.result}  # type: ignore[union-attr]
        going = winners | set(r.pairing.byes)
    final = status.rounds[-1].tables[0]
    assert len(status.rounds[-1].tables) == 1 and final.result is not None
    assert status.champion == going.pop() and final.result.ranks[status.champion] == 1


async def test_a_knockout_at_tables_of_four_sends_two_on_from_each(db: Database) -> None:
    world = World(db, Clock(), 12)
    tid, _users = await tournament(world, EGGS, 8, "knockout", table_size=4)
    status = await world.tournaments.start(tid, HOST)
    assert status.options.advance == 2 and [len(t.entrants) for t in status.rounds[0].tables] == [4, 4]
    status = await play_to_the_end(world, tid, set())
    await check_finished(world, tid, status, 2)
    final = status.rounds[1].tables[0]
    expected = {
        e
        for t in status.rounds[0].tables
        for e in sorted(t.entrants, key=lambda e: t.result.ranks[e])[:2]  # type: ignore[union-attr]
    }
    assert set(final.entrants) == expected
    assert status.champion is not None and final.result is not None and final.result.ranks[status.champion] == 1


async def test_a_round_robin_is_scheduled_at_the_start_and_everyone_meets_everyone(db: Database) -> None:
    world = World(db, Clock(), 13)
    tid, users = await tournament(world, REGGVERSE, 5, "round-robin")
    status = await world.tournaments.start(tid, HOST)
    assert len(status.rounds) == 5  # the whole schedule stored: five rounds, one bye each
    assert [r.status for r in status.rounds] == ["open", "pairing", "pairing", "pairing", "pairing"]
    assert await raw(db, "SELECT COUNT(*) FROM tournament_tables WHERE tournament_id = :t", t=tid) == [(10,)]
    leaver = users[0]

    async def between(number: int) -> None:
        if number == 3:
            await world.tournaments.withdraw(tid, leaver)

    status = await play_to_the_end(world, tid, set(), between=between, restart_chance=0.2)
    await check_finished(world, tid, status, 5)
    pairs = Counter(frozenset(t.entrants) for r in status.rounds for t in r.tables)
    assert set(pairs) == {frozenset(p) for p in combinations(users, 2)} and set(pairs.values()) == {1}
    assert Counter(e for r in status.rounds for e in r.pairing.byes) == Counter(users)
    # After withdrawing, the leaver's scheduled tables are walkovers: no game, the opponent wins.
    forfeited = [t for r in status.rounds[3:] for t in r.tables if leaver in t.entrants]
    assert forfeited
    for t in forfeited:
        other = next(e for e in t.entrants if e != leaver)
        assert t.outcome == "walkover" and t.game_id is None and t.result is not None
        assert t.result.ranks == {other: 1, leaver: 2}


async def test_a_round_robin_at_tables_of_three(db: Database) -> None:
    world = World(db, Clock(), 14)
    tid, users = await tournament(world, EGGS, 6, "round-robin", table_size=3)
    status = await world.tournaments.start(tid, HOST)
    assert len(status.rounds) == 3 and all(len(t.entrants) == 3 for r in status.rounds for t in r.tables)
    status = await play_to_the_end(world, tid, set())
    await check_finished(world, tid, status, 3)
    assert {s.entrant for s in status.standings} == set(users)


# --- round deadlines ----------------------------------------------------------------------------------------------


async def test_at_the_round_deadline_the_ai_finishes_the_games(db: Database) -> None:
    world = World(db, Clock(), 21)
    tid, _users = await tournament(world, REGGVERSE, 4, rounds=2, round_seconds=3600, turn_seconds=0)
    status = await world.tournaments.start(tid, HOST)
    assert status.current is not None and status.current.deadline == world.clock.now + timedelta(hours=1)
    await decide_once(world, tid, set(), limit=2)
    world.clock.now += timedelta(minutes=59)
    assert await world.tournaments.tick() == 1
    status = await world.tournaments.status(tid)
    assert status.tournament.current_round == 1 and all(t.game_status == "active" for t in status.current.tables)  # type: ignore[union-attr]
    world.clock.now += timedelta(minutes=1)
    status = await world.tournaments.advance(tid)
    assert status.tournament.current_round == 2 and status.rounds[0].status == "finished"
    for t in status.rounds[0].tables:
        assert t.outcome == "game" and t.game_status == "finished"  # played to its end by the AI: rated
        assert all(s.ai_controlled for s in await db.seats(t.game_id))  # type: ignore[arg-type]
    assert status.rounds[1].deadline == world.clock.now + timedelta(hours=1)
    missed = {e.user_id: e.missed_rounds for e in status.entrants}
    assert sum(missed.values()) == 2  # the two who made a decision of their own did not miss the round


async def test_at_the_round_deadline_rank_by_score_abandons_the_games_and_ranks_their_scores(db: Database) -> None:
    world = World(db, Clock(), 22)
    tid, _users = await tournament(
        world, EGGS, 8, table_size=4, rounds=1, round_seconds=600, deadline_rule="rank-by-score", turn_seconds=0
    )
    await world.tournaments.start(tid, HOST)
    for _ in range(12):
        await decide_once(world, tid, set())
    world.clock.now += timedelta(minutes=10)
    status = await world.tournaments.advance(tid)
    assert status.tournament.status == "finished"
    game = games.get(EGGS)
    for t in status.rounds[0].tables:
        assert t.outcome == "scores" and t.game_status == "abandoned" and t.result is not None
        data, _version = await db.load_state(t.game_id)  # type: ignore[arg-type]
        scores = current_scores(game, game.from_json(data))
        assert scores is not None
        by_entrant = dict(zip(t.seats or (), scores, strict=True))
        assert t.result.ranks == ranked(by_entrant)  # type: ignore[arg-type]
        assert t.result.scores == by_entrant


# --- sign-up, refusals, cancelling ----------------------------------------------------------------------------------


def refused(error: pytest.ExceptionInfo[TableError], message: Any) -> bool:
    return error.value.message == message


async def test_what_the_service_refuses(db: Database) -> None:
    world = World(db, Clock(), 31)
    service = world.tournaments
    base: dict[str, Any] = {"guild_id": GUILD, "channel_id": 50, "host_id": HOST, "game_key": REGGVERSE}
    cases: list[tuple[dict[str, Any], Any]] = [
        ({"game_key": "chess", "format": "swiss"}, table_messages.UNKNOWN_GAME),
        ({"format": "ladder"}, messages.UNKNOWN_FORMAT),
        ({"format": "swiss", "options": {"table_size": 9}}, messages.BAD_TABLE_SIZE),
        ({"format": "knockout", "options": {"table_size": 4, "advance": 3}}, messages.BAD_ADVANCE),
        ({"format": "swiss", "options": {"no_show": "forfeit"}}, messages.UNKNOWN_NO_SHOW),
        ({"format": "swiss", "options": {"deadline_rule": "coin"}}, messages.UNKNOWN_DEADLINE_RULE),
        ({"format": "swiss", "options": {"rounds": 0}}, messages.BAD_ROUNDS),
        ({"format": "swiss", "options": {"turn_seconds": 10**9}}, table_messages.BAD_TIMER),
        ({"format": "swiss", "options": {"round_seconds": 10**9}}, messages.BAD_ROUND_TIMER),
        ({"format": "swiss", "options": {"drop_after": 0}}, messages.BAD_DROP_AFTER),
        ({"format": "swiss", "options": {"rounds": "many"}}, messages.BAD_OPTIONS),
        ({"format": "swiss", "max_entrants": 1}, messages.BAD_CAP),
    ]
    for given_args, message in cases:
        with pytest.raises(TableError) as error:
            await service.create(**{**base, **given_args})
        assert refused(error, message), (given_args, error.value)
    with pytest.raises(TableError) as error:
        await service.create(**base, format="swiss", options={"variants": {"shape": "hexagon"}})
    assert error.value.from_rules

    row = await service.create(**base, format="swiss", max_entrants=3)
    assert row.id is not None
    tid = row.id
    await service.join(tid, 100, "A")
    for call, message in (
        (service.join(tid, 100, "A"), messages.ALREADY_ENTERED),
        (service.leave(tid, 999), messages.NOT_ENTERED),
        (service.start(tid, HOST), messages.TOO_FEW_ENTRANTS),
        (service.start(tid, 100), messages.HOST_OR_ADMIN),
        (service.cancel(tid, 100), messages.HOST_OR_ADMIN),
        (service.status(tid + 1), messages.NO_SUCH_TOURNAMENT),
        (service.join(tid + 1, 100, "A"), messages.NO_SUCH_TOURNAMENT),
    ):
        with pytest.raises(TableError) as error:
            await call
        assert refused(error, message), error.value
    await service.join(tid, 101, "B")
    await service.join(tid, 102, "C")
    with pytest.raises(TableError) as error:
        await service.join(tid, 103, "D")
    assert refused(error, messages.TOURNAMENT_FULL) and "3 entrants" in str(error.value)
    await service.leave(tid, 102)
    await service.withdraw(tid, 101)  # during sign-up: the same as leaving
    assert [e.user_id for e in (await service.status(tid)).entrants] == [100]
    await service.join(tid, 101, "B")
    await service.join(tid, 102, "C")
    # The server's cap on running games must leave room for the first round.
    await db.set_guild_limits(GUILD, {"games_per_server": 0})
    with pytest.raises(TableError) as error:
        await service.start(tid, HOST)
    assert refused(error, messages.TOO_MANY_TABLES)
    await db.set_guild_limits(GUILD, {})
    status = await service.start(tid, 999, is_admin=True)
    assert status.tournament.status == "running"
    for call, message in (
        (service.join(tid, 103, "D"), messages.NOT_IN_SIGNUP),
        (service.leave(tid, 100), messages.NOT_IN_SIGNUP),
        (service.start(tid, HOST), messages.ALREADY_STARTED),
        (service.withdraw(tid, 999), messages.NOT_ENTERED),
        (service.drop(tid, 999, HOST), messages.ENTRANT_NOT_ENTERED),
        (service.drop(tid, 100, 101), messages.HOST_OR_ADMIN),
    ):
        with pytest.raises(TableError) as error:
            await call
        assert refused(error, message), error.value
    await service.drop(tid, 102, HOST)
    with pytest.raises(TableError) as error:
        await service.withdraw(tid, 102)
    assert refused(error, messages.NO_LONGER_PLAYING) and "C is no longer playing" in str(error.value)
    # Cancelling a running tournament abandons its games.
    running = [t.game_id for t in (await service.status(tid)).current.tables if t.game_status == "active"]  # type: ignore[union-attr]
    assert running
    await service.cancel(tid, HOST)
    assert world.told.calls[-1] == ("cancelled", None)
    for game_id in running:
        assert (await db.game_row(game_id)).status == "abandoned"  # type: ignore[arg-type, union-attr]
    with pytest.raises(TableError) as error:
        await service.cancel(tid, HOST)
    assert refused(error, messages.TOURNAMENT_OVER)


async def test_the_tick_starts_a_tournament_at_its_start_time_or_cancels_it(db: Database) -> None:
    world = World(db, Clock(), 41)
    rows = []
    for _ in range(2):
        row = await world.tournaments.create(
            guild_id=GUILD,
            channel_id=50,
            host_id=HOST,
            game_key=REGGVERSE,
            format="swiss",
            starts_at=world.clock.now + timedelta(hours=1),
        )
        assert row.id is not None
        rows.append(row.id)
    for user in (100, 101, 102):
        await world.tournaments.join(rows[0], user, f"P{user}")
    await world.tournaments.join(rows[1], 100, "P100")
    assert await world.tournaments.tick() == 0
    world.clock.now += timedelta(hours=1)
    await db.set_guild_limits(GUILD, {"games_per_server": 0})  # no room on the server: it waits
    assert await world.tournaments.tick() == 2
    assert (await world.tournaments.status(rows[0])).tournament.status == "signup"
    await db.set_guild_limits(GUILD, {})
    assert await world.tournaments.tick() == 1  # the one alone was cancelled already
    started, alone = await world.tournaments.status(rows[0]), await world.tournaments.status(rows[1])
    assert started.tournament.status == "running" and started.tournament.current_round == 1
    assert len(started.current.tables) == 1 and len(started.current.pairing.byes) == 1  # type: ignore[union-attr]
    assert alone.tournament.status == "cancelled" and ("cancelled", None) in world.told.calls
    assert await world.tournaments.tick() == 1  # the running one


async def test_seeds_follow_the_ratings_and_a_game_knows_its_tournament(db: Database) -> None:
    world = World(db, Clock(), 51)
    await db.save_ratings(
        [
            {"guild_id": GUILD, "game_key": REGGVERSE, "user_id": user, "mu": mu, "sigma": 1.0, "games": 1, "wins": 0}
            for user, mu in ((103, 40.0), (102, 30.0))
        ]
    )
    tid, _users = await tournament(world, REGGVERSE, 4, "knockout")
    status = await world.tournaments.start(tid, HOST)
    assert [e.user_id for e in status.entrants] == [103, 102, 100, 101]  # rated first, then by entry
    assert [set(t.entrants) for t in status.rounds[0].tables] == [{103, 101}, {102, 100}]  # 1 v 4, 2 v 3
    game_id = status.rounds[0].tables[0].game_id
    assert game_id is not None
    game = await db.game_row(game_id)
    assert game is not None and (game.tournament_id, game.tournament_round, game.status) == (tid, 1, "active")
    assert game.turn_seconds == TURN and game.channel_id == 50 and game.host_id == HOST
    ended = await world.tournaments.game_ended(game_id)
    assert ended is not None and ended.tournament.id == tid
    assert await world.tournaments.game_ended(10**9) is None
