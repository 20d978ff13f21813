"""What `bench load` plays: the mix of games and variants, seats and AI seats per table."""

from __future__ import annotations

import asyncio
import math
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

import games

if TYPE_CHECKING:
    pass


def game_mix() -> tuple[tuple[str, str, int, int], ...]:
    """(game key, variants as /game new takes them, fewest seats, most seats): every registered game
    with each of its `sample_options`."""
    return tuple(
        (
            key,
            " ".join(f"{name}={str(value).lower()}" for name, value in options.items()),
            game.min_players,
            game.max_players,
        )
        for key in games.keys()
        for game in [games.get(key)]
        for options in game.sample_options
    )


MIX = game_mix()

MODES = ("loopback", "inprocess")

TABLES_PER_GUILD = 100

EPHEMERAL = 64

TARGETS = {"decisions_per_second": ">= 500", "latency_p99_ms": "< 100", "memory_per_game_kb": "<= 100"}
# Discord's limits (the limits issue, 19) and uploads (the pictures issue, 18.6): whatever the database.
LIMIT_TARGETS = {
    "rest_per_turn": "<= 1.0",
    "cpu_ratio_to_floor": "<= 3.0",
    "reuploads": "0",
    "within_limits.rate_limited.global": "0",
    "within_limits.rate_limited.user": "0",
}

FAKE_RECORDS = (
    "messages",
    "ephemeral_messages",
    "calls",
    "responses",
    "interaction_sources",
    "acknowledged",
    "interaction_messages",
    "channels",
    "users",
)

PROMPT_P99_MS = 500.0  # a prompt's words within half a second for 99 players in 100 (issue 37's target)

STALL_SECONDS = 120.0  # no decision anywhere for this long: the run failed

ANSWER_WITHIN = 30.0  # a click with no answer after this long counts as unanswered

LOBBY_WITHIN = 120.0  # a lobby interaction with no answer after this long fails the run

FINISHED_POLL = 1.0  # seconds between two looks at which games have ended

# Refusals that changed nothing and ask to try again (the database was busy): a person clicks again.
TRY_AGAIN = ("TRY_AGAIN_SOON", "SOMETHING_WRONG")

RETRY_AFTER = 1.0  # seconds before trying again

LOBBY_ATTEMPTS = 5


THINK_DISTRIBUTIONS = ("uniform", "lognormal")

# A person's think time at a human pace: log-normal around its median, the shape response times take
# (a sum of many small multiplicative delays: reading, weighing, reaching for the button). sigma 0.8 puts
# the 5th-95th percentiles at 0.27x-3.7x the median (2.7-37 s around 10 s: a glance at an obvious move up
# to half a minute of thought, a minute at the 99th). A wider sigma would lengthen the mean think time
# (median x e^(sigma^2/2): 1.38x here, 1.65x at sigma 1) and so flatter the capacity; a narrower one would
# make people implausibly regular.
LOGNORMAL_SIGMA = 0.8


@dataclass(frozen=True)
class ThinkTime:
    """How long a player thinks before clicking: `uniform` from 0 to 2x `seconds` (the mean), or `lognormal`
    with `seconds` as its median (LOGNORMAL_SIGMA)."""

    seconds: float
    distribution: str = "uniform"

    def draw(self, rng: random.Random) -> float:
        if self.distribution == "lognormal":
            return rng.lognormvariate(math.log(self.seconds), LOGNORMAL_SIGMA) if self.seconds > 0 else 0.0
        return rng.uniform(0, 2 * self.seconds)

    def describe(self) -> str:
        """As the figures say it."""
        if self.distribution == "lognormal":
            return f"log-normal, median {self.seconds:g}, sigma {LOGNORMAL_SIGMA:g}"
        return f"uniform 0-{2 * self.seconds:g}"


@dataclass
class Table:
    """One game of the run and the people at it."""

    key: str
    variants: str
    humans: list[int]
    ais: int
    channel: int
    game_id: int = 0
    thread: int = 0
    finished: bool = False


@dataclass
class Pending:
    """An interaction handed to the bot, waiting for its answer."""

    kind: str  # "click", or the lobby step ("game new", "Join", "Add AI", "Start")
    arrival: float
    answer: asyncio.Future[str | None]  # None when accepted, else the refusal's reason
    first: float | None = None  # when the first callback (a deferral counts) came
    late: bool = False  # given up on (unanswered in time); its answer, if it comes, is counted apart


def plan(
    count: int, rng: random.Random, only: str | None = None, max_seats: int = 6, *, first: int = 0
) -> list[tuple[str, str, int, int]]:
    """(key, variants, humans, AI seats) for each game: the mix in turn (from its `first` entry, counting
    round it: games planned in several goes take their turns in it), seats and AIs at random."""
    mix = [m for m in MIX if only is None or m[0] == only]
    tables = []
    for index in range(first, first + count):
        key, variants, low, high = mix[index % len(mix)]
        seats = rng.randint(low, min(high, max_seats))
        ais = rng.randint(0, min(2, seats - 1))
        tables.append((key, variants, seats - ais, ais))
    return tables
