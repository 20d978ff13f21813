"""Determinized Monte Carlo search: the expert AI level shared by every game.

An expert decision never looks at the hidden parts of the state. It reads the seat's view
(`game.view(state, seat)`) and the prompt, and from them a game's `Expertise` samples *worlds*: full
game states that agree with everything the view shows and fill in what it hides (unseen cards, the
order of a deck, other seats' secret choices, hidden objectives) at random, the way a person reasons
"they probably hold...". Each candidate answer is then tried in each world and the game is played on
(a *rollout*) by the game's rollout policy, usually its heuristic, for every seat, until a horizon the
game chooses; the world is scored from the seat's side, and the candidate with the best mean wins.

Every candidate is tried on the very same worlds with the very same rollout seeds (common random
numbers): the difference between two candidates then comes from the candidates, not from the luck of
the draw, which is what makes a few dozen rollouts enough to rank them.

Cost is counted, not timed: a search stops before a world whose rollouts would, at the mean cost of
the worlds so far, take it past `steps` decisions (every candidate is tried on every world begun, and
at least `MIN_WORLDS` are), so the same seed always gives the same
decision, on any machine and under any load. Each game converts the default budget in CPU
milliseconds into steps with a rate measured on the development machine (`Expertise.steps_per_ms`;
`python -m bench expert --calibrate` measures it again), so the median decision stays within budget.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from games.core import Game, Player, Prompt

__all__ = ["DEFAULT_BUDGET_MS", "MIN_WORLDS", "ExpertPlayer", "Expertise", "Search", "rollout"]

DEFAULT_BUDGET_MS = 50.0
MIN_WORLDS = 2  # even a tiny budget compares the candidates on more than one sampled world


class Expertise(Protocol):
    """What one game gives the search. Everything here reads the seat's view, never the state."""

    steps_per_ms: float  # rollout decisions per CPU millisecond on the reference machine (see module notes)

    def fallback(self, seed: int) -> Player:
        """The player that answers the prompts the search leaves alone (usually the heuristic)."""
        ...

    def candidates(self, view: dict[str, Any], prompt: Prompt, seed: int) -> list[list[str]]:
        """The answers worth searching, best guess first (ties go to the earlier one); fewer than two
        means the search is not worth it and the fallback answers."""
        ...

    def world(self, view: dict[str, Any], prompt: Prompt, rng: random.Random) -> Any:
        """A full state the view allows, hidden parts drawn from `rng`, in which `prompt` is pending."""
        ...

    def rollout_player(self, seat: int, seed: int) -> Player:
        """The policy that plays `seat` in the rollouts."""
        ...

    def done(self, world: Any, view: dict[str, Any]) -> bool:
        """Whether a rollout begun from `view` has gone far enough (the game's end always is)."""
        ...

    def value(self, world: Any, view: dict[str, Any], seat: int) -> float:
        """How good the world, rolled out from `view`, is for `seat` (higher is better; any scale)."""
        ...


def rollout(game: Game[Any], world: Any, players: Sequence[Player], done: Callable[[Any], bool], limit: int) -> int:
    """Play `world` on with one player per seat until `done(world)`, the game ends, or `limit`
    decisions were made; return the number of decisions made."""
    made = 0
    prompts_of, apply = game.prompts, game.apply
    while made < limit and not done(world):
        prompts = prompts_of(world)
        if not prompts:
            break
        for prompt in prompts:  # prompts of one call are independent (games.core)
            apply(world, prompt.seat, list(players[prompt.seat].choose(game, world, prompt)))
        made += len(prompts)
    return made


@dataclass(frozen=True, slots=True)
class Search:
    """The outcome of one search: the answer, and what it is based on (for tests and the bench)."""

    answer: list[str]
    candidates: list[list[str]]
    means: list[float]
    worlds: int
    steps: int


class ExpertPlayer:
    """The expert level: searches the prompts its game's `Expertise` finds worth it, within `steps`
    rollout decisions per decision, and lets the fallback answer the rest. Deterministic for its seed,
    and stateless between decisions (the table service makes a fresh player for every decision)."""

    ROLLOUT_LIMIT = 2_000  # decisions per rollout at most: a safeguard against a game that never ends

    def __init__(self, expertise: Expertise, seed: int, budget_ms: float = DEFAULT_BUDGET_MS) -> None:
        self.expertise = expertise
        self.seed = seed
        self.steps = max(1, round(budget_ms * expertise.steps_per_ms))
        self.last: Search | None = None  # the latest search made (None: the fallback answered)

    def choose(self, game: Game[Any], state: Any, prompt: Prompt) -> list[str]:
        view = game.view(state, prompt.seat)
        self.last = None
        candidates = self.expertise.candidates(view, prompt, self.seed)
        if len(candidates) < 2:
            if len(candidates) == 1:
                return list(candidates[0])
            return list(self.expertise.fallback(self.seed).choose(game, state, prompt))
        self.last = self.search(game, view, prompt, candidates)
        return list(self.last.answer)

    def search(self, game: Game[Any], view: dict[str, Any], prompt: Prompt, candidates: list[list[str]]) -> Search:
        expertise, seat = self.expertise, prompt.seat
        rng = random.Random(self.seed)
        totals = [0.0] * len(candidates)
        worlds = steps = 0
        seats = int(view["players"])
        done = lambda world: expertise.done(world, view)  # noqa: E731
        # A world is begun only while one more, at the mean cost of those so far, still fits in the budget:
        # finishing a world that began just under the budget overshot it by up to a world's cost (the
        # medians were 57-65 ms for a 50 ms budget).
        while worlds < MIN_WORLDS or steps + steps / worlds <= self.steps:
            world_seed = rng.getrandbits(64)
            policy_seeds = [rng.getrandbits(32) for _ in range(seats)]
            for i, answer in enumerate(candidates):
                # The same world and the same rollout seeds for every candidate (common random numbers).
                world = expertise.world(view, prompt, random.Random(world_seed))
                game.apply(world, seat, list(answer))
                players = [expertise.rollout_player(s, policy_seeds[s]) for s in range(seats)]
                steps += 1 + rollout(game, world, players, done, self.ROLLOUT_LIMIT)
                totals[i] += expertise.value(world, view, seat)
            worlds += 1
        means = [t / worlds for t in totals]
        best = max(range(len(candidates)), key=lambda i: (means[i], -i))
        return Search(list(candidates[best]), candidates, means, worlds, steps)
