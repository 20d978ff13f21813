"""The command tree: every slash command is answered, in time, even one discord.py cannot run.

Commands Discord knows but this code does not (an old sync: unknown command, different options,
option values that do not convert) reach `on_error` before any command runs: the user hears that
the command is out of date and nothing changed. A failure inside a command is a bug: it is logged
as an error (with its traceback) and the user is told that nothing was changed.
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

import discord
from discord import app_commands

from bot.texts import i18n, text
from bot.texts.languages import of_user
from bot.transport import answer

COMMANDS_DIGEST = "commands-digest"  # bot_state key: the digest of the commands last pushed to Discord

log = logging.getLogger(__name__)

# Raised while matching the request to the code, before a command runs: the request is at fault.
OUT_OF_DATE = (app_commands.CommandNotFound, app_commands.CommandSignatureMismatch, app_commands.TransformerError)


def _options(data: Any) -> list[dict[str, Any]]:
    """The value options of a command payload (inside its subcommand and group, if any)."""
    found: list[dict[str, Any]] = []
    for option in (data or {}).get("options") or []:
        if option.get("type") in (1, 2):  # a subcommand or a group: its own options
            found += _options(option)
        else:
            found.append(option)
    return found


class TableTree(app_commands.CommandTree[Any]):
    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """An option whose type is not the one the code declares comes from an out-of-date registration
        (discord.py would pass the value through unconverted): answer it before the command runs."""
        command = interaction.command
        if not isinstance(command, app_commands.Command):
            return True
        declared = {p.display_name: p.type.value for p in command.parameters}
        for option in _options(interaction.data):
            expected = declared.get(str(option.get("name")))
            if expected is not None and option.get("type") != expected:
                log.warning(
                    "option %r of /%s arrived as type %r",
                    option.get("name"),
                    command.qualified_name,
                    option.get("type"),
                )
                await interaction.response.send_message(
                    i18n.t(of_user(interaction), text.COMMAND_OUT_OF_DATE), ephemeral=True
                )
                return False
        # From here the command runs: if its work stalls (the database), Discord still hears in time.
        # (Autocomplete passes here too, and cannot be deferred.)
        if interaction.type is discord.InteractionType.application_command:
            public = bool(command.extras.get(answer.PUBLIC, False))
            chooser = command.extras.get(answer.PUBLIC_OPTION)
            if isinstance(chooser, str):  # the caller chose (e.g. `/leaderboard public: true`)
                public = bool(getattr(interaction.namespace, chooser, False))
            answer.guard(interaction, ephemeral=not public)
        return True

    async def on_error(self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError, /) -> None:
        if isinstance(error, OUT_OF_DATE):
            log.warning("a command the code cannot run: %s", error)
            message = text.COMMAND_OUT_OF_DATE
        else:
            log.error("command %r failed", getattr(interaction.command, "qualified_name", None), exc_info=error)
            message = text.SOMETHING_WRONG
        reply = i18n.t(of_user(interaction), message)
        try:
            await answer.send(interaction, reply, ephemeral=True)
        except discord.HTTPException:
            log.warning("could not answer a failed command")


def commands_digest(tree: app_commands.CommandTree[Any], guild: discord.abc.Snowflake | None, application: int) -> str:
    """What a sync would push, as a digest: the commands (untranslated), their translations' catalogs,
    where they go (the application, the guild or everywhere) and discord.py's version (its payload format).
    Equal digests: the push would change nothing, so a start-up need not make it (nor read the catalogs)."""
    found = hashlib.sha256()
    commands = [command.to_dict(tree) for command in tree.get_commands(guild=guild)]
    where = {"application": application, "guild": None if guild is None else guild.id, "discord": discord.__version__}
    found.update(json.dumps([where, commands], sort_keys=True, default=str).encode())
    for lang in i18n.LANGUAGES:
        path = i18n.po_path(lang)
        found.update(path.read_bytes() if path.exists() else b"")
    return found.hexdigest()
