"""The board and the rule templates, as pure functions over plain JSON data.

A *board* is a dict with:
    shape  one of data.SHAPES (the squares, as seen from the south)
    types  the map tile type of each square (index = square number)
    eggs   per square a dict egg type -> number of tokens lying there
    pawns  per seat the square of its pawn
    rows   per egg type still in play, its rule row: a list of rule dicts
The engine keeps exactly this dict in its state and the views carry a copy, so the engine, the AI,
the renderer and the tests all ask the same function, `matching_tiles(board, egg, seat)`.

A *rule* is a dict {"id": tile id, "t": template 1..15, "neg": bool, ...placeholders}. `neg` False is
the first sense in the material's listing ("My tile is X", "at least N"), True the opposite one.
The id is the tile's, so one id always means one rule: evaluated masks are remembered by id.

Every rule is read from one seat's side (see `side_of`): seat 1 looks from the south, 2 from the
north, 3 from the west, 4 from the east, then again. "Left half", "top half", "row" and "column" are
taken in that seat's own frame, exactly as a player sitting on that edge of a table would read them.

Over 500 lines: the board index and the mask evaluator are the game's hot loop and read each other's
fields inline; splitting them would cost a call per rule read.

Over 500 lines: the fifteen rule templates' matching functions and the board geometry they share,
kept in one module so that the engine, the AI, the renderer and the tests call the very same functions.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache, reduce
from operator import and_
from typing import Any

from games.reggverse.data import SHAPES

SIDES: tuple[str, ...] = ("south", "north", "west", "east")

Rule = Mapping[str, Any]
Board = Mapping[str, Any]


def side_of(seat: int) -> str:
    """The table edge a seat (0-based) looks from."""
    return SIDES[seat % 4]


def to_local(side: str, x: int, y: int, width: int, height: int) -> tuple[int, int]:
    """Square (x, y) seen from `side`: (column from the viewer's left, row from the far edge)."""
    if side == "south":
        return x, y
    if side == "north":
        return width - 1 - x, height - 1 - y
    if side == "west":  # facing east: the viewer's left is north, the far edge is east
        return y, width - 1 - x
    return height - 1 - y, x  # east, facing west: left is south, the far edge is west


@dataclass(frozen=True, slots=True)
class Geometry:
    """Everything about a shape that does not change during a game, precomputed per side."""

    shape: str
    width: int
    height: int
    cells: tuple[tuple[int, int], ...]
    neighbours: tuple[tuple[int, ...], ...]
    local: Mapping[str, tuple[tuple[int, int], ...]]
    local_size: Mapping[str, tuple[int, int]]
    at_local: Mapping[str, Mapping[tuple[int, int], int]]
    lines: Mapping[str, Mapping[str, tuple[tuple[int, ...], ...]]]  # side -> row/column -> per square
    halves: Mapping[str, Mapping[str, frozenset[int]]]  # side -> left/right/top/bottom -> squares
    neighbour_mask: tuple[int, ...]
    half_masks: Mapping[str, Mapping[str, int]]
    line_cells: Mapping[str, Mapping[str, tuple[tuple[int, ...], ...]]]  # side -> row/column -> lines
    line_masks: Mapping[str, Mapping[str, tuple[int, ...]]]
    names: Mapping[str, tuple[str, ...]]  # side -> per square its name in that side's frame (a1)
    # Every side's rows and columns are the map's horizontal or vertical lines (partition 0 or 1), so
    # counts per line are kept once per partition: `partition[side][row/column]`, per partition the
    # mask of each line and per square the index of its line.
    partition: Mapping[str, Mapping[str, int]]
    partition_masks: tuple[tuple[int, ...], tuple[int, ...]]
    line_of: tuple[tuple[int, ...], tuple[int, ...]]

    def name(self, cell: int) -> str:
        """A short name for a square as seen from the south: column letter and row number (a1)."""
        x, y = self.cells[cell]
        return f"{'abcde'[x]}{y + 1}"

    def local_name(self, cell: int, side: str) -> str:
        """The same kind of name in `side`'s frame, which is what that player sees on their picture."""
        return self.names[side][cell]


@cache
def geometry(shape: str) -> Geometry:
    cells = SHAPES[shape]
    width = max(x for x, _ in cells) + 1
    height = max(y for _, y in cells) + 1
    index = {c: i for i, c in enumerate(cells)}
    neighbours = tuple(
        tuple(index[(x + dx, y + dy)] for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)) if (x + dx, y + dy) in index)
        for x, y in cells
    )
    local: dict[str, tuple[tuple[int, int], ...]] = {}
    local_size: dict[str, tuple[int, int]] = {}
    at_local: dict[str, dict[tuple[int, int], int]] = {}
    lines: dict[str, dict[str, tuple[tuple[int, ...], ...]]] = {}
    halves: dict[str, dict[str, frozenset[int]]] = {}
    for side in SIDES:
        coords = tuple(to_local(side, x, y, width, height) for x, y in cells)
        lw, lh = (width, height) if side in ("south", "north") else (height, width)
        local[side] = coords
        local_size[side] = (lw, lh)
        at_local[side] = {c: i for i, c in enumerate(coords)}
        lines[side] = {
            "row": tuple(tuple(j for j, d in enumerate(coords) if d[1] == c[1]) for c in coords),
            "column": tuple(tuple(j for j, d in enumerate(coords) if d[0] == c[0]) for c in coords),
        }
        # The middle line of an odd-sized map belongs to neither half.
        halves[side] = {
            "left": frozenset(i for i, (lx, _) in enumerate(coords) if 2 * lx < lw - 1),
            "right": frozenset(i for i, (lx, _) in enumerate(coords) if 2 * lx > lw - 1),
            "top": frozenset(i for i, (_, ly) in enumerate(coords) if 2 * ly < lh - 1),
            "bottom": frozenset(i for i, (_, ly) in enumerate(coords) if 2 * ly > lh - 1),
        }
    neighbour_mask = tuple(sum(1 << j for j in near) for near in neighbours)
    half_masks = {side: {h: sum(1 << c for c in cs) for h, cs in hs.items()} for side, hs in halves.items()}
    line_cells = {
        side: {kind: tuple(sorted(set(per_cell))) for kind, per_cell in kinds.items()} for side, kinds in lines.items()
    }
    line_masks = {
        side: {kind: tuple(sum(1 << c for c in line) for line in ls) for kind, ls in kinds.items()}
        for side, kinds in line_cells.items()
    }
    names = {side: tuple(f"{'abcde'[lx]}{ly + 1}" for lx, ly in local[side]) for side in SIDES}
    horizontal = tuple(sorted({y for _, y in cells}))
    vertical = tuple(sorted({x for x, _ in cells}))
    line_of = (tuple(horizontal.index(y) for _, y in cells), tuple(vertical.index(x) for x, _ in cells))
    partition_masks = (
        tuple(sum(1 << c for c, (_, y) in enumerate(cells) if y == ly) for ly in horizontal),
        tuple(sum(1 << c for c, (x, _) in enumerate(cells) if x == lx) for lx in vertical),
    )
    partition = {
        side: {kind: 0 if set(masks) == set(partition_masks[0]) else 1 for kind, masks in kinds.items()}
        for side, kinds in line_masks.items()
    }
    return Geometry(
        shape,
        width,
        height,
        cells,
        neighbours,
        local,
        local_size,
        at_local,
        lines,
        halves,
        neighbour_mask,
        half_masks,
        line_cells,
        line_masks,
        names,
        partition,
        partition_masks,
        line_of,
    )


