"""Reggverse's rule matching (games.reggverse.board) where the game leans on it beyond one fresh reading:
an index kept up to date egg by egg and pawn by pawn, the placements offered for a rule, the eggs a
square collects, the memo shared between sides, and the small pieces (frames, names, texts).

The oracle is tests/reggverse_reference.py, a square-by-square reading of the rule text that shares
nothing with the bit-mask evaluator but the geometry. Boards here go beyond a game's: up to 6 eggs on a
square (the index counts "at least n" up to 4), rules with "at least 1" or "at most 4", rows of 4 rules."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from itertools import count
from typing import Any

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

import games.reggverse.board as board_module
from games.reggverse.board import (
    READS,
    SIDES,
    _memo_key,
    balanced,
    destination,
    full_mask,
    geometry,
    index_board,
    matching_tiles,
    row_holds,
    row_is_balanced,
    rule_holds,
    rule_mask,
    rule_text,
    same_rule,
    to_local,
)
from games.reggverse.data import EGG_COLOURS, HALF_SIDES, LINES, SHAPES, TEMPLATE_PARAMS, TILE_TYPES
from tests.reggverse_reference import holds, matching

EGGS = EGG_COLOURS[:4]
# Few tile types, so that neighbours often share one (templates 6, 9, 12 at both ends).
TYPES = TILE_TYPES[:3]
# Under mutation testing (mutmut sets MUTANT_UNDER_TEST) a failure is all that counts: no shrinking, which on a
# loaded machine outlasts mutmut's time limit and turns a kill into a "timeout".
PHASES = (Phase.explicit, Phase.reuse, Phase.generate) if os.environ.get("MUTANT_UNDER_TEST") else tuple(Phase)
SETTINGS = settings(max_examples=40, deadline=None, phases=PHASES)

Board = dict[str, Any]
Rule = dict[str, Any]


def seat_of(side: str) -> int:
    return SIDES.index(side)


def oracle_mask(rule: Mapping[str, Any], board: Board, side: str, egg: str = "", rows: Any = None) -> int:
    rows = board["rows"] if rows is None else rows
    n = len(board["types"])
    return sum(1 << c for c in range(n) if holds(rule, c, board, seat_of(side), egg, rows))


def placeholder_values(t: int, neg: bool) -> list[dict[str, Any]]:
    """Every filling of template t's placeholders, "n" from 1 (at most 3 for "at most n eggs", whose
    index stops at 4)."""
    values: dict[str, Sequence[Any]] = {
        "tile": TYPES,
        "egg": EGGS,
        "n": (1, 2, 3) if t == 3 and neg else (1, 2, 3, 4),
        "side": HALF_SIDES,
        "line": LINES,
    }
    fillings: list[dict[str, Any]] = [{}]
    for p in TEMPLATE_PARAMS[t]:
        fillings = [{**f, p: v} for f in fillings for v in values[p]]
    return fillings


_ids = count(1000)
# Every rule of templates 1-15 but 11 in both senses and every filling (ids unique), and the same rules
# without ids (read afresh every time rather than remembered).
EVERY_RULE: list[Rule] = [
    {"id": next(_ids), "t": t, "neg": neg, **f}
    for t in range(1, 16)
    if t != 11
    for neg in (False, True)
    for f in placeholder_values(t, neg)
]
WITHOUT_IDS: list[Rule] = [{k: v for k, v in r.items() if k != "id"} for r in EVERY_RULE[::7]]


@st.composite
def rules(draw: st.DrawFn, with_eleven: bool = True) -> Rule:
    t = draw(st.integers(1, 15).filter(lambda t: with_eleven or t != 11))
    neg = t != 11 and draw(st.booleans())
    return {"t": t, "neg": neg, **draw(st.sampled_from(placeholder_values(t, neg)))}


def unique(row: list[Rule]) -> list[Rule]:
    kept: list[Rule] = []
    for r in row:
        if not any(same_rule(r, k) for k in kept):
            kept.append(r)
    return kept


@st.composite
def boards(draw: st.DrawFn, longest_row: int = 3) -> Board:
    shape = draw(st.sampled_from(sorted(SHAPES)))
    n = len(SHAPES[shape])
    types = draw(st.lists(st.sampled_from(TYPES), min_size=n, max_size=n))
    lying = st.dictionaries(st.sampled_from(EGGS), st.integers(0, 6), max_size=2)
    eggs = draw(st.lists(st.one_of(st.builds(dict), lying), min_size=n, max_size=n))
    pawns = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=4, unique=True))
    ids = count(1)
    rows = {
        egg: [{"id": next(ids), **r} for r in unique(draw(st.lists(rules(), max_size=longest_row)))] for egg in EGGS
    }
    return {"shape": shape, "types": types, "eggs": eggs, "pawns": pawns, "rows": rows}


# --- an index kept up to date ------------------------------------------------------------------------


def assert_reads_like_a_fresh_index(ix: Any, board: Board) -> None:
    fresh = index_board(board)
    # the counts per square it keeps: eggs lying there, pawns standing there
    squares = range(len(board["types"]))
    assert ix.totals == [sum(board["eggs"][c].values()) for c in squares]
    assert ix.pawn_count == [board["pawns"].count(c) for c in squares]
    for side in SIDES:
        for r in EVERY_RULE:
            assert ix.mask(r, side) == fresh.mask(r, side), (rule_text(r), side)
    for side in SIDES:  # and the fresh index as the rule text says, for the rules without ids
        for r in WITHOUT_IDS:
            assert fresh.mask(r, side) == oracle_mask(r, board, side), (rule_text(r), side)


@SETTINGS
@given(board=boards(longest_row=0), data=st.data())
def test_an_index_told_of_each_egg_and_pawn_change_reads_every_rule_as_a_fresh_one(board: Board, data: Any) -> None:
    ix = index_board(board)
    n = len(board["types"])
    assert_reads_like_a_fresh_index(ix, board)  # every mask remembered before the changes
    for _ in range(data.draw(st.integers(1, 6))):
        what = data.draw(st.sampled_from(("put", "take", "move")))
        if what == "move":
            seat = data.draw(st.integers(0, len(board["pawns"]) - 1))
            free = [c for c in range(n) if c not in board["pawns"]]
            board["pawns"][seat] = data.draw(st.sampled_from(free))
            ix.pawns_changed()
        elif what == "put":
            cell, egg = data.draw(st.integers(0, n - 1)), data.draw(st.sampled_from(EGGS))
            board["eggs"][cell][egg] = board["eggs"][cell].get(egg, 0) + 1
            ix.eggs_changed(cell, egg, 1)
        else:
            lying = [(c, e) for c in range(n) for e, k in board["eggs"][c].items() if k > 0]
            if not lying:
                continue
            cell, egg = data.draw(st.sampled_from(lying))
            board["eggs"][cell][egg] -= 1
            if not board["eggs"][cell][egg]:
                del board["eggs"][cell][egg]  # as the engine does
            ix.eggs_changed(cell, egg, -1)
        assert_reads_like_a_fresh_index(ix, board)


def test_eggs_piling_up_and_going_one_by_one_on_one_square() -> None:
    """Worked example of the counts at the index's edges: 0 to 6 eggs and back on square 5."""
    board: Board = {"shape": "4x4", "types": ["tree"] * 16, "eggs": [{} for _ in range(16)], "pawns": [0], "rows": {}}
    ix = index_board(board)
    at_least = {n: {"id": 50 + n, "t": 3, "neg": False, "n": n} for n in (1, 2, 3, 4)}
    at_most = {n: {"id": 60 + n, "t": 3, "neg": True, "n": n} for n in (1, 2, 3)}
    one_type = {"id": 70, "t": 5, "neg": True}
    no_duplicates = {"id": 71, "t": 5, "neg": False}
    seen = []
    for by in [1] * 6 + [-1] * 6:
        board["eggs"][5]["red"] = board["eggs"][5].get("red", 0) + by
        ix.eggs_changed(5, "red", by)
        total = board["eggs"][5]["red"]
        if not total:
            del board["eggs"][5]["red"]
        seen.append(total)
        for n, r in at_least.items():
            assert (ix.mask(r, "south") >> 5 & 1) == (total >= n), (n, total)
        for n, r in at_most.items():
            assert (ix.mask(r, "south") >> 5 & 1) == (total <= n), (n, total)
        assert (ix.mask(one_type, "south") >> 5 & 1) == (total > 0)
        assert (ix.mask(no_duplicates, "south") >> 5 & 1) == (total <= 1)
    assert seen == [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1, 0]


