"""Games, seats and the action log (every decision's reads and writes)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import (
    Text,
    func,
    select,
    type_coerce,
)

from storage import ladder
from storage import plays as plays_module
from storage.errors import BrokenGame, GameNotActive, GameNotFound
from storage.models import (
    RUNNING,
    STATUSES,
    ActionRow,
    GameRow,
    ResultRow,
    SeatRow,
    loaded,
)
from storage.repositories.base import DatabaseCore
from storage.rows import (
    _GAME_COLUMNS,
    _GAME_FIELDS,
    _SEAT_FIELDS,
    MAX_REASON,
    Move,
    _change_seat,
    _check_seat_fields,
    _decode_object,
    _encode_state,
    _finish_inputs,
    _first,
    _game_from,
    _games,
    _insert_game,
    _read_actions,
    _read_games,
    _replace_seats,
    _results,
    _seats,
    _start_game,
    _unavailable_raised,
)
from storage.shards import Shards
from storage.types import dump_json, utcnow
from storage.unchanged import UNCHANGED, Unchanged
from storage.writer import PendingAction


class GameRepository(DatabaseCore):
    """Games, their seats and their action log: the table service's hot path."""

    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game_key: str,
        options: dict[str, Any],
        host_id: int,
        seed: int,
        turn_seconds: int | None,
    ) -> GameRow:
        now = utcnow()
        values: dict[str, Any] = {
            "guild_id": guild_id,
            "channel_id": channel_id,
            "thread_id": None,
            "game_key": game_key,
            "options": dict(options),
            "status": "lobby",
            "host_id": host_id,
            "seed": seed,
            "state": None,
            "version": 0,
            "deadline": None,
            "reminded": False,
            "turn_seconds": turn_seconds,
            "lobby_message_id": None,
            "table_message_id": None,
            "announced": None,
            "table_version": None,
            "delivered": None,
            "broken_reason": None,
            "created_at": now,
            "updated_at": now,
        }
        game_id = await self._write(_insert_game, values)
        return loaded(GameRow, {**values, "id": game_id})

    async def get_game(self, game_id: int) -> GameRow | None:
        """The game, or None. An unreadable state or options value reads as None / {} here;
        load_state is where it is reported (and the game marked broken). Always read from the database."""
        rows = await self._games_where(_games.c.id == game_id)
        return rows[0] if rows else None

    async def game_row(self, game_id: int) -> GameRow | None:
        """The game without its state (state None; load_state reads it), or None. With the cache: from
        this Database's copy once known, reading nothing."""
        known = await self._table(game_id)
        return None if known is None else _game_from(known.row)

    async def game_and_seats(self, game_id: int) -> tuple[GameRow, list[SeatRow]] | None:
        """`game_row` and `seats` at once (one round trip when read), or None if there is no such game."""
        known = await self._table(game_id)
        return None if known is None else (_game_from(known.row), [loaded(SeatRow, s) for s in known.seats])

    async def channel_game(self, channel_id: int) -> GameRow | None:
        rows = await self._games_where(
            _games.c.channel_id == channel_id, _games.c.status.in_(RUNNING), newest_first=True, limit=1
        )
        return rows[0] if rows else None

    async def thread_game(self, thread_id: int) -> GameRow | None:
        rows = await self._games_where(_games.c.thread_id == thread_id, newest_first=True, limit=1)
        return rows[0] if rows else None

    async def user_games(self, user_id: int) -> list[GameRow]:
        seated = select(_seats.c.game_id).where(_seats.c.user_id == user_id)
        return await self._games_where(_games.c.id.in_(seated), _games.c.status.in_(RUNNING))

    async def channel_games(self, channel_id: int) -> list[GameRow]:
        """The lobbies and running games opened in a channel (each plays in its own thread), oldest first."""
        return await self._games_where(_games.c.channel_id == channel_id, _games.c.status.in_(RUNNING))

    async def running_counts(self, guild_id: int | None, user_id: int) -> tuple[int, int, int, int]:
        """(open lobbies the user hosts, running games the user plays, lobbies of the server, running games
        of the server): what the caps of `/game settings` count."""
        seated = select(_seats.c.game_id).where(_seats.c.user_id == user_id)
        in_guild = _games.c.guild_id == guild_id if guild_id is not None else _games.c.guild_id.is_(None)
        queries = (
            select(func.count()).where(_games.c.status == "lobby", _games.c.host_id == user_id),
            select(func.count()).where(_games.c.status == "active", _games.c.id.in_(seated)),
            select(func.count()).where(_games.c.status == "lobby", in_guild),
            select(func.count()).where(_games.c.status == "active", in_guild),
        )
        async with self._reading() as conn:
            found = [int((await conn.execute(q.select_from(_games))).scalar_one()) for q in queries]
        return found[0], found[1], found[2], found[3]

    async def stale_lobbies(self, before: datetime, shards: Shards | None = None) -> list[GameRow]:
        """Lobbies opened before `before` that nobody started (of `shards`' guilds when given)."""
        owned = [] if shards is None else [shards.where(_games.c.guild_id)]
        return await self._games_where(_games.c.status == "lobby", _games.c.created_at < before, *owned)

    async def due_games(self, now: datetime, shards: Shards | None = None) -> list[GameRow]:
        """Active games whose deadline has passed, the most overdue first; only those of `shards`'
        guilds when given (the index on status and deadline finds the due rows, then this filters)."""
        owned = [] if shards is None else [shards.where(_games.c.guild_id)]
        rows = await self._games_where(_games.c.status == "active", _games.c.deadline <= now, *owned)
        return sorted(rows, key=lambda g: (g.deadline, g.id))

    async def idle_games(self, before: datetime, shards: Shards | None = None) -> list[GameRow]:
        """Active games without a deadline (no turn timer) that nothing changed since `before`
        (`updated_at`), oldest first; only those of `shards`' guilds when given. The watchdog's look
        at games nobody has moved for days (table.watchdog)."""
        owned = [] if shards is None else [shards.where(_games.c.guild_id)]
        rows = await self._games_where(
            _games.c.status == "active", _games.c.deadline.is_(None), _games.c.updated_at <= before, *owned
        )
        return sorted(rows, key=lambda g: (g.updated_at, g.id))

    async def active_games(self, shards: Shards | None = None) -> list[GameRow]:
        """Every active game (of `shards`' guilds when given), oldest first: what a process resumes."""
        owned = [] if shards is None else [shards.where(_games.c.guild_id)]
        return await self._games_where(_games.c.status == "active", *owned)

    async def _games_where(
        self, *conditions: Any, newest_first: bool = False, limit: int | None = None
    ) -> list[GameRow]:
        query = select(*_GAME_COLUMNS).where(*conditions)
        query = query.order_by(_games.c.id.desc() if newest_first else _games.c.id)
        if limit is not None:
            query = query.limit(limit)
        return await self._read(_read_games, query)

    async def update_game(self, game_id: int, *, updated_at: datetime | None = None, **fields: Any) -> None:
        """Set non-state columns. A new deadline starts un-reminded unless `reminded` is given too;
        `updated_at` is now unless given (the table service passes its own clock's now)."""
        unknown = set(fields) - _GAME_FIELDS
        if unknown:
            raise ValueError(
                f"update_game cannot set {', '.join(sorted(unknown))}; settable: {', '.join(sorted(_GAME_FIELDS))}"
            )
        if "status" in fields and fields["status"] not in STATUSES:
            raise ValueError(f"status {fields['status']!r} is not one of {', '.join(STATUSES)}")
        if "deadline" in fields and "reminded" not in fields:
            fields["reminded"] = False
        if "broken_reason" in fields and fields["broken_reason"] is not None:
            fields["broken_reason"] = str(fields["broken_reason"])[:MAX_REASON]
        fields["updated_at"] = updated_at or utcnow()
        async with self._changing(game_id):
            if not await self._update_row(_games, {"id": game_id}, fields):
                raise GameNotFound(game_id)
            known = self._wrote(game_id)
            if known is not None:
                known.row.update(fields)
                if "options" in fields:
                    known.row["options"] = dict(fields["options"])

    async def start_game(self, game_id: int, state: dict[str, Any], deadline: datetime | None) -> int:
        """lobby -> active with the initial state; returns its version, 1."""
        fields = {
            "status": "active",
            "version": 1,
            "announced": 1,
            "deadline": deadline,
            "reminded": False,
            "updated_at": utcnow(),
        }
        state_json = _encode_state(state)
        async with self._changing(game_id):
            refused = await self._write(_start_game, game_id, state_json, fields)
            if refused is not None:
                raise refused
            known = self._wrote(game_id)
            if known is not None:
                known.row.update(fields)
        return 1

    async def commit_action(
        self,
        game_id: int,
        expected_version: int,
        seat: int,
        action: Sequence[str],
        state: dict[str, Any],
        *,
        deadline: datetime | Unchanged | None = UNCHANGED,
        status: str | None = None,
        afk: bool = False,
    ) -> int:
        """One move: `commit_actions` with `[Move(seat, action, afk)]`."""
        return await self.commit_actions(
            game_id, expected_version, [Move(seat, action, afk)], state, deadline=deadline, status=status
        )

    async def commit_actions(
        self,
        game_id: int,
        expected_version: int,
        moves: Sequence[Move],
        state: dict[str, Any],
        *,
        deadline: datetime | Unchanged | None = UNCHANGED,
        status: str | None = None,
        seats: Mapping[int, Mapping[str, Any]] | None = None,
    ) -> int:
        """Append the moves (seqs expected_version + 1, + 2, ...) and store the state after the last one,
        with the seat changes, in one transaction committed before this returns; the new version.

        `deadline=UNCHANGED` leaves the deadline as it is (None clears it; a new one resets `reminded`).
        `seats`: seat number -> columns to set, as update_seat takes them. Raises VersionConflict
        (GameNotActive for a game that is not running) and writes nothing for these moves when the game
        is not at `expected_version`.
        """
        if not moves:
            raise ValueError("a commit holds at least one move")
        logged = []
        for move in moves:
            if isinstance(move.action, str) or not all(isinstance(a, str) for a in move.action):
                raise TypeError(f"an action is a list of choice ids, not {move.action!r}")
            logged.append((move.seat, dump_json(list(move.action)), bool(move.afk)))
        if status is not None and status not in STATUSES:
            raise ValueError(f"status {status!r} is not one of {', '.join(STATUSES)}")
        if isinstance(deadline, datetime) and deadline.tzinfo is None:
            raise ValueError("deadline must be a timezone-aware UTC datetime")
        changes = [(seat, dict(fields)) for seat, fields in (seats or {}).items() if fields]
        for _seat, fields in changes:
            _check_seat_fields(fields)
        pending = PendingAction(
            game_id=game_id,
            expected=expected_version,
            moves=logged,
            state_json=_encode_state(state),
            deadline=deadline,
            status=status,
            at=utcnow(),
            future=asyncio.get_running_loop().create_future(),
            seats=changes,
        )
        async with self._changing(game_id):  # refused, failed or of unknown outcome: the copy is dropped
            with _unavailable_raised():
                version = await self.writer.submit(pending)
            known = self._wrote(game_id)
            if known is not None:
                if known.row["version"] != expected_version:
                    self._forget(game_id)  # the copy was behind (it cannot be: only this Database writes)
                else:
                    known.row.update(version=version, updated_at=pending.at)
                    if status is not None:
                        known.row["status"] = status
                    if deadline is not UNCHANGED:
                        known.row.update(deadline=deadline, reminded=False)
                    for seat, fields in changes:
                        _change_seat(known, seat, fields)
        return version

    async def load_state(self, game_id: int) -> tuple[dict[str, Any], int]:
        """(state, version). Raises BrokenGame (after marking the game broken) if it cannot be read."""
        query = select(
            type_coerce(_games.c.state, Text).label("state"),
            _games.c.version,
            _games.c.status,
            _games.c.broken_reason,
        ).where(_games.c.id == game_id)
        row = await self._read(_first, query)
        if row is None:
            raise GameNotFound(game_id)
        if row.status == "broken":
            raise BrokenGame(game_id, row.broken_reason or "marked broken")
        if row.state is None:
            raise GameNotActive(game_id, 0, row.version, row.status)
        try:
            state = json.loads(row.state)
        except ValueError as error:
            reason = f"stored state is not readable JSON ({error})"
        else:
            if isinstance(state, dict):
                return state, int(row.version)
            reason = f"stored state is a JSON {type(state).__name__}, not an object"
        await self.mark_broken(game_id, reason)
        raise BrokenGame(game_id, reason)

    async def mark_broken(self, game_id: int, reason: str) -> None:
        """Take the game out of play (no deadline, no more actions) and keep the reason."""
        await self.update_game(game_id, status="broken", broken_reason=reason, deadline=None)

    async def finish_game(self, game_id: int, status: str, results: list[dict[str, Any]]) -> None:
        """Close the game ("finished" or "abandoned") and store one result per seat, atomically.

        A finished game is rated in the same transaction (storage.ladder.record_finish): its server's
        and the global rating of every seat's identity, and their rating history. Its variant and
        each seat's plays are worked out first, outside the transaction (a replay of a few ms).
        """
        if status not in ("finished", "abandoned"):
            raise ValueError(f"a game ends as 'finished' or 'abandoned', not {status!r}")
        variant: str | None = None
        plays: list[dict[str, int]] | None = None
        if status == "finished" and results:
            found = await self._read(_finish_inputs, game_id)  # not the (large) state
            if found is None:
                raise GameNotFound(game_id)
            game, log = found
            options = _decode_object(game.options) or {}
            variant = plays_module.variant(self.lookup(game.game_key), options)
            plays = plays_module.seat_plays(self.lookup, game.game_key, len(results), game.seed, options, log)
        rows = ladder.normalise_results(game_id, results, variant, plays)
        async with self._changing(game_id):
            await self._write(ladder.record_finish, game_id, status, rows, utcnow())
            self._forget(game_id)  # a closed game is not read on the hot path again

    async def seats(self, game_id: int) -> list[SeatRow]:
        """The game's seats by seat number ([] if there is no such game); with the cache, from its copy."""
        known = await self._table(game_id)
        return [] if known is None else [loaded(SeatRow, s) for s in known.seats]

    async def set_seats(self, game_id: int, seats: list[dict[str, Any]]) -> None:
        """Replace the game's seats. Keys: seat, user_id, ai_level, name (others take their defaults)."""
        rows = []
        for s in seats:
            unknown = set(s) - _SEAT_FIELDS - {"seat", "game_id"}
            if unknown:
                raise ValueError(f"unknown seat fields: {', '.join(sorted(unknown))}")
            rows.append(
                {
                    "user_id": None,
                    "ai_level": None,
                    "name": "",
                    "dm_channel_id": None,
                    "dm_message_id": None,
                    "dm_failed": False,
                    "afk_count": 0,
                    "ai_controlled": False,
                    "locale": None,
                    "dm_version": None,
                    "dm_prompt": None,
                    "dm_live": None,
                    **s,
                    "game_id": game_id,
                }
            )
        async with self._changing(game_id):
            if not await self._write(_replace_seats, game_id, rows):
                raise GameNotFound(game_id)
            known = self._wrote(game_id)
            if known is not None:
                known.seats = sorted((dict(r) for r in rows), key=lambda r: r["seat"])

    async def update_seat(self, game_id: int, seat: int, **fields: Any) -> None:
        _check_seat_fields(fields)
        if not fields:
            return
        async with self._changing(game_id):
            if not await self._update_row(_seats, {"game_id": game_id, "seat": seat}, fields):
                raise LookupError(f"game {game_id} has no seat {seat}")
            known = self._wrote(game_id)
            if known is not None:
                _change_seat(known, seat, fields)

    async def actions(self, game_id: int) -> list[ActionRow]:
        return await self._read(_read_actions, game_id)

    async def results(self, game_id: int) -> list[ResultRow]:
        async with self._reading() as conn:
            rows = (
                await conn.execute(select(_results).where(_results.c.game_id == game_id).order_by(_results.c.seat))
            ).all()
        return [ResultRow(**row._mapping) for row in rows]