def destination(geo: Geometry, side: str, cell: int, move: Sequence[int]) -> int | None:
    """The square reached from `cell` by a movement-grid offset (dx right, dy toward the viewer's far
    edge is negative) read from `side`; None when it is off the map."""
    lx, ly = geo.local[side][cell]
    return geo.at_local[side].get((lx + move[0], ly + move[1]))


# --- rule evaluation ---------------------------------------------------------------------------------
# A rule is evaluated on every square at once into a bit mask (bit c set = true at square c): a rule
# row is the AND of its rules' masks, and the none/all test is "mask is neither 0 nor full".


# What each template reads besides the geometry: the map tiles' types, the pawns or the eggs lying on
# the squares. Template 11 reads the other rows and is never remembered.
TYPES, PAWNS, EGGS = 0, 1, 2
READS_KINDS = (TYPES, PAWNS, EGGS)
READS: dict[int, int] = {
    1: TYPES,
    4: TYPES,
    6: TYPES,
    9: TYPES,
    12: TYPES,
    8: PAWNS,
    15: PAWNS,
    2: EGGS,
    3: EGGS,
    5: EGGS,
    7: EGGS,
    10: EGGS,
    13: EGGS,
    14: EGGS,
}
# Templates whose mask depends on the side it is read from: halves differ from every side; lines
# only between the two axes (south and north see the same rows and columns, and so do west and east).
# The other templates read the same squares from every side, so their masks are remembered once for
# all sides, and masks of line templates once per axis.
SIDED = frozenset({4, 12, 13, 14, 15})
LINED = frozenset({12, 13, 14, 15})
AXIS = {"south": "south", "north": "south", "west": "west", "east": "west"}


