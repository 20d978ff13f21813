"""Eggs and Empires component data and the pure rule functions (no state object needed).

The hard part of the rulebook, the order in which revealed Adventurers collect eggs, is the pure
function `collection_order`, so the rulebook's worked examples can be written directly as tests and
the AI can use the same function to look ahead.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any, Final

_DATA: dict[str, Any] = json.loads(resources.files(__package__).joinpath("data.json").read_text("utf-8"))

# Constants are Final: compiled with mypyc (python -m games.build) they become C constants, not dict lookups.
BARD: Final = 1
SCOUT: Final = 2
SHEPHERD: Final = 3
COURIER: Final = 4
MERCHANT: Final = 5
PRIEST: Final = 6
MAGE: Final = 7
BLACKSMITH: Final = 8
DARK_PRIESTESS: Final = 9
HERO: Final = 10
ADVENTURERS: Final[dict[int, str]] = {int(k): v for k, v in _DATA["adventurers"].items()}
EGG_VALUES: Final[list[int]] = [e["value"] for e in _DATA["eggs"]]
ROUNDS: Final[int] = _DATA["rounds"]
TURNS_PER_ROUND: Final[int] = _DATA["turns_per_round"]
MERCHANT_BONUS: Final[int] = _DATA["merchant_bonus"]
BLACKSMITH_PENALTY: Final[int] = _DATA["blacksmith_penalty"]
CONPUB_TOKENS: Final[int] = _DATA["conpub_tokens"]


_EGG_DECKS: Final[dict[int, list[int]]] = {
    players: [e["id"] for e in _DATA["eggs"] if e["min_players"] <= players] for players in range(1, 7)
}


def egg_deck(players: int) -> list[int]:
    """Ids of the egg cards used with this many players (cards marked 5/6p or 6p are removed)."""
    return list(_EGG_DECKS[players])


_EGGS_PER_TURN: Final[dict[int, int]] = {int(k): int(v) for k, v in _DATA["eggs_revealed_per_turn"].items()}


def eggs_per_turn(players: int) -> int:
    return _EGGS_PER_TURN[players]


def tokens_to_win(players: int) -> int:
    return int(_DATA["conpub_tokens_to_win"][str(players)])


def cards_per_seat(players: int) -> int:
    """Cards a seat plays each turn: two in the 2-player game, one otherwise."""
    return 2 if players == 2 else 1


def hand_size(players: int) -> int:
    return 4 if players == 2 else 3


def empire_deck(players: int) -> list[int]:
    """One Empire deck of Adventurers 1-10; two shuffled together in the 2-player game."""
    return list(range(1, 11)) * (2 if players == 2 else 1)


def card_name(card: int) -> str:
    return f"{ADVENTURERS[card]} ({card})"


def collection_order(plays: list[list[int]], tiebreaker: int) -> tuple[list[tuple[int, int]], bool]:
    """Who collects, in order, and whether a tie occurred.

    `plays[seat]` are the Adventurers that seat revealed. Returns ([(seat, card), ...], tie):
    - highest card first; equal cards in player order starting with the Tie-Breaker holder and going
      clockwise (increasing seat numbers);
    - if more than one Dark Priestess (9) was played, none of them collects, and that is not a tie;
    - every Shepherd (3) collects before every Blacksmith (8): when both are played, the Shepherds move
      to just ahead of the first Blacksmith (keeping their own order);
    - a tie is two collecting cards of the same value (in two-player games a seat never plays two
      copies of one card, so equal cards always belong to different seats).
    """
    players = len(plays)
    # Encode each play as one int that sorts correctly on its own (card descending, then player order
    # from the Tie-Breaker holder): sorting plain ints is much cheaper than sorting with a key.
    keys = []
    cards_seen = []
    for seat in range(players):
        position = (seat - tiebreaker) % players
        for card in plays[seat]:
            keys.append((10 - card) * 16 + position)
            cards_seen.append(card)
    if cards_seen.count(DARK_PRIESTESS) > 1:
        keys = [k for k in keys if k // 16 != 10 - DARK_PRIESTESS]
    keys.sort()
    order = [((k % 16 + tiebreaker) % players, 10 - k // 16) for k in keys]
    tie = len({k // 16 for k in keys}) < len(keys)
    if BLACKSMITH in cards_seen and SHEPHERD in cards_seen:
        first_blacksmith = next(i for i, (_, card) in enumerate(order) if card == BLACKSMITH)
        shepherds = [e for e in order if e[1] == SHEPHERD]
        rest = [e for e in order if e[1] != SHEPHERD]
        order = rest[:first_blacksmith] + shepherds + rest[first_blacksmith:]
    return order, tie


def may_take(card: int, value: int, face_down: bool) -> bool:
    """Whether an Adventurer may take this egg: a Mage never takes a face-up Exploding egg."""
    return not (card == MAGE and not face_down and value < 0)
