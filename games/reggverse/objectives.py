"""Scoring the secret objectives at the end of a game (pure)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def neighbours(seat: int, players: int) -> tuple[int, int]:
    """(left, right) neighbour of a seat. Turns go clockwise, seat 1, 2, 3..., and play passes to the
    left at a table, so the left neighbour is the next seat clockwise (who plays after you) and the
    right one the previous seat (with 2 players both are the opponent)."""
    return (seat + 1) % players, (seat - 1) % players


def objective_points(
    tile: Mapping[str, Any],
    seat: int,
    collected: Sequence[Mapping[str, int]],
    eggs: Sequence[str],
    out_order: Sequence[str],
    guesses: Sequence[Sequence[int]],
    secret: Sequence[int | None],
    tiles: Sequence[Mapping[str, Any]],
) -> int:
    """Points this objective adds to (or takes from) the seat's egg count."""
    players = len(collected)
    mine = collected[seat]
    total = sum(mine.values())
    left, right = neighbours(seat, players)
    named: list[str] = list(tile["eggs"])
    kind = tile["kind"]

    def count(s: int, egg: str | None = None) -> int:
        return sum(collected[s].values()) if egg is None else collected[s].get(egg, 0)

    if kind == "five_of_two":  # "at least 5 X or Y eggs": X and Y counted together
        return 10 if sum(mine.get(e, 0) for e in named) >= 5 else 0
    if kind == "four_of_one":
        return 10 if any(v >= 4 for v in mine.values()) else 0
    if kind == "one_each":
        return 10 if all(mine.get(e, 0) >= 1 for e in eggs) else 0
    if kind == "two_of_three":
        return 10 if all(mine.get(e, 0) >= 2 for e in named) else 0
    if kind == "beat_left":
        return 5 if total > count(left) else 0
    if kind == "fewest":
        return 7 if total < count(left) and total < count(right) else 0
    if kind == "most_of":
        e = named[0]
        return 5 if mine.get(e, 0) > count(left, e) and mine.get(e, 0) > count(right, e) else 0
    if kind == "fewest_of":
        e = named[0]
        return 7 if mine.get(e, 0) < count(left, e) and mine.get(e, 0) < count(right, e) else 0
    if kind == "out_first":
        return 7 if out_order and out_order[0] == named[0] else 0
    if kind == "out_last":
        # The last pile to run out is the one that ends the game.
        return 10 if len(out_order) == len(eggs) and out_order[-1] == named[0] else 0
    if kind == "guess":
        by_id = {t["id"]: t for t in tiles}
        targets = sorted({left, right})
        right_guesses = 0
        for target, guessed in guesses:
            actual = secret[target]
            # Tiles with the same text are the same objective to a guesser.
            if actual is not None and by_id[guessed]["text"] == by_id[actual]["text"]:
                right_guesses += 1
        return 10 if right_guesses == len(targets) and len(guesses) == len(targets) else 0
    if kind == "double_but":
        worth = sum((-5 if e in named else 2) * v for e, v in mine.items())
        return worth - total  # the difference to the usual 1 point per egg
    if kind == "max_two":
        return 7 if all(v <= 2 for v in mine.values()) else 0
    raise ValueError(f"unknown objective {kind!r}")
