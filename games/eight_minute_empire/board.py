"""The map: boards from maps.json put together in a layout, as an immutable graph.

A built `Board` is shared by every game with the same layout (it never changes), so states keep only
the layout name. Regions are numbered 0..n-1 in board order; each has a short label ("A1") used in
choice ids, select labels and on the picture.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from games.core import Choice

LAND, WATER = 0, 1
LAYOUTS = ("2x2", "L", "row")


@dataclass(frozen=True, slots=True)
class Board:
    layout: str
    labels: tuple[str, ...]
    xy: tuple[tuple[float, float], ...]  # global position in board units (board slot + local 0..1)
    continent_of: tuple[int, ...]
    continents: tuple[tuple[int, ...], ...]
    continent_names: tuple[str, ...]
    boards: tuple[tuple[str, int, int], ...]  # (letter, slot x, slot y)
    links: tuple[tuple[int, int, int], ...]  # (a, b, LAND|WATER), a < b
    neighbours: tuple[tuple[tuple[int, int], ...], ...]  # per region: (other, LAND|WATER)
    index: dict[str, int]
    choices: tuple[Choice, ...]  # one reusable select option per region (data: shapes.RegionChoice)

    @property
    def size(self) -> int:
        return len(self.labels)

    def water_links(self, region: int) -> int:
        return sum(1 for _, kind in self.neighbours[region] if kind == WATER)

    def qualifies_as_start(self, region: int) -> bool:
        """The rules' criteria: (A) a water connection to another continent, and (B) a land neighbour
        with a water connection too, or a second water connection of its own. Every water link joins
        two different islands, so each counts as a connection to another continent."""
        own = self.water_links(region)
        if own == 0:
            return False
        if own >= 2:
            return True
        return any(kind == LAND and self.water_links(other) >= 1 for other, kind in self.neighbours[region])

    def start_candidates(self) -> list[int]:
        return [r for r in range(self.size) if self.qualifies_as_start(r)]


def _data() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("maps.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def layout_for(players: int, option: str) -> str:
    """Four players always use all four boards (2x2); two or three use three boards as chosen."""
    if players >= 4:
        return "2x2"
    return "row" if option == "row" else "L"


@cache
def build(layout: str) -> Board:
    if layout not in LAYOUTS:
        raise ValueError(f"unknown layout {layout!r}; known: {', '.join(LAYOUTS)}")
    data = _data()
    by_letter = {b["letter"]: b for b in data["boards"]}
    slots = [(str(letter), int(x), int(y)) for letter, x, y in data["layouts"][layout]]
    labels: list[str] = []
    xy: list[tuple[float, float]] = []
    continent_of: list[int] = []
    continents: list[tuple[int, ...]] = []
    names: list[str] = []
    for letter, sx, sy in slots:
        for island in by_letter[letter]["islands"]:
            members = []
            for label, lx, ly in island["regions"]:
                members.append(len(labels))
                labels.append(label)
                xy.append((sx + float(lx), sy + float(ly)))
                continent_of.append(len(continents))
            continents.append(tuple(members))
            names.append(island["name"])
    index = {label: i for i, label in enumerate(labels)}
    links: set[tuple[int, int, int]] = set()

    def link(a: str, b: str, kind: int) -> None:
        i, j = sorted((index[a], index[b]))
        links.add((i, j, kind))

    for letter, _, _ in slots:
        board = by_letter[letter]
        for a, b in board["land"]:
            link(a, b, LAND)
        for a, b in board["water"]:
            link(a, b, WATER)
    placed = {(x, y): by_letter[letter] for letter, x, y in slots}
    for (x, y), board in placed.items():
        right = placed.get((x + 1, y))
        if right is not None:
            for a, b in zip(board["edges"]["E"], right["edges"]["W"], strict=False):
                link(a, b, WATER)
        below = placed.get((x, y + 1))
        if below is not None:
            for a, b in zip(board["edges"]["S"], below["edges"]["N"], strict=False):
                link(a, b, WATER)
    ordered = tuple(sorted(links))
    neighbours: list[list[tuple[int, int]]] = [[] for _ in labels]
    for a, b, kind in ordered:
        neighbours[a].append((b, kind))
        neighbours[b].append((a, kind))
    choices = tuple(
        Choice(
            label,
            f"{label} {names[continent_of[i]]}",
            {"what": "region", "region": label, "continent": names[continent_of[i]]},
        )
        for i, label in enumerate(labels)
    )
    return Board(
        layout=layout,
        labels=tuple(labels),
        xy=tuple(xy),
        continent_of=tuple(continent_of),
        continents=tuple(continents),
        continent_names=tuple(names),
        boards=tuple(slots),
        links=ordered,
        neighbours=tuple(tuple(n) for n in neighbours),
        index=index,
        choices=choices,
    )