def test_a_second_egg_type_on_a_square_and_its_going() -> None:
    board: Board = {"shape": "4x4", "types": ["tree"] * 16, "eggs": [{} for _ in range(16)], "pawns": [0], "rows": {}}
    board["eggs"][5] = {"red": 2}
    ix = index_board(board)
    one_type = {"id": 1, "t": 5, "neg": True}
    no_duplicates = {"id": 2, "t": 5, "neg": False}
    blue_here = {"id": 3, "t": 2, "neg": False, "egg": "blue"}
    assert ix.mask(one_type, "south") >> 5 & 1 and not ix.mask(no_duplicates, "south") >> 5 & 1
    board["eggs"][5]["blue"] = 1
    ix.eggs_changed(5, "blue", 1)
    assert not ix.mask(one_type, "south") >> 5 & 1 and ix.mask(blue_here, "south") == 1 << 5
    board["eggs"][5]["red"] = 1
    ix.eggs_changed(5, "red", -1)  # red and blue, one each: no duplicate any more
    assert ix.mask(no_duplicates, "south") >> 5 & 1
    del board["eggs"][5]["blue"]
    ix.eggs_changed(5, "blue", -1)  # red alone again
    assert ix.mask(one_type, "south") >> 5 & 1 and ix.mask(blue_here, "south") == 0