def _memo_key(side: str, t: int) -> tuple[int, str] | None:
    """The memo a rule of template `t` read from `side` goes to: (READS kind, "" for every side, or
    the side's axis, or the side); None for the templates without a memo (0 and 11)."""
    if t not in READS:
        return None
    if t in LINED:
        return READS[t], AXIS[side]
    return READS[t], side if t in SIDED else ""


_MEMO_KEYS = {side: tuple(_memo_key(side, t) for t in range(max(READS) + 1)) for side in SIDES}
_MEMOS = sorted({key for keys in _MEMO_KEYS.values() for key in keys if key is not None})


class BoardIndex:
    """Bit masks derived from a board's squares (types, eggs, pawns), built once and shared by every
    rule evaluated on that board. Rule rows are not part of it.

    The engine keeps one index for a whole game and tells it what changed (`eggs_changed(cell, egg, by)`,
    `pawns_changed()`); a new index is built only when the map tiles' types change. Masks of rules
    already read are remembered by rule id (and side or axis, for the templates in SIDED) in memos per kind of
    thing the template reads, so moving a pawn forgets only the pawn rules and dropping an egg only the
    egg rules."""

    __slots__ = (
        "_arounds",
        "_board",
        "_line_pawns",
        "_memos",
        "_near_eggs",
        "_side_memos",
        "at_least",
        "egg_mask",
        "full",
        "geo",
        "kinds",
        "line_eggs",
        "near_types_differ",
        "near_types_same",
        "no_duplicates",
        "one_type",
        "pawn_count",
        "pawn_mask",
        "totals",
        "type_mask",
    )

    def __init__(self, board: Board) -> None:
        geo = self.geo = geometry(board["shape"])
        types: Sequence[str] = board["types"]
        self._board = board
        n_cells = len(types)
        self.full = (1 << n_cells) - 1
        self.type_mask, self.near_types_differ, self.near_types_same = _type_masks(geo.shape, tuple(types))
        self.egg_mask: dict[str, int] = {}
        self.totals = [0] * n_cells
        self.no_duplicates = self.full
        self.one_type = 0
        self.at_least = {1: 0, 2: 0, 3: 0, 4: 0}
        # Eggs per line of each partition (see Geometry.partition), kept up to date square by square.
        self.line_eggs = tuple([0] * len(masks) for masks in geo.partition_masks)
        self.kinds: list[list[str]] = [[] for _ in range(n_cells)]  # egg types lying on each square
        for c in range(n_cells):
            if board["eggs"][c]:
                self._index_cell(c)
        self.pawn_count = [0] * n_cells
        self.pawn_mask = 0
        self._line_pawns: tuple[list[int], ...] | None = None  # computed on first use after a move
        self._index_pawns()
        self._near_eggs: tuple[int, int] | None = None  # computed on first use after a change
        # mask -> (squares next to one of its squares, squares next to two of them): the same masks
        # (an egg type's squares, the pawns' squares) come back again and again during a game
        self._arounds: dict[int, tuple[int, int]] = {}
        # Masks of rules already read on this board, by rule id (rule ids are tile ids, so one id is
        # always the same rule), in the memos of _MEMOS. `_memos` lists each READS kind's memos (to
        # forget them); `_side_memos[side][t]` is the memo a rule of template t read from `side` goes to.
        memos: dict[tuple[int, str], dict[int, int]] = {key: {} for key in _MEMOS}
        self._memos: tuple[list[dict[int, int]], ...] = tuple(
            [memo for (read, _), memo in memos.items() if read == kind] for kind in READS_KINDS
        )
        unused: dict[int, int] = {}  # templates 0 and 11 have no memo (11 is read row by row)
        self._side_memos: dict[str, tuple[dict[int, int], ...]] = {
            side: tuple(unused if key is None else memos[key] for key in keys) for side, keys in _MEMO_KEYS.items()
        }

    def _index_cell(self, c: int) -> None:
        """Index the eggs lying on square `c`, when the index is built (nothing of `c` indexed yet)."""
        bit = 1 << c
        eggs = self._board["eggs"][c]
        kinds = [k for k, v in eggs.items() if v > 0]
        for k in kinds:
            self.egg_mask[k] = self.egg_mask.get(k, 0) | bit
        self.kinds[c] = kinds
        if any(eggs[k] > 1 for k in kinds):
            self.no_duplicates &= ~bit
        if len(kinds) == 1:
            self.one_type |= bit
        total = self.totals[c] = sum(eggs[k] for k in kinds)
        line_of = self.geo.line_of
        self.line_eggs[0][line_of[0][c]] += total
        self.line_eggs[1][line_of[1][c]] += total
        for n in range(1, min(total, 4) + 1):  # at_least[n]: the squares holding n eggs or more
            self.at_least[n] |= bit

    def _index_pawns(self) -> None:
        pawn_count = [0] * len(self.totals)
        pawn_mask = 0
        for p in self._board["pawns"]:
            pawn_count[p] += 1
            pawn_mask |= 1 << p
        self.pawn_count = pawn_count
        self.pawn_mask = pawn_mask
        self._line_pawns = None

    def pawns_per_line(self) -> tuple[list[int], ...]:
        """Pawns per line of each partition (see Geometry.partition)."""
        if self._line_pawns is None:
            line_of = self.geo.line_of
            per_line = tuple([0] * len(masks) for masks in self.geo.partition_masks)
            for p in self._board["pawns"]:
                per_line[0][line_of[0][p]] += 1
                per_line[1][line_of[1][p]] += 1
            self._line_pawns = per_line
        return self._line_pawns

    def around(self, mask: int) -> tuple[int, int]:
        """(the squares next to a square of `mask`, the squares next to two of them), remembered."""
        found = self._arounds.get(mask)
        if found is None:
            near = self.geo.neighbour_mask
            seen = twice = 0
            m = mask
            while m:
                low = m & -m
                next_to = near[low.bit_length() - 1]
                twice |= seen & next_to
                seen |= next_to
                m ^= low
            found = self._arounds[mask] = (seen, twice)
        return found

    def eggs_changed(self, cell: int, egg: str, by: int) -> None:
        """One egg of type `egg` was put on `cell` (`by` 1) or taken from it (`by` -1), in place in
        the same board. Only what that can change is updated, which is much cheaper than indexing
        the square again."""
        count = self._board["eggs"][cell].get(egg, 0)
        before = count - by
        bit = 1 << cell
        if (before > 0) != (count > 0):  # the type appears on the square or leaves it
            kinds = self.kinds[cell]
            if count > 0:
                kinds.append(egg)
                self.egg_mask[egg] = self.egg_mask.get(egg, 0) | bit
            else:
                kinds.remove(egg)
                self.egg_mask[egg] &= ~bit
            self.one_type = self.one_type | bit if len(kinds) == 1 else self.one_type & ~bit
        if (before > 1) != (count > 1):  # a duplicate appears or goes
            eggs = self._board["eggs"][cell]
            if any(eggs[k] > 1 for k in self.kinds[cell]):
                self.no_duplicates &= ~bit
            else:
                self.no_duplicates |= bit
        old = self.totals[cell]
        total = self.totals[cell] = old + by
        line_of = self.geo.line_of
        self.line_eggs[0][line_of[0][cell]] += by
        self.line_eggs[1][line_of[1][cell]] += by
        if by > 0:  # at_least[n]: the squares holding n eggs or more (n = 1..4)
            if total <= 4:
                self.at_least[total] |= bit
        elif old <= 4:
            self.at_least[old] &= ~bit
        for memo in self._memos[EGGS]:
            memo.clear()
        self._near_eggs = None

    def pawns_changed(self) -> None:
        """Some pawn moved (the board's pawn list changed in place)."""
        self._index_pawns()
        for memo in self._memos[PAWNS]:
            memo.clear()

    def near_eggs(self) -> tuple[int, int]:
        """(squares whose neighbours hold no egg type twice, squares whose neighbours hold eggs of
        exactly one type).

        A type is twice around a square when a neighbour holds two of it or two neighbours hold one
        each; so, per type, the squares next to it (`seen`) and next to it twice (`twice`) are built
        from its squares' neighbour masks, and a square is crowded if it is next to a square holding
        a duplicate or twice next to one type."""
        if self._near_eggs is None:
            arounds = self._arounds
            crowded = self.around(self.full & ~self.no_duplicates)[0]
            one = two = 0  # squares next to at least one / at least two egg types
            for m in self.egg_mask.values():
                seen, twice = arounds.get(m) or self.around(m)
                crowded |= twice
                two |= one & seen
                one |= seen
            self._near_eggs = (self.full & ~crowded, one & ~two)
        return self._near_eggs

    def mask(self, rule: Rule, side: str) -> int:
        """The squares where `rule` (any template but 11) holds, read from `side`."""
        rule_id = rule.get("id")
        if rule_id is None:
            return _plain_mask(rule, self, side)
        t = rule["t"]
        memo = self._side_memos[side][t]
        found = memo.get(rule_id)
        if found is None:
            found = _base_mask(rule, self, side)
            if t in _NEGATED and rule["neg"]:
                found ^= self.full
            memo[rule_id] = found
        return found

    def placements(
        self, eggs: Sequence[str], rule: Rule, side: str, first: bool = False
    ) -> list[tuple[str, int | None]]:
        """Where `rule` may go, read from `side`, among the rows of `eggs` (the eggs in play): a list
        of (egg, None) for "next to the row" and (egg, id of the rule it covers) for "on top of it",
        eggs in the given order, "next" first. A placement must leave the row pointing at some
        square but not at every one (the none/all test), and a row holds at most 3 rules, all
        different. With `first`, at most one placement per egg.

        Masks come from the memo: a rule's mask does not depend on where in its row it sits, and
        template-11 rules read the other rows as they are now (a placement changes only the row it
        goes into, which such a rule never reads)."""
        board = self._board
        rows = board["rows"]
        full = self.full
        t = rule["t"]
        plain = t != 11
        new = self.mask(rule, side) if plain else 0
        found: list[tuple[str, int | None]] = []
        # Every placement needs the row to point at some square, so at one where the new rule holds.
        if plain and not new:
            return found
        memos = self._side_memos[side]
        for egg in eggs:
            row = rows[egg]
            if not plain:
                new = rule_mask(rule, board, side, egg, None, self)
                if not new:
                    continue
            if not row:
                if new != full:  # new > 0 here
                    found.append((egg, None))
                continue
            masks: list[int] = []
            # A row holds unique rules only: the new rule goes next to the row if it repeats none of
            # its rules, or on top of the one it repeats (if two repeated it, nowhere).
            repeated = -1
            for r in row:  # the hottest loop of a game: the memo is read inline
                rt = r["t"]
                if rt == t and same_rule(rule, r):
                    if repeated >= 0:
                        break
                    repeated = len(masks)
                if rt == 11:
                    masks.append(rule_mask(r, board, side, egg, None, self))
                    continue
                rule_id = r.get("id")
                memo = memos[rt]
                m = memo.get(rule_id)
                if m is None:  # self.mask(r, side), inline
                    m = _base_mask(r, self, side)
                    if rt in _NEGATED and r["neg"]:
                        m ^= full
                    if rule_id is not None:
                        memo[rule_id] = m
                masks.append(m)
            else:
                # What the row points at with all its rules, and without each one (`others`).
                n = len(masks)
                if n == 1:
                    # on top of the only rule: the row becomes the new rule alone
                    if repeated < 0 and 0 < new & masks[0] < full:
                        found.append((egg, None))
                        if first:
                            continue
                    if new != full:
                        found.append((egg, row[0]["id"]))
                    continue
                if n == 2:
                    m0, m1 = masks
                    together = m0 & m1
                    others: Sequence[int] = (m1, m0)
                elif n == 3:
                    m0, m1, m2 = masks
                    together = m0 & m1 & m2
                    others = (m1 & m2, m0 & m2, m0 & m1)
                else:  # not in a game (at most 3 rules), but a hand-made row may be longer
                    together = reduce(and_, masks, full)
                    others = [reduce(and_, masks[:i] + masks[i + 1 :], full) for i in range(n)]
                if repeated >= 0:
                    if 0 < new & others[repeated] < full:
                        found.append((egg, row[repeated]["id"]))
                    continue
                if n < 3 and 0 < new & together < full:
                    found.append((egg, None))
                    if first:
                        continue
                for i in range(n):
                    if 0 < new & others[i] < full:
                        found.append((egg, row[i]["id"]))
                        if first:
                            break
        return found

    def pointing_at(self, eggs: Iterable[str], side: str, cell: int, lying: Mapping[str, int]) -> list[str]:
        """The eggs of `eggs` whose rows, read from `side`, point at `cell`: every rule of a non-empty
        row holds there (masks are read only up to the first rule that does not). Eggs of the types
        in `lying` (a square's eggs: type -> count) are left out."""
        rows = self._board["rows"]
        memos = self._side_memos[side]
        found = []
        for egg in eggs:
            row = rows[egg]
            if not row or lying.get(egg):
                continue
            for r in row:
                t = r["t"]
                if t == 11:
                    m = rule_mask(r, self._board, side, egg, None, self)
                else:
                    rule_id = r.get("id")
                    memo = memos[t]
                    known = memo.get(rule_id)
                    if known is None:  # self.mask(r, side), inline
                        known = _base_mask(r, self, side)
                        if t in _NEGATED and r["neg"]:
                            known ^= self.full
                        if rule_id is not None:
                            memo[rule_id] = known
                    m = known
                if not m >> cell & 1:
                    break
            else:
                found.append(egg)
        return found


