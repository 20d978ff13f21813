"""A model of the table, checked by machine (issue 20): hypothesis drives the transport-free table
service with the real storage through random sequences of what players, timers and operators do, and
checks after every step that no game can stall and nothing is lost or applied twice.

Steps: lobbies opened, joined, left, kicked, given AI seats, cancelled and started; decisions clicked
from the players' DMs (and from older DMs, and from "/game hand"); time passing and the timers firing
(an injected clock); "I'm back"; the host abandoning; a process restart (the service and its Database
rebuilt from what is stored, then its start-up resumption); a process killed in the middle of any of
these (at its n-th write or notification: what was committed stays, nothing after it ran); the
database unavailable during a click or a tick. One service owns every shard, or two services split
the shards on one database and take turns, as two bot processes do: the DM clicks of every game go to
the one with shard 0, the guild channel's commands to the game's own one.

Invariants, after every step (`nothing_stalls_nothing_is_lost`):
- every running game can move on: someone human is awaited, or it is due (its deadline has passed,
  and the owner's next tick moves it: a kill can leave AI seats to move or a game to finish);
- every awaited human has a live prompt (the newest DM or "/game hand" answer carries the prompt, at
  a version its click is accepted from) and a deadline when the game has a timer (none when it has not);
  except after a kill of the process that answers DMs, in a game of the other process: the DMs that
  kill lost are counted (event "a DM lost ...") and the players have "/game hand" until the watchdog
  re-sends them (a game without a timer: once it has been idle for a day, step "a day passes"; a timed
  game: its timer reminds them and then moves for them);
- no AI seat (nor a seat the AI plays for an absent player) is left awaited: it moved in the same step,
  unless the game is due;
- no decision is lost or applied twice: each acknowledged click is its seat's first action after the
  version it was offered at, and each human action in the log is one distinct click;
- the action log's versions follow each other with no gap; a finished game has one result per seat,
  recorded once (rated once); an abandoned one none;
- no lobby is left that nobody can end: it has a human seat and its host sits in it.

CI runs a few hundred examples (SQLite, and PostgreSQL when TEST_POSTGRES_URL is set);
TABLE_MODEL_EXAMPLES=10000 runs a long search (and TABLE_MODEL_STEPS the steps per example).
The world the machine runs in (processes, players, the shared environment) is harness/table_model.py;
the machine stays one module over 500 lines because its rules and invariants are read together.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import random
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager, suppress
from datetime import timedelta
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

import games
from games.core import Prompt
from harness.table_model import (
    Click,
    Clock,
    Environment,
    Fuse,
    Killed,
    Lobby,
    Notifier,
    Players,
    Process,
    fused,
    quick_catch_up,
    unfused,
)
from storage import Database, DatabaseUnavailable, GameRow, SeatRow, Shards, shard_of
from table import CatchingUp, Decided, TableError, TableService, Unavailable
from table.core import WatchTimes
from table.stalls import stall_report
from table.updates import NullObserver
from tests.storage.conftest import PG_URL, create_pg_database, drop_pg_database

T = TypeVar("T")

# CI: a fixed set of examples (derandomized: the same every run, so the coverage check below is
# stable), a few hundred on SQLite (about 0.25 s of CPU each) and fewer on PostgreSQL (each outage
# closes the database and terminates its connections). TABLE_MODEL_EXAMPLES=N: N new random examples.
LONG_RUN = int(os.environ.get("TABLE_MODEL_EXAMPLES", "0"))
STEPS = int(os.environ.get("TABLE_MODEL_STEPS", "30"))
SHARD_COUNT = 2
# Short games: Reggverse Riddles with two egg types of three tokens ends in about eight decisions a
# player; Eggs and Empires (two players) sometimes, for a game of another shape that rarely ends.
GAMES = [
    ("reggverse-riddles", {"egg_types": 2, "tokens": 3}),
    ("reggverse-riddles", {"egg_types": 2, "tokens": 3}),
    ("reggverse-riddles", {"egg_types": 3, "tokens": 3, "action_tiles": True}),
    ("eggs-empires", {}),
]
TIMERS = [None, 60]
SEEN: Counter[str] = Counter()  # examples in which each thing happened (the test checks the model got there)
_ids = itertools.count(1)  # channels and users, unique across examples (they may share a database)


class TableModel(RuleBasedStateMachine):
    env: Environment  # set by run_model before hypothesis builds machines

    def __init__(self) -> None:
        super().__init__()
        self.loop = self.env.loop
        self.url = self.env.url
        self.clock = Clock()
        self.players = Players()
        self.processes: list[Process] = []
        self.games: list[Lobby] = []
        self.reader = self.env.reader
        self.sqlite = self.env.sqlite
        self.outage = self.env.outage
        self.pg_outage = self.env.pg_outage
        self.kills = 0
        self.retired: list[Process] = []  # this example's dead processes
        self.dm_lost: set[int] = set()  # games whose DMs a kill of the process that sends them lost
        self.seeds = random.Random(0)
        self._status: dict[int, str] = {}
        self.watched = _Watched()  # what the processes' watchdogs re-armed
        self.noted: set[str] = set()  # rare things that happened in this example (counted in SEEN)

    def run(self, coroutine: Awaitable[T]) -> T:
        return self.loop.run_until_complete(coroutine)  # type: ignore[arg-type]

    # --- processes ---------------------------------------------------------------------------
    async def _spawn(self, shards: Shards | None, db: Database | None = None) -> Process:
        fuse = Fuse()
        cache = shards is None  # a process alone on its database caches rows, as the bot does
        db = fused(db or await self.env.database(cache), fuse)
        notifier = Notifier(self.players, fuse, db)
        table = TableService(db, notifier, clock=self.clock, shards=shards, seeds=self.seeds, observer=self.watched)
        return Process(db, table, fuse, shards)

    @initialize(two=st.booleans(), seed=st.integers(0, 2**32))
    def boot(self, two: bool, seed: int) -> None:
        self.seeds = random.Random(seed)  # the games' seeds: a failing example replays the same games

        async def boot() -> None:
            shards = [Shards.of([0], SHARD_COUNT), Shards.of([1], SHARD_COUNT)] if two else [None]
            for owned in shards:
                self.processes.append(await self._spawn(owned))

        self.run(boot())

    def teardown(self) -> None:
        seen = {f"game {status}" for status in self._status.values()}
        seen |= {f"click {c.outcome}" for c in self.players.clicks}
        seen |= {"killed"} if self.kills else set()
        seen |= {"two processes"} if len(self.processes) == 2 else set()
        seen |= self.noted
        seen |= {"watchdog re-armed"} if self.watched.idle or self.watched.overdue else set()
        for what in sorted(seen):
            event(what)
        SEEN.update(seen)

        async def close() -> None:
            # The examples share a database: no game of this one may be left for the next one's timers
            # and start-up resumption to find (nor owed anything: table.delivery).
            if self.reader is not None:
                for lobby in self.games:
                    row = await self.reader.game_row(lobby.game_id)
                    if row is not None and row.status in ("lobby", "active"):
                        await self.reader.finish_game(lobby.game_id, "abandoned", [])
                    if row is not None:
                        await self.reader.record_delivered({}, {lobby.game_id: (row.version, True)}, {})
            for process in self.processes:
                await process.table.close()
            for process in [*self.retired, *self.processes]:
                self.env.idle[process.shards is None].append(unfused(process.db))

        if self.pg_outage is not None and self.pg_outage.down:
            self.run(self.pg_outage.stop())
        if self.outage is not None:
            self.outage.down = False
        self.run(close())

    def owner(self, guild_id: int | None) -> Process:
        """The process that runs this guild (its commands, timers and start-up resumption)."""
        return next(p for p in self.processes if p.shards is None or p.shards.owns(guild_id))

    @property
    def dm_side(self) -> Process:
        """The process that gets every DM click: the one with shard 0."""
        return self.owner(None)

    async def _restart(self, process: Process) -> None:
        """The process is gone (stopped or killed): a new one on the same shards resumes from the database."""
        index = self.processes.index(process)
        await process.table.close()
        if process.shards is None:  # its Database caches this example's games: it serves a later example
            self.retired.append(process)
            fresh = await self._spawn(process.shards)
        else:  # one of several processes keeps no game in its Database: the new service may use it
            fresh = await self._spawn(process.shards, unfused(process.db))
        self.processes[index] = fresh
        await fresh.table.resume()

    async def _act(self, process: Process, crash_at: int | None, action: Callable[[], Awaitable[T]]) -> T | None:
        """Run one request in `process`; killed at its `crash_at`-th write or notification (None:
        never), in which case the process restarts and this returns None."""
        process.fuse.arm(crash_at)
        try:
            return await action()
        except Killed:
            self.kills += 1
            await self._restart(process)
            return None
        finally:
            process.fuse.arm(None)

    # --- what we know ------------------------------------------------------------------------
    def lobbies(self, status: str) -> list[Lobby]:
        return [g for g in self.games if self._status.get(g.game_id) == status]

    # --- lobby ---------------------------------------------------------------------------------
    @rule(
        game=st.sampled_from(GAMES),
        timer=st.sampled_from(TIMERS),
        shard=st.integers(0, SHARD_COUNT - 1),
        humans=st.integers(0, 2),
        ais=st.integers(0, 2),
    )
    def open_lobby(
        self, game: tuple[str, dict[str, Any]], timer: int | None, shard: int, humans: int, ais: int
    ) -> None:
        """A host opens a lobby; some players join and the host adds AI seats."""
        key, options = game
        guild = ((next(_ids) * SHARD_COUNT + shard) << 22) | 1
        assert shard_of(guild, SHARD_COUNT) == shard
        host = next(_ids)

        async def go() -> None:
            process = self.owner(guild)
            row = await process.table.create_lobby(
                guild_id=guild,
                channel_id=next(_ids),
                game_key=key,
                host_id=host,
                host_name=f"H{host}",
                options=options,
                turn_seconds=timer,
            )
            assert row.id is not None
            self.games.append(Lobby(row.id, guild, key))
            self._status[row.id] = "lobby"
            for _ in range(humans):
                user = next(_ids)
                await process.table.join(row.id, user, f"P{user}")
            for _ in range(ais):
                with _refusals():  # full
                    await process.table.add_ai(row.id, host)

        self.run(go())

    async def _lobby(self, lobby: Lobby) -> tuple[GameRow, list[SeatRow]]:
        assert self.reader is not None
        found = await self.reader.game_and_seats(lobby.game_id)
        assert found is not None
        return found

    def _in_lobby(self, data: st.DataObject) -> Lobby | None:
        open_ = self.lobbies("lobby")
        return data.draw(st.sampled_from(open_)) if open_ else None

    def has_lobby(self) -> bool:
        return bool(self.lobbies("lobby"))

    def has_game(self) -> bool:
        return bool(self.lobbies("active"))

    @precondition(lambda self: self.has_lobby())
    @rule(data=st.data(), crash_at=st.sampled_from([None, None, None, 0]))
    def join_or_add_ai(self, data: st.DataObject, crash_at: int | None) -> None:
        lobby = self._in_lobby(data)
        if lobby is None:
            return
        ai = data.draw(st.booleans())

        async def go() -> None:
            row, _seats = await self._lobby(lobby)
            process = self.owner(lobby.guild_id)
            user = next(_ids)

            async def request() -> None:
                if ai:
                    await process.table.add_ai(lobby.game_id, row.host_id)
                else:
                    await process.table.join(lobby.game_id, user, f"P{user}")

            with _refusals():
                await self._act(process, crash_at, request)

        self.run(go())

    @precondition(lambda self: self.has_lobby())
    @rule(data=st.data())
    def leave_or_kick(self, data: st.DataObject) -> None:
        lobby = self._in_lobby(data)
        if lobby is None:
            return

        async def go() -> None:
            row, seats = await self._lobby(lobby)
            seat = data.draw(st.sampled_from(seats))
            process = self.owner(lobby.guild_id)
            with _refusals():
                if seat.user_id is not None and data.draw(st.booleans()):
                    await process.table.leave(lobby.game_id, seat.user_id)
                else:
                    await process.table.kick(lobby.game_id, row.host_id, seat.seat)

        self.run(go())

    @precondition(lambda self: self.has_lobby())
    @rule(data=st.data(), crash_at=st.sampled_from([None, None, 0, 1, 2, 3]))
    def start(self, data: st.DataObject, crash_at: int | None) -> None:
        lobby = self._in_lobby(data)
        if lobby is None:
            return

        async def go() -> None:
            row, seats = await self._lobby(lobby)
            game = games.get(lobby.key)
            process = self.owner(lobby.guild_id)
            while len(seats) < game.min_players:  # start what is startable
                await process.table.add_ai(lobby.game_id, row.host_id)
                row, seats = await self._lobby(lobby)
            with _refusals():
                await self._act(process, crash_at, lambda: process.table.start(lobby.game_id, row.host_id))

        self.run(go())

    @precondition(lambda self: self.has_lobby())
    @rule(data=st.data())
    def cancel(self, data: st.DataObject) -> None:
        lobby = self._in_lobby(data)
        if lobby is None:
            return

        async def go() -> None:
            row, _seats = await self._lobby(lobby)
            await self.owner(lobby.guild_id).table.cancel(lobby.game_id, row.host_id)

        self.run(go())

    # --- the game --------------------------------------------------------------------------------
    def _running(self, data: st.DataObject) -> Lobby | None:
        running = self.lobbies("active")
        return data.draw(st.sampled_from(running)) if running else None

    async def _click(
        self, process: Process, notice: Any, game_id: int, data: st.DataObject, crash_at: int | None
    ) -> None:
        prompt: Prompt = notice.prompt
        ids = [c.id for c in prompt.choices]
        choice = data.draw(st.permutations(ids))[: prompt.pick]
        seat = notice.seat
        click = Click(game_id, seat.seat, notice.version, choice, "unknown")
        self.players.clicks.append(click)

        async def request() -> Decided:
            return await process.table.decide(game_id, seat.user_id, seat.seat, notice.version, choice)

        try:
            decided = await self._act(process, crash_at, request)
        except CatchingUp:
            click.outcome = "committed"
            return
        except Unavailable:
            click.outcome = "unknown" if not self.sqlite else "refused"  # SQLite refuses the COMMIT itself
            return
        except TableError:
            click.outcome = "refused"
            return
        if decided is not None:
            click.outcome = "acked"
            self.players.sent(game_id, decided.own)  # the click's answer: the player's fresh view
            return
        guild = next(g.guild_id for g in self.games if g.game_id == game_id)
        if self.owner(guild) is not process:
            # Killed after its commit, maybe before the DMs went out: the restarted process resumes its
            # own games only, so nobody sends them. The players still have "/game hand" (and the table
            # message's "Show my hand"); a timer, when the game has one, reminds them.
            self.dm_lost.add(game_id)

    @precondition(lambda self: self.has_game())
    @rule(data=st.data(), crash_at=st.sampled_from([None, None, None, 0, 1, 2, 3, 4]), many=st.integers(1, 20))
    def players_click_their_dms(self, data: st.DataObject, crash_at: int | None, many: int) -> None:
        """Every player of a game with buttons in their DM clicks one, `many` rounds (a short game ends
        in about eight); the process answering DMs dies at the first click's `crash_at`-th write."""
        lobby = self._running(data)
        if lobby is None:
            return

        async def go() -> None:
            fuse = crash_at
            for _ in range(many):
                clicked = False
                for (game_id, _seat), notice in sorted(self.players.dm.items(), key=lambda kv: kv[0]):
                    if game_id != lobby.game_id or notice.prompt is None:
                        continue
                    await self._click(self.dm_side, notice, game_id, data, fuse)
                    clicked, fuse = True, None
                if not clicked:
                    return

        self.run(go())

    @precondition(lambda self: self.has_game())
    @rule(data=st.data())
    def a_player_clicks(self, data: st.DataObject) -> None:
        """One player clicks a button of their DM."""
        running = self._running_ids()
        live = sorted(
            ((k, n) for k, n in self.players.dm.items() if n.prompt is not None and k[0] in running),
            key=lambda kv: kv[0],
        )
        if live:
            (game_id, _seat), notice = data.draw(st.sampled_from(live))
            self.run(self._click(self.dm_side, notice, game_id, data, None))

    def _running_ids(self) -> set[int]:
        return {g.game_id for g in self.lobbies("active")}

    @precondition(lambda self: any(len(n) > 1 for n in self.players.old.values()))
    @rule(data=st.data())
    def an_old_button(self, data: st.DataObject) -> None:
        """A button of an older message: decided if it is still that seat's open prompt, else refused."""
        old = [(key, n) for key, notices in self.players.old.items() for n in notices[:-1]]
        if not old:
            return
        (game_id, _seat), notice = data.draw(st.sampled_from(old))
        self.run(self._click(self.dm_side, notice, game_id, data, None))

    @precondition(lambda self: self.has_game())
    @rule(data=st.data())
    def game_hand(self, data: st.DataObject) -> None:
        """A player asks for their hand in the game's channel (the game's own process answers)."""
        lobby = self._running(data)
        if lobby is None:
            return

        async def go() -> None:
            _row, seats = await self._lobby(lobby)
            humans = [s for s in seats if s.user_id is not None]
            seat = data.draw(st.sampled_from(humans))
            with _refusals():
                notice = await self.owner(lobby.guild_id).table.private_view(lobby.game_id, seat.user_id)
                self.players.sent(lobby.game_id, notice, hand=True)
                if notice.prompt is not None and data.draw(st.booleans()):
                    await self._click(self.owner(lobby.guild_id), notice, lobby.game_id, data, None)

        self.run(go())

    @precondition(lambda self: self.has_game())
    @rule(data=st.data())
    def im_back(self, data: st.DataObject) -> None:
        lobby = self._running(data)
        if lobby is None:
            return

        async def go() -> None:
            _row, seats = await self._lobby(lobby)
            away = [s for s in seats if s.ai_controlled]
            if away:
                seat = data.draw(st.sampled_from(away))
                with _refusals():
                    await self.owner(lobby.guild_id).table.back(lobby.game_id, seat.user_id)

        self.run(go())

    @precondition(lambda self: self.has_game())
    @rule(data=st.data(), crash_at=st.sampled_from([None, None, 0, 1]))
    def host_abandons(self, data: st.DataObject, crash_at: int | None) -> None:
        lobby = self._running(data)
        if lobby is None:
            return

        async def go() -> None:
            row, _seats = await self._lobby(lobby)
            process = self.owner(lobby.guild_id)
            with _refusals():
                await self._act(process, crash_at, lambda: process.table.abandon(lobby.game_id, row.host_id))

        self.run(go())

    # --- time, processes, the database ---------------------------------------------------------
    @rule(seconds=st.sampled_from([1, 5, 10, 31, 61]), crash_at=st.sampled_from([None, None, None, 0, 1, 2]))
    def time_passes(self, seconds: int, crash_at: int | None) -> None:
        """The clock moves on and every process's timer ticks (each runs its own shards' games)."""
        self.clock.now += timedelta(seconds=seconds)

        async def go() -> None:
            for process in list(self.processes):
                await self._act(process, crash_at, process.table.tick)

        self.run(go())

    @rule(crash_at=st.sampled_from([None, None, None, 0]))
    def a_day_passes(self, crash_at: int | None) -> None:
        """Nobody plays for a day: timed games run out their timers, and the watchdog re-arms every
        game without a timer (table.watchdog's idle games): it sends the awaited players their prompt
        again, so even a DM a kill lost reaches them, and the game can move on."""
        self._a_day(crash_at)

    @precondition(lambda self: bool(self.dm_lost))
    @rule()
    def a_day_passes_after_a_lost_dm(self) -> None:
        """The case the watchdog is for (a rare one: a kill of the process that sends the DMs, after
        another process's commit), made likelier."""
        self._a_day(None)

    def _a_day(self, crash_at: int | None) -> None:
        self.clock.now += WatchTimes().idle + timedelta(seconds=1)
        before = self.watched.idle.copy()

        async def go() -> tuple[bool, set[int]]:
            assert self.reader is not None
            untimed = set()
            for lobby in self.lobbies("active"):
                row = await self.reader.game_row(lobby.game_id)
                if row is not None and row.status == "active" and not row.turn_seconds:
                    untimed.add(lobby.game_id)
            survived = True
            for process in list(self.processes):
                survived &= await self._act(process, crash_at, process.table.tick) is not None
            return survived, untimed

        survived, untimed = self.run(go())
        if not survived:
            return  # killed mid-tick: what it had not re-sent yet, a later day re-sends
        rearmed = {game_id for game_id, n in self.watched.idle.items() if n > before.get(game_id, 0)}
        assert untimed <= rearmed, f"idle games the watchdog did not re-arm: {sorted(untimed - rearmed)}"
        if untimed & self.dm_lost:
            self.noted.add("a lost DM re-sent by the watchdog")
        self.dm_lost -= untimed

    @rule(which=st.integers(0, 1))
    def restart(self, which: int) -> None:
        self.run(self._restart(self.processes[which % len(self.processes)]))

    @rule(data=st.data(), tick=st.booleans())
    def database_unavailable(self, data: st.DataObject, tick: bool) -> None:
        """The database goes away while players click (or a timer ticks), then comes back: what was
        committed meanwhile catches up by itself."""

        async def go() -> None:
            if self.outage is not None:
                self.outage.down = True
            else:
                assert self.pg_outage is not None
                await self.pg_outage.start()
            try:
                if tick:
                    self.clock.now += timedelta(seconds=61)
                    for process in self.processes:
                        with _refusals():
                            await process.table.tick()
                else:
                    for (game_id, _seat), notice in sorted(self.players.dm.items(), key=lambda kv: kv[0]):
                        if notice.prompt is not None:
                            await self._click(self.dm_side, notice, game_id, data, None)
                            break
            finally:
                if self.outage is not None:
                    self.outage.down = False
                else:
                    assert self.pg_outage is not None
                    await self.pg_outage.stop()
            for process in self.processes:
                await process.table.idle()

        self.run(go())

    # --- invariants ----------------------------------------------------------------------------
    @invariant()
    def nothing_stalls_nothing_is_lost(self) -> None:
        if self.reader is None:
            return
        self.run(self._check())

    async def _check(self) -> None:
        assert self.reader is not None
        for lobby in self.games:
            row, seats = await self._lobby(lobby)
            self._status[lobby.game_id] = row.status
            actions = await self.reader.actions(lobby.game_id)
            assert [a.seq for a in actions] == list(range(2, 2 + len(actions))), "a gap in the log"
            if row.status == "lobby":
                humans = [s.user_id for s in seats if s.user_id is not None]
                assert humans and row.host_id in humans, f"lobby {lobby.game_id}: nobody can end it ({seats})"
            elif row.status == "active":
                await self._check_running(lobby, row, seats)
            elif row.status == "finished":
                results = await self.reader.results(lobby.game_id)
                assert sorted(r.seat for r in results) == [s.seat for s in seats], "results missing or doubled"
                assert row.finished_seq is not None
            elif row.status == "abandoned":
                assert await self.reader.results(lobby.game_id) == [] and row.finished_seq is None
            else:
                raise AssertionError(f"game {lobby.game_id} is {row.status}")
            if row.status != "lobby":
                self._check_log(lobby.game_id, seats, actions)

    async def _check_running(self, lobby: Lobby, row: GameRow, seats: list[SeatRow]) -> None:
        assert self.reader is not None
        data, version = await self.reader.load_state(lobby.game_id)
        game = games.get(lobby.key)
        state = game.from_json(data)
        prompts = game.prompts(state)
        due = row.deadline is not None and row.deadline <= self.clock.now

        async def report() -> str:
            return str(await stall_report(self.reader, lobby.game_id, self.clock.now))  # type: ignore[arg-type]

        humans = [p for p in prompts if seats[p.seat].user_id is not None and not seats[p.seat].ai_controlled]
        robots = [p for p in prompts if p not in humans]
        if game.outcome(state) is not None or not humans:
            assert due, f"stalled: {await report()}"  # the owner's next tick moves it on
            return
        assert not robots or due, f"an AI seat was left to move: {await report()}"
        if row.turn_seconds:
            assert row.deadline is not None, f"a timed game without a deadline: {await report()}"
        else:
            assert row.deadline is None or due, f"an untimed game with a deadline: {await report()}"
        acted: dict[int, int] = {}
        for action in await self.reader.actions(lobby.game_id):
            acted[action.seat] = action.seq
        for prompt in humans:
            held = [
                self.players.dm.get((lobby.game_id, prompt.seat)),
                self.players.hand.get((lobby.game_id, prompt.seat)),
            ]
            live = [
                n
                for n in held
                if n is not None
                and n.prompt is not None
                and n.prompt.choice_ids() == prompt.choice_ids()
                and acted.get(prompt.seat, 0) <= n.version <= version
            ]
            if not live and lobby.game_id in self.dm_lost:
                self.noted.add("a DM lost to a kill of the DM process")
                continue
            assert live or due, f"seat {prompt.seat} has no live prompt: {await report()}"

    def _check_log(self, game_id: int, seats: list[SeatRow], actions: list[Any]) -> None:
        mine = [c for c in self.players.clicks if c.game_id == game_id]
        for click in mine:
            if click.outcome in ("acked", "committed"):
                later = [a for a in actions if a.seat == click.seat and a.seq > click.offered]
                assert later and list(later[0].action) == click.choice, f"lost: {click}"
        unused = [c for c in mine if c.outcome != "refused"]
        previous: dict[int, int] = {}
        for action in actions:
            since = previous.get(action.seat, 0)
            previous[action.seat] = action.seq
            if seats[action.seat].user_id is None or action.afk:
                continue
            match = next(
                (
                    c
                    for c in unused
                    if c.seat == action.seat and since <= c.offered < action.seq and c.choice == list(action.action)
                ),
                None,
            )
            assert match is not None, f"game {game_id} v{action.seq}: seat {action.seat}'s action has no click"
            unused.remove(match)


