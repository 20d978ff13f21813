"""Reggverse Riddles engine: movement, the egg drop, rule placement, collection, piles, actions,
objectives, views, and property tests over random legal play."""

from __future__ import annotations

import gc
import json
import weakref
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import games
from games.ai import RandomPlayer
from games.core import IllegalAction
from games.reggverse.board import BoardIndex, matching_tiles, row_is_balanced, row_mask, side_of
from games.reggverse.engine import ReggverseRiddles
from games.reggverse.objectives import objective_points
from games.reggverse.state import State

GAME = games.get("reggverse-riddles")
assert isinstance(GAME, ReggverseRiddles)

TYPES = [
    "tree",
    "cave",
    "dragon",
    "well",
    "witch",
    "statue",
    "tower",
    "empty",
    "tree",
    "tree",
    "cave",
    "dragon",
    "well",
    "tree",
    "statue",
    "tower",
]
NAMES = [f"{x}{y}" for y in "1234" for x in "abcd"]  # one name per square for everybody, from the south
LEFT = {"id": 900, "t": 4, "neg": False, "side": "left"}  # squares x0, x1 from the south
TREE = {"id": 901, "t": 1, "neg": False, "tile": "tree"}  # squares 0, 8, 9, 13


def table(players: int = 2, pawns: list[int] | None = None, **options: Any) -> State:
    """A game on the known 4x4 board, no eggs lying anywhere, every row empty; hands as dealt."""
    state = GAME.new(players, 1, options)
    state.board["types"] = list(TYPES)
    state.board["eggs"] = [{} for _ in range(16)]
    state.board["pawns"] = pawns or [5, 10, 8, 7][:players]
    state.board["rows"] = {e: [] for e in state.eggs}
    state.step = {"kind": "play"}
    state.touch()
    return state


def give(
    state: State,
    seat: int,
    moves: list[list[int]] | None = None,
    rule: dict[str, Any] | None = None,
    action: str | None = None,
) -> str:
    """Put a new tile in a seat's hand; return its play choice id."""
    tid = len(state.tiles)
    if action:
        tile: dict[str, Any] = {"id": tid, "kind": "action", "action": action, "text": action}
    else:
        tile = {"id": tid, "kind": "regular", "moves": moves or [[0, -1]], "rule": {**(rule or TREE), "id": tid}}
    state.tiles.append(tile)
    state.hands[seat].append(tid)
    state.touch()
    return f"t{tid}"


def ids(state: State) -> list[str]:
    prompts = GAME.prompts(state)
    assert len(prompts) == 1
    return prompts[0].choice_ids()


def kind(state: State) -> str:
    return GAME.prompts(state)[0].kind


def act(state: State, seat: int, *choice: str) -> list[dict[str, Any]]:
    return GAME.apply(state, seat, list(choice))


# --- movement --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seat", "forward", "left"),
    [
        (0, 1, 4),  # south at x1,y1: forward is north, left is west
        (1, 14, 11),  # north at x2,y2: forward is south, left is east
        (2, 9, 4),  # west at x0,y2: forward is east, left is north
        (3, 6, 11),  # east at x3,y1: forward is west, left is south
    ],
)
def test_movement_grid_is_read_from_the_players_side(seat: int, forward: int, left: int) -> None:
    state = table(4)
    state.current = seat
    play = give(state, seat, moves=[[0, -1], [-1, 0]])
    act(state, seat, play)
    assert kind(state) == "move"
    assert sorted(ids(state)) == sorted([f"c{forward}", f"c{left}"])
    events = act(state, seat, f"c{forward}")
    assert state.board["pawns"][seat] == forward
    assert {
        "type": "moved",
        "seat": seat,
        "from": [5, 10, 8, 7][seat],
        "to": forward,
        "square": NAMES[forward],
    } in events


def test_off_the_map_and_onto_a_pawn_are_not_offered_and_with_nothing_left_the_pawn_stays() -> None:
    state = table(2, pawns=[0, 1])
    play = give(state, 0, moves=[[0, -1], [-1, 0], [1, 0], [1, 1]])
    act(state, 0, play)
    assert ids(state) == ["c5"]  # up and left leave the map, right is seat 2's square
    state = table(2, pawns=[0, 1])
    play = give(state, 0, moves=[[0, -1], [-1, 0], [1, 0]])
    events = act(state, 0, play)
    assert {"type": "stayed", "seat": 0, "cell": 0, "square": "a1"} in events
    assert state.board["pawns"][0] == 0 and kind(state) == "drop"


