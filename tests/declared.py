"""The per-game tests' parameters, following what each registered game declares.

A test that runs once per game takes its games from here. A game that lacks what the test is about (an
AI level, a language, pictures, a terminal level) is still listed, skipped with a reason that names the
declaration, so a run shows what each game's declarations turned off rather than passing silently:

- `ai_levels` (games/core.py): `with_level("expert")` skips the games without an expert;
- `languages` (games/core.py): `with_languages("it", "fr")` skips the languages a game is not told in;
- its renderer (bot/render): `with_renderer()` skips a game shown by the generic renderer,
  `with_pictures()` a game shown as text only (`pictured()` is False).

docs/adding-a-game.md says which optional layer turns which of these on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

import games
from bot.render import GenericRenderer, renderer_for


def every_game() -> list[str]:
    """Every registered game's key (the ones every game must pass)."""
    return games.keys()


def _param(*values: Any, skip: str | None) -> Any:
    return pytest.param(*values, marks=pytest.mark.skip(reason=skip)) if skip else pytest.param(*values)


def level_missing(key: str, level: str) -> str | None:
    """Why a test of AI level `level` does not apply to game `key`, or None when it does."""
    levels = games.get(key).ai_levels
    return None if level in levels else f"{key} declares ai_levels {levels}: no {level!r} level"


def language_missing(key: str, lang: str) -> str | None:
    """Why a test in language `lang` does not apply to game `key`, or None when it does."""
    told = games.get(key).languages
    return None if lang in told else f"{key} declares languages {told}: not told in {lang!r}"


def pictures_missing(key: str) -> str | None:
    """Why a test of pictures does not apply to game `key`, or None when it does."""
    if renderer_for(key).pictured():
        return None
    return f"{key} has no renderer drawing pictures (bot/render/{games.package(key)}/ with draw()): text only"


def renderer_missing(key: str) -> str | None:
    """Why a test of a game's own renderer does not apply to game `key`, or None when it does."""
    if not isinstance(renderer_for(key), GenericRenderer):
        return None
    return f"{key} has no renderer of its own (bot/render/{games.package(key)}/): the generic one shows it"


def with_renderer() -> list[Any]:
    """Every game, those shown by the generic renderer skipped."""
    return [_param(key, skip=renderer_missing(key)) for key in games.keys()]


def with_level(level: str) -> list[Any]:
    """Every game, those without AI level `level` skipped."""
    return [_param(key, skip=level_missing(key, level)) for key in games.keys()]


def with_languages(*langs: str) -> list[Any]:
    """(game, language) for every game and each of `langs`, those the game is not told in skipped."""
    return [_param(key, lang, skip=language_missing(key, lang)) for key in games.keys() for lang in langs]


def with_pictures(langs: Sequence[str] = ()) -> list[Any]:
    """Every game (with each of `langs`, when given), those without pictures or the language skipped."""
    if not langs:
        return [_param(key, skip=pictures_missing(key)) for key in games.keys()]
    return [
        _param(key, lang, skip=pictures_missing(key) or language_missing(key, lang))
        for key in games.keys()
        for lang in langs
    ]
