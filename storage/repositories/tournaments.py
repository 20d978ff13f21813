"""Tournaments: the tournament, its entry list, its rounds and their tables (storage/tournaments.py).

What makes a tournament restart-proof is here: every write is one transaction; the tournament's `version`
moves by one at each change of its row or of its entry list, so a pairing computed from what was read is
stored only if nothing changed meanwhile (`begin_round`, TournamentConflict otherwise); a round's tables are
reserved with its pairing, under the primary key (tournament, round, table index); and `open_table` creates
a table's game (row and seats, a lobby that knows its tournament and round) and records its id on the table
row in one transaction, so a table gets one game whatever crashes or races there are.

Over 500 lines: the four tables' reads and writes share their transactions (a round's pairing with its
tables, a table's game with its row, a result with the entrants' missed rounds); split, each part would
open transactions for the others'.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, and_, func, insert, or_, select, update

from storage.models import loaded
from storage.repositories.base import DatabaseCore
from storage.rows import _games, _insert_game, _seats
from storage.shards import Shards
from storage.tournaments import (
    ENTRANT_STATUSES,
    ROUND_STATUSES,
    TABLE_OUTCOMES,
    TOURNAMENT_FORMATS,
    TOURNAMENT_STATUSES,
    EntrantRow,
    EntryRefused,
    RoundRow,
    TournamentConflict,
    TournamentNotFound,
    TournamentRow,
    TournamentTableRow,
)
from storage.types import utcnow
from storage.unchanged import UNCHANGED, Unchanged

__all__ = ["TournamentRepository", "TournamentSnapshot"]

_tournaments = TournamentRow.__table__  # type: ignore[attr-defined]
_entrants = EntrantRow.__table__  # type: ignore[attr-defined]
_rounds = RoundRow.__table__  # type: ignore[attr-defined]
_tables = TournamentTableRow.__table__  # type: ignore[attr-defined]

# What update_tournament may set (id, seed, version and the timestamps it keeps itself are not).
_TOURNAMENT_FIELDS = {c.name for c in _tournaments.columns} - {"id", "seed", "version", "created_at", "updated_at"}
_ENTRANT_FIELDS = {"name", "seed", "status", "missed_rounds"}


@dataclass
class TournamentSnapshot:
    """A tournament as one read saw it: its row, entrants (by seed), rounds (by number), every round's tables
    (by round, then table index) and the status of each game those tables opened (game id -> status)."""

    tournament: TournamentRow
    entrants: list[EntrantRow] = field(default_factory=list)
    rounds: list[RoundRow] = field(default_factory=list)
    tables: list[TournamentTableRow] = field(default_factory=list)
    games: dict[int, str] = field(default_factory=dict)

    def round_tables(self, number: int) -> list[TournamentTableRow]:
        return [t for t in self.tables if t.round == number]


def _row(cls: Any, found: Any) -> Any:
    return loaded(cls, dict(found._mapping))


def _check_status(value: str, allowed: Sequence[str], what: str) -> None:
    if value not in allowed:
        raise ValueError(f"{what} {value!r} is not one of {', '.join(allowed)}")


# --- the synchronous SQL (run by DatabaseCore._read / _write on one connection, one transaction) -------------


def _lock_tournament(conn: Connection, tournament_id: int) -> Any:
    """The tournament's row, locked for the transaction (PostgreSQL; SQLite's BEGIN IMMEDIATE holds the lock)."""
    query = select(_tournaments.c.status, _tournaments.c.version, _tournaments.c.max_entrants)
    found = conn.execute(query.where(_tournaments.c.id == tournament_id).with_for_update()).first()
    if found is None:
        raise TournamentNotFound(tournament_id)
    return found


def _bump(conn: Connection, tournament_id: int, at: datetime, expected: int | None = None, **fields: Any) -> int:
    """version + 1 (WHERE version = expected when given) with `fields`; the new version."""
    where = [_tournaments.c.id == tournament_id]
    if expected is not None:
        where.append(_tournaments.c.version == expected)
    changed = conn.execute(
        update(_tournaments)
        .where(*where)
        .values(version=_tournaments.c.version + 1, updated_at=at, **fields)
        .returning(_tournaments.c.version)
    ).first()
    if changed is None:
        actual = conn.execute(select(_tournaments.c.version).where(_tournaments.c.id == tournament_id)).scalar()
        if actual is None:
            raise TournamentNotFound(tournament_id)
        raise TournamentConflict(tournament_id, expected, int(actual))
    return int(changed[0])


def _update_tournament(
    conn: Connection, tournament_id: int, expected: int | None, fields: dict[str, Any], at: datetime
) -> int:
    return _bump(conn, tournament_id, at, expected, **fields)


def _insert_tournament(conn: Connection, values: dict[str, Any]) -> int:
    key = conn.execute(insert(_tournaments).values(**values)).inserted_primary_key
    assert key is not None
    return int(key[0])


def _read_tournament(conn: Connection, tournament_id: int) -> TournamentRow | None:
    found = conn.execute(select(_tournaments).where(_tournaments.c.id == tournament_id)).first()
    return None if found is None else _row(TournamentRow, found)


def _read_tournaments(conn: Connection, query: Any) -> list[TournamentRow]:
    return [_row(TournamentRow, found) for found in conn.execute(query)]


def _read_snapshot(conn: Connection, tournament_id: int) -> TournamentSnapshot | None:
    tournament = _read_tournament(conn, tournament_id)
    if tournament is None:
        return None
    entrants = conn.execute(
        select(_entrants)
        .where(_entrants.c.tournament_id == tournament_id)
        .order_by(_entrants.c.seed, _entrants.c.joined_at, _entrants.c.user_id)
    )
    rounds = conn.execute(select(_rounds).where(_rounds.c.tournament_id == tournament_id).order_by(_rounds.c.number))
    tables = conn.execute(
        select(_tables).where(_tables.c.tournament_id == tournament_id).order_by(_tables.c.round, _tables.c.table_index)
    )
    snapshot = TournamentSnapshot(
        tournament,
        [_row(EntrantRow, e) for e in entrants],
        [_row(RoundRow, r) for r in rounds],
        [_row(TournamentTableRow, t) for t in tables],
    )
    games = conn.execute(
        select(_games.c.id, _games.c.status)
        .select_from(_tables.join(_games, _games.c.id == _tables.c.game_id))
        .where(_tables.c.tournament_id == tournament_id)
    )
    snapshot.games = {int(g.id): str(g.status) for g in games}
    return snapshot


def _add_entrant(conn: Connection, tournament_id: int, values: dict[str, Any], at: datetime) -> EntrantRow:
    found = _lock_tournament(conn, tournament_id)
    if found.status != "signup":
        raise EntryRefused(tournament_id, "closed")
    listed = select(_entrants.c.user_id, _entrants.c.seed).where(_entrants.c.tournament_id == tournament_id)
    entered = conn.execute(listed).all()
    if any(int(e.user_id) == values["user_id"] for e in entered):
        raise EntryRefused(tournament_id, "entered")
    if found.max_entrants is not None and len(entered) >= found.max_entrants:
        raise EntryRefused(tournament_id, "full")
    row = {
        **values,
        "tournament_id": tournament_id,
        "seed": max((int(e.seed) for e in entered), default=-1) + 1,
        "joined_at": at,
        "status": "active",
        "missed_rounds": 0,
        "updated_at": at,
    }
    conn.execute(insert(_entrants).values(**row))
    _bump(conn, tournament_id, at)
    return loaded(EntrantRow, row)


def _remove_entrant(conn: Connection, tournament_id: int, user_id: int, at: datetime) -> bool:
    found = _lock_tournament(conn, tournament_id)
    if found.status != "signup":
        raise EntryRefused(tournament_id, "closed")
    gone = conn.execute(
        _entrants.delete().where(_entrants.c.tournament_id == tournament_id, _entrants.c.user_id == user_id)
    ).rowcount
    if gone:
        _bump(conn, tournament_id, at)
    return bool(gone)


def _update_entrant(conn: Connection, tournament_id: int, user_id: int, fields: dict[str, Any], at: datetime) -> bool:
    _lock_tournament(conn, tournament_id)
    changed = conn.execute(
        update(_entrants)
        .where(_entrants.c.tournament_id == tournament_id, _entrants.c.user_id == user_id)
        .values(**fields, updated_at=at)
    ).rowcount
    if changed:
        _bump(conn, tournament_id, at)
    return bool(changed)


def _insert_round(conn: Connection, tournament_id: int, number: int, pairing: dict[str, Any], at: datetime) -> None:
    conn.execute(
        insert(_rounds).values(
            tournament_id=tournament_id, number=number, pairing=pairing, status="pairing", created_at=at
        )
    )
    tables = pairing.get("tables") or []
    if tables:
        conn.execute(
            insert(_tables),
            [
                {
                    "tournament_id": tournament_id,
                    "round": number,
                    "table_index": index,
                    "game_id": None,
                    "seats": None,
                    "result": None,
                    "outcome": None,
                    "created_at": at,
                    "updated_at": at,
                }
                for index in range(len(tables))
            ],
        )


def _start(
    conn: Connection,
    tournament_id: int,
    expected: int,
    seeds: Mapping[int, int],
    fields: dict[str, Any],
    schedule: Sequence[dict[str, Any]],
    at: datetime,
) -> int:
    found = _lock_tournament(conn, tournament_id)
    if found.status != "signup":
        raise TournamentConflict(tournament_id, expected, int(found.version), f"it is {found.status}")
    version = _bump(conn, tournament_id, at, expected, status="running", started_at=at, **fields)
    for user_id, seed in seeds.items():
        conn.execute(
            update(_entrants)
            .where(_entrants.c.tournament_id == tournament_id, _entrants.c.user_id == user_id)
            .values(seed=seed, updated_at=at)
        )
    for number, pairing in enumerate(schedule, 1):
        _insert_round(conn, tournament_id, number, pairing, at)
    return version


def _begin_round(
    conn: Connection, tournament_id: int, expected: int, number: int, pairing: dict[str, Any] | None, at: datetime
) -> int:
    _lock_tournament(conn, tournament_id)
    version = _bump(conn, tournament_id, at, expected, current_round=number)
    if pairing is not None:
        stored = select(_rounds.c.number).where(_rounds.c.tournament_id == tournament_id, _rounds.c.number == number)
        if conn.execute(stored).first() is not None:  # the transaction rolls back: the version does not move
            raise TournamentConflict(tournament_id, expected, version - 1, f"round {number} is stored already")
        _insert_round(conn, tournament_id, number, pairing, at)
    return version


def _set_round(conn: Connection, tournament_id: int, number: int, expected: str | None, values: dict[str, Any]) -> bool:
    where = [_rounds.c.tournament_id == tournament_id, _rounds.c.number == number]
    if expected is not None:
        where.append(_rounds.c.status == expected)
    return bool(conn.execute(update(_rounds).where(*where).values(**values)).rowcount)


def _table_key(tournament_id: int, number: int, index: int) -> Any:
    return and_(_tables.c.tournament_id == tournament_id, _tables.c.round == number, _tables.c.table_index == index)


def _open_table(
    conn: Connection,
    tournament_id: int,
    number: int,
    index: int,
    game: dict[str, Any],
    seats: list[dict[str, Any]],
    seat_map: list[int | None],
    at: datetime,
) -> tuple[int, bool]:
    key = _table_key(tournament_id, number, index)
    found = conn.execute(select(_tables.c.game_id, _tables.c.result).where(key).with_for_update()).first()
    if found is None:
        raise LookupError(f"tournament {tournament_id} has no table {index} in round {number}")
    if found.game_id is not None:
        return int(found.game_id), False
    if found.result is not None:
        raise ValueError(f"table {index} of round {number} of tournament {tournament_id} is resolved already")
    game_id = _insert_game(conn, game)
    if seats:
        conn.execute(insert(_seats), [{**s, "game_id": game_id} for s in seats])
    conn.execute(update(_tables).where(key).values(game_id=game_id, seats=seat_map, updated_at=at))
    return game_id, True


def _resolve_table(
    conn: Connection,
    tournament_id: int,
    number: int,
    index: int,
    result: dict[str, Any],
    outcome: str,
    missed: Collection[int],
    drop_after: int | None,
    at: datetime,
) -> bool:
    _lock_tournament(conn, tournament_id)
    changed = conn.execute(
        update(_tables)
        .where(_table_key(tournament_id, number, index), _tables.c.result.is_(None))
        .values(result=result, outcome=outcome, updated_at=at)
    ).rowcount
    if not changed:
        return False
    if missed:
        whose = and_(_entrants.c.tournament_id == tournament_id, _entrants.c.user_id.in_(sorted(missed)))
        conn.execute(update(_entrants).where(whose).values(missed_rounds=_entrants.c.missed_rounds + 1, updated_at=at))
        if drop_after is not None:
            conn.execute(
                update(_entrants)
                .where(whose, _entrants.c.status == "active", _entrants.c.missed_rounds >= drop_after)
                .values(status="dropped")
            )
    _bump(conn, tournament_id, at)
    return True


def _table_of_game(conn: Connection, game_id: int) -> TournamentTableRow | None:
    found = conn.execute(select(_tables).where(_tables.c.game_id == game_id)).first()
    return None if found is None else _row(TournamentTableRow, found)


class TournamentRepository(DatabaseCore):
    """Tournaments, their entry lists, rounds and tables (docs/storage-api.md, "Tournaments")."""

    async def create_tournament(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        game_key: str,
        format: str,
        options: Mapping[str, Any],
        seed: int,
        max_entrants: int | None = None,
        starts_at: datetime | None = None,
    ) -> TournamentRow:
        """A tournament in sign-up (version 1, round 0)."""
        _check_status(format, TOURNAMENT_FORMATS, "format")
        now = utcnow()
        values: dict[str, Any] = {
            "guild_id": guild_id,
            "channel_id": channel_id,
            "thread_id": None,
            "message_id": None,
            "host_id": host_id,
            "game_key": game_key,
            "format": format,
            "options": dict(options),
            "status": "signup",
            "max_entrants": max_entrants,
            "starts_at": starts_at,
            "seed": seed,
            "current_round": 0,
            "version": 1,
            "created_at": now,
            "updated_at": now,
            "started_at": None,
            "finished_at": None,
        }
        tournament_id = await self._write(_insert_tournament, values)
        return loaded(TournamentRow, {**values, "id": tournament_id})

    async def tournament(self, tournament_id: int) -> TournamentRow | None:
        return await self._read(_read_tournament, tournament_id)

    async def tournament_snapshot(self, tournament_id: int) -> TournamentSnapshot | None:
        """The tournament with its entrants, rounds, tables and their games' statuses, in one read."""
        return await self._read(_read_snapshot, tournament_id)

    async def tournaments(
        self,
        *,
        statuses: Sequence[str] = ("signup", "running"),
        guild_id: int | None = None,
        channel_id: int | None = None,
        shards: Shards | None = None,
    ) -> list[TournamentRow]:
        """Tournaments in `statuses`, of a guild and/or a channel when given, by id."""
        for status in statuses:
            _check_status(status, TOURNAMENT_STATUSES, "status")
        where = [_tournaments.c.status.in_(list(statuses))]
        if guild_id is not None:
            where.append(_tournaments.c.guild_id == guild_id)
        if channel_id is not None:
            where.append(_tournaments.c.channel_id == channel_id)
        if shards is not None:
            where.append(shards.where(_tournaments.c.guild_id))
        return await self._read(_read_tournaments, select(_tournaments).where(*where).order_by(_tournaments.c.id))

    async def due_tournaments(self, now: datetime, shards: Shards | None = None) -> list[TournamentRow]:
        """What the tournaments' tick looks at: every running tournament, and those in sign-up whose start
        time has come (of `shards`' guilds when given), by id."""
        where = [
            or_(
                _tournaments.c.status == "running",
                and_(_tournaments.c.status == "signup", _tournaments.c.starts_at <= now),
            )
        ]
        if shards is not None:
            where.append(shards.where(_tournaments.c.guild_id))
        return await self._read(_read_tournaments, select(_tournaments).where(*where).order_by(_tournaments.c.id))

    async def thread_tournament(self, thread_id: int) -> TournamentRow | None:
        """The tournament whose thread this is (the newest, should there be several)."""
        query = select(_tournaments).where(_tournaments.c.thread_id == thread_id).order_by(_tournaments.c.id.desc())
        found = await self._read(_read_tournaments, query.limit(1))
        return found[0] if found else None

    async def update_tournament(self, tournament_id: int, expected_version: int | None, **fields: Any) -> int:
        """Set columns of the tournament (status, thread_id, message_id, options, current_round, finished_at,
        ...) and move its version on; the new version. With `expected_version`, only if the tournament is
        still at that version (TournamentConflict otherwise; None: whatever it is). TournamentNotFound."""
        unknown = set(fields) - _TOURNAMENT_FIELDS
        if unknown:
            raise ValueError(f"update_tournament cannot set {', '.join(sorted(unknown))}")
        if "status" in fields:
            _check_status(fields["status"], TOURNAMENT_STATUSES, "status")
        if "format" in fields:
            _check_status(fields["format"], TOURNAMENT_FORMATS, "format")
        return await self._write(_update_tournament, tournament_id, expected_version, fields, utcnow())

    async def add_entrant(self, tournament_id: int, user_id: int, name: str, locale: str | None = None) -> EntrantRow:
        """Enter a user (last in the entry list, with their Discord locale) while the tournament is in
        sign-up and below its cap; EntryRefused ("closed", "full", "entered") otherwise. TournamentNotFound."""
        values = {"user_id": user_id, "name": name, "locale": locale}
        return await self._write(_add_entrant, tournament_id, values, utcnow())

    async def remove_entrant(self, tournament_id: int, user_id: int) -> bool:
        """Take a user off the entry list during sign-up (EntryRefused "closed" after); False if not on it."""
        return await self._write(_remove_entrant, tournament_id, user_id, utcnow())

    async def entrants(self, tournament_id: int) -> list[EntrantRow]:
        """The entry list in seed order."""
        snapshot = await self.tournament_snapshot(tournament_id)
        return [] if snapshot is None else snapshot.entrants

    async def update_entrant(self, tournament_id: int, user_id: int, **fields: Any) -> bool:
        """Set an entrant's name, seed, status or missed_rounds (the tournament's version moves on); False
        if the user is not entered."""
        unknown = set(fields) - _ENTRANT_FIELDS
        if unknown:
            raise ValueError(f"update_entrant cannot set {', '.join(sorted(unknown))}")
        if "status" in fields:
            _check_status(fields["status"], ENTRANT_STATUSES, "entrant status")
        return await self._write(_update_entrant, tournament_id, user_id, fields, utcnow())

    async def start_tournament(
        self,
        tournament_id: int,
        expected_version: int,
        *,
        seeds: Mapping[int, int],
        schedule: Sequence[dict[str, Any]] = (),
        **fields: Any,
    ) -> int:
        """sign-up -> running at `expected_version`: the entrants' seeds (user id -> place), the rounds known
        in advance (`schedule`: each a pairing JSON with its "tables", stored as rounds 1, 2, ... in status
        pairing with their table rows; a round robin's whole schedule) and other columns (`fields`, e.g.
        options), in one transaction; the new version. TournamentConflict if the version moved or it is
        not in sign-up."""
        unknown = set(fields) - _TOURNAMENT_FIELDS
        if unknown:
            raise ValueError(f"start_tournament cannot set {', '.join(sorted(unknown))}")
        return await self._write(_start, tournament_id, expected_version, dict(seeds), fields, list(schedule), utcnow())

    async def begin_round(
        self, tournament_id: int, expected_version: int, number: int, pairing: dict[str, Any] | None = None
    ) -> int:
        """Make `number` the current round, at `expected_version`; with `pairing` (a JSON object whose
        "tables" list the tables), store the round (status pairing) and reserve its table rows (index 0, 1,
        ... in the pairing's order) in the same transaction. The new version. TournamentConflict if the
        version moved or the round is stored already (the primary keys (tournament, round) and
        (tournament, round, table index) refuse it)."""
        return await self._write(_begin_round, tournament_id, expected_version, number, pairing, utcnow())

    async def rounds(self, tournament_id: int) -> list[RoundRow]:
        snapshot = await self.tournament_snapshot(tournament_id)
        return [] if snapshot is None else snapshot.rounds

    async def round_tables(self, tournament_id: int, number: int | None = None) -> list[TournamentTableRow]:
        """The tables of one round (or of every round), by round and table index."""
        snapshot = await self.tournament_snapshot(tournament_id)
        if snapshot is None:
            return []
        return snapshot.tables if number is None else snapshot.round_tables(number)

    async def set_round_status(
        self,
        tournament_id: int,
        number: int,
        status: str,
        *,
        expected: str | None = None,
        deadline: datetime | Unchanged | None = UNCHANGED,
        at: datetime | None = None,
    ) -> bool:
        """Move a round to `status` (only from `expected` when given; opened_at / finished_at are stamped
        with `at`, default now), setting its deadline when given; whether this call changed it."""
        _check_status(status, ROUND_STATUSES, "round status")
        if isinstance(deadline, datetime) and deadline.tzinfo is None:
            raise ValueError("deadline must be a timezone-aware UTC datetime")
        values: dict[str, Any] = {"status": status}
        if deadline is not UNCHANGED:
            values["deadline"] = deadline
        if status == "open":
            values["opened_at"] = at or utcnow()
        elif status == "finished":
            values["finished_at"] = at or utcnow()
        return await self._write(_set_round, tournament_id, number, expected, values)

    async def open_table(
        self,
        tournament_id: int,
        number: int,
        index: int,
        *,
        guild_id: int | None,
        channel_id: int,
        game_key: str,
        options: Mapping[str, Any],
        host_id: int,
        seed: int,
        turn_seconds: int | None,
        seats: Sequence[Mapping[str, Any]],
        seat_map: Sequence[int | None],
    ) -> tuple[int, bool]:
        """The game of a reserved table: if the table row has none yet, create it (a lobby whose
        tournament_id / tournament_round are this tournament and round, with `seats`: dicts of seat,
        user_id, ai_level, name) and record its id and `seat_map` (each seat's entrant, None for an AI
        stand-in) on the table row, in one transaction. Returns (game id, whether this call created it).
        LookupError for a table that was never reserved, ValueError for one resolved without a game."""
        now = utcnow()
        game: dict[str, Any] = {
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
            "broken_reason": None,
            "created_at": now,
            "updated_at": now,
            "tournament_id": tournament_id,
            "tournament_round": number,
        }
        rows = [
            {
                "seat": int(s["seat"]),
                "user_id": s.get("user_id"),
                "ai_level": s.get("ai_level"),
                "name": str(s.get("name", "")),
                "dm_channel_id": None,
                "dm_message_id": None,
                "dm_failed": False,
                "afk_count": 0,
                "ai_controlled": False,
                "locale": s.get("locale"),
                "dm_version": None,
                "dm_prompt": None,
                "dm_live": None,
            }
            for s in seats
        ]
        return await self._write(_open_table, tournament_id, number, index, game, rows, list(seat_map), now)

    async def resolve_table(
        self,
        tournament_id: int,
        number: int,
        index: int,
        result: Mapping[str, Any],
        outcome: str,
        *,
        missed: Collection[int] = (),
        drop_after: int | None = None,
    ) -> bool:
        """Record a table's result (`outcome`: "game", "walkover" or "scores") unless it has one; whether
        this call recorded it. With it, in the same transaction: each of `missed` (entrants who did not play
        their seat) gets one more missed round, and with `drop_after`, those who reach that many are
        dropped. Recording twice changes nothing (the first result stands)."""
        _check_status(outcome, TABLE_OUTCOMES, "outcome")
        return await self._write(
            _resolve_table, tournament_id, number, index, dict(result), outcome, set(missed), drop_after, utcnow()
        )

    async def table_of_game(self, game_id: int) -> TournamentTableRow | None:
        """The tournament table a game was opened for, or None for an ordinary game."""
        return await self._read(_table_of_game, game_id)

    async def count_tournaments(self, statuses: Sequence[str] = TOURNAMENT_STATUSES) -> int:
        async with self._reading() as conn:
            query = select(func.count()).select_from(_tournaments).where(_tournaments.c.status.in_(list(statuses)))
            return int((await conn.execute(query)).scalar_one())
