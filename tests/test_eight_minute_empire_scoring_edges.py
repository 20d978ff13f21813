"""Eight-Minute Empire's end-of-game scoring at its edges, found unchecked by mutation testing (issue 24).

Each test names the rule it pins (rules: /work/shared/rules, "Scoring"); `make mutation` measures what is
left (bench/REPORT.md).
"""

from __future__ import annotations

from typing import Any

import pytest

from games.eight_minute_empire.board import build
from games.eight_minute_empire.cards import Card, all_cards
from games.eight_minute_empire.scoring import (
    NOBODY,
    ability_points,
    continent_controllers,
    controller,
    elixir_points,
    region_controllers,
    score,
    tie_key,
)


def card(name: str) -> Card:
    return next(c for c in all_cards() if c.name == name)


def cards(*names: str) -> list[Card]:
    return [card(n) for n in names]


def ids(*names: str) -> list[int]:
    return [card(n).id for n in names]


# --- control ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("strengths", "owner"),
    [([], NOBODY), ([0, 0], NOBODY), ([2, 2, 1], NOBODY), ([1, 3, 2], 1), ([0, 0, 1], 2), ([1], 0), ([-1, 0], NOBODY)],
)
def test_a_region_is_controlled_by_strictly_the_most_strength(strengths: list[int], owner: int) -> None:
    assert controller(strengths) == owner


def test_cities_count_as_armies_for_control() -> None:
    armies = [[2, 1, 0], [1, 1, 0], [0, 0, 0]]
    cities = [[0, 1], [0, 0], [0, 1]]  # seats only: the neutral party (column 2) builds no cities
    assert region_controllers(armies, cities) == [NOBODY, NOBODY, 1]
    assert region_controllers([[1, 2]], [[2, 0]]) == [0]


def test_a_continent_goes_to_the_seat_with_strictly_most_of_its_regions_and_never_to_the_neutrals() -> None:
    board = build("2x2")
    first, second = board.continents[0], board.continents[1]
    controls = [NOBODY] * board.size
    for r in first:
        controls[r] = 2  # the neutral party of a 2-player game: no contender
    controls[second[0]] = 1
    controls[second[1]] = 0
    assert continent_controllers(board, controls, 2)[:2] == [NOBODY, NOBODY]
    controls[second[0]] = 0
    controls[first[0]] = 1
    assert continent_controllers(board, controls, 2)[:2] == [1, 0]


# --- abilities ---------------------------------------------------------------------------------------------
def test_a_vp_per_family_card_with_no_card_of_that_family_scores_nothing() -> None:
    assert ability_points(cards("Graveyard"), 0) == 0  # +1 VP per Cursed card, and no Cursed card
    assert ability_points(cards("Graveyard", "Cursed King", "Cursed Banshee"), 0) == 2
    assert ability_points(cards("Ancient Sage"), 0) == 1  # it is an Ancient card itself


def test_vp_per_flying_card_counts_every_flying_card_in_the_hand() -> None:
    assert ability_points(cards("Cursed Tower"), 0) == 0
    assert ability_points(cards("Cursed Tower", "Cursed Gargoyles", "Dire Dragon"), 0) == 2


def test_a_complete_set_scores_its_points_and_an_incomplete_one_nothing() -> None:
    assert ability_points(cards("Mountain Dwarf"), 0) == 0
    assert ability_points(cards("Mountain Dwarf", "Mountain Treasury"), 0) == 3  # both Mountain cards
    nobles = [c for c in all_cards() if c.family == "Noble"]
    assert ability_points(nobles, 0) == 4
    assert ability_points(nobles[:2], 0) == 0


def test_vp_per_coins_rounds_down() -> None:
    ogre = cards("Dire Ogre")  # +1 VP per 2 coins
    assert [ability_points(ogre, coins) for coins in (0, 1, 2, 3, 7)] == [0, 0, 1, 1, 3]


@pytest.mark.parametrize(
    ("elixirs", "points"),
    [([0, 0, 0], [0, 0, 0]), ([3, 1, 0], [2, 0, 0]), ([2, 2, 1], [1, 1, 0]), ([1, 1, 1], [1, 1, 1]), ([], [])],
)
def test_most_elixirs_score_two_and_a_tie_for_most_one_each(elixirs: list[int], points: list[int]) -> None:
    assert elixir_points(elixirs) == points


