"""The transport-free table service: lobbies, decisions, timers and resumption over games/ and storage/.

It knows games/ and storage/, never discord (a test keeps it so): the Discord side in bot/ calls it and
implements its `Notifier`. Refusals are `TableError`s whose messages are catalog msgids (table.messages)
that the transport says in the reader's language.
"""

from __future__ import annotations

from table.core import AFK_TURNS_BEFORE_AI, DEFAULT_TURN_SECONDS, MAX_TURN_SECONDS, Clock, WatchTimes, stand_in_level
from table.errors import CatchingUp, Stale, TableError, Unacknowledged, Unavailable, echo
from table.lobby import default_ai_name
from table.service import TableService
from table.updates import (
    PROGRESS_EVENTS,
    Decided,
    Event,
    Notifier,
    NullNotifier,
    NullObserver,
    SeatNotice,
    TableObserver,
    TableUpdate,
)

__all__ = [
    "AFK_TURNS_BEFORE_AI",
    "DEFAULT_TURN_SECONDS",
    "MAX_TURN_SECONDS",
    "PROGRESS_EVENTS",
    "CatchingUp",
    "Clock",
    "Decided",
    "Event",
    "Notifier",
    "NullNotifier",
    "NullObserver",
    "SeatNotice",
    "Stale",
    "TableError",
    "TableObserver",
    "TableService",
    "TableUpdate",
    "Unacknowledged",
    "Unavailable",
    "WatchTimes",
    "default_ai_name",
    "echo",
    "stand_in_level",
]
