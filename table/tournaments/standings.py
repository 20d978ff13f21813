"""What a tournament records and what it makes of it: rounds, table results, points by rank, standings.

Plain frozen dataclasses and pure functions; points are `Fraction`s, so that shared places (two players
tied for first at a table of four share 4 and 2: 3 each; three tied for first share 4, 2 and 1: 7/3 each)
add up exactly and compare exactly when standings are sorted.

The points rule, the same at every table size n: the player in place r (1 best) scores n - r, one point for
each player finished ahead of, and the table's winner one point more. Two players: 2 / 0; three: 3 / 1 / 0;
four: 4 / 2 / 1 / 0; five: 5 / 3 / 2 / 1 / 0; six: 6 / 4 / 3 / 2 / 1 / 0. Tied players share the mean of the
places they span (a two-player draw: 1 each). A bye is worth a table win at the round's usual table size.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

EntrantId = int  # a Discord user id


class PairingError(ValueError):
    """The inputs cannot make the round or the standings asked for (too few players, an unknown entrant...)."""


@dataclass(frozen=True)
class Pairing:
    """One round: the tables, each the entrants in seat order, and the byes (entrants who sit out and score a
    table win). `table_size` is the round's usual table size, which says what a bye is worth."""

    tables: tuple[tuple[EntrantId, ...], ...]
    byes: tuple[EntrantId, ...] = ()
    table_size: int = 2

    def __post_init__(self) -> None:
        seated = [e for table in self.tables for e in table] + list(self.byes)
        if len(set(seated)) != len(seated):
            twice = sorted(e for e, n in Counter(seated).items() if n > 1)
            raise PairingError(f"entrants placed twice in one round: {twice}")
        if any(len(table) < 2 for table in self.tables):
            raise PairingError("a table needs at least two players")
        if self.table_size < 2:
            raise PairingError(f"the round's table size must be at least 2, not {self.table_size}")

    def entrants(self) -> tuple[EntrantId, ...]:
        """Everyone in the round, seated or on a bye."""
        return tuple(e for table in self.tables for e in table) + self.byes


@dataclass(frozen=True)
class TableResult:
    """How a table ended: each player's rank (1 best; equal ranks are ties) and, when the game has one,
    each player's game score (the second tie-break, summed over the tournament)."""

    ranks: Mapping[EntrantId, int]
    scores: Mapping[EntrantId, float] | None = None
    # Players who did not show (the AI played their every move): a loss whatever their stand-in did. They
    # score no point and are no winner; they still met the others (Buchholz, no rematch while avoidable).
    forfeited: frozenset[EntrantId] = frozenset()

    def __post_init__(self) -> None:
        if any(rank < 1 for rank in self.ranks.values()):
            raise PairingError("ranks start at 1")
        if not self.forfeited <= set(self.ranks):
            raise PairingError("a forfeit for a player not at the table")


@dataclass(frozen=True)
class PlayedRound:
    """A round's pairing and its tables' results, in the pairing's table order (None: still being played,
    which counts neither points nor opponents yet)."""

    pairing: Pairing
    results: tuple[TableResult | None, ...] = ()


@dataclass(frozen=True)
class Standing:
    """One entrant's line in the standings. `opponents` lists every opponent met, once per table shared
    (a rematch appears twice); `first_seats` counts the tables where they sat first (seat orders use it);
    `seed` is their place in the entry list, the last tie-break."""

    entrant: EntrantId
    rank: int
    points: Fraction
    buchholz: Fraction
    score: float
    played: int
    wins: int
    byes: int
    opponents: tuple[EntrantId, ...]
    first_seats: int
    withdrawn: bool
    seed: int


def place_points(players: int, place: int) -> int:
    """Points for finishing alone in `place` (1 best) at a table of `players`: n - r, plus 1 for the win."""
    if not 1 <= place <= players:
        raise PairingError(f"place {place} does not exist at a table of {players}")
    return players - place + (1 if place == 1 else 0)


def table_total(players: int) -> int:
    """All the points a table of `players` hands out, ties or not: n(n-1)/2 + 1."""
    return players * (players - 1) // 2 + 1


def bye_points(table_size: int) -> Fraction:
    """A bye is worth a table win at the round's usual table size."""
    return Fraction(place_points(table_size, 1))


