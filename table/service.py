"""The table service: lobby -> start -> prompt -> apply -> persist -> notify, with no Discord in sight.

The transport (the Discord side in bot/) calls these methods and implements `Notifier`; tests drive
the service directly. Each concern is its own module, put together here:
- table.lobby: lobbies and their variants, start, cancel, abandon;
- table.decisions: players' decisions, private and public views, "I'm back";
- table.timers: reminders and AFK deadlines;
- table.watchdog: at every tick, games that should have moved and did not are re-armed;
- table.resume: carrying on at start-up with the games a stopped process left mid-way;
- table.advance: committing a turn with the AI moves it sets off, and catching up after the database
  was unavailable (what all the others build on);
- table.core: the state the service keeps and the helpers every part uses.
"""

from __future__ import annotations

from table.decisions import Decisions
from table.lobby import Lobbies
from table.resume import Resuming
from table.timers import Timers


class TableService(Lobbies, Decisions, Timers, Resuming):
    """Every table operation the transport may call (see the modules named in this module's docstring)."""
