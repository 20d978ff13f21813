"""Renderers: turn a game's views into Discord embeds (and optional pictures).

A game's renderer is the module `bot.render.<game package name>` (the name of its package under
games/, e.g. `games/reggverse` -> `bot/render/reggverse.py`) that exposes `RENDERER`, a `Renderer`
whose `key` is the game's key. `renderer_for(game_key)` finds it; any game without one gets the
generic renderer, which shows every view as text, so a game with no renderer still plays.
Renderers read only the views the engine gives for the audience at hand: that is what keeps hidden
information hidden.
"""

from __future__ import annotations

import importlib
import importlib.util
import logging

import games
from bot.render.generic import GenericRenderer, Renderer

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
