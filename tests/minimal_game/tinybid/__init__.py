"""Tiny Bid: each round everybody secretly bids one card; the highest bid nobody else made scores."""

from __future__ import annotations

from typing import Any

from games.core import Choice, Game, Prompt, check_choice

ROUNDS = 3
CARDS = (1, 2, 3, 4, 5)


class TinyBid(Game[dict[str, Any]]):
    key = "tiny-bid"
    title = "Tiny Bid"
    min_players = 2
    max_players = 4
    ai_levels = ("random",)

    def new(self, players: int, seed: int, options: dict[str, Any] | None = None) -> dict[str, Any]:
        self.check_players(players)
        self.resolve_options(options)
        return {
            "round": 1,
            "hands": [list(CARDS) for _ in range(players)],
            "bids": [None] * players,
            "scores": [0] * players,
        }

    def players(self, state: dict[str, Any]) -> int:
        return len(state["hands"])

    def prompts(self, state: dict[str, Any]) -> list[Prompt]:
        if state["round"] > ROUNDS:
            return []
        return [
            Prompt(
                seat,
                "bid",
                [Choice(f"c{card}", f"Card {card}", {"card": card}) for card in hand],
                secret=True,
                text="Which card do you bid?",
                info={"round": state["round"]},
            )
            for seat, hand in enumerate(state["hands"])
            if state["bids"][seat] is None
        ]

    def apply(self, state: dict[str, Any], seat: int, choice: list[str]) -> list[dict[str, Any]]:
        check_choice(self.prompts(state), seat, choice)
        card = int(choice[0][1:])
        state["hands"][seat].remove(card)
        state["bids"][seat] = card
        events: list[dict[str, Any]] = [{"type": "decided", "seat": seat}]
        if all(bid is not None for bid in state["bids"]):
            bids = state["bids"]
            unique = [b for b in bids if bids.count(b) == 1]
            winner = bids.index(max(unique)) if unique else None
            if winner is not None:
                state["scores"][winner] += 1
            events.append({"type": "revealed", "round": state["round"], "bids": list(bids), "winner": winner})
            state["bids"] = [None] * len(bids)
            state["round"] += 1
        return events

    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        shown = {
            "round": min(state["round"], ROUNDS),
            "scores": list(state["scores"]),
            "decided": [bid is not None for bid in state["bids"]],
        }
        if seat is not None:
            shown["hand"] = list(state["hands"][seat])
        return shown

    def outcome(self, state: dict[str, Any]) -> dict[str, Any] | None:
        if state["round"] <= ROUNDS:
            return None
        scores = state["scores"]
        return {"scores": list(scores), "ranking": [1 + sum(o > s for o in scores) for s in scores]}

    def to_json(self, state: dict[str, Any]) -> dict[str, Any]:
        return {**state, "hands": [list(h) for h in state["hands"]]}

    def from_json(self, data: dict[str, Any]) -> dict[str, Any]:
        return {
            **data,
            "hands": [list(h) for h in data["hands"]],
            "bids": list(data["bids"]),
            "scores": list(data["scores"]),
        }


GAME = TinyBid()
