"""Reggverse Riddles hands the bot data, not English (issue 17.1), and the bot phrases it (issues 21, 22).

Whole games are played; every prompt, choice, event and view must have the shape documented in
`games.reggverse.shapes`; the renderer's words must not change when every English label, prompt text and
rule text of the engine is scrambled (it reads none of them); players are named, never "Seat N"; and in
Italian and French no English game word is left.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any, get_type_hints

import pytest

import games
from bot.render.kit.generic import TableContext
from bot.render.reggverse import RENDERER
from games.ai import RandomPlayer
from games.core import Choice, Prompt
from games.reggverse import shapes

GAME = games.get("reggverse-riddles")
NAMES = ["Ada", "Bo", "Cleo", "Dan"]
BOTH = {"action_tiles": True, "objectives": True}
DATA_SHAPES: dict[str, Any] = {
    "tile": shapes.TileChoice,
    "square": shapes.SquareChoice,
    "drop": shapes.DropChoice,
    "source": shapes.SourceChoice,
    "egg": shapes.EggChoice,
    "placement": shapes.PlacementChoice,
    "seat": shapes.SeatChoice,
    "done": shapes.DoneChoice,
    "objective": shapes.ObjectiveChoice,
}
# English words of the game that must not be left in an Italian or French text (not "pile", "orange",
# "statue": Italian and French words too).
ENGLISH = re.compile(
    r"\b(egg|eggs|tile|tiles|row|rows|rule|rules|pawn|pawns|moves|drops|collects|plays|"
    r"next|from|your|their|with|which|where|tree|cave|witch|tower|well|empty|"
    r"red|green|yellow|blue|purple|pink|Seat|seat|Player)\b"
)
SEAT_N = re.compile(r"\b[Ss]eat \d")


def _moments(
    players: int, seed: int, options: Mapping[str, Any]
) -> Iterator[tuple[Any, list[Prompt], list[dict[str, Any]]]]:
    """(state, prompts, events of the decision that followed) along a whole random game."""
    state = GAME.new(players, seed, dict(options))
    ais = [RandomPlayer(seed + s) for s in range(players)]
    while prompts := GAME.prompts(state):
        p = prompts[0]
        events = GAME.apply(state, p.seat, ais[p.seat].choose(GAME, state, p))
        yield state, prompts, events


def _keys_fit(value: Mapping[str, Any], shape: Any) -> bool:
    hints = get_type_hints(shape)
    return shape.__required_keys__ <= set(value) <= set(hints)


@pytest.mark.parametrize(("players", "seed", "options"), [(2, 3, BOTH), (4, 8, BOTH), (3, 5, {"shape": "cross"})])
def test_choices_events_and_views_have_their_documented_shapes(
    players: int, seed: int, options: dict[str, Any]
) -> None:
    kinds: set[str] = set()
    for state, prompts, events in _moments(players, seed, options):
        for prompt in prompts:
            kinds.add(prompt.kind)
            assert prompt.kind in shapes.CHOICES, prompt.kind
            for choice in prompt.choices:
                data = dict(choice.data)
                assert data.get("what") in shapes.CHOICES[prompt.kind], (prompt.kind, data)
                assert _keys_fit(data, DATA_SHAPES[data["what"]]), (prompt.kind, data)
        for event in events:
            fields = shapes.EVENTS[event["type"]]
            assert set(event) - {"type", "teleport"} == set(fields), event
        view = GAME.view(state, prompts[0].seat)
        assert _keys_fit(view, shapes.View) and _keys_fit(view["board"], shapes.Board)
    assert {"play", "move", "drop", "rule", "collect_from"} <= kinds


def _scrambled(prompt: Prompt) -> Prompt:
    """The same prompt with every English word of the engine replaced."""
    choices = [Choice(c.id, f"scrambled {k}", c.data) for k, c in enumerate(prompt.choices)]
    return replace(prompt, text="scrambled question", choices=choices)


def _without_english(value: Any) -> Any:
    """A view or event with the engine's English ("text" fields) replaced."""
    if isinstance(value, dict):
        return {k: ("scrambled" if k == "text" else _without_english(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [_without_english(v) for v in value]
    return value


@pytest.mark.parametrize("lang", ["en", "it", "fr"])
def test_the_words_come_from_data_only_and_name_players(lang: str) -> None:
    ctx = TableContext("Reggverse Riddles", 1, NAMES[:4], [], None, lang)
    seen_kinds: set[str] = set()
    lines = 0
    for state, prompts, events in _moments(4, 21, BOTH):
        for prompt in prompts:
            seen_kinds.add(prompt.kind)
            question = RENDERER.prompt_text(prompt, ctx)
            assert question == RENDERER.prompt_text(_scrambled(prompt), ctx)
            labels = [RENDERER.choice_label(prompt, c, ctx) for c in prompt.choices]
            scrambled = _scrambled(prompt)
            assert labels == [RENDERER.choice_label(scrambled, c, ctx) for c in scrambled.choices]
            for text in (question, *labels):
                assert "scrambled" not in text and not SEAT_N.search(text), text
                if lang != "en":
                    assert not ENGLISH.search(text), (prompt.kind, text)
        for event in events:
            if "to" in event:
                continue
            line = RENDERER.event_line(event, ctx)
            assert line == RENDERER.event_line(_without_english(event), ctx)
            assert "{" not in line and not SEAT_N.search(line), line
            if lang != "en":
                assert not ENGLISH.search(line.replace("Reggverse", "")), (event["type"], line)
            lines += bool(line)
        if state.turn % 7 == 0:
            for seat in (None, prompts[0].seat):
                view = GAME.view(state, seat)
                text = RENDERER.describe_public(view, ctx)
                assert text == RENDERER.describe_public(_without_english(view), ctx)
                assert not SEAT_N.search(text), text
                assert any(name in text for name in NAMES)
                if lang != "en":
                    assert not ENGLISH.search(text), text
    assert lines > 50 and {"play", "move", "drop", "collect_from"} <= seen_kinds


def test_pictures_read_data_only_and_show_names() -> None:
    state = GAME.new(3, 4, BOTH)
    ais = [RandomPlayer(4 + s) for s in range(3)]
    for _ in range(30):
        p = GAME.prompts(state)[0]
        GAME.apply(state, p.seat, ais[p.seat].choose(GAME, state, p))
    prompt = GAME.prompts(state)[0]
    for seat in (None, prompt.seat):
        view = GAME.view(state, seat)
        names = ("Ada", "Bo", "Cleo")
        drawn = (
            RENDERER.seat_image(view, prompt, "it", names) if seat is not None else RENDERER.image(view, "it", names)
        )
        again = (
            RENDERER.seat_image(_without_english(view), _scrambled(prompt), "it", names)
            if seat is not None
            else RENDERER.image(_without_english(view), "it", names)
        )
        assert drawn is not None and drawn == again
        assert drawn != RENDERER.image(view, "it", ("X", "Y", "Z")), "the players' names are drawn"


# "a" before a vowel sound ("a orange egg", "a empty tile") or "an" before a consonant ("an tree tile").
A_BEFORE_VOWEL = re.compile(r"\b[Aa] [AEIOUaeiou]")
AN_BEFORE_CONSONANT = re.compile(r"\b[Aa]n [B-DF-HJ-NP-TV-Zb-df-hj-np-tv-z]")


@pytest.mark.parametrize(("players", "seed", "options"), [(4, 21, BOTH), (3, 5, {**BOTH, "egg_types": 8})])
def test_english_puts_an_before_a_vowel_and_a_before_a_consonant(
    players: int, seed: int, options: dict[str, Any]
) -> None:
    """Every rule, prompt, choice, log line and table text of whole random games, in English, with players
    whose names begin with a vowel."""
    ctx = TableContext("Reggverse Riddles", 1, ["Ada", "Ugo", "Eve", "Ian"][:players], [], None, "en")
    shown: list[str] = []
    for state, prompts, events in _moments(players, seed, options):
        for prompt in prompts:
            shown.append(RENDERER.prompt_text(prompt, ctx))
            shown += [RENDERER.choice_label(prompt, c, ctx) for c in prompt.choices]
        shown += [RENDERER.event_line(event, ctx) for event in events if "to" not in event]
        view = GAME.view(state, prompts[0].seat)
        shown.append(RENDERER.describe_private(view, ctx, prompts[0].seat))
    for text in shown:
        assert not A_BEFORE_VOWEL.search(text) and not AN_BEFORE_CONSONANT.search(text), text
    joined = "\n".join(shown)
    assert "an orange egg" in joined and "an empty tile" in joined  # the words that need "an" were there
