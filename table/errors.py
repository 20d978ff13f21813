"""What the table service refuses, and why: errors whose messages are catalog msgids (table.messages)."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Coroutine
from typing import Any, ParamSpec, TypeVar

from storage import DatabaseUnavailable
from table import messages

log = logging.getLogger(__name__)

P = ParamSpec("P")
R = TypeVar("R")

ECHO_LIMIT = 30  # characters of a user's own input quoted back in a refusal


def echo(value: Any) -> str:
    """User input quoted back in a refusal, cut short: a refusal stays one readable sentence."""
    shown = str(value)
    return shown if len(shown) <= ECHO_LIMIT else shown[: ECHO_LIMIT - 1] + "…"


class Unacknowledged(Exception):
    """The transport could not answer the player for an ordinary reason it names (the message clicked was
    replaced meanwhile, the interaction's token died): what they decided stands, and their own message is
    refreshed by the notifier instead of by the answer. A warning, not an error."""


class TableError(Exception):
    """A request the table refuses; the message is meant for the user who made it.

    It carries a catalog msgid (or an `NN_` plural pair, counted by `count`) and its parameters,
    so the transport can say it in the reader's language (bot.texts.i18n.refusal); str() is the English.
    `from_rules` marks a message written by a game engine or option parser (English only): other
    languages get it inside a translated sentence.
    """

    def __init__(self, message: str | tuple[str, str], /, *, from_rules: bool = False, **params: Any) -> None:
        self.message = message
        self.params = params
        self.from_rules = from_rules
        super().__init__(self.english())

    def english(self) -> str:
        """The message in English: the msgid itself, filled in (a plural pair by its `count`)."""
        if isinstance(self.message, tuple):
            count = int(self.params["count"])
            return self.message[0 if count == 1 else 1].format(**self.params)
        if self.from_rules:
            return self.message
        return self.message.format(**self.params)


class Stale(TableError):
    """A button from an older state of the game: nothing was changed."""


class Unavailable(TableError):
    """The database could not be reached: nothing was changed, the user may try again in a moment."""


class CatchingUp(TableError):
    """The request was committed but what follows (AI turns, the table) waits for the database;
    the table service resumes it by itself."""


def storage_errors_said(method: Callable[P, Coroutine[Any, Any, R]]) -> Callable[P, Coroutine[Any, Any, R]]:
    """A public table method: a database that cannot be reached becomes a polite `Unavailable`."""

    @functools.wraps(method)
    async def guarded(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return await method(*args, **kwargs)
        except DatabaseUnavailable as error:
            log.warning("database unavailable in %s: %s", method.__name__, error)
            raise Unavailable(messages.TRY_AGAIN_SOON) from error

    return guarded
