"""The heuristic Reggverse Riddles player.

It reads only `game.view(state, seat)` and the prompt. For a tile it looks one turn ahead: for every
destination, egg to drop and rule placement it counts the eggs it would collect at the end of the
turn (with `games.reggverse.board`, the same functions the engine uses), and when placing a rule it
also counts what the placement does to the other players where they stand now (read from their
sides): giving them an egg costs, taking one away gains. Action tiles get simple fixed values.

Cost: one decision indexes the view's board once (a `Scene`). Each "what if" (the pawn on another
square, an egg dropped) is made in place on that board and undone, the index following by the same
small updates the engine uses, instead of copying and indexing a board per candidate. Scoring the
tiles of a hand evaluates every tile's rule on each what-if board at once.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import reduce
from operator import and_
from typing import Any

from games.core import Game, Prompt
from games.reggverse.board import READS, TYPES, destination, geometry, index_board, rule_mask, same_rule, side_of

Board = dict[str, Any]
Rule = Mapping[str, Any]
OPPONENT_WEIGHT = 0.5  # an egg an opponent may collect next turn counts half of one of ours
DISCARD_COST = 0.01  # a tile discarded because its rule fits nowhere is a little worse than a placement
TILE_COST = 0.01  # taking an egg from a square (rather than from its pile) costs a little
MINE_COST = 1.0  # dropping one of our own collected eggs costs the egg

ACTION_VALUES = {  # value of the action itself, on top of collecting where the pawn stands
    "collect": 1.0,
    "steal": 1.6,
    "double": 1.2,
    "draw3": 0.3,
    "refresh": 0.2,
    "spawn": 0.4,
    "switch": 0.4,
    "cleanup": 0.3,
    "to_pile": 0.1,
    "shift": 0.2,
    "lock_move": 0.4,
    "lock_rules": 0.4,
    "lock_actions": 0.1,
    "trade": 0.2,
    "swap": 0.2,
    "teleport": 0.0,
}

# Where a rule may go in one egg's row: (placement id "<egg>:<spot>", index of the rule it covers or -1
# for "next to the row", which indexes `Hypothesis.rest` either way). It depends only on the rule and the
# row, never on the squares.
Spots = list[tuple[str, int]]


def drop_cost(source: str) -> float:
    return -MINE_COST if source == "mine" else -TILE_COST if source.startswith("c") else 0.0


class Hypothesis:
    """What the rows say on one board (the scene as it stands), for our pawn ending on `cell`: per egg
    `rest[egg]`, the squares its row points at without each of its rules (`rest[egg][i]`, where a new
    rule covering rule i would go) and, last, with all of them (`rest[egg][-1]`, for a rule put next
    to the row); and whether the row as it is points at `cell` (`base`)."""

    __slots__ = ("base", "bit", "cell", "rest", "total", "vacant")

    def __init__(self, scene: Scene, cell: int) -> None:
        board, side, ix = scene.board, scene.side, scene.ix
        here = board["eggs"][cell]
        bit = self.bit = 1 << cell
        self.cell = cell
        self.rest: dict[str, list[int]] = {}
        full = ix.full
        self.base: dict[str, bool] = {}
        self.vacant: dict[str, bool] = {}  # no egg of that type lies on `cell` (so it can be collected)
        found = 0
        for egg, (fixed, varying) in scene.rows.items():
            ms = fixed.copy()
            for i, r in varying:
                ms[i] = rule_mask(r, board, side, egg, None, ix) if r["t"] == 11 else ix.mask(r, side)
            n = len(ms)
            if n == 1:
                rest = [full, ms[0]]
            elif n == 2:
                m0, m1 = ms
                rest = [m1, m0, m0 & m1]
            elif n == 3:
                m0, m1, m2 = ms
                rest = [m1 & m2, m0 & m2, m0 & m1, m0 & m1 & m2]
            else:  # an empty row (after a cleanup), or a hand-made longer one
                rest = [reduce(and_, ms[:i] + ms[i + 1 :], full) for i in range(n)] + [reduce(and_, ms, full)]
            self.rest[egg] = rest
            vacant = self.vacant[egg] = not here.get(egg)
            ok = self.base[egg] = n > 0 and vacant and bool(rest[-1] & bit)
            found += ok
        self.total = float(found)


class Scene:
    """One decision's board, indexed once. A what-if is made in place (`move`, `drop`) and undone; the
    index is told what changed, as the engine does during a game."""

    def __init__(self, board: Mapping[str, Any], seat: int) -> None:
        self.board: Board = {**board, "eggs": [dict(e) for e in board["eggs"]], "pawns": list(board["pawns"])}
        self.seat = seat
        self.side = side_of(seat)
        ix = self.ix = index_board(self.board)
        # Per egg its rules' masks that no what-if changes (the rules reading only the map tiles' types),
        # and the other rules with their places in the row, to read on each what-if board.
        self.rows: dict[str, tuple[list[int], list[tuple[int, Rule]]]] = {}
        for egg, row in board["rows"].items():
            fixed = [0] * len(row)
            varying: list[tuple[int, Rule]] = []
            for i, r in enumerate(row):
                if READS.get(r["t"]) == TYPES:
                    fixed[i] = ix.mask(r, self.side)
                else:
                    varying.append((i, r))
            self.rows[egg] = (fixed, varying)
        self._spots: dict[int, list[tuple[str, Spots]]] = {}

    # --- what-ifs --------------------------------------------------------------------------------
    def move(self, cell: int) -> int:
        """Put our pawn on `cell`; returns where it was."""
        pawns = self.board["pawns"]
        before: int = pawns[self.seat]
        if before != cell:
            pawns[self.seat] = cell
            self.ix.pawns_changed()
        return before

    def _add_egg(self, cell: int, egg: str, by: int) -> None:
        eggs = self.board["eggs"][cell]
        count = eggs.get(egg, 0) + by
        if count:
            eggs[egg] = count
        else:
            del eggs[egg]
        self.ix.eggs_changed(cell, egg, by)

    def drop(self, cell: int, source: str, egg: str) -> None:
        """Take `egg` from `source` ("pile", "mine" or "c<square>") and drop it on `cell`."""
        if source.startswith("c"):
            self._add_egg(int(source[1:]), egg, -1)
        self._add_egg(cell, egg, 1)

    def undrop(self, cell: int, source: str, egg: str) -> None:
        self._add_egg(cell, egg, -1)
        if source.startswith("c"):
            self._add_egg(int(source[1:]), egg, 1)

    # --- values ----------------------------------------------------------------------------------
    def spots(self, rule: Rule) -> list[tuple[str, Spots]]:
        """Per egg, where `rule` may go in its row (a row holds unique rules, at most 3)."""
        found = self._spots.get(rule["id"])
        if found is None:
            found = []
            for egg, row in self.board["rows"].items():
                repeats = [same_rule(rule, r) for r in row]
                spots: Spots = []
                if len(row) < 3 and not any(repeats):
                    spots.append((f"{egg}:next", -1))
                for i, old in enumerate(row):
                    if not any(repeats[:i]) and not any(repeats[i + 1 :]):
                        spots.append((f"{egg}:on{old['id']}", i))
                found.append((egg, spots))
            self._spots[rule["id"]] = found
        return found

    def placement_value(self, hyp: Hypothesis, rule: Rule | None, allowed: str | None = None) -> float:
        """Eggs collected at `hyp.cell` after the best placement of `rule` on the scene as it stands
        (only placement `allowed`, if given). Placements that fail the none/all test are skipped;
        with none left, the tile would be discarded, which is a little worse than the plain collection."""
        total = hyp.total
        if rule is None:
            return total
        best = total - DISCARD_COST
        top = total + 1.0  # no placement gains more than one egg
        board, side, ix = self.board, self.side, self.ix
        full = ix.full
        bit = hyp.bit
        plain = rule["t"] != 11
        new = ix.mask(rule, side) if plain else 0
        if plain and not new:
            return best
        rests, base, vacant = hyp.rest, hyp.base, hyp.vacant
        for egg, spots in self.spots(rule):
            if not spots:
                continue
            if not plain:
                new = rule_mask(rule, board, side, egg, None, ix)
            rest = rests[egg]
            was = float(base[egg])
            for pid, covered in spots:
                m = new & rest[covered]
                if not 0 < m < full or (allowed is not None and pid != allowed):
                    continue
                value = total + (float(bool(m & bit) and vacant[egg]) - was)
                if value > best:
                    best = value
                    if best == top:
                        return best
        return best

    def collects(self, cell: int, row_masks: Mapping[str, int] | None = None) -> int:
        """How many eggs our seat collects ending its turn on `cell` of the scene (`row_masks`: the
        scene's `row_masks()` when the caller already has them)."""
        lying = self.board["eggs"][cell]
        masks = self.row_masks() if row_masks is None else row_masks
        return sum(1 for egg, m in masks.items() if m >> cell & 1 and not lying.get(egg))

    def row_masks(self) -> dict[str, int]:
        """Per egg with a non-empty row, the squares its whole row points at, read from our side."""
        board, side, ix = self.board, self.side, self.ix
        found = {}
        for egg, row in board["rows"].items():
            if row:
                m = ix.full
                for r in row:
                    m &= rule_mask(r, board, side, egg, None, ix)
                found[egg] = m
        return found

    def opponent_effect(self, egg: str, new_row: Sequence[Rule]) -> int:
        """How many more opponents (standing where they are now) the egg would point at with `new_row`."""
        board, ix = self.board, self.ix
        change = 0
        rows = {**board["rows"], egg: list(new_row)}
        old_row = board["rows"].get(egg, [])
        for seat, cell in enumerate(board["pawns"]):
            if seat == self.seat or board["eggs"][cell].get(egg):
                continue
            side = side_of(seat)
            before = bool(old_row) and all(rule_mask(r, board, side, egg, None, ix) >> cell & 1 for r in old_row)
            after = bool(new_row) and all(rule_mask(r, board, side, egg, rows, ix) >> cell & 1 for r in new_row)
            change += int(after) - int(before)
        return change


class Decision:
    """Scores the choices of one prompt from one seat's view; the scene is built on first use."""

    def __init__(self, view: Mapping[str, Any], seat: int) -> None:
        self.view = view
        self.seat = seat
        self._scene: Scene | None = None
        self._standing: Hypothesis | None = None

    @property
    def scene(self) -> Scene:
        if self._scene is None:
            self._scene = Scene(self.view["board"], self.seat)
        return self._scene

    @property
    def standing(self) -> Hypothesis:
        """The rows on the view's own board, at our pawn's square."""
        if self._standing is None:
            self._standing = Hypothesis(self.scene, self.view["board"]["pawns"][self.seat])
        return self._standing

    # --- the regular turn ----------------------------------------------------------------------
    def destinations(self, tile: Mapping[str, Any]) -> list[int]:
        view, seat = self.view, self.seat
        board = view["board"]
        here: int = board["pawns"][seat]
        if "move" in view["locks"]:  # the movement lock binds everybody, its holder too
            return [here]
        geo = geometry(board["shape"])
        found = [
            d
            for m in tile["moves"]
            if (d := destination(geo, side_of(seat), here, m)) is not None and d not in board["pawns"]
        ]
        return found or [here]

    def drops(self, cell: int) -> list[tuple[str, str, float]]:
        """One way to drop each egg type: from its pile, else from a tile, else from our own eggs."""
        view = self.view
        board = view["board"]
        options: list[tuple[str, str, float]] = []
        for egg in view["eggs"]:
            if view["piles"][egg] > 0:
                options.append(("pile", egg, 0.0))
                continue
            src = next((c for c, eggs in enumerate(board["eggs"]) if c != cell and eggs.get(egg)), None)
            if src is not None:
                options.append((f"c{src}", egg, -TILE_COST))
            elif view["collected"][self.seat].get(egg):
                options.append(("mine", egg, -MINE_COST))
        return options

    def after_move(self, cell: int, rules: Sequence[Rule | None]) -> list[float]:
        """Per rule of `rules`, the best value of ending on `cell` with one drop and that rule placed."""
        scene = self.scene
        before = scene.move(cell)
        drops = self.drops(cell)
        if not drops:
            hyp = Hypothesis(scene, cell)
            values = [scene.placement_value(hyp, rule) for rule in rules]
        else:
            values = [float("-inf")] * len(rules)
            for src, egg, cost in drops:
                scene.drop(cell, src, egg)
                hyp = Hypothesis(scene, cell)
                for k, rule in enumerate(rules):
                    value = scene.placement_value(hyp, rule) + cost
                    if value > values[k]:
                        values[k] = value
                scene.undrop(cell, src, egg)
        scene.move(before)
        return values

    def play_scores(self, ids: Sequence[str]) -> list[float]:
        """The tiles of the hand: each regular tile's best over its destinations, the what-if boards of
        a destination evaluated once for every tile that can reach it."""
        view, seat = self.view, self.seat
        board = view["board"]
        tiles = {t["id"]: t for t in view["hand"]}
        rules_locked = "rules" in view["locks"]
        scores: dict[str, float] = {}
        reaching: dict[int, list[str]] = {}  # destination -> the regular tiles' choices that reach it
        for choice in ids:
            tile = tiles[int(choice[1:])]
            if tile["kind"] == "action":
                kind = tile["action"]
                if kind == "teleport":
                    free = [c for c in range(len(board["types"])) if c not in board["pawns"]]
                    masks = self.scene.row_masks()
                    scores[choice] = max((self.scene.collects(c, masks) for c in free), default=0) + 0.1
                else:
                    scores[choice] = ACTION_VALUES.get(kind, 0.0) + self.scene.collects(board["pawns"][seat])
                continue
            for d in self.destinations(tile):
                reaching.setdefault(d, []).append(choice)
        for cell, choices in reaching.items():
            rules = [None if rules_locked else tiles[int(c[1:])]["rule"] for c in choices]
            for choice, value in zip(choices, self.after_move(cell, rules), strict=True):
                if choice not in scores or value > scores[choice]:
                    scores[choice] = value
        return [scores[c] for c in ids]

    def played_rule(self) -> Rule | None:
        view = self.view
        tile = view["step"].get("tile_data") or {}
        if tile.get("kind") != "regular" or "rules" in view["locks"]:
            return None
        rule: Rule = tile["rule"]
        return rule

    def score_move(self, choice: str) -> float:
        return self.after_move(int(choice[1:]), [self.played_rule()])[0]

    def drop_value(self, source: str, egg: str) -> float:
        scene = self.scene
        cell: int = self.view["board"]["pawns"][self.seat]
        scene.drop(cell, source, egg)
        value = scene.placement_value(Hypothesis(scene, cell), self.played_rule())
        scene.undrop(cell, source, egg)
        return value + drop_cost(source)

    def score_drop(self, choice: str) -> float:
        source, egg = choice.split(":")
        return self.drop_value(source, egg)

    def score_drop_from(self, choice: str) -> float:
        if choice == "mine":
            return -MINE_COST
        return 0.0 if choice == "pile" else -TILE_COST

    def score_drop_egg(self, choice: str) -> float:
        return self.drop_value(self.view["step"]["source"], choice)

    def placement_value(self, egg: str, spot: str) -> float:
        rule = self.played_rule()
        if rule is None:
            return 0.0
        board = self.view["board"]
        row = list(board["rows"][egg])
        if spot == "next":
            new_row = [*row, rule]
        else:
            new_row = [rule if r["id"] == int(spot[2:]) else r for r in row]
        scene = self.scene
        mine = scene.placement_value(self.standing, rule, allowed=f"{egg}:{spot}")
        return mine - OPPONENT_WEIGHT * scene.opponent_effect(egg, new_row)

    def score_rule(self, choice: str) -> float:
        egg, spot = choice.split(":")
        return self.placement_value(egg, spot)

    def score_rule_egg(self, choice: str) -> float:
        row = self.view["board"]["rows"][choice]
        spots = ["next"] + [f"on{r['id']}" for r in row]
        return max(self.placement_value(choice, s) for s in spots)

    def score_rule_spot(self, choice: str) -> float:
        return self.placement_value(self.view["step"]["egg"], choice)

    # --- actions -------------------------------------------------------------------------------
    def score_teleport(self, choice: str) -> float:
        return self.scene.collects(int(choice[1:]))

    def score_collect(self, choice: str) -> float:
        return float(self.view["piles"][choice])

    def score_steal_from(self, choice: str) -> float:
        return float(self.view["scores"][int(choice[1:])])

    def score_cleanup(self, choice: str) -> float:
        return -OPPONENT_WEIGHT * self.scene.opponent_effect(choice, []) - self.mine_now(choice)

    def mine_now(self, egg: str) -> float:
        board = self.view["board"]
        cell = board["pawns"][self.seat]
        row = board["rows"].get(egg, [])
        if not row or board["eggs"][cell].get(egg):
            return 0.0
        return float(bool(self.scene.row_masks()[egg] >> cell & 1))

    def score_spawn_to(self, choice: str) -> float:
        # An egg lying on a square blocks collecting that type there: put it under an opponent.
        cell = int(choice[1:])
        pawns = self.view["board"]["pawns"]
        return 1.0 if cell in pawns and pawns.index(cell) != self.seat else -1.0 if cell == pawns[self.seat] else 0.0

    def score_shift_egg(self, choice: str) -> float:
        return 1.0 if choice == "done" else 0.0

    def score_collect_from(self, choice: str) -> float:
        """Where a collected egg comes from: a square, unless that frees a type blocking an opponent's
        square (an egg lying there keeps them from collecting it); the pile runs the game down."""
        if choice == "pile":
            return 0.0
        cell = int(choice[1:])
        pawns = self.view["board"]["pawns"]
        return -0.5 if cell in pawns and pawns.index(cell) != self.seat else 0.1

    def score_trade_give(self, choice: str) -> float:
        return float(self.view["collected"][self.seat].get(choice, 0))

    def score_trade_get(self, choice: str) -> float:
        return float(self.view["piles"][choice])

    def scores(self, kind: str, ids: Sequence[str]) -> list[float] | None:
        """Each choice's value, or None for a prompt kind the heuristic has no opinion on."""
        if kind == "play":
            return self.play_scores(ids)
        scorer = getattr(self, f"score_{kind}", None)
        if scorer is None:
            return None
        return [scorer(c) for c in ids]


class HeuristicPlayer:
    """Greedy one-turn lookahead; deterministic for its seed."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def choose(self, game: Game[Any], state: Any, prompt: Prompt) -> list[str]:
        ids = prompt.choice_ids()
        scores = Decision(game.view(state, prompt.seat), prompt.seat).scores(prompt.kind, ids)
        if scores is None:
            return self._rng.sample(ids, prompt.pick)
        # ties are broken at random, one draw per choice in order
        scored = [(score, self._rng.random(), c) for score, c in zip(scores, ids, strict=True)]
        scored.sort(reverse=True)
        return [c for _, _, c in scored[: prompt.pick]]
