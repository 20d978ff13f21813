"""The SQLite side of group commit: one whole transaction per batch through the stdlib driver.

Why not aiosqlite here: every statement through it is several hops to its thread, and a writer thread
of our own fights the event loop for the GIL (each sqlite call releases it, and getting it back can
take a whole 5 ms switch interval). Measured on this 2-core machine under load: ~1,700 actions/s
from a thread against ~6,300 on the loop. So a batch runs directly on the event loop when the write
lock is free (BEGIN IMMEDIATE with busy_timeout=0: it never waits there; a batch of 100 takes ~2-3
ms), and only when another connection holds the lock does it go to a thread that may wait for it.
Automatic checkpoints are off for this connection (a checkpoint fsyncs, which must not stall the
loop); the writer runs them on the thread every few hundred batches instead.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy.dialects import sqlite as sqlite_dialect

from storage.engine import SQLITE_BUSY_TIMEOUT_MS
from storage.types import UTCDateTime

__all__ = ["SQLiteBatchConnection", "SQLiteStatementConnection", "WriteLockBusy"]

_INSERT_ACTION = "INSERT INTO actions (game_id, seq, seat, action, afk, at) VALUES (?, ?, ?, ?, ?, ?)"
_UPDATE_GAME = (
    "UPDATE games SET state = ?, version = ?, status = ?, deadline = ?, reminded = ?, updated_at = ? "
    "WHERE id = ? AND version = ?"
)
_stamp_processor = UTCDateTime().bind_processor(sqlite_dialect.dialect())  # stored as SQLAlchemy stores it


def stamp(value: datetime | str | None) -> Any:
    """A timestamp in SQLite's stored form; text read back from the row passes through unchanged."""
    if value is None or isinstance(value, str):
        return value
    assert _stamp_processor is not None
    return _stamp_processor(value)


def _is_busy(error: sqlite3.OperationalError) -> bool:
    text = str(error)
    return "locked" in text or "busy" in text


class WriteLockBusy(Exception):
    """Another connection holds the write lock; retry where waiting is allowed."""


def _connect(path: str) -> sqlite3.Connection:
    """A connection that never waits for the write lock and never checkpoints by itself."""
    # check_same_thread=False: the loop and the writer's thread take turns, never at once.
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")  # see storage/engine.py for why NORMAL is safe
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("PRAGMA wal_autocheckpoint=0")
    conn.execute("PRAGMA busy_timeout=0")
    return conn


class SQLiteStatementConnection:
    """One-statement write transactions (Database.update_game, update_seat) on the event loop.

    Through SQLAlchemy such a write costs ~0.45 ms of CPU (building the statement, its cache key, the
    execution context); the stdlib driver with the statement text built once per set of columns takes
    ~0.02 ms. Only while the write lock is free: WriteLockBusy (nothing done) otherwise, and the caller
    writes where waiting is allowed.
    """

    def __init__(self, path: str) -> None:
        self._path = path
        self._conn: sqlite3.Connection | None = None
        self.on_statement: Callable[[str], None] | None = None  # as SQLiteBatchConnection's

    def write(self, statement: str, parameters: Sequence[Any]) -> int:
        """BEGIN IMMEDIATE, the statement, COMMIT; the rows it changed."""
        if self._conn is None:
            self._conn = _connect(self._path)
        conn = self._conn
        try:
            conn.execute("BEGIN IMMEDIATE")
            changed = conn.execute(statement, parameters).rowcount
            conn.execute("COMMIT")
        except BaseException as error:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            if isinstance(error, sqlite3.OperationalError) and _is_busy(error):
                raise WriteLockBusy from error
            self.close()  # a connection that failed otherwise is opened afresh next time
            raise
        seen = self.on_statement
        if seen is not None:
            for text in ("BEGIN IMMEDIATE", statement, "COMMIT"):
                seen(text)
        return changed

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None


class SQLiteBatchConnection:
    def __init__(self, path: str) -> None:
        self._path = path
        self._conn: sqlite3.Connection | None = None
        self._waiting = False
        # Told the text of every statement this connection runs (Database.on_statement: benchmarks, tests).
        self.on_statement: Callable[[str], None] | None = None

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            self._conn = _connect(self._path)
            self._waiting = False
        return self._conn

    def write(
        self,
        game_ids: Sequence[int],
        decide: Callable[[list[tuple[Any, ...]]], tuple[list[Any], list[Any], list[tuple[str, list[Any]]]]],
        *,
        wait: bool,
    ) -> None:
        """BEGIN IMMEDIATE; read the games; let `decide` return (action rows, game rows, seat updates as
        (statement, parameters)); write; COMMIT.

        Without `wait`, raises WriteLockBusy at once if the lock is taken (nothing done).
        """
        conn = self._connection()
        if wait != self._waiting:
            conn.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS if wait else 0}")
            self._waiting = wait
        seen = self.on_statement
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            if not wait and _is_busy(error):
                raise WriteLockBusy from error
            raise
        try:
            marks = ", ".join("?" * len(game_ids))
            select = f"SELECT id, version, status, deadline, reminded FROM games WHERE id IN ({marks})"
            rows = conn.execute(select, list(game_ids)).fetchall()
            actions, games, seats = decide(rows)
            if actions:
                conn.executemany(_INSERT_ACTION, actions)
                updated = conn.executemany(_UPDATE_GAME, games).rowcount
                if updated != len(games):
                    raise RuntimeError(f"versioned update touched {updated} of {len(games)} games")
            for statement, parameters in seats:
                if not conn.execute(statement, parameters).rowcount:
                    raise LookupError(f"no such seat: {parameters[-2:]} (game, seat)")
            conn.execute("COMMIT")
            if seen is not None:
                for statement in (
                    "BEGIN IMMEDIATE",
                    select,
                    *((_INSERT_ACTION, _UPDATE_GAME) if actions else ()),
                    *(s for s, _ in seats),
                    "COMMIT",
                ):
                    seen(statement)
        except BaseException as error:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            if not wait and isinstance(error, sqlite3.OperationalError) and _is_busy(error):
                raise WriteLockBusy from error  # rare (WAL recovery): do it again where waiting is allowed
            raise

    def checkpoint(self) -> None:
        """Copy the WAL back into the database file without blocking writers (run on the thread)."""
        with sqlite3.connect(self._path, isolation_level=None) as conn:
            conn.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
            conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
        conn.close()

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
