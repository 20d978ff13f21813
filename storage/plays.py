"""What a finished game's results remember besides rank and score: its scoring variant and each
seat's plays (for `/stats`: "favourite plays").

Plays come from the action log: the game is replayed once from its seed when it finishes (a few
ms), and every decision a seat made in a prompt of one of the game's "play" kinds is counted under
a name. The game says which prompt kinds are plays (`Game.play_kinds`) and how a decision is named
(`Game.play_names`); a game with no play kinds records no plays.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.core import Game

__all__ = ["seat_plays", "variant"]

log = logging.getLogger(__name__)

Lookup = Callable[[str], Game[Any]]


def variant(game: Game[Any], options: Mapping[str, Any]) -> str | None:
    """The game's scoring variant for these options (`Game.score_variant`); None when the game cannot say."""
    try:
        return game.score_variant(dict(options))
    except Exception:
        log.exception("could not tell the scoring variant of %s", game.key)
        return None


def seat_plays(
    lookup: Lookup,
    game_key: str,
    players: int,
    seed: int,
    options: dict[str, Any],
    actions: Sequence[tuple[int, Sequence[str]]],
) -> list[dict[str, int]] | None:
    """Per seat, how often it made each named play; None if the game has no play kinds or cannot be
    replayed (a finish must never fail because of this)."""
    try:
        game = lookup(game_key)
        if not game.play_kinds:
            return None
        state = game.new(players, seed, options)
        counts = [Counter[str]() for _ in range(players)]
        for seat, action in actions:
            if 0 <= seat < players:
                prompt = next((p for p in game.prompts(state) if p.seat == seat), None)
                if prompt is not None and prompt.kind in game.play_kinds:
                    by_id = {c.id: c for c in prompt.choices}
                    chosen = [by_id[c] for c in action if c in by_id]
                    counts[seat].update(game.play_names(prompt, chosen))
            game.apply(state, seat, list(action))
    except Exception:
        log.exception("could not replay %s to count plays", game_key)
        return None
    return [dict(c) for c in counts]
