"""Reggverse's secret objectives at their boundaries (games/reggverse/objectives.py), for mutation testing
(issue 24): each threshold one egg under and at its value, ties, the guesser's cases."""

from __future__ import annotations

from typing import Any

import pytest

from games.reggverse.objectives import neighbours, objective_points

EGGS = ["red", "green", "blue"]


def points(
    kind: str, named: list[str], collected: list[dict[str, int]], seat: int = 0, out_order: list[str] | None = None
) -> int:
    tile = {"id": 0, "kind": kind, "eggs": named, "text": kind}
    return objective_points(tile, seat, collected, EGGS, out_order or [], [], [0], [tile])


@pytest.mark.parametrize(
    ("seat", "players", "expected"), [(0, 2, (1, 1)), (0, 3, (1, 2)), (1, 3, (2, 0)), (3, 4, (0, 2))]
)
def test_the_left_neighbour_is_the_next_seat_and_the_right_the_previous(
    seat: int, players: int, expected: tuple[int, int]
) -> None:
    assert neighbours(seat, players) == expected


@pytest.mark.parametrize(
    ("kind", "named", "mine", "expected"),
    [
        ("five_of_two", ["red", "green"], {"red": 5}, 10),  # the first named egg
        ("five_of_two", ["red", "green"], {"green": 5, "blue": 9}, 10),  # the second
        ("five_of_two", ["red", "green"], {"red": 3, "green": 2}, 10),  # the two counted together
        ("five_of_two", ["red", "green"], {"red": 2, "green": 2, "blue": 9}, 0),
        ("five_of_two", ["red", "green"], {"red": 4, "blue": 9}, 0),  # no green: 4 in all
        ("four_of_one", [], {"red": 3, "blue": 3}, 0),
        ("four_of_one", [], {"red": 1, "blue": 4}, 10),
        ("one_each", [], {"red": 1, "green": 1, "blue": 0}, 0),
        ("one_each", [], {"red": 2, "green": 1, "blue": 1}, 10),
        ("two_of_three", ["red", "green", "blue"], {"red": 2, "green": 2, "blue": 1}, 0),
        ("two_of_three", ["red", "green"], {"red": 3, "green": 2}, 10),
        ("max_two", [], {"red": 2, "green": 2, "blue": 2}, 7),
        ("max_two", [], {"red": 1, "blue": 3}, 0),
        ("max_two", [], {}, 7),
    ],
)
def test_collection_objectives_score_at_their_threshold_and_not_one_under(
    kind: str, named: list[str], mine: dict[str, int], expected: int
) -> None:
    assert points(kind, named, [mine, {"red": 9, "green": 9, "blue": 9}]) == expected


def test_beating_the_left_neighbour_means_more_eggs_not_as_many() -> None:
    assert points("beat_left", [], [{"red": 2}, {"red": 1}, {"red": 9}]) == 5  # seat 1's left is seat 2
    assert points("beat_left", [], [{"red": 2}, {"red": 1, "blue": 1}, {"red": 9}]) == 0  # as many: no
    assert points("beat_left", [], [{"red": 2}, {"red": 9}, {"red": 0}]) == 0  # more than the right one only


def test_fewest_means_strictly_fewer_than_both_neighbours() -> None:
    assert points("fewest", [], [{"red": 1}, {"red": 2}, {"red": 1, "blue": 1}]) == 7
    assert points("fewest", [], [{"red": 2}, {"red": 2}, {"red": 3}]) == 0  # as many as one neighbour
    assert points("fewest", [], [{"red": 2}, {"red": 3}, {"red": 2}]) == 0  # as many as the other


