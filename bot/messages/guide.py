"""The game guides of `/game rules` and the lobby's variant descriptions, in the reader's language.

Each game's renderer carries its guide (a few pages of summary) and what its variants do
(`Renderer.guide`, `Renderer.option_texts`); the last page lists the variants the lobby can switch
on, from the engine's options (an option its renderer does not describe shows the engine's English).
"""

from __future__ import annotations

from typing import Any

import discord

import games
from bot.messages.components import RulesButton
from bot.render import renderer_for
from bot.render.kit.generic import COLOUR, GuidePage, clip
from bot.texts import i18n, text
from bot.texts.i18n import NP_
from games.core import Option

VALUES = {True: NP_("option-value", "on"), False: NP_("option-value", "off")}


def option_description(game_key: str, option: Option, lang: str) -> str:
    message = renderer_for(game_key).option_texts.get(option.name)
    return i18n.t(lang, message) if message else option.description


def option_name(game_key: str, option: Option, lang: str) -> str:
    """A variant's friendly name ("Board layout"), or the engine's name when the renderer gives none."""
    message = renderer_for(game_key).option_names.get(option.name)
    return i18n.t(lang, message) if message else option.name


def option_value(value: Any, lang: str, game_key: str | None = None, option: Option | None = None) -> str:
    """A variant's value in words ("L shape", "on"); numbers and unnamed values as they are."""
    if game_key is not None and option is not None:
        message = renderer_for(game_key).value_names.get(option.name, {}).get(str(value))
        if message:
            return i18n.t(lang, message)
    if isinstance(value, bool):
        return i18n.tp(lang, "option-value", VALUES[value])
    return str(value)


def pages(game_key: str, lang: str) -> list[GuidePage]:
    """The summary pages in `lang`, then the variants page."""
    engine = games.get(game_key)
    shown = [GuidePage(i18n.t(lang, p.title), i18n.t(lang, p.body)) for p in renderer_for(game_key).guide]
    if engine.options:
        lines = [
            i18n.t(
                lang,
                text.RULES_VARIANT_LINE,
                name=option_name(game_key, o, lang),
                values=i18n.listing(lang, [option_value(v, lang, game_key, o) for v in o.values]),
                default=option_value(o.default, lang, game_key, o),
                description=option_description(game_key, o, lang),
            )
            for o in engine.options
        ]
        shown.append(GuidePage(i18n.t(lang, text.RULES_VARIANTS), "\n".join(lines)))
    else:
        shown.append(GuidePage(i18n.t(lang, text.RULES_VARIANTS), i18n.t(lang, text.RULES_NO_VARIANTS)))
    return shown


def page_message(game_key: str, page: int, lang: str) -> tuple[discord.Embed, discord.ui.View]:
    """One page as an embed, with Previous/Next buttons that carry the page they lead to."""

    engine = games.get(game_key)
    shown = pages(game_key, lang)
    page = max(0, min(page, len(shown) - 1))
    current = shown[page]
    players = i18n.t(lang, text.RULES_PLAYERS, low=engine.min_players, high=engine.max_players)
    embed = discord.Embed(
        title=clip(i18n.labelled(lang, engine.title, current.title), 256),
        colour=COLOUR,
        description=clip(current.body, 4000),
    )
    english_only = text.told_in(lang, engine.title, engine.languages)
    if english_only:  # on every page: a reader may page on before playing
        note = f"\n\n-# {english_only}"
        embed.description = clip(current.body, 4000 - len(note)) + note
    embed.set_footer(text=f"{players} · {i18n.t(lang, text.RULES_PAGE, page=page + 1, pages=len(shown))}")
    view = discord.ui.View(timeout=None)
    view.add_item(RulesButton(game_key, max(0, page - 1), label=i18n.t(lang, text.BUTTON_PREVIOUS), disabled=page == 0))
    view.add_item(
        RulesButton(game_key, page + 1, label=i18n.t(lang, text.BUTTON_NEXT), disabled=page == len(shown) - 1)
    )
    return embed, view
