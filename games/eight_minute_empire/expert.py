"""The expert Eight-Minute Empire player: determinized rollouts (games.search) of the card choice.

Everything on the table is public except the order of the deck and the bids not yet revealed. A world
rebuilt from the view keeps the board, the row, the hands and the coins as they are and shuffles the
cards nobody has seen (the deck for this player count minus the row and every hand) into the deck.
The card to take is searched among the heuristic's best `CANDIDATES`: each is taken in each world, its
action and the `HORIZON` turns after it played by the heuristic for every seat, and the world is scored
by the victory points it would give if the game ended there plus what coins and ongoing abilities are
still worth with the turns left (see `value`), relative to the best other seat. The other decisions
(the steps of an action, the bid, neutral armies) are the heuristic's.

Why the first version (every card, 2 turns deep, the map's points only) lost to the heuristic (37.5% of
40 games, 36% of 100): it read the view and sampled the worlds correctly (only the deck's order is
hidden), but two turns are too short for an army placed, a city or "+1 army" to pay off, and a leaf
counting no coins let it spend them for a point now; six candidates also left the budget one world each.
"""

from __future__ import annotations

import random
from typing import Any

from games.core import Player, Prompt, Rng
from games.eight_minute_empire import scoring
from games.eight_minute_empire.ai import HeuristicPlayer
from games.eight_minute_empire.cards import all_cards, deck_for
from games.eight_minute_empire.components import COIN_SUPPLY
from games.eight_minute_empire.engine import State
from games.search import DEFAULT_BUDGET_MS, ExpertPlayer

# Turns (cards taken) a rollout plays after the root: ours, the next seat's, and so on. Measured over
# 100 2-player games each against the heuristic (with the leaf value below): 2 turns 58%, 4 turns 64-70%,
# 6 turns 74-82%. An army placed or a card with an ongoing ability pays off on the turns after it.
HORIZON = 6
# The heuristic's best cards that are searched: the rollouts are long, and two worlds of the heuristic's
# top two fit the budget where six candidates got one world or none (6 of 6 candidates: 36%; top 3: 45%,
# both at horizon 2 without the future terms).
CANDIDATES = 2
# What a seat's coins and ongoing abilities are still worth at the horizon, in victory points: the
# heuristic's own estimates (ai.ability_value, ai.HeuristicPlayer._card). Without them the search
# spent coins and took "+1 army" cards as if they were worth nothing (45% of 100 games; 58% with them).
COIN_VP = 0.5  # per coin, while three or more turns are left (less after)
ONGOING_VP = 1.2  # per "+1 move" or "+1 army" (ability or explore token), times the turns left / 10
FLYING_VP = 0.6  # per "flying" ability up to the two that bring water to its cheapest, likewise
CARDS = all_cards()
CARD_IDS = {card.name: card.id for card in CARDS}


class EmeExpertise:
    """games.search.Expertise for Eight-Minute Empire: Legends."""

    steps_per_ms = 3.3

    def fallback(self, seed: int) -> Player:
        return HeuristicPlayer(seed)

    def rollout_player(self, seat: int, seed: int) -> Player:
        return HeuristicPlayer(seed)

    def candidates(self, view: dict[str, Any], prompt: Prompt, seed: int) -> list[list[str]]:
        if prompt.kind != "card":
            return []
        ranked = HeuristicPlayer(seed).rank_cards(view, prompt)
        return [[c] for c in ranked[:CANDIDATES]]

    def world(self, view: dict[str, Any], prompt: Prompt, rng: random.Random) -> State:
        n: int = view["players"]
        me: int = view["me"]
        options = dict(view["options"])
        state = State(players=n, options=options, rng=Rng(rng.getrandbits(63)), layout=view["layout"])
        board = state.board
        state.game_no = view["game_no"]
        state.finished = [
            [{"total": t, "magic_book": 0, "coins": 0, "armies_on_board": 0, "controlled_regions": 0} for t in totals]
            for totals in view["finished_scores"]
        ]
        state.phase = view["phase"]
        state.row = [None if c is None else c["id"] for c in view["row"]]
        seats = view["seats"]
        state.hands = [[CARD_IDS[name] for name in s["cards"]] for s in seats]
        state.coins = [s["coins"] for s in seats]
        state.supply = COIN_SUPPLY - sum(state.coins)
        index = board.index
        state.armies = [[*r["armies"], r["neutral"]] for r in view["regions"]]
        state.cities = [list(r["cities"]) for r in view["regions"]]
        state.start = index[view["start"]]
        state.tokens = {index[r["id"]]: r["token"] for r in view["regions"] if r["token"]}
        state.citadels = [index[label] for label in view["citadels"]]
        state.explore = [list(s["explore"]) for s in seats]
        state.neutral_left = view["neutral_left"]
        state.seat = prompt.seat
        # once revealed, the bids are public; before, only our own is known (the others bid again in a world)
        state.revealed = None if view["bids"] is None else list(view["bids"])
        state.bids = list(state.revealed) if state.revealed else [view["my_bid"] if s == me else None for s in range(n)]
        state.first = -1 if view["first"] is None else view["first"]
        state.step = None
        seen = {c for c in state.row if c is not None} | {c for hand in state.hands for c in hand}
        deck = [c for c in deck_for(n) if c not in seen]
        rng.shuffle(deck)
        state.deck = deck
        return state

    def done(self, world: State, view: dict[str, Any]) -> bool:
        if world.game_no != view["game_no"]:
            return True
        taken = sum(len(h) for h in world.hands) - sum(len(s["cards"]) for s in view["seats"])
        return world.step is None and taken >= HORIZON

    def value(self, world: State, view: dict[str, Any], seat: int) -> float:
        game = view["game_no"]
        if len(world.finished) >= game:  # the game ended in the rollout: its final scores
            totals = [row["total"] for row in world.finished[game - 1]]
        else:
            rows = scoring.score(
                world.board,
                world.players,
                world.armies,
                world.cities,
                world.hands,
                world.coins,
                world.explore,
                world.citadels,
            )
            totals = [row["total"] + self._future(world, s, view["target_cards"]) for s, row in enumerate(rows)]
        others = max(t for s, t in enumerate(totals) if s != seat)
        return float(totals[seat] - others)

    @staticmethod
    def _future(world: State, seat: int, target: int) -> float:
        """Victory points still to come from what `seat` holds, while it has cards left to take."""
        left = target - len(world.hands[seat])
        if left <= 0:
            return 0.0
        ongoing = world.explore[seat].count("Stable") + world.explore[seat].count("Cottage")
        flying = 0
        for cid in world.hands[seat]:
            for kind, _, n in CARDS[cid].abilities:
                if kind in ("move", "army"):
                    ongoing += n
                elif kind == "flying":
                    flying += n
        later = left / 10
        return (
            COIN_VP * world.coins[seat] * min(1.0, left / 3)
            + (ONGOING_VP * ongoing + FLYING_VP * min(flying, 2)) * later
        )


def expert_player(seed: int, budget_ms: float = DEFAULT_BUDGET_MS) -> ExpertPlayer:
    """The expert level (`game.ai("expert", seed)`): searches within `budget_ms` of CPU per decision."""
    return ExpertPlayer(EmeExpertise(), seed, budget_ms)
