"""The expert Eggs and Empires player: determinized rollouts (games.search) of the Adventurer choice.

What a seat cannot see, and how a world fills it in from the view:
- the other seats' hands: each seat's remaining cards are public (its Empire deck minus the cards it
  discarded, scored as Merchant/Blacksmith or revealed this turn), so a world deals each other seat a
  random hand of the right size from them, the rest being its deck (its order random too);
- what the other seats already chose this turn (a secret play): dropped, they choose again in the
  world, as their rollout policy would without knowing ours;
- the eggs: the ones nobody has seen (the egg deck minus the eggs collected, face up or scouted by
  us) are shuffled into the egg deck, the face-down eggs scouted by others and the discard (the view
  keeps no list of discarded eggs, so neither does the expert).
Only the Adventurer choice is searched (the other decisions are the heuristic's: taking the best
egg, keeping a good egg from a Courier...). Each candidate play is tried in each world and the turn is
played out by the engine: the other seats choose their plays as a quick version of the heuristic
would (`RolloutPlayer`, not knowing ours), the eggs are collected, Couriers and Priests decide. The
world is scored as our points plus the heuristic's price of every rank we still have to play this
round (`value`). One turn deep, the search spends its budget on many worlds (40-50 at 50 ms): over
200 2-player games it beat the heuristic 58% of the time, where rollouts to the end of the round
(7 worlds at 50 ms, too noisy to rank six candidates) won 47%.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from typing import Any

from games.core import Player, Prompt, Rng
from games.eggs_empires import rules
from games.eggs_empires.ai import CARD_COST, HeuristicPlayer
from games.eggs_empires.engine import FACE_UP, EggsState
from games.eggs_empires.rules import BLACKSMITH, EGG_VALUES, MERCHANT
from games.search import DEFAULT_BUDGET_MS, ExpertPlayer

UNSEEN_MEAN = sum(EGG_VALUES[e] for e in rules.egg_deck(4)) / len(rules.egg_deck(4))  # an egg nobody has seen


PLAY_SAMPLES = 3  # sampled plays of the other seats per rollout decision (the heuristic takes 24)


class RolloutPlayer:
    """A quick stand-in for the heuristic inside rollouts: the same reasoning, on a few samples.

    It plays the card(s) that do best against a few random plays of the other seats drawn from the
    cards they may still hold (public knowledge), less the heuristic's cost per rank spent, and takes the
    best egg it knows of. It reads the world directly for speed, but only what its seat may know: its
    own hand, the others' remaining cards as one pool each, and the eggs face up or scouted by itself."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def choose(self, game: Any, state: EggsState, prompt: Prompt) -> list[str]:
        kind = prompt.kind
        if kind == "play":
            return self._play(state, prompt)
        if kind == "egg":
            best, best_value = prompt.choices[0].id, float("-inf")
            for choice in prompt.choices:
                value = 0.0 if choice.id == "none" else self._egg_value(state, prompt.seat, int(choice.id[1:]))
                if value > best_value:
                    best, best_value = choice.id, value
            return [best]
        if kind == "courier":
            if prompt.info.get("egg", 0) >= 0:
                return ["keep"]
            return [next(c.id for c in prompt.choices if c.id != "keep")]
        if kind == "priest":
            worst = [c for c in prompt.choices if c.id.startswith("discard") and int(c.id[7:]) < 0]
            return [min(worst, key=lambda c: int(c.id[7:])).id if worst else "keep"]
        return [prompt.choices[0].id]

    @staticmethod
    def _egg_value(state: EggsState, seat: int, slot: int) -> float:
        egg, scout = state.offer[slot]
        return float(EGG_VALUES[egg]) if scout in (FACE_UP, seat) else UNSEEN_MEAN

    def _play(self, state: EggsState, prompt: Prompt) -> list[str]:
        me, n = prompt.seat, state.players
        sample, pick = self._rng.sample, rules.cards_per_seat(n)
        eggs = [(self._egg_value(state, me, slot), scout != FACE_UP) for slot, (_, scout) in enumerate(state.offer)]
        options = list(combinations([int(c.id) for c in prompt.choices], prompt.pick))
        scores = [-CARD_COST * sum(option) * PLAY_SAMPLES for option in options]
        for _ in range(PLAY_SAMPLES):
            plays: list[list[int]] = []
            for s in range(n):
                if s == me:
                    plays.append([])
                    continue
                pool = state.hands[s] + state.decks[s]
                hand = sorted(set(sample(pool, min(len(state.hands[s]), len(pool)))))
                plays.append(sample(hand, min(len(hand), pick)))
            for i, option in enumerate(options):
                plays[me] = list(option)
                scores[i] += HeuristicPlayer._payoff(plays, me, eggs, state.tiebreaker)
        best = max(range(len(options)), key=lambda i: (scores[i], -i))
        return [str(card) for card in options[best]]


