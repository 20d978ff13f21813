"""Eight-Minute Empire heuristic: whole fixed-seed games must make exactly the same choices.

Each digest covers every decision of a game played by heuristic seats only: the seat, the prompt kind
and the choice made. Labels and texts are left out on purpose (they may change without the heuristic
changing). They were last re-recorded when the heuristic stopped stacking its armies on the start
region (issue 25 part 2.4), a change of play on purpose; a rework for speed must not change a single
choice. A change meant to alter the heuristic's play must say so and re-record (run this file with
RECORD=1 to print them).
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
    (2, 1, {}, "c2881b2f54dd364545c07ca1"),
    (3, 2, {"explore": True, "citadels": True}, "5946eb456017f28e017f7016"),
    (4, 3, {"layout": "row", "bid_tie": "first-seat"}, "1b429aad254574ac43e2c58e"),
    (2, 4, {"full_game": True, "citadels": True, "explore": True}, "aecf229727476eac2033f6a9"),
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
