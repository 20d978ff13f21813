"""Group commit: one task per Database writes every accepted action, many per transaction.

Through the async stack each statement costs a thread hop, so a transaction per action tops out near
a thousand actions/s; sharing one transaction among the actions that are waiting brings that to tens
of thousands. The batching is adaptive: the writer takes whatever has queued up while the previous
transaction ran (plus an optional `window` to wait for more), so a lone action is written at once
and a busy server fills big batches. A caller's future resolves only after the transaction that
holds its action has committed.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import (
    Boolean,
    Connection,
    Integer,
    String,
    Text,
    bindparam,
    column,
    insert,
    select,
    table,
    update,
)
from sqlalchemy.ext.asyncio import AsyncEngine

from storage import pg_direct
from storage.errors import GameNotActive, GameNotFound, VersionConflict
from storage.models import SeatRow
from storage.sqlite_writer import SQLiteBatchConnection, WriteLockBusy, stamp
from storage.types import UTCDateTime
from storage.unchanged import UNCHANGED, Unchanged

__all__ = ["GroupWriter", "PendingAction"]

log = logging.getLogger(__name__)

# Lightweight views of the two tables the hot path touches. State and action arrive already encoded
# as JSON text (encoded by the caller, so a value that cannot be encoded fails there, alone).
_games = table(
    "games",
    column("id", Integer),
    column("version", Integer),
    column("status", String),
    column("state", Text),
    column("deadline", UTCDateTime()),
    column("reminded", Boolean),
    column("updated_at", UTCDateTime()),
)
_actions = table(
    "actions",
    column("game_id", Integer),
    column("seq", Integer),
    column("seat", Integer),
    column("action", Text),
    column("afk", Boolean),
    column("at", UTCDateTime()),
)
_UPDATE_GAME = (
    update(_games)
    .where(_games.c.id == bindparam("b_id"), _games.c.version == bindparam("b_old"))
    .values(
        state=bindparam("b_state"),
        version=bindparam("b_version"),
        status=bindparam("b_status"),
        deadline=bindparam("b_deadline"),
        reminded=bindparam("b_reminded"),
        updated_at=bindparam("b_at"),
    )
)
_INSERT_ACTION = insert(_actions)
_seats = SeatRow.__table__  # type: ignore[attr-defined]  # any of its columns may change with a commit


@dataclass(slots=True)
class PendingAction:
    """One commit of a game: its moves (seat, action JSON, afk), logged with consecutive seqs after
    `expected`, the state after the last of them, and seat changes written in the same transaction."""

    game_id: int
    expected: int
    moves: list[tuple[int, str, bool]]
    state_json: str
    deadline: datetime | Unchanged | None
    status: str | None
    at: datetime
    future: asyncio.Future[int] = field(repr=False)
    seats: list[tuple[int, dict[str, Any]]] = field(default_factory=list)  # (seat, column -> value)


@dataclass(slots=True)
class _GameNow:
    """A game's row as the batch sees it, advanced by each action accepted so far."""

    old_version: int
    version: int
    status: str
    # SQLite: the stored text, unless this batch changes it; UNCHANGED: as stored (PostgreSQL's one statement)
    deadline: datetime | str | Unchanged | None
    reminded: bool
    state_json: str | None = None
    at: datetime | None = None


class _Stop:
    pass


