"""A DiscordNotifier with no bot behind it, for tests that replace its requests with their own."""

from __future__ import annotations

from typing import Any
from unittest import mock

from bot.delivery.notify import DiscordNotifier


def offline_notifier() -> DiscordNotifier:
    """A notifier whose bot is a mock (never closed; `update_game` awaits nothing) that speaks English.
    The test sets the requests it wants to watch (`_public_channel`, `_open_table`, `_edit_table`, ...)."""
    bot = mock.MagicMock()
    bot.is_closed.return_value = False
    bot.table.db.update_game = mock.AsyncMock()
    notifier = DiscordNotifier(bot)

    async def server_language(game: Any) -> str:
        return "en"

    notifier._server_language = server_language  # type: ignore[method-assign]
    return notifier
