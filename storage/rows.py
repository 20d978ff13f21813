"""The tables as SQLAlchemy sees them, and the synchronous SQL the repositories run (on a Connection).

Shared by the repositories in storage/repositories/; names with a leading underscore are private to storage."""

from __future__ import annotations

import functools
import json
import sqlite3
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeVar

from sqlalchemy import (
    BigInteger,
    Column,
    Connection,
    Dialect,
    Row,
    String,
    Table,
    Text,
    bindparam,
    delete,
    insert,
    select,
    type_coerce,
    update,
)
from sqlalchemy import exc as sa_exc
from sqlmodel import SQLModel

from storage.errors import DatabaseUnavailable, GameNotActive, GameNotFound
from storage.models import (
    ActionRow,
    GameRow,
    RatingRow,
    ResultRow,
    SeatRow,
    loaded,
)
from storage.types import UTCDateTime, dump_json

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
    Column("limits", Text, nullable=True),  # migration 0005: caps set by the server's admins (JSON)
)
# Per-user settings (migration 0005_user_settings), declared the same way.
_user_settings = Table(
    "user_settings",
    SQLModel.metadata,
    Column("user_id", BigInteger, primary_key=True),
    Column("notifications", String(16), nullable=True),
    Column("updated_at", UTCDateTime, nullable=False),
)
# Values the bot keeps between starts, by key (migration 0008_start_up: the slash commands' digest).
_bot_state = Table(
    "bot_state",
    SQLModel.metadata,
    Column("key", String(64), primary_key=True),
    Column("value", Text, nullable=False),
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
# a backend terminated (pg_terminate_backend), a database closed to connections (ALLOW_CONNECTIONS), a
# statement cancelled (57014: it ran past the statement timeout, waiting on a lock or an overloaded server;
# cancelled, it wrote nothing).
_PG_UNAVAILABLE = ("08", "57P01", "57P02", "57P03", "55000", "57014")


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