@lru_cache(maxsize=4096)
def _type_masks(shape: str, types: tuple[str, ...]) -> tuple[dict[str, int], int, int]:
    """Per type its squares; squares whose neighbours all differ in type; all share one type."""
    geo = geometry(shape)
    type_mask: dict[str, int] = {}
    for c, t in enumerate(types):
        type_mask[t] = type_mask.get(t, 0) | 1 << c
    differ = same = 0
    for c, near in enumerate(geo.neighbours):
        kinds = {types[j] for j in near}
        if len(kinds) == len(near):
            differ |= 1 << c
        if len(kinds) == 1:
            same |= 1 << c
    return type_mask, differ, same


def index_board(board: Board) -> BoardIndex:
    return BoardIndex(board)


def _spread(geo: Geometry, mask: int) -> int:
    """The squares next to any square of `mask`."""
    near = geo.neighbour_mask
    out = 0
    while mask:
        low = mask & -mask
        out |= near[low.bit_length() - 1]
        mask ^= low
    return out


def _in_line(geo: Geometry, side: str, line: str, mask: int) -> int:
    """The squares whose row/column (read from `side`) contains a square of `mask`."""
    out = 0
    for lm in geo.line_masks[side][line]:
        if lm & mask:
            out |= lm
    return out


def _line_sum(geo: Geometry, side: str, line: str, per_line: Sequence[Sequence[int]], at_least: int) -> int:
    """The squares whose row/column (read from `side`) holds at least `at_least` of something counted
    per line of each partition in `per_line` (BoardIndex.line_eggs or pawns_per_line())."""
    partition = geo.partition[side][line]
    out = 0
    for lm, count in zip(geo.partition_masks[partition], per_line[partition], strict=True):
        if count >= at_least:
            out |= lm
    return out


