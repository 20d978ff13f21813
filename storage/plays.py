"""What a finished game's results remember besides rank and score: its scoring variant and each
seat's plays (for `/stats`: "favourite plays").

Plays come from the action log: the game is replayed once from its seed when it finishes (a few
ms), and every decision a seat made in a prompt of one of the game's "play" kinds is counted under
a name. Generic: any game can be described by a PlaySpec (which prompt kinds count, and how a
decision is named); a game without one records no plays.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.core import Choice, Game, Prompt

__all__ = ["PLAY_SPECS", "PlaySpec", "seat_plays", "variant"]

log = logging.getLogger(__name__)

Lookup = Callable[[str], Game[Any]]


def _label(prompt: Prompt, chosen: Sequence[Choice]) -> list[str]:
    return [c.label for c in chosen]


def _label_before_paren(prompt: Prompt, chosen: Sequence[Choice]) -> list[str]:
    # "Dragon Rider (2c): Place 3 armies" -> "Dragon Rider": the card, not its slot cost and action.
    return [c.label.split(" (", 1)[0] for c in chosen]


def _kind(prompt: Prompt, chosen: Sequence[Choice]) -> list[str]:
    return [prompt.kind]


@dataclass(frozen=True, slots=True)
class PlaySpec:
    kinds: frozenset[str]
    name: Callable[[Prompt, Sequence[Choice]], list[str]]


PLAY_SPECS: dict[str, PlaySpec] = {
    # The Adventurers played ("Bard (1)").
    "eggs-empires": PlaySpec(frozenset({"play"}), _label),
    # The cards taken from the row.
    "eight-minute-empire": PlaySpec(frozenset({"card"}), _label_before_paren),
    # Which side of a tile was used (move or rule) and which action tiles: named by prompt kind.
    "reggverse-riddles": PlaySpec(
        frozenset(
            {
                "move",
                "rule",
                "rule_egg",
                "teleport",
                "switch",
                "swap",
                "steal_from",
                "shift_from",
                "trade_give",
                "to_pile_from",
            }
        ),
        _kind,
    ),
}


def variant(game_key: str, options: Mapping[str, Any]) -> str | None:
    """The scoring variant whose scores are not comparable with the standard game's (None: standard).

    Eggs and Empires under Con/Pub scores Egg Tokens; Eight-Minute Empire's Full Game sums three
    games. `/stats` keeps their average and best scores apart.
    """
    if game_key == "eggs-empires" and options.get("scoring") == "conpub":
        return "conpub"
    if game_key == "eight-minute-empire" and options.get("full_game"):
        return "full"
    return None


def seat_plays(
    lookup: Lookup,
    game_key: str,
    players: int,
    seed: int,
    options: dict[str, Any],
    actions: Sequence[tuple[int, Sequence[str]]],
) -> list[dict[str, int]] | None:
    """Per seat, how often it made each named play; None if the game has no PlaySpec or cannot be
    replayed (a finish must never fail because of this)."""
    spec = PLAY_SPECS.get(game_key)
    if spec is None:
        return None
    try:
        game = lookup(game_key)
        state = game.new(players, seed, options)
        counts = [Counter[str]() for _ in range(players)]
        for seat, action in actions:
            if 0 <= seat < players:
                prompt = next((p for p in game.prompts(state) if p.seat == seat), None)
                if prompt is not None and prompt.kind in spec.kinds:
                    by_id = {c.id: c for c in prompt.choices}
                    chosen = [by_id[c] for c in action if c in by_id]
                    counts[seat].update(spec.name(prompt, chosen))
            game.apply(state, seat, list(action))
    except Exception:
        log.exception("could not replay %s to count plays", game_key)
        return None
    return [dict(c) for c in counts]
