"""The card list (cards.json) as immutable records, and the deck for a player count."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources

ROW_COSTS = (0, 1, 1, 2, 2, 3)
PLACE, MOVE, CITY, DESTROY = "place", "move", "city", "destroy"
ACTION_WORDS = {
    PLACE: "Place {n} armies",
    MOVE: "Move {n}",
    CITY: "Build a city",
    DESTROY: "Destroy {n} army",
}


@dataclass(frozen=True, slots=True)
class Card:
    id: int
    name: str
    family: str | None
    mark: int | None  # None: every player count; 3: three or four players; 4: four players only
    abilities: tuple[tuple[str, str | None, int], ...]  # (kind, family, n)
    join: str  # "one", "and" (in order) or "or" (choose one)
    parts: tuple[tuple[str, int], ...]

    def count(self, kind: str) -> int:
        return sum(n for k, _, n in self.abilities if k == kind)

    def has(self, kind: str) -> bool:
        return any(k == kind for k, _, _ in self.abilities)

    @property
    def ability_text(self) -> str:
        return "; ".join(_ability_text(k, f, n) for k, f, n in self.abilities)

    @property
    def action_text(self) -> str:
        words = [part_text(kind, n) for kind, n in self.parts]
        return (" OR " if self.join == "or" else " AND ").join(words)

    def to_view(self) -> dict[str, object]:
        return {
            "id": self.id,
            "name": self.name,
            "family": self.family,
            "ability": self.ability_text,
            "abilities": [{"kind": k, "family": f, "n": n} for k, f, n in self.abilities],
            "action": self.action_text,
            "join": self.join,
            "parts": [[kind, n] for kind, n in self.parts],
        }


def part_text(kind: str, n: int) -> str:
    text = ACTION_WORDS[kind].format(n=n)
    return "Place 1 army" if kind == PLACE and n == 1 else text


def _ability_text(kind: str, family: str | None, n: int) -> str:
    return {
        "move": "+1 Move",
        "army": "+1 Army",
        "flying": "Flying",
        "immune": "Immune to attack",
        "elixir": f"{n} Elixir",
        "coins": f"Gain {n} coins",
        "vp_family": f"+1 VP per {family} card",
        "vp_flying": "+1 VP per Flying card",
        "vp_set": f"{n} VP for all {family} cards",
        "vp_coins": f"+1 VP per {n} coins",
    }[kind]


@cache
def all_cards() -> tuple[Card, ...]:
    text = resources.files(__package__).joinpath("cards.json").read_text(encoding="utf-8")
    cards: list[Card] = []
    for i, raw in enumerate(json.loads(text)["cards"]):
        abilities = []
        for a in raw["abilities"]:
            n = a.get("vp") if a["kind"] == "vp_set" else a.get("n", 1)
            # vp_set stores its VP as n; the set size is the family's card count (see set_sizes)
            abilities.append((str(a["kind"]), a.get("family"), int(n)))
        cards.append(
            Card(
                id=i,
                name=raw["name"],
                family=raw["family"],
                mark=raw["mark"],
                abilities=tuple(abilities),
                join=raw["action"]["join"],
                parts=tuple((str(k), int(n)) for k, n in raw["action"]["parts"]),
            )
        )
    return tuple(cards)


@cache
def set_sizes() -> dict[str, int]:
    """How many cards each family has in the whole list (Noble 3, Mountain 2, ...)."""
    sizes: dict[str, int] = {}
    for card in all_cards():
        if card.family:
            sizes[card.family] = sizes.get(card.family, 0) + 1
    return sizes


@lru_cache(maxsize=2048)  # bounded: the number of distinct hands over a bot's lifetime is not
def hand_totals(hand: tuple[int, ...]) -> dict[str, int]:
    """Summed ability counts of a hand ("move", "army", "flying", "immune", ...); read-only."""
    totals: dict[str, int] = {}
    for cid in hand:
        for kind, _, n in all_cards()[cid].abilities:
            totals[kind] = totals.get(kind, 0) + n
    return totals


def deck_for(players: int) -> list[int]:
    """Card ids in play: unmarked cards always, "3" with three or more players, "4" with four."""
    return [c.id for c in all_cards() if c.mark is None or c.mark <= players]
