"""The background task that runs reminders and AFK deadlines (deadlines live in the database)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from discord.ext import commands, tasks

if TYPE_CHECKING:
    from bot.client import TableBot

log = logging.getLogger(__name__)


class TimerCog(commands.Cog):
    def __init__(self, bot: TableBot, interval: float) -> None:
        self.bot = bot
        self.interval = interval
        self.loop = tasks.loop(seconds=interval)(self._tick)

    async def cog_load(self) -> None:
        if self.interval > 0:
            self.loop.start()

    async def cog_unload(self) -> None:
        self.loop.cancel()

    async def _tick(self) -> None:
        try:
            await self.bot.table.tick()
        except Exception:  # the loop must survive a database hiccup
            log.exception("timer tick failed")