def _base_mask(rule: Rule, ix: BoardIndex, side: str) -> int:
    """Mask of the squares where the template's first sense holds (templates 1-15 except 11), except
    for templates 3, 5, 9, 10, 14, 15 whose two senses are computed here directly."""
    t = rule["t"]
    geo = ix.geo
    if t == 1:
        return ix.type_mask.get(rule["tile"], 0)
    if t == 2:
        return ix.egg_mask.get(rule["egg"], 0)
    if t == 3:  # at least n / at most n
        n = rule["n"]
        return ix.full ^ ix.at_least[n + 1] if rule["neg"] else ix.at_least[n]
    if t == 4:
        return geo.half_masks[side][rule["side"]]
    if t == 5:  # no duplicate eggs / only eggs of one type (at least one egg)
        return ix.one_type if rule["neg"] else ix.no_duplicates
    if t == 6:
        return _spread(geo, ix.type_mask.get(rule["tile"], 0))
    if t == 7:
        return ix.around(ix.egg_mask.get(rule["egg"], 0))[0]
    if t == 8:
        return ix.around(ix.pawn_mask)[0]
    if t == 9:  # all neighbour tiles of different types / of the same type
        return ix.near_types_same if rule["neg"] else ix.near_types_differ
    if t == 10:  # no egg type twice around me / at least one egg around, all of one type
        differ, same = ix.near_eggs()
        return same if rule["neg"] else differ
    if t == 12:
        return _in_line(geo, side, rule["line"], ix.type_mask.get(rule["tile"], 0))
    if t == 13:
        return _in_line(geo, side, rule["line"], ix.egg_mask.get(rule["egg"], 0))
    if t == 14:  # at most n / at least n eggs in my line
        n = rule["n"]
        if rule["neg"]:
            return _line_sum(geo, side, rule["line"], ix.line_eggs, n)
        return ix.full ^ _line_sum(geo, side, rule["line"], ix.line_eggs, n + 1)
    if t == 15:  # at least n / at most n pawns in my line
        n = rule["n"]
        if rule["neg"]:
            return ix.full ^ _line_sum(geo, side, rule["line"], ix.pawns_per_line(), n + 1)
        return _line_sum(geo, side, rule["line"], ix.pawns_per_line(), n)
    raise ValueError(f"unknown rule template {t!r}")


