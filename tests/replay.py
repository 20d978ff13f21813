"""Fixed-seed replay digests shared by the engines' replay tests (tests/test_*_replay.py).

A digest covers, for every decision of a whole game played by seeded AI seats, the prompt offered
(seat, kind, pick, secret, text, info, choice ids *and* labels), optionally the public view and the
deciding seat's view, the events returned, and at the end the state's JSON and the outcome. Run a
replay test file with RECORD=1 to print the digests for re-recording.
"""

from __future__ import annotations

import hashlib
import json
import os
from typing import Any

from games.ai import RandomPlayer
from games.core import Game


def replay_digest(
    game: Game[Any],
    players: int,
    seed: int,
    options: dict[str, Any],
    level: str = "random",
    *,
    views: bool = False,
    max_decisions: int = 5000,
) -> str:
    state = game.new(players, seed, options)
    ais = [RandomPlayer(seed * 31 + s) if level == "random" else game.ai(level, seed * 31 + s) for s in range(players)]
    digest = hashlib.sha256()

    def feed(value: Any) -> None:
        digest.update(json.dumps(value, sort_keys=True).encode())

    decisions = 0
    while prompts := game.prompts(state):
        for p in prompts:
            feed([p.seat, p.kind, p.pick, p.secret, p.text, dict(p.info), [[c.id, c.label] for c in p.choices]])
            if views:
                feed([game.view(state, None), game.view(state, p.seat)])
            feed(game.apply(state, p.seat, ais[p.seat].choose(game, state, p)))
            decisions += 1
        assert decisions < max_decisions
    feed(game.to_json(state))
    feed(game.outcome(state))
    return digest.hexdigest()[:24]


def check_digest(got: str, expected: str, case: tuple[Any, ...]) -> None:
    """Compare, printing the case's line for the CASES table when recording (RECORD=1)."""
    if os.environ.get("RECORD"):
        print(f"    ({', '.join(repr(part) for part in case)}, {got!r}),")
    assert got == expected
