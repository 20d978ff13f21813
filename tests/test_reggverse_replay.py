"""Reggverse Riddles replays: whole fixed-seed games must stay exactly what they were.

The digests below were recorded before the engine was reworked for speed (lazy prompt building, board
masks kept per game), re-recorded once when prompts gained info fields (egg, left, which) and the
outcome its ranking, after checking the games were otherwise identical, and once more when the game
became the publisher's (issue 25): the rule deck's mix, collecting from a pile or a tile, no row ever
pointing nowhere or everywhere from any side, locks binding everybody, the action tiles' readings and
one name per square (see games/reggverse/README.md); every game differs from then on. Each covers, for every
decision of the game, the prompt offered (seat, kind,
choice ids *and* labels, text, info), the events returned, and at the end the state's JSON. So a change
that alters a rule, the order of choices, a label, an event or the random stream fails here. A change
that is meant to alter a game must say so and re-record (run this file with RECORD=1 to print them).
"""

from __future__ import annotations

from typing import Any

import pytest

import games
from tests.replay import check_digest, replay_digest

GAME = games.get("reggverse-riddles")


BOTH = {"action_tiles": True, "objectives": True}
CASES: list[tuple[int, int, dict[str, Any], str, str]] = [
    (4, 1, {}, "random", "184cd66b8202a1b5bca2062f"),
    (4, 2, {}, "random", "9c69d40dbc23f71529508976"),
    (4, 3, {}, "random", "4cebe133a8d55d1cc33a4869"),
    (4, 4, {}, "random", "9647a6ea90b8e99d683e9929"),
    (4, 5, {}, "random", "e929d740314fd832cb092a9f"),
    (4, 6, BOTH, "random", "d16629d9286009ad89cb569a"),
    (4, 7, BOTH, "random", "55261af542e0e685a26004e2"),
    (4, 8, BOTH, "random", "22c1c678b7fbd86db3af6e57"),
    (4, 9, BOTH, "random", "b50989056f75a78852fee1c0"),
    (4, 10, BOTH, "random", "45ba57be061466666e31e323"),
    (3, 11, {"action_tiles": True}, "random", "8f0fd60067c3c207dc8f3fdb"),
    (2, 12, {"objectives": True, "shape": "cross"}, "random", "beb4283606995ccc53aa93ad"),
    (6, 13, {**BOTH, "shape": "5x4", "egg_types": 8, "tokens": 4}, "random", "4263ffa4a2a344367157c921"),
    (5, 14, {"shape": "ring", "egg_types": 3, "tokens": 15}, "random", "52a976ade29cee668f247775"),
    (8, 15, {**BOTH, "shape": "ring"}, "random", "6bca874b7bccd4a223d66ab3"),
    (7, 16, {"action_tiles": True, "egg_types": 2, "tokens": 3}, "random", "3806d67594f81d0e347712f1"),
    (2, 17, BOTH, "heuristic", "6a8bc0ffe2aaa960c917f9df"),
    (3, 18, {}, "heuristic", "7283bfc569991f81c1cb963d"),
    # More seats, shapes and egg types for the heuristic (first recorded to check that its speed rework
    # changed no choice).
    (4, 19, BOTH, "heuristic", "6d168f8ffafc2e975a3f7a9c"),
    (6, 20, {**BOTH, "shape": "5x4", "egg_types": 8, "tokens": 4}, "heuristic", "5e8771e1f76178d9edf7dd5a"),
    (5, 21, {"action_tiles": True, "shape": "ring", "egg_types": 7}, "heuristic", "cda9508d0ac81f8bbc0729c2"),
]


@pytest.mark.parametrize(("players", "seed", "options", "level", "expected"), CASES)
def test_fixed_seed_games_are_unchanged(
    players: int, seed: int, options: dict[str, Any], level: str, expected: str
) -> None:
    got = replay_digest(GAME, players, seed, options, level)
    check_digest(got, expected, (players, seed, options, level))
