"""What a game's players have not been shown yet (bot.delivery.notify), per per-channel queue, coalesced.

A game's per-channel queues: its thread (`THREAD`: the table message, which shows the log lines) and
each seat's DM, by seat number (its own channel: never held behind the thread). What is pending in them
coalesces while it waits: only the newest table and the newest view of each seat matter; log lines are
kept until shown, each once: by the next table edit, those it has room for (the newest RECENT_LINES that
fit a field); older ones, when more came while the thread was held, in posts of their own first (as many
as fit a message each), so that none is skipped.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from bot.messages import present
from table import SeatNotice, TableUpdate

MESSAGE_LIMIT = 2000  # characters in one Discord message
RECENT_LINES = 5  # log lines the table shows at most (bot.messages.present.add_recent fits them in a field)
THREAD = -1  # the queue of a game's thread (a seat's is its number)
# A table edit that would only show who has decided this turn waits this many table intervals for the
# turn's result (which it then shows too): a turn costs one edit unless its players are slow. Two: at the
# default interval a table is at most 4 s behind by design, within issue 37's 5 s (three was 6 s).
PROGRESS_WAIT = 2


@dataclass
class Pending:
    """What a game's players have not been shown yet, in the order it must be shown; with when each
    part was handed over (a monotonic clock), for the delay figures."""

    latest: TableUpdate
    open_table: bool = False
    edit_table: bool = False
    lines: list[tuple[int, str, float]] = field(default_factory=list)  # (version, log line, when), oldest first
    posting: int = 0  # how many of `lines` the last post attempt carried: a retry sends exactly those again
    tried: int = 0  # how many of `lines` a table edit whose outcome is unknown carried: never posted after
    dms: dict[int, SeatNotice] = field(default_factory=dict)  # seat -> the newest notice pending to it
    # Owed again because a newer version came while the previous one was drawn or sent: its picture
    # goes before those that have not waited yet (bot.render.kit.pool).
    table_again: bool = False
    dms_again: set[int] = field(default_factory=set)
    table_since: list[tuple[int, float]] = field(default_factory=list)  # (version, when) not on the table yet
    dm_since: dict[int, float] = field(default_factory=dict)  # seat -> when its oldest unsent DM was pending
    # Something handed over was dropped unsent (the bot stopping, a refusal): the game must stay owed.
    lost: bool = False
    # Set at each update handed over: a table edit waiting for its interval looks again (bot.delivery.notify).
    arrived: asyncio.Event = field(default_factory=asyncio.Event)

    def add(self, update: TableUpdate, lang: str, now: float) -> None:
        self.latest = update
        if update.started:
            self.open_table = True
        else:
            self.edit_table = self.edit_table or getattr(update, "show_table", True)
            line = present.log_line(update, lang)
            if line:
                self.lines.append((update.version, line, now))
        self.table_since.append((update.version, now))
        for notice in update.dms:
            self.dms[notice.seat.seat] = notice
            self.dm_since.setdefault(notice.seat.seat, now)
        self.arrived.set()

    def table_due(self, edited: float | None, interval: float) -> float:
        """When the next table edit may go (a monotonic time), the previous one having gone at `edited`:
        `interval` after it; a table that only says who has decided (no new log line) waits for the turn's
        result up to PROGRESS_WAIT intervals after the oldest update it would show; a game that ended, at once."""
        if self.latest.game.status != "active" or edited is None:
            return float("-inf")
        due = edited + interval
        if not self.lines and self.table_since:
            due = max(due, self.table_since[0][1] + PROGRESS_WAIT * interval)
        return due

    def has_pending(self, queue: int) -> bool:
        if queue == THREAD:
            return self.open_table or self.edit_table or bool(self.lines)
        # A seat's DM goes once the thread exists: a closed DM is said in it.
        return queue in self.dms and not self.open_table

    def drop(self, queue: int) -> None:
        """Forget what is pending in this queue (the bot is stopping, or it failed for good)."""
        if queue == THREAD:
            self.open_table = self.edit_table = False
            self.lines.clear()
            self.posting = self.tried = 0
            self.table_since.clear()
        else:
            self.dms.pop(queue, None)
            self.dm_since.pop(queue, None)
            self.dms_again.discard(queue)

    def empty(self) -> bool:
        return not (self.open_table or self.edit_table or self.lines or self.dms)

    def overflow(self) -> int:
        """How many of the oldest pending lines the next table edit has no room for (posted apart); none
        while an edit that may have shown them failed (its retry shows them: a line is never shown twice)."""
        if self.tried:
            return 0
        size, fits = -1, 0
        for _version, line, _when in reversed(self.lines):
            if fits == RECENT_LINES or size + 1 + len(line) > present.FIELD_LIMIT:
                break
            size += 1 + len(line)
            fits += 1
        return len(self.lines) - max(fits, 1)

    def next_post(self) -> list[tuple[int, str, float]]:
        """The log lines of the next post: as many of the oldest the table has no room for as fit in one
        message (at least one; a line is clipped below the limit), or exactly those of an attempt that may
        have gone through."""
        if not self.posting:
            room = self.overflow()
            size = len(self.lines[0][1])
            self.posting = 1
            while self.posting < room and size + 1 + len(self.lines[self.posting][1]) <= MESSAGE_LIMIT:
                size += 1 + len(self.lines[self.posting][1])
                self.posting += 1
        return self.lines[: self.posting]
