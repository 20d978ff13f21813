"""Answering an interaction in time when the work behind it may be slow (a database that stalls).

Discord drops an interaction that gets no answer within 3 seconds. `in_time` defers it by itself
when the answer is not ready after `DEFER_AFTER` seconds, so a click made while the database waits
on a lock is still answered (late, as an edit of the deferred response) instead of failing.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import discord

DEFER_AFTER = 2.0  # seconds: leaves a second of Discord's three for the defer itself to arrive


class InTime:
    """Defers the interaction after `after` seconds unless `ready()` was awaited first."""

    def __init__(self, interaction: discord.Interaction[Any], after: float) -> None:
        self.interaction = interaction
        self._deferring = False
        self._task = asyncio.get_running_loop().create_task(self._defer_later(after))
        self._task.set_name(f"bot-defer-{interaction.id}")

    async def _defer_later(self, after: float) -> None:
        await asyncio.sleep(after)
        if not self.interaction.response.is_done():
            self._deferring = True
            await self.interaction.response.defer()

    async def ready(self) -> None:
        """Call before answering: stops the timer, or waits for a defer already on its way, so that
        `interaction.response.is_done()` then tells truly whether to answer or edit the response."""
        if not self._deferring:
            self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):  # a failed defer: answer anyway
            await self._task


@contextlib.asynccontextmanager
async def in_time(interaction: discord.Interaction[Any], after: float | None = None) -> AsyncIterator[InTime]:
    guard = InTime(interaction, DEFER_AFTER if after is None else after)
    try:
        yield guard
    finally:
        await guard.ready()
