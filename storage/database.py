"""The async repository: everything the table service may ask of storage (docs/storage-api.md)."""

from __future__ import annotations

import asyncio
import functools
import json
import sqlite3
import weakref
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple, TypeVar

from sqlalchemy import (
    BigInteger,
    Column,
    Connection,
    Dialect,
    Engine,
    Row,
    String,
    Table,
    Text,
    bindparam,
    delete,
    event,
    func,
    insert,
    select,
    type_coerce,
    update,
)
from sqlalchemy import exc as sa_exc
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import URL
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine
from sqlmodel import SQLModel

import games
from storage import ladder, migrate
from storage import plays as plays_module
from storage.engine import IMMEDIATE, READ_ONLY, create_engine, create_sync_sqlite_engine, resolve_url
from storage.errors import BrokenGame, DatabaseUnavailable, GameNotActive, GameNotFound
from storage.ladder import BoardPage, GameSeat, PlayedGame, PlayerStats, ScoreSummary
from storage.models import (
    RUNNING,
    STATUSES,
    ActionRow,
    GameRow,
    RatingHistoryRow,
    RatingRow,
    ResultRow,
    SeatRow,
    loaded,
)
from storage.pg_direct import PGStatementConnection
from storage.shards import Shards
from storage.sqlite_writer import SQLiteStatementConnection, WriteLockBusy
from storage.types import UTCDateTime, dump_json, utcnow
from storage.unchanged import UNCHANGED, Unchanged
from storage.writer import GroupWriter, PendingAction

__all__ = ["Database", "Move"]

T = TypeVar("T")

_games = GameRow.__table__  # type: ignore[attr-defined]
_seats = SeatRow.__table__  # type: ignore[attr-defined]
_actions = ActionRow.__table__  # type: ignore[attr-defined]
_results = ResultRow.__table__  # type: ignore[attr-defined]
_ratings = RatingRow.__table__  # type: ignore[attr-defined]
# Per-server settings (migration 0002_guild_settings). A Core table on the models' metadata so the
# schema check sees it; it has no row class because only these two methods read it.
_guild_settings = Table(
    "guild_settings",
    SQLModel.metadata,
    Column("guild_id", BigInteger, primary_key=True),
    Column("language", String(16), nullable=True),
    Column("updated_at", UTCDateTime, nullable=False),
)

# Columns of `games` read raw (text), so that one unreadable value cannot fail a whole query.
_RAW_JSON = ("state", "options")
_GAME_COLUMNS = [type_coerce(c, Text).label(c.name) if c.name in _RAW_JSON else c for c in _games.columns]
_GAME_FIELDS_FIXED = {"id", "state", "version", "created_at", "updated_at", "finished_at", "finished_seq"}
_GAME_FIELDS = {c.name for c in _games.columns} - _GAME_FIELDS_FIXED
_SEAT_FIELDS = {c.name for c in _seats.columns} - {"game_id", "seat"}
MAX_REASON = 500
# SQLite errors that mean "the file cannot be used right now", as opposed to a mistake in a statement
# (which sqlite3 also reports as OperationalError: "no such table", a syntax error, ...).
_SQLITE_UNAVAILABLE = (
    "locked",
    "busy",
    "disk i/o",
    "unable to open",
    "interrupted",
    "disk is full",
    "readonly database",
)
# PostgreSQL SQLSTATEs of the same kind: connection exceptions, the server shutting down or starting,
# a backend terminated (pg_terminate_backend), a database closed to connections (ALLOW_CONNECTIONS).
_PG_UNAVAILABLE = ("08", "57P01", "57P02", "57P03", "55000")


def is_unavailable(error: BaseException) -> bool:
    """Does this error mean the database could not be reached, rather than a bug in a statement?"""
    if isinstance(error, DatabaseUnavailable | sa_exc.TimeoutError):  # the latter: no pooled connection
        return True
    if isinstance(error, sa_exc.DBAPIError) and error.connection_invalidated:
        return True
    original = error.orig if isinstance(error, sa_exc.DBAPIError) else error
    if isinstance(original, sqlite3.Error):
        return any(sign in str(original).lower() for sign in _SQLITE_UNAVAILABLE)
    if str(getattr(original, "sqlstate", "") or "").startswith(_PG_UNAVAILABLE):
        return True
    # PostgreSQL (asyncpg through SQLAlchemy): a refused, terminated or lost connection.
    return isinstance(error, sa_exc.OperationalError | sa_exc.InterfaceError | OSError | TimeoutError)