def test_most_and_fewest_of_an_egg_are_strict_against_both_neighbours() -> None:
    assert points("most_of", ["red"], [{"red": 3}, {"red": 2, "blue": 5}, {"red": 2}]) == 5
    assert points("most_of", ["red"], [{"red": 3}, {"red": 3}, {"red": 1}]) == 0
    assert points("most_of", ["red"], [{"red": 3}, {"red": 1}, {"red": 3}]) == 0
    assert points("most_of", ["green"], [{"red": 3}, {}, {}]) == 0  # none of it: not the most
    assert points("most_of", ["red"], [{"red": 1}, {}, {}]) == 5  # one against none at all
    assert points("most_of", ["red"], [{"red": 3}, {"red": 1, "blue": 5}, {"red": 1, "blue": 5}]) == 5  # red only
    assert points("fewest_of", ["red"], [{}, {"blue": 2}, {"green": 1}]) == 0  # none each: not fewer
    assert points("fewest_of", ["red"], [{"red": 1, "blue": 5}, {"red": 2}, {"red": 2, "blue": 1}]) == 7
    assert points("fewest_of", ["red"], [{"red": 1}, {"red": 2}, {"blue": 5}]) == 0  # a neighbour without red
    assert points("fewest_of", ["red"], [{"red": 1}, {"blue": 5}, {"red": 2}]) == 0  # the other without red
    assert points("fewest_of", ["red"], [{"blue": 4}, {"red": 1}, {"red": 1}]) == 7
    assert points("fewest_of", ["red"], [{"red": 1}, {"red": 1}, {"red": 2}]) == 0
    assert points("fewest_of", ["red"], [{"red": 1}, {"red": 2}, {"red": 1}]) == 0


def test_running_out_first_or_last() -> None:
    assert points("out_first", ["blue"], [{}, {}], out_order=[]) == 0
    assert points("out_first", ["blue"], [{}, {}], out_order=["red", "blue"]) == 0
    assert points("out_first", ["blue"], [{}, {}], out_order=["blue"]) == 7
    assert points("out_last", ["blue"], [{}, {}], out_order=["red", "blue"]) == 0  # green has not run out
    assert points("out_last", ["blue"], [{}, {}], out_order=["red", "green", "blue"]) == 10


def test_double_but_scores_two_per_egg_and_minus_five_per_named_egg_over_the_usual_one() -> None:
    assert points("double_but", ["red", "green"], [{}, {}]) == 0
    assert points("double_but", ["red", "green"], [{"blue": 3}, {}]) == 3 * 2 - 3
    assert points("double_but", ["red", "green"], [{"red": 1, "green": 2, "blue": 1}, {}]) == -15 + 2 - 4


def _guessing(guesses: list[list[int]], secret: list[int | None], players: int = 3) -> int:
    tiles: list[dict[str, Any]] = [
        {"id": 0, "kind": "guess", "eggs": [], "text": "guess"},
        {"id": 1, "kind": "max_two", "eggs": [], "text": "at most two"},
        {"id": 2, "kind": "fewest", "eggs": [], "text": "fewest"},
        {"id": 3, "kind": "max_two", "eggs": [], "text": "at most two"},  # the same text as tile 1
    ]
    collected: list[dict[str, int]] = [{} for _ in range(players)]
    return objective_points(tiles[0], 0, collected, EGGS, [], guesses, secret, tiles)


def test_the_guesser_scores_only_when_every_neighbour_is_guessed_right() -> None:
    assert _guessing([[1, 1], [2, 2]], [0, 1, 2]) == 10
    assert _guessing([[1, 2], [2, 1]], [0, 1, 2]) == 0  # both wrong
    assert _guessing([[1, 1], [2, 1]], [0, 1, 2]) == 0  # one wrong
    assert _guessing([[1, 1]], [0, 1, 2]) == 0  # one neighbour not guessed
    assert _guessing([[1, 3], [2, 2]], [0, 1, 2]) == 10  # another tile of the same text is the same objective
    assert _guessing([[1, 1], [2, 2]], [0, 1, None]) == 0  # a neighbour without an objective


def test_with_two_players_the_guesser_guesses_the_one_opponent_once() -> None:
    assert _guessing([[1, 2]], [0, 2], players=2) == 10
    assert _guessing([[1, 2], [1, 2]], [0, 2], players=2) == 0  # more guesses than neighbours


def test_an_unknown_objective_is_refused() -> None:
    with pytest.raises(ValueError, match=r"^unknown objective 'hide_and_seek'$"):
        points("hide_and_seek", [], [{}, {}])
