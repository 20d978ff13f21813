"""The rule "an egg may never have a ruleset that causes it to match none or all tiles", at every moment.

Every egg whose rule row is not empty must point at some square and not at every square, read from
every side a player sits on (each player reads the rows from their own side, so a row pointing nowhere
from one side is an egg that player can never find). An empty row (after a Cleanup) is no ruleset: the
egg is hidden nowhere until a rule is placed on it.

The engine offers only the decisions that keep this true: for each one it makes the change in place on
the state's board (the board index following by its small updates), checks the rows the change can
reach, and undoes it exactly (square contents back in their order). A change reaches the rows holding a
rule that reads what changed (eggs, pawns, map tiles: `board.READS`) and the rows holding "my tile
matches the rules of all other eggs" (template 11), which read the other rows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from games.reggverse.board import (
    EGGS,
    PAWNS,
    READS,
    SIDES,
    TYPES,
    BoardIndex,
    Rule,
    _spread,
    index_board,
    rule_mask,
)

if TYPE_CHECKING:
    from games.reggverse.state import State

Rows = Mapping[str, Sequence[Rule]]
RowFilter = Callable[[str, Sequence[Rule]], bool]


def sides_in_play(players: int) -> tuple[str, ...]:
    """The sides the seats of a game look from, in seat order without repeats."""
    return SIDES[: min(players, len(SIDES))]


def reads(row: Sequence[Rule], kind: int) -> bool:
    """Whether a row's squares can change when `kind` (board.EGGS, PAWNS or TYPES) changes."""
    return any(r["t"] == 11 or READS.get(r["t"]) == kind for r in row)


def has_template_11(row: Sequence[Rule]) -> bool:
    return any(r["t"] == 11 for r in row)


def row_balanced(egg: str, row: Sequence[Rule], rows: Rows, board: Any, ix: BoardIndex, sides: Iterable[str]) -> bool:
    """Whether one non-empty row points at some square but not all, from each of `sides` (`rows`: every
    row, as template 11 reads them)."""
    full = ix.full
    for side in sides:
        mask = full
        for r in row:
            mask &= ix.mask(r, side) if r["t"] != 11 else rule_mask(r, board, side, egg, rows, ix)
            if not mask:
                return False
        if mask == full:
            return False
    return True


def rows_balanced(
    board: Any, ix: BoardIndex, sides: Sequence[str], rows: Rows | None = None, which: RowFilter | None = None
) -> bool:
    """Whether every non-empty row (of `rows`, the board's by default; only those `which` accepts) is
    balanced from every side."""
    every = board["rows"] if rows is None else rows
    for egg, row in every.items():
        if row and (which is None or which(egg, row)) and not row_balanced(egg, row, every, board, ix, sides):
            return False
    return True


# How far a change of the eggs on some squares reaches, per template reading eggs: the squares themselves
# (what lies on my tile), their neighbours (what lies next to me), or their rows or columns (in my line).
_ON, _NEXT, _LINE = 1, 2, 4
_EGG_REACH = {2: _ON, 3: _ON, 5: _ON, 7: _NEXT, 10: _NEXT, 13: _LINE, 14: _LINE}
_NAMES_EGG = frozenset({2, 7, 13})  # templates about one egg type: only a change of that type reaches them

# A row reading eggs, for the shortcut: its egg name, its egg rules (template, egg named, line), and
# the squares it points at now, per side in play.
_EggRow = tuple[str, list[tuple[int, str | None, str | None]], list[int]]


