"""Where the parts of the Eight-Minute Empire map go, worked out once per board layout.

The picture is 800 px wide (shown 400 px wide on a phone: every length here is halved there) and each
board is a square of UNIT. Four boards make a 2x2 block with the players' panel below; three as an L
leave a free corner, where the panel goes; three in a row are drawn as a column (the map mirrored along
its diagonal: each region keeps its name and its neighbours) with a narrower panel beside it. Each
island's name goes beside one of its regions, inside its board, over no region, link or other name.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from typing import Any

from bot.render.kit.fonts import latin_font

Point = tuple[float, float]
Box = tuple[float, float, float, float]

WIDTH = 800
UNIT = WIDTH // 2  # one board
RADIUS = 52  # a region
MARGIN = 10
TEXT = 22  # the usual text size (11 px on a phone)
SMALL = 21  # the smallest text drawn (10.5 px on a phone: its capitals 8 px, issue 37.3)
PANEL_ROW = 40
SIDE_PANEL = 280  # the panel beside a column of boards


@dataclass(frozen=True)
class Layout:
    """Where every part of one board layout goes: picture size, board squares, region centres, island
    name boxes and the panel. Worked out once per layout and shared (read-only)."""

    width: int
    height: int
    boards: tuple[tuple[str, Box], ...]  # letter, square
    centre: dict[str, Point]
    links: tuple[tuple[str, str, bool], ...]  # a, b, water
    islands: tuple[tuple[str, tuple[str, ...], Box], ...]  # name, regions, where its name goes
    panel: Box


def _transposed(view: dict[str, Any]) -> bool:
    """A layout wider than tall is drawn turned (a row of boards becomes a column)."""
    cols = max(b["x"] for b in view["boards"]) + 1
    rows = max(b["y"] for b in view["boards"]) + 1
    return cols > rows


_layouts: dict[Any, Layout] = {}
_layouts_lock = threading.Lock()


def layout_of(view: dict[str, Any]) -> Layout:
    key = (
        tuple((b["letter"], b["x"], b["y"]) for b in view["boards"]),
        tuple((r["id"], r["x"], r["y"]) for r in view["regions"]),
    )
    with _layouts_lock:
        found = _layouts.get(key)
    if found is None:
        found = _work_out(view)
        with _layouts_lock:
            _layouts[key] = found
    return found


def _work_out(view: dict[str, Any]) -> Layout:
    turn = _transposed(view)

    def place(x: float, y: float) -> tuple[float, float]:
        return (y, x) if turn else (x, y)

    slots = {place(b["x"], b["y"]): b["letter"] for b in view["boards"]}
    cols = int(max(x for x, _ in slots)) + 1
    rows = int(max(y for _, y in slots)) + 1
    free = [(x, y) for y in range(rows) for x in range(cols) if (x, y) not in slots]
    panel: Box
    if free:  # an L: the panel fills the free corner
        fx, fy = free[0]
        panel = (fx * UNIT + MARGIN, fy * UNIT + MARGIN, (fx + 1) * UNIT - MARGIN, (fy + 1) * UNIT - MARGIN)
        width, height = cols * UNIT, rows * UNIT
    elif cols == 1:  # a column: a narrower panel beside it
        width, height = UNIT + SIDE_PANEL, rows * UNIT
        panel = (UNIT + MARGIN, MARGIN, width - MARGIN, height - MARGIN)
    else:  # the 2x2 block: the panel below
        players = view["players"] + (1 if view["players"] == 2 else 0)
        panel_height = MARGIN + PANEL_ROW * ((players + 1) // 2) + 2 * PANEL_ROW
        width, height = cols * UNIT, rows * UNIT + panel_height
        panel = (MARGIN, rows * UNIT + MARGIN / 2, width - MARGIN, height - MARGIN)
    boards: tuple[tuple[str, Box], ...] = tuple(
        (letter, (x * UNIT + 4, y * UNIT + 4, (x + 1) * UNIT - 4, (y + 1) * UNIT - 4))
        for (x, y), letter in sorted(slots.items(), key=lambda item: item[1])
    )
    centre: dict[str, Point] = {}
    for r in view["regions"]:
        x, y = place(r["x"], r["y"])
        centre[r["id"]] = (x * UNIT, y * UNIT)
    links = tuple((link["a"], link["b"], bool(link["water"])) for link in view["links"])
    islands = _name_places(view, centre, boards)
    return Layout(int(width), int(height), boards, centre, links, islands, panel)


def _name_places(
    view: dict[str, Any], centre: dict[str, Point], boards: tuple[tuple[str, Box], ...]
) -> tuple[tuple[str, tuple[str, ...], Box], ...]:
    """Where each island's name goes: beside one of its regions, inside its board, over no island, link
    or other name, and nearer its own island than any other (the best of a few dozen places)."""
    blob = RADIUS + 8
    island_of = {r: c["name"] for c in view["continents"] for r in c["regions"]}
    # circles: x, y, radius, weight, island ("" for sea links). A name may lie on its own island's
    # coast (it then reads as that island's), never over a region or another island.
    obstacles: list[tuple[float, float, float, float, str]] = []
    for r, (x, y) in centre.items():
        obstacles.append((x, y, blob, 8.0, island_of[r]))
        obstacles.append((x, y, RADIUS + 4, 30.0, ""))
        obstacles.append((x, y - RADIUS, 30.0, 30.0, ""))  # the name tab
        obstacles.append((x + RADIUS * 0.77, y - RADIUS * 0.64, 20.0, 30.0, ""))  # a token
        obstacles.append((x, y + RADIUS, 24.0, 10.0, ""))  # cities on the rim
    for link in view["links"]:
        a, b = centre[link["a"]], centre[link["b"]]
        steps = max(1, int(math.dist(a, b) // 16))
        for i in range(1, steps):
            t = i / steps
            x, y = a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t
            obstacles.append((x, y, 6.0, 2.0, "") if link["water"] else (x, y, blob, 8.0, island_of[link["a"]]))
    taken: list[Box] = []
    out = []
    name_font = latin_font(TEXT)
    for continent in view["continents"]:
        members = continent["regions"]
        board = next(box for _, box in boards if _inside(centre[members[0]], box))
        width = name_font.getlength(continent["name"]) + 2 * TEXT  # room for a control badge
        height = TEXT + 10.0
        others = [xy for r, xy in centre.items() if island_of[r] != continent["name"]]
        best: tuple[float, Box] | None = None
        for member in members:
            mx, my = centre[member]
            for angle in range(0, 360, 30):
                dx, dy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
                reach = blob - 6 + abs(dx) * width / 2 + abs(dy) * height / 2
                x, y = mx + dx * reach, my + dy * reach
                box = (x - width / 2, y - height / 2, x + width / 2, y + height / 2)
                if not _inside((box[0] - 2, box[1] - 2), board) or not _inside((box[2] + 2, box[3] + 2), board):
                    continue
                own = min(math.dist((x, y), centre[r]) for r in members)
                other = min((math.dist((x, y), xy) for xy in others), default=1e9)
                cost = _covered(box, obstacles, taken, continent["name"]) + 0.2 * own + 10 * max(0.0, own - other + 30)
                if best is None or cost < best[0]:
                    best = (cost, box)
        assert best is not None, continent["name"]
        taken.append(best[1])
        out.append((continent["name"], tuple(members), best[1]))
    return tuple(out)


def _inside(point: Point, box: Box) -> bool:
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]


def _covered(box: Box, obstacles: list[tuple[float, float, float, float, str]], taken: list[Box], island: str) -> float:
    """How much `box` lies over obstacles (circles, weighted; `island`'s own coast is free) and other
    names (0: none), roughly."""
    x0, y0, x1, y1 = box
    total = 0.0
    for cx, cy, r, weight, owner in obstacles:
        if owner == island:
            continue
        dx = max(x0 - cx, 0.0, cx - x1)
        dy = max(y0 - cy, 0.0, cy - y1)
        total += weight * max(0.0, r - math.hypot(dx, dy))
    for a0, b0, a1, b1 in taken:
        total += 20 * max(0.0, min(x1, a1) - max(x0, a0) + 6) * max(0.0, min(y1, b1) - max(y0, b0) + 6)
    return total
