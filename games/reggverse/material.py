"""Generating a game's material from its seed: the regular tiles, action tiles and objective tiles."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from functools import cache
from itertools import accumulate
from typing import Any

from games.core import Rng
from games.reggverse.data import (
    ACTION_TEXT,
    ACTIONS,
    HALF_SIDES,
    LINES,
    NO_OPPOSITE,
    NUMBERS,
    OBJECTIVE_EGGS,
    OBJECTIVES,
    REGULAR_TILES,
    TEMPLATE_PARAMS,
    TEMPLATE_WEIGHTS,
    TILE_TYPES,
)

MOVES: tuple[tuple[int, int], ...] = tuple((dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dx, dy) != (0, 0))
_POSITIONS = tuple(range(len(MOVES)))  # MOVES is in (dy, dx) order, the order a tile lists them in


OPTIONS: dict[str, int] = {"tile": len(TILE_TYPES), "n": len(NUMBERS), "side": len(HALF_SIDES), "line": len(LINES)}


def entries(template: int, egg_types: int) -> int:
    """How many entries the publisher's generator makes of a template: one per filled-in placeholder and
    per wording. A template without placeholders is one entry (printed in its first wording), whatever its
    opposite; %egg% takes the egg types of this game (6 in the published game)."""
    params = TEMPLATE_PARAMS[template]
    if not params:
        return 1
    count = 2 if template not in NO_OPPOSITE else 1
    for param in params:
        count *= egg_types if param == "egg" else OPTIONS[param]
    return count


@cache
def template_weights(egg_types: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(templates, running totals of their weights): each template weighs its `prob` (hundredths) times
    its number of entries, so drawing a template by these weights and then its wording and placeholders
    uniformly draws one of the generator's entries with weight `prob`."""
    templates = tuple(TEMPLATE_WEIGHTS)
    weights = [TEMPLATE_WEIGHTS[t] * entries(t, egg_types) for t in templates]
    return templates, tuple(accumulate(weights))


def random_rule(rng: Rng, eggs: Sequence[str], tile_id: int) -> dict[str, Any]:
    """One rule tile as the publisher's generator draws it: an entry weighted by `prob`, that is a
    template weighted by `template_weights`, then its wording (only templates with placeholders have a
    second one on the tile) and its placeholders, uniformly."""
    templates, up_to = template_weights(len(eggs))
    t = templates[bisect_right(up_to, rng.randrange(up_to[-1]))]
    params = TEMPLATE_PARAMS[t]
    rule: dict[str, Any] = {"id": tile_id, "t": t, "neg": bool(params) and rng.randrange(2) == 1}
    for param in params:
        if param == "tile":
            rule["tile"] = rng.choice(TILE_TYPES)
        elif param == "egg":
            rule["egg"] = rng.choice(eggs)
        elif param == "n":
            rule["n"] = rng.choice(NUMBERS)
        elif param == "side":
            rule["side"] = rng.choice(HALF_SIDES)
        elif param == "line":
            rule["line"] = rng.choice(LINES)
    return rule


def random_moves(rng: Rng) -> list[list[int]]:
    """1 to 3 green squares of the 8 around the pawn (dx to the right, dy negative = forward)."""
    # Shuffling the squares' positions in MOVES is the same draw as shuffling the squares, and the
    # positions sort in MOVES order by themselves.
    order = list(_POSITIONS)
    rng.shuffle(order)
    return [list(MOVES[i]) for i in sorted(order[: 1 + rng.randrange(3)])]


def regular_tiles(rng: Rng, eggs: Sequence[str]) -> list[dict[str, Any]]:
    return [
        {"id": i, "kind": "regular", "moves": random_moves(rng), "rule": random_rule(rng, eggs, i)}
        for i in range(REGULAR_TILES)
    ]


def action_tiles(first_id: int) -> list[dict[str, Any]]:
    tiles: list[dict[str, Any]] = []
    for kind, copies in ACTIONS.items():
        for _ in range(copies):
            tiles.append({"id": first_id + len(tiles), "kind": "action", "action": kind, "text": ACTION_TEXT[kind]})
    return tiles


def objective_tiles(rng: Rng, eggs: Sequence[str]) -> list[dict[str, Any]]:
    """The 22 objective tiles, their egg placeholders drawn from the eggs in this game (distinct
    within a tile)."""
    tiles: list[dict[str, Any]] = []
    order = {e: i for i, e in enumerate(eggs)}
    for kind, copies in OBJECTIVES.items():
        for _ in range(copies):
            need = min(OBJECTIVE_EGGS.get(kind, 0), len(eggs))
            pool = list(eggs)
            rng.shuffle(pool)
            chosen = sorted(pool[:need], key=order.__getitem__)
            tile = {"id": len(tiles), "kind": kind, "eggs": chosen}
            tile["text"] = objective_text(tile)
            tiles.append(tile)
    return tiles


_OBJECTIVE_TEXT: dict[str, Callable[[list[str]], str]] = {
    "five_of_two": lambda e: f"+10 if you have at least 5 eggs of {' or '.join(e)}",
    "four_of_one": lambda e: "+10 if you have at least 4 eggs of one type",
    "one_each": lambda e: "+10 if you have one egg of every type in the game",
    "two_of_three": lambda e: f"+10 if you have at least 2 each of {_listing(e)}",
    "beat_left": lambda e: "+5 if you have more eggs than your left neighbour",
    "fewest": lambda e: "+7 if you have fewer eggs than both neighbours",
    "most_of": lambda e: f"+5 if you have more {' and '.join(e)} eggs than both neighbours",
    "fewest_of": lambda e: f"+7 if you have fewer {' and '.join(e)} eggs than both neighbours",
    "out_first": lambda e: f"+7 if the {' and '.join(e)} pile runs out first",
    "out_last": lambda e: f"+10 if the {' and '.join(e)} pile runs out last",
    "guess": lambda e: "+10 if you correctly guess both neighbours' objectives",
    "double_but": lambda e: f"Each egg is worth 2, but {' and '.join(e)} eggs are worth -5",
    "max_two": lambda e: "+7 if you hold no egg type more than twice",
}


def _listing(items: Sequence[str]) -> str:
    """ "a, b, and c": English as Babel lists (the renderer's English is the catalogs' and Babel's)."""
    return (
        items[0]
        if len(items) == 1
        else " and ".join(items)
        if len(items) == 2
        else f"{', '.join(items[:-1])}, and {items[-1]}"
    )


def objective_text(tile: dict[str, Any]) -> str:
    return _OBJECTIVE_TEXT[tile["kind"]](tile["eggs"])
