"""How each player is told it is their turn: `/game settings notifications: dm | mention | off`.

- `dm` (the default): a new direct message with the prompt (the previous prompt message deleted, so
  the DM holds one live prompt);
- `mention`: the DM prompt is edited in place (Discord does not notify on edits) and the player is
  mentioned in the game's thread with a link to it;
- `off`: the DM prompt is edited in place and nothing notifies (for players who keep the DM open).
A player whose DMs are closed is mentioned in the thread under `dm` and `mention` alike.

Read once per player and kept: a process alone on its database is the only one that changes them;
with several processes a change made through another is seen within `SHARED_TTL` seconds.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from storage import Database

DM = "dm"
MENTION = "mention"
OFF = "off"
MODES = (DM, MENTION, OFF)
DEFAULT = DM
SHARED_TTL = 300.0  # seconds a choice read from a database other processes write to is trusted


class NotificationModes:
    """The players' choices, cached (`ttl` None: kept until changed through this process)."""

    def __init__(self, db: Database, ttl: float | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.db = db
        self.ttl = ttl
        self.clock = clock
        self._known: dict[int, tuple[str, float]] = {}  # user -> (mode, when read)

    async def of(self, user_id: int) -> str:
        known = self._known.get(user_id)
        now = self.clock()
        if known is not None and (self.ttl is None or now - known[1] < self.ttl):
            return known[0]
        stored = await self.db.get_user_notifications(user_id)
        mode = stored if stored in MODES else DEFAULT
        self._known[user_id] = (mode, now)
        return mode

    async def set(self, user_id: int, mode: str) -> None:
        if mode not in MODES:
            raise ValueError(mode)
        await self.db.set_user_notifications(user_id, mode)
        self._known[user_id] = (mode, self.clock())
