"""The renderer every game gets: a readable dump of its views, prompts as text, events as a log line."""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from types import MappingProxyType
from typing import Any

import discord
import orjson

from bot.texts import i18n, text
from games.core import Choice, Prompt
from games.text import format_event, format_view

log = logging.getLogger(__name__)

EMBED_DESCRIPTION_LIMIT = 4000
LOG_LIMIT = 1900
# Recent pictures kept per renderer, by size: a game's next picture is often the same as its last (the
# table and the deciding player's DM of one update; a decision that moves nothing drawn). In the bot's
# own process (pictures drawn in threads) a few, as its memory per game counts; a picture worker
# process, where with many games at once "recent" must reach back past the others' pictures, keeps
# more (bot.render.kit.pool sets WORKER_RECENT_PICTURE_BYTES there).
RECENT_PICTURE_BYTES = 512 << 10  # ~10 maps of Eight-Minute Empire
WORKER_RECENT_PICTURE_BYTES = 4 << 20  # ~85 maps, ~120 Reggverse boards
COLOUR = discord.Colour.dark_gold()


@dataclass(frozen=True)
class GuidePage:
    """One page of a game's guide (`/game rules`): a title and a body, both catalog msgids."""

    title: str
    body: str


@dataclass
class TableContext:
    """What a table or seat picture needs besides the view."""

    title: str
    game_id: int
    names: list[str]  # seat -> display name
    waiting: list[int]  # seats that must decide now
    deadline: datetime | None = None
    lang: str = i18n.DEFAULT  # the audience's language: the server's for the table, the player's for a DM

    def t(self, message: str, /, **params: Any) -> str:
        return i18n.t(self.lang, message, **params)

    def tn(self, forms: tuple[str, str], count: int, /, **params: Any) -> str:
        return i18n.tn(self.lang, forms, count, **params)

    def listing(self, items: Sequence[str]) -> str:
        return i18n.listing(self.lang, items)