class EggsExpertise:
    """games.search.Expertise for Eggs and Empires."""

    steps_per_ms = 20.0

    def fallback(self, seed: int) -> Player:
        return HeuristicPlayer(seed)

    def rollout_player(self, seat: int, seed: int) -> Player:
        return RolloutPlayer(seed)

    def candidates(self, view: dict[str, Any], prompt: Prompt, seed: int) -> list[list[str]]:
        if prompt.kind != "play":
            return []
        return [list(pair) for pair in combinations(prompt.choice_ids(), prompt.pick)]

    def world(self, view: dict[str, Any], prompt: Prompt, rng: random.Random) -> EggsState:
        n: int = view["players"]
        me: int = view["seat"]
        state = EggsState(
            players=n, rng=Rng(rng.getrandbits(63)), options=dict(view["options"]), tiebreaker=view["tiebreaker"]
        )
        state.round, state.turn, state.phase = view["round"], view["turn"], view["phase"]
        seats = view["seats"]
        for s, info in enumerate(seats):
            left = Counter(rules.empire_deck(n))
            left.subtract(info["discards"])
            left.subtract(info["played"])
            left.subtract([MERCHANT] * info["merchants"] + [BLACKSMITH] * info["blacksmiths"])
            if s == me:
                hand = list(view["hand"])
                left.subtract(hand)
                deck = sorted(left.elements())
                rng.shuffle(deck)
            else:
                pool = sorted(left.elements())
                rng.shuffle(pool)
                hand, deck = pool[: info["hand_size"]], pool[info["hand_size"] :]
            state.hands.append(sorted(hand))
            state.decks.append(deck)
            state.discards.append(sorted(info["discards"]))
            state.bonus.append([MERCHANT] * info["merchants"] + [BLACKSMITH] * info["blacksmiths"])
        # Egg ids by value: only values matter, any id of the right value will do.
        ids: dict[int, list[int]] = {}
        for egg in rules.egg_deck(n):
            ids.setdefault(EGG_VALUES[egg], []).append(egg)
        for info in seats:
            state.piles.append([ids[v].pop() for v in info["eggs"]])
        offer: list[list[int] | None] = []
        for entry in view["offer"]:
            value = entry["value"]
            scout = FACE_UP if not entry["face_down"] else entry["scout"]
            offer.append(None if value is None else [ids[value].pop(), scout])
        unseen = sorted(egg for pile in ids.values() for egg in pile)
        rng.shuffle(unseen)
        for slot, entry in enumerate(view["offer"]):
            if offer[slot] is None:
                offer[slot] = [unseen.pop(), entry["scout"]]
        state.offer = [o for o in offer if o is not None]
        deck_size: int = view["egg_deck_size"]
        state.egg_deck, state.egg_discard = unseen[:deck_size], unseen[deck_size:]
        state.mulligan = ["keep"] * n
        state.submitted = [None] * n
        state.plays = [()] * n
        rounds = len(seats[0]["round_scores"])
        state.round_scores = [[info["round_scores"][r] for info in seats] for r in range(rounds)]
        state.round_details = [
            [{"eggs": score, "merchant": 0, "blacksmith": 0, "total": score} for score in row]
            for row in state.round_scores
        ]
        state.tokens = [info["tokens"] for info in seats]
        self._last_reveal(state, view.get("reveal"), n)
        return state

    @staticmethod
    def _last_reveal(state: EggsState, reveal: dict[str, Any] | None, n: int) -> None:
        """The last reveal as the view shows it (every seat's play, the collection order and what each
        collector took), so that the world's view is the seat's. Any egg of the shown value will do."""
        if reveal is None:
            return
        egg_of_value = {EGG_VALUES[egg]: egg for egg in rules.egg_deck(n)}
        state.revealed_at = reveal["round"] * 16 + reveal["turn"]
        state.revealed = [list(cards) for cards in reveal["plays"]]
        state.order = [[entry["seat"], entry["card"]] for entry in reveal["order"]]
        state.collected = [
            [entry["seat"], entry["card"], egg_of_value[entry["egg"]], entry["seat"] if entry["face_down"] else FACE_UP]
            for entry in reveal["order"]
            if entry["egg"] is not None
        ]
        if state.phase == "collect":
            state.queue = [
                [entry["seat"], entry["card"]] for entry in reveal["order"] if entry["status"] in ("now", "waiting")
            ]

    def done(self, world: EggsState, view: dict[str, Any]) -> bool:
        return world.turn != view["turn"] or world.round != view["round"] or world.phase == "over"

    def value(self, world: EggsState, view: dict[str, Any], seat: int) -> float:
        """Our points this round, plus the heuristic's price of each rank still to play (a card kept
        can win a better egg later). Only ours: counting what the others get as well (our points minus
        theirs) makes the expert spend its high cards to deny eggs, which loses (40% against the
        heuristic over 1,000 2-player games)."""
        if len(world.round_scores) >= view["round"]:  # the round ended: its score, and no cards left to play
            return float(world.round_scores[view["round"] - 1][seat])
        points = float(sum(EGG_VALUES[e] for e in world.piles[seat]))
        points += rules.MERCHANT_BONUS * world.bonus[seat].count(MERCHANT)
        points += rules.BLACKSMITH_PENALTY * world.bonus[seat].count(BLACKSMITH)
        return points + CARD_COST * (sum(world.hands[seat]) + sum(world.decks[seat]))


def expert_player(seed: int, budget_ms: float = DEFAULT_BUDGET_MS) -> ExpertPlayer:
    """The expert level (`game.ai("expert", seed)`): searches within `budget_ms` of CPU per decision."""
    return ExpertPlayer(EggsExpertise(), seed, budget_ms)
