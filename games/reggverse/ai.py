"""The heuristic Reggverse Riddles player.

It reads only `game.view(state, seat)` and the prompt. For a tile it looks one turn ahead: for every
destination, egg to drop and rule placement it counts the eggs it would collect at the end of the
turn (with `games.reggverse.board`, the same functions the engine uses), and when placing a rule it
also counts what the placement does to the other players where they stand now (read from their
sides): giving them an egg costs, taking one away gains. Action tiles get simple fixed values.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.core import Game, Prompt
from games.reggverse.board import (
    BoardIndex,
    destination,
    geometry,
    index_board,
    rule_mask,
    same_rule,
    side_of,
)

Board = dict[str, Any]
OPPONENT_WEIGHT = 0.5  # an egg an opponent may collect next turn counts half of one of ours

ACTION_VALUES = {  # value of the action itself, on top of collecting where the pawn stands
    "collect": 1.0, "steal": 1.6, "double": 1.2, "draw3": 0.3, "refresh": 0.2, "spawn": 0.4,
    "switch": 0.4, "cleanup": 0.3, "to_pile": 0.1, "shift": 0.2, "lock_move": 0.4, "lock_rules": 0.4,
    "lock_actions": 0.1, "trade": 0.2, "swap": 0.2, "teleport": 0.0,
}


def _with(board: Mapping[str, Any], **changes: Any) -> Board:
    return {**board, **changes}


def simulate_drop(board: Mapping[str, Any], cell: int, source: str, egg: str) -> Board:
    """The board after taking `egg` from `source` and dropping it on `cell`."""
    eggs = list(board["eggs"])
    if source.startswith("c"):
        src = int(source[1:])
        here = dict(eggs[src])
        here[egg] -= 1
        if not here[egg]:
            del here[egg]
        eggs[src] = here
    target = dict(eggs[cell])
    target[egg] = target.get(egg, 0) + 1
    eggs[cell] = target
    return _with(board, eggs=eggs)


def collects(board: Mapping[str, Any], seat: int, cell: int, ix: BoardIndex | None = None) -> int:
    """How many eggs `seat` collects ending its turn on `cell` of `board`."""
    ix = ix or index_board(board)
    side = side_of(seat)
    found = 0
    for egg, row in board["rows"].items():
        if not row or board["eggs"][cell].get(egg):
            continue
        if all(rule_mask(r, board, side, egg, None, ix) >> cell & 1 for r in row):
            found += 1
    return found


def best_placement(board: Mapping[str, Any], seat: int, cell: int, rule: Mapping[str, Any] | None,
                   allowed: set[str] | None = None) -> tuple[float, str | None]:
    """(eggs collected at `cell` after the best placement of `rule`, that placement as "<egg>:<spot>").
    With `allowed`, only those placement ids count. Placements that fail the none/all test are
    skipped; with none left, the tile would be discarded and the value is the plain collection."""
    ix = index_board(board)
    side = side_of(seat)
    here = board["eggs"][cell]
    rows: Mapping[str, Sequence[Mapping[str, Any]]] = board["rows"]
    bit = 1 << cell
    masks = {e: [rule_mask(r, board, side, e, None, ix) for r in row] for e, row in rows.items()}
    base: dict[str, bool] = {}
    for e, ms in masks.items():
        ok = bool(ms) and not here.get(e)
        for m in ms:
            ok = ok and bool(m & bit)
        base[e] = ok
    total = float(sum(base.values()))
    if rule is None:
        return total, None
    best: tuple[float, str | None] = (total - 0.01, None)  # a discarded tile is a little worse
    shared_new = None if rule["t"] == 11 else rule_mask(rule, board, side, "", None, ix)
    for e, row in rows.items():
        new = shared_new if shared_new is not None else rule_mask(rule, board, side, e, None, ix)
        ms = masks[e]
        spots: list[tuple[str, int]] = []
        if len(row) < 3 and not any(same_rule(rule, r) for r in row):
            m = new
            for x in ms:
                m &= x
            spots.append(("next", m))
        for i, old in enumerate(row):
            if any(same_rule(rule, r) for j, r in enumerate(row) if j != i):
                continue
            m = new
            for j, x in enumerate(ms):
                if j != i:
                    m &= x
            spots.append((f"on{old['id']}", m))
        for spot, m in spots:
            pid = f"{e}:{spot}"
            if not 0 < m < ix.full or (allowed is not None and pid not in allowed):
                continue
            gain = float(bool(m & bit) and not here.get(e)) - float(base[e])
            if total + gain > best[0]:
                best = (total + gain, pid)
    return best


def opponent_effect(board: Mapping[str, Any], me: int, egg: str, new_row: Sequence[Mapping[str, Any]]) -> int:
    """How many more opponents (standing where they are now) the egg would point at with `new_row`."""
    change = 0
    rows = {**board["rows"], egg: list(new_row)}
    old_row = board["rows"].get(egg, [])
    ix = index_board(board)
    for seat, cell in enumerate(board["pawns"]):
        if seat == me or board["eggs"][cell].get(egg):
            continue
        side = side_of(seat)
        before = bool(old_row) and all(rule_mask(r, board, side, egg, None, ix) >> cell & 1 for r in old_row)
        after = bool(new_row) and all(rule_mask(r, board, side, egg, rows, ix) >> cell & 1 for r in new_row)
        change += int(after) - int(before)
    return change


class HeuristicPlayer:
    """Greedy one-turn lookahead; deterministic for its seed."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def choose(self, game: Game[Any], state: Any, prompt: Prompt) -> list[str]:
        view = game.view(state, prompt.seat)
        ids = prompt.choice_ids()
        scorer = getattr(self, f"_score_{prompt.kind}", None)
        if scorer is None:
            picked = self._rng.sample(ids, prompt.pick)
            return picked
        scored = [(scorer(view, prompt.seat, c), self._rng.random(), c) for c in ids]
        scored.sort(reverse=True)
        return [c for _, _, c in scored[: prompt.pick]]

    # --- the regular turn ----------------------------------------------------------------------
    def _destinations(self, view: Mapping[str, Any], seat: int, tile: Mapping[str, Any]) -> list[int]:
        board = view["board"]
        here = board["pawns"][seat]
        if view["locks"].get("move", seat) != seat:
            return [here]
        geo = geometry(board["shape"])
        found = [d for m in tile["moves"]
                 if (d := destination(geo, side_of(seat), here, m)) is not None and d not in board["pawns"]]
        return found or [here]

    def _drops(self, view: Mapping[str, Any], seat: int, cell: int) -> list[tuple[str, str, float]]:
        """One way to drop each egg type: from its pile, else from a tile, else from our own eggs."""
        board = view["board"]
        options: list[tuple[str, str, float]] = []
        for egg in view["eggs"]:
            if view["piles"][egg] > 0:
                options.append(("pile", egg, 0.0))
                continue
            src = next((c for c, eggs in enumerate(board["eggs"]) if c != cell and eggs.get(egg)), None)
            if src is not None:
                options.append((f"c{src}", egg, -0.01))
            elif view["collected"][seat].get(egg):
                options.append(("mine", egg, -1.0))
        return options

    def _after_move(self, view: Mapping[str, Any], seat: int, cell: int, rule: Mapping[str, Any] | None) -> float:
        board = _with(view["board"], pawns=[cell if s == seat else p for s, p in enumerate(view["board"]["pawns"])])
        drops = self._drops(view, seat, cell)
        if not drops:
            return best_placement(board, seat, cell, rule)[0]
        return max(best_placement(simulate_drop(board, cell, src, egg), seat, cell, rule)[0] + cost
                   for src, egg, cost in drops)

    def _score_play(self, view: Mapping[str, Any], seat: int, choice: str) -> float:
        tile = next(t for t in view["hand"] if t["id"] == int(choice[1:]))
        board = view["board"]
        here = board["pawns"][seat]
        if tile["kind"] == "action":
            kind = tile["action"]
            if kind == "teleport":
                free = [c for c in range(len(board["types"])) if c not in board["pawns"]]
                return max((collects(board, seat, c) for c in free), default=0) + 0.1
            return ACTION_VALUES.get(kind, 0.0) + collects(board, seat, here)
        rule = None if view["locks"].get("rules", seat) != seat else tile["rule"]
        return max(self._after_move(view, seat, d, rule) for d in self._destinations(view, seat, tile))

    def _played_rule(self, view: Mapping[str, Any], seat: int) -> Mapping[str, Any] | None:
        tile = view["step"].get("tile_data") or {}
        if tile.get("kind") != "regular" or view["locks"].get("rules", seat) != seat:
            return None
        rule: Mapping[str, Any] = tile["rule"]
        return rule

    def _score_move(self, view: Mapping[str, Any], seat: int, choice: str) -> float:
        return self._after_move(view, seat, int(choice[1:]), self._played_rule(view, seat))

    def _drop_value(self, view: Mapping[str, Any], seat: int, source: str, egg: str) -> float:
        cell = view["board"]["pawns"][seat]
        board = simulate_drop(view["board"], cell, source, egg)
        cost = -1.0 if source == "mine" else -0.01 if source.startswith("c") else 0.0
        return best_placement(board, seat, cell, self._played_rule(view, seat))[0] + cost

    def _score_drop(self, view: Mapping[str, Any], seat: int, choice: str) -> float:
        source, egg = choice.split(":")
        return self._drop_value(view, seat, source, egg)

    def _score_drop_from(self, view: Mapping[str, Any], seat: int, choice: str) -> float:
        if choice == "mine":
            return -1.0
        return 0.0 if choice == "pile" else -0.01

    def _score_drop_egg(self, view: Mapping[str, Any], seat: int, choice: str) -> float:
        return self._drop_value(view, seat, view["step"]["source"], choice)

    def _placement_value(self, view: Mapping[str, Any], seat: int, egg: str, spot: str) -> float:
        board = view["board"]
        rule = self._played_rule(view, seat)
        if rule is None:
            return 0.0
        row = list(board["rows"][egg])
        if spot == "next":
            new_row = [*row, rule]
        else:
            new_row = [rule if r["id"] == int(spot[2:]) else r for r in row]
        cell = board["pawns"][seat]
        mine, _ = best_placement(board, seat, cell, rule, allowed={f"{egg}:{spot}"})
        return mine - OPPONENT_WEIGHT * opponent_effect(board, seat, egg, new_row)

    def _score_rule(self, view: Mapping[str, Any], seat: int, choice: str) -> float:
        egg, spot = choice.split(":")
        return self._placement_value(view, seat, egg, spot)

    def _score_rule_egg(self, view: Mapping[str, Any], seat: int, choice: str) -> float:
        row = view["board"]["rows"][choice]
        spots = ["next"] + [f"on{r['id']}" for r in row]
        return max(self._placement_value(view, seat, choice, s) for s in spots)

    def _score_rule_spot(self, view: Mapping[str, Any], seat: int, choice: str) -> float:
        return self._placement_value(view, seat, view["step"]["egg"], choice)

    # --- actions -------------------------------------------------------------------------------
    def _score_teleport(self, view: Mapping[str, Any], seat: int, choice: str) -> float:
        return collects(view["board"], seat, int(choice[1:]))

    def _score_collect(self, view: Mapping[str, Any], seat: int, choice: str) -> float:
        return float(view["piles"][choice])

    def _score_steal_from(self, view: Mapping[str, Any], seat: int, choice: str) -> float:
        return float(view["scores"][int(choice[1:])])

    def _score_cleanup(self, view: Mapping[str, Any], seat: int, choice: str) -> float:
        return -OPPONENT_WEIGHT * opponent_effect(view["board"], seat, choice, []) - \
            self._mine_now(view, seat, choice)

    def _mine_now(self, view: Mapping[str, Any], seat: int, egg: str) -> float:
        board = view["board"]
        cell = board["pawns"][seat]
        row = board["rows"].get(egg, [])
        if not row or board["eggs"][cell].get(egg):
            return 0.0
        ix = index_board(board)
        return float(all(rule_mask(r, board, side_of(seat), egg, None, ix) >> cell & 1 for r in row))

    def _score_spawn_to(self, view: Mapping[str, Any], seat: int, choice: str) -> float:
        # An egg lying on a square blocks collecting that type there: put it under an opponent.
        cell = int(choice[1:])
        pawns = view["board"]["pawns"]
        return 1.0 if cell in pawns and pawns.index(cell) != seat else -1.0 if cell == pawns[seat] else 0.0

    def _score_shift_from(self, view: Mapping[str, Any], seat: int, choice: str) -> float:
        return 1.0 if choice == "done" else 0.0

    def _score_trade_give(self, view: Mapping[str, Any], seat: int, choice: str) -> float:
        return float(view["collected"][seat].get(choice, 0))

    def _score_trade_get(self, view: Mapping[str, Any], seat: int, choice: str) -> float:
        return float(view["piles"][choice])
