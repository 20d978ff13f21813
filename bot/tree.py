"""The command tree: a slash command discord.py cannot run still gets an answer.

Commands Discord knows but this code does not (an old sync: unknown command, different options,
option values that do not convert) reach `on_error` before any command runs: the user hears that
the command is out of date and nothing changed. A failure inside a command is a bug: it is logged
as an error (with its traceback) and the user is told that nothing was changed.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot import i18n, text
from bot.languages import of_user

log = logging.getLogger(__name__)

# Raised while matching the request to the code, before a command runs: the request is at fault.
OUT_OF_DATE = (app_commands.CommandNotFound, app_commands.CommandSignatureMismatch, app_commands.TransformerError)


class TableTree(app_commands.CommandTree[Any]):
    async def on_error(self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError, /) -> None:
        if isinstance(error, OUT_OF_DATE):
            log.warning("a command the code cannot run: %s", error)
            message = text.COMMAND_OUT_OF_DATE
        else:
            log.error("command %r failed", getattr(interaction.command, "qualified_name", None), exc_info=error)
            message = text.SOMETHING_WRONG
        reply = i18n.t(of_user(interaction), message)
        try:
            if interaction.response.is_done():
                await interaction.followup.send(reply, ephemeral=True)
            else:
                await interaction.response.send_message(reply, ephemeral=True)
        except discord.HTTPException:
            log.warning("could not answer a failed command")
