"""Eight-Minute Empire hands out data of the documented shapes (games/eight_minute_empire/shapes.py):
every choice's data, every prompt's info, every event and every view of whole games, checked field by
field against the TypedDicts (no key missing, none extra, every value of its type), and the data agrees
with the choice it describes and with the game."""

from __future__ import annotations

import types
import typing
from functools import cache
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

import pytest

from games.eight_minute_empire import GAME, shapes
from games.eight_minute_empire.board import LAND
from games.eight_minute_empire.cards import ROW_COSTS, all_cards


@cache
def _hints(kind: Any) -> dict[str, Any]:
    return get_type_hints(kind)


def problems(value: Any, kind: Any, where: str = "") -> list[str]:
    """What makes `value` not of type `kind` (empty: it is), for the types shapes.py uses."""
    origin, args = get_origin(kind), get_args(kind)
    if kind is Any or kind is object:
        return []
    if kind is None or kind is type(None):
        return [] if value is None else [f"{where}: {value!r} is not None"]
    if origin is Literal:
        return [] if value in args and type(value) in {type(a) for a in args} else [f"{where}: {value!r} not in {args}"]
    if origin in (Union, types.UnionType):
        found = [problems(value, a, where) for a in args]
        return [] if any(not f for f in found) else min(found, key=len)
    if typing.is_typeddict(kind):
        if not isinstance(value, dict):
            return [f"{where}: {type(value).__name__} is not a dict ({kind.__name__})"]
        hints = _hints(kind)
        out = [f"{where}: {kind.__name__} lacks {key!r}" for key in kind.__required_keys__ if key not in value]
        out += [f"{where}: {kind.__name__} has no key {key!r}" for key in value if key not in hints]
        for key, hint in hints.items():
            if key in value:
                out += problems(value[key], hint, f"{where}.{key}")
        return out
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: {type(value).__name__} is not a list"]
        return [p for i, item in enumerate(value) for p in problems(item, args[0], f"{where}[{i}]")]
    if origin is tuple:
        if not isinstance(value, tuple):
            return [f"{where}: {type(value).__name__} is not a tuple"]
        if len(args) == 2 and args[1] is Ellipsis:
            return [p for i, item in enumerate(value) for p in problems(item, args[0], f"{where}[{i}]")]
        if len(args) != len(value):
            return [f"{where}: {len(value)} items, not {len(args)}"]
        return [
            p for i, (item, a) in enumerate(zip(value, args, strict=True)) for p in problems(item, a, f"{where}[{i}]")
        ]
    if origin is dict:
        return [] if isinstance(value, dict) else [f"{where}: not a dict"]
    if kind is float:
        return [] if isinstance(value, int | float) and not isinstance(value, bool) else [f"{where}: {value!r}"]
    if kind is int:
        return [] if isinstance(value, int) and not isinstance(value, bool) else [f"{where}: {value!r} is no int"]
    return [] if isinstance(value, kind) else [f"{where}: {value!r} is no {kind.__name__}"]


def test_the_checker_catches_what_it_must() -> None:
    assert problems({"what": "region", "region": "A1", "continent": "Aldmoor"}, shapes.RegionChoice) == []
    assert problems({"what": "region", "region": "A1"}, shapes.RegionChoice)  # missing
    assert problems({"what": "region", "region": "A1", "continent": "x", "extra": 1}, shapes.RegionChoice)
    assert problems({"what": "army", "region": "A1", "continent": "x", "owner": "1"}, shapes.ArmyChoice)
    assert problems({"what": "bid", "amount": True}, shapes.BidChoice)  # a bool is no amount
    assert problems({"what": "nope"}, shapes.EndChoice)
    assert problems({"what": "army", "region": "A1", "continent": "x", "owner": None}, shapes.ArmyChoice) == []