# --- placements, collecting, reading with other rows ------------------------------------------------


def legal_placements(board: Board, eggs: Sequence[str], rule: Rule, side: str) -> list[tuple[str, int | None]]:
    """The placements the rule text allows, tried one by one: next to the row (at most 3 rules) or on top
    of one of its rules, the row's rules all different and pointing at some square but not all."""
    found: list[tuple[str, int | None]] = []
    n = len(board["types"])
    for egg in eggs:
        row = board["rows"][egg]
        tries: list[tuple[int | None, list[Rule]]] = [(None, [*row, rule])] if len(row) < 3 else []
        tries += [(r["id"], [*row[:i], rule, *row[i + 1 :]]) for i, r in enumerate(row)]
        for covered, new in tries:
            if len(unique(new)) < len(new):
                continue
            rows = {**board["rows"], egg: new}
            pointed = len(matching({**board, "rows": rows}, egg, seat_of(side)))
            if 0 < pointed < n:
                found.append((egg, covered))
    return found


@st.composite
def boards_and_a_new_rule(draw: st.DrawFn) -> tuple[Board, Rule]:
    board = draw(boards(longest_row=4))
    rows = board["rows"]
    placed = [r for row in rows.values() for r in row]
    # Often a rule the rows already hold (it may only cover it), on a tile of its own.
    repeat: bool = len(placed) > 0 and draw(st.booleans())
    if repeat:
        rule = dict(draw(st.sampled_from(placed)))
    else:
        rule = draw(rules())
    rule["id"] = 999
    return board, rule


@SETTINGS
@given(case=boards_and_a_new_rule(), side=st.sampled_from(SIDES), first=st.booleans())
def test_placements_are_exactly_those_the_rule_text_allows(case: tuple[Board, Rule], side: str, first: bool) -> None:
    board, rule = case
    ix = index_board(board)
    eggs = list(board["rows"])
    expected = legal_placements(board, eggs, rule, side)
    if first:
        expected = list({egg: (egg, covered) for egg, covered in reversed(expected)}.values())[::-1]
    assert ix.placements(eggs, rule, side, first) == expected