# Templates whose two senses are plain negations of each other.
_NEGATED = frozenset({1, 2, 4, 6, 7, 8, 12, 13})


def full_mask(board: Board) -> int:
    return (1 << len(board["types"])) - 1


def rule_mask(
    rule: Rule,
    board: Board,
    side: str,
    egg: str = "",
    rows: Mapping[str, Sequence[Rule]] | None = None,
    ix: BoardIndex | None = None,
) -> int:
    """The squares where one rule (of egg `egg`) is true, read from `side`, as a bit mask. `rows`
    overrides the board's rule rows (to test a placement before it is made); `ix` is the board's
    index when the caller already has it."""
    if ix is None:
        ix = index_board(board)
    if rule["t"] == 11:
        # "My tile matches the rules of all other eggs": the other rows are read without their own
        # template-11 rules, so two such rules never ask each other forever.
        all_rows = board["rows"] if rows is None else rows
        mask = ix.full
        for name, other in all_rows.items():
            if name != egg and other:
                plain = [r for r in other if r["t"] != 11]
                if not plain:
                    return 0
                for r in plain:
                    mask &= ix.mask(r, side)
        return mask
    return ix.mask(rule, side)


def _plain_mask(rule: Rule, ix: BoardIndex, side: str) -> int:
    mask = _base_mask(rule, ix, side)
    if rule["neg"] and rule["t"] in _NEGATED:
        mask ^= ix.full
    return mask


