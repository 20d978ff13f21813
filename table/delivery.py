"""What Discord confirmed the players were shown, written to the database in batches (issue 23).

The transport tells this log what each request it sent showed, once Discord confirmed it: a game's
table message (`table`), a seat's private window (`window`: the version, the digest of the prompt it
shows, and whether that prompt is unanswered), and that everything handed over up to a version went
out (`drained`; for a game that ended, with its ending: result, final table, DMs). The marks wait a
moment in memory, merged (the newest of each), and go in one transaction (`storage`'s
`record_delivered`), so a busy bot writes a few statements per flush whatever the number of
decisions in it. A process killed before a flush loses at most that moment's marks: after the
restart those games count as owed and are shown again (an edit, or a post Discord recognises by its
nonce), never left unshown. A clean stop flushes (`close`), so after it nothing is owed.
"""

from __future__ import annotations

import asyncio
import logging

from storage import Database, DatabaseUnavailable

log = logging.getLogger(__name__)

FLUSH_SECONDS = 0.5  # how long marks wait to share a transaction
RETRY_SECONDS = 2.0  # after the database was unavailable


class DeliveryLog:
    """Marks of what was delivered, flushed to the database in batches (see the module)."""

    def __init__(self, db: Database, delay: float = FLUSH_SECONDS) -> None:
        self.db = db
        self.delay = delay
        self._tables: dict[int, int] = {}  # game -> version its table message shows
        self._delivered: dict[int, tuple[int, bool]] = {}  # game -> (version, ending included)
        self._windows: dict[tuple[int, int], tuple[int, int, bool]] = {}  # (game, seat) -> (version, prompt, live)
        self._timer: asyncio.Task[None] | None = None
        self._now: set[asyncio.Task[None]] = set()  # flushes asked for at once (an ending)
        self._writing = asyncio.Lock()  # one flush at a time: marks reach the database in order
        self.flushes = 0  # transactions written (benchmarks)

    def table(self, game_id: int, version: int) -> None:
        if self._tables.get(game_id, 0) < version:
            self._tables[game_id] = version
        self._soon()

    def window(self, game_id: int, seat: int, version: int, prompt: int, live: bool) -> None:
        """The seat's private window shows `version`, the prompt whose digest is `prompt` (0: none), and
        whether the player has yet to answer it. A later mark of the same version replaces it."""
        old = self._windows.get((game_id, seat))
        if old is None or old[0] <= version:
            self._windows[(game_id, seat)] = (version, prompt, live)
        self._soon()

    def drained(self, game_id: int, version: int, *, ending: bool) -> None:
        """Everything handed over for the game up to `version` went out (`ending`: its ending too)."""
        old = self._delivered.get(game_id)
        if old is None or old[0] <= version:
            self._delivered[game_id] = (version, ending or (old is not None and old[0] == version and old[1]))
        if ending:
            # Once per game, and a result posted again after a restart would be a second result: at once.
            self._soon(0.0)
        else:
            self._soon()

    def pending(self) -> int:
        return len(self._tables) + len(self._delivered) + len(self._windows)

    def _soon(self, delay: float | None = None) -> None:
        if delay is not None and delay < self.delay:
            task = asyncio.get_running_loop().create_task(self._flush_later(delay, timer=False))
            task.set_name("table-delivery-flush-now")
            self._now.add(task)
            task.add_done_callback(self._now.discard)
        elif self._timer is None:
            self._timer = asyncio.get_running_loop().create_task(self._flush_later(self.delay))
            self._timer.set_name("table-delivery-flush")

    async def _flush_later(self, delay: float, *, timer: bool = True) -> None:
        await asyncio.sleep(delay)
        if timer:
            self._timer = None
        try:
            await self.flush()
        except DatabaseUnavailable as error:
            log.warning("what was delivered could not be recorded yet (%s); retrying", error)
            if self._timer is None:
                self._timer = asyncio.get_running_loop().create_task(self._flush_later(RETRY_SECONDS))
        except Exception:
            log.exception("what was delivered could not be recorded; those games count as owed")

    async def flush(self) -> None:
        """Write the marks waiting now, in one transaction; put back (merged) if the database is unavailable."""
        async with self._writing:
            tables, delivered, windows = self._tables, self._delivered, self._windows
            if not (tables or delivered or windows):
                return
            self._tables, self._delivered, self._windows = {}, {}, {}
            try:
                await self.db.record_delivered(tables, delivered, windows)
            except DatabaseUnavailable:
                for game_id, version in tables.items():
                    self._tables[game_id] = max(version, self._tables.get(game_id, 0))
                for game_id, mark in delivered.items():
                    self._delivered.setdefault(game_id, mark)
                for key, window in windows.items():
                    self._windows.setdefault(key, window)
                raise
            self.flushes += 1

    async def close(self) -> None:
        """Write what is waiting now (a clean stop leaves nothing owed that was shown)."""
        timer, self._timer = self._timer, None
        for task in [timer, *self._now]:
            if task is not None:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
        try:
            await self.flush()
        except Exception as error:
            log.warning("what was delivered last could not be recorded (%r); those games count as owed", error)