def test_a_rule_pointing_nowhere_or_everywhere_goes_nowhere_and_a_long_row_takes_none_beside() -> None:
    board: Board = {"shape": "4x4", "types": ["tree"] * 8 + ["cave"] * 8, "eggs": [{}] * 16, "pawns": [0]}
    left = {"id": 2, "t": 4, "neg": False, "side": "left"}
    right = {"id": 4, "t": 4, "neg": False, "side": "right"}
    cave = {"id": 1, "t": 1, "neg": False, "tile": "cave"}  # the bottom half: squares 8-15
    no_red = {"id": 3, "t": 2, "neg": True, "egg": "red"}  # every square (no egg anywhere)
    # green's 4 rules (a hand-made row) point nowhere: left and right
    board["rows"] = {"red": [], "blue": [left], "green": [left, right, cave, no_red]}
    ix = index_board(board)
    nowhere = {"id": 9, "t": 1, "neg": False, "tile": "dragon"}
    everywhere = {"id": 10, "t": 1, "neg": True, "tile": "dragon"}
    assert ix.placements(["red", "blue", "green"], nowhere, "south") == []
    # everywhere: never alone (red, or on top of blue's only rule), beside blue's rule it leaves the left half
    assert ix.placements(["red", "blue"], everywhere, "south") == [("blue", None)]
    # green takes nothing beside its 4 rules; "bottom" on top of left or right leaves one quarter
    bottom = {"id": 11, "t": 4, "neg": False, "side": "bottom"}
    assert ix.placements(["green"], bottom, "south") == [("green", 2), ("green", 4)]
    assert ix.placements(["green"], bottom, "south", first=True) == [("green", 2)]
    assert set(matching_tiles(board, "green", 0, [bottom, right, cave, no_red])) == {10, 11, 14, 15}


def test_a_row_pointing_at_every_square_but_one_is_balanced() -> None:
    """The none/all test at its edges: every square but one (the first or the last) passes, every square fails."""
    board: Board = {"shape": "4x4", "types": ["tree"] + ["cave"] * 14 + ["well"], "eggs": [{}] * 16, "pawns": [0]}
    board["rows"] = {"red": []}
    for lone in ("tree", "well"):
        row = [{"id": 1, "t": 1, "neg": True, "tile": lone}]
        assert len(matching_tiles(board, "red", 0, row)) == 15
        assert row_is_balanced(board, "red", 0, row), lone
        assert balanced(rule_mask(row[0], board, "south"), board), lone
    assert not row_is_balanced(board, "red", 0, [{"id": 2, "t": 1, "neg": True, "tile": "dragon"}])
    assert not balanced(0, board) and balanced(1, board) and not balanced(full_mask(board), board)
    assert full_mask(board) == 0xFFFF


def test_matching_the_rules_of_all_other_eggs_reads_the_other_rows_only() -> None:
    """Template 11 placed or collected: it reads every row but its own egg's; pointing nowhere for one egg
    it may still go to the next; a row holding a rule twice (hand-made) takes it nowhere."""
    board: Board = {"shape": "4x4", "types": ["tree"] * 16, "eggs": [{}] * 16, "pawns": [0]}
    left = {"id": 2, "t": 4, "neg": False, "side": "left"}
    right = {"id": 4, "t": 4, "neg": False, "side": "right"}
    eleven = {"id": 9, "t": 11, "neg": False}
    board["rows"] = {"red": [left], "blue": []}
    # no other row: it points everywhere, so only beside red's rule, never alone on top of it
    assert index_board(board).placements(["red"], eleven, "south") == [("red", None)]
    board["rows"] = {"green": [], "red": [left], "blue": [right]}
    # for green it points nowhere (left and right); for red at blue's right half, for blue at red's left
    assert index_board(board).placements(["green", "red", "blue"], eleven, "south") == [("red", 2), ("blue", 4)]
    board["rows"] = {"red": [{**eleven, "id": 10}], "blue": [left]}
    assert index_board(board).pointing_at(["red", "blue"], "south", 0, {}) == ["red", "blue"]
    assert index_board(board).pointing_at(["red", "blue"], "south", 3, {}) == []
    board["rows"] = {"red": [left, {**left, "id": 3}]}
    assert index_board(board).placements(["red"], {**left, "id": 11}, "south") == []
    assert index_board(board).placements(["red"], right, "south") == []  # left and right: nowhere


