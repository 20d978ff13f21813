"""Reggverse Riddles: every rule template in both senses, on a hand-made board, read from each side."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.reggverse.board import geometry, matching_tiles, row_is_balanced, rule_text, side_of
from games.reggverse.data import EGG_COLOURS, SHAPES, TILE_TYPES
from tests.reggverse_reference import matching

#      x0      x1      x2      x3
# y0   tree    cave    dragon  well       squares 0-3   (north edge)
# y1   witch   statue  tower   empty      squares 4-7
# y2   tree    tree    cave    dragon     squares 8-11
# y3   well    tree    statue  tower      squares 12-15 (south edge, seat 1 sits here)
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
EGGS: dict[int, dict[str, int]] = {
    0: {"red": 1},
    5: {"red": 2},
    6: {"blue": 1, "red": 1},
    10: {"blue": 1},
    15: {"green": 3},
}
PAWNS = [5, 9, 3, 12]  # seats 1-4: south, north, west, east
ALL = set(range(16))


def board(rows: dict[str, list[dict[str, Any]]], pawns: list[int] = PAWNS) -> dict[str, Any]:
    return {
        "shape": "4x4",
        "types": list(TYPES),
        "eggs": [dict(EGGS.get(c, {})) for c in range(16)],
        "pawns": list(pawns),
        "rows": rows,
    }


_ids = iter(range(100, 10_000))


def rule(t: int, neg: bool = False, **params: Any) -> dict[str, Any]:
    """A rule on its own tile: rule ids are tile ids, unique per rule (the evaluator relies on it)."""
    return {"id": next(_ids), "t": t, "neg": neg, **params}


def cells(r: dict[str, Any], seat: int = 0, pawns: list[int] = PAWNS) -> set[int]:
    return set(matching_tiles(board({"purple": [r]}, pawns), "purple", seat))


def test_seats_sit_south_north_west_east_then_again() -> None:
    assert [side_of(s) for s in range(8)] == ["south", "north", "west", "east"] * 2


# Rules that do not depend on the reader's side: (rule, expected squares), checked from all four sides.
SIDELESS = [
    (rule(1, tile="dragon"), {2, 11}),
    (rule(1, True, tile="dragon"), ALL - {2, 11}),
    (rule(2, egg="red"), {0, 5, 6}),
    (rule(2, True, egg="red"), ALL - {0, 5, 6}),
    (rule(3, n=2), {5, 6, 15}),  # at least 2 eggs
    (rule(3, True, n=2), ALL - {15}),  # at most 2 eggs
    (rule(3, True, n=3), ALL),
    (rule(5), ALL - {5, 15}),  # no duplicate eggs
    (rule(5, True), {0, 5, 10, 15}),  # only eggs of one type (and at least one egg)
    (rule(6, tile="dragon"), {1, 3, 6, 7, 10, 15}),
    (rule(6, True, tile="dragon"), ALL - {1, 3, 6, 7, 10, 15}),
    (rule(7, egg="blue"), {2, 5, 6, 7, 9, 10, 11, 14}),
    (rule(7, True, egg="blue"), ALL - {2, 5, 6, 7, 9, 10, 11, 14}),
    (rule(8), {1, 2, 4, 5, 6, 7, 8, 9, 10, 13}),  # next to a square with a pawn
    (rule(8, True), ALL - {1, 2, 4, 5, 6, 7, 8, 9, 10, 13}),
    (rule(9), ALL - {4, 9, 12}),  # all neighbour squares of different types
    (rule(9, True), {12}),  # all neighbour squares of the same type (tree, tree)
    (rule(10), {0, 2, 3, 5, 7, 8, 10, 12, 13, 15}),  # no egg type twice around me
    (rule(10, True), {1, 4}),  # eggs around me, all red
]


@pytest.mark.parametrize(("r", "expected"), SIDELESS, ids=lambda v: rule_text(v) if isinstance(v, dict) else "")
@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_templates_that_ignore_the_side(r: dict[str, Any], expected: set[int], seat: int) -> None:
    assert cells(r, seat) == expected


SOUTH_LEFT = {0, 1, 4, 5, 8, 9, 12, 13}
# Rules whose reading depends on the side: (rule, expected from south, north, west, east).
SIDED = [
    (rule(4, side="left"), [SOUTH_LEFT, ALL - SOUTH_LEFT, set(range(8)), set(range(8, 16))]),
    (rule(4, True, side="left"), [ALL - SOUTH_LEFT, SOUTH_LEFT, set(range(8, 16)), set(range(8))]),
    (rule(4, side="top"), [set(range(8)), set(range(8, 16)), {2, 3, 6, 7, 10, 11, 14, 15}, SOUTH_LEFT]),
    (rule(4, side="bottom"), [set(range(8, 16)), set(range(8)), SOUTH_LEFT, {2, 3, 6, 7, 10, 11, 14, 15}]),
    (rule(4, side="right"), [ALL - SOUTH_LEFT, SOUTH_LEFT, set(range(8, 16)), set(range(8))]),
    # dragons at x2,y0 and x3,y2: rows y0/y2 from south and north, columns x2/x3 from west and east
    (rule(12, tile="dragon", line="row"), [{0, 1, 2, 3, 8, 9, 10, 11}] * 2 + [{2, 3, 6, 7, 10, 11, 14, 15}] * 2),
    (rule(12, True, tile="dragon", line="row"), [{4, 5, 6, 7, 12, 13, 14, 15}] * 2 + [{0, 1, 4, 5, 8, 9, 12, 13}] * 2),
    (rule(12, tile="dragon", line="column"), [{2, 3, 6, 7, 10, 11, 14, 15}] * 2 + [{0, 1, 2, 3, 8, 9, 10, 11}] * 2),
    # red eggs on y0 and y1, in columns x0, x1, x2
    (rule(13, egg="red", line="row"), [set(range(8))] * 2 + [ALL - {3, 7, 11, 15}] * 2),
    (rule(13, True, egg="red", line="row"), [set(range(8, 16))] * 2 + [{3, 7, 11, 15}] * 2),
    (rule(13, egg="red", line="column"), [ALL - {3, 7, 11, 15}] * 2 + [set(range(8))] * 2),
    # eggs per row y0..y3: 1, 4, 1, 3; per column x0..x3: 1, 2, 3, 3
    (rule(14, n=2, line="row"), [{0, 1, 2, 3, 8, 9, 10, 11}] * 2 + [{0, 1, 4, 5, 8, 9, 12, 13}] * 2),
    (
        rule(14, True, n=2, line="row"),
        [{4, 5, 6, 7, 12, 13, 14, 15}] * 2 + [{1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15}] * 2,
    ),
    (rule(14, True, n=3, line="column"), [{2, 3, 6, 7, 10, 11, 14, 15}] * 2 + [{4, 5, 6, 7, 12, 13, 14, 15}] * 2),
]


@pytest.mark.parametrize(("r", "expected"), SIDED, ids=lambda v: rule_text(v) if isinstance(v, dict) else "")
def test_templates_read_from_each_side(r: dict[str, Any], expected: list[set[int]]) -> None:
    assert [cells(r, seat) for seat in range(4)] == expected
    assert [cells(r, seat + 4) for seat in range(4)] == expected  # seats 5-8 sit like seats 1-4


def test_pawns_in_my_row_or_column_both_senses() -> None:
    pawns = [1, 5, 9, 3]  # three pawns in column x1, one in x3
    at_least_3 = rule(15, n=3, line="column")
    at_most_2 = rule(15, True, n=2, line="column")
    assert cells(at_least_3, 0, pawns) == {1, 5, 9, 13}
    assert cells(at_most_2, 0, pawns) == ALL - {1, 5, 9, 13}
    # from the west, "row" is what the south calls a column
    assert cells(rule(15, n=3, line="row"), 2, pawns) == {1, 5, 9, 13}
    assert cells(rule(15, n=2, line="row"), 0, pawns) == {0, 1, 2, 3}  # y0 holds pawns at x1 and x3
    assert cells(rule(15, True, n=2, line="row"), 1, pawns) == ALL


def test_matches_the_rules_of_all_other_eggs() -> None:
    eleven = rule(11)
    rows = {"red": [rule(4, side="left")], "blue": [rule(2, True, egg="red")], "green": [eleven]}
    b = board(rows)
    assert set(matching_tiles(b, "green", 0)) == {1, 4, 8, 9, 12, 13}
    assert set(matching_tiles(b, "green", 1)) == {2, 3, 7, 10, 11, 14, 15}  # "left" from the north
    # another egg's own template-11 rule is ignored when reading it for this one
    rows["blue"] = [rule(2, True, egg="red"), {**eleven, "id": 7}]
    assert set(matching_tiles(board(rows), "green", 0)) == {1, 4, 8, 9, 12, 13}
    # with no other egg holding rules it points everywhere
    assert set(matching_tiles(board({"green": [eleven], "red": []}), "green", 0)) == ALL


def test_a_row_is_all_its_rules_together_and_an_empty_row_points_nowhere() -> None:
    rows = {"red": [rule(4, side="left"), rule(1, tile="tree")], "blue": []}
    b = board(rows)
    assert set(matching_tiles(b, "red", 0)) == {0, 8, 9, 13}
    assert matching_tiles(b, "blue", 0) == []
    assert row_is_balanced(b, "red", 0, rows["red"])
    assert not row_is_balanced(b, "red", 0, [rule(3, True, n=3)])  # every square: refused
    assert not row_is_balanced(b, "red", 0, [rule(1, tile="dragon"), rule(1, tile="tree")])  # none


def test_rule_texts_read_like_the_tiles() -> None:
    assert rule_text(rule(1, True, tile="cave")) == "My tile is not cave"
    assert rule_text(rule(3, n=2)) == "My tile has at least 2 eggs"
    assert rule_text(rule(14, n=3, line="column")) == "At most 3 eggs in my column"
    assert rule_text(rule(15, True, n=2, line="row")) == "At most 2 pawns in my row"
    assert rule_text(rule(12, True, tile="well", line="row")) == "There's no well tile in my row"


def _random_rule(rng: random.Random, i: int) -> dict[str, Any]:
    t = rng.randrange(1, 16)
    return {
        "id": i,
        "t": t,
        "neg": t != 11 and rng.random() < 0.5,
        "tile": rng.choice(TILE_TYPES),
        "egg": rng.choice(EGG_COLOURS[:4]),
        "n": rng.choice((2, 3)),
        "side": rng.choice(("left", "right", "top", "bottom")),
        "line": rng.choice(("row", "column")),
    }


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_mask_evaluator_agrees_with_a_square_by_square_reading(shape: str) -> None:
    """The engine's bit-mask evaluation against a plain oracle on random boards, every side."""
    rng = random.Random(shape)
    geo = geometry(shape)
    n = len(geo.cells)
    for _ in range(60):
        b: dict[str, Any] = {
            "shape": shape,
            "types": [rng.choice(TILE_TYPES) for _ in range(n)],
            "eggs": [{e: rng.randrange(1, 3) for e in EGG_COLOURS[:4] if rng.random() < 0.15} for _ in range(n)],
            "pawns": rng.sample(range(n), 4),
            "rows": {
                e: [_random_rule(rng, 10 * k + j) for j in range(rng.randrange(0, 4))]
                for k, e in enumerate(EGG_COLOURS[:4])
            },
        }
        for egg in b["rows"]:
            for seat in range(4):
                assert matching_tiles(b, egg, seat) == matching(b, egg, seat), (b, egg, seat)
