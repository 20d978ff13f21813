"""Pictures and embeds: turn a game's views into what Discord shows (an embed, and a picture where the game
has one).

One package per game, named as its package under games/ (`games/reggverse` -> `bot/render/reggverse/`),
whose `__init__` is the renderer (it exposes `RENDERER`, a `Renderer` whose `key` is the game's key) and
whose modules beside it draw its pictures; `kit/` is what they all share (palette, fonts, the phone-width
layout, the picture workers) and the generic renderer, which shows every view as text, so a game without a
renderer of its own still plays. The game packages never import each other. `renderer_for(game_key)`
finds a game's renderer. Renderers read only the views the engine gives for the audience at hand: that is
what keeps hidden information hidden.
"""

from __future__ import annotations

import importlib
import importlib.util
import logging

import games
from bot.render.kit.generic import GenericRenderer, Renderer

__all__ = ["GenericRenderer", "Renderer", "renderer_for", "renderer_modules"]

log = logging.getLogger(__name__)

_renderers: dict[str, Renderer] = {}


def renderer_modules() -> list[str]:
    """The module names of the registered games' own renderers (those that exist)."""
    names = []
    for key in games.keys():
        name = f"{__name__}.{games.package(key)}"
        if importlib.util.find_spec(name) is not None:
            names.append(name)
    return names


def renderer_for(game_key: str) -> Renderer:
    """The game's own renderer, or the generic one; KeyError for a game that is not registered."""
    found = _renderers.get(game_key)
    if found is None:
        found = GenericRenderer(game_key)
        name = f"{__name__}.{games.package(game_key)}"
        if importlib.util.find_spec(name) is not None:
            try:
                renderer = getattr(importlib.import_module(name), "RENDERER", None)
            except Exception:  # a broken renderer must not take the bot down: the game plays as text
                log.exception("renderer module %s failed to import", name)
                renderer = None
            if isinstance(renderer, Renderer) and renderer.key == game_key:
                found = renderer
        _renderers[game_key] = found
    return found
