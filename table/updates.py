"""What the table service hands the transport after a commit, and the two interfaces it calls.

`Notifier` is implemented by the transport (the Discord side: bot.delivery.notify) and `TableObserver` by
whoever counts what happens (the bot's metrics); the service calls them, never the other way round.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from games.core import Prompt
from storage import GameRow, SeatRow

Event = dict[str, Any]


@dataclass
class SeatNotice:
    """What one human seat should now see privately: its view and the prompt it must answer."""

    seat: SeatRow
    view: dict[str, Any]
    prompt: Prompt | None
    version: int
    private_events: list[Event] = field(default_factory=list)
    prompt_digest: int = 0  # of `prompt` as offered (table.core.prompt_digest): recorded once delivered


@dataclass
class TableUpdate:
    """Everything the transport needs to show a game after a batch of committed decisions."""

    game: GameRow
    seats: list[SeatRow]
    version: int
    public_view: dict[str, Any]
    prompts: list[Prompt]
    events: list[Event]  # public events of this batch, in order
    afk_seats: list[int]  # seats the AI decided for because their player was AFK
    dms: list[SeatNotice]  # human seats whose private message must be refreshed
    outcome: dict[str, Any] | None
    started: bool = False
    deadline: datetime | None = None  # when the AI decides for AFK seats (None: no timer)
    notices: dict[int, SeatNotice] = field(default_factory=dict)  # every human seat's fresh view
    # Whether the table message must show this update: False when start-up repair finds it showed this
    # version already (only DMs or log lines were owed).
    show_table: bool = True

    @property
    def resolved(self) -> bool:
        """Something happened that is worth a log line (not just "X has decided")."""
        return any(e.get("type") not in PROGRESS_EVENTS for e in self.events) or self.outcome is not None


PROGRESS_EVENTS = frozenset({"decided"})


@dataclass
class Decided:
    """The answer to a player's decision, given to the acknowledgement callback after the commit."""

    update: TableUpdate
    own: SeatNotice  # the deciding seat's fresh private view (to answer the interaction with)
    labels: list[str]  # the engine's labels of what was chosen, for "you chose ..."
    prompt: Prompt | None = None  # the prompt answered (renderers translate its labels)
    choice: list[str] = field(default_factory=list)  # the choice ids


class Notifier(Protocol):
    """Implemented by the transport (Discord); the service calls it after commits."""

    async def publish(self, update: TableUpdate) -> None: ...

    async def remind(self, game: GameRow, seats: list[SeatRow], deadline: datetime) -> None: ...

    async def remind_idle(self, game: GameRow, seats: list[SeatRow], since: datetime, can_end: bool) -> None:
        """A game without a turn timer nobody moved since `since`: remind `seats`, who must decide;
        `can_end`: it has been idle long enough that the host is offered to end it."""


class NullNotifier:
    async def publish(self, update: TableUpdate) -> None:
        return None

    async def remind(self, game: GameRow, seats: list[SeatRow], deadline: datetime) -> None:
        return None

    async def remind_idle(self, game: GameRow, seats: list[SeatRow], since: datetime, can_end: bool) -> None:
        return None


class TableObserver(Protocol):
    """Told what the service did, as it happens (the bot counts it for the operators' metrics).

    Decision kinds: "human" (a player's click), "ai" (an AI seat), "afk" (the AI standing in for an
    absent player). Ends: "finished", "abandoned" (by the host or an admin), "all_afk".
    """

    def decided(self, game_key: str, kind: str) -> None: ...

    def game_started(self, game_key: str) -> None: ...

    def game_ended(self, game_key: str, end: str) -> None: ...

    def ticked(self, handled: int) -> None: ...

    def stalled(self, game_key: str, cause: str, game_id: int) -> None:
        """The watchdog re-armed game `game_id`: `cause` "overdue" (past its deadline, the timer making no
        progress) or "idle" (no turn timer, unchanged for a long time)."""


class NullObserver:
    def decided(self, game_key: str, kind: str) -> None:
        return None

    def game_started(self, game_key: str) -> None:
        return None

    def game_ended(self, game_key: str, end: str) -> None:
        return None

    def ticked(self, handled: int) -> None:
        return None

    def stalled(self, game_key: str, cause: str, game_id: int) -> None:
        return None


def started(update: TableUpdate) -> TableUpdate:
    """The update that opens a game's table (its thread and first table message are made for it)."""
    update.started = True
    return update
