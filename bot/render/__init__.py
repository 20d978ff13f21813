"""Renderers: turn a game's views into Discord embeds (and optional images).

`renderer_for(game_key)` finds the renderer of a game without a central list: every module of this
package is looked at once; a module that exposes `RENDERER` (a `Renderer` with `key`) serves that
game. A module that only offers an image function (`image`, `render_map`, `render_board` or
`render`, taking the public view and returning PNG bytes) adds a picture to the generic renderer of
the game whose key starts with the module's name (`reggverse` -> `reggverse-riddles`). Any other
game gets the generic renderer, which shows every view, so a game with no renderer still plays.
Renderers read only the views the engine gives for the audience at hand: that is what keeps hidden
information hidden.
"""

from __future__ import annotations

import importlib
import logging
import pkgutil
from collections.abc import Callable
from typing import Any

from bot.render.generic import GenericRenderer, Renderer

__all__ = ["GenericRenderer", "Renderer", "renderer_for"]

log = logging.getLogger(__name__)

IMAGE_FUNCTIONS = ("image", "render_map", "render_board", "render")

_renderers: dict[str, Renderer] | None = None
_images: dict[str, Callable[[dict[str, Any]], bytes]] = {}


def _discover() -> dict[str, Renderer]:
    global _renderers
    if _renderers is None:
        found: dict[str, Renderer] = {}
        for info in pkgutil.iter_modules(__path__):
            if info.name == "generic":
                continue
            try:
                module = importlib.import_module(f"{__name__}.{info.name}")
            except Exception:  # a broken optional renderer must not take the bot down
                log.exception("renderer module %s failed to import", info.name)
                continue
            renderer = getattr(module, "RENDERER", None)
            if isinstance(renderer, Renderer) and renderer.key:
                found[renderer.key] = renderer
                continue
            for name in IMAGE_FUNCTIONS:
                function = getattr(module, name, None)
                if callable(function):
                    _images[info.name] = function
                    break
        _renderers = found
    return _renderers


def renderer_for(game_key: str) -> Renderer:
    found = _discover()
    if game_key in found:
        return found[game_key]
    module_key = game_key.replace("-", "_")
    image = next((f for name, f in _images.items() if module_key.startswith(name)), None)
    renderer = GenericRenderer(game_key, image=image)
    found[game_key] = renderer
    return renderer
