"""PostgreSQL's hot writes sent on the asyncpg connection directly, one round trip each.

Through SQLAlchemy's async adapter every statement pays for the greenlet hop (`run_sync`), the
statement's cache key and execution context, and every transaction two more round trips (BEGIN,
COMMIT), each a wake-up of the event loop and a loopback send: on this 2-core machine ~2.7 ms of the
bot's CPU per group commit of one decision, against ~0.45 ms on SQLite (bench decide). Here a group
commit is one statement (a single statement is its own transaction, so it is all or nothing):

- it locks the batch's games in id order (so two processes never deadlock), updates each game's row
  `WHERE version = old AND status = 'active'`, and inserts the log rows of the games it updated only,
  returning those games' ids. The batch is decided beforehand in Python against the versions its
  commits expect (`_decide`, as the locked path does); a game whose row did not match wrote nothing,
  and its commits go through the locked path afterwards (storage.writer), which says why.
- update_game and update_seat: one UPDATE, its text built once per set of columns, in autocommit.

Statements are sent with asyncpg's own prepared-statement cache (parsed once per connection). The
connection is one of the engine's pool, kept checked out; one that failed is invalidated and a new
one taken at the next write.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from storage.errors import DatabaseUnavailable
from storage.types import UTCDateTime

if TYPE_CHECKING:
    import asyncpg

__all__ = ["GROUP_COMMIT", "HeldConnection", "PGStatementConnection", "stamp", "updated_games"]

# $1 (the games' ids) serves the lock and the update alike.
GROUP_COMMIT = """
WITH locked AS MATERIALIZED (
    SELECT id FROM games WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE
), changed AS (
    UPDATE games AS g
    SET state = b.state, version = b.version, status = b.status,
        deadline = CASE WHEN b.new_deadline THEN b.deadline ELSE g.deadline END,
        reminded = CASE WHEN b.new_deadline THEN false ELSE g.reminded END,
        updated_at = b.at
    FROM unnest($1::bigint[], $2::integer[], $3::integer[], $4::varchar[], $5::text[], $6::boolean[],
                $7::timestamptz[], $8::timestamptz[]) AS b(id, old, version, status, state, new_deadline, deadline, at)
    WHERE g.id = b.id AND g.version = b.old AND g.status = 'active' AND g.id IN (SELECT id FROM locked)
    RETURNING g.id
), logged AS (
    INSERT INTO actions (game_id, seq, seat, action, afk, at)
    SELECT a.game_id, a.seq, a.seat, a.action, a.afk, a.at
    FROM unnest($9::bigint[], $10::integer[], $11::integer[], $12::text[], $13::boolean[], $14::timestamptz[])
         AS a(game_id, seq, seat, action, afk, at)
    WHERE a.game_id IN (SELECT id FROM changed)
)
SELECT id FROM changed
"""


@functools.cache
def _stamp_processor() -> Callable[[Any], Any]:
    """How SQLAlchemy binds a timestamp for asyncpg (the dialect imported on PostgreSQL only)."""
    from sqlalchemy.dialects.postgresql.asyncpg import dialect

    processor = UTCDateTime().bind_processor(dialect())
    assert processor is not None
    return processor


def stamp(value: datetime | None) -> datetime | None:
    """A timestamp as SQLAlchemy sends it to PostgreSQL (aware, in UTC; a naive one is refused)."""
    if value is None:
        return None
    result: datetime = _stamp_processor()(value)
    return result


def updated_games(rows: Sequence[Any]) -> set[int]:
    """The ids GROUP_COMMIT returned: the games it wrote."""
    return {int(row[0]) for row in rows}


class HeldConnection:
    """One connection of the engine's pool kept checked out, with its asyncpg connection for the
    statements sent directly. A connection that failed is dropped (`drop`) and replaced when next used."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._conn: AsyncConnection | None = None
        self._driver: asyncpg.Connection | None = None

    async def connection(self) -> AsyncConnection:
        """The SQLAlchemy side, for what still goes through it (the locked path of the group commit)."""
        await self.driver()
        assert self._conn is not None
        return self._conn

    async def driver(self) -> asyncpg.Connection:
        if self._driver is not None and self._driver.is_closed():
            await self.drop()  # closed under us (the server went away): take a fresh one
        if self._conn is None:
            self._conn = await self._engine.connect()
            raw = await self._conn.get_raw_connection()
            self._driver = raw.driver_connection
        assert self._driver is not None
        return self._driver

    async def fetch(self, statement: str, *arguments: Any) -> list[Any]:
        """The statement's rows. A lost connection raises DatabaseUnavailable (the statement, its own
        transaction, may have committed if it was lost while running) and is replaced at the next call."""
        return await self._send("fetch", statement, arguments)

    async def execute(self, statement: str, *arguments: Any) -> str:
        """The statement's status ("UPDATE 1"), as `fetch` otherwise."""
        return await self._send("execute", statement, arguments)

    async def _send(self, method: str, statement: str, arguments: tuple[Any, ...]) -> Any:
        import asyncpg

        for attempt in (1, 2):
            driver = await self.driver()
            try:
                return await getattr(driver, method)(statement, *arguments)
            except BaseException as error:
                if _keeps_connection(error):
                    raise
                await asyncio.shield(self.drop())
                # A backend terminated while idle leaves asyncpg consuming its farewell, not yet closed: the
                # statement was refused before anything was sent, so a fresh connection may send it once.
                if attempt == 1 and isinstance(error, asyncpg.InternalClientError):
                    continue
                if isinstance(error, Exception):
                    raise DatabaseUnavailable(f"{type(error).__name__}: {error}"[:500]) from error
                raise
        raise AssertionError("unreachable")

    async def drop(self) -> None:
        """Invalidate and release the connection (after an error that may have left it unusable)."""
        conn, self._conn, self._driver = self._conn, None, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.invalidate()
            with contextlib.suppress(Exception):
                await conn.close()


