"""What each game's players were last shown on Discord, as the notifier knows it.

Per game: its thread, its table message and the version the table shows; per seat: the message that
is the player's private window on the game (their DM prompt, or for a player whose DMs are closed,
their ephemeral hand), the version it shows, and whether it shows a prompt they have not answered
yet (`live`). The notifier updates it when Discord confirms a request; the answers to a player's own
clicks update it too (bot.delivery.notify `answered`). Ids come from the database at first (the seat row and
the game row keep them across restarts) and are written back when they change.

`live` is what decides whether a player becomes awaited (a prompt is shown to someone who has none
left unanswered: they get one notification) or is only shown a fresher view of a prompt they have
already been told about (an edit: no notification). It is cleared when they click (their answer
shows what comes next), when the AI stands in for them, and when a view without a prompt is shown.

This is also the record a restart needs (which version of each message was delivered, with its ids):
the notifier writes each confirmed delivery through the table service's `table.delivery.DeliveryLog`
(the seat rows keep the window's version, prompt digest and `live`; the game row the table's version
and how far everything was delivered), and a record started after a restart begins from those.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from storage import GameRow, SeatRow


@dataclass(slots=True)
class SeatShown:
    """One seat's private window, as last delivered."""

    channel_id: int | None = None  # the DM channel (None: not opened yet, or DMs closed)
    message_id: int | None = None  # the DM prompt message, or the ephemeral hand when DMs are closed
    version: int = 0  # the game version that message shows (0: unknown)
    # It shows a prompt the player has not answered (they were told already). None: not known (the
    # process started since; the message was delivered by an earlier one): a prompt then shown there
    # is taken as one they were told about (an edit), rather than telling every waiting player again
    # after each restart.
    live: bool | None = False
    prompt: int = 0  # digest of the prompt it shows (table.core.prompt_digest; 0: none or unknown)


@dataclass(slots=True)
class GameShown:
    """One game's public messages and its seats' windows, as last delivered."""

    thread_id: int | None = None
    table_message_id: int | None = None
    table_version: int = 0
    seats: dict[int, SeatShown] = field(default_factory=dict)


class Delivered:
    """What every game of this process was last shown, by game id."""

    def __init__(self) -> None:
        self._games: dict[int, GameShown] = {}

    def game(self, row: GameRow) -> GameShown:
        """The game's record, started from the ids its database row keeps."""
        assert row.id is not None
        shown = self._games.get(row.id)
        table_version = getattr(row, "table_version", None) or 0
        if shown is None:
            shown = self._games[row.id] = GameShown(row.thread_id, row.table_message_id, table_version)
        elif shown.table_message_id is None and shown.thread_id is None:
            # Started by a seat's record (`seat`: a click answered first after a restart): the row has the ids.
            shown.thread_id, shown.table_message_id = row.thread_id, row.table_message_id
            shown.table_version = max(shown.table_version, table_version)
        return shown

    def seat(self, game_id: int, seat: SeatRow) -> SeatShown:
        """A seat's record, started from what its database row keeps: the ids, and as delivered the
        version, prompt and `live` (unknown for a message delivered before those were recorded)."""
        shown = self._games.setdefault(game_id, GameShown())
        window = shown.seats.get(seat.seat)
        if window is None:
            live = seat.dm_live if seat.dm_live is not None else None if seat.dm_message_id is not None else False
            window = shown.seats[seat.seat] = SeatShown(
                seat.dm_channel_id, seat.dm_message_id, seat.dm_version or 0, live, seat.dm_prompt or 0
            )
        return window

    def known(self, game_id: int) -> GameShown | None:
        return self._games.get(game_id)

    def forget(self, game_id: int) -> None:
        self._games.pop(game_id, None)

    def __len__(self) -> int:
        return len(self._games)