def test_rules_without_ids_are_read_each_for_itself_never_remembered_for_another() -> None:
    """Masks are remembered by rule id: two rules without one (hand-made, not from a tile) must not
    share a remembered mask, when placing a rule or when collecting."""
    board: Board = {"shape": "4x4", "types": ["tree"] + ["cave"] * 15, "eggs": [{}] * 16, "pawns": [0]}
    on_tree = {"t": 1, "neg": False, "tile": "tree"}  # square 0 only
    not_on_well = {"t": 1, "neg": True, "tile": "well"}  # every square
    on_cave = {"t": 1, "neg": False, "tile": "cave"}  # all but square 0
    board["rows"] = {"red": [on_tree], "blue": [not_on_well], "green": [on_cave]}
    ix = index_board(board)
    everywhere = {"id": 9, "t": 1, "neg": True, "tile": "dragon"}
    assert ix.placements(["red", "blue"], everywhere, "south") == [("red", None)]
    assert ix.placements(["blue", "red"], everywhere, "south") == [("red", None)]
    assert index_board(board).pointing_at(["red", "green"], "south", 0, {}) == ["red"]
    assert index_board(board).pointing_at(["green", "red"], "south", 1, {}) == ["green"]


@SETTINGS
@given(board=boards(), side=st.sampled_from(SIDES), data=st.data())
def test_a_square_collects_the_eggs_its_rows_point_at_unless_they_lie_there(board: Board, side: str, data: Any) -> None:
    cell = data.draw(st.integers(0, len(board["types"]) - 1))
    ix = index_board(board)
    lying = board["eggs"][cell]
    expected = [
        egg for egg in EGGS if not lying.get(egg) and cell in matching(board, egg, seat_of(side)) and board["rows"][egg]
    ]
    assert ix.pointing_at(EGGS, side, cell, lying) == expected
    for egg in EGGS:  # the same rows, asked one rule or one row at a time
        row = board["rows"][egg]
        assert row_holds(row, cell, board, side, egg) == (cell in matching(board, egg, seat_of(side)))
        for r in row:
            assert rule_holds(r, cell, board, side, egg) == holds(r, cell, board, seat_of(side), egg, board["rows"])


@SETTINGS
@given(board=boards(), data=st.data())
def test_rules_read_with_other_rows_in_their_place(board: Board, data: Any) -> None:
    """`rows` replaces the board's rows for the reading (a placement tried before it is made); rules
    without an id are read afresh."""
    others = data.draw(st.fixed_dictionaries({egg: st.lists(rules(), max_size=3) for egg in EGGS}))
    rows = {
        egg: [{"id": 500 + 10 * k + j, **r} for j, r in enumerate(row)] for k, (egg, row) in enumerate(others.items())
    }
    side = data.draw(st.sampled_from(SIDES))
    n = len(board["types"])
    ix = index_board(board)
    for egg in EGGS:
        for r in [*rows[egg], {"t": 11, "neg": False}]:
            expected = oracle_mask(r, board, side, egg, rows)
            assert rule_mask(r, board, side, egg, rows) == expected
            assert rule_mask(r, board, side, egg, rows, ix) == expected
            assert all(rule_holds(r, c, board, side, egg, rows) == bool(expected >> c & 1) for c in range(n))
        mine = {**rows, egg: rows[egg]}
        expected_cells = matching({**board, "rows": mine}, egg, seat_of(side))
        assert all(row_holds(rows[egg], c, board, side, egg, rows, ix) == (c in expected_cells) for c in range(n))
        assert matching_tiles({**board, "rows": rows}, egg, seat_of(side)) == expected_cells
        assert matching_tiles(board, egg, seat_of(side), rows[egg]) == matching(
            {**board, "rows": {**board["rows"], egg: rows[egg]}}, egg, seat_of(side)
        )
        assert row_is_balanced(board, egg, seat_of(side), rows[egg]) == (
            0 < len(matching({**board, "rows": {**board["rows"], egg: rows[egg]}}, egg, seat_of(side))) < n
        )


# --- the memo shared between sides --------------------------------------------------------------------


