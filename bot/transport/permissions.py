"""What the bot needs in a channel where games are played, what goes missing without each permission, and the
invite link that grants them all.

A lobby opens in a channel through a slash command, whose interaction tells the bot its own permissions
there (`Interaction.app_permissions`). The lobby itself is an interaction's answer and needs none; what
follows does (the game's thread, its table, pictures, pins, the thread's end), so the host is told at once,
in their language, which permissions are missing and what will not work, instead of finding out later.
"""

from __future__ import annotations

import base64
import binascii

import discord

from bot.texts import i18n
from bot.texts.i18n import N_

# Each permission the table uses, with what a game loses without it (in the order a game needs them).
NEEDED: tuple[tuple[str, str], ...] = (
    ("view_channel", N_("I cannot see this channel: nothing of the game can be posted here.")),
    ("send_messages", N_("I cannot post in this channel: without a thread the table cannot be shown.")),
    ("embed_links", N_("The table, its turns and the result are embeds: they cannot be posted.")),
    ("attach_files", N_("The pictures of the board cannot be shown.")),
    ("create_public_threads", N_("The game cannot have its own thread: it plays in this channel.")),
    ("send_messages_in_threads", N_("Nothing can be posted in the game's thread, nor its players added to it.")),
    ("manage_threads", N_("The game's thread cannot be locked when it ends (it is archived only).")),
    ("pin_messages", N_("The table cannot be pinned in its thread.")),
)
# Discord's own names of the permissions, as its server settings show them.
LABELS = {
    "view_channel": N_("View Channel"),
    "send_messages": N_("Send Messages"),
    "embed_links": N_("Embed Links"),
    "attach_files": N_("Attach Files"),
    "create_public_threads": N_("Create Public Threads"),
    "send_messages_in_threads": N_("Send Messages in Threads"),
    "manage_threads": N_("Manage Threads"),
    "pin_messages": N_("Pin Messages"),
}
MISSING_HEAD = N_("I am missing permissions in this channel, so part of the game will not work:")
MISSING_TAIL = N_("A server admin can give them to me in this channel's settings, under Permissions.")
SCOPES = ("bot", "applications.commands")


def required() -> discord.Permissions:
    """Every permission the table uses: what the invite link asks for."""
    return discord.Permissions(**dict.fromkeys((name for name, _ in NEEDED), True))


def missing(granted: discord.Permissions) -> list[str]:
    """The permissions of NEEDED that `granted` lacks, in NEEDED's order."""
    return [name for name, _ in NEEDED if not getattr(granted, name)]


def warning(lang: str, absent: list[str]) -> str:
    """What the host is told: each missing permission by Discord's name, and what it costs the game."""
    consequences = dict(NEEDED)
    lines = [i18n.t(lang, MISSING_HEAD)]
    lines += [f"- **{i18n.t(lang, LABELS[name])}**: {i18n.t(lang, consequences[name])}" for name in absent]
    lines.append(i18n.t(lang, MISSING_TAIL))
    return "\n".join(lines)


def application_id_of(token: str) -> int | None:
    """The application (bot user) id a bot token starts with (its first part is the id in base64); None
    when the token does not have that shape."""
    first = token.split(".", 1)[0]
    try:
        decoded = base64.b64decode(first + "=" * (-len(first) % 4), validate=True).decode("ascii")
    except (binascii.Error, UnicodeDecodeError):
        return None
    return int(decoded) if decoded.isdigit() else None


def invite_url(application_id: int) -> str:
    """The link that adds the bot to a server with its slash commands and every permission in NEEDED."""
    return discord.utils.oauth_url(application_id, permissions=required(), scopes=SCOPES)