# --- the egg drop ------------------------------------------------------------------------------------


def test_the_egg_drop_takes_from_a_pile_your_eggs_or_a_tile_and_lands_on_your_square() -> None:
    state = table(2, pawns=[5, 10])
    state.board["eggs"][3] = {"blue": 1}
    state.board["eggs"][5] = {"green": 1}  # the square you leave is a source like any other
    state.board["eggs"][9] = {"orange": 1}  # the square you arrive on is not
    state.collected[0] = {"yellow": 2}
    state.board["rows"]["red"] = [LEFT]
    act(state, 0, give(state, 0, moves=[[0, 1]]))
    act(state, 0, "c9")
    offered = ids(state)
    assert {"pile:red", "pile:cyan", "mine:yellow", "c3:blue", "c5:green"} <= set(offered)
    assert not any(c.startswith("c9:") for c in offered)
    act(state, 0, "c3:blue")
    assert state.board["eggs"][3] == {} and state.board["eggs"][9] == {"orange": 1, "blue": 1}
    assert kind(state) == "rule"


@pytest.mark.parametrize(
    ("source", "check"),
    [
        ("pile:red", lambda s: s.piles["red"] == 9),
        ("mine:yellow", lambda s: s.collected[0].get("yellow", 0) == 1),
    ],
)
def test_drop_sources_lose_the_egg(source: str, check: Any) -> None:
    state = table(2, pawns=[5, 10])
    state.collected[0] = {"yellow": 2}
    state.board["rows"]["red"] = [LEFT]
    act(state, 0, give(state, 0, moves=[[0, 1]]))
    act(state, 0, "c9")
    act(state, 0, source)
    assert check(state)
    assert sum(state.board["eggs"][9].values()) == 1


# --- placing the rule ---------------------------------------------------------------------------------


def _to_rule_step(state: State, rule: dict[str, Any]) -> None:
    act(state, 0, give(state, 0, moves=[[0, 1]], rule=rule))
    act(state, 0, "c9")
    act(state, 0, "pile:cyan")


def test_placement_next_to_and_on_top_with_at_most_three_unique_rules() -> None:
    state = table(2, pawns=[5, 10])
    not_dragon = {"id": 902, "t": 1, "neg": True, "tile": "dragon"}
    not_well = {"id": 903, "t": 1, "neg": True, "tile": "well"}
    state.board["rows"]["red"] = [LEFT, not_dragon, not_well]
    state.board["rows"]["green"] = [TREE]
    _to_rule_step(state, {"t": 4, "neg": False, "side": "top"})
    offered = ids(state)
    assert "red:next" not in offered  # red already has 3 rules
    assert {"red:on900", "red:on902", "red:on903", "green:next", "green:on901"} <= set(offered)
    tid = state.step["tile"]
    events = act(state, 0, "red:on902")
    assert [r["id"] for r in state.board["rows"]["red"]] == [900, tid, 903]
    assert 902 in state.discard
    assert any(e["type"] == "rule_placed" and e["covered"] == 902 for e in events)


def test_the_same_rule_twice_in_a_row_is_not_offered() -> None:
    state = table(2, pawns=[5, 10])
    state.board["rows"]["red"] = [LEFT]
    _to_rule_step(state, {"t": 4, "neg": False, "side": "left"})
    assert "red:next" not in ids(state)


def test_placements_that_point_nowhere_or_everywhere_are_refused() -> None:
    state = table(2, pawns=[5, 10])
    state.board["rows"]["red"] = [TREE]
    # "My tile is dragon" next to "My tile is tree" matches no square; on top of it, two squares
    _to_rule_step(state, {"t": 1, "neg": False, "tile": "dragon"})
    offered = ids(state)
    assert "red:next" not in offered and "red:on901" in offered
    with pytest.raises(IllegalAction):
        act(state, 0, "red:next")
    state = table(2, pawns=[5, 10])
    state.board["rows"]["red"] = [TREE]
    # "at most 3 eggs on my tile" holds everywhere on an empty board: on top of tree it would match all
    _to_rule_step(state, {"t": 3, "neg": True, "n": 3})
    offered = ids(state)
    assert "red:on901" not in offered and "red:next" in offered
    for choice in offered:  # every offered placement passes the test from the placer's side
        egg, spot = choice.split(":")
        row = state.board["rows"][egg]
        rule = state.tiles[state.step["tile"]]["rule"]
        new = [*row, rule] if spot == "next" else [rule if r["id"] == int(spot[2:]) else r for r in row]
        assert row_is_balanced(state.board, egg, 0, new)


