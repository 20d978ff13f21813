"""Where an AI seat's decision is made: `Thinker`, which the transport may give the table service.

The table service asks its thinker for every AI decision and awaits the answer, so a thinker may make a
costly decision (an expert's search: tens of milliseconds of CPU) away from the event loop, in another
process, while the loop answers other games' clicks. `InlineThinker`, the default, decides right there,
as a cheap level should (the heuristic takes under a millisecond). The bot's own thinker
(bot.app.thinking) sends the levels that search to worker processes.

Whatever the thinker, the answer is the same: an AI is made fresh for each decision from the game's
key, its level and a seed (`Game.ai`), and reads only its seat's view of the state, so a worker that
rebuilds the state from its JSON decides exactly as the loop's process would.
"""

from __future__ import annotations

from typing import Any, Protocol

from games.core import Game, Prompt

# The AI levels whose decision searches (tens of milliseconds of CPU): worth a worker process.
SEARCHING_LEVELS = frozenset({"expert"})


class Thinker(Protocol):
    async def choose(self, game: Game[Any], level: str, seed: int, state: Any, prompt: Prompt) -> list[str]:
        """The choice of an AI of `level` made with `seed`, answering `prompt` in `state` (not changed)."""
        ...


class InlineThinker:
    """Decides in the caller's process, on the spot."""

    async def choose(self, game: Game[Any], level: str, seed: int, state: Any, prompt: Prompt) -> list[str]:
        return decide(game, level, seed, state, prompt)


def decide(game: Game[Any], level: str, seed: int, state: Any, prompt: Prompt) -> list[str]:
    return list(game.ai(level, seed).choose(game, state, prompt))


def decide_from_json(game_key: str, level: str, seed: int, data: dict[str, Any], seat: int) -> list[str]:
    """`decide` for a state sent as JSON (what a worker process receives): the state is rebuilt and the
    seat's prompt found again (prompts depend on the state alone)."""
    import games

    game = games.get(game_key)
    state = game.from_json(data)
    prompt = next(p for p in game.prompts(state) if p.seat == seat)
    return decide(game, level, seed, state, prompt)
