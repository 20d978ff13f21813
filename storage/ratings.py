"""Ratings: openskill Plackett-Luce, free-for-all, one rating per (scope, game, identity).

Pure functions only (no SQL): `storage.database` calls them inside the transaction that records a
game's results, and `python -m storage rerate` replays every finished game through the very same
functions, so recomputing gives exactly the same numbers. docs/ratings.md explains the choices.

- Scope: a server's guild id, or GLOBAL (0) for the rating across every server (and DMs).
- Identity: a Discord user id (> 0), or a reserved negative id per AI level (AI_IDENTITIES), so
  "AI (heuristic)" has a rating like any player.
- Ranks: 1 is best; equal ranks are ties (openskill treats them as shared places).
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

__all__ = [
    "AI_IDENTITIES",
    "GLOBAL",
    "MODEL",
    "Standing",
    "ai_level_of",
    "identity",
    "ordinal",
    "rank_by_scores",
    "rate_game",
    "scopes",
]

GLOBAL = 0
# Reserved negative ids: Discord ids are positive, so these never collide with a person.
AI_IDENTITIES: dict[str, int] = {"heuristic": -1, "random": -2, "expert": -3}
MODEL = PlackettLuce()  # the library defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300
Z = 3.0  # ordinal = mu - Z * sigma, the conservative rating the leaderboard sorts by


@dataclass(frozen=True, slots=True)
class Standing:
    """One identity's rating in one scope and game, and how many rated games and wins it has."""

    mu: float
    sigma: float
    games: int = 0
    wins: int = 0

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)


def ordinal(mu: float, sigma: float) -> float:
    return mu - Z * sigma


def fresh() -> Standing:
    return Standing(MODEL.mu, MODEL.sigma)


def identity(user_id: int | None, ai_level: str | None) -> int | None:
    """The rated identity of a seat: its human, else its AI level's reserved id (None: unratable)."""
    if user_id is not None:
        return user_id
    if ai_level is None:
        return None
    known = AI_IDENTITIES.get(ai_level)
    if known is not None:
        return known
    # A level added later still gets a stable id of its own, far from the reserved small ones.
    return -(1000 + zlib.crc32(ai_level.encode()) % 1_000_000_000)


def ai_level_of(identity_id: int) -> str | None:
    """The AI level behind a reserved id, or None for a person (or an unknown negative id)."""
    for level, reserved in AI_IDENTITIES.items():
        if reserved == identity_id:
            return level
    return None


def scopes(guild_id: int | None) -> list[int]:
    """Where a game counts: its server (if it was played in one) and the global scope."""
    return [guild_id, GLOBAL] if guild_id else [GLOBAL]


def rank_by_scores(scores: Sequence[float]) -> list[int]:
    """Competition ranks, highest score first, ties sharing a rank: [5, 9, 5] -> [2, 1, 2]."""
    return [1 + sum(1 for other in scores if other > mine) for mine in scores]


def rated_seats(seats: Iterable[tuple[int | None, str | None, int]]) -> list[tuple[int, int]]:
    """(identity, rank) of each ratable seat, given (user_id, ai_level, rank) per seat."""
    found = []
    for user_id, ai_level, rank in seats:
        who = identity(user_id, ai_level)
        if who is not None:
            found.append((who, rank))
    return found


def rate_game(priors: Mapping[int, Standing], seats: Sequence[tuple[int, int]]) -> dict[int, Standing]:
    """New standings of every identity in one game, given (identity, rank) per seat.

    Each seat is a team of one. An identity on several seats (two AIs of one level) plays every one
    of them with its prior rating and then takes the mean of their updates, counting one game (a
    win if any of its seats ranked first). Fewer than two distinct identities: nothing is rated ({}).
    """
    distinct = {who for who, _rank in seats}
    if len(distinct) < 2:
        return {}
    before = {who: priors.get(who) or fresh() for who in distinct}
    teams = [[MODEL.rating(mu=before[who].mu, sigma=before[who].sigma)] for who, _rank in seats]
    rated = MODEL.rate(teams, ranks=[float(rank) for _who, rank in seats])
    updates: dict[int, list[tuple[float, float]]] = {}
    best: dict[int, int] = {}
    for (who, rank), team in zip(seats, rated, strict=True):
        updates.setdefault(who, []).append((team[0].mu, team[0].sigma))
        best[who] = min(rank, best.get(who, rank))
    result = {}
    for who, values in updates.items():
        mu = values[0][0] if len(values) == 1 else sum(v[0] for v in values) / len(values)
        sigma = values[0][1] if len(values) == 1 else sum(v[1] for v in values) / len(values)
        prior = before[who]
        result[who] = Standing(mu, sigma, prior.games + 1, prior.wins + (1 if best[who] == 1 else 0))
    return result