def test_a_rule_that_fits_nowhere_is_discarded_with_an_event() -> None:
    state = table(2, pawns=[5, 10])
    # only eggs in play have rows; an empty-board "at most 3 eggs" matches every square on its own
    events = []
    act(state, 0, give(state, 0, moves=[[0, 1]], rule={"t": 3, "neg": True, "n": 3}))
    act(state, 0, "c9")
    events = act(state, 0, "pile:cyan")
    tid = int(state.discard[-1])
    assert {"type": "rule_discarded", "seat": 0, "tile": tid, "reason": "its rule fits in no egg's row"} in events
    assert state.current == 1  # the turn went on to the next seat


# --- collecting ----------------------------------------------------------------------------------------


def test_collect_every_matching_egg_except_types_lying_on_your_square() -> None:
    state = table(2, pawns=[5, 10])
    state.board["rows"]["red"] = [TREE]  # tree squares 0, 8, 9, 13
    state.board["rows"]["green"] = [{**LEFT, "id": 904}]  # left half from the south
    state.board["rows"]["blue"] = [{**TREE, "id": 905}]
    state.board["eggs"][9] = {"blue": 1}  # blue lies on the square: cannot be collected there
    state.board["rows"]["yellow"] = [{"id": 906, "t": 1, "neg": False, "tile": "dragon"}]
    act(state, 0, give(state, 0, moves=[[0, 1]], rule={"t": 4, "neg": False, "side": "bottom"}))
    act(state, 0, "c9")
    act(state, 0, "pile:cyan")  # a cyan egg lands on square 9 too
    events = act(state, 0, "orange:next")  # orange: bottom half, so squares 8-15
    collected = next(e for e in events if e["type"] == "collected")
    assert sorted(collected["eggs"]) == ["green", "orange", "red"]
    assert state.collected[0] == {"red": 1, "green": 1, "orange": 1}
    assert state.piles["red"] == 9 and state.piles["blue"] == 10 and state.piles["cyan"] == 9


def test_collection_is_read_from_the_collectors_side() -> None:
    state = table(2, pawns=[5, 10])
    state.board["rows"]["red"] = [LEFT]  # from the north, "left" is x2, x3: seat 2 stands on x2
    state.current = 1
    act(state, 1, give(state, 1, moves=[[1, 0]]))  # north's right is west: 10 -> 9
    assert ids(state) == ["c9"]
    state = table(2, pawns=[5, 10])
    state.board["rows"]["red"] = [LEFT]
    state.current = 1
    act(state, 1, give(state, 1, moves=[[-1, 0]], rule={"t": 1, "neg": True, "tile": "dragon"}))
    act(state, 1, "c11")  # north's left is east
    act(state, 1, "pile:cyan")
    events = act(state, 1, "green:next")
    collected = {
        "type": "collected",
        "seat": 1,
        "eggs": ["red"],
        "sources": ["pile"],
        "source_squares": [None],
        "cell": 11,
    }
    assert collected in events
    assert 11 in matching_tiles(state.board, "red", 1) and 11 not in matching_tiles(state.board, "red", 0)


