"""Pure rules engines for the games the bot runs.

`games.keys()` lists the registered games and `games.get(key)` returns one. A game lives in its own
subpackage that exposes `GAME` (a `games.core.Game`); subpackages are discovered, so adding a game
needs no change here.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

from games.core import MAX_CHOICE_ID, Choice, Game, IllegalAction, Option, Player, Prompt, Rng

__all__ = [
    "MAX_CHOICE_ID",
    "Choice",
    "Game",
    "IllegalAction",
    "Option",
    "Player",
    "Prompt",
    "Rng",
    "forget",
    "get",
    "keys",
    "package",
]

_registry: dict[str, Game[Any]] | None = None
_packages: dict[str, str] = {}  # game key -> the name of its package under games/


def _discover() -> dict[str, Game[Any]]:
    global _registry
    if _registry is None:
        found: dict[str, Game[Any]] = {}
        for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
            if not info.ispkg:
                continue
            module = importlib.import_module(f"{__name__}.{info.name}")
            game = getattr(module, "GAME", None)
            if isinstance(game, Game):
                found[game.key] = game
                _packages[game.key] = info.name
        _registry = found
    return _registry


def package(key: str) -> str:
    """The name of the game's package under games/ ("reggverse" for "reggverse-riddles"): where the
    bot looks for the game's renderer (`bot/render/<package>.py`)."""
    get(key)
    return _packages[key]


def forget() -> None:
    """Discover the games again at the next call (after a game package was added to `games.__path__`)."""
    global _registry
    _registry = None
    _packages.clear()


def keys() -> list[str]:
    """The keys of every registered game, sorted."""
    return sorted(_discover())


def get(key: str) -> Game[Any]:
    """The game registered under `key`; KeyError naming the known keys otherwise."""
    registry = _discover()
    try:
        return registry[key]
    except KeyError:
        raise KeyError(f"unknown game {key!r}; known games: {', '.join(sorted(registry))}") from None