@settings(max_examples=30, deadline=None, phases=PHASES)
@given(board=boards(longest_row=0))
def test_sides_share_a_remembered_mask_exactly_when_they_read_the_same_squares(board: Board) -> None:
    """A mask is remembered under `_memo_key(side, template)`: sides with one key must read every rule of
    the template alike on any board, and the memo is shared as widely as the template allows: one for
    all sides (templates that read no side), one per axis (rows and columns), one per side (halves).
    The key's first part is what the template reads, whose change forgets the mask."""
    fresh = index_board(board)
    for t in range(16):
        keys = [_memo_key(side, t) for side in SIDES]
        if t not in READS:
            assert keys == [None] * 4, t
            continue
        assert all(key is not None and key[0] == READS[t] for key in keys), t
        for a in SIDES:
            for b in SIDES:
                if _memo_key(a, t) == _memo_key(b, t):
                    assert all(fresh.mask(r, a) == fresh.mask(r, b) for r in EVERY_RULE if r["t"] == t), (t, a, b)
        groups = len(set(keys))
        assert groups == (1 if t in (1, 2, 3, 5, 6, 7, 8, 9, 10) else 2 if t in (12, 13, 14, 15) else 4), t


def test_a_mask_is_worked_out_once_until_what_its_rule_reads_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The index's contract (BoardIndex): masks are remembered by rule id, once for the sides that read
    alike; placing and collecting read the same memo; an egg change forgets only the rules reading eggs
    and a pawn move only those reading pawns. Counted at the one function that works a mask out."""
    worked: list[tuple[int, str]] = []
    work_out = board_module._base_mask

    def counting(rule: Rule, ix: Any, side: str) -> int:
        worked.append((rule["id"], side))
        return work_out(rule, ix, side)

    monkeypatch.setattr(board_module, "_base_mask", counting)
    tile = {"id": 1, "t": 1, "neg": True, "tile": "tree"}
    half = {"id": 2, "t": 4, "neg": False, "side": "left"}
    tile_line = {"id": 3, "t": 12, "neg": False, "tile": "tree", "line": "row"}
    egg = {"id": 4, "t": 2, "neg": True, "egg": "red"}
    egg_line = {"id": 5, "t": 13, "neg": False, "egg": "red", "line": "column"}
    pawn = {"id": 6, "t": 8, "neg": True}
    pawn_line = {"id": 7, "t": 15, "neg": True, "n": 1, "line": "row"}
    board: Board = {
        "shape": "4x4",
        "types": ["tree", "cave"] * 8,
        "eggs": [{"red": 1} if c in (5, 10) else {} for c in range(16)],
        "pawns": [0, 15],
        "rows": {"red": [tile, half], "blue": [tile_line, egg], "green": [pawn, egg_line], "yellow": [pawn_line]},
    }
    every: list[Rule] = [tile, half, tile_line, egg, egg_line, pawn, pawn_line]
    ix = index_board(board)

    def work(read: Any) -> list[int]:
        worked.clear()
        read()
        return sorted(i for i, _ in worked)

    def read_all(side: str) -> Any:
        return lambda: [ix.mask(r, side) for r in every]

    assert work(lambda: ix.pointing_at(EGGS, "south", 3, {})) == [1, 2, 3, 4, 5, 6, 7]
    assert work(lambda: ix.pointing_at(EGGS, "south", 3, {})) == []
    assert work(read_all("south")) == []
    assert work(lambda: ix.placements(EGGS, {"id": 8, "t": 5, "neg": False}, "south")) == [8]
    assert work(read_all("north")) == [2]  # the same rows and columns, the other halves
    assert work(read_all("west")) == [2, 3, 5, 7]
    assert work(lambda: ix.placements(EGGS, {"id": 8, "t": 5, "neg": False}, "east")) == [2]  # lines as west
    assert work(lambda: ix.pointing_at(EGGS, "east", 3, {})) == []
    board["eggs"][3]["red"] = 1
    ix.eggs_changed(3, "red", 1)
    assert work(read_all("south")) == [4, 5]
    assert work(lambda: ix.pointing_at(EGGS, "north", 3, {})) == []
    board["pawns"][1] = 14
    ix.pawns_changed()
    assert work(lambda: ix.pointing_at(EGGS, "south", 3, {})) == [6, 7]
    assert work(read_all("north")) == []
    assert work(read_all("east")) == [5, 7]  # the lines across, forgotten by both changes


# --- frames, names, movement, texts --------------------------------------------------------------------


def test_squares_seen_from_each_side_of_a_five_by_four_map() -> None:
    # (x, y) on a 5-wide, 4-high map: each corner goes to the corner the viewer sees it in.
    corners = {(0, 0): "north-west", (4, 0): "north-east", (0, 3): "south-west", (4, 3): "south-east"}
    seen = {side: {name: to_local(side, x, y, 5, 4) for (x, y), name in corners.items()} for side in SIDES}
    assert seen["south"] == {"north-west": (0, 0), "north-east": (4, 0), "south-west": (0, 3), "south-east": (4, 3)}
    assert seen["north"] == {"north-west": (4, 3), "north-east": (0, 3), "south-west": (4, 0), "south-east": (0, 0)}
    # from the west (facing east, 4 wide and 5 deep): north is on the left, east is far
    assert seen["west"] == {"north-west": (0, 4), "north-east": (0, 0), "south-west": (3, 4), "south-east": (3, 0)}
    assert seen["east"] == {"north-west": (3, 0), "north-east": (3, 4), "south-west": (0, 0), "south-east": (0, 4)}
    assert to_local("south", 2, 1, 5, 4) == (2, 1)
    assert to_local("north", 2, 1, 5, 4) == (2, 2)
    assert to_local("west", 2, 1, 5, 4) == (1, 2)
    assert to_local("east", 2, 1, 5, 4) == (2, 2)
    assert to_local("west", 1, 2, 5, 4) == (2, 3)
    assert to_local("east", 1, 2, 5, 4) == (1, 1)


@pytest.mark.parametrize("side", SIDES)
@pytest.mark.parametrize(("width", "height"), [(4, 4), (5, 4), (5, 5), (3, 2)])
def test_every_side_sees_each_square_once_in_its_own_rectangle(side: str, width: int, height: int) -> None:
    seen = [to_local(side, x, y, width, height) for y in range(height) for x in range(width)]
    lw, lh = (width, height) if side in ("south", "north") else (height, width)
    assert sorted(seen) == [(x, y) for x in range(lw) for y in range(lh)]


def test_square_names_read_from_each_side() -> None:
    geo = geometry("5x4")  # square 0 is x0 y0 (north-west), 19 is x4 y3 (south-east), 7 is x2 y1
    assert [geo.name(c) for c in (0, 4, 7, 15, 19)] == ["a1", "e1", "c2", "a4", "e4"]
    assert [geo.local_name(0, side) for side in SIDES] == ["a1", "e4", "a5", "d1"]
    assert [geo.local_name(7, side) for side in SIDES] == ["c2", "c3", "b3", "c3"]


def test_a_move_is_read_from_the_mover_side_and_stops_at_the_edge() -> None:
    geo = geometry("4x4")
    forward, right = (0, -1), (1, 0)
    # square 5 (x1 y1): forward is toward the far edge, right is the viewer's right
    assert [destination(geo, side, 5, forward) for side in SIDES] == [1, 9, 6, 4]
    assert [destination(geo, side, 5, right) for side in SIDES] == [6, 4, 9, 1]
    assert destination(geo, "south", 5, (1, 1)) == 10
    assert destination(geo, "south", 1, forward) is None  # off the north edge
    assert destination(geo, "north", 13, forward) is None  # the south edge is the north player's far edge
    assert destination(geo, "west", 3, forward) is None
    assert destination(geo, "east", 4, forward) is None  # x0, the west edge, is the east player's far edge
    ring = geometry("ring")
    assert destination(ring, "south", ring.cells.index((0, 1)), right) is None  # the ring's hole


RULE_TEXTS = [
    ({"t": 1, "neg": False, "tile": "cave"}, "My tile is cave"),
    ({"t": 1, "neg": True, "tile": "cave"}, "My tile is not cave"),
    ({"t": 2, "neg": False, "egg": "red"}, "My tile has a red egg"),
    ({"t": 2, "neg": True, "egg": "red"}, "My tile has no red egg"),
    ({"t": 3, "neg": False, "n": 2}, "My tile has at least 2 eggs"),
    ({"t": 3, "neg": True, "n": 3}, "My tile has at most 3 eggs"),
    ({"t": 4, "neg": False, "side": "top"}, "My tile is in the top half"),
    ({"t": 4, "neg": True, "side": "left"}, "My tile is not in the left half"),
    ({"t": 5, "neg": False}, "My tile has no duplicate eggs"),
    ({"t": 5, "neg": True}, "My tile has only eggs of one type"),
    ({"t": 6, "neg": False, "tile": "well"}, "I'm next to a well tile"),
    ({"t": 6, "neg": True, "tile": "well"}, "I'm not next to a well tile"),
    ({"t": 7, "neg": False, "egg": "blue"}, "I'm next to a blue egg"),
    ({"t": 7, "neg": True, "egg": "blue"}, "I'm not next to a blue egg"),
    ({"t": 8, "neg": False}, "I'm next to a tile with a pawn"),
    ({"t": 8, "neg": True}, "I'm not next to a tile with a pawn"),
    ({"t": 9, "neg": False}, "All my neighbour tiles have different type"),
    ({"t": 9, "neg": True}, "All my neighbour tiles have the same type"),
    ({"t": 10, "neg": False}, "All my neighbour tiles have different egg types"),
    ({"t": 10, "neg": True}, "All my neighbour tiles have the same egg types"),
    ({"t": 11, "neg": False}, "My tile matches the rules of all other eggs"),
    ({"t": 12, "neg": False, "tile": "tower", "line": "column"}, "There's a tower tile in my column"),
    ({"t": 12, "neg": True, "tile": "tower", "line": "row"}, "There's no tower tile in my row"),
    ({"t": 13, "neg": False, "egg": "green", "line": "row"}, "There's a green egg in my row"),
    ({"t": 13, "neg": True, "egg": "green", "line": "column"}, "There's no green egg in my column"),
    ({"t": 14, "neg": False, "n": 2, "line": "row"}, "At most 2 eggs in my row"),
    ({"t": 14, "neg": True, "n": 3, "line": "column"}, "At least 3 eggs in my column"),
    ({"t": 15, "neg": False, "n": 2, "line": "column"}, "At least 2 pawns in my column"),
    ({"t": 15, "neg": True, "n": 3, "line": "row"}, "At most 3 pawns in my row"),
    ({"t": 14, "n": 2}, "At most 2 eggs in my row"),  # no sense given: the first; no line given: a row
]


@pytest.mark.parametrize(("rule", "text"), RULE_TEXTS, ids=[text for _, text in RULE_TEXTS])
def test_each_rule_reads_as_printed_on_its_tile(rule: Rule, text: str) -> None:
    assert rule_text(rule) == text


def test_an_unknown_template_is_refused_by_name() -> None:
    board: Board = {"shape": "4x4", "types": ["tree"] * 16, "eggs": [{}] * 16, "pawns": [0], "rows": {}}
    for bad in (0, 16):
        with pytest.raises(ValueError, match=f"unknown rule template {bad}"):
            rule_text({"t": bad, "neg": False})
    with pytest.raises(ValueError, match="unknown rule template 0"):
        index_board(board).mask({"id": 1, "t": 0, "neg": False}, "south")
    with pytest.raises(ValueError, match="unknown rule template 0"):
        index_board(board).mask({"t": 0, "neg": False}, "south")


def test_two_rules_are_the_same_when_they_say_the_same_whatever_their_tiles() -> None:
    rule = {"id": 1, "t": 12, "neg": True, "tile": "tree", "line": "row"}
    assert same_rule(rule, {**rule, "id": 2})
    for key, other in [("t", 13), ("neg", False), ("tile", "cave"), ("line", "column")]:
        assert not same_rule(rule, {**rule, key: other}), key
    for key, value in [("egg", "red"), ("n", 2), ("side", "left")]:  # a placeholder one has, the other not
        assert not same_rule(rule, {**rule, key: value}), key
