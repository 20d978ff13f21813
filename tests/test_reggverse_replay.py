"""Reggverse Riddles replays: whole fixed-seed games must stay exactly what they were.

The digests below were recorded before the engine was reworked for speed (lazy prompt building, board
masks kept per game), and re-recorded once when prompts gained info fields (egg, left, which) and the
outcome its ranking, after checking the games were otherwise identical. Each covers, for every
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
    (4, 1, {}, "random", "4dfd851971e207c138b2bd93"),
    (4, 2, {}, "random", "07b492a78a8786aa4bac335e"),
    (4, 3, {}, "random", "c1741e64840c9b666e0e0806"),
    (4, 4, {}, "random", "8049e29ba2115559e417e535"),
    (4, 5, {}, "random", "3f72244e30985ce17fe1c390"),
    (4, 6, BOTH, "random", "6ccac68c6a462e08a97d142a"),
    (4, 7, BOTH, "random", "012eae1fb71e1ee2be75fe73"),
    (4, 8, BOTH, "random", "bf94a0a1ddba9d8dc4912ccc"),
    (4, 9, BOTH, "random", "4d8ec881ce7710700a083fec"),
    (4, 10, BOTH, "random", "e0530a46e24590d6f4029da2"),
    (3, 11, {"action_tiles": True}, "random", "810aa22e121d91a2775ddda1"),
    (2, 12, {"objectives": True, "shape": "cross"}, "random", "95b9b0d1aa0800047ba13a61"),
    (6, 13, {**BOTH, "shape": "5x4", "egg_types": 8, "tokens": 4}, "random", "ceffa933c99778f1084dbd94"),
    (5, 14, {"shape": "ring", "egg_types": 3, "tokens": 15}, "random", "0fff44f9c5e5142eb148fd45"),
    (8, 15, {**BOTH, "shape": "ring"}, "random", "49eaeb3478d60c856a4386c2"),
    (7, 16, {"action_tiles": True, "egg_types": 2, "tokens": 3}, "random", "a1f1798f614a6e36f87eb1a2"),
    (2, 17, BOTH, "heuristic", "3810485e64344242e304c800"),
    (3, 18, {}, "heuristic", "9e880b6801fb010c310803a3"),
    # Recorded with the heuristic as it was before it was reworked for speed (one board index per decision,
    # what-ifs made in place), which must not change a single choice: more seats, shapes and egg types.
    (4, 19, BOTH, "heuristic", "aa8e9e3856363330a4a59000"),
    (6, 20, {**BOTH, "shape": "5x4", "egg_types": 8, "tokens": 4}, "heuristic", "2bfdd84c08684340e14dda36"),
    (5, 21, {"action_tiles": True, "shape": "ring", "egg_types": 7}, "heuristic", "3d3f504362ffc3b2db5e8e83"),
]


@pytest.mark.parametrize(("players", "seed", "options", "level", "expected"), CASES)
def test_fixed_seed_games_are_unchanged(
    players: int, seed: int, options: dict[str, Any], level: str, expected: str
) -> None:
    got = replay_digest(GAME, players, seed, options, level)
    check_digest(got, expected, (players, seed, options, level))
