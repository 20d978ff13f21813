"""Reaching a player through their latest interaction, on routes Discord does not count.

A click (or a command) gives the bot the interaction's token for 15 minutes. Through it the bot can
edit or delete the message the click was on (`@original`; for a command, its answer), and post,
edit and delete follow-up messages in the channel the interaction happened in: the interaction
webhook routes, which are exempt from Discord's global limit (bot/transport/pacing.py). So a player who keeps
playing is served through their own latest click: their DM prompt edited or followed up, their
ephemeral hand (closed DMs) refreshed, at no cost to the bot's global budget.

`Reaches` keeps the latest interaction of each seat (game, seat) that a click of theirs answered:
the token, the channel, which message `@original` is, and the follow-ups made through it (a
webhook can edit only its own messages). A token is used only while it has at least `MARGIN`
seconds left, so a request on its way does not outlive it; one Discord refuses anyway (expired,
revoked) is forgotten, and the caller falls back to the bot's own routes.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.transport import refusals

TOKEN_LIFETIME = 15 * 60.0  # seconds Discord keeps an interaction's token valid
MARGIN = 60.0  # seconds of life a token must have left to be used
# Discord's answers to a token that no longer works: Unknown Webhook, Invalid Webhook Token, Unknown
# Interaction.
DEAD_TOKEN_CODES = frozenset({refusals.UNKNOWN_WEBHOOK, refusals.INVALID_WEBHOOK_TOKEN, refusals.UNKNOWN_INTERACTION})
ORIGINAL = "@original"


@dataclass(slots=True)
class Reach:
    """One interaction of a player, usable until `until` (the clock of `Reaches`)."""

    application_id: int
    token: str
    channel_id: int | None  # where its follow-ups go
    original: int | None  # the message `@original` designates (None: not known)
    until: float
    made: tuple[int, ...] = ()  # follow-ups posted through it (it may edit and delete them): most have none

    def target(self, message_id: int | None) -> int | str | None:
        """How this interaction's webhook names `message_id` (`@original`, or a follow-up's id); None
        when the message is not one it may edit."""
        if message_id is None:
            return None
        if message_id == self.original:
            return ORIGINAL
        return message_id if message_id in self.made else None

    def followed_up(self, message_id: int) -> None:
        """A follow-up was posted through it: it may edit and delete that message."""
        self.made = (*self.made, message_id)

    def webhook(self, state: Any) -> discord.Webhook:
        """The interaction's webhook (as `Interaction.followup` builds it), with the bot's state so that
        its messages may carry buttons."""
        return discord.Webhook.from_state(data={"id": self.application_id, "type": 3, "token": self.token}, state=state)


def dead_token(error: BaseException) -> bool:
    """Discord refused the request because the interaction's token no longer works."""
    return isinstance(error, discord.HTTPException) and (
        error.code in DEAD_TOKEN_CODES or (error.status == 401 and error.code == 0)
    )


class Reaches:
    """The latest interaction of each seat that a click of theirs answered."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._latest: dict[tuple[int, int], Reach] = {}

    def remember(self, game_id: int, seat: int, interaction: discord.Interaction[Any], original: int | None) -> Reach:
        """After the bot answered `interaction` (acknowledged it): the seat's latest way to be reached.
        `original`: the message its `@original` designates (the clicked message, or the answer)."""
        reach = Reach(
            interaction.application_id,
            interaction.token,
            interaction.channel_id,
            original,
            self.clock() + TOKEN_LIFETIME - MARGIN,
        )
        self._latest[(game_id, seat)] = reach
        return reach

    def of(self, game_id: int, seat: int) -> Reach | None:
        """The seat's latest interaction, if its token still has time to live."""
        reach = self._latest.get((game_id, seat))
        if reach is None:
            return None
        if reach.until <= self.clock():
            del self._latest[(game_id, seat)]
            return None
        return reach

    def drop(self, game_id: int, seat: int, reach: Reach) -> None:
        """Forget `reach` (Discord refused its token), unless a newer interaction replaced it already."""
        if self._latest.get((game_id, seat)) is reach:
            del self._latest[(game_id, seat)]

    def forget(self, game_id: int) -> None:
        """The game is over: none of its seats will be reached through it again."""
        for key in [k for k in self._latest if k[0] == game_id]:
            del self._latest[key]

    def __len__(self) -> int:
        return len(self._latest)
