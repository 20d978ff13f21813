"""A deliberately plain, square-by-square reading of the 15 rule templates, used as an oracle for the
engine's bit-mask evaluator (games.reggverse.board). It shares nothing with it but the geometry."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.reggverse.board import geometry, side_of


def holds(
    rule: Mapping[str, Any],
    cell: int,
    board: Mapping[str, Any],
    seat: int,
    egg: str,
    rows: Mapping[str, Sequence[Mapping[str, Any]]],
) -> bool:
    geo = geometry(board["shape"])
    side = side_of(seat)
    types, eggs, pawns = board["types"], board["eggs"], board["pawns"]
    t, neg = rule["t"], rule["neg"]
    near = geo.neighbours[cell]
    lx, ly = geo.local[side][cell]
    lw, lh = geo.local_size[side]
    if rule.get("line") == "row":
        line = [c for c in range(len(types)) if geo.local[side][c][1] == ly]
    else:
        line = [c for c in range(len(types)) if geo.local[side][c][0] == lx]
    here = {k: v for k, v in eggs[cell].items() if v}
    if t == 1:
        return (types[cell] == rule["tile"]) != neg
    if t == 2:
        return (rule["egg"] in here) != neg
    if t == 3:
        total = sum(here.values())
        return total <= rule["n"] if neg else total >= rule["n"]
    if t == 4:
        inside = {
            "left": lx < (lw - 1) / 2,
            "right": lx > (lw - 1) / 2,
            "top": ly < (lh - 1) / 2,
            "bottom": ly > (lh - 1) / 2,
        }[rule["side"]]
        return inside != neg
    if t == 5:
        return len(here) == 1 if neg else all(v == 1 for v in here.values())
    if t == 6:
        return any(types[j] == rule["tile"] for j in near) != neg
    if t == 7:
        return any(eggs[j].get(rule["egg"], 0) > 0 for j in near) != neg
    if t == 8:
        return any(j in pawns for j in near) != neg
    if t == 9:
        kinds = [types[j] for j in near]
        return len(set(kinds)) == 1 if neg else len(set(kinds)) == len(kinds)
    if t == 10:
        tokens: list[str] = []
        for j in near:
            for k, v in eggs[j].items():
                tokens += [k] * v
        return len(set(tokens)) == 1 if neg else len(set(tokens)) == len(tokens)
    if t == 11:
        return all(
            all(holds(r, cell, board, seat, name, rows) for r in other if r["t"] != 11)
            and any(r["t"] != 11 for r in other)
            for name, other in rows.items()
            if name != egg and other
        )
    if t == 12:
        return any(types[j] == rule["tile"] for j in line) != neg
    if t == 13:
        return any(eggs[j].get(rule["egg"], 0) > 0 for j in line) != neg
    if t == 14:
        total = sum(sum(eggs[j].values()) for j in line)
        return total >= rule["n"] if neg else total <= rule["n"]
    if t == 15:
        count = sum(1 for p in pawns if p in line)
        return count <= rule["n"] if neg else count >= rule["n"]
    raise AssertionError(t)


def matching(board: Mapping[str, Any], egg: str, seat: int) -> list[int]:
    row = board["rows"].get(egg, [])
    if not row:
        return []
    return [c for c in range(len(board["types"])) if all(holds(r, c, board, seat, egg, board["rows"]) for r in row)]
