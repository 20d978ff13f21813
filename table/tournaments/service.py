"""The tournament service: sign-up, start, rounds and results over the table service, with no Discord in sight.

The transport (the Discord side) calls these methods and implements `TournamentNotifier`; tests drive the
service directly. Everything it refuses is a `table.TableError` whose message is a msgid of
table.tournaments.messages (or of table.messages).

A tournament advances from the database, like the games' deadlines: `advance(id)` reads what is stored and
takes every step that is due, each stored before the next is taken, so it may be called any number of
times, by a tick (`tick()`), after a game of the tournament ended (`game_ended`), after a restart, by two
processes at once:

1. no round under way, or the current one finished: the tournament is over (its last round was played), or
   the next round is paired (pure: table.tournaments, from the standings and a seed derived from the
   tournament's seed and the round's number) and stored FIRST, with its tables reserved (storage's
   `begin_round`; a stale read is refused there and read again);
2. a round in `pairing`: each table gets its game: storage's `open_table` creates the lobby (its seats, the
   tournament's variants and timer, the tournament and round on the game) and records it on the table's row
   in one transaction, so a table is never opened twice whatever crashes between the steps; then the table
   service starts it (`TableService.start`, as the host would). A table left with fewer than two entrants
   still playing is resolved without a game (a walkover). Then the round is `open` (with its deadline);
3. a round `open`: each table whose game ended gets its result (the game's stored results: finished
   games are rated as usual; an abandoned one is ranked by its scores as they stood); once every table has
   one, the round is `finished`, and back to 1. A table still played at the round's deadline is resolved
   by the tournament's rule: `finish-with-ai` hands every seat to the AI, which plays the game to its end
   through the table service; `rank-by-score` abandons the game and ranks its players by their scores.

The rules chosen:
- A no-show (an entrant who made no decision of their own in their game: the turn timer's AI stand-in
  played every move) scores it as a loss, whatever the stand-in did: last at the table, no point
  (TableResult.forfeited); the players who came keep their order among themselves. The game itself is
  rated as any game. The rule `drop` also drops them after `drop_after` such rounds (counted over the
  tournament); `ai` only counts them.
- Withdrawing (the entrant) or being dropped (by the host or an admin) while the tournament runs: not paired
  again; their game under way continues with the AI playing their seat, and they score what it gets. At a
  table of a schedule made in advance (a round robin, a knockout's next round), they forfeit: the others
  play without them and they are ranked last; with fewer than two left, the table is a walkover.
- Points, tie-breaks and pairing are table.tournaments' (docs/tournaments.md).
- A tournament's tables are not held to its players' own caps on running games (`/game settings`): they
  are the tournament's. Its start is held to the server's cap (the first round must fit).
- The transport is told (`TournamentNotifier`) before the step after a change is stored, so a crash in
  between tells it again: at least once. What it is handed shows the change as stored.

Over 500 lines: one service class whose sign-up, start and round life share the tournament's lock and its
one read of the stored tournament per step; what is pure (options, JSON, read models, brackets and
schedules) is in table/tournaments/records.py already.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import random
from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime, timedelta
from typing import Any

import games
from storage import (
    BrokenGame,
    Database,
    EntryRefused,
    GameNotActive,
    RoundRow,
    Shards,
    TournamentConflict,
    TournamentRow,
    TournamentSnapshot,
    TournamentTableRow,
)
from storage.models import loaded
from table import messages as table_messages
from table.core import stand_in_level
from table.errors import CatchingUp, TableError, echo, storage_errors_said
from table.lobby import default_ai_name
from table.service import TableService
from table.tournaments import messages
from table.tournaments.formats import default_advance, next_round
from table.tournaments.pairing import TableSizes, pair_swiss, swiss_rounds
from table.tournaments.records import (
    FORMATS,
    MAX_ENTRANTS,
    NullTournamentNotifier,
    TournamentNotifier,
    TournamentOptions,
    TournamentStatus,
    as_stored,
    bracket_from,
    checked_options,
    current_scores,
    derived_seed,
    first_bracket,
    no_shows_last,
    pairing_from,
    pairing_json,
    played,
    ranked,
    result_from,
    result_json,
    round_robin_schedule,
    status_of,
    with_bracket,
    with_changes,
)
from table.tournaments.standings import EntrantId, PairingError, Standing, TableResult, standings

log = logging.getLogger(__name__)

STEPS_PER_ADVANCE = 1000  # a guard: every step stores something, and a tournament has far fewer


class TournamentService:
    """Every tournament operation the transport may call (see the module's docstring)."""

    def __init__(
        self,
        db: Database,
        table: TableService,
        notifier: TournamentNotifier | None = None,
        *,
        clock: Callable[[], datetime] | None = None,
        seeds: random.Random | None = None,
        shards: Shards | None = None,
    ) -> None:
        self.db = db
        self.table = table
        self.notifier: TournamentNotifier = notifier or NullTournamentNotifier()
        self.clock = clock or table.clock
        self.seeds = seeds or random.Random()
        self.shards = shards if shards is not None else table.shards
        self._locks: dict[int, asyncio.Lock] = {}

    def lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    # --- sign-up ----------------------------------------------------------------------------------------------

    @storage_errors_said
    async def create(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        game_key: str,
        format: str,
        options: TournamentOptions | Mapping[str, Any] | None = None,
        max_entrants: int | None = None,
        starts_at: datetime | None = None,
    ) -> TournamentRow:
        """A tournament in sign-up. `options`: a TournamentOptions or its JSON (`variants` are the game's
        options, checked by its rules); refused: an unknown game, format or rule, a table size outside the
        game's range, a knockout's `advance` that does not divide its tables, bad numbers."""
        try:
            game = games.get(game_key)
        except KeyError:
            raise TableError(table_messages.UNKNOWN_GAME, key=echo(game_key), known=", ".join(games.keys())) from None
        if format not in FORMATS:
            raise TableError(messages.UNKNOWN_FORMAT, format=echo(format), known=", ".join(FORMATS))
        resolved = checked_options(game, format, options)
        if max_entrants is not None and not max(2, game.min_players) <= max_entrants <= MAX_ENTRANTS:
            raise TableError(messages.BAD_CAP, low=max(2, game.min_players), high=MAX_ENTRANTS)
        return await self.db.create_tournament(
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            game_key=game_key,
            format=format,
            options=resolved.to_json(),
            seed=self.seeds.getrandbits(48),
            max_entrants=max_entrants,
            starts_at=starts_at,
        )

    @storage_errors_said
    async def attach(self, tournament_id: int, *, thread_id: int | None = None, message_id: int | None = None) -> None:
        """Record the tournament's thread and sign-up message (the transport opens them)."""
        fields = {k: v for k, v in (("thread_id", thread_id), ("message_id", message_id)) if v is not None}
        if fields:
            await self._row(tournament_id)
            await self.db.update_tournament(tournament_id, None, **fields)

    @storage_errors_said
    async def join(self, tournament_id: int, user_id: int, name: str, locale: str | None = None) -> None:
        """Enter the tournament during sign-up (below its cap). `locale`: the entrant's Discord locale, which
        their seats at its tables carry (their games' direct messages speak it)."""
        async with self.lock(tournament_id):
            row = await self._row(tournament_id)
            try:
                await self.db.add_entrant(tournament_id, user_id, name, locale)
            except EntryRefused as refused:
                if refused.reason == "entered":
                    raise TableError(messages.ALREADY_ENTERED) from None
                if refused.reason == "full":
                    raise TableError(messages.TOURNAMENT_FULL, count=row.max_entrants or 0) from None
                raise TableError(messages.NOT_IN_SIGNUP) from None

    @storage_errors_said
    async def leave(self, tournament_id: int, user_id: int) -> None:
        """Leave the entry list during sign-up (once it runs: `withdraw`)."""
        async with self.lock(tournament_id):
            await self._row(tournament_id)
            try:
                removed = await self.db.remove_entrant(tournament_id, user_id)
            except EntryRefused:
                raise TableError(messages.NOT_IN_SIGNUP) from None
            if not removed:
                raise TableError(messages.NOT_ENTERED)

    @storage_errors_said
    async def withdraw(self, tournament_id: int, user_id: int) -> None:
        """Leave a running tournament: not paired again; a game under way goes on with the AI in the seat.
        During sign-up this is `leave`."""
        if (await self._row(tournament_id)).status == "signup":
            await self.leave(tournament_id, user_id)
            return
        await self._retire(tournament_id, user_id, "withdrawn", messages.NOT_ENTERED)

    @storage_errors_said
    async def drop(self, tournament_id: int, user_id: int, by: int, *, is_admin: bool = False) -> None:
        """The host (or an admin) drops an entrant of a running tournament: as a withdrawal."""
        row = await self._row(tournament_id)
        _host_or_admin(row, by, is_admin)
        if row.status == "signup":
            async with self.lock(tournament_id):
                try:
                    removed = await self.db.remove_entrant(tournament_id, user_id)
                except EntryRefused:
                    raise TableError(messages.CHANGED_MEANWHILE) from None
                if not removed:
                    raise TableError(messages.ENTRANT_NOT_ENTERED)
            return
        await self._retire(tournament_id, user_id, "dropped", messages.ENTRANT_NOT_ENTERED)

    async def _retire(self, tournament_id: int, user_id: int, status: str, unknown: str) -> None:
        handed: list[int] = []
        async with self.lock(tournament_id):
            snapshot = await self._snapshot(tournament_id)
            if snapshot.tournament.status != "running":
                raise TableError(messages.TOURNAMENT_OVER)
            entrant = next((e for e in snapshot.entrants if e.user_id == user_id), None)
            if entrant is None:
                raise TableError(unknown)
            if entrant.status != "active":
                raise TableError(messages.NO_LONGER_PLAYING, name=entrant.name)
            await self.db.update_entrant(tournament_id, user_id, status=status)
            for table in snapshot.round_tables(snapshot.tournament.current_round):
                if table.game_id is None or table.result is not None or user_id not in (table.seats or ()):
                    continue
                if snapshot.games.get(table.game_id) in ("lobby", "active"):
                    await self._hand_to_ai(table.game_id, {user_id})
                    handed.append(table.game_id)
        for game_id in handed:
            await self.table.repair(game_id)  # the AI moves now if the seat is awaited
        await self.advance(tournament_id)

    @storage_errors_said
    async def cancel(self, tournament_id: int, by: int, *, is_admin: bool = False) -> None:
        """Cancel a tournament in sign-up or running; its games under way are abandoned."""
        async with self.lock(tournament_id):
            snapshot = await self._snapshot(tournament_id)
            row = snapshot.tournament
            _host_or_admin(row, by, is_admin)
            if row.status not in ("signup", "running"):
                raise TableError(messages.TOURNAMENT_OVER)
            try:
                await self.db.update_tournament(
                    tournament_id, row.version, status="cancelled", finished_at=self.clock()
                )
            except TournamentConflict:
                raise TableError(messages.CHANGED_MEANWHILE) from None
            for game_id, game_status in sorted(snapshot.games.items()):
                if game_status in ("lobby", "active"):
                    with contextlib.suppress(TableError):  # it ended meanwhile
                        await self.table.abandon(game_id, row.host_id, is_admin=True)
            status = status_of(await self._snapshot(tournament_id))
        await self._tell(self.notifier.cancelled(status), "cancelled", tournament_id)

    # --- the start ----------------------------------------------------------------------------------------------

    @storage_errors_said
    async def start(self, tournament_id: int, by: int, *, is_admin: bool = False) -> TournamentStatus:
        """Close the sign-up, seed the entrants (by rating in the tournament's server, then by entry) and
        open round 1. Refused: too few entrants for the game and the format, or more first-round tables than
        the server's cap on running games leaves room for."""
        row = await self._row(tournament_id)
        _host_or_admin(row, by, is_admin)
        async with self.lock(tournament_id):
            await self._start(tournament_id)
            return await self._advance(tournament_id)

    async def _start(self, tournament_id: int) -> None:
        snapshot = await self._snapshot(tournament_id)
        row = snapshot.tournament
        if row.status != "signup":
            raise TableError(messages.ALREADY_STARTED if row.status == "running" else messages.TOURNAMENT_OVER)
        game = games.get(row.game_key)
        options = TournamentOptions.from_json(row.options)
        ratings = await self.db.ratings(row.guild_id or 0, row.game_key, [e.user_id for e in snapshot.entrants])
        order = sorted(
            snapshot.entrants,
            key=lambda e: (-(ratings[e.user_id].ordinal if e.user_id in ratings else 0.0), e.seed, e.user_id),
        )
        entrants = tuple(e.user_id for e in order)
        least = max(2, game.min_players)
        too_few = TableError(
            messages.TOO_FEW_ENTRANTS, format=row.format, title=game.title, count=least, n=len(entrants)
        )
        if len(entrants) < least:
            raise too_few
        sizes = TableSizes.for_game(row.game_key, options.table_size)
        schedule: list[dict[str, Any]] = []
        try:
            if row.format == "swiss":
                options = with_changes(options, rounds=options.rounds or swiss_rounds(len(entrants)))
                first = len(pair_swiss(standings(entrants, ()), derived_seed(row.seed, 1), sizes).tables)
            elif row.format == "knockout":
                advance = options.advance or default_advance(options.table_size)
                options = with_changes(options, advance=advance)
                first = len(first_bracket(entrants, options, game).pairing().tables)
            else:
                schedule = [pairing_json(p) for p in round_robin_schedule(entrants, options, sizes, row.seed)]
                first = len(schedule[0]["tables"])
        except PairingError:
            raise too_few from None
        await self._room_for(row, first)
        try:
            await self.db.start_tournament(
                tournament_id,
                row.version,
                seeds={user: place for place, user in enumerate(entrants)},
                schedule=schedule,
                options=options.to_json(),
            )
        except TournamentConflict:
            raise TableError(messages.CHANGED_MEANWHILE) from None
        log.info(
            "tournament started",
            extra={"event": "tournament_started", "tournament_id": tournament_id, "entrants": len(entrants)},
        )

    async def _room_for(self, row: TournamentRow, tables: int) -> None:
        """The server's cap on running games (`/game settings`) must leave room for the first round."""
        if row.guild_id is None:
            return
        limits = await self.table.limits(row.guild_id)
        _lobbies, _playing, _server_lobbies, running = await self.db.running_counts(row.guild_id, row.host_id)
        cap = limits["games_per_server"]
        if running + tables > cap:
            raise TableError(messages.TOO_MANY_TABLES, count=cap, n=tables, running=running)

    # --- advancing --------------------------------------------------------------------------------------------

    @storage_errors_said
    async def tick(self) -> int:
        """What the bot's timer runs: every running tournament of ours is advanced, and those in sign-up whose
        start time came are started (cancelled with too few entrants; tried again at the next tick while the
        server's cap leaves no room). Returns how many were looked at."""
        due = await self.db.due_tournaments(self.clock(), self.shards)
        for row in due:
            assert row.id is not None
            try:
                if row.status == "signup":
                    await self._start_on_time(row.id)
                else:
                    await self.advance(row.id)
            except Exception:  # one tournament's failure must not stop the others
                log.exception(
                    "advancing tournament %s failed",
                    row.id,
                    extra={"event": "tournament_failed", "tournament_id": row.id},
                )
        return len(due)

    async def _start_on_time(self, tournament_id: int) -> None:
        async with self.lock(tournament_id):
            row = await self._row(tournament_id)
            if row.status != "signup":
                return
            try:
                await self._start(tournament_id)
            except TableError as refusal:
                if refusal.message != messages.TOO_FEW_ENTRANTS:
                    log.info("tournament %s waits to start: %s", tournament_id, refusal)
                    return  # changed meanwhile, or no room on the server yet: tried again at the next tick
                log.info("tournament %s could not start on time: %s", tournament_id, refusal)
                await self.db.update_tournament(tournament_id, None, status="cancelled", finished_at=self.clock())
                status = status_of(await self._snapshot(tournament_id))
                await self._tell(self.notifier.cancelled(status), "cancelled", tournament_id)
                return
            await self._advance(tournament_id)

    @storage_errors_said
    async def game_ended(self, game_id: int) -> TournamentStatus | None:
        """A game ended: if it is a table of a tournament, advance that tournament (the transport calls this
        when it shows an ending; the tick would get there too). None for an ordinary game."""
        table = await self.db.table_of_game(game_id)
        return None if table is None else await self.advance(table.tournament_id)

    @storage_errors_said
    async def advance(self, tournament_id: int) -> TournamentStatus:
        """Take every step that is due (see the module's docstring); the tournament as it is then."""
        async with self.lock(tournament_id):
            return await self._advance(tournament_id)

    async def _advance(self, tournament_id: int) -> TournamentStatus:
        for _ in range(STEPS_PER_ADVANCE):
            snapshot = await self._snapshot(tournament_id)
            if snapshot.tournament.status != "running":
                return status_of(snapshot)
            try:
                moved = await self._step(snapshot)
            except TournamentConflict:
                continue  # another process (or a player) changed it meanwhile: read again
            if not moved:
                return status_of(snapshot)
        raise RuntimeError(f"tournament {tournament_id} did not settle in {STEPS_PER_ADVANCE} steps")

    async def _step(self, snapshot: TournamentSnapshot) -> bool:
        """One due step; whether it stored anything (then the caller reads the tournament again)."""
        row = snapshot.tournament
        current = next((r for r in snapshot.rounds if r.number == row.current_round), None)
        if current is None or current.status == "finished":
            return await self._next_round(snapshot, current)
        if current.status == "pairing":
            return await self._open_round(snapshot, current)
        return await self._collect(snapshot, current)

    async def _next_round(self, snapshot: TournamentSnapshot, last: RoundRow | None) -> bool:
        row = snapshot.tournament
        assert row.id is not None
        number = row.current_round + 1
        options = TournamentOptions.from_json(row.options)
        stored = next((r for r in snapshot.rounds if r.number == number), None)
        if stored is not None:  # scheduled at the start (a round robin)
            await self.db.begin_round(row.id, row.version, number)
            return True
        pairing: dict[str, Any] | None = None
        if not (row.format == "round-robin" or (row.format == "swiss" and number > (options.rounds or 0))):
            try:
                pairing = self._pair(snapshot, number, last, options)
            except PairingError as error:  # too few left to play on: it ends here
                log.info("tournament %s ends before round %s: %s", row.id, number, error)
        if pairing is None:
            await self._finish(snapshot)
            return True
        await self.db.begin_round(row.id, row.version, number, pairing)
        log.info(
            "tournament round paired",
            extra={"event": "tournament_round", "tournament_id": row.id, "round": number},
        )
        return True

    def _pair(
        self, snapshot: TournamentSnapshot, number: int, last: RoundRow | None, options: TournamentOptions
    ) -> dict[str, Any] | None:
        """The pairing of round `number` (JSON), or None when the last round was played."""
        row = snapshot.tournament
        game = games.get(row.game_key)
        active = tuple(e.user_id for e in snapshot.entrants if e.status == "active")
        if row.format == "swiss":
            sizes = TableSizes.for_game(row.game_key, options.table_size)
            table = standings(*played(snapshot))
            return pairing_json(pair_swiss(table, derived_seed(row.seed, number), sizes))
        # knockout
        if last is None:
            return pairing_json(*with_bracket(first_bracket(active, options, game)))
        bracket = bracket_from(last.pairing)
        assert bracket is not None
        if bracket.final:
            return None
        results = [result_from(t.result) for t in snapshot.round_tables(last.number)]
        following = next_round(bracket, [r for r in results if r is not None])
        return pairing_json(*with_bracket(following))

    async def _open_round(self, snapshot: TournamentSnapshot, current: RoundRow) -> bool:
        """Give every table of the round its game (started) or its walkover, then open the round."""
        row = snapshot.tournament
        assert row.id is not None
        pairing = pairing_from(current.pairing)
        for table in snapshot.round_tables(current.number):
            if table.result is None:
                await self._open_table(snapshot, current.number, table, pairing.tables[table.table_index])
        options = TournamentOptions.from_json(row.options)
        deadline = self.clock() + timedelta(seconds=options.round_seconds) if options.round_seconds else None
        shown = as_stored(status_of(await self._snapshot(row.id)), current.number, "open", deadline)
        await self._tell(self.notifier.round_opened(shown, current.number), "round_opened", row.id)
        await self.db.set_round_status(
            row.id, current.number, "open", expected="pairing", deadline=deadline, at=self.clock()
        )
        return True

    async def _open_table(
        self, snapshot: TournamentSnapshot, number: int, table: TournamentTableRow, seated: tuple[EntrantId, ...]
    ) -> None:
        row = snapshot.tournament
        assert row.id is not None
        game_id = table.game_id
        if game_id is None:
            names = {e.user_id: e.name for e in snapshot.entrants}
            locales = {e.user_id: e.locale for e in snapshot.entrants}
            playing = {e.user_id for e in snapshot.entrants if e.status == "active"}
            present = [e for e in seated if e in playing]
            if len(present) < 2:  # nobody to play: the one left (if any) wins, the others forfeit
                ranks = {e: 1 if e in present or not present else 2 for e in seated}
                await self.db.resolve_table(
                    row.id, number, table.table_index, result_json(TableResult(ranks)), "walkover"
                )
                return
            game = games.get(row.game_key)
            options = TournamentOptions.from_json(row.options)
            level = stand_in_level(game)
            seat_map: list[EntrantId | None] = list(present)
            seat_map += [None] * max(0, game.min_players - len(present))  # AI stand-ins up to the game's least
            seats = [
                {"seat": i, "user_id": e, "ai_level": None, "name": names[e], "locale": locales[e]}
                if e is not None
                else {
                    "seat": i,
                    "user_id": None,
                    "ai_level": level,
                    "name": default_ai_name(i - len(present) + 1, level),
                }
                for i, e in enumerate(seat_map)
            ]
            game_id, _created = await self.db.open_table(
                row.id,
                number,
                table.table_index,
                guild_id=row.guild_id,
                channel_id=row.channel_id,
                game_key=row.game_key,
                options=options.variants,
                host_id=row.host_id,
                seed=derived_seed(row.seed, number, table.table_index),
                turn_seconds=options.turn_seconds,
                seats=seats,
                seat_map=seat_map,
            )
        await self._start_game(game_id, row.host_id)

    async def _start_game(self, game_id: int, host_id: int) -> None:
        """Start a table's lobby as its host would (nothing if it started already)."""
        found = await self.db.game_row(game_id)
        if found is None or found.status != "lobby":
            return
        try:
            await self.table.start(game_id, host_id)
        except CatchingUp:
            pass  # started: its table and AI turns follow by themselves
        except TableError as refusal:
            if refusal.message != table_messages.NOT_A_LOBBY:
                raise  # (started or closed meanwhile: nothing to do)

    async def _collect(self, snapshot: TournamentSnapshot, current: RoundRow) -> bool:
        """Record the result of every table whose game ended; at the deadline, resolve the others by the
        tournament's rule; once all have one, finish the round. Whether anything was stored."""
        row = snapshot.tournament
        assert row.id is not None
        options = TournamentOptions.from_json(row.options)
        pairing = pairing_from(current.pairing)
        late = current.deadline is not None and self.clock() >= current.deadline
        moved = False
        waiting = 0
        for table in snapshot.round_tables(current.number):
            if table.result is not None:
                continue
            seated = pairing.tables[table.table_index]
            if table.game_id is None:  # reserved but never opened (cannot stay so: opened before the round is)
                await self._open_table(snapshot, current.number, table, seated)
                moved = True
                continue
            status = snapshot.games.get(table.game_id)
            if status == "lobby":
                await self._start_game(table.game_id, row.host_id)
                moved = True
                continue
            if status == "active" and late:
                status = await self._at_deadline(table.game_id, options)
            if status == "active":
                waiting += 1
                continue
            moved |= await self._record(row, options, current.number, table, seated, status)
        if moved or waiting:
            return moved
        shown = as_stored(status_of(await self._snapshot(row.id)), current.number, "finished", current.deadline)
        await self._tell(self.notifier.round_finished(shown, current.number), "round_finished", row.id)
        await self.db.set_round_status(row.id, current.number, "finished", expected="open", at=self.clock())
        log.info(
            "tournament round finished",
            extra={"event": "tournament_round_finished", "tournament_id": row.id, "round": current.number},
        )
        return True

    async def _at_deadline(self, game_id: int, options: TournamentOptions) -> str:
        """Resolve a game still played at the round's deadline by the tournament's rule; its status then."""
        if options.deadline_rule == "rank-by-score":
            host = await self.db.game_row(game_id)
            if host is not None:
                with contextlib.suppress(TableError):  # it ended meanwhile
                    await self.table.abandon(game_id, host.host_id, is_admin=True)
        else:
            await self._hand_to_ai(game_id, None)
            await self.table.repair(game_id)  # the AI plays it to its end now
        found = await self.db.game_row(game_id)
        return "active" if found is None else found.status

    async def _hand_to_ai(self, game_id: int, users: set[int] | None) -> None:
        """The AI plays these users' seats (None: every human seat) from now on."""
        for seat in await self.db.seats(game_id):
            if seat.user_id is not None and not seat.ai_controlled and (users is None or seat.user_id in users):
                await self.db.update_seat(game_id, seat.seat, ai_controlled=True)

    async def _record(
        self,
        row: TournamentRow,
        options: TournamentOptions,
        number: int,
        table: TournamentTableRow,
        seated: tuple[EntrantId, ...],
        status: str | None,
    ) -> bool:
        """The result of a table whose game ended (finished, abandoned, broken), with its no-shows."""
        assert row.id is not None and table.game_id is not None
        seat_map = list(table.seats or [])
        ranks: dict[EntrantId, int] = {}
        scores: dict[EntrantId, float] = {}
        outcome = "game"
        if status == "finished":
            for stored in await self.db.results(table.game_id):
                entrant = seat_map[stored.seat] if stored.seat < len(seat_map) else None
                if entrant is not None:
                    ranks[entrant], scores[entrant] = stored.rank, float(stored.score)
        if not ranks:  # abandoned (or broken): ranked by the scores as they stood
            outcome = "scores"
            scores = await self._standing_scores(row.game_key, table.game_id, seat_map)
            ranks = ranked(scores) if scores else {e: 1 for e in seat_map if e is not None}
        last = max(ranks.values(), default=0) + 1
        for entrant in seated:
            ranks.setdefault(entrant, last)  # forfeited: not seated at the game
        missed = await self._no_shows(table.game_id, seat_map)
        result = no_shows_last(TableResult(ranks, {e: scores.get(e, 0.0) for e in ranks} if scores else None), missed)
        return await self.db.resolve_table(
            row.id,
            number,
            table.table_index,
            result_json(result),
            outcome,
            missed=missed,
            drop_after=options.drop_after if options.no_show == "drop" else None,
        )

    async def _standing_scores(
        self, game_key: str, game_id: int, seat_map: list[EntrantId | None]
    ) -> dict[EntrantId, float]:
        game = games.get(game_key)
        try:
            data, _version = await self.db.load_state(game_id)
        except (BrokenGame, GameNotActive):
            return {}  # never started, or unreadable: everyone equal
        state = game.from_json(data)
        outcome = game.outcome(state)
        if outcome is not None and outcome.get("scores"):
            values: list[float] | None = [float(s) for s in outcome["scores"]]
        else:
            values = current_scores(game, state)
        if values is None:
            return {}
        return {e: values[seat] for seat, e in enumerate(seat_map) if e is not None and seat < len(values)}

    async def _no_shows(self, game_id: int, seat_map: list[EntrantId | None]) -> set[EntrantId]:
        """The entrants who made no decision of their own in the game (every move of theirs was the AI's)."""
        own = {a.seat for a in await self.db.actions(game_id) if not a.afk}
        return {e for seat, e in enumerate(seat_map) if e is not None and seat not in own}

    async def _finish(self, snapshot: TournamentSnapshot) -> None:
        row = snapshot.tournament
        assert row.id is not None
        now = self.clock()
        status = status_of(snapshot, over=True)
        over = loaded(TournamentRow, {**row.model_dump(), "status": "finished", "finished_at": now})
        await self._tell(self.notifier.finished(dataclasses.replace(status, tournament=over)), "finished", row.id)
        await self.db.update_tournament(row.id, row.version, status="finished", finished_at=now)
        log.info(
            "tournament finished",
            extra={"event": "tournament_finished", "tournament_id": row.id, "champion": status.champion},
        )

    async def _tell(self, call: Awaitable[None], what: str, tournament_id: int) -> None:
        """Run a notifier call: its failure is logged, and the tournament goes on (it is stored already)."""
        try:
            await call
        except Exception:
            log.exception("the tournament notifier failed (%s) for tournament %s", what, tournament_id)

    # --- reading -------------------------------------------------------------------------------------------------

    @storage_errors_said
    async def status(self, tournament_id: int) -> TournamentStatus:
        """The tournament, its entry list, rounds, tables (with their games), standings, and once over, its
        champion and podium."""
        return status_of(await self._snapshot(tournament_id))

    @storage_errors_said
    async def standings(self, tournament_id: int) -> tuple[Standing, ...]:
        """The standings (table.tournaments.Standing, best first)."""
        return status_of(await self._snapshot(tournament_id)).standings

    async def _row(self, tournament_id: int) -> TournamentRow:
        row = await self.db.tournament(tournament_id)
        if row is None:
            raise TableError(messages.NO_SUCH_TOURNAMENT)
        return row

    async def _snapshot(self, tournament_id: int) -> TournamentSnapshot:
        snapshot = await self.db.tournament_snapshot(tournament_id)
        if snapshot is None:
            raise TableError(messages.NO_SUCH_TOURNAMENT)
        return snapshot


def _host_or_admin(row: TournamentRow, by: int, is_admin: bool) -> None:
    if row.host_id != by and not is_admin:
        raise TableError(messages.HOST_OR_ADMIN)