def row_mask(
    row: Sequence[Rule],
    board: Board,
    side: str,
    egg: str = "",
    rows: Mapping[str, Sequence[Rule]] | None = None,
    ix: BoardIndex | None = None,
) -> int:
    """The squares an egg's whole rule row (all rules together) points at. An empty row (after a
    cleanup) hides the egg nowhere."""
    if not row:
        return 0
    if ix is None:
        ix = index_board(board)
    mask = ix.full
    for r in row:
        mask &= rule_mask(r, board, side, egg, rows, ix)
        if not mask:
            break
    return mask


def rule_holds(
    rule: Rule, cell: int, board: Board, side: str, egg: str = "", rows: Mapping[str, Sequence[Rule]] | None = None
) -> bool:
    """Whether one rule is true at `cell`, read from `side`."""
    return bool(rule_mask(rule, board, side, egg, rows) >> cell & 1)


def row_holds(
    row: Sequence[Rule],
    cell: int,
    board: Board,
    side: str,
    egg: str = "",
    rows: Mapping[str, Sequence[Rule]] | None = None,
    ix: BoardIndex | None = None,
) -> bool:
    """Whether an egg's rule row points at `cell`."""
    return bool(row_mask(row, board, side, egg, rows, ix) >> cell & 1)


def cells_of(mask: int) -> list[int]:
    return [c for c in range(mask.bit_length()) if mask >> c & 1]


