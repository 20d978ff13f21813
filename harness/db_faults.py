"""Database faults for tests and `python -m bench faults`: the database unavailable for a while.

- `SQLiteOutage`: every SQLite connection of the process fails its statements with
  `sqlite3.OperationalError("disk I/O error")` while the outage lasts, what SQLite itself raises when
  its file cannot be read or written. It works by giving `sqlite3.connect` (used by aiosqlite,
  SQLAlchemy's stdlib engine and the group writer alike) a connection class that checks a switch, so
  it must be installed before the database is opened. ROLLBACK still runs, so a connection that saw
  the fault is left clean, as after a real transient I/O error.
- `SQLiteLock`: another connection takes the write lock (BEGIN EXCLUSIVE) and holds it: writers wait
  on SQLite's busy timeout; readers (WAL) go on. Real, nothing injected.
- `PostgresOutage`: the database refuses new connections (ALLOW_CONNECTIONS false) and every open one
  is terminated (pg_terminate_backend), as in a failover or a restart. Real, nothing injected.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Callable
from typing import Any
from unittest import mock

import asyncpg
from sqlalchemy.engine import make_url

_PASSES = ("ROLLBACK",)


class _Switch:
    def __init__(self) -> None:
        self.down = False
        self.failed = 0  # statements refused while down

    def check(self, sql: object) -> None:
        if self.down and not str(sql).lstrip().upper().startswith(_PASSES):
            self.failed += 1
            raise sqlite3.OperationalError("disk I/O error")


class _Cursor(sqlite3.Cursor):
    def execute(self, sql: str, parameters: Any = (), /) -> Any:
        self.connection.switch.check(sql)  # type: ignore[attr-defined]
        return super().execute(sql, parameters)

    def executemany(self, sql: str, parameters: Any, /) -> Any:
        self.connection.switch.check(sql)  # type: ignore[attr-defined]
        return super().executemany(sql, parameters)


class _Connection(sqlite3.Connection):
    switch: _Switch

    def cursor(self, factory: Any = _Cursor) -> Any:
        return super().cursor(factory)

    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
        self.switch.check(sql)
        return super().execute(sql, parameters)

    def executemany(self, sql: str, parameters: Any, /) -> sqlite3.Cursor:
        self.switch.check(sql)
        return super().executemany(sql, parameters)


class SQLiteOutage:
    """Install with `with SQLiteOutage() as outage:` before opening the database; then
    `outage.down = True` / `False`, or `await outage.for_seconds(2)`."""

    def __init__(self) -> None:
        self.switch = _Switch()
        self.outages = 0
        real_connect: Callable[..., sqlite3.Connection] = sqlite3.connect
        switch = self.switch

        def connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
            kwargs.setdefault("factory", _Connection)
            conn = real_connect(*args, **kwargs)
            if isinstance(conn, _Connection):
                conn.switch = switch
            return conn

        self._patches = [
            mock.patch.object(sqlite3, "connect", connect),
            mock.patch.object(sqlite3.dbapi2, "connect", connect),
        ]

    def __enter__(self) -> SQLiteOutage:
        for patch in self._patches:
            patch.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.switch.down = False
        for patch in reversed(self._patches):
            patch.stop()

    @property
    def down(self) -> bool:
        return self.switch.down

    @down.setter
    def down(self, value: bool) -> None:
        if value and not self.switch.down:
            self.outages += 1
        self.switch.down = value

    @property
    def refused(self) -> int:
        return self.switch.failed

    async def for_seconds(self, seconds: float) -> None:
        self.down = True
        try:
            await asyncio.sleep(seconds)
        finally:
            self.down = False


class SQLiteLock:
    """Hold SQLite's write lock from another connection (a thread of its own) for a while."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.locks = 0

    def _hold(self, seconds: float, taken: threading.Event) -> None:
        conn = sqlite3.Connection(self.path, isolation_level=None, timeout=30)  # not the patched connect
        try:
            conn.execute("BEGIN EXCLUSIVE")
            taken.set()
            threading.Event().wait(seconds)
            conn.execute("COMMIT")
        finally:
            taken.set()
            conn.close()

    async def taken_for(self, seconds: float) -> asyncio.Task[None]:
        """Take the lock now and release it after `seconds` in the background."""
        self.locks += 1
        taken = threading.Event()
        holder = threading.Thread(target=self._hold, args=(seconds, taken), daemon=True)
        holder.start()
        await asyncio.get_running_loop().run_in_executor(None, taken.wait)
        return asyncio.get_running_loop().create_task(asyncio.to_thread(holder.join))


class PostgresOutage:
    """Close one PostgreSQL database to connections and terminate the open ones; open it again."""

    def __init__(self, url: str) -> None:
        parsed = make_url(url)
        self.database = parsed.database
        self.admin_dsn = parsed.set(drivername="postgresql", database="postgres").render_as_string(hide_password=False)
        self.outages = 0
        self.terminated = 0
        self.down = False

    async def _admin(self, *statements: str) -> list[Any]:
        conn = await asyncpg.connect(self.admin_dsn)
        try:
            return [await conn.fetch(s) for s in statements]
        finally:
            await conn.close()

    async def start(self) -> None:
        self.outages += 1
        self.down = True
        _closed, killed = await self._admin(
            f'ALTER DATABASE "{self.database}" ALLOW_CONNECTIONS false',
            f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{self.database}' "
            "AND pid <> pg_backend_pid()",
        )
        self.terminated += len(killed)

    async def stop(self) -> None:
        await self._admin(f'ALTER DATABASE "{self.database}" ALLOW_CONNECTIONS true')
        self.down = False

    async def for_seconds(self, seconds: float) -> None:
        await self.start()
        try:
            await asyncio.sleep(seconds)
        finally:
            await self.stop()
