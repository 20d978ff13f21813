"""The renderer every game gets: a readable dump of its views, prompts as text, events as a log line."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import discord

from bot import text
from games.core import Prompt
from games.text import format_event, format_view

log = logging.getLogger(__name__)

EMBED_DESCRIPTION_LIMIT = 4000
LOG_LIMIT = 1900
COLOUR = discord.Colour.dark_gold()


@dataclass
class TableContext:
    """What a table or seat picture needs besides the view."""

    title: str
    game_id: int
    names: list[str]  # seat -> display name
    waiting: list[int]  # seats that must decide now
    deadline: datetime | None = None


def clip(value: str, limit: int) -> str:
    return value if len(value) <= limit else value[: limit - 1] + "…"


def relative_time(when: datetime) -> str:
    return f"<t:{int(when.timestamp())}:R>"


class Renderer:
    """Base class; subclasses override what they draw better than the generic dump."""

    key: str = ""
    progress_events: frozenset[str] = frozenset({"decided", "abandoned", "abandoned_afk"})  # not narrated

    def __init__(self, key: str = "", image: Callable[[dict[str, Any]], bytes] | None = None) -> None:
        if key:
            self.key = key
        self._image = image

    # --- public table ------------------------------------------------------------------------
    def table(self, view: dict[str, Any], ctx: TableContext) -> list[discord.Embed]:
        embed = discord.Embed(title=text.TABLE.format(title=ctx.title, game_id=ctx.game_id), colour=COLOUR,
                              description=self.describe_public(view, ctx))
        self.add_waiting(embed, ctx)
        return [embed]

    def describe_public(self, view: dict[str, Any], ctx: TableContext) -> str:
        return "```\n" + clip(format_view(view), EMBED_DESCRIPTION_LIMIT - 10) + "\n```"

    def add_waiting(self, embed: discord.Embed, ctx: TableContext) -> None:
        if ctx.waiting:
            names = ", ".join(ctx.names[s] for s in ctx.waiting)
            line = text.WAITING_FOR.format(names=names)
            if ctx.deadline is not None:
                line += "\n" + text.DECIDE_BY.format(when=relative_time(ctx.deadline))
            embed.add_field(name="\u200b", value=clip(line, 1024), inline=False)

    def image(self, view: dict[str, Any]) -> bytes | None:
        """A picture of the public view, or None. Failures are logged, never fatal."""
        if self._image is None:
            return None
        try:
            return self._image(view)
        except Exception:
            log.exception("image renderer for %s failed", self.key)
            return None

    # --- a seat's private message ------------------------------------------------------------
    def seat(self, view: dict[str, Any], prompt: Prompt | None, ctx: TableContext, seat: int) -> discord.Embed:
        embed = discord.Embed(title=text.YOUR_VIEW.format(name=ctx.names[seat], seat=seat + 1), colour=COLOUR,
                              description=self.describe_private(view, ctx, seat))
        embed.add_field(name="\u200b", value=clip(self.prompt_line(prompt, ctx), 1024), inline=False)
        return embed

    def describe_private(self, view: dict[str, Any], ctx: TableContext, seat: int) -> str:
        return "```\n" + clip(format_view(view), EMBED_DESCRIPTION_LIMIT - 10) + "\n```"

    def prompt_line(self, prompt: Prompt | None, ctx: TableContext) -> str:
        if prompt is None:
            return text.NO_DECISION
        line = f"**{prompt.text or prompt.kind}**"
        if ctx.deadline is not None:
            line += "\n" + text.DECIDE_BY.format(when=relative_time(ctx.deadline))
        return line

    # --- the log -----------------------------------------------------------------------------
    def log_line(self, events: Sequence[dict[str, Any]], ctx: TableContext) -> str | None:
        """One short message for a resolved turn (public events only), or None if nothing to say."""
        lines = [self.event_line(e, ctx) for e in events if e.get("type") not in self.progress_events]
        shown = [line for line in lines if line]
        return clip("\n".join(shown), LOG_LIMIT) if shown else None

    def event_line(self, event: dict[str, Any], ctx: TableContext) -> str:
        return format_event(event)


class GenericRenderer(Renderer):
    """Works for any game from its views and prompts alone."""
