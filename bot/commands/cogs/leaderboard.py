"""`/leaderboard`, `/stats` and `/history`: thin adapters over the builders of bot.messages.leaderboards.

Answers are ephemeral (only the caller sees them, unless /leaderboard is made public) and speak the
caller's language. Page buttons (bot.messages.components.LeaderboardPage) carry ids only (`lbd:GAME_KEY:SCOPE:PAGE`,
scope `s` for this server or `g` for global); the server comes from the interaction, so they keep working
after a restart and nobody can read another server's board by forging an id.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

import games
from bot.commands import handlers
from bot.commands.cogs.game import GAME_CHOICES
from bot.messages.leaderboards import board_message, board_scope, history_message, stats_message
from bot.texts import text_stats as ts
from bot.texts.languages import of_user
from bot.transport import answer as answering

if TYPE_CHECKING:
    from bot.app.client import TableBot

SCOPE_CHOICES = [
    app_commands.Choice(name=app_commands.locale_str(ts.SCOPE_SERVER), value="server"),
    app_commands.Choice(name=app_commands.locale_str(ts.SCOPE_GLOBAL), value="global"),
]


class LeaderboardCog(commands.Cog):
    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @app_commands.command(
        name=ts.CMD_LEADERBOARD, description=ts.CMD_LEADERBOARD_HELP, extras={answering.PUBLIC_OPTION: "public"}
    )
    @app_commands.rename(game=ts.OPT_GAME, scope=ts.OPT_SCOPE, public=ts.OPT_PUBLIC)
    @app_commands.describe(game=ts.OPT_GAME_HELP, scope=ts.OPT_SCOPE_HELP, public=ts.OPT_PUBLIC_HELP)
    @app_commands.choices(game=GAME_CHOICES, scope=SCOPE_CHOICES)
    async def leaderboard(
        self, interaction: discord.Interaction[Any], game: str, scope: str = "server", public: bool = False
    ) -> None:
        lang = of_user(interaction)
        if game not in games.keys():
            await handlers.malformed(interaction)
            return
        code = "g" if scope == "global" else "s"
        answer = await board_message(
            self.bot.db, board_scope(interaction.guild_id, code), code, game, interaction.user.id, 0, lang
        )
        # Posted for the channel: its page buttons turn the pages for whoever clicks (each click answers
        # with that page for the channel, in the clicker's language).
        await answering.send(interaction, **answer.send_kwargs(), ephemeral=not public)

    @app_commands.command(name=ts.CMD_STATS, description=ts.CMD_STATS_HELP)
    @app_commands.rename(user=ts.OPT_USER)
    @app_commands.describe(user=ts.OPT_USER_HELP)
    async def stats(self, interaction: discord.Interaction[Any], user: discord.User | None = None) -> None:
        target = user or interaction.user
        answer = await stats_message(
            self.bot.db,
            interaction.guild_id,
            target.id,
            handlers.display_name(target),
            of_user(interaction),
            self_view=target.id == interaction.user.id,
        )
        await answering.send(interaction, **answer.send_kwargs(), ephemeral=True)

    @app_commands.command(name=ts.CMD_HISTORY, description=ts.CMD_HISTORY_HELP)
    @app_commands.rename(user=ts.OPT_USER)
    @app_commands.describe(user=ts.OPT_USER_HELP)
    async def history(self, interaction: discord.Interaction[Any], user: discord.User | None = None) -> None:
        target = user or interaction.user
        answer = await history_message(
            self.bot.db,
            interaction.guild_id,
            target.id,
            handlers.display_name(target),
            of_user(interaction),
            self_view=target.id == interaction.user.id,
        )
        await answering.send(interaction, **answer.send_kwargs(), ephemeral=True)


async def setup(bot: TableBot) -> None:
    await bot.add_cog(LeaderboardCog(bot))
