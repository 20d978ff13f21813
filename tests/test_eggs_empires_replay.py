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
    (2, 21, {}, "random", "039b715f125cc35d3507fa2f"),
    (2, 22, {}, "random", "d8f660658d7ec4b767af0886"),
    (2, 102, CONPUB, "random", "53e12158d9ec1b56ada9c1d3"),
    (2, 202, ROUND, "random", "9cb6589f343adecdbfc45735"),
    (3, 31, {}, "random", "9b5a73059d9d1f617864dec3"),
    (3, 32, {}, "random", "d07742b882be395c6f42c1a6"),
    (3, 103, CONPUB, "random", "f15304a61b19278e9d7ea84c"),
    (3, 203, ROUND, "random", "43cb4eb58f5beadba34ad428"),
    (4, 41, {}, "random", "473dc46dc4d7cda8015c6429"),
    (4, 42, {}, "random", "1f2f5dc34182f5f17391dcd0"),
    (4, 104, CONPUB, "random", "c014c96d7ae1e8c59528ef4f"),
    (4, 204, ROUND, "random", "9edcc385e6c844994503c9d5"),
    (5, 51, {}, "random", "2d8021371e7ca795206c909e"),
    (5, 52, {}, "random", "80d33a75d9525f74ec873d1b"),
    (5, 105, CONPUB, "random", "1d0dbad9bd1c49ada8227af1"),
    (5, 205, ROUND, "random", "44f9e746914743fa89161cc0"),
    (6, 61, {}, "random", "37c6e4991753d8c659b19e43"),
    (6, 62, {}, "random", "e3aaff5eae11cfd241da6b99"),
    (6, 106, CONPUB, "random", "c90055c00f7987b303ab9d94"),
    (6, 206, ROUND, "random", "7a345b566b622a7ab271a6dd"),
    (2, 301, {}, "heuristic", "2f2bcb8da2d68f7eef2fa86e"),
    (4, 302, CONPUB, "heuristic", "3fa254f72066a92e6ad3aa87"),
    (3, 303, ROUND, "heuristic", "b3000f56626e512baaf01cb0"),
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
    (2, "3891ba81fdcadbc3a9ff6a79"),
    (3, "ff00cf7891e3106ae649e5c7"),
    (4, "f0373bcfaf03bd9afb6adde9"),
    (5, "88a373b81bd9aff380024c6a"),
    (6, "8195b8a3d5e8513e3a3ff3e7"),
]


@pytest.mark.parametrize(("players", "expected"), MANY)
def test_many_fixed_seed_games_are_unchanged(players: int, expected: str) -> None:
    check_digest(many_games_digest(players, 60), expected, (players,))
