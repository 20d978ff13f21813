"""The world of tests/test_table_model.py: processes that can be killed at any write, the players
and what they hold, and what the examples of a run share.

A process (`Process`) is a table service with its own Database and notifier; its `Fuse` kills it
(raises `Killed`) at its n-th write or notification, the points where a real process's death leaves
something half done. The notifier delivers to `Players`, who keep each seat's DM (edited in place),
"/game hand" answers, every message with buttons they were sent, and their clicks. `Environment`
holds one event loop, the database, a reader and the outage switch for all the examples of a run.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import table.advance as table_advance
from harness.db_faults import PostgresOutage, SQLiteOutage
from storage import Database, DatabaseUnavailable, GameRow, SeatRow, Shards
from table import TableService, TableUpdate


class Killed(BaseException):
    """The process died here (a SIGKILL): nothing after this point ran."""


class Fuse:
    """Kills a service at its n-th write or notification once armed (`arm(n)`): those are the points
    where a process's death leaves something half done."""

    def __init__(self) -> None:
        self.left: int | None = None
        self.blown = False

    def arm(self, after: int | None) -> None:
        self.left, self.blown = after, False

    def step(self) -> None:
        if self.left is None:
            return
        if self.left == 0:
            self.left, self.blown = None, True
            raise Killed
        self.left -= 1


WRITES = ("create_game", "set_seats", "update_game", "update_seat", "start_game", "commit_actions", "finish_game")


def fused(db: Database, fuse: Fuse) -> Database:
    """The database, its writes going through the fuse first (`unfused` takes the fuse away)."""
    for name in WRITES:
        method = getattr(type(db), name).__get__(db)

        async def write(*args: Any, _method: Callable[..., Awaitable[Any]] = method, **kwargs: Any) -> Any:
            fuse.step()
            return await _method(*args, **kwargs)

        setattr(db, name, write)
    return db


def unfused(db: Database) -> Database:
    for name in WRITES:
        db.__dict__.pop(name, None)
    return db


@dataclass
class Click:
    game_id: int
    seat: int
    offered: int
    choice: list[str]
    outcome: str  # "acked", "committed" (CatchingUp), "unknown" (killed, or unavailable mid-way), "refused"


@dataclass
class Players:
    """What the players hold: each seat's DM (edited in place: its newest content) and "/game hand"
    answer, every message they were ever sent (old buttons), and their clicks."""

    dm: dict[tuple[int, int], Any] = field(default_factory=dict)  # (game, seat) -> SeatNotice
    hand: dict[tuple[int, int], Any] = field(default_factory=dict)
    old: dict[tuple[int, int], list[Any]] = field(default_factory=dict)
    clicks: list[Click] = field(default_factory=list)
    reminders: list[tuple[int, list[int]]] = field(default_factory=list)

    def sent(self, game_id: int, notice: Any, *, hand: bool = False) -> None:
        key = (game_id, notice.seat.seat)
        (self.hand if hand else self.dm)[key] = notice
        if notice.prompt is not None:
            self.old.setdefault(key, []).append(notice)


class Notifier:
    """The transport of one service: what it publishes reaches the players, unless it dies first."""

    def __init__(self, players: Players, fuse: Fuse, db: Database | None = None) -> None:
        self.players = players
        self.fuse = fuse
        self.db = db

    async def publish(self, update: TableUpdate) -> None:
        self.fuse.step()
        game_id = update.game.id
        assert game_id is not None
        for notice in update.dms:
            self.players.sent(game_id, notice)
        if self.db is not None:  # what was shown, recorded as the Discord notifier does (table.delivery)
            windows = {(game_id, n.seat.seat): (n.version, n.prompt_digest, n.prompt is not None) for n in update.dms}
            ended = update.game.status != "active"
            # (The database down: not recorded, as table.delivery would retry later: the game stays owed.)
            with contextlib.suppress(DatabaseUnavailable):
                await self.db.record_delivered({game_id: update.version}, {game_id: (update.version, ended)}, windows)

    async def remind(self, game: GameRow, seats: list[SeatRow], deadline: datetime) -> None:
        self.fuse.step()
        assert game.id is not None
        self.players.reminders.append((game.id, [s.seat for s in seats]))

    async def remind_idle(self, game: GameRow, seats: list[SeatRow], since: datetime, can_end: bool) -> None:
        await self.remind(game, seats, since)


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2030, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@dataclass
class Process:
    """One bot process: its Database, table service and fuse."""

    db: Database
    table: TableService
    fuse: Fuse
    shards: Shards | None


@dataclass
class Lobby:
    game_id: int
    guild_id: int
    key: str


@contextmanager
def quick_catch_up() -> Iterator[None]:
    """The service retries a stalled game's follow-up after 0.5 s, doubling: the model waits less."""
    first, most = table_advance.RESUME_FIRST_DELAY, table_advance.RESUME_MAX_DELAY
    table_advance.RESUME_FIRST_DELAY, table_advance.RESUME_MAX_DELAY = 0.005, 0.02
    try:
        yield
    finally:
        table_advance.RESUME_FIRST_DELAY, table_advance.RESUME_MAX_DELAY = first, most


class Environment:
    """What the examples of one run share: one event loop, one database (each example closes its games
    at its end), a reader, the outage switch, and idle Databases: an example's processes take them
    (opening one migrates, which costs more than a whole example); a process that restarts takes one
    another example used, whose caches know none of this example's games, as a new process's."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.sqlite = url.startswith("sqlite")
        self.loop = asyncio.new_event_loop()
        self.outage = SQLiteOutage() if self.sqlite else None  # installed before any database opens
        self.pg_outage = None if self.sqlite else PostgresOutage(url)
        self.reader: Database | None = None
        self.idle: dict[bool, list[Database]] = {True: [], False: []}  # by cache

    def __enter__(self) -> Environment:
        if self.outage is not None:
            self.outage.__enter__()
        self.reader = self.loop.run_until_complete(Database.open(self.url))
        return self

    def __exit__(self, *_exc: object) -> None:
        async def close() -> None:
            for db in [*self.idle[True], *self.idle[False], self.reader]:
                if db is not None:
                    await db.close()

        try:
            if self.pg_outage is not None and self.pg_outage.down:
                self.loop.run_until_complete(self.pg_outage.stop())
            self.loop.run_until_complete(close())
        finally:
            if self.outage is not None:
                self.outage.__exit__(None, None, None)
            self.loop.close()

    async def database(self, cache: bool) -> Database:
        if self.idle[cache]:
            return self.idle[cache].pop()
        return await Database.open(self.url, cache=cache)
