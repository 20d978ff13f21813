"""The choices and labels the engine offers, built once and kept while what they show stays the same.

A game asks for the same few hundred choices over and over: the tile choices of a hand, a square with
the eggs lying on it as seen from some side, "red egg from its pile", "red: on top of ...". Building
each label and `Choice` again for every prompt was most of the cost of a turn, so they are kept here:
tile and placement choices for the whole game (a rule id always means the same rule), square choices
per square and side until the eggs on that square change (`cell_changed`) or the map tiles move
(`cells_changed`). The object lives in the state's `labels` field and is never saved.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.core import Choice
from games.reggverse.board import Rule, geometry, rule_text

if TYPE_CHECKING:
    from games.reggverse.state import State

class Labels:
    __slots__ = ("_cells", "_drops", "_mine", "_names", "_piles", "_spots", "_state", "_texts",
                 "_tiles")

    def __init__(self, state: State) -> None:
        self._state = state
        self._names = geometry(state.board["shape"]).names
        self._texts: dict[int, str] = {}
        self._tiles: dict[int, Choice] = {}
        self._spots: dict[tuple[str, str], Choice] = {}
        self._piles: dict[str, Choice] = {}
        self._mine: dict[str, Choice] = {}
        cells = len(state.board["types"])
        self._cells: list[dict[str, Choice]] = [{} for _ in range(cells)]
        self._drops: list[dict[str, list[Choice]]] = [{} for _ in range(cells)]

    # --- invalidation ---------------------------------------------------------------------------
    def cell_changed(self, cell: int) -> None:
        self._cells[cell].clear()
        self._drops[cell].clear()

    def cells_changed(self) -> None:
        for cell in range(len(self._cells)):
            self.cell_changed(cell)

    # --- rules ----------------------------------------------------------------------------------
    def rule_text(self, rule: Rule) -> str:
        rule_id = rule.get("id")
        if rule_id is None:
            return rule_text(rule)
        text = self._texts.get(rule_id)
        if text is None:
            text = self._texts[rule_id] = rule_text(rule)
        return text

    def spot_label(self, egg: str, spot: str) -> str:
        if spot == "next":
            return f"{egg}: next to its rules"
        old = next(r for r in self._state.board["rows"][egg] if r["id"] == int(spot[2:]))
        return f"{egg}: on top of \"{self.rule_text(old)}\""[:100]

    def spot_choice(self, egg: str, spot: str) -> Choice:
        """The choice "<egg>:<spot>" of the one-step rule prompt."""
        key = (egg, spot)
        choice = self._spots.get(key)
        if choice is None:
            choice = self._spots[key] = Choice(f"{egg}:{spot}", self.spot_label(egg, spot))
        return choice

    # --- tiles ----------------------------------------------------------------------------------
    def tile_label(self, tile_id: int) -> str:
        tile = self._state.tiles[tile_id]
        if tile["kind"] == "action":
            return f"Action: {tile['text']}"[:100]
        return f"Tile {tile_id}: {self.rule_text(tile['rule'])}"[:100]

    def tile_choice(self, tile_id: int) -> Choice:
        choice = self._tiles.get(tile_id)
        if choice is None:
            choice = self._tiles[tile_id] = Choice(f"t{tile_id}", self.tile_label(tile_id))
        return choice

    # --- squares --------------------------------------------------------------------------------
    def cell_choice(self, side: str, cell: int) -> Choice:
        """The choice "c<square>", labelled with the square's name from `side`, its type and eggs."""
        known = self._cells[cell]
        choice = known.get(side)
        if choice is None:
            board = self._state.board
            name = self._names[side][cell]
            eggs = board["eggs"][cell]
            if eggs:
                content = ", ".join(f"{v} {k}" for k, v in eggs.items())
                label = f"{name} {board['types'][cell]} ({content})"
            else:
                label = f"{name} {board['types'][cell]}"
            choice = known[side] = Choice(f"c{cell}", label)
        return choice

    def cell_label(self, side: str, cell: int) -> str:
        return self.cell_choice(side, cell).label

    # --- the egg drop ---------------------------------------------------------------------------
    def pile_drop(self, egg: str) -> Choice:
        choice = self._piles.get(egg)
        if choice is None:
            choice = self._piles[egg] = Choice(f"pile:{egg}", f"{egg} egg from its pile")
        return choice

    def mine_drop(self, egg: str) -> Choice:
        choice = self._mine.get(egg)
        if choice is None:
            choice = self._mine[egg] = Choice(f"mine:{egg}", f"{egg} egg from your collected eggs")
        return choice

    def cell_drops(self, side: str, cell: int) -> list[Choice]:
        """One drop choice per egg type lying on `cell` ("c<square>:<egg>"), in the game's egg order."""
        known = self._drops[cell]
        choices = known.get(side)
        if choices is None:
            eggs = self._state.board["eggs"][cell]
            where = "from tile " + self.cell_label(side, cell)
            choices = known[side] = [Choice(f"c{cell}:{e}", f"{e} egg {where}")
                                     for e in self._state.eggs if eggs.get(e, 0) > 0]
        return choices