def check_choices(state: Any, prompt: Any) -> None:
    """Each choice's data has its prompt kind's shape and agrees with the choice and the game."""
    assert problems(dict(prompt.info), shapes.PROMPT_INFO[prompt.kind], prompt.kind) == []
    allowed = Union[shapes.CHOICE_DATA[prompt.kind]]  # noqa: UP007  (a tuple of types, unpacked)
    board = state.board
    for choice in prompt.choices:
        data = choice.data
        found = problems(dict(data), allowed, f"{prompt.kind}:{choice.id}")
        assert found == [], found
        what = data["what"]
        if what in ("done", "skip", "back"):
            assert choice.id == what
        elif what == "card":
            assert choice.id == f"card{data['slot']}" and data["cost"] == ROW_COSTS[data["slot"]]
            card = all_cards()[state.row[data["slot"]]]
            assert (card.name, card.join, card.parts) == (data["card"], data["join"], data["parts"])
        elif what == "bid":
            assert choice.id == f"bid{data['amount']}" and data["amount"] <= prompt.info["coins"]
        elif what == "action":
            assert choice.id.startswith("or") and data["action"] in ("place", "move", "city", "destroy")
        else:
            region = board.index[data["region"]]
            assert board.continent_names[board.continent_of[region]] == data["continent"]
            if what == "army":
                owner = state.players if data["owner"] is None else data["owner"]
                assert state.armies[region][owner] > 0 and owner != prompt.seat
                assert choice.id.startswith(data["region"])
            else:
                assert choice.id == data["region"]
            if "armies" in data:
                assert state.armies[region][prompt.seat] == data["armies"]
            if what == "move":
                way = dict(board.neighbours[board.index[prompt.info["from"]]])[region]
                assert data["way"] == ("land" if way == LAND else "water")
                assert data["cost"] == (1 if way == LAND else GAME.water_cost(state, prompt.seat))


def crowded() -> Any:
    """A 4-player game whose seat to play has over 24 armies to destroy: destroy_region comes up."""
    from tests.test_eight_minute_empire import put, take, to_turns

    state = to_turns(4, 3)
    seat = state.seat
    for label in [label for label in state.board.labels if label != state.board.labels[state.start]][:9]:
        for party in range(4):
            put(state, label, party, 1)
    take(state, "Night Hydra")  # Move 5 AND Destroy 1
    GAME.apply(state, seat, ["done"])
    return state


def test_whole_games_hand_out_data_of_the_documented_shapes() -> None:
    """Random and heuristic games of every size and option: every prompt's info and choices, every
    event, and the views (public and per seat) of every few decisions."""
    kinds: set[str] = set()
    whats: set[str] = set()
    events: set[str] = set()
    starts = [
        (GAME.new(2, 1, {"explore": True, "citadels": True}), "random"),
        (GAME.new(3, 2, {"layout": "row", "bid_tie": "first-seat"}), "random"),
        (GAME.new(4, 3, {"explore": True}), "heuristic"),
        (GAME.new(2, 4, {"full_game": True, "explore": True}), "heuristic"),
        (crowded(), "random"),
    ]
    for number, (state, level) in enumerate(starts):
        seats = [GAME.ai(level, number * 10 + s) for s in range(state.players)]
        decisions = 0
        while prompts := GAME.prompts(state):
            if decisions % 7 == 0:
                views = GAME.views(state, [None, *range(state.players)])
                for seat, view in views.items():
                    shape = shapes.PublicView if seat is None else shapes.SeatView
                    assert problems(view, shape, f"view of {seat}") == []
            for p in prompts:
                kinds.add(p.kind)
                whats.update(c.data["what"] for c in p.choices)
                check_choices(state, p)
                for event in GAME.apply(state, p.seat, seats[p.seat].choose(GAME, state, p)):
                    events.add(event["type"])
                    assert problems(event, shapes.EVENTS[event["type"]], event["type"]) == []
                decisions += 1
    assert kinds == set(shapes.CHOICE_DATA), "every prompt kind came up"
    assert whats == {"region", "move", "card", "action", "bid", "army", "done", "skip", "back"}
    assert events == set(shapes.EVENTS), set(shapes.EVENTS) - events


@pytest.mark.parametrize("kind", sorted(shapes.CHOICE_DATA))
def test_every_prompt_kind_has_its_shapes(kind: str) -> None:
    assert typing.is_typeddict(shapes.PROMPT_INFO[kind])
    assert all(typing.is_typeddict(t) for t in shapes.CHOICE_DATA[kind])
