"""Eggs and Empires component data and the pure rule functions (no state object needed).

The hard part of the rulebook, the order in which revealed Adventurers collect eggs, is the pure
function `collection_order`, so the rulebook's worked examples can be written directly as tests and
the AI can use the same function to look ahead.
"""

from __future__ import annotations

import json
from bisect import bisect_left
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


# ROTATIONS[players][holder]: the seats in player order starting with the Tie-Breaker holder (clockwise).
ROTATIONS: Final[list[list[tuple[int, ...]]]] = [
    [tuple((holder + i) % players for i in range(players)) for holder in range(players)] for players in range(7)
]
# The collection order sorts each play as one int, its "order key": rank (10 - card, so the highest card
# comes first) times 16 plus the seat's position from the Tie-Breaker holder. Sorting plain ints in C is
# much cheaper than sorting with a key function. RANK_KEYS[card] is the rank part.
RANK_KEYS: Final[list[int]] = [(10 - card) * 16 for card in range(11)]
# ORDER_ENTRIES[players][holder][order key]: the (seat, card) that key stands for.
ORDER_ENTRIES: Final[list[list[list[tuple[int, int]]]]] = [
    [
        [(rotation[key % 16] if key % 16 < players else -1, 10 - key // 16) for key in range(11 * 16)]
        for rotation in ROTATIONS[players]
    ]
    for players in range(7)
]


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
    queue, tie = collection_queue(plays, tiebreaker)
    return [(seat, card) for seat, card in queue], tie


def collection_queue(plays: list[list[int]], tiebreaker: int) -> tuple[list[list[int]], bool]:
    """`collection_order` as the engine keeps it: a list of [seat, card] lists (its collection queue).

    Written for speed (it runs every turn, interpreted or compiled): each play becomes one int key, the
    keys are sorted in C, and one pass over them builds the queue and sees the ties."""
    players = len(plays)
    keys: list[int] = []
    for position, seat in enumerate(ROTATIONS[players][tiebreaker]):
        for card in plays[seat]:
            keys.append(RANK_KEYS[card] + position)
    keys.sort()
    # Ranks are 10 - card: Dark Priestesses have rank 1 (keys 16-31), Blacksmiths 2, Shepherds 7.
    cancelled = bisect_left(keys, 32) - bisect_left(keys, 16) > 1  # Dark Priestesses cancel each other
    entries = ORDER_ENTRIES[players][tiebreaker]
    queue: list[list[int]] = []
    tie = False
    previous = -1
    for key in keys:
        rank = key >> 4
        if rank == previous:
            tie = True
        elif rank == 1 and cancelled:  # none of them collects, and that is no tie
            continue
        previous = rank
        seat, card = entries[key]
        queue.append([seat, card])
    first_shepherd = bisect_left(keys, 112)
    if first_shepherd < len(keys) and keys[first_shepherd] < 128 and bisect_left(keys, 48) > bisect_left(keys, 32):
        first_blacksmith = next(i for i, (_, card) in enumerate(queue) if card == BLACKSMITH)
        moved = [entry for entry in queue if entry[1] == SHEPHERD]
        rest = [entry for entry in queue if entry[1] != SHEPHERD]
        queue = rest[:first_blacksmith] + moved + rest[first_blacksmith:]
    return queue, tie
