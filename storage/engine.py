"""Which database, and how to connect to it (SQLite tuning lives here)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, event
from sqlalchemy import create_engine as sa_create_engine
from sqlalchemy.engine import URL, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

__all__ = ["DEFAULT_URL", "IMMEDIATE", "PG_STATEMENT_TIMEOUT", "create_engine", "dialect_insert", "resolve_url"]

DEFAULT_URL = "sqlite+aiosqlite:///data/bot.sqlite3"
# Execution option: on SQLite, open the transaction with BEGIN IMMEDIATE (take the write lock first).
IMMEDIATE = "storage_begin_immediate"
# Execution option (sync SQLite engine only): a read that needs no BEGIN of its own.
READ_ONLY = "storage_read_only"
SQLITE_BUSY_TIMEOUT_MS = 15_000
PG_CONNECT_TIMEOUT = 5.0  # seconds
# PostgreSQL's statement_timeout for every connection of the bot (seconds; 0: none). A statement stuck on a
# row lock another process holds, or on an overloaded server, is cancelled and reported as the database
# being unavailable ("try again in a moment", the follow-up work resumed later) rather than holding a
# player's click, the game's lock and a pooled connection without end. Far above any statement's usual
# time (a group commit, a leaderboard: milliseconds). Migrations run without it (an index on a big table).
PG_STATEMENT_TIMEOUT = 5.0


def resolve_url(url: str | None = None) -> URL:
    """The URL given, else DATABASE_URL, else the default SQLite file; async drivers are filled in."""
    text = url or os.environ.get("DATABASE_URL") or DEFAULT_URL
    parsed = make_url(text)
    if parsed.drivername in ("sqlite", "sqlite+pysqlite"):
        parsed = parsed.set(drivername="sqlite+aiosqlite")
    elif parsed.drivername in ("postgresql", "postgres", "postgresql+psycopg2", "postgresql+psycopg"):
        parsed = parsed.set(drivername="postgresql+asyncpg")
    if parsed.drivername not in ("sqlite+aiosqlite", "postgresql+asyncpg"):
        raise ValueError(
            f"unsupported DATABASE_URL driver {parsed.drivername!r}: "
            "use sqlite+aiosqlite:///path/file.sqlite3 "
            "or postgresql+asyncpg://user:password@host/dbname"
        )
    if parsed.drivername.startswith("sqlite"):
        database = parsed.database or ""
        if database in ("", ":memory:") or database.startswith("file::memory:"):
            raise ValueError(
                "an in-memory SQLite database would lose every game on exit; give a file path, "
                "e.g. sqlite+aiosqlite:///data/bot.sqlite3"
            )
        Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    return parsed


def dialect_insert(dialect: str) -> Any:
    """`insert` of the dialect named (its ON CONFLICT clauses differ), imported when first asked for: the
    dialect a database does not use is never imported (PostgreSQL's costs a tenth of a second of a start)."""
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        return pg_insert
    from sqlalchemy.dialects.sqlite import insert as sqlite_insert

    return sqlite_insert


def create_engine(url: URL, *, statement_timeout: float = PG_STATEMENT_TIMEOUT) -> AsyncEngine:
    """The async engine; on PostgreSQL every connection has `statement_timeout` (seconds, 0: none)."""
    if url.drivername.startswith("sqlite"):
        engine = create_async_engine(url, pool_size=8, max_overflow=8)
        _tune_sqlite(engine.sync_engine)
        return engine
    # A server that does not answer (a network partition, a failover) is reported within seconds, so a
    # player is told to try again soon rather than kept waiting for asyncpg's default minute.
    if statement_timeout < 0:
        raise ValueError(f"the statement timeout cannot be negative ({statement_timeout} s)")
    server_settings = {"statement_timeout": str(round(statement_timeout * 1000))}  # milliseconds
    return create_async_engine(
        url,
        pool_size=10,
        max_overflow=10,
        pool_pre_ping=True,
        connect_args={"timeout": PG_CONNECT_TIMEOUT, "server_settings": server_settings},
    )


def create_sync_sqlite_engine(url: URL, *, wait: bool = True) -> Engine:
    """The same SQLite file through the stdlib driver, for the short reads and writes that run on the
    event loop (storage.ladder, storage.database); same pragmas and BEGIN handling as the async engine.
    `wait=False`: busy_timeout 0, so a write gives up at once instead of waiting, on the loop, for a
    write lock another connection holds (the caller then writes through the async engine)."""
    engine = sa_create_engine(url.set(drivername="sqlite+pysqlite"), pool_size=2, max_overflow=4)
    _tune_sqlite(engine, SQLITE_BUSY_TIMEOUT_MS if wait else 0)
    return engine


def _tune_sqlite(engine: Engine, busy_timeout_ms: int = SQLITE_BUSY_TIMEOUT_MS) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let us issue BEGIN ourselves (below) instead of the sqlite3 module's implicit one.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        # WAL: readers never block the writer. synchronous=NORMAL: in WAL mode a commit is written to
        # the WAL file before it returns, so a crash of this process (even SIGKILL) loses nothing that
        # was acknowledged; only an OS crash or power loss can roll back the last few commits, because
        # the WAL is fsynced at checkpoints rather than at every commit. FULL would fsync each group
        # commit; we keep NORMAL for the latency budget and document the trade-off (docs/storage-api.md).
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={busy_timeout_ms}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        # A writer that starts with a plain (deferred) BEGIN and reads first can fail with "database is
        # locked" at its first write, without waiting, if another connection wrote meanwhile. Taking the
        # write lock up front makes busy_timeout apply.
        options = connection.get_execution_options()
        if options.get(READ_ONLY, False):
            return  # each SELECT reads a consistent snapshot on its own
        connection.exec_driver_sql("BEGIN IMMEDIATE" if options.get(IMMEDIATE, False) else "BEGIN")