def test_a_pile_that_runs_out_loses_its_rules_and_the_last_one_ends_the_game() -> None:
    state = table(2, pawns=[5, 10], egg_types=2, tokens=3)
    state.piles = {"red": 1, "green": 2}
    state.board["rows"] = {"red": [TREE], "green": [{**LEFT, "id": 904}]}
    act(state, 0, give(state, 0, moves=[[0, 1]], rule={"t": 1, "neg": True, "tile": "dragon"}))
    act(state, 0, "c9")
    events = act(state, 0, "pile:green")  # green pile down to 1; the rule step follows
    assert kind(state) == "rule"
    events = act(state, 0, "green:next")
    # square 9 holds a green egg now, so only red is collected: its pile runs out, its rules go
    assert {"type": "pile_out", "egg": "red", "rules_removed": 1} in events
    assert "red" not in state.board["rows"] and 901 in state.discard
    assert state.out_order == ["red"] and not state.finished
    state.current = 1
    state.step = {"kind": "play"}
    state.board["eggs"][9] = {}
    state.touch()
    act(state, 1, give(state, 1, moves=[[0, 1]]))
    act(state, 1, "c6")
    events = act(state, 1, "pile:green")
    assert state.finished and GAME.prompts(state) == []
    assert events[-1]["type"] == "game_over"
    result = GAME.outcome(state)
    assert result is not None and result["scores"] == [1, 0] and result["winners"] == [0]


# --- action tiles ------------------------------------------------------------------------------------------


def action_table(action: str, players: int = 2) -> State:
    state = table(players, pawns=[5, 10, 8, 7][:players], action_tiles=True)
    state.board["rows"] = {
        "red": [TREE],
        "green": [{**LEFT, "id": 904}],
        "yellow": [],
        "blue": [],
        "orange": [],
        "cyan": [],
    }
    state.board["eggs"][0] = {"red": 2}
    state.board["eggs"][3] = {"blue": 1}
    state.collected = [{"yellow": 3}, {"blue": 2}, {}, {}][:players]
    state.touch()
    act(state, 0, give(state, 0, action=action))
    return state


def test_cleanup_clears_one_eggs_rules() -> None:
    state = action_table("cleanup")
    assert ids(state) == ["red", "green"]
    events = act(state, 0, "red")
    assert state.board["rows"]["red"] == [] and 901 in state.discard
    assert {"type": "rules_cleared", "seat": 0, "egg": "red"} in events


def test_double_turn_plays_two_more_tiles() -> None:
    state = action_table("double")
    give(state, 0, moves=[[0, 1]])
    give(state, 0, moves=[[0, 1]])
    assert kind(state) == "play" and state.current == 0 and state.plays_left == 2


def test_collect_any_takes_one_egg_from_a_pile() -> None:
    state = action_table("collect")
    act(state, 0, "orange")
    assert state.collected[0]["orange"] == 1 and state.piles["orange"] == 9


def test_hand_refresh_discards_and_draws_four() -> None:
    state = table(2, action_tiles=True)
    old = set(state.hands[0])
    act(state, 0, give(state, 0, action="refresh"))
    assert len(state.hands[0]) == 4 and not set(state.hands[0]) & old and old <= set(state.discard)


def test_teleport_goes_to_any_free_square() -> None:
    state = action_table("teleport")
    assert "c10" not in ids(state) and "c5" not in ids(state) and len(ids(state)) == 14
    act(state, 0, "c15")
    assert state.board["pawns"][0] == 15


def test_back_to_pile_returns_three_eggs() -> None:
    state = action_table("to_pile")
    assert ids(state) == ["c0", "c3"]
    act(state, 0, "c0")
    act(state, 0, "c0")
    act(state, 0, "c3")
    assert state.piles["red"] == 12 and state.piles["blue"] == 11 and state.board["eggs"][0] == {}
    assert state.current == 1


def test_switch_rules_swaps_two_rows() -> None:
    state = action_table("switch")
    act(state, 0, "red")
    assert kind(state) == "switch_with" and "red" not in ids(state)
    act(state, 0, "green")
    assert state.board["rows"]["red"][0]["id"] == 904 and state.board["rows"]["green"][0]["id"] == 901


def test_steal_takes_a_collected_egg() -> None:
    state = action_table("steal")
    act(state, 0, "s1")  # seat 2 holds only blue, so no egg prompt
    assert state.collected[0]["blue"] == 1 and state.collected[1] == {"blue": 1}


def test_move_at_most_three_eggs_from_one_tile_to_another() -> None:
    state = action_table("shift")
    assert ids(state) == ["c0", "c3"]  # the squares holding eggs
    act(state, 0, "c0")
    assert "c0" not in ids(state)
    act(state, 0, "c12")
    assert ids(state) == ["red"]  # no "done" before the first egg
    act(state, 0, "red")
    assert ids(state) == ["red", "done"]
    act(state, 0, "done")
    assert state.board["eggs"][0] == {"red": 1} and state.board["eggs"][12] == {"red": 1}
    state = action_table("shift")
    for choice in ("c0", "c12", "red", "red"):  # the square runs out of eggs: the action ends
        act(state, 0, choice)
    assert state.board["eggs"][0] == {} and state.board["eggs"][12] == {"red": 2} and state.current == 1


