"""The stall report: what a game is waiting for, read from the database, in one line.

A game "stalls" when nobody can move and nothing will time out. When that is suspected (the crash
benchmark's players saw no progress for a minute; the watchdog finds a game past its deadline) the
report says why from what is stored: each seat's prompt (what it awaits), who holds it (a human, an AI
level, the AI standing in for an absent player), its AFK count and its last action; the game's
version, deadline and reminder; whether the state is over (then nobody can move until someone finishes
it); and the last actions with their times. It reads games/ and storage/ only, never Discord, and
reveals no choice: prompts by kind, actions by seat and sequence number.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

import games
from storage import Database, StorageError
from storage.types import utcnow

LAST_ACTIONS = 4  # actions listed at the end of the report


@dataclass
class SeatReport:
    seat: int
    holder: str  # "user 123", "AI heuristic", or "user 123 (AI stands in)"
    awaits: str | None  # the kind of prompt this seat must answer, None when it has nothing to decide
    afk_count: int
    last_acted: int | None  # the version its last action made (None: it never acted)
    human_awaited: bool  # a human who must decide (an AI seat, or one the AI plays, is the service's job)

    def __str__(self) -> str:
        awaits = f"awaits {self.awaits!r}" if self.awaits else "nothing to decide"
        acted = f"last acted v{self.last_acted}" if self.last_acted is not None else "never acted"
        afk = f", AFK {self.afk_count}" if self.afk_count else ""
        return f"seat {self.seat} {self.holder}: {awaits}, {acted}{afk}"


@dataclass
class StallReport:
    game_id: int
    game_key: str = ""
    status: str = "missing"
    version: int = 0
    over: bool = False  # the state has an outcome: nobody can move until the game is finished
    turn_seconds: int | None = None
    deadline: datetime | None = None
    reminded: bool = False
    updated_at: datetime | None = None
    seats: list[SeatReport] = field(default_factory=list)
    last_actions: list[str] = field(default_factory=list)  # "v57 seat 1 (AI) 3 s ago"
    unreadable: str | None = None  # why the state could not be read, if it could not
    now: datetime = field(default_factory=utcnow)

    @property
    def awaited(self) -> list[int]:
        """The seats whose prompt is open."""
        return [s.seat for s in self.seats if s.awaits is not None]

    @property
    def humans_awaited(self) -> list[int]:
        return [s.seat for s in self.seats if s.human_awaited]

    @property
    def why(self) -> str:
        """What would explain nobody moving, in a few words."""
        if self.status != "active":
            return f"the game is {self.status}"
        if self.unreadable:
            return f"its state cannot be read ({self.unreadable})"
        if self.over:
            return "the game is over but was never finished"
        if not self.awaited:
            return "nobody is prompted"
        if not self.humans_awaited:
            return "only AI seats are awaited and none moved"
        return f"waiting for the human seats {self.humans_awaited}"

    def _ago(self, moment: datetime | None) -> str:
        if moment is None:
            return "none"
        seconds = (self.now - moment).total_seconds()
        return f"{-seconds:.0f} s from now" if seconds < 0 else f"{seconds:.0f} s ago"

    def __str__(self) -> str:
        timer = f"{self.turn_seconds} s turns" if self.turn_seconds else "no turn timer"
        reminded = ", reminded" if self.reminded else ""
        parts = [
            f"game {self.game_id} ({self.game_key}) {self.status} at v{self.version}: {self.why}",
            f"{timer}, deadline {self._ago(self.deadline)}{reminded}, updated {self._ago(self.updated_at)}",
            *map(str, self.seats),
            "last actions: " + (", ".join(self.last_actions) or "none"),
        ]
        return " | ".join(parts)


async def stall_report(db: Database, game_id: int, now: datetime | None = None) -> StallReport:
    """The report of one game as stored now (a report saying so when it is missing or unreadable)."""
    report = StallReport(game_id, now=now or utcnow())
    row = await db.get_game(game_id)
    if row is None:
        return report
    report.game_key, report.status, report.version = row.game_key, row.status, row.version
    report.turn_seconds, report.deadline, report.reminded = row.turn_seconds, row.deadline, row.reminded
    report.updated_at = row.updated_at
    seats = await db.seats(game_id)
    actions = await db.actions(game_id)
    awaits: dict[int, str] = {}
    if row.state is not None:
        try:
            game = games.get(row.game_key)
            state = game.from_json(row.state)
            awaits = {p.seat: p.kind for p in game.prompts(state)}
            report.over = game.outcome(state) is not None
        except (KeyError, ValueError, TypeError, StorageError) as error:
            report.unreadable = f"{type(error).__name__}: {error}"
    last_acted: dict[int, int] = {}
    for action in actions:
        last_acted[action.seat] = action.seq
    for seat in seats:
        if seat.user_id is None:
            holder = f"AI {seat.ai_level}"
        else:
            holder = f"user {seat.user_id}" + (" (AI stands in)" if seat.ai_controlled else "")
        kind = awaits.get(seat.seat)
        human = kind is not None and seat.user_id is not None and not seat.ai_controlled
        report.seats.append(SeatReport(seat.seat, holder, kind, seat.afk_count, last_acted.get(seat.seat), human))
    for action in actions[-LAST_ACTIONS:]:
        who = "AI" if seats and seats[action.seat].user_id is None else ("AFK" if action.afk else "human")
        report.last_actions.append(f"v{action.seq} seat {action.seat} ({who}) {report._ago(action.at)}")
    return report