class _Watched(NullObserver):
    """Counts, per game, what the watchdog re-armed (the bot counts `tablebot_games_stalled_total`)."""

    def __init__(self) -> None:
        self.idle: Counter[int] = Counter()
        self.overdue: Counter[int] = Counter()

    def stalled(self, game_key: str, cause: str, game_id: int) -> None:
        (self.idle if cause == "idle" else self.overdue)[game_id] += 1


@contextmanager
def _refusals() -> Iterator[None]:
    """A request the table refuses (the lobby moved on, a rule, the database away) changes nothing;
    a timer tick that cannot reach the database fails (the timer task logs it and ticks again)."""
    with suppress(TableError, DatabaseUnavailable):
        yield


def run_model(url: str, examples: int, *, wanted: set[str]) -> None:
    SEEN.clear()
    with quick_catch_up(), Environment(url) as env:
        TableModel.env = env
        run_state_machine_as_test(
            TableModel,
            settings=settings(
                max_examples=LONG_RUN or examples,
                derandomize=not LONG_RUN,
                stateful_step_count=STEPS,
                deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
            ),
        )
    print(f"examples in which each happened: {dict(SEEN)}")
    # A model that never finished a game, never killed a process or never clicked checked little.
    assert wanted <= set(SEEN), f"the model never reached {sorted(wanted - set(SEEN))}"


EVERYTHING = {"game finished", "game abandoned", "game active", "game lobby", "killed", "two processes"} | {
    "watchdog re-armed",
    "a lost DM re-sent by the watchdog",
    "click acked",
    "click refused",
    "click unknown",
}


def test_the_table_model_on_sqlite(tmp_path: Path) -> None:
    run_model(f"sqlite+aiosqlite:///{tmp_path / 'model.sqlite3'}", 200, wanted=EVERYTHING)


@pytest.mark.skipif(not PG_URL, reason="needs TEST_POSTGRES_URL")
def test_the_table_model_on_postgresql() -> None:
    url = asyncio.run(create_pg_database())
    try:
        run_model(url, 30, wanted={"killed", "two processes", "click acked", "game abandoned"})
    finally:
        asyncio.run(drop_pg_database(url))
