"""The background task that runs reminders and AFK deadlines (deadlines live in the database)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands, tasks

from bot.messages import present
from bot.texts import i18n, text
from table.timers import DUE_PER_TICK

if TYPE_CHECKING:
    from bot.app.client import TableBot

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
            await self.bot.table.tick(DUE_PER_TICK)
            await close_expired_lobbies(self.bot)
            await self.bot.tournaments.tick()  # starts those whose time came; rounds go on (after a restart too)
        except Exception:  # the loop must survive a database hiccup
            log.exception("timer tick failed")


async def close_expired_lobbies(bot: TableBot) -> int:
    """Close the lobbies nobody started within the hour, each message saying so; how many were closed."""
    closed = await bot.table.expire_lobbies()
    for row in closed:
        if row.lobby_message_id is None:
            continue
        lang = await bot.languages.server(row.guild_id)
        message = present.closed_lobby(i18n.t(lang, text.LOBBY_EXPIRED))
        partial = bot.get_partial_messageable(row.channel_id).get_partial_message(row.lobby_message_id)
        try:
            await partial.edit(**message.edit_kwargs())
        except discord.HTTPException:
            log.warning("the expired lobby %s could not say so", row.id)
    return len(closed)
