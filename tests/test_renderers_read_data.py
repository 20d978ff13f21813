"""A game's own renderer reads the engine's data, never its English (issue 17).

Each game with a renderer of its own plays random games; at every moment, its renderer builds the
table, every human seat's message, the questions and the buttons from prompts whose `text` and choices
whose `label` cannot be read (reading one raises). A renderer that parses or shows the engine's English
fails here: rewording an engine label could silently break a translation or a picture. (The generic
renderer, for a game without its own, shows the engine's English as it is, by design.)

Also, no regular expression in bot/render reads engine text: the renderers' sources hold none at all.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

import games
from bot.render import GenericRenderer, renderer_for
from bot.render.kit.generic import TableContext
from games.ai import RandomPlayer
from games.core import NO_INFO, Choice, Prompt
from tests.declared import with_renderer

RENDER = Path(__file__).resolve().parents[1] / "bot" / "render"
# Games whose renderer still reads engine English, being rewritten (each is asserted to still read it, so
# the set cannot go stale: remove a game once its renderer reads only data).
STILL_READS_ENGINE_TEXT: set[str] = set()
MOMENTS = 120  # decisions looked at per game


class EnglishRead(AssertionError):
    """The renderer read a prompt's text or a choice's label."""


class GuardedChoice:
    """A choice whose label cannot be read."""

    __slots__ = ("data", "id")

    def __init__(self, choice: Choice) -> None:
        self.id = choice.id
        self.data: Mapping[str, Any] = choice.data

    @property
    def label(self) -> str:
        raise EnglishRead(f"read the label of choice {self.id!r}")


class GuardedPrompt:
    """A prompt whose text (and whose choices' labels) cannot be read."""

    __slots__ = ("choices", "info", "kind", "pick", "seat", "secret")

    def __init__(self, prompt: Prompt) -> None:
        self.seat, self.kind, self.pick, self.secret = prompt.seat, prompt.kind, prompt.pick, prompt.secret
        self.choices: Sequence[Any] = tuple(GuardedChoice(c) for c in prompt.choices)
        self.info: Mapping[str, Any] = prompt.info or NO_INFO

    @property
    def text(self) -> str:
        raise EnglishRead(f"read the text of a {self.kind!r} prompt")

    def choice_ids(self) -> list[str]:
        return [c.id for c in self.choices]


def english_reads(key: str) -> list[str]:
    """What the game's renderer read of the engine's English over a few random games (empty: nothing)."""
    game, renderer = games.get(key), renderer_for(key)
    found: set[str] = set()
    rng = random.Random(3)
    for players in sorted({game.min_players, min(game.max_players, 4)}):
        state = game.new(players, rng.randrange(1 << 30), dict(rng.choice(game.sample_options)))
        bots = [RandomPlayer(rng.randrange(1 << 30)) for _ in range(players)]
        names = [f"Player {s + 1}" for s in range(players)]
        for _moment in range(MOMENTS):
            prompts = game.prompts(state)
            if not prompts:
                break
            ctx = TableContext(game.title, 1, names, [p.seat for p in prompts])
            public = game.view(state, None)
            _guarded(found, renderer.table, public, ctx)
            for prompt in prompts:
                guarded: Any = GuardedPrompt(prompt)
                _guarded(found, renderer.seat, game.view(state, prompt.seat), guarded, ctx, prompt.seat)
                _guarded(found, renderer.prompt_text, guarded, ctx)
                for choice in guarded.choices:
                    _guarded(found, renderer.choice_label, guarded, choice, ctx)
            prompt = prompts[0]
            game.apply(state, prompt.seat, bots[prompt.seat].choose(game, state, prompt))
    return sorted(found)


def _guarded(found: set[str], draw: Any, *args: Any) -> None:
    try:
        draw(*args)
    except EnglishRead as read:
        found.add(str(read))


@pytest.mark.parametrize("key", with_renderer())  # a game shown by the generic renderer: skipped
def test_a_games_own_renderer_reads_data_not_english(key: str) -> None:
    reads = english_reads(key)
    if key in STILL_READS_ENGINE_TEXT:
        assert reads, f"{key}'s renderer reads only data now: remove it from STILL_READS_ENGINE_TEXT"
    else:
        assert not reads, f"{key}'s renderer reads the engine's English: {reads[:5]}"


def test_the_guard_catches_a_renderer_that_reads_labels() -> None:
    class LabelReader(GenericRenderer):
        def choice_label(self, prompt: Any, choice: Any, ctx: TableContext) -> str:
            return str(choice.label)

    prompt: Any = GuardedPrompt(Prompt(0, "pick", [Choice("a", "Apple", {"fruit": "apple"})]))
    found: set[str] = set()
    ctx = TableContext("t", 1, ["A"], [0])
    _guarded(found, LabelReader("x").choice_label, prompt, prompt.choices[0], ctx)
    assert found == {"read the label of choice 'a'"}
    assert prompt.choices[0].data == {"fruit": "apple"}


def test_no_renderer_parses_text_with_regular_expressions() -> None:
    pattern = re.compile(r"\bre\.(match|search|compile|fullmatch|findall|finditer|sub|split)\(")
    offenders = {
        path.name: len(pattern.findall(path.read_text()))
        for path in sorted(RENDER.glob("*.py"))
        if pattern.search(path.read_text())
    }
    expected = {f"{games.package(k)}.py" for k in STILL_READS_ENGINE_TEXT}
    assert set(offenders) <= expected, offenders