def _said(value: Any) -> bytes:
    """`value` as canonical JSON (keys sorted): what a picture is kept by. orjson: a fifth of the
    standard library's CPU (0.03 ms instead of 0.15 for an Eight-Minute Empire seat's map, a tenth of
    drawing it); the standard library for what orjson refuses (an integer over 64 bits)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS, default=str)
    except orjson.JSONEncodeError:
        return json.dumps(value, sort_keys=True, default=str).encode()


def clip(value: str, limit: int) -> str:
    return value if len(value) <= limit else value[: limit - 1] + "…"


def relative_time(when: datetime) -> str:
    return f"<t:{int(when.timestamp())}:R>"


class Renderer:
    """Base class; subclasses override what they draw better than the generic dump."""

    key: str = ""
    progress_events: frozenset[str] = frozenset({"decided", "abandoned", "abandoned_afk"})  # not narrated
    # The game's guide for `/game rules` (its variants page is added from the engine's options), and what
    # each variant does, by option name (msgids; an option missing here shows the engine's English).
    guide: tuple[GuidePage, ...] = ()
    option_texts: Mapping[str, str] = MappingProxyType({})
    # Friendly names (msgids) of each variant, by option name, and of its values, by option name and the
    # value's text form (str(value)); a variant or value missing here is shown as the engine names it
    # (bools read "on"/"off"). Set at the end of each game's renderer module, like `option_texts`.
    option_names: Mapping[str, str] = MappingProxyType({})
    value_names: Mapping[str, Mapping[str, str]] = MappingProxyType({})
    # The result message (bot.messages.endings): the game's scoring categories, by key of the engine's outcome
    # "breakdown", in the order the rulebook scores them (msgids); and how the rules break a tie on
    # points (a msgid, None when tied players share the place).
    score_categories: Mapping[str, str] = MappingProxyType({})
    tie_break: str | None = None

    def __init__(self, key: str = "", image: Callable[[dict[str, Any]], bytes] | None = None) -> None:
        if key:
            self.key = key
        self._image = image
        self._recent: OrderedDict[bytes, bytes] = OrderedDict()  # digest of (language, view) -> picture
        self._recent_bytes = 0
        self._lock = threading.Lock()

    # --- public table ------------------------------------------------------------------------
    def table(self, view: dict[str, Any], ctx: TableContext) -> list[discord.Embed]:
        embed = discord.Embed(
            title=ctx.t(text.TABLE, title=ctx.title, game_id=ctx.game_id),
            colour=COLOUR,
            description=self.describe_public(view, ctx),
        )
        self.add_waiting(embed, ctx)
        return [embed]

    def animation(
        self,
        views: Sequence[dict[str, Any]],
        labels: Sequence[str],
        lang: str = i18n.DEFAULT,
        names: Sequence[str] = (),
    ) -> bytes | None:
        """The game as one animated picture: the public picture of each of `views` under its label (None
        when the game has no pictures). Seconds of CPU: drawn by `Pictures.animate`, on request only."""
        frames = [self.image(view, lang, names) for view in views]
        shown = [(frame, label) for frame, label in zip(frames, labels, strict=True) if frame is not None]
        if not shown:
            return None
        from bot.render.kit import animation  # Pillow's WebP encoder: loaded for the first animation only

        return animation.encode([f for f, _ in shown], [label for _, label in shown])

    def play_name(self, name: str, lang: str) -> str:
        """A play as /stats names it among a player's favourites, in `lang`: `name` is what the engine recorded
        (games.core.Game.play_names: its English label, or a prompt kind); by default said as recorded."""
        return name

    def scores(self, view: dict[str, Any]) -> Sequence[float] | None:
        """Each seat's score in this view (public or a seat's), for the description of its picture (a
        screen reader's first words after what is awaited); None when the game shows none."""
        return None

    def describe_public(self, view: dict[str, Any], ctx: TableContext) -> str:
        return "```\n" + clip(format_view(view), EMBED_DESCRIPTION_LIMIT - 10) + "\n```"

    def add_waiting(self, embed: discord.Embed, ctx: TableContext) -> None:
        if ctx.waiting:
            line = ctx.t(text.WAITING_FOR, names=ctx.listing([ctx.names[s] for s in ctx.waiting]))
            if ctx.deadline is not None:
                line += "\n" + ctx.t(text.DECIDE_BY, when=relative_time(ctx.deadline))
            embed.add_field(name="\u200b", value=clip(line, 1024), inline=False)

    def image(self, view: dict[str, Any], lang: str = i18n.DEFAULT, names: Sequence[str] = ()) -> bytes | None:
        """A picture of the public view, or None, with its words in `lang` and the players shown by their
        `names` (seat -> display name; a renderer falls back to "Player N" for a seat it has no name for).
        Failures are logged, never fatal.

        Recent pictures are kept by view (RECENT_PICTURE_BYTES): a decision's table edit and the
        deciding player's DM often show the same picture (10-20 ms to draw). Called from threads of the
        bot's process or in a picture worker process (bot.render.kit.pool), never on the event loop."""
        if not self.pictured():
            return None
        key = hashlib.blake2b(_said([lang, list(names), view]), digest_size=16).digest()
        with self._lock:
            if key in self._recent:
                self._recent.move_to_end(key)
                return self._recent[key]
        try:
            with i18n.picture_language(lang):  # the image functions take only the view and the names
                picture = self.draw(view, tuple(names))
        except Exception:
            log.exception("image renderer for %s failed", self.key)
            return None
        if picture is None:
            return None
        with self._lock:
            if key not in self._recent:
                self._recent[key] = picture
                self._recent_bytes += len(picture)
            while self._recent_bytes > RECENT_PICTURE_BYTES and len(self._recent) > 1:
                self._recent_bytes -= len(self._recent.popitem(last=False)[1])
        return picture

    def draw(self, view: dict[str, Any], names: tuple[str, ...]) -> bytes | None:
        """The picture itself (in the language set by `i18n.picture_language`); by default the module's
        image function, which takes the view only. Renderers that show names override this."""
        return self._image(view) if self._image is not None else None

    def seat_image(
        self, view: dict[str, Any], prompt: Prompt | None, lang: str = i18n.DEFAULT, names: Sequence[str] = ()
    ) -> bytes | None:
        """The picture in a seat's private message, drawn from that seat's view. By default the game's
        picture while the seat must decide (between its decisions the thread's table is the live one,
        and a private message is not edited then, so its picture would be out of date)."""
        return self.image(view, lang, names) if self.seat_pictured(prompt) else None

    # Asked before a picture is requested at all: a request that draws nothing still travels to a picture
    # worker and back, and waits its turn there behind the pictures that are drawn.
    def pictured(self) -> bool:
        """Whether this game's table has a picture (`image` may draw one)."""
        return self._image is not None

    def seat_pictured(self, prompt: Prompt | None) -> bool:
        """Whether a seat's private message with this prompt has a picture (`seat_image` may draw one)."""
        return self.pictured() and prompt is not None

    # --- a seat's private message ------------------------------------------------------------
    def seat(self, view: dict[str, Any], prompt: Prompt | None, ctx: TableContext, seat: int) -> discord.Embed:
        embed = discord.Embed(
            title=ctx.t(text.YOUR_VIEW, name=ctx.names[seat]),
            colour=COLOUR,
            description=self.describe_private(view, ctx, seat),
        )
        embed.add_field(name="\u200b", value=clip(self.prompt_line(prompt, ctx), 1024), inline=False)
        return embed

    def describe_private(self, view: dict[str, Any], ctx: TableContext, seat: int) -> str:
        return "```\n" + clip(format_view(view), EMBED_DESCRIPTION_LIMIT - 10) + "\n```"

    def prompt_line(self, prompt: Prompt | None, ctx: TableContext) -> str:
        if prompt is None:
            return ctx.t(text.NO_DECISION)
        line = f"**{self.prompt_text(prompt, ctx)}**"
        if ctx.deadline is not None:
            line += "\n" + ctx.t(text.DECIDE_BY, when=relative_time(ctx.deadline))
        return line

    def prompt_text(self, prompt: Prompt, ctx: TableContext) -> str:
        """The question in the reader's language; games override it by prompt kind."""
        return i18n.t(ctx.lang, prompt.text) if prompt.text else prompt.kind

    def choice_label(self, prompt: Prompt, choice: Choice, ctx: TableContext) -> str:
        """A choice's label in the reader's language, by prompt kind and choice id; the engine's
        label when the game has no translation for it (e.g. map region names)."""
        return i18n.t(ctx.lang, choice.label)

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
