"""A heuristic Eggs and Empires player.

It reads only `game.view(state, seat)` (what its seat may know) and the prompt. To choose an
Adventurer it samples what the others may hold (every seat's remaining cards are public knowledge:
its Empire deck minus the cards already played this round), plays the collection out with each
collector greedily taking its best egg, and picks the card with the best average result, minus a
small cost for spending a high card that could win a better egg later.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from typing import Any

from games.core import Game, Prompt
from games.eggs_empires import rules
from games.eggs_empires.rules import BLACKSMITH, COURIER, MAGE, MERCHANT, PRIEST, collection_queue

SAMPLES = 24
CARD_COST = 0.35  # VP we pretend each rank of a spent card costs: keeps Heroes for juicy eggs
MULLIGAN_BELOW = 4.5  # redraw a starting hand whose average Adventurer is below this


class HeuristicPlayer:
    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def choose(self, game: Game[Any], state: Any, prompt: Prompt) -> list[str]:
        view = game.view(state, prompt.seat)
        kind = prompt.kind
        if kind == "mulligan":
            hand = view["hand"]
            return ["redraw" if sum(hand) / len(hand) < MULLIGAN_BELOW else "keep"]
        if kind == "play":
            return self._play(view, prompt)
        if kind == "egg":
            return [self._egg(view, prompt)]
        if kind == "courier":
            return [self._courier(view, prompt)]
        if kind == "priest":
            return [self._priest(prompt)]
        return [prompt.choices[0].id]

    # --- valuing eggs ----------------------------------------------------------------------
    @staticmethod
    def _unseen_mean(view: dict[str, Any]) -> float:
        """Expected value of an egg nobody has seen: the deck minus the eggs in sight."""
        pool = Counter(rules.EGG_VALUES[e] for e in rules.egg_deck(view["players"]))
        seen = Counter(v for s in view["seats"] for v in s["eggs"])
        seen.update(o["value"] for o in view["offer"] if o["value"] is not None)
        rest = pool - seen
        total = sum(rest.values())
        return sum(v * k for v, k in rest.items()) / total if total else 0.0

    def _offer_values(self, view: dict[str, Any]) -> list[tuple[float, bool]]:
        """(value or expected value, face down) for every egg on offer, as this seat knows it."""
        mean = self._unseen_mean(view)
        return [(float(o["value"]) if o["value"] is not None else mean, o["face_down"]) for o in view["offer"]]

    # --- playing a card ----------------------------------------------------------------------
    def _play(self, view: dict[str, Any], prompt: Prompt) -> list[str]:
        me = view["seat"]
        n = view["players"]
        mine = [int(c.id) for c in prompt.choices]
        options = [list(p) for p in combinations(mine, prompt.pick)]
        eggs = self._offer_values(view)
        unknown = []  # for each other seat: the cards it may still hold
        for s in view["seats"]:
            left = Counter(rules.empire_deck(n))
            left.subtract(s["discards"])
            left.subtract([MERCHANT] * s["merchants"] + [BLACKSMITH] * s["blacksmiths"])
            unknown.append(list(left.elements()))
        best, best_score = options[0], float("-inf")
        scenarios = []
        for _ in range(SAMPLES):
            plays: list[list[int]] = [[] for _ in range(n)]
            for s in range(n):
                if s == me:
                    continue
                hand = self._rng.sample(unknown[s], min(view["seats"][s]["hand_size"], len(unknown[s])))
                distinct = sorted(set(hand))
                plays[s] = self._rng.sample(distinct, min(len(distinct), rules.cards_per_seat(n)))
            scenarios.append(plays)
        for option in options:
            total = 0.0
            for plays in scenarios:
                plays[me] = option
                total += self._payoff(plays, me, eggs, view["tiebreaker"])
            score = total / len(scenarios) - CARD_COST * sum(option)
            if score > best_score:
                best, best_score = option, score
        return [str(c) for c in best]

    @staticmethod
    def _payoff(plays: list[list[int]], me: int, eggs: list[tuple[float, bool]], tiebreaker: int) -> float:
        """What `me` gains when every seat plays `plays` and each collector takes its best egg (the first
        of equal ones). Plain loops: it runs SAMPLES times per card in hand for every decision."""
        queue, _ = collection_queue(plays, tiebreaker)
        left = list(eggs)
        gained = 0.0
        got: set[int] = set()
        for seat, card in queue:
            if not left:
                break
            mage = card == MAGE
            pick, value = -1, 0.0
            for i, (egg_value, face_down) in enumerate(left):
                if mage and not face_down and round(egg_value) < 0:
                    continue  # a Mage never takes a face-up Exploding egg
                if pick < 0 or egg_value > value:
                    pick, value = i, egg_value
            if pick < 0:
                continue
            del left[pick]
            if seat == me:
                got.add(card)
                # a Courier gives a bad egg away; a Priest can throw one away
                gained += max(value, 0.0) if card in (COURIER, PRIEST) else value
        for card in plays[me]:
            if card not in got:
                gained += rules.MERCHANT_BONUS if card == MERCHANT else 0.0
                gained += rules.BLACKSMITH_PENALTY if card == BLACKSMITH else 0.0
        return gained

    # --- the other decisions -----------------------------------------------------------------
    def _egg(self, view: dict[str, Any], prompt: Prompt) -> str:
        values = self._offer_values(view)
        best_id, best_value = prompt.choices[0].id, float("-inf")
        for choice in prompt.choices:
            value = 0.0 if choice.id == "none" else values[int(choice.id[1:])][0]
            if value > best_value:
                best_id, best_value = choice.id, value
        return best_id

    @staticmethod
    def _courier(view: dict[str, Any], prompt: Prompt) -> str:
        if prompt.info.get("egg", 0) >= 0:
            return "keep"
        others = [s for s in view["seats"] if s["seat"] != view["seat"]]
        leader = max(others, key=lambda s: s["total"] + sum(s["eggs"]))
        return f"give{leader['seat']}"

    @staticmethod
    def _priest(prompt: Prompt) -> str:
        worst = [c for c in prompt.choices if c.id.startswith("discard") and int(c.id[7:]) < 0]
        return min(worst, key=lambda c: int(c.id[7:])).id if worst else "keep"