# --- the whole score ------------------------------------------------------------------------------------------
def _score(**changes: Any) -> list[dict[str, Any]]:
    board = build("2x2")
    n = board.size
    setup: dict[str, Any] = {
        "armies": [[0, 0, 0] for _ in range(n)],
        "cities": [[0, 0] for _ in range(n)],
        "hands": [[], []],
        "coins": [0, 0],
        "explore": [[], []],
        "citadels": [],
    }
    setup.update(changes)
    return score(board, 2, **setup)


def test_a_magic_book_adds_a_point_and_breaks_ties() -> None:
    plain, booked = _score(), _score(explore=[["Magic Book"], []])
    assert plain[0]["total"] == 0 and booked[0]["total"] == 1 and booked[0]["magic_book"] == 1
    two = _score(explore=[["Magic Book", "Magic Book"], []])
    assert two[0]["total"] == 2
    assert tie_key(booked[0]) > tie_key(booked[1])


def test_magic_springs_count_two_elixirs_each() -> None:
    rows = _score(hands=[ids("Ancient Tree Spirit"), []], explore=[[], ["Magic Spring", "Magic Spring"]])
    assert [r["elixir_count"] for r in rows] == [3, 4]
    assert [r["elixirs"] for r in rows] == [0, 2]
    assert [r["total"] for r in rows] == [0, 2]


def test_every_part_of_the_score_is_added_to_the_total() -> None:
    board = build("2x2")
    armies = [[0, 0, 0] for _ in range(board.size)]
    for r in board.continents[0]:
        armies[r][0] = 2  # seat 1 holds a whole continent: its regions, and the continent
    armies[board.continents[1][0]][1] = 3
    armies[board.continents[1][1]][2] = 1  # a neutral army: counted on the board, scores nothing
    citadel = board.continents[0][0]
    rows = _score(
        armies=armies,
        hands=[ids("Dire Ogre", "Stronghold", "Dire Goblin"), ids("Forest Gnome")],
        coins=[5, 1],
        explore=[["Magic Book"], []],
        citadels=[citadel],
    )
    first, second = rows
    regions = len(board.continents[0])
    assert first["regions"] == first["controlled_regions"] == regions
    assert first["continents"] == 1 and second["continents"] == 1  # seat 2 has 1 of 2 regions, nobody else any
    assert first["abilities"] == 2 + 2  # the Ogre: 5 coins // 2; the Stronghold: 1 per Dire card (Ogre, Goblin)
    assert first["citadels"] == 1 and second["citadels"] == 0
    assert (first["elixirs"], second["elixirs"]) == (0, 2)  # 1 elixir against 3
    assert first["total"] == regions + 1 + 4 + 0 + 1 + 1
    assert second["total"] == 1 + 1 + 0 + 2
    assert (first["coins"], second["coins"]) == (5, 1)
    assert (first["armies_on_board"], second["armies_on_board"]) == (2 * regions, 3)


def test_known_controls_are_used_as_given() -> None:
    board = build("2x2")
    controls = [NOBODY] * board.size
    controls[0] = 1
    rows = score(
        board,
        2,
        [[0, 0, 0] for _ in range(board.size)],
        [[0, 0] for _ in range(board.size)],
        [[], []],
        [0, 0],
        [[], []],
        [],
        controls=controls,
    )
    assert [r["regions"] for r in rows] == [0, 1]


def test_ties_are_broken_by_points_then_book_coins_armies_and_regions() -> None:
    row = {"total": 5, "magic_book": 0, "coins": 3, "armies_on_board": 7, "controlled_regions": 2, "other": 9}
    assert tie_key(row) == (5, 0, 3, 7, 2)


def test_a_set_card_outside_its_family_scores_only_a_complete_set() -> None:
    # No such card is in the box (each set card belongs to its family), but the rule reads so.
    outsider = Card(99, "Noble Patron", None, None, (("vp_set", "Noble", 4),), "one", (("place", 1),))
    assert ability_points([outsider], 0) == 0
    nobles = [c for c in all_cards() if c.family == "Noble"]
    assert ability_points([outsider, *nobles], 0) == 4 + 4


def test_a_set_adds_its_points_to_the_others() -> None:
    hand = cards("Dire Ogre", "Mountain Dwarf", "Mountain Treasury")  # 4 coins // 2, and the Mountain set
    assert ability_points(hand, 4) == 2 + 3


def test_inputs_of_different_sizes_are_refused_not_cut_short() -> None:
    with pytest.raises(ValueError):
        region_controllers([[1, 0], [0, 1]], [[0, 0]])
    board = build("2x2")
    ragged = [[0, 0, 0] for _ in range(board.size)]
    ragged[3] = [0, 0]
    with pytest.raises(ValueError):
        _score(armies=ragged)