@contextmanager
def _unavailable_raised() -> Iterator[None]:
    """Report a database that cannot be reached as DatabaseUnavailable (other errors pass through)."""
    try:
        yield
    except DatabaseUnavailable:
        raise
    except Exception as error:
        if is_unavailable(error):
            raise DatabaseUnavailable(f"{type(error).__name__}: {error}"[:MAX_REASON]) from error
        raise


class Move(NamedTuple):
    """One decision for the action log: the seat, its choice ids, and whether the AI took it for an
    absent player (recorded in the log only)."""

    seat: int
    action: Sequence[str]
    afk: bool = False


def _check_seat_fields(fields: Mapping[str, Any]) -> None:
    unknown = set(fields) - _SEAT_FIELDS
    if unknown:
        raise ValueError(
            f"a seat update cannot set {', '.join(sorted(unknown))}; settable: {', '.join(sorted(_SEAT_FIELDS))}"
        )


def _change_seat(known: _Known, seat: int, fields: Mapping[str, Any]) -> None:
    for row in known.seats:
        if row["seat"] == seat:
            row.update(fields)


@dataclass(slots=True)
class _Known:
    """A game's row (every column but the state, options decoded) and its seats, as this Database last
    read or wrote them. Rows handed out are built afresh from these, so callers may change theirs."""

    row: dict[str, Any]
    seats: list[dict[str, Any]]


