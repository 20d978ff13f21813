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
    (4, 1, {}, "random", "8df56c171a3df36094510b81"),
    (4, 2, {}, "random", "9fcda5e8b9c1e6615693c5f7"),
    (4, 3, {}, "random", "d4a97f3d0c2d76a5099f1101"),
    (4, 4, {}, "random", "fcf168ac7fa7984e9e1524df"),
    (4, 5, {}, "random", "4dd7b8f2961b89f107b5398b"),
    (4, 6, BOTH, "random", "4bed74d3d1a90bd849ada9ab"),
    (4, 7, BOTH, "random", "dfa036560fb08ee66bcf1582"),
    (4, 8, BOTH, "random", "007dd5a76d20618e1ae8032d"),
    (4, 9, BOTH, "random", "928accf7dcb17701d74a2e97"),
    (4, 10, BOTH, "random", "671c766e1864e29516f3bc93"),
    (3, 11, {"action_tiles": True}, "random", "49980addcfde903cbbc28421"),
    (2, 12, {"objectives": True, "shape": "cross"}, "random", "d4e7af49cd5281756b6574f5"),
    (6, 13, {**BOTH, "shape": "5x4", "egg_types": 8, "tokens": 4}, "random", "c58663f8f11c00297578bf2a"),
    (5, 14, {"shape": "ring", "egg_types": 3, "tokens": 15}, "random", "a770bad382bff10f3c8d29c3"),
    (8, 15, {**BOTH, "shape": "ring"}, "random", "bf133c3256b4dcc7e10e9987"),
    (7, 16, {"action_tiles": True, "egg_types": 2, "tokens": 3}, "random", "18fa506a9538302c177a0c70"),
    (2, 17, BOTH, "heuristic", "bb1b9fe46260734bdd23c795"),
    (3, 18, {}, "heuristic", "69f2d94cee9586de1e1903c2"),
    # More seats, shapes and egg types for the heuristic (first recorded to check that its speed rework
    # changed no choice).
    (4, 19, BOTH, "heuristic", "4d741efbe04b5f7f1a30456f"),
    (6, 20, {**BOTH, "shape": "5x4", "egg_types": 8, "tokens": 4}, "heuristic", "b15ed56ed3af67de20344822"),
    (5, 21, {"action_tiles": True, "shape": "ring", "egg_types": 7}, "heuristic", "b2ffe102efe72ed0e3e25763"),
]


@pytest.mark.parametrize(("players", "seed", "options", "level", "expected"), CASES)
def test_fixed_seed_games_are_unchanged(
    players: int, seed: int, options: dict[str, Any], level: str, expected: str
) -> None:
    got = replay_digest(GAME, players, seed, options, level)
    check_digest(got, expected, (players, seed, options, level))
