"""Answering an interaction exactly once, and in time, when the work behind it may be slow.

Discord drops an interaction that gets no answer within 3 seconds. An `InTime` guard defers it by
itself when the answer is not ready after `DEFER_AFTER` seconds (a database that stalls, a busy game
lock), so the click or command is still answered, late, instead of failing. Slash commands get their
guard from the command tree before they run (`guard`); component handlers open one with `in_time`.

Every answer goes through `send`, `edit` or `defer` here: they first wait for a defer that may be on
its way, then use the interaction's response if it is still open, or else the follow-up that a
deferred interaction expects. Handlers therefore never need to know whether the guard fired.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

import aiohttp
import discord

from bot.transport import refusals

log = logging.getLogger(__name__)

ACKNOWLEDGED_KEY = (
    "bot.transport.answer.acknowledged"  # Interaction.extras: acknowledged by a callback whose answer was lost
)
# The connection failed with the request perhaps delivered (a kept-alive connection closed by the other
# end as it was reused, a reset): worth sending once more. Timeouts are not retried: the guard's
# deferral, or Discord's three seconds, have run out by then.
CONNECTION_LOST = (aiohttp.ServerDisconnectedError, aiohttp.ClientOSError)
T = TypeVar("T")

DEFER_AFTER = 2.0  # seconds: leaves a second of Discord's three for the defer itself to arrive
GUARD_KEY = "bot.transport.answer.in_time"  # where the interaction's guard is kept (Interaction.extras)
PUBLIC = "public_answer"  # a slash command's extras key: its answer is seen by the channel, not only the user
PUBLIC_OPTION = "public_option"  # ... or the name of its bool option that makes the answer public when true


class InTime:
    """Defers the interaction after `after` seconds unless `ready()` was awaited first.

    `ephemeral`: for a slash command, whether its eventual answer is private (Discord fixes that at
    the defer). A component's defer changes nothing visible: its answer edits or follows up."""

    def __init__(self, interaction: discord.Interaction[Any], after: float, *, ephemeral: bool = False) -> None:
        self.interaction = interaction
        self.ephemeral = ephemeral
        self.deferring = False  # the deferral was sent (whether or not its answer came back)
        # A timer, not a task that sleeps: most answers come in time, and cancelling a timer costs next to
        # nothing where a cancelled task costs its creation, a CancelledError and a wake-up.
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(after, self._defer_now)
        self._deferral: asyncio.Task[Any] | None = None

    def _defer_now(self) -> None:
        if self.interaction.response.is_done():
            return
        self.deferring = True
        self._deferral = asyncio.get_running_loop().create_task(
            self.interaction.response.defer(ephemeral=self.ephemeral)
        )
        self._deferral.set_name(f"bot-defer-{self.interaction.id}")

    def left(self) -> float:
        """Seconds until the deferral goes (0 once it went or is due)."""
        if self.deferring:
            return 0.0
        return max(0.0, self._timer.when() - asyncio.get_running_loop().time())

    async def ready(self) -> None:
        """Call before answering: stops the timer, or waits for a defer already on its way, so that
        `interaction.response.is_done()` then tells truly whether to answer or edit the response."""
        self._timer.cancel()
        if self._deferral is None:
            return
        with contextlib.suppress(asyncio.CancelledError, Exception):  # a failed defer: answer anyway
            await self._deferral


def guard(interaction: discord.Interaction[Any], *, ephemeral: bool = False, after: float | None = None) -> InTime:
    """Start the interaction's guard (once: a second call returns the first guard)."""
    existing = interaction.extras.get(GUARD_KEY)
    if isinstance(existing, InTime):
        return existing
    started = InTime(interaction, DEFER_AFTER if after is None else after, ephemeral=ephemeral)
    interaction.extras[GUARD_KEY] = started
    return started


@contextlib.asynccontextmanager
async def in_time(interaction: discord.Interaction[Any], after: float | None = None) -> AsyncIterator[InTime]:
    started = guard(interaction, after=after)
    try:
        yield started
    finally:
        await started.ready()


async def ready(interaction: discord.Interaction[Any]) -> None:
    """Wait for the interaction's guard, if it has one, so that `is_done()` can be trusted."""
    started = interaction.extras.get(GUARD_KEY)
    if isinstance(started, InTime):
        await started.ready()