class GroupWriter:
    def __init__(self, engine: AsyncEngine, *, max_batch: int = 500, window: float = 0.0) -> None:
        self._engine = engine
        self._max_batch = max_batch
        self._window = window
        self._queue: asyncio.Queue[PendingAction | _Stop] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self.batches = 0  # transactions committed (for benchmarks and tests)
        self.largest_batch = 0
        self.waited_for_lock = 0  # SQLite batches that had to wait on the thread for the write lock
        # PostgreSQL: asyncpg is natively async, so the writer keeps a connection checked out, and sends
        # most batches as one statement on its asyncpg connection (storage.pg_direct).
        self._held: pg_direct.HeldConnection | None = None
        self._seen: Callable[[str], None] | None = None
        self.locked_batches = 0  # PostgreSQL: transactions of the locked path (games the one statement left)
        # SQLite: the stdlib driver, on the loop while the lock is free, else on a thread of ours.
        self._sqlite: SQLiteBatchConnection | None = None
        self._thread: ThreadPoolExecutor | None = None
        self._checkpoint: asyncio.Future[None] | None = None
        self._since_checkpoint = 0
        if engine.dialect.name == "sqlite":
            assert engine.url.database
            self._sqlite = SQLiteBatchConnection(engine.url.database)
            self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="storage-writer")
        else:
            self._held = pg_direct.HeldConnection(engine)

    def on_statement(self, seen: Callable[[str], None] | None) -> None:
        """Tell `seen` every statement the writer sends itself (SQLite's batches, PostgreSQL's one statement;
        PostgreSQL's locked path goes through the engine, whose events see it)."""
        if self._sqlite is not None:
            self._sqlite.on_statement = seen
        self._seen = seen

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="storage-group-writer")

    @property
    def running(self) -> bool:
        """False once stopped (or if the writer task died): no action can be committed then."""
        return self._task is not None and not self._task.done()

    async def submit(self, pending: PendingAction) -> int:
        if not self.running:
            raise RuntimeError("the database is closed")
        self._queue.put_nowait(pending)
        return await pending.future

    async def stop(self) -> None:
        """Write everything already submitted, then stop."""
        if self._task is not None and not self._task.done():
            self._queue.put_nowait(_Stop())
            await self._task
        if self._checkpoint is not None:
            with contextlib.suppress(Exception):
                await self._checkpoint
        await self._drop_connection()
        if self._sqlite is not None:
            with contextlib.suppress(Exception):  # a courtesy: the WAL is replayed on the next open anyway
                self._sqlite.checkpoint()
        if self._thread is not None:
            self._thread.shutdown(wait=True)
            self._thread = None

    async def _run(self) -> None:
        stopping = False
        while not stopping:
            first = await self._queue.get()
            if isinstance(first, _Stop):
                break
            batch = [first]
            if self._window:
                await asyncio.sleep(self._window)
            while len(batch) < self._max_batch and not self._queue.empty():
                item = self._queue.get_nowait()
                if isinstance(item, _Stop):
                    stopping = True
                    break
                batch.append(item)
            try:
                await self._write(batch)
            except Exception as error:  # the whole transaction failed: try each action on its own
                await self._drop_connection()
                batch = [p for p in batch if not p.future.done()]  # PostgreSQL: a first statement committed
                if len(batch) == 1:
                    _fail(batch[0], error)
                elif batch:
                    log.warning("group commit of %d actions failed (%s); retrying one by one", len(batch), error)
                    for pending in batch:
                        try:
                            await self._write([pending])
                        except Exception as single_error:
                            await self._drop_connection()
                            _fail(pending, single_error)
            except BaseException as error:  # cancelled: nobody may wait forever
                for pending in batch:
                    _fail(pending, RuntimeError(f"the database writer stopped: {error!r}"))
                raise

    async def _write(self, batch: list[PendingAction]) -> None:
        if self._sqlite is not None:
            try:
                accepted, refused = self._write_sqlite(batch, wait=False)
            except WriteLockBusy:
                self.waited_for_lock += 1
                loop = asyncio.get_running_loop()
                accepted, refused = await loop.run_in_executor(
                    self._thread, functools.partial(self._write_sqlite, batch, wait=True)
                )
            self._maybe_checkpoint()
            self._committed(len(batch))
            _answer(accepted, refused)
        else:
            await self._write_postgresql(batch)

    def _committed(self, size: int) -> None:
        self.batches += 1
        self.largest_batch = max(self.largest_batch, size)

    async def _write_postgresql(self, batch: list[PendingAction]) -> None:
        """One statement for the batch (storage.pg_direct), answered as soon as it returns; then, in a
        transaction that locks them first, the commits of the games it did not write (a version or status
        that was not the expected one, or seat changes, which it does not carry)."""
        assert self._held is not None
        locked = batch
        plan = _plan(batch)
        if plan is not None:
            written = pg_direct.updated_games(await self._held.fetch(pg_direct.GROUP_COMMIT, *plan.arguments))
            if self._seen is not None:
                self._seen(pg_direct.GROUP_COMMIT)
            locked = [p for p in batch if p.game_id not in written]
            if written:
                self._committed(len(batch) - len(locked))
            accepted, refused = plan.outcome
            _answer([a for a in accepted if a[0].game_id in written], [r for r in refused if r[0].game_id in written])
        if locked:
            conn = await self._held.connection()
            async with conn.begin():
                outcome = await conn.run_sync(_write_batch, locked)
            self._committed(len(locked))  # answered only now that it has committed
            self.locked_batches += 1
            _answer(*outcome)

    def _write_sqlite(self, batch: list[PendingAction], *, wait: bool) -> _Outcome:
        assert self._sqlite is not None
        outcome: list[_Outcome] = []

        def decide(rows: list[tuple[Any, ...]]) -> tuple[list[Any], list[Any], list[tuple[str, list[Any]]]]:
            games = {r[0]: _GameNow(r[1], r[1], r[2], r[3], bool(r[4])) for r in rows}  # deadlines as read
            outcome.append(_decide(batch, games))
            accepted = outcome[0][0]
            actions = [
                (p.game_id, seq, seat, action, int(afk), stamp(p.at)) for p, seq, seat, action, afk in _logged(accepted)
            ]
            changed = [
                (
                    g.state_json,
                    g.version,
                    g.status,
                    stamp(g.deadline),  # type: ignore[arg-type]  # read from the row, never UNCHANGED
                    int(g.reminded),
                    stamp(g.at),
                    game_id,
                    g.old_version,
                )
                for game_id, g in games.items()
                if g.state_json is not None
            ]
            seats = [
                (_seat_sql(fields), [*fields.values(), p.game_id, seat])
                for p, _version in accepted
                for seat, fields in p.seats
            ]
            return actions, changed, seats

        self._sqlite.write(sorted({p.game_id for p in batch}), decide, wait=wait)
        return outcome[0]

    def _maybe_checkpoint(self) -> None:
        self._since_checkpoint += 1
        if self._since_checkpoint < _CHECKPOINT_EVERY or self._sqlite is None:
            return
        if self._checkpoint is None or self._checkpoint.done():
            self._since_checkpoint = 0
            self._checkpoint = asyncio.get_running_loop().run_in_executor(self._thread, self._sqlite.checkpoint)

    async def _drop_connection(self) -> None:
        if self._sqlite is not None:
            self._sqlite.close()
        if self._held is not None:
            await self._held.drop()