def matching_tiles(board: Board, egg: str, seat: int, row: Sequence[Rule] | None = None) -> list[int]:
    """The squares where egg `egg` is hidden according to its rule row, read from `seat`'s side.

    `row` replaces the egg's current row (to ask "what if this rule were placed"). Works on the
    engine's board and on any view's board alike.
    """
    rows: Mapping[str, Sequence[Rule]] = board["rows"]
    if row is not None:
        rows = {**rows, egg: row}
    return cells_of(row_mask(rows.get(egg, []), board, side_of(seat), egg, rows))


def balanced(mask: int, board: Board) -> bool:
    """The none/all test on a row's mask."""
    return 0 < mask < full_mask(board)


def row_is_balanced(board: Board, egg: str, seat: int, row: Sequence[Rule]) -> bool:
    """The placement test: the row must match at least one square and not every square (read from
    the placing seat's side)."""
    rows = {**board["rows"], egg: row}
    return balanced(row_mask(row, board, side_of(seat), egg, rows), board)


# --- text --------------------------------------------------------------------------------------------


def a_or_an(word: str) -> str:
    """The word with its English indefinite article: "a red", "an orange", "an empty" (every colour and
    tile type is said as it is spelt, so its first letter decides)."""
    return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"


def rule_text(rule: Rule) -> str:
    """The rule as printed on the tile, in its sense."""
    t, neg = rule["t"], bool(rule.get("neg"))
    n = rule.get("n")
    not_ = " not" if neg else ""
    line = rule.get("line", "row")
    if t == 1:
        return f"My tile is{not_} {rule['tile']}"
    if t == 2:
        return f"My tile has no {rule['egg']} egg" if neg else f"My tile has {a_or_an(rule['egg'])} egg"
    if t == 3:
        return f"My tile has at {'most' if neg else 'least'} {n} eggs"
    if t == 4:
        return f"My tile is{not_} in the {rule['side']} half"
    if t == 5:
        return "My tile has only eggs of one type" if neg else "My tile has no duplicate eggs"
    if t == 6:
        return f"I'm{not_} next to {a_or_an(rule['tile'])} tile"
    if t == 7:
        return f"I'm{not_} next to {a_or_an(rule['egg'])} egg"
    if t == 8:
        return f"I'm{not_} next to a tile with a pawn"
    if t == 9:
        return f"All my neighbour tiles have {'the same' if neg else 'different'} type"
    if t == 10:
        return f"All my neighbour tiles have {'the same' if neg else 'different'} egg types"
    if t == 11:
        return "My tile matches the rules of all other eggs"
    if t == 12:
        return f"There's {'no ' + rule['tile'] if neg else a_or_an(rule['tile'])} tile in my {line}"
    if t == 13:
        return f"There's {'no ' + rule['egg'] if neg else a_or_an(rule['egg'])} egg in my {line}"
    if t == 14:
        return f"At {'least' if neg else 'most'} {n} eggs in my {line}"
    if t == 15:
        return f"At {'most' if neg else 'least'} {n} pawns in my {line}"
    raise ValueError(f"unknown rule template {t!r}")


def same_rule(a: Rule, b: Rule) -> bool:
    """Two rules say the same thing (a row may not hold the same rule twice: 3 *unique* rules)."""
    return list(map(a.get, _RULE_KEYS)) == list(map(b.get, _RULE_KEYS))


_RULE_KEYS = ("t", "neg", "tile", "egg", "n", "side", "line")