def test_move_three_eggs_from_a_pile_onto_tiles() -> None:
    state = action_table("spawn")
    act(state, 0, "cyan")
    for target in ("c1", "c1", "c2"):
        assert kind(state) == "spawn_to"
        act(state, 0, target)
    assert state.board["eggs"][1] == {"cyan": 2} and state.board["eggs"][2] == {"cyan": 1}
    assert state.piles["cyan"] == 7 and state.current == 1


@pytest.mark.parametrize(
    ("action", "lock"), [("lock_move", "move"), ("lock_rules", "rules"), ("lock_actions", "actions")]
)
def test_locks_hold_the_others_until_the_players_next_turn(action: str, lock: str) -> None:
    state = action_table(action)
    assert state.locks == {lock: 0} and state.current == 1
    if lock == "actions":
        give(state, 1, action="collect")
        play = give(state, 1, moves=[[0, 1]])
        assert play in ids(state) and f"t{len(state.tiles) - 2}" not in ids(state)  # no action tile
    else:
        play = give(state, 1, moves=[[0, 1]])
    seen: list[dict[str, Any]] = []
    choice = play
    while state.current == 1:
        events = act(state, 1, choice)
        seen += events
        if state.current == 1:
            choice = GAME.prompts(state)[0].choice_ids()[0]
    if lock == "move":
        assert {"type": "move_locked", "seat": 1, "by": 0} in seen and state.board["pawns"][1] == 10
    if lock == "rules":
        assert any(e["type"] == "rule_locked" for e in seen)
        assert not any(e["type"] == "rule_placed" for e in seen)
    assert {"type": "lock_ended", "lock": lock, "seat": 0} in events and state.locks == {}


def test_trade_three_of_one_type_for_one_of_another() -> None:
    state = action_table("trade")
    assert ids(state) == ["yellow"]
    act(state, 0, "yellow")
    act(state, 0, "red")
    assert state.collected[0]["red"] == 1 and "yellow" not in state.collected[0]
    assert state.piles["yellow"] == 13 and state.piles["red"] == 9 and state.boxed == 0  # back to their pile


def test_draw_three_more_tiles() -> None:
    state = action_table("draw3")
    assert len(state.hands[0]) == 7  # 4 dealt + the action - the action + 3 drawn


def test_swap_two_map_tiles_with_their_contents() -> None:
    state = action_table("swap")
    act(state, 0, "c0")
    assert kind(state) == "swap_with" and "c0" not in ids(state)
    act(state, 0, "c5")
    assert state.board["types"][5] == "tree" and state.board["types"][0] == "statue"
    assert state.board["eggs"][5] == {"red": 2} and state.board["pawns"][0] == 0


# --- secret objectives -------------------------------------------------------------------------------------


def _points(
    kind: str, eggs: list[str], collected: list[dict[str, int]], seat: int = 0, out_order: list[str] | None = None
) -> int:
    tile = {"id": 0, "kind": kind, "eggs": eggs, "text": kind}
    return objective_points(tile, seat, collected, ["red", "green", "blue"], out_order or [], [], [0], [tile])


