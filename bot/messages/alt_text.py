"""A picture's description (its alt text): what a screen reader announces, and Discord shows on hover.

Every picture the bot sends stands beside an embed that says the same in words (the table, a seat's hand,
a result, a rating chart), in the reader's language: the description is that text, plain, with what matters
first. First the line saying what is awaited: on the table whose turn it is ("Waiting for: ..."), on a
player's own picture the question put to them. Then the embed's title and description (a seat's hand and
tiles are there), then its fields (the players and their scores), the log of recent turns last. It is cut to
Discord's 1,024 characters. Markdown marks, mentions and the status emoji the embed shows (the description
already says who is awaited) are left out: a screen reader would spell them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

import discord

from bot.texts import i18n, text

LIMIT = 1024  # characters of an attachment's description (Discord)
ZERO_WIDTH = "\u200b"  # the name of the field that carries what is awaited (bot.render.kit.generic.add_waiting)
_MARKS = re.compile(r"\*\*|__|~~|\|\||```|`|<@!?\d+>|<#\d+>|[⏳✅]\ufe0f?")
_SPACES = re.compile(r"[ \t]+")


def describe(embeds: Sequence[discord.Embed], content: str | None = None, lead: Sequence[str] = ()) -> str:
    """The description of the picture shown with `embeds` (and `content`): plain sentences, what is awaited
    first, then `lead` (the scores), within Discord's limit."""
    parts = [*_awaited(embeds), *lead, *_rest(embeds), *([content] if content else [])]
    lines = [line for part in parts for line in (_plain(piece) for piece in part.split("\n")) if line]
    return _clip(" ".join(_sentence(line) for line in lines))


def scores_line(lang: str, names: Sequence[str], scores: Sequence[float] | None) -> list[str]:
    """ "Scores: Ann 12, Ben 9.": every seat's score, by name (nothing when the game shows none)."""
    if not scores:
        return []
    each = [f"{name} {i18n.number(lang, score)}" for name, score in zip(names, scores, strict=False)]
    return [i18n.t(lang, text.ALT_SCORES, scores=", ".join(each))]


def _sentence(line: str) -> str:
    line = line.rstrip(" :")
    return line if line.endswith((".", "?", "!", "…")) else line + "."


def _awaited(embeds: Sequence[discord.Embed]) -> Iterator[str]:
    for embed in embeds:
        for field in embed.fields:
            if field.name in (ZERO_WIDTH, None, "") and field.value:
                yield field.value


def _rest(embeds: Sequence[discord.Embed]) -> Iterator[str]:
    for embed in embeds:
        if embed.title:
            yield embed.title
        if embed.description:
            yield embed.description
        for field in embed.fields:
            if field.name in (ZERO_WIDTH, None, ""):
                continue
            yield f"{field.name}: {field.value}" if field.value else str(field.name)
        if embed.footer and embed.footer.text:
            yield embed.footer.text


def _plain(text: str) -> str:
    return _SPACES.sub(" ", _MARKS.sub("", text)).strip(" ·-")


def _clip(text: str) -> str:
    if len(text) <= LIMIT:
        return text
    cut = text[: LIMIT - 1]
    return cut[: cut.rfind(" ")] + "…" if " " in cut else cut + "…"
