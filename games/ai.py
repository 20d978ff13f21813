"""AI players shared by every game.

`random_player(seed)` answers any prompt with uniformly random legal choices. Each game's heuristic
player lives in its own package and is reached through `game.ai("heuristic", seed)` or `player()`.
Both are deterministic for their seed.

This module sits below games.core at run time: the base `Game.ai()` hands out `RandomPlayer` for the
"random" level every game has, so nothing here may import the contract but for type hints (a cycle
otherwise). Everything here reaches a game only through the object it is given.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from games.core import Game, Player, Prompt


class RandomPlayer:
    """Picks `prompt.pick` distinct legal choices at random."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)
        self._random = self._rng.random  # bound once: choose() runs for every decision

    def choose(self, game: Game[Any], state: Any, prompt: Prompt) -> list[str]:
        choices = prompt.choices
        if prompt.pick == 1:
            # random() is one C call; randrange() runs several Python frames per draw
            return [choices[int(self._random() * len(choices))].id]
        return [c.id for c in self._rng.sample(choices, prompt.pick)]


def random_player(seed: int) -> RandomPlayer:
    return RandomPlayer(seed)


def player(game: Game[Any], level: str, seed: int) -> Player:
    """An AI of the given level for `game`."""
    return game.ai(level, seed)


def play_out(game: Game[Any], state: Any, players: list[Player]) -> int:
    """Let `players` (one per seat) play `state` to the end; return the number of decisions made."""
    decisions = 0
    prompts_of, apply = game.prompts, game.apply  # bound once: this loop runs for every decision
    choosers = [p.choose for p in players]
    while True:
        prompts = prompts_of(state)
        if not prompts:
            return decisions
        # Prompts from one call are independent (the contract), so all of them can be answered.
        for prompt in prompts:
            seat = prompt.seat
            apply(state, seat, choosers[seat](game, state, prompt))
        decisions += len(prompts)
