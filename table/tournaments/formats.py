"""The formats with a fixed schedule: knockout brackets and round robins.

Knockout: entrants are seeded by rating (higher first, ties by the smaller id). Tables of `table_size`
send their best `advance` players on, so `table_size // advance` tables of one round feed one table of the
next and the last round is one table (a two-player bracket: 2 // 1, the usual halving). Round 1 has as
many groups as the bracket needs; the fewest groups that let the rest play legal tables are byes (each
`advance` top seeds, who go straight to round 2), so every later round fills whole tables. Seeds are dealt
over the groups in snake order and the groups laid out in the standard bracket order, so the top seeds
meet as late as they can (16 players: 1 v 16, 8 v 9, 4 v 13, 5 v 12, 2 v 15, 7 v 10, 3 v 14, 6 v 11).
From round 2 on, the players who went on from neighbouring groups meet, as the bracket says.

Round robin, two players: the circle method; every pair meets exactly once, and everyone sits first in
half their games (rounded). Round robin at larger tables: a perfect schedule (every pair once) exists only
for a few sizes and is hard to find, so this one is greedy, and what it promises is evenness, not
coverage: over `round_robin_length` rounds (the fewest in which everyone could meet everyone), no pair
shares a table more than ceil(m) + 1 times, m being the mean number of meetings of a pair (1 to 1.4 at
that length, so at most 3 and mostly 2); about nine pairs in ten meet at least once (docs/tournaments.md).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from table.tournaments.pairing import TableSizes, can_seat, pick_byes, seat_order, settle, split_tables
from table.tournaments.standings import EntrantId, Pairing, PairingError, TableResult

# --- knockout -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Bracket:
    """One round of a knockout. `groups` are in bracket order: a group of more than `advance` players plays a
    table (the final plays whatever it holds), a smaller one goes through on a bye. `seeds` is every entrant
    in seed order: it settles a tie across the line of those who go on (the better seed goes on)."""

    round: int
    rounds: int
    groups: tuple[tuple[EntrantId, ...], ...]
    table_size: int
    advance: int
    seeds: tuple[EntrantId, ...]

    @property
    def final(self) -> bool:
        return self.round == self.rounds

    def pairing(self) -> Pairing:
        """The round as a Pairing: the groups that play are the tables, in bracket order."""
        playing = [g for g in self.groups if self.final or len(g) > self.advance]
        byes = tuple(e for g in self.groups if not self.final and len(g) <= self.advance for e in g)
        return Pairing(tuple(playing), byes, self.table_size)


def default_advance(table_size: int) -> int:
    """How many of a knockout table go on by default: half the table, or the largest divisor of the table
    size below that (5 players: 1), so that whole tables feed the next round."""
    return max(d for d in range(1, table_size // 2 + 1) if table_size % d == 0)


def knockout_seeds(ratings: Mapping[EntrantId, float]) -> tuple[EntrantId, ...]:
    """Entrants in seed order: the highest rating first, ties by the smaller id."""
    return tuple(sorted(ratings, key=lambda e: (-ratings[e], e)))


def bracket_order(groups: int, branching: int) -> list[int]:
    """Round-1 group ranks (0: the top seed's group) in bracket order, for `groups` a power of `branching`:
    each step gives every rank `branching` children that snake over the next level, so the top ranks sit
    in different branches (two-player, 8 groups: 0 7 3 4 1 6 2 5, the usual 1 v 16, 8 v 9, ...)."""
    order = [0]
    width = 1
    while width < groups:
        order = [
            child * width + rank if child % 2 == 0 else (child + 1) * width - 1 - rank
            for rank in order
            for child in range(branching)
        ]
        width *= branching
    return order


def _bye_groups(players: int, groups: int, table_size: int, advance: int, least: int) -> int:
    """The fewest round-1 groups made of byes (`advance` top seeds each) that let the others play tables of
    `least` to `table_size` players."""
    for byes in range(groups + 1):
        tables, left = groups - byes, players - advance * byes
        if tables * least <= left <= tables * table_size:
            return byes
    raise PairingError(f"{players} players cannot fill a bracket of tables of {least} to {table_size}")


def _snake(seeds: Sequence[EntrantId], capacities: list[int]) -> list[list[EntrantId]]:
    """Deal seeds over groups forwards, then backwards, and so on, skipping full groups."""
    groups: list[list[EntrantId]] = [[] for _ in capacities]
    order = list(range(len(capacities)))
    dealt = 0
    while dealt < len(seeds):
        for g in order:
            if dealt < len(seeds) and len(groups[g]) < capacities[g]:
                groups[g].append(seeds[dealt])
                dealt += 1
        order.reverse()
    return groups


def knockout(
    ratings: Mapping[EntrantId, float], table_size: int = 2, advance: int | None = None, minimum: int = 2
) -> Bracket:
    """Round 1 of a knockout of the entrants of `ratings`, at tables of `table_size` (`minimum`: the game's
    least players) of which `advance` go on (default: `default_advance`)."""
    seeds = knockout_seeds(ratings)
    going = default_advance(table_size) if advance is None else advance
    if not 1 <= going < table_size or table_size % going:
        raise PairingError(f"{going} of a table of {table_size} cannot go on: it must divide the table, below it")
    if not 2 <= minimum <= table_size:
        raise PairingError(f"a game for {minimum} or more cannot be played at tables of {table_size}")
    if len(seeds) < max(2, minimum):
        raise PairingError(f"a knockout needs at least {max(2, minimum)} players, not {len(seeds)}")
    branching = table_size // going
    rounds, groups = 1, 1
    while groups * table_size < len(seeds):
        rounds, groups = rounds + 1, groups * branching
    if rounds == 1:
        return Bracket(1, 1, (seeds,), table_size, going, seeds)
    least = max(going + 1, minimum)
    byes = _bye_groups(len(seeds), groups, table_size, going, least)
    tables = groups - byes
    small, extra = divmod(len(seeds) - going * byes, tables)
    # The top seeds' tables are the smaller ones when the sizes differ: easier to go on from.
    # The byes snake too (with two going on: 1 and 2b, 2 and 2b - 1, ...): the top seeds stay apart.
    by_rank = _snake(seeds[: going * byes], [going] * byes)
    by_rank += _snake(seeds[going * byes :], [small] * (tables - extra) + [small + 1] * extra)
    order = bracket_order(groups, branching)
    return Bracket(1, rounds, tuple(tuple(by_rank[r]) for r in order), table_size, going, seeds)


def _goes_on(bracket: Bracket, group: Sequence[EntrantId], result: TableResult | None) -> list[EntrantId]:
    if len(group) <= bracket.advance and not bracket.final:
        return list(group)
    if result is None or set(result.ranks) != set(group):
        raise PairingError(f"no result for the table {tuple(group)}")
    place = {e: i for i, e in enumerate(bracket.seeds)}
    ranked = sorted(group, key=lambda e: (result.ranks[e], place[e]))
    return ranked[: bracket.advance]


def winners(bracket: Bracket, results: Sequence[TableResult]) -> tuple[EntrantId, ...]:
    """Who goes on from the round, in bracket order. `results` follow `bracket.pairing().tables`."""
    playing = iter(results)
    going: list[EntrantId] = []
    for group in bracket.groups:
        plays = bracket.final or len(group) > bracket.advance
        going += _goes_on(bracket, group, next(playing, None) if plays else None)
    return tuple(going)


def next_round(bracket: Bracket, results: Sequence[TableResult]) -> Bracket:
    """The next round: the players who went on from neighbouring groups, `table_size // advance` groups to a
    table, seated by seed."""
    if bracket.final:
        raise PairingError("the final has no next round")
    going = winners(bracket, results)
    place = {e: i for i, e in enumerate(bracket.seeds)}
    size = bracket.table_size
    groups = tuple(tuple(sorted(going[at : at + size], key=place.__getitem__)) for at in range(0, len(going), size))
    return Bracket(bracket.round + 1, bracket.rounds, groups, size, bracket.advance, bracket.seeds)


def champion(final: Bracket, result: TableResult) -> EntrantId:
    """The winner of the final table (a tie: the better seed)."""
    if not final.final:
        raise PairingError(f"round {final.round} of {final.rounds} is not the final")
    place = {e: i for i, e in enumerate(final.seeds)}
    return min(final.groups[0], key=lambda e: (result.ranks[e], place[e]))


# --- round robin --------------------------------------------------------------------------------------------


def round_robin(entrants: Sequence[EntrantId], seed: int) -> tuple[Pairing, ...]:
    """Every pair meets once, two-player tables: the circle method (one entrant stays, the others turn one
    place a round) over a seeded shuffle. n - 1 rounds for an even n; for an odd n, n rounds with one bye
    each (everyone has one). Seats alternate so that each sits first about half the time."""
    if len(entrants) < 2:
        raise PairingError(f"a round robin needs at least two players, not {len(entrants)}")
    circle: list[EntrantId | None] = list(entrants)
    random.Random(seed).shuffle(circle)
    if len(circle) % 2:
        circle.insert(0, None)  # the fixed place: whoever faces it has the bye
    size = len(circle)
    rounds = []
    for number in range(size - 1):
        tables: list[tuple[EntrantId, EntrantId]] = []
        byes: list[EntrantId] = []
        for i in range(size // 2):
            a, b = circle[i], circle[size - 1 - i]
            if a is None or b is None:
                byes.extend(e for e in (a, b) if e is not None)
            elif (i == 0 and number % 2) or (i > 0 and i % 2):
                tables.append((b, a))  # the fixed place alternates by round, the others by position
            else:
                tables.append((a, b))
        rounds.append(Pairing(tuple(tables), tuple(byes), 2))
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return tuple(rounds)


def _first_table(pool: list[EntrantId], size: int, cost: Callable[[EntrantId, EntrantId], int]) -> list[EntrantId]:
    """Take a table out of `pool` (in place): its first player, then each time the one who adds least."""
    table = [pool.pop(0)]
    while len(table) < size:
        at = min(range(len(pool)), key=lambda i: (sum(cost(pool[i], t) for t in table), i))
        table.append(pool.pop(at))
    return table


def round_robin_length(players: int, sizes: TableSizes) -> int:
    """The fewest rounds in which every player could meet every other: n - 1 opponents over the mean number
    of opponents a round gives (its tables' n_i (n_i - 1), summed, over n; a bye gives none)."""
    seated = players
    while seated >= sizes.minimum and not can_seat(seated, sizes):
        seated -= 1  # as pick_byes does: one more bye until the rest can sit
    if seated < sizes.minimum:
        raise PairingError(f"{players} players cannot make a table of {sizes.minimum} to {sizes.maximum}")
    opponents = sum(size * (size - 1) for size in split_tables(seated, sizes))
    return -(-(players - 1) * players // opponents)


def round_robin_tables(
    entrants: Sequence[EntrantId], sizes: TableSizes, seed: int, rounds: int | None = None
) -> tuple[Pairing, ...]:
    """`rounds` rounds at tables of `sizes` (default: `round_robin_length`) where the number of times any
    two entrants share a table is as even as this greedy makes it. Each round: byes only when the field
    cannot be split (the fewest byes first), tables built greedily over a seeded shuffle, then players
    swapped between any two tables while it lowers the sum, over the pairs at a table, of W ** (times met):
    one more meeting of the pair who met most outweighs all the rest. Promised (and tested) at the default
    length: no pair meets more than ceil(m) + 1 times, m being the mean meetings of a pair."""
    if len(set(entrants)) != len(entrants):
        raise PairingError("an entrant is listed twice")
    count = round_robin_length(len(entrants), sizes) if rounds is None else rounds
    rng = random.Random(seed)
    met: dict[EntrantId, Counter[EntrantId]] = {e: Counter() for e in entrants}
    byes: Counter[EntrantId] = Counter()
    first: Counter[EntrantId] = Counter()
    weight = len(entrants) * sizes.maximum  # more than the pairs of a round: one more meeting outweighs them all

    def cost(x: EntrantId, y: EntrantId) -> int:
        return int(weight ** met[x][y])

    schedule: list[Pairing] = []
    for _ in range(count):
        pool = list(entrants)
        out = pick_byes(pool, byes, sizes)
        rng.shuffle(pool)
        tables = [_first_table(pool, size, cost) for size in split_tables(len(pool), sizes)]
        settle(tables, cost)
        for table in tables:
            for x, y in combinations(table, 2):
                met[x][y] += 1
                met[y][x] += 1
        seated = tuple(seat_order(table, first, rng) for table in tables)
        first.update(table[0] for table in seated)
        byes.update(out)
        schedule.append(Pairing(seated, tuple(out), sizes.preferred))
    return tuple(schedule)
