"""Discord's ordinary refusals, named once: what a busy bot meets every day and handles with a warning;
and the failures that pass by themselves (`transient`), worth the same request again later.

A message deleted meanwhile, a channel or thread gone or archived, a permission the server did not grant,
a player whose DMs are closed, an interaction's token past its 15 minutes or answered already: each is
part of the game's normal life, not a fault of the bot. What is not in this list (an invalid form body,
an unexpected status) is a bug and is logged as an error, with its traceback.
"""

from __future__ import annotations

import aiohttp
import discord

from storage import DatabaseUnavailable

UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
UNKNOWN_WEBHOOK = 10015
UNKNOWN_INTERACTION = 10062
ALREADY_ACKNOWLEDGED = 40060
MISSING_ACCESS = 50001
CANNOT_DM = 50007
MISSING_PERMISSIONS = 50013
INVALID_WEBHOOK_TOKEN = 50027
THREAD_ARCHIVED = 50083
ORDINARY = frozenset(
    {
        UNKNOWN_CHANNEL,
        UNKNOWN_MESSAGE,
        UNKNOWN_WEBHOOK,
        UNKNOWN_INTERACTION,
        ALREADY_ACKNOWLEDGED,
        MISSING_ACCESS,
        CANNOT_DM,
        MISSING_PERMISSIONS,
        INVALID_WEBHOOK_TOKEN,
        THREAD_ARCHIVED,
    }
)
GONE = frozenset({UNKNOWN_MESSAGE, UNKNOWN_CHANNEL})  # the message (or its channel) no longer exists


def ordinary(error: BaseException) -> bool:
    """Discord refused the request for one of its everyday reasons (ORDINARY)."""
    return isinstance(error, discord.HTTPException) and error.code in ORDINARY


def gone(error: BaseException) -> bool:
    """Discord refused the request because its message (or channel) was deleted meanwhile."""
    return isinstance(error, discord.HTTPException) and error.code in GONE


def described(error: BaseException) -> str:
    """One line for the log: Discord's status, code and message."""
    if isinstance(error, discord.HTTPException):
        return f"{error.status} {error.code} {error.text}"
    return repr(error)


def transient(error: BaseException) -> bool:
    """A failure that may pass by itself: worth retrying the same request later."""
    if isinstance(error, discord.HTTPException):
        return error.status == 429 or error.status >= 500
    return isinstance(error, DatabaseUnavailable | discord.RateLimited | TimeoutError | aiohttp.ClientError | OSError)
