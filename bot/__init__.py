"""The Discord side: cogs, views, renderers and the table service that drives the games."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.app.client import TableBot
    from bot.ops.settings import Settings

__all__ = ["create_bot"]


def create_bot(settings: Settings) -> TableBot:
    """Build the bot without connecting; the database opens in `setup_hook` (at login)."""
    from bot.app.client import TableBot

    return TableBot(settings)