@pytest.mark.parametrize(
    ("kind", "eggs", "collected", "out", "points"),
    [
        ("five_of_two", ["red", "green"], [{"green": 5}, {}], [], 10),
        ("five_of_two", ["red", "green"], [{"green": 3, "red": 2}, {}], [], 10),  # counted together
        ("five_of_two", ["red", "green"], [{"green": 2, "red": 2, "blue": 4}, {}], [], 0),
        ("four_of_one", [], [{"blue": 4}, {}], [], 10),
        ("one_each", [], [{"red": 1, "green": 1, "blue": 1}, {}], [], 10),
        ("one_each", [], [{"red": 1, "green": 1}, {}], [], 0),
        ("two_of_three", ["red", "green", "blue"], [{"red": 2, "green": 2, "blue": 2}, {}], [], 10),
        ("beat_left", [], [{"red": 2}, {"red": 1}], [], 5),
        ("fewest", [], [{"red": 1}, {"red": 2}, {"red": 2}], [], 7),
        ("fewest", [], [{"red": 2}, {"red": 2}, {"red": 3}], [], 0),
        ("most_of", ["red"], [{"red": 3}, {"red": 2}, {"red": 1}], [], 5),
        ("fewest_of", ["red"], [{}, {"red": 2}, {"red": 1}], [], 7),
        ("out_first", ["blue"], [{}, {}], ["blue", "red"], 7),
        ("out_last", ["blue"], [{}, {}], ["red", "green", "blue"], 10),
        ("out_last", ["blue"], [{}, {}], ["blue", "green", "red"], 0),
        ("double_but", ["red", "green"], [{"red": 1, "blue": 3}, {}], [], 1 * -5 + 3 * 2 - 4),
        ("max_two", [], [{"red": 2, "blue": 2}, {}], [], 7),
        ("max_two", [], [{"red": 3}, {}], [], 0),
    ],
)
def test_each_objective_scores(
    kind: str, eggs: list[str], collected: list[dict[str, int]], out: list[str], points: int
) -> None:
    assert _points(kind, eggs, collected, out_order=out) == points


def test_left_neighbour_is_the_next_seat_clockwise() -> None:
    # play passes to the left: seat 1's left neighbour in 3 players is seat 2 (index 1)
    assert _points("beat_left", [], [{"red": 2}, {"red": 1}, {"red": 5}]) == 5
    assert _points("beat_left", [], [{"red": 6}, {"red": 9}, {"red": 5}]) == 0


def test_objectives_are_dealt_secretly_and_the_guesser_guesses_at_the_end() -> None:
    state = GAME.new(3, 4, {"objectives": True})
    guess = next(t["id"] for t in state.objective_tiles if t["kind"] == "guess")
    others = [t["id"] for t in state.objective_tiles if t["kind"] != "guess"]
    state.secret = [guess, others[0], others[5]]
    for seat in range(3):
        view = GAME.view(state, seat)
        assert view["objective"]["id"] == state.secret[seat]
        assert "objectives" not in view and "secret" not in view  # nobody else's objective
    assert "objective" not in GAME.view(state, None)
    # end the game: empty every pile but one, then let random play finish it
    for egg in state.eggs[1:]:
        state.piles[egg] = 0
        state.out_order.append(egg)
        del state.board["rows"][egg]
    state.piles[state.eggs[0]] = 1
    state.touch()
    players = [RandomPlayer(s) for s in range(3)]
    while GAME.prompts(state)[0].kind != "guess":
        p = GAME.prompts(state)[0]
        act(state, p.seat, *players[p.seat].choose(GAME, state, p))
    prompt = GAME.prompts(state)[0]
    assert prompt.seat == 0 and prompt.secret and f"o{guess}" not in prompt.choice_ids()
    assert GAME.outcome(state) is None
    for _ in range(2):  # one guess per neighbour (seat 2 on the right, seat 3 on the left), both right
        target = GAME.prompts(state)[0].info["target"]
        act(state, 0, f"o{state.secret[target]}")
    result = GAME.outcome(state)
    assert result is not None and result["breakdown"][0]["objective_points"] == 10
    assert GAME.view(state, None)["objectives"][0] == state.objective_tiles[guess]["text"]


# --- views -------------------------------------------------------------------------------------------------


def test_hands_are_private() -> None:
    state = GAME.new(3, 9)
    public = GAME.view(state, None)
    assert "hand" not in public and public["hand_sizes"] == [4, 4, 4]
    mine = GAME.view(state, 1)
    assert [t["id"] for t in mine["hand"]] == state.hands[1]
    assert mine["side"] == "north"