_CHECKPOINT_EVERY = 200  # batches between two WAL checkpoints (SQLite)
_Outcome = tuple[list[tuple[PendingAction, int]], list[tuple[PendingAction, Exception]]]


def _decide(batch: list[PendingAction], games: dict[int, _GameNow]) -> _Outcome:
    """Take the actions in arrival order, each against the game as the previous ones left it.

    So two actions of one game in one batch chain (the second expects the first's new version) and a
    stale one is refused alone. `games` is advanced in place to what will be written.
    """
    accepted: list[tuple[PendingAction, int]] = []
    refused: list[tuple[PendingAction, Exception]] = []
    for pending in batch:
        now = games.get(pending.game_id)
        problem = _check(pending, now)
        if problem is not None:
            refused.append((pending, problem))
            continue
        assert now is not None
        now.version += len(pending.moves)
        now.state_json = pending.state_json
        now.at = pending.at
        if pending.status is not None:
            now.status = pending.status
        if pending.deadline is not UNCHANGED:
            now.deadline = pending.deadline
            now.reminded = False
        accepted.append((pending, now.version))
    return accepted, refused


@dataclass(slots=True)
class _Plan:
    """A batch decided against the versions its commits expect, and GROUP_COMMIT's parameters to write it."""

    outcome: _Outcome
    arguments: list[list[Any]]


def _plan(batch: list[PendingAction]) -> _Plan | None:
    """PostgreSQL's one statement: each game taken to be active at the version its first commit in the
    batch expects (what it is unless another process moved it); its later commits chain or are refused as
    the locked path would. Games with seat changes are left out (the statement does not carry them);
    None if that leaves nothing."""
    with_seats = {p.game_id for p in batch if p.seats}
    planned = [p for p in batch if p.game_id not in with_seats]
    if not planned:
        return None
    games: dict[int, _GameNow] = {}
    for pending in planned:
        if pending.game_id not in games:
            games[pending.game_id] = _GameNow(pending.expected, pending.expected, "active", UNCHANGED, False)
    accepted, refused = _decide(planned, games)
    stamp = pg_direct.stamp
    rows = [(game_id, g) for game_id, g in games.items() if g.state_json is not None]
    logged = list(_logged(accepted))
    arguments: list[list[Any]] = [
        [game_id for game_id, _g in rows],
        [g.old_version for _id, g in rows],
        [g.version for _id, g in rows],
        [g.status for _id, g in rows],
        [g.state_json for _id, g in rows],
        [g.deadline is not UNCHANGED for _id, g in rows],
        [None if isinstance(g.deadline, Unchanged | str) else stamp(g.deadline) for _id, g in rows],
        [stamp(g.at) for _id, g in rows],
        [p.game_id for p, *_rest in logged],
        [seq for _p, seq, *_rest in logged],
        [seat for _p, _seq, seat, _action, _afk in logged],
        [action for _p, _seq, _seat, action, _afk in logged],
        [afk for *_rest, afk in logged],
        [stamp(p.at) for p, *_rest in logged],
    ]
    return _Plan((accepted, refused), arguments)