def _keeps_connection(error: BaseException) -> bool:
    """An error the server reported about the statement itself (a constraint, a type), or a mistake in the
    call: the connection is still good. Anything else (lost, cancelled, timed out) may have left it
    mid-protocol."""
    import asyncpg

    sqlstate = str(getattr(error, "sqlstate", "") or "")
    if isinstance(error, asyncpg.PostgresError):
        return not sqlstate.startswith(("08", "57"))
    return type(error) is asyncpg.InterfaceError and "closed" not in str(error)  # e.g. a wrong argument count


class PGStatementConnection:
    """One-statement transactions (Database.update_game, update_seat, the read of a game's row and seats)
    on a few held connections, opened as they are needed, up to `most`.

    An asyncpg connection runs one statement at a time, and a statement may wait on the server (another
    process's transaction holding the game's row): a statement that finds every held connection busy
    (and `most` open) is not queued behind them; `write` and `fetch` say so (None, nothing done) and the
    caller goes through the pool and SQLAlchemy instead. Each statement here is one round trip of a
    statement asyncpg has already prepared. Under load a connection stays busy until the event loop
    gets round to the answer, so one would turn most statements away: hence a few.
    """

    def __init__(self, engine: AsyncEngine, most: int = 4) -> None:
        self._engine = engine
        self._most = most
        self._idle: list[HeldConnection] = []
        self._open = 0
        self._closed = False
        self.on_statement: Callable[[str], None] | None = None  # told each statement's text (benchmarks)

    async def write(self, statement: str, parameters: Sequence[Any]) -> int | None:
        """Run the statement in autocommit; the rows it changed, or None (nothing done) if all are busy."""
        status = await self._send("execute", statement, parameters)
        return None if status is None else int(status.rsplit(" ", 1)[-1])  # "UPDATE 1"

    async def fetch(self, statement: str, parameters: Sequence[Any]) -> list[Any] | None:
        """The statement's rows (asyncpg Records), or None (nothing done) if all are busy."""
        rows: list[Any] | None = await self._send("fetch", statement, parameters)
        return rows

    async def _send(self, method: str, statement: str, parameters: Sequence[Any]) -> Any:
        if self._closed:
            return None
        if self._idle:
            held = self._idle.pop()
        elif self._open < self._most:
            held = HeldConnection(self._engine)
            self._open += 1
        else:
            return None
        try:
            result = await getattr(held, method)(statement, *parameters)
        finally:
            if self._closed:
                await asyncio.shield(held.drop())
            else:
                self._idle.append(held)  # a connection that failed was dropped: the next use opens another
        seen = self.on_statement
        if seen is not None:
            seen(statement)
        return result

    async def close(self) -> None:
        self._closed = True
        idle, self._idle = self._idle, []
        for held in idle:
            await held.drop()
