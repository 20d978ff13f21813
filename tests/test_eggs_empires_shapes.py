"""Eggs and Empires hands out data, not English: every choice's data, every view and every event has the
shape games/eggs_empires/shapes.py documents, and says what the engine's own state says."""

from __future__ import annotations

from typing import Any, Literal, get_args, get_origin, get_type_hints

import pytest

import games
from games.ai import RandomPlayer
from games.core import Prompt
from games.eggs_empires import rules, shapes
from games.eggs_empires.engine import FACE_UP, EggsState

GAME = games.get("eggs-empires")


def _literal_values(typed: Any, key: str) -> tuple[Any, ...]:
    annotation = get_type_hints(typed)[key]
    assert get_origin(annotation) is Literal, (typed, key)
    return get_args(annotation)


EVENT_SHAPES: dict[str, Any] = {
    _literal_values(typed, "type")[0]: typed
    for name in shapes.__all__
    if name.endswith("Event") and (typed := getattr(shapes, name))
}
CHOICE_SHAPES: dict[str, Any] = {
    value: typed for typed in get_args(shapes.ChoiceData) for value in _literal_values(typed, "kind")
}
KINDS_BY_PROMPT = {
    "mulligan": {"keep_hand", "redraw_hand"},
    "play": {"adventurer"},
    "egg": {"egg", "no_egg"},
    "courier": {"keep_egg", "give"},
    "priest": {"no_discard", "discard"},
}


def assert_shape(value: Any, typed: Any) -> None:
    """`value` has exactly the keys `typed` (a TypedDict) allows: all required ones, no unknown one."""
    keys = set(value)
    assert typed.__required_keys__ <= keys, (typed.__name__, typed.__required_keys__ - keys, value)
    assert keys <= typed.__required_keys__ | typed.__optional_keys__, (typed.__name__, value)


def check_choices(state: EggsState, prompt: Prompt) -> None:
    """Each choice's data matches its documented shape and what the state says it stands for."""
    assert prompt.kind in KINDS_BY_PROMPT
    for choice in prompt.choices:
        data = choice.data
        assert data["kind"] in KINDS_BY_PROMPT[prompt.kind], (prompt.kind, data)
        assert_shape(data, CHOICE_SHAPES[data["kind"]])
        kind = data["kind"]
        if kind == "adventurer":
            assert choice.id == str(data["card"]) and data["card"] in state.hands[prompt.seat]
        elif kind in ("keep_hand", "redraw_hand"):
            assert data["round"] == state.round and choice.id == ("keep" if kind == "keep_hand" else "redraw")
        elif kind == "egg":
            egg, scout = state.offer[data["slot"]]
            assert choice.id == f"s{data['slot']}"
            assert data["face_down"] == (scout != FACE_UP)
            assert data["scout"] == (None if scout == FACE_UP else scout)
            # a face-down egg's value is known to the seat that scouted it, and to nobody else
            known = scout in (FACE_UP, prompt.seat)
            assert data["value"] == (rules.EGG_VALUES[egg] if known else None)
        elif kind == "give":
            assert choice.id == f"give{data['seat']}" and data["seat"] != prompt.seat
            assert data["value"] == prompt.info["egg"]
        elif kind == "keep_egg":
            assert data["value"] == prompt.info["egg"]
        elif kind == "discard":
            assert any(rules.EGG_VALUES[e] == data["value"] for e in state.piles[prompt.seat])
        else:
            assert kind in ("no_egg", "no_discard")
    if prompt.kind == "egg":
        assert set(prompt.info) == {"card"} and prompt.info["card"] == state.queue[0][1]


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_every_choice_view_and_event_of_whole_games_has_its_documented_shape(players: int) -> None:
    seen_choices: set[str] = set()
    seen_events: set[str] = set()
    for seed in range(3):
        state = GAME.new(players, seed, {"scoring": "conpub"} if seed == 2 else {})
        ais = [RandomPlayer(seed * 10 + s) for s in range(players)]
        while prompts := GAME.prompts(state):
            for seat, view in GAME.views(state, [None, *range(players)]).items():
                assert_shape(view, shapes.PublicView if seat is None else shapes.SeatView)
                for entry in view["offer"]:
                    assert_shape(entry, shapes.OfferEntry)
                for summary in view["seats"]:
                    assert_shape(summary, shapes.SeatSummary)
                if view["reveal"] is not None:
                    assert_shape(view["reveal"], shapes.RevealSummary)
                    for entry in view["reveal"]["order"]:
                        assert_shape(entry, shapes.RevealEntry)
            for prompt in prompts:
                check_choices(state, prompt)
                seen_choices |= {c.data["kind"] for c in prompt.choices}
                for event in GAME.apply(state, prompt.seat, ais[prompt.seat].choose(GAME, state, prompt)):
                    assert event["type"] in EVENT_SHAPES, event
                    assert_shape(event, EVENT_SHAPES[event["type"]])
                    seen_events.add(event["type"])
    assert seen_choices >= {"keep_hand", "redraw_hand", "adventurer", "egg", "keep_egg", "give", "no_discard"}
    assert seen_events >= {"round_start", "offer", "reveal", "collect", "round_end", "game_over", "tiebreaker"}


def test_choice_data_is_shared_not_built_per_prompt() -> None:
    """Choices are made on the simulation hot path: the same choice comes with the very same data."""
    state = GAME.new(4, 5)
    first = GAME.prompts(state)
    again = GAME.prompts(state)
    assert all(a.choices[0].data is b.choices[0].data for a, b in zip(first, again, strict=True))
    with pytest.raises(TypeError):
        first[0].choices[0].data["kind"] = "changed"  # type: ignore[index]