def time_left(interaction: discord.Interaction[Any]) -> float | None:
    """Seconds before the interaction's guard defers it (None: it has no guard)."""
    started = interaction.extras.get(GUARD_KEY)
    return started.left() if isinstance(started, InTime) else None


def _answered(interaction: discord.Interaction[Any]) -> bool:
    return interaction.response.is_done() or bool(interaction.extras.get(ACKNOWLEDGED_KEY))


def _deferral_tried(interaction: discord.Interaction[Any]) -> bool:
    started = interaction.extras.get(GUARD_KEY)
    return isinstance(started, InTime) and started.deferring


def _rewind(kwargs: dict[str, Any]) -> None:
    """Files already read by a failed attempt are read again from their start."""
    for key in ("file", "files", "attachments"):
        value = kwargs.get(key)
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, discord.File):
                item.reset(seek=True)


async def _first_answer(
    interaction: discord.Interaction[Any], answer: Callable[[], Awaitable[T]]
) -> tuple[bool, T | None]:
    """The interaction's callback, sent again once if the connection failed on its way: the failed one
    may or may not have reached Discord, and Discord refuses a second callback (40060) if it did.
    (False, None): refused so (acknowledged already: by the lost attempt, or by a deferral whose answer
    was lost); the caller then answers through the acknowledged response."""
    try:
        return True, await answer()
    except CONNECTION_LOST as error:
        log.warning("the answer to interaction %s was lost on its way (%r); sending it again", interaction.id, error)
    except discord.HTTPException as error:
        return _acknowledged_already(interaction, error)
    try:
        return True, await answer()
    except discord.HTTPException as error:
        return _acknowledged_already(interaction, error)


def _acknowledged_already(interaction: discord.Interaction[Any], error: discord.HTTPException) -> tuple[bool, None]:
    """Discord's refusal of a callback because the interaction is acknowledged already; re-raised if not."""
    if error.code != refusals.ALREADY_ACKNOWLEDGED:
        raise error
    interaction.extras[ACKNOWLEDGED_KEY] = True
    return False, None


async def send(interaction: discord.Interaction[Any], content: str | None = None, **kwargs: Any) -> int | None:
    """Answer with a new message (`ephemeral=True` for a private one); its id when Discord gives it."""
    await ready(interaction)
    if content is not None:
        kwargs["content"] = content
    if not _answered(interaction):
        deferred = _deferral_tried(interaction)

        async def callback() -> discord.InteractionCallbackResponse[Any] | None:
            _rewind(kwargs)
            return await interaction.response.send_message(**kwargs)

        answered, sent = await _first_answer(interaction, callback)
        if answered:
            return sent.message_id if sent is not None else None
        if not deferred:  # the lost attempt did reach Discord: its message is the original response
            return (await interaction.original_response()).id
    _rewind(kwargs)
    message = await interaction.followup.send(wait=True, **kwargs)
    return message.id


async def edit(interaction: discord.Interaction[Any], **kwargs: Any) -> discord.Message | None:
    """Answer a component by editing the message it is on (or the deferred response); the message as
    Discord answered with it, when it did (its attachments: bot.delivery.attachments)."""
    await ready(interaction)
    if not _answered(interaction):

        async def callback() -> discord.InteractionCallbackResponse[Any] | None:
            _rewind(kwargs)
            return await interaction.response.edit_message(**kwargs)

        answered, response = await _first_answer(interaction, callback)
        if answered:
            resource = response.resource if response is not None else None
            return resource if isinstance(resource, discord.Message) else None
    # Edited again when a lost attempt may have edited it already: the same edit twice shows the same.
    _rewind(kwargs)
    return await edit_original(interaction, **kwargs)


async def edit_original(interaction: discord.Interaction[Any], **kwargs: Any) -> discord.Message:
    """Edit the interaction's answer (through its token); once more if the connection was lost on the way,
    as the first answer is (`CONNECTION_LOST`): an edit sent twice shows the same."""
    try:
        return await interaction.edit_original_response(**kwargs)
    except CONNECTION_LOST as error:
        log.warning(
            "an edit of the answer to interaction %s was lost on its way (%r); sending it again", interaction.id, error
        )
    _rewind(kwargs)
    return await interaction.edit_original_response(**kwargs)


async def defer(interaction: discord.Interaction[Any], *, thinking: bool = False) -> None:
    """Defer now (work that is known to be long), unless the guard already did."""
    await ready(interaction)
    if not interaction.response.is_done():
        await interaction.response.defer(thinking=thinking)
