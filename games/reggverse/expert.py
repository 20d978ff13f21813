"""The expert Reggverse Riddles player: determinized rollouts (games.search) of each step of a turn.

What a seat cannot see, and how a world fills it in from the view: the other seats' hands, the deck
and the discard (the view counts them), and which of the (public) objective tiles each other seat
holds. Which tiles a game holds is itself drawn at random when it starts, so a world draws a fresh set
of material as the game does (`game.new`), keeps the tiles this seat has seen (its hand, the tile
being played, the rules on the board) under their own ids, and deals the tiles at every other id,
shuffled, into the other hands, the deck and the discard, in the sizes the view gives. The other
seats' objectives are drawn among the tiles that are not ours.

Every step of our turn is searched: the tile to play, where to move, which egg to drop, where the rule
goes (the heuristic's best few candidates when there are many). Each candidate is tried in each world,
the rest of the turn and the next `HORIZON` turns are played by the heuristic for every seat, and the
world is scored as our eggs minus the most any other seat has (objective points included once the
game is over).
"""

from __future__ import annotations

import random
from typing import Any

from games.core import Player, Prompt
from games.reggverse.ai import Decision, HeuristicPlayer
from games.reggverse.engine import ReggverseRiddles
from games.reggverse.material import objective_text
from games.reggverse.state import State
from games.search import DEFAULT_BUDGET_MS, ExpertPlayer

HORIZON = 2  # turns after ours that a rollout plays (the next seats' answers to what we do)
MAX_CANDIDATES = 5  # the heuristic's best answers searched when a prompt offers more
SEARCHED = frozenset({"play", "move", "drop", "rule", "drop_from", "drop_egg", "rule_egg", "rule_spot"})


def _without_text(rule: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in rule.items() if k != "text"}


def _tile(tile: dict[str, Any]) -> dict[str, Any]:
    """A tile as the engine keeps it (views add the text of its rule)."""
    if tile.get("kind") == "regular":
        return {**tile, "rule": _without_text(tile["rule"])}
    return dict(tile)


class ReggverseExpertise:
    """games.search.Expertise for Reggverse Riddles."""

    steps_per_ms = 2.2

    def __init__(self) -> None:
        self._game = ReggverseRiddles()  # a private engine to draw fresh material with

    def fallback(self, seed: int) -> Player:
        return HeuristicPlayer(seed)

    def rollout_player(self, seat: int, seed: int) -> Player:
        return HeuristicPlayer(seed)

    def candidates(self, view: dict[str, Any], prompt: Prompt, seed: int) -> list[list[str]]:
        if prompt.kind not in SEARCHED or prompt.pick != 1:
            return []
        ids = prompt.choice_ids()
        if len(ids) <= MAX_CANDIDATES:
            return [[c] for c in ids]
        scores = Decision(view, prompt.seat).scores(prompt.kind, ids)
        if scores is None:
            return [[c] for c in ids[:MAX_CANDIDATES]]
        ranked = sorted(range(len(ids)), key=lambda i: (-scores[i], i))
        return [[ids[i]] for i in ranked[:MAX_CANDIDATES]]

    def world(self, view: dict[str, Any], prompt: Prompt, rng: random.Random) -> State:
        n: int = view["players"]
        me: int = view["seat"]
        options = dict(view["options"])
        state = self._game.new(n, rng.getrandbits(63), options)  # fresh material, and a fresh Rng
        board = view["board"]
        state.board = {
            "shape": board["shape"],
            "types": list(board["types"]),
            "eggs": [dict(e) for e in board["eggs"]],
            "pawns": list(board["pawns"]),
            "rows": {egg: [_without_text(r) for r in row] for egg, row in board["rows"].items()},
        }
        state.eggs = list(view["eggs"])
        state.piles = dict(view["piles"])
        state.out_order = list(view["out_order"])
        state.collected = [dict(c) for c in view["collected"]]
        tiles = state.tiles
        known: set[int] = set()
        for tile in view["hand"]:
            tiles[tile["id"]] = _tile(tile)
            known.add(tile["id"])
        step = {k: v for k, v in view["step"].items() if k != "tile_data"}
        played = view["step"].get("tile_data")
        if played is not None:
            tiles[played["id"]] = _tile(played)
            known.add(played["id"])
        for row in state.board["rows"].values():
            for rule in row:
                if 0 <= rule["id"] < len(tiles):
                    # its movement is hidden under the rule: the fresh tile's will do if it comes back
                    moves = tiles[rule["id"]].get("moves") or [[0, -1]]
                    tiles[rule["id"]] = {"id": rule["id"], "kind": "regular", "moves": moves, "rule": rule}
                    known.add(rule["id"])
        hidden = [t["id"] for t in tiles if t["id"] not in known]
        rng.shuffle(hidden)
        hands: list[list[int]] = []
        for s, size in enumerate(view["hand_sizes"]):
            if s == me:
                hands.append([t["id"] for t in view["hand"]])
            else:
                hands.append(hidden[:size])
                del hidden[:size]
        state.hands = hands
        deck_size: int = view["deck"]
        state.deck, state.discard = hidden[:deck_size], hidden[deck_size:]
        state.current, state.turn = view["current"], view["turn"]
        state.step = step
        state.plays_left = view["plays_left"]
        state.locks = dict(view["locks"])
        if options.get("objectives"):
            # the objective tiles are public (which one each seat holds is not)
            state.objective_tiles = [{**t, "text": objective_text(t)} for t in view["objective_tiles"]]
            mine = view.get("objective")
            others = [t["id"] for t in state.objective_tiles if mine is None or t["id"] != mine["id"]]
            rng.shuffle(others)
            state.secret = [mine["id"] if s == me and mine is not None else others.pop() for s in range(n)]
        state.touch()
        return state

    def done(self, world: State, view: dict[str, Any]) -> bool:
        return world.turn > view["turn"] + HORIZON or world.finished

    def value(self, world: State, view: dict[str, Any], seat: int) -> float:
        if world.finished:
            outcome = self._game.outcome(world)
            assert outcome is not None
            totals = [float(s) for s in outcome["scores"]]
        else:
            totals = [float(sum(c.values())) for c in world.collected]
        return totals[seat] - max(t for s, t in enumerate(totals) if s != seat)


def expert_player(seed: int, budget_ms: float = DEFAULT_BUDGET_MS) -> ExpertPlayer:
    """The expert level (`game.ai("expert", seed)`): searches within `budget_ms` of CPU per decision."""
    return ExpertPlayer(ReggverseExpertise(), seed, budget_ms)
