"""Which language a message is written in.

Private messages and ephemeral answers: the player's own Discord locale (kept on the seat so that
DMs sent later, after another player's move, use it too). Channel and thread messages: the server's
language set with `/game settings language`, else the server's preferred locale. Anything else: English.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord

from bot.texts import i18n
from storage import Database


class Languages:
    """The server languages, cached (one database read per server per process)."""

    def __init__(self, db: Database, preferred_locale: Callable[[int], Any]) -> None:
        self.db = db
        self.preferred_locale = preferred_locale  # guild id -> its preferred locale, when cached
        self._stored: dict[int, str | None] = {}

    async def server(self, guild_id: int | None, fallback_locale: Any = None) -> str:
        """The language of channel and thread messages in this server."""
        if guild_id is None:
            return i18n.language(fallback_locale)
        if guild_id not in self._stored:
            self._stored[guild_id] = await self.db.get_guild_language(guild_id)
        stored = self._stored[guild_id]
        if stored in i18n.LANGUAGES:
            return stored
        return i18n.language(fallback_locale or self.preferred_locale(guild_id))

    async def set_server(self, guild_id: int, language: str | None) -> None:
        await self.db.set_guild_language(guild_id, language)
        self._stored[guild_id] = language


def of_user(interaction: discord.Interaction[Any]) -> str:
    """The language of whoever made this interaction (their Discord client's locale)."""
    return i18n.language(interaction.locale)


async def of_server(interaction: discord.Interaction[Any]) -> str:
    """The language of the channel this interaction happened in (the user's own in a DM)."""
    bot: Any = interaction.client
    if interaction.guild_id is None:
        return of_user(interaction)
    languages: Languages = bot.languages
    return await languages.server(interaction.guild_id, interaction.guild_locale)
