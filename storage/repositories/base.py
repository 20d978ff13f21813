"""The base of the repositories: engine, connections, the group-commit writer and the per-game cache."""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any, Self

from sqlalchemy import (
    Engine,
    Table,
    event,
)
from sqlalchemy.engine import URL
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

import games
from storage import migrate
from storage import plays as plays_module
from storage.engine import (
    IMMEDIATE,
    PG_STATEMENT_TIMEOUT,
    READ_ONLY,
    create_engine,
    create_sync_sqlite_engine,
    resolve_url,
)
from storage.errors import DatabaseUnavailable
from storage.pg_direct import PGStatementConnection
from storage.rows import (
    _PG_TABLE_AND_SEATS,
    T,
    _Known,
    _known_from_joined,
    _read_table,
    _unavailable_raised,
    _update_statement,
    _update_where,
)
from storage.sqlite_writer import SQLiteStatementConnection, WriteLockBusy
from storage.writer import GroupWriter


class DatabaseCore:
    """A database's engine, connections, group-commit writer and cache, and the ways every repository reads
    and writes through them. The repositories (storage/repositories/) are mixins over it; `storage.Database` puts
    them together."""

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

    @classmethod
    async def open(
        cls,
        url: str | None = None,
        *,
        group_window: float = 0.0,
        max_batch: int = 500,
        cache: bool = False,
        statement_timeout: float = PG_STATEMENT_TIMEOUT,
    ) -> Self:
        """Connect, migrate to the newest schema (SchemaTooNew if the database is newer), start the writer.

        `group_window` (seconds) makes the writer wait that long for more actions before each
        transaction; 0 (the default) writes whatever has queued up meanwhile, which already batches
        under load and adds no delay to a lone action. `cache`: see the class; only for a process
        that is alone on the database. `statement_timeout` (seconds, 0: none): PostgreSQL cancels a
        statement that runs longer, and the call raises DatabaseUnavailable (storage.engine says why).
        """
        resolved = resolve_url(url)
        engine = create_engine(resolved, statement_timeout=statement_timeout)
        try:
            async with engine.connect() as conn:
                await conn.execution_options(**{IMMEDIATE: True})
                async with conn.begin():
                    if resolved.drivername.startswith("postgresql"):
                        await conn.exec_driver_sql("SET LOCAL statement_timeout = 0")  # a migration may take long
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

    async def __aenter__(self) -> Self:
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