class Database:
    """One database (SQLite file or PostgreSQL), its connection pool and its group-commit writer.

    With `cache=True` the Database keeps each game's row (without its state) and seats as it last read
    or wrote them, and `game_row`, `game_and_seats` and `seats` answer from that copy, reading nothing:
    every write through this Database updates the copy (or drops it when the write fails or its outcome
    is unknown). Only for a process that is alone on its database: another process's writes (or another
    Database object's) are not seen until this one's own write to that game is refused as stale.
    """

    def __init__(self, engine: AsyncEngine, url: URL, writer: GroupWriter, *, cache: bool = False) -> None:
        self.engine = engine
        self.url = url
        self.writer = writer
        self._known: dict[int, _Known] | None = {} if cache else None
        # Writes so far per game (cache only): a read that a write overtook must not cache what it saw.
        self._written: dict[int, int] = {}
        # Per game, while one of its writes runs (weakly held: a lock nobody holds or waits for goes).
        self._write_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self.lookup: plays_module.Lookup = games.get  # the engines, to replay a finished game's plays
        # SQLite: leaderboard and stats reads run on the loop through the stdlib driver, a millisecond
        # or two, instead of one thread hop per statement through aiosqlite (see storage.ladder).
        self._sync_reader: Engine | None = None
        self._sync_writer: Engine | None = None  # busy_timeout 0: never waits on the loop for the lock
        # update_game, update_seat: see _update_row. SQLite's stdlib connection or PostgreSQL's asyncpg one.
        self._statements: SQLiteStatementConnection | None = None
        self._pg_statements: PGStatementConnection | None = None  # and a game's row and seats: _read_table
        if url.drivername.startswith("sqlite"):
            self._sync_reader = create_sync_sqlite_engine(url)
            self._sync_writer = create_sync_sqlite_engine(url, wait=False)
            assert url.database
            self._statements = SQLiteStatementConnection(url.database)
        else:
            self._pg_statements = PGStatementConnection(engine)

    # --- lifecycle ---------------------------------------------------------------------------------
    @classmethod
    async def open(
        cls, url: str | None = None, *, group_window: float = 0.0, max_batch: int = 500, cache: bool = False
    ) -> Database:
        """Connect, migrate to the newest schema (SchemaTooNew if the database is newer), start the writer.

        `group_window` (seconds) makes the writer wait that long for more actions before each
        transaction; 0 (the default) writes whatever has queued up meanwhile, which already batches
        under load and adds no delay to a lone action. `cache`: see the class; only for a process
        that is alone on the database.
        """
        resolved = resolve_url(url)
        engine = create_engine(resolved)
        try:
            async with engine.connect() as conn:
                await conn.execution_options(**{IMMEDIATE: True})
                async with conn.begin():
                    await conn.run_sync(migrate.upgrade)
        except BaseException:
            await engine.dispose()
            raise
        writer = GroupWriter(engine, max_batch=max_batch, window=group_window)
        writer.start()
        return cls(engine, resolved, writer, cache=cache)

    async def close(self) -> None:
        """Finish writing what was submitted, then release every connection."""
        await self.writer.stop()
        if self._pg_statements is not None:
            await self._pg_statements.close()
        await self.engine.dispose()
        if self._statements is not None:
            self._statements.close()
        for engine in (self._sync_reader, self._sync_writer):
            if engine is not None:
                engine.dispose()

    def on_statement(self, seen: Callable[[str], None]) -> Callable[[], None]:
        """Tell `seen` the text of every SQL statement this Database sends, on every connection (the
        pools, the SQLite reader, the group writer; an executemany counts once); returns the function
        that stops it. For benchmarks and tests that count what a decision costs."""

        def before(_conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
            seen(statement)

        engines = [self.engine.sync_engine, *(e for e in (self._sync_reader, self._sync_writer) if e is not None)]
        for engine in engines:
            event.listen(engine, "before_cursor_execute", before)
        self.writer.on_statement(seen)
        for direct in (self._statements, self._pg_statements):
            if direct is not None:
                direct.on_statement = seen

        def stop() -> None:
            for engine in engines:
                event.remove(engine, "before_cursor_execute", before)
            self.writer.on_statement(None)
            for direct in (self._statements, self._pg_statements):
                if direct is not None:
                    direct.on_statement = None

        return stop

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.close()

    @asynccontextmanager
    async def _writing(self) -> AsyncIterator[AsyncConnection]:
        with _unavailable_raised():
            async with self.engine.connect() as conn:
                await conn.execution_options(**{IMMEDIATE: True})
                async with conn.begin():
                    yield conn

    async def _read(self, query: Callable[..., T], *args: Any) -> T:
        """Run a synchronous read (storage.ladder) on SQLite's stdlib driver, else via run_sync."""
        if self._sync_reader is not None:
            with _unavailable_raised(), self._sync_reader.connect() as conn:
                conn = conn.execution_options(**{READ_ONLY: True})
                return query(conn, *args)
        async with self._reading() as conn:
            return await conn.run_sync(query, *args)

    async def _write(self, change: Callable[..., T], *args: Any) -> T:
        """Run a synchronous write transaction (storage.ladder); on SQLite through the stdlib driver
        on the loop when the write lock is free at once, else (and on PostgreSQL) via run_sync."""
        if self._sync_writer is not None:
            try:
                with _unavailable_raised(), self._sync_writer.connect() as conn:
                    conn = conn.execution_options(**{IMMEDIATE: True})
                    with conn.begin():
                        return change(conn, *args)
            except DatabaseUnavailable as error:
                cause = error.__cause__
                if not isinstance(cause, OperationalError) or ("locked" not in str(cause) and "busy" not in str(cause)):
                    raise
        async with self._writing() as conn:
            return await conn.run_sync(change, *args)

    async def _update_row(self, target: Table, key: dict[str, Any], fields: dict[str, Any]) -> int:
        """UPDATE the row of `target` whose columns equal `key` with `fields`, in a transaction of its own;
        the rows changed (0 or 1). On SQLite, a statement sent straight through the stdlib driver on the
        loop while the write lock is free (see SQLiteStatementConnection), else through `_write`; on
        PostgreSQL, on the asyncpg connection directly in autocommit unless it is busy with another write
        (see PGStatementConnection), else through `_write`."""
        statement, bind = _update_statement(target.name, tuple(fields), tuple(key), self.engine.dialect)
        if self._pg_statements is not None:
            with _unavailable_raised():
                changed = await self._pg_statements.write(statement, [*bind(fields), *key.values()])
            if changed is not None:
                return changed
        if self._statements is not None:
            try:
                with _unavailable_raised():
                    return self._statements.write(statement, [*bind(fields), *key.values()])
            except WriteLockBusy:
                pass
        return await self._write(_update_where, target, key, fields)

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[AsyncConnection]:
        with _unavailable_raised():
            async with self.engine.connect() as conn:
                yield conn

    # --- games -------------------------------------------------------------------------------------
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

    async def _table(self, game_id: int) -> _Known | None:
        if self._known is None:
            return await self._read_table(game_id)
        known = self._known.get(game_id)
        if known is None:
            writes = self._written.get(game_id, 0)
            known = await self._read_table(game_id)
            if known is not None and self._written.get(game_id, 0) == writes:
                self._known[game_id] = known
        return known

    async def _read_table(self, game_id: int) -> _Known | None:
        """The game's row (without its state) and its seats: on PostgreSQL one statement on the asyncpg
        connection directly unless it is busy (what each decision reads when the cache is off), else
        through SQLAlchemy."""
        if self._pg_statements is not None:
            with _unavailable_raised():
                rows = await self._pg_statements.fetch(_PG_TABLE_AND_SEATS, [game_id])
            if rows is not None:
                return _known_from_joined(rows)
        return await self._read(_read_table, game_id)

    @asynccontextmanager
    async def _changing(self, game_id: int) -> AsyncIterator[None]:
        """Around one write to a game. With the cache, writes of one game through this Database take
        turns, so that its copy is brought up to date in the order the database committed them; a
        write that raises (refused, failed, or of unknown outcome) drops the copy."""
        if self._known is None:
            yield
            return
        lock = self._write_locks.get(game_id)
        if lock is None:
            lock = self._write_locks[game_id] = asyncio.Lock()
        async with lock:
            try:
                yield
            except BaseException:
                self._forget(game_id)
                raise

    def _wrote(self, game_id: int) -> _Known | None:
        """Note a successful write to the game; its cached copy, for the caller to bring up to date."""
        if self._known is None:
            return None
        self._written[game_id] = self._written.get(game_id, 0) + 1
        return self._known.get(game_id)

    def _forget(self, game_id: int) -> None:
        """Drop the cached copy of a game (a write failed, its outcome is unknown, or the game ended)."""
        if self._wrote(game_id) is not None:
            del self._known[game_id]  # type: ignore[union-attr]

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

    async def due_games(self, now: datetime, shards: Shards | None = None) -> list[GameRow]:
        """Active games whose deadline has passed, the most overdue first; only those of `shards`'
        guilds when given (the index on status and deadline finds the due rows, then this filters)."""
        owned = [] if shards is None else [shards.where(_games.c.guild_id)]
        rows = await self._games_where(_games.c.status == "active", _games.c.deadline <= now, *owned)
        return sorted(rows, key=lambda g: (g.deadline, g.id))

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

    async def update_game(self, game_id: int, **fields: Any) -> None:
        """Set non-state columns. A new deadline starts un-reminded unless `reminded` is given too."""
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
        fields["updated_at"] = utcnow()
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

    # --- seats -------------------------------------------------------------------------------------
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

    # --- the log and results -----------------------------------------------------------------------
    async def actions(self, game_id: int) -> list[ActionRow]:
        return await self._read(_read_actions, game_id)

    async def results(self, game_id: int) -> list[ResultRow]:
        async with self._reading() as conn:
            rows = (
                await conn.execute(select(_results).where(_results.c.game_id == game_id).order_by(_results.c.seat))
            ).all()
        return [ResultRow(**row._mapping) for row in rows]

    # --- ratings -----------------------------------------------------------------------------------
    async def ratings(
        self, guild_id: int, game_key: str, user_ids: Sequence[int] | None = None
    ) -> dict[int, RatingRow]:
        query = select(_ratings).where(_ratings.c.guild_id == guild_id, _ratings.c.game_key == game_key)
        if user_ids is not None:
            query = query.where(_ratings.c.user_id.in_(list(user_ids)))
        async with self._reading() as conn:
            rows = (await conn.execute(query)).all()
        return {row.user_id: RatingRow(**row._mapping) for row in rows}

    async def save_ratings(self, ratings: Sequence[RatingRow | Mapping[str, Any]]) -> None:
        """Insert or replace ratings (keyed by guild_id, game_key, user_id) in one transaction."""
        rows = [dict(r.model_dump() if isinstance(r, RatingRow) else r) for r in ratings]
        for row in rows:
            row.setdefault("updated_at", utcnow())
        if not rows:
            return
        await self._write(ladder.upsert_ratings, rows)

    async def leaderboard(self, guild_id: int, game_key: str, limit: int = 10, offset: int = 0) -> list[RatingRow]:
        """Best first by the conservative rating (ordinal = mu - 3 sigma), then by user id."""
        return await self._read(ladder.leaderboard, guild_id, game_key, limit, offset)

    async def board_size(self, guild_id: int, game_key: str) -> int:
        """How many identities have a rating on this board."""
        return await self._read(ladder.board_size, guild_id, game_key)

    async def standing(self, guild_id: int, game_key: str, user_id: int) -> tuple[int, RatingRow] | None:
        """(1-based position, rating) of one identity on a board, or None if it has no rating there."""
        return await self._read(ladder.standing, guild_id, game_key, user_id)

    async def user_ratings(self, user_id: int, guild_ids: Sequence[int]) -> list[RatingRow]:
        """The identity's ratings in these scopes, every game, by game key."""
        return await self._read(ladder.user_ratings, user_id, guild_ids)

    async def rating_history(
        self, guild_id: int, game_key: str, user_id: int, limit: int = 50
    ) -> list[RatingHistoryRow]:
        """The identity's rating after each of its last `limit` rated games there, oldest first."""
        return await self._read(ladder.rating_history, guild_id, game_key, user_id, limit)

    async def score_summary(self, user_id: int, guild_id: int | None = None) -> list[ScoreSummary]:
        """Per game and scoring variant: games, wins (rank 1), average and best score (None: everywhere)."""
        return await self._read(ladder.score_summary, user_id, guild_id)

    async def user_results(
        self, user_id: int, guild_id: int | None = None, limit: int = 10, game_key: str | None = None
    ) -> list[PlayedGame]:
        """The user's finished games, newest first (guild_id None: everywhere)."""
        return await self._read(ladder.user_results, user_id, guild_id, limit, game_key)

    async def game_players(self, game_ids: Sequence[int]) -> dict[int, list[GameSeat]]:
        """The seats of these games with names, ranks and scores, best first."""
        return await self._read(ladder.game_players, game_ids)

    async def board_page(
        self, guild_id: int, game_key: str, user_id: int, limit: int = 10, offset: int = 0
    ) -> BoardPage:
        """One leaderboard page, the board's size and the caller's position when off the page (one
        connection: what `/leaderboard` needs)."""
        return await self._read(ladder.board_page, guild_id, game_key, user_id, limit, offset)

    async def player_stats(
        self,
        user_id: int,
        guild_id: int | None,
        scopes: Sequence[int],
        *,
        history_limit: int = 50,
        recent_limit: int = 100,
        last: int = 5,
    ) -> PlayerStats:
        """Everything `/stats` shows, read on one connection: score summaries (games of `guild_id`,
        None: everywhere), ratings in `scopes` with positions, rating history in scopes[0], recent
        results and the seats of the `last` newest games."""
        return await self._read(ladder.player_stats, user_id, guild_id, scopes, history_limit, recent_limit, last)

    async def rerate(self) -> int:
        """Recompute every rating and the rating history from the results; the number of games rated."""
        for game_id in list(self._known or ()):
            self._forget(game_id)  # it writes ratings only; dropped all the same, it runs rarely
        return await self._write(ladder.rerate)

    # --- server settings ---------------------------------------------------------------------------
    async def get_guild_language(self, guild_id: int) -> str | None:
        """The language set with `/game settings language` for this server, or None if never set."""
        async with self._reading() as conn:
            query = select(_guild_settings.c.language).where(_guild_settings.c.guild_id == guild_id)
            return (await conn.execute(query)).scalar_one_or_none()

    async def set_guild_language(self, guild_id: int, language: str | None) -> None:
        """Set (or with None clear) the server's language; the caller validates the code."""
        row = {"guild_id": guild_id, "language": language, "updated_at": utcnow()}
        dialect_insert = pg_insert if self.engine.dialect.name == "postgresql" else sqlite_insert
        statement = dialect_insert(_guild_settings)
        statement = statement.on_conflict_do_update(
            index_elements=["guild_id"],
            set_={name: statement.excluded[name] for name in ("language", "updated_at")},
        )
        async with self._writing() as conn:
            await conn.execute(statement, [row])

    async def count_games(self) -> int:
        async with self._reading() as conn:
            return int((await conn.execute(select(func.count()).select_from(_games))).scalar_one())

    async def active_games_by_key(self, shards: Shards | None = None) -> dict[str, int]:
        """How many games are running (status active) per game key, of `shards`' guilds when given:
        each process of a sharded bot reports its own, so the operators' sum is the whole bot's."""
        owned = [] if shards is None else [shards.where(_games.c.guild_id)]
        query = (
            select(_games.c.game_key, func.count())
            .where(_games.c.status == "active", *owned)
            .group_by(_games.c.game_key)
        )
        async with self._reading() as conn:
            return {str(key): int(count) for key, count in (await conn.execute(query)).all()}

    async def ping(self) -> None:
        """Raise unless the database answers a trivial query and the writer can still commit."""
        if not self.writer.running:
            raise RuntimeError("the database writer is not running")
        async with self._reading() as conn:
            await conn.execute(select(1))


# What finish_game reads before its transaction, built once (bound parameters) rather than per call.
_FINISH_GAME_INPUTS = select(
    _games.c.game_key, _games.c.seed, type_coerce(_games.c.options, Text).label("options")
).where(_games.c.id == bindparam("game_id"))
_FINISH_ACTIONS = (
    select(_actions.c.seat, type_coerce(_actions.c.action, Text).label("action"))
    .where(_actions.c.game_id == bindparam("game_id"))
    .order_by(_actions.c.seq)
)


def _finish_inputs(conn: Connection, game_id: int) -> tuple[Any, list[tuple[int, Any]]] | None:
    """The game's key, seed and options (raw text) and its action log, to count plays."""
    game = conn.execute(_FINISH_GAME_INPUTS, {"game_id": game_id}).first()
    if game is None:
        return None
    rows = conn.execute(_FINISH_ACTIONS, {"game_id": game_id}).all()
    return game, [(int(a.seat), json.loads(a.action)) for a in rows]


def _encode_state(state: dict[str, Any]) -> str:
    if not isinstance(state, dict):
        raise TypeError(f"a game state is a JSON object (dict), not {type(state).__name__}")
    return dump_json(state)


def _decode_object(text: str | None) -> dict[str, Any] | None:
    if text is None:
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _game_row(row: Row[Any]) -> GameRow:
    fields = dict(row._mapping)
    fields["state"] = _decode_object(fields["state"])
    fields["options"] = _decode_object(fields["options"]) or {}
    return loaded(GameRow, fields)


def _game_from(known: dict[str, Any]) -> GameRow:
    return loaded(GameRow, {**known, "options": dict(known["options"])})


# The hot path's statements, built once (bound parameters, so SQLAlchemy compiles each once).
_TABLE_ROW = select(*[c for c in _GAME_COLUMNS if c.name != "state"]).where(_games.c.id == bindparam("game_id"))
_TABLE_SEATS = select(_seats).where(_seats.c.game_id == bindparam("game_id")).order_by(_seats.c.seat)
_ACTIONS = select(_actions).where(_actions.c.game_id == bindparam("game_id")).order_by(_actions.c.seq)


def _read_table(conn: Connection, game_id: int) -> _Known | None:
    """The game's row without its state, then its seats (in that order: see Database._table)."""
    found = conn.execute(_TABLE_ROW, {"game_id": game_id}).first()
    if found is None:
        return None
    row = dict(found._mapping)
    row["state"] = None
    row["options"] = _decode_object(row["options"]) or {}
    return _Known(row, [dict(s._mapping) for s in conn.execute(_TABLE_SEATS, {"game_id": game_id})])


# PostgreSQL, sent on the asyncpg connection (Database._read_table): the game's row without its state, once
# per seat (or once with no seat), its seats' columns beside it, in one statement (one snapshot).
_PG_GAME_COLUMNS = [c for c in _games.columns if c.name != "state"]
_PG_TABLE_AND_SEATS = (
    f"SELECT {', '.join(f'g.{c.name}' for c in _PG_GAME_COLUMNS)}, {', '.join(f's.{c.name}' for c in _seats.columns)} "
    "FROM games AS g LEFT JOIN seats AS s ON s.game_id = g.id WHERE g.id = $1 ORDER BY s.seat"
)


@functools.cache
def _pg_result_processors() -> tuple[list[tuple[str, Any]], list[tuple[str, Any]]]:
    """Each column's name and the function SQLAlchemy would turn its driver value with (None: as is);
    the options column stays raw text, decoded as _read_table decodes it."""
    from sqlalchemy.dialects.postgresql.asyncpg import dialect

    pg = dialect()

    def processors(columns: Sequence[Any]) -> list[tuple[str, Any]]:
        return [(c.name, None if c.name in _RAW_JSON else c.type.result_processor(pg, None)) for c in columns]

    return processors(_PG_GAME_COLUMNS), processors(list(_seats.columns))


def _known_from_joined(rows: Sequence[Any]) -> _Known | None:
    if not rows:
        return None
    game_columns, seat_columns = _pg_result_processors()
    first = rows[0]
    row = {name: first[i] if process is None else process(first[i]) for i, (name, process) in enumerate(game_columns)}
    row["state"] = None
    row["options"] = _decode_object(row["options"]) or {}
    offset = len(game_columns)
    seats = [
        {
            name: r[offset + i] if process is None else process(r[offset + i])
            for i, (name, process) in enumerate(seat_columns)
        }
        for r in rows
        if r[offset] is not None
    ]  # seats.game_id: None when the game has no seat
    return _Known(row, seats)


def _read_games(conn: Connection, query: Any) -> list[GameRow]:
    return [_game_row(row) for row in conn.execute(query)]


def _read_actions(conn: Connection, game_id: int) -> list[ActionRow]:
    return [loaded(ActionRow, dict(row._mapping)) for row in conn.execute(_ACTIONS, {"game_id": game_id})]


def _first(conn: Connection, query: Any) -> Row[Any] | None:
    return conn.execute(query).first()


def _insert_game(conn: Connection, values: dict[str, Any]) -> int:
    primary_key = conn.execute(insert(_games).values(**values)).inserted_primary_key
    assert primary_key is not None
    return int(primary_key[0])


def _update_where(conn: Connection, target: Table, key: dict[str, Any], fields: dict[str, Any]) -> int:
    where = [target.c[name] == value for name, value in key.items()]
    return int(conn.execute(update(target).where(*where).values(**fields)).rowcount)


@functools.cache
def _update_statement(
    table_name: str, columns: tuple[str, ...], key: tuple[str, ...], dialect: Dialect
) -> tuple[str, Callable[[dict[str, Any]], list[Any]]]:
    """The text of an UPDATE of these columns WHERE the key columns match, for the driver itself (sqlite3's
    ? or asyncpg's $n), and the function that turns the new values into its parameters as SQLAlchemy
    would bind them (JSON text, UTC timestamps)."""
    target = SQLModel.metadata.tables[table_name]
    processors = [(name, target.c[name].type.bind_processor(dialect)) for name in columns]
    marks = iter(range(1, len(columns) + len(key) + 1))

    def mark(name: str) -> str:
        return f"{name} = ${next(marks)}" if dialect.name == "postgresql" else f"{name} = ?"

    sets = ", ".join(mark(name) for name in columns)
    statement = f"UPDATE {table_name} SET {sets} WHERE {' AND '.join(mark(name) for name in key)}"

    def bind(values: dict[str, Any]) -> list[Any]:
        return [values[name] if process is None else process(values[name]) for name, process in processors]

    return statement, bind


def _start_game(conn: Connection, game_id: int, state_json: str, fields: dict[str, Any]) -> Exception | None:
    """lobby -> active; the error to raise if the game is not a lobby (or not there)."""
    started = conn.execute(
        update(_games)
        .where(_games.c.id == game_id, _games.c.status == "lobby")
        .values(state=type_coerce(state_json, Text), **fields)
    )
    if started.rowcount:
        return None
    current = conn.execute(select(_games.c.status, _games.c.version).where(_games.c.id == game_id)).first()
    if current is None:
        return GameNotFound(game_id)
    return GameNotActive(game_id, 0, current.version, current.status)


def _replace_seats(conn: Connection, game_id: int, rows: list[dict[str, Any]]) -> bool:
    if conn.execute(select(_games.c.id).where(_games.c.id == game_id)).first() is None:
        return False
    conn.execute(delete(_seats).where(_seats.c.game_id == game_id))
    if rows:
        conn.execute(insert(_seats), rows)
    return True