def test_setup_matches_the_rules() -> None:
    state = GAME.new(6, 3)
    assert len({*state.board["pawns"]}) == 6
    assert all(len(h) == 4 for h in state.hands)
    assert state.piles == {e: 10 for e in state.eggs} and len(state.eggs) == 6
    assert len([t for t in state.tiles if t["kind"] == "regular"]) == 45
    for egg in state.eggs:
        assert len(state.board["rows"][egg]) == 1
        assert row_is_balanced(state.board, egg, 0, state.board["rows"][egg])
    all_ids = (
        [t for h in state.hands for t in h] + state.deck + [r["id"] for r in state.board["rows"].values() for r in r]
    )
    assert sorted(all_ids) == list(range(45))
    with_actions = GAME.new(2, 3, {"action_tiles": True})
    assert len(with_actions.tiles) == 65
    assert len({t["action"] for t in with_actions.tiles if t["kind"] == "action"}) == 16


# --- properties --------------------------------------------------------------------------------------------


def _eggs_total(state: State) -> int:
    return (
        sum(state.piles.values())
        + sum(sum(c.values()) for c in state.board["eggs"])
        + sum(sum(c.values()) for c in state.collected)
        + state.boxed
    )


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(2, 8),
    actions=st.booleans(),
    objectives=st.booleans(),
    shape=st.sampled_from(["4x4", "5x4", "cross", "ring"]),
)
@example(seed=325, players=4, actions=True, objectives=False, shape="5x4")  # a pile ran out after a placement
def test_random_legal_play_ends_conserves_eggs_and_keeps_rows_balanced(
    seed: int, players: int, actions: bool, objectives: bool, shape: str
) -> None:
    state = GAME.new(players, seed, {"action_tiles": actions, "objectives": objectives, "shape": shape})
    total = _eggs_total(state)
    ais = [RandomPlayer(seed + s) for s in range(players)]
    decisions = 0
    while prompts := GAME.prompts(state):
        for p in prompts:
            assert len(p.choices) <= 25
            events = GAME.apply(state, p.seat, ais[p.seat].choose(GAME, state, p))
            decisions += 1
            assert _eggs_total(state) == total
            # Balance is promised right after a placement. Later in the same turn a pile may run out and
            # take its rows away, which changes what "matches the rules of all other eggs" means (with
            # no other rows it matches everywhere, as at a real table), so only turns where no pile ran
            # out after the placement can be checked on the final board.
            piles_out = any(e["type"] == "pile_out" for e in events)
            for e in events:
                if e["type"] == "rule_placed" and not piles_out:
                    row = state.board["rows"].get(e["egg"])
                    assert row is not None
                    assert row_is_balanced(state.board, e["egg"], e["seat"], row)
        assert decisions < 5000
    assert GAME.outcome(state) is not None


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 1000),
    steps=st.integers(0, 60),
    bad=st.lists(st.text(min_size=0, max_size=8), min_size=1, max_size=3),
    seat=st.integers(-1, 3),
)
def test_illegal_input_changes_nothing(seed: int, steps: int, bad: list[str], seat: int) -> None:
    state = GAME.new(3, seed, {"action_tiles": True})
    ais = [RandomPlayer(seed + s) for s in range(3)]
    for _ in range(steps):
        prompts = GAME.prompts(state)
        if not prompts:
            break
        p = prompts[0]
        GAME.apply(state, p.seat, ais[p.seat].choose(GAME, state, p))
    before = json.dumps(GAME.to_json(state), sort_keys=True)
    prompts = GAME.prompts(state)
    legal = {p.seat: p for p in prompts}
    if (
        seat in legal
        and len(bad) == legal[seat].pick
        and set(bad) <= set(legal[seat].choice_ids())
        and len(set(bad)) == len(bad)
    ):
        return  # hypothesis happened to find a legal answer
    with pytest.raises(IllegalAction):
        GAME.apply(state, seat, bad)
    assert json.dumps(GAME.to_json(state), sort_keys=True) == before


