"""Eggs and Empires replays: whole fixed-seed games must stay exactly what they were.

The digests were recorded before the engine was reworked for speed (prompts cached per hand, the turn
resolved in one pass). Each covers, for every decision, the prompt offered (seat, kind, pick, secret,
text, info, choice ids *and* labels), the public view and the deciding seat's view, the events returned,
and at the end the state's JSON and the outcome. So a change that alters a rule, the order of choices, a
label, an event, a view or the random stream fails here. A change meant to alter games must say so and
re-record (run this file with RECORD=1 to print the digests).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

import games
from games.ai import RandomPlayer
from tests.replay import check_digest, replay_digest

GAME = games.get("eggs-empires")


CONPUB = {"scoring": "conpub"}
ROUND = {"tiebreaker": "round"}
CASES: list[tuple[int, int, dict[str, Any], str, str]] = [
    (2, 21, {}, "random", "f886c641c516f22fb3434f64"),
    (2, 22, {}, "random", "2d876acfd84b16a10afa3924"),
    (2, 102, CONPUB, "random", "36d493fc034aa6f7c364f52e"),
    (2, 202, ROUND, "random", "7ddb055e035338e53df6390a"),
    (3, 31, {}, "random", "758416996c86a7e806f99dd9"),
    (3, 32, {}, "random", "d67f1ca8002adcb4de8d1815"),
    (3, 103, CONPUB, "random", "e20245fe56e4c9895a5daa98"),
    (3, 203, ROUND, "random", "51ada5e8df540a67076101f9"),
    (4, 41, {}, "random", "99f64a0ccce15950aeb85654"),
    (4, 42, {}, "random", "d3868054ece36e2bbd67e3ac"),
    (4, 104, CONPUB, "random", "49f9c5c4ac1db092c4cfc0c8"),
    (4, 204, ROUND, "random", "2d99f88da8561dc65e95a2cf"),
    (5, 51, {}, "random", "d5734f26449f204121fb11e3"),
    (5, 52, {}, "random", "1cddd024bd4e95e75db98b25"),
    (5, 105, CONPUB, "random", "b758e70d242c17bb98b02b14"),
    (5, 205, ROUND, "random", "a684a4a11f64f56da03b1d3b"),
    (6, 61, {}, "random", "a92b877f74d569f597960489"),
    (6, 62, {}, "random", "e71f7d3918499328e9838a63"),
    (6, 106, CONPUB, "random", "4f00b37b193c08e41ce889a5"),
    (6, 206, ROUND, "random", "b8c7f0a35a4f9aff2672547c"),
    (2, 301, {}, "heuristic", "988c3f901d520f7edc97398d"),
    (4, 302, CONPUB, "heuristic", "78326ab52f8fc81c09563874"),
    (3, 303, ROUND, "heuristic", "668398b88efbaea3c6bc3d95"),
]


@pytest.mark.parametrize(("players", "seed", "options", "level", "expected"), CASES)
def test_fixed_seed_games_are_unchanged(
    players: int, seed: int, options: dict[str, Any], level: str, expected: str
) -> None:
    got = replay_digest(GAME, players, seed, options, level, views=True, max_decisions=2000)
    check_digest(got, expected, (players, seed, options, level))


def many_games_digest(players: int, games_count: int) -> str:
    """Events and final states of many random games (no views: cheap enough to cover rare paths such
    as a Mage declining, the egg deck running out or a Courier giving its egg away)."""
    digest = hashlib.sha256()
    for seed in range(games_count):
        options = [{}, CONPUB, ROUND][seed % 3]
        state = GAME.new(players, seed, options)
        ais = [RandomPlayer(seed * 7 + s) for s in range(players)]
        while prompts := GAME.prompts(state):
            for p in prompts:
                digest.update(
                    json.dumps(GAME.apply(state, p.seat, ais[p.seat].choose(GAME, state, p)), sort_keys=True).encode()
                )
        digest.update(json.dumps([GAME.to_json(state), GAME.outcome(state)], sort_keys=True).encode())
    return digest.hexdigest()[:24]


MANY: list[tuple[int, str]] = [
    (2, "a7fe68dc304cefc247ae5805"),
    (3, "d9980a5886dcdd05aaaf87a2"),
    (4, "e671e5b74fc975803843e797"),
    (5, "ac23e7314b438200a2cd96f7"),
    (6, "7473c490e0cd14f76afb8198"),
]


@pytest.mark.parametrize(("players", "expected"), MANY)
def test_many_fixed_seed_games_are_unchanged(players: int, expected: str) -> None:
    check_digest(many_games_digest(players, 60), expected, (players,))
