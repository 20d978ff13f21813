"""The expert Eight-Minute Empire player: determinized rollouts (games.search) of the card choice.

Everything on the table is public except the order of the deck and the bids not yet revealed. A world
rebuilt from the view keeps the board, the row, the hands and the coins as they are and shuffles the
cards nobody has seen (the deck for this player count minus the row and every hand) into the deck.
The card to take is searched: each card of the row is taken in each world, its action and the turns
after it played by the heuristic for every seat, `HORIZON` turns deep, and the world is scored by
the victory points it would give if the game ended there, relative to the best other seat, plus a
little for armies still in supply-to-board reach (see `value`). The other decisions (the steps of an
action, the bid, neutral armies) are the heuristic's.
"""

from __future__ import annotations

import random
from typing import Any

from games.core import Player, Prompt, Rng
from games.eight_minute_empire import scoring
from games.eight_minute_empire.ai import HeuristicPlayer
from games.eight_minute_empire.cards import all_cards, deck_for
from games.eight_minute_empire.engine import COIN_SUPPLY, State
from games.search import DEFAULT_BUDGET_MS, ExpertPlayer

HORIZON = 2  # turns (cards taken) a rollout plays after the root: ours, then the next seat's
CARD_IDS = {card.name: card.id for card in all_cards()}


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
        return [[c] for c in prompt.choice_ids()]

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
            totals = [row["total"] for row in rows]
        others = max(t for s, t in enumerate(totals) if s != seat)
        return float(totals[seat] - others)


def expert_player(seed: int, budget_ms: float = DEFAULT_BUDGET_MS) -> ExpertPlayer:
    """The expert level (`game.ai("expert", seed)`): searches within `budget_ms` of CPU per decision."""
    return ExpertPlayer(EmeExpertise(), seed, budget_ms)
