"""Eight-Minute Empire heuristic: whole fixed-seed games must make exactly the same choices.

Each digest covers every decision of a game played by heuristic seats only: the seat, the prompt kind
and the choice made. Labels and texts are left out on purpose (they may change without the heuristic
changing). The digests were recorded with the heuristic as it was before it was reworked for speed,
which must not change a single choice. A change meant to alter the heuristic's play must say so and
re-record (run this file with RECORD=1 to print them).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

import games
from tests.replay import check_digest

GAME = games.get("eight-minute-empire")

CASES: list[tuple[int, int, dict[str, Any], str]] = [
    (2, 1, {}, "20303f2fe396e5384328289c"),
    (3, 2, {"explore": True, "citadels": True}, "4825fa52e41c3fc45804d924"),
    (4, 3, {"layout": "row", "bid_tie": "first-seat"}, "91602b5e508a6fd1f0fffe92"),
    (2, 4, {"full_game": True, "citadels": True, "explore": True}, "8fc549ea55442379c8ad3279"),
]


def choices_digest(players: int, seed: int, options: dict[str, Any]) -> str:
    state = GAME.new(players, seed, options)
    digest = hashlib.sha256()
    decisions = 0
    while prompts := GAME.prompts(state):
        for p in prompts:
            # a fresh player per decision, as the bot does
            choice = GAME.ai("heuristic", seed * 1000 + decisions).choose(GAME, state, p)
            digest.update(json.dumps([p.seat, p.kind, choice]).encode())
            GAME.apply(state, p.seat, choice)
            decisions += 1
        assert decisions < 5000
    digest.update(json.dumps(GAME.outcome(state), sort_keys=True).encode())
    return digest.hexdigest()[:24]


@pytest.mark.parametrize(("players", "seed", "options", "expected"), CASES)
def test_heuristic_games_are_unchanged(players: int, seed: int, options: dict[str, Any], expected: str) -> None:
    check_digest(choices_digest(players, seed, options), expected, (players, seed, options))