def _index_fields(ix: BoardIndex) -> dict[str, Any]:
    return {
        "egg_mask": {k: v for k, v in ix.egg_mask.items() if v},
        "totals": ix.totals,
        "no_duplicates": ix.no_duplicates,
        "one_type": ix.one_type,
        "at_least": ix.at_least,
        "pawn_count": ix.pawn_count,
        "pawn_mask": ix.pawn_mask,
        "type_mask": ix.type_mask,
        "near_eggs": ix.near_eggs(),
        "full": ix.full,
    }


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.integers(2, 6), shape=st.sampled_from(["4x4", "5x4", "cross", "ring"]))
def test_what_the_engine_keeps_between_decisions_equals_a_fresh_reading(seed: int, players: int, shape: str) -> None:
    """The board index and the labels are updated square by square during play, never rebuilt: after
    every decision they must equal what a fresh state (loaded from JSON) computes."""
    state = GAME.new(players, seed, {"action_tiles": True, "objectives": True, "shape": shape})
    ais = [RandomPlayer(seed + s) for s in range(players)]
    while prompts := GAME.prompts(state):
        p = prompts[0]
        GAME.apply(state, p.seat, ais[p.seat].choose(GAME, state, p))
        fresh = GAME.from_json(GAME.to_json(state))
        kept, new = state.board_index(), fresh.board_index()
        assert _index_fields(kept) == _index_fields(new)
        for seat in range(players):
            for egg, row in state.board["rows"].items():
                assert row_mask(row, state.board, side_of(seat), egg, None, kept) == row_mask(
                    row, fresh.board, side_of(seat), egg, None, new
                )
        assert [[(c.id, c.label) for c in q.choices] for q in GAME.prompts(state)] == [
            [(c.id, c.label) for c in q.choices] for q in GAME.prompts(fresh)
        ]


def test_a_finished_game_is_freed_without_the_garbage_collector() -> None:
    """What the engine keeps beside the rules (prompts, board index, labels) must not point back at
    the state: a reference cycle would keep every finished game in memory until a full collection."""
    gc.disable()
    try:
        state = GAME.new(4, 5, {"action_tiles": True, "objectives": True})
        ais = [RandomPlayer(5 + s) for s in range(4)]
        while prompts := GAME.prompts(state):
            p = prompts[0]
            GAME.apply(state, p.seat, ais[p.seat].choose(GAME, state, p))
        assert state.index is not None and state.labels is not None
        ref = weakref.ref(state)
        del state, prompts, p
        assert ref() is None
    finally:
        gc.enable()


def test_too_many_placements_for_one_menu_are_asked_egg_first_then_spot(monkeypatch: pytest.MonkeyPatch) -> None:
    """With more placements than a select menu holds (possible only with a smaller menu: 8 eggs give
    at most 24), the rule step asks for the egg, then the spot; both offer exactly what the one-step
    prompt would."""
    state = table(2, pawns=[5, 10])
    not_dragon = {"id": 902, "t": 1, "neg": True, "tile": "dragon"}
    state.board["rows"]["red"] = [LEFT, not_dragon]
    state.board["rows"]["green"] = [TREE]
    _to_rule_step(state, {"t": 4, "neg": False, "side": "top"})
    one_step = ids(state)
    assert {"red:next", "red:on900", "red:on902", "green:next", "green:on901"} <= set(one_step)
    state = table(2, pawns=[5, 10])
    state.board["rows"]["red"] = [LEFT, not_dragon]
    state.board["rows"]["green"] = [TREE]
    played = give(state, 0, moves=[[0, 1]], rule={"t": 4, "neg": False, "side": "top"})
    act(state, 0, played)
    act(state, 0, "c9")  # the drop prompt (one menu) is ready; a smaller menu from here on
    monkeypatch.setattr("games.reggverse.engine.MAX_SELECT", 2)
    act(state, 0, "pile:cyan")
    assert kind(state) == "rule_egg"
    eggs = ids(state)
    assert eggs == list(dict.fromkeys(c.split(":")[0] for c in one_step))
    act(state, 0, "red")
    assert kind(state) == "rule_spot"
    assert ids(state) == [c.split(":")[1] for c in one_step if c.startswith("red:")]
    act(state, 0, "on902")
    assert [r["id"] for r in state.board["rows"]["red"]] == [900, int(played[1:])] and 902 in state.discard


@pytest.mark.parametrize("seat", [True, 1.0, "1"])
def test_a_seat_that_is_not_a_number_is_refused_like_check_choice_does(seat: Any) -> None:
    """The engine checks the usual answer itself (faster than `check_choice`); it must refuse what
    check_choice refuses, here seat True, which equals 1."""
    state = GAME.new(2, 3)
    state.current = 1
    state.touch()
    before = json.dumps(GAME.to_json(state), sort_keys=True)
    with pytest.raises(IllegalAction):
        GAME.apply(state, seat, [ids(state)[0]])
    assert json.dumps(GAME.to_json(state), sort_keys=True) == before