class Balance:
    """The checks of one decision's candidates on one state (built per prompt, cheap).

    Egg changes are the common case (every drop offered is checked) and most cannot matter: a rule can
    change its verdict only where it reaches from the changed squares (`_EGG_REACH`), and a rule about
    one egg type only when that type changes. So a row that, from each side, points at a square outside
    its reach and misses another one outside it stays balanced whatever happens inside. Only the rows
    failing that test are worked out on the changed board (all rows, when one holds template 11)."""

    __slots__ = ("_now", "board", "ix", "sides", "state")

    def __init__(self, state: State) -> None:
        self.state = state
        self.board = state.board
        self.ix = state.index or state.board_index()
        self.sides = sides_in_play(state.players)
        self._now: list[_EggRow] | None = None

    def _egg_rows(self) -> list[_EggRow] | None:
        """The rows reading eggs as they are now; None when a row holds template 11 (its squares
        depend on every other row: no shortcut)."""
        if self._now is None:
            found: list[_EggRow] = []
            ix = self.ix
            for egg, row in self.board["rows"].items():
                if not row:
                    continue
                reading = []
                for r in row:
                    if r["t"] == 11:
                        return None
                    if r["t"] in _EGG_REACH:
                        reading.append((r["t"], r.get("egg"), r.get("line")))
                if reading:
                    masks = []
                    for side in self.sides:
                        mask = ix.full
                        for r in row:
                            mask &= ix.mask(r, side)
                        masks.append(mask)
                    found.append((egg, reading, masks))
            self._now = found
        return self._now

    def _reached(self, cells: int, eggs: set[str]) -> set[str] | None:
        """The rows that egg changes of types `eggs` on the squares of `cells` (a mask) may unbalance;
        None: every row reading eggs (a row holds template 11)."""
        rows = self._egg_rows()
        if rows is None:
            return None
        geo = self.ix.geo
        full = self.ix.full
        near = -1
        found: set[str] = set()
        for name, reading, masks in rows:
            for k, side in enumerate(self.sides):
                region = 0
                for t, named, line in reading:
                    if t in _NAMES_EGG and named not in eggs:
                        continue
                    reach = _EGG_REACH[t]
                    if reach == _ON:
                        region |= cells
                    elif reach == _NEXT:
                        if near < 0:
                            near = _spread(geo, cells)
                        region |= near
                    else:
                        for lm in geo.line_masks[side][line or "row"]:
                            if lm & cells:
                                region |= lm
                if not region:
                    break  # no rule of this row is reached, from any side
                outside = full & ~region
                mask = masks[k]
                if not (mask & outside and ~mask & outside):
                    found.add(name)
                    break
        return found

    def now(self) -> bool:
        """The invariant on the board as it is."""
        return rows_balanced(self.board, self.ix, self.sides)

    def any_reads(self, kind: int) -> bool:
        """Whether a change of `kind` can reach any row at all (most decisions: no)."""
        return any(row and reads(row, kind) for row in self.board["rows"].values())

    def eggs(self, changes: Sequence[tuple[int, str, int]], emptied: str | None = None) -> bool:
        """The invariant after putting (`by` 1) or taking (-1) eggs on squares, and, with `emptied`, that
        egg's pile running out (its row removed)."""
        which: RowFilter = lambda _, row: reads(row, EGGS)  # noqa: E731
        if emptied is None:
            cells = 0
            for cell, _, _ in changes:
                cells |= 1 << cell
            reached = self._reached(cells, {egg for _, egg, _ in changes})
            if reached is not None:
                if not reached:
                    return True
                which = lambda egg, _: egg in reached  # noqa: E731
        board, ix = self.board, self.ix
        squares = board["eggs"]
        kept = {cell: dict(squares[cell]) for cell, _, _ in changes}
        for cell, egg, by in changes:
            _add(squares[cell], egg, by)
            ix.eggs_changed(cell, egg, by)
        try:
            rows = board["rows"]
            if emptied is not None:
                rows = {e: row for e, row in rows.items() if e != emptied}
            return rows_balanced(board, ix, self.sides, rows, which)
        finally:
            for cell, egg, by in reversed(changes):
                _add(squares[cell], egg, -by)
                ix.eggs_changed(cell, egg, -by)
            for cell, contents in kept.items():  # the same counts, back in their order
                squares[cell].clear()
                squares[cell].update(contents)

    def emptied(self, egg: str) -> bool:
        """The invariant after `egg`'s pile runs out (its row removed; only template 11 reads it)."""
        rows = {e: row for e, row in self.board["rows"].items() if e != egg}
        return rows_balanced(self.board, self.ix, self.sides, rows, lambda _, row: has_template_11(row))

    def pawn(self, seat: int, cell: int) -> bool:
        """The invariant after `seat`'s pawn goes to `cell`."""
        pawns = self.board["pawns"]
        before = pawns[seat]
        if before == cell:
            return True
        pawns[seat] = cell
        self.ix.pawns_changed()
        try:
            return rows_balanced(self.board, self.ix, self.sides, None, lambda _, row: reads(row, PAWNS))
        finally:
            pawns[seat] = before
            self.ix.pawns_changed()

    def rows(self, rows: Rows, changed: Iterable[str]) -> bool:
        """The invariant with `rows` for the board's rows, where the rows of `changed` differ."""
        names = set(changed)
        return rows_balanced(
            self.board, self.ix, self.sides, rows, lambda egg, row: egg in names or has_template_11(row)
        )

    def swapped(self, a: int, b: int) -> bool:
        """The invariant after squares `a` and `b` swap places with their eggs and pawns."""
        board = self.board
        types, eggs = list(board["types"]), list(board["eggs"])
        types[a], types[b] = types[b], types[a]
        eggs[a], eggs[b] = eggs[b], eggs[a]
        pawns = [b if p == a else a if p == b else p for p in board["pawns"]]
        other = {**board, "types": types, "eggs": eggs, "pawns": pawns}
        changed = types[a] != types[b] or eggs[a] != eggs[b] or pawns != board["pawns"]
        if not changed:
            return True
        return rows_balanced(other, index_board(other), self.sides, None, lambda _, row: bool(row))


def _add(contents: dict[str, int], egg: str, by: int) -> None:
    count = contents.get(egg, 0) + by
    if count:
        contents[egg] = count
    else:
        del contents[egg]


__all__ = ["EGGS", "PAWNS", "TYPES", "Balance", "reads", "row_balanced", "rows_balanced", "sides_in_play"]