def _write_batch(conn: Connection, batch: list[PendingAction]) -> _Outcome:
    """PostgreSQL, inside the caller's transaction: lock the games, check versions, write.

    SELECT ... FOR UPDATE (in id order, so two writers never deadlock) keeps the versions read from
    moving before the commit; another process's writer waits, then sees the new versions.
    """
    ids = sorted({p.game_id for p in batch})
    query = (
        select(_games.c.id, _games.c.version, _games.c.status, _games.c.deadline, _games.c.reminded)
        .where(_games.c.id.in_(ids))
        .order_by(_games.c.id)
        .with_for_update()
    )
    games = {
        row.id: _GameNow(row.version, row.version, row.status, row.deadline, row.reminded)
        for row in conn.execute(query)
    }
    accepted, refused = _decide(batch, games)
    if accepted:
        changed = [_game_params(game_id, g) for game_id, g in games.items() if g.state_json is not None]
        conn.execute(
            _INSERT_ACTION,
            [_action_params(p, seq, seat, action, afk) for p, seq, seat, action, afk in _logged(accepted)],
        )
        rowcount = conn.execute(_UPDATE_GAME, changed).rowcount
        if conn.dialect.supports_sane_multi_rowcount and rowcount != len(changed):
            raise RuntimeError(f"versioned update touched {rowcount} of {len(changed)} games")
        for pending, _version in accepted:
            for seat, fields in pending.seats:
                where = (_seats.c.game_id == pending.game_id) & (_seats.c.seat == seat)
                if not conn.execute(update(_seats).where(where).values(**fields)).rowcount:
                    raise LookupError(f"game {pending.game_id} has no seat {seat}")
    return accepted, refused


def _logged(accepted: list[tuple[PendingAction, int]]) -> Iterator[tuple[PendingAction, int, int, str, bool]]:
    """Each accepted move with its seq: a commit's moves follow its expected version one by one."""
    for pending, _version in accepted:
        for offset, (seat, action, afk) in enumerate(pending.moves, start=pending.expected + 1):
            yield pending, offset, seat, action, afk


def _seat_sql(fields: dict[str, Any]) -> str:
    """SQLite: the update of one seat's columns (their names were checked by the Database)."""
    return f"UPDATE seats SET {', '.join(f'{name} = ?' for name in fields)} WHERE game_id = ? AND seat = ?"


def _check(pending: PendingAction, now: _GameNow | None) -> Exception | None:
    if now is None:
        return GameNotFound(pending.game_id)
    if now.status != "active":
        return GameNotActive(pending.game_id, pending.expected, now.version, now.status)
    if pending.expected != now.version:
        return VersionConflict(pending.game_id, pending.expected, now.version)
    return None


def _action_params(pending: PendingAction, seq: int, seat: int, action: str, afk: bool) -> dict[str, Any]:
    return {"game_id": pending.game_id, "seq": seq, "seat": seat, "action": action, "afk": afk, "at": pending.at}


def _game_params(game_id: int, now: _GameNow) -> dict[str, Any]:
    return {
        "b_id": game_id,
        "b_old": now.old_version,
        "b_state": now.state_json,
        "b_version": now.version,
        "b_status": now.status,
        "b_deadline": now.deadline,
        "b_reminded": now.reminded,
        "b_at": now.at,
    }


def _answer(accepted: list[tuple[PendingAction, int]], refused: list[tuple[PendingAction, Exception]]) -> None:
    """Resolve the callers of a committed transaction: their new versions, or why they were refused."""
    for pending, version in accepted:
        if not pending.future.done():
            pending.future.set_result(version)
    for pending, problem in refused:
        _fail(pending, problem)


def _fail(pending: PendingAction, error: BaseException) -> None:
    if not pending.future.done():
        pending.future.set_exception(error)
