"""Logging from settings: one line per event, as text or JSON, with every secret redacted.

Event fields travel in `extra=` (`log.info("game started", extra={"game_id": 3, "game": "eggs-empires"})`)
and come out as `key=value` pairs (text) or as keys of the JSON object. The `Redactor` filter sits on
the handler, so whatever any code logs (a message, its arguments, an event field, a traceback) passes
through it before it is written: the Discord token, passwords in database URLs, interaction and
webhook tokens never reach the output.

What is never logged in the first place: the choice of a secret decision and a player's private view
(hands, scouted eggs). The table service logs only ids, seats and kinds of decision; the library
loggers that print raw payloads at low levels (`QUIET_LOGGERS`) are kept above those levels whatever
LOG_LEVEL says.
"""

from __future__ import annotations

import json
import logging
import re
import sys
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import IO, TYPE_CHECKING, Any

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

if TYPE_CHECKING:
    from bot.ops.settings import Settings

REDACTED = "[redacted]"
WITHHELD = "[message withheld: it held a secret that could not be redacted]"

# Libraries whose low levels print raw payloads, kept at least this quiet whatever LOG_LEVEL says:
# discord.py's DEBUG lines hold request bodies (a DM's content is a player's hand) and gateway events
# (interaction tokens, the values of a secret choice); aiosqlite's DEBUG lines and SQLAlchemy's INFO
# lines hold SQL parameters (a game's whole state).
QUIET_LOGGERS = {
    "discord.http": logging.INFO,
    "discord.gateway": logging.INFO,
    "discord.webhook.async_": logging.INFO,
    "aiosqlite": logging.INFO,
    "sqlalchemy.engine": logging.WARNING,
}

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"

# The attributes every LogRecord has; anything else on a record came from `extra=` (an event field).
_STANDARD = frozenset(logging.LogRecord("", 0, "", 0, "", None, None).__dict__) | {"message", "asctime"}
_PLAIN = (int, float, bool, type(None))

_SCRUBBERS: tuple[tuple[re.Pattern[str], str], ...] = (
    # A Discord bot token: three base64url parts joined by dots (user id, timestamp, HMAC).
    (re.compile(r"[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]{20,}"), REDACTED),
    # An Authorization header value, whatever the token looks like.
    (re.compile(r"\b(Bot|Bearer)\s+[A-Za-z0-9._~+/=-]{8,}"), r"\1 " + REDACTED),
    # Interaction tokens are base64 of "interaction:...".
    (re.compile(r"aW50ZXJhY3Rpb246[A-Za-z0-9_=-]*"), REDACTED),
    # The token in interaction callback and webhook (followup) paths: /interactions/ID/TOKEN, /webhooks/ID/TOKEN.
    (re.compile(r"(\b(?:interactions|webhooks)/\d+/)[^/\s?#'\"]+"), r"\1" + REDACTED),
    # The password of a URL: scheme://user:password@host.
    (re.compile(r"([a-zA-Z][a-zA-Z0-9+.-]*://[^:/@\s'\"]*:)[^@\s'\"]+(@)"), r"\1" + REDACTED + r"\2"),
    # `token=...`, "token": "...", interaction_token='...' (payloads, reprs, query strings).
    (re.compile(r"(\b\w*token['\"]?\s*[:=]\s*['\"]?)[^'\"\s,;&)}\]]+", re.IGNORECASE), r"\1" + REDACTED),
)


class Redactor(logging.Filter):
    """Rewrites each record so that no secret is left in its message, event fields or traceback.

    `secrets` are literal values to remove wherever they appear (the configured Discord token and
    database password); the patterns catch the shapes of secrets the bot never configured itself
    (interaction tokens, webhook URLs, other URLs with a password).
    """

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        # Longest first, so that a secret containing another is removed whole.
        self.secrets = sorted({s for s in secrets if s and len(s) >= 4}, key=len, reverse=True)

    def redact(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, REDACTED)
        for pattern, replacement in _SCRUBBERS:
            text = pattern.sub(replacement, text)
        if any(secret in text for secret in self.secrets):
            # A replacement made a secret reappear across its edges: say nothing rather than leak.
            return WITHHELD
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # bad %-arguments: keep what can be said, never raise from logging
            message = f"{record.msg!r} (unformattable arguments)"
        record.msg = self.redact(message)
        record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        for key, value in list(record.__dict__.items()):
            if key not in _STANDARD and not isinstance(value, _PLAIN):
                record.__dict__[key] = self.redact(value if isinstance(value, str) else repr(value))
        return True


def event_fields(record: logging.LogRecord) -> dict[str, Any]:
    """The record's event fields (what came in `extra=`), in the order they were given."""
    return {k: v for k, v in record.__dict__.items() if k not in _STANDARD and not k.startswith("_")}


def _one_line(text: str) -> str:
    return text.replace("\r", "\\r").replace("\n", "\\n")


class TextFormatter(logging.Formatter):
    """`time LEVEL logger: message key=value ...` on one line (a traceback's newlines become \\n)."""

    def __init__(self) -> None:
        super().__init__(TEXT_FORMAT)

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        fields = " ".join(f"{k}={v}" for k, v in event_fields(record).items())
        return _one_line(f"{line} {fields}" if fields else line)


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time (UTC, ISO 8601), level, logger, message, event fields, exc."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in event_fields(record).items():
            entry.setdefault(key, value)
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            entry["exc"] = record.exc_text
        if record.stack_info:
            entry["stack"] = record.stack_info
        return json.dumps(entry, ensure_ascii=False, default=str)


def configured_secrets(settings: Settings) -> list[str]:
    """The secrets this process knows by value: the Discord token and the database password."""
    secrets: list[str] = []
    if settings.discord_token is not None:
        secrets.append(settings.discord_token.get_secret_value())
    try:
        password = make_url(settings.database_url).password
    except ArgumentError:
        password = None
    if password:
        secrets.append(str(password))
    return secrets


def make_handler(log_format: str, secrets: Iterable[str] = (), stream: IO[str] | None = None) -> logging.Handler:
    handler = logging.StreamHandler(stream if stream is not None else sys.stderr)
    handler.addFilter(Redactor(secrets))
    handler.setFormatter(JsonFormatter() if log_format == "json" else TextFormatter())
    return handler


def configure_logging(settings: Settings, stream: IO[str] | None = None) -> logging.Handler:
    """Replace the root logger's handlers with one redacting handler in the configured format."""
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    handler = make_handler(settings.log_format, configured_secrets(settings), stream)
    root.addHandler(handler)
    level = logging.getLevelName(settings.log_level.strip().upper())
    unknown = not isinstance(level, int)
    root.setLevel(logging.INFO if unknown else level)
    for name, quietest in QUIET_LOGGERS.items():
        logging.getLogger(name).setLevel(max(root.level, quietest))
    if unknown:
        logging.getLogger(__name__).warning(
            "LOG_LEVEL %r is not a level (DEBUG, INFO, WARNING, ERROR): using INFO", settings.log_level
        )
    return handler