def table_points(ranks: Mapping[EntrantId, int], forfeited: Collection[EntrantId] = ()) -> dict[EntrantId, Fraction]:
    """Each player's points from a table's ranks. Ranks may be dense (1, 1, 2) or competition style
    (1, 1, 3): a group of tied players spans the places after everyone ranked better, and shares them.
    The `forfeited` (no-shows) score nothing; the players who came share the places from the first."""
    players = len(ranks)
    by_rank: dict[int, list[EntrantId]] = {}
    for entrant, rank in ranks.items():
        if entrant not in forfeited:
            by_rank.setdefault(rank, []).append(entrant)
    points: dict[EntrantId, Fraction] = {e: Fraction(0) for e in ranks if e in forfeited}
    ahead = 0
    for rank in sorted(by_rank):
        tied = by_rank[rank]
        spanned = [place_points(players, ahead + k + 1) for k in range(len(tied))]
        for entrant in tied:
            points[entrant] = Fraction(sum(spanned), len(tied))
        ahead += len(tied)
    return points


@dataclass
class _Tally:
    """An entrant's running totals while the rounds are read (mutable; becomes a Standing)."""

    points: Fraction = Fraction(0)
    score: float = 0.0
    played: int = 0
    wins: int = 0
    byes: int = 0
    first_seats: int = 0
    opponents: list[EntrantId] = field(default_factory=list)


def _check_round(number: int, played: PlayedRound, seeds: Mapping[EntrantId, int]) -> None:
    unknown = sorted(set(played.pairing.entrants()) - set(seeds))
    if unknown:
        raise PairingError(f"round {number} seats entrants who did not enter: {unknown}")
    if len(played.results) > len(played.pairing.tables):
        raise PairingError(f"round {number} has more results than tables")
    for table, result in zip(played.pairing.tables, played.results, strict=False):
        if result is not None and set(result.ranks) != set(table):
            raise PairingError(f"round {number}: a result ranks {sorted(result.ranks)}, the table seats {table}")


def _tally(entrants: Sequence[EntrantId], rounds: Sequence[PlayedRound]) -> dict[EntrantId, _Tally]:
    seeds = {e: i for i, e in enumerate(entrants)}
    if len(seeds) != len(entrants):
        raise PairingError("an entrant is listed twice")
    tallies = {e: _Tally() for e in entrants}
    for number, played in enumerate(rounds, 1):
        _check_round(number, played, seeds)
        for entrant in played.pairing.byes:
            tallies[entrant].points += bye_points(played.pairing.table_size)
            tallies[entrant].byes += 1
        for table in played.pairing.tables:
            tallies[table[0]].first_seats += 1  # counted as soon as the table is seated: seat orders balance it
        for table, result in zip(played.pairing.tables, played.results, strict=False):
            if result is None:
                continue
            came = [rank for e, rank in result.ranks.items() if e not in result.forfeited]
            best = min(came, default=0)
            for entrant, points in table_points(result.ranks, result.forfeited).items():
                tally = tallies[entrant]
                tally.points += points
                tally.played += 1
                tally.wins += result.ranks[entrant] == best and entrant not in result.forfeited
                tally.score += (result.scores or {}).get(entrant, 0)
                tally.opponents.extend(other for other in table if other != entrant)
    return tallies


def standings(
    entrants: Sequence[EntrantId], rounds: Sequence[PlayedRound], withdrawn: Collection[EntrantId] = ()
) -> tuple[Standing, ...]:
    """The standings after `rounds`, best first. `entrants` is the entry list in seed order.

    Order: points, then Buchholz (the sum of the points of every opponent met, once per table shared; a bye
    brings none), then the summed game score, then the seed. Entrants equal on the first three share a
    rank. Withdrawn entrants keep their line, marked, and the pairings leave them out.
    """
    tallies = _tally(entrants, rounds)
    gone = set(withdrawn)
    lines = []
    for seed, entrant in enumerate(entrants):
        tally = tallies[entrant]
        buchholz = sum((tallies[o].points for o in tally.opponents), Fraction(0))
        lines.append((tally, entrant, seed, buchholz))
    lines.sort(key=lambda line: (-line[0].points, -line[3], -line[0].score, line[2]))
    result: list[Standing] = []
    for position, (tally, entrant, seed, buchholz) in enumerate(lines):
        rank = position + 1
        if result and (result[-1].points, result[-1].buchholz, result[-1].score) == (
            tally.points,
            buchholz,
            tally.score,
        ):
            rank = result[-1].rank
        result.append(
            Standing(
                entrant=entrant,
                rank=rank,
                points=tally.points,
                buchholz=buchholz,
                score=tally.score,
                played=tally.played,
                wins=tally.wins,
                byes=tally.byes,
                opponents=tuple(tally.opponents),
                first_seats=tally.first_seats,
                withdrawn=entrant in gone,
                seed=seed,
            )
        )
    return tuple(result)
