"""Swiss pairing from the standings: two-player tables by weighted matching, larger tables by fill and swap.

Two-player tables (`pair_swiss` with a preferred size of 2) are a maximum-weight perfect matching
(networkx's blossom, `max_weight_matching(maxcardinality=True)`) whose edge weights rank, in this order:
no repeated bye, no rematch, the bye to the lowest-ranked player, small score differences (squared, so one
long float costs more than two short ones), and the standings order (the top half of a score group meets
its bottom half, 1 v 5, 2 v 6...; a player floating down meets the top of the group below). The tiers are
packed into one integer weight with a radix larger than any sum of the tiers below, so a lower tier can
never outweigh a higher one.

networkx's blossom is O(n^3) in Python: about 2 s for 256 players on a complete graph, far more for 1,024.
So the field is cut, down the standings, into blocks of about BLOCK players (cut at a score-group
boundary when there is one near, so that groups are not split for nothing), each matched on its complete
graph. A block whose best matching still holds a rematch or a repeated bye is merged with its neighbour and
matched again, up to the whole field: a rematch is only ever accepted when the whole field cannot avoid
it. It rarely comes to that: while every player of a block of m has met fewer than m/2 of its other
players, its graph of unplayed pairs has a perfect matching (Dirac), so a block of 32 needs no merge for
the first 16 rounds (blocks hold 15 to 49 players: 7 rounds at least). The bye, for an odd field, is a
node of the last block.

Larger tables (3-6 players): the active players are split into tables as close as possible to the
preferred size within the game's range (`split_tables`), filled down the standings, then players are
swapped between tables at most REACH apart while a swap lowers the repeated opponents (then the spread of
points at the tables): players keep meeting those near them in the standings.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import networkx as nx

from table.tournaments.standings import EntrantId, Pairing, PairingError, Standing

BLOCK = 32  # players per matching block: a few ms of blossom each (1,024 players: 32 blocks, 0.1 s)
REACH = 2  # larger tables swap players with tables at most this many places away down the standings


@dataclass(frozen=True)
class TableSizes:
    """The table sizes a round may use: the game's range and the size the tournament prefers."""

    minimum: int
    maximum: int
    preferred: int

    def __post_init__(self) -> None:
        if not 2 <= self.minimum <= self.preferred <= self.maximum:
            raise PairingError(
                f"table sizes need 2 <= minimum <= preferred <= maximum, not {self.minimum}, "
                f"{self.preferred}, {self.maximum}"
            )

    @classmethod
    def for_game(cls, key: str, preferred: int) -> TableSizes:
        """The player range of game `key` (games.get), preferring `preferred` players at a table."""
        import games  # the one place this package meets the engines: their player range

        game = games.get(key)
        return cls(game.min_players, game.max_players, preferred)


TWO_PLAYER = TableSizes(2, 2, 2)


def swiss_rounds(players: int) -> int:
    """The default number of Swiss rounds: ceil(log2(players)), at least 1."""
    return max(1, (players - 1).bit_length())


def split_tables(players: int, sizes: TableSizes) -> tuple[int, ...]:
    """Table sizes for `players`, largest first: within the range, the sum of squared distances to the
    preferred size as small as it can be (so as even as it can be), the fewest tables on a tie."""
    best: tuple[int, int, tuple[int, ...]] | None = None
    for count in range(max(1, -(-players // sizes.maximum)), players // sizes.minimum + 1):
        small, extra = divmod(players, count)
        split = (small + 1,) * extra + (small,) * (count - extra)
        if split[-1] < sizes.minimum or split[0] > sizes.maximum:
            continue
        cost = sum((size - sizes.preferred) ** 2 for size in split)
        if best is None or (cost, count) < best[:2]:
            best = (cost, count, split)
    if best is None:
        raise PairingError(
            f"{players} players cannot sit at tables of {sizes.minimum} to {sizes.maximum}",
        )
    return best[2]


def can_seat(players: int, sizes: TableSizes) -> bool:
    """Whether `players` can sit at tables of `sizes` with nobody left out."""
    try:
        split_tables(players, sizes)
    except PairingError:
        return False
    return True


def seat_order(
    table: Sequence[EntrantId], first_seats: Mapping[EntrantId, int], rng: random.Random
) -> tuple[EntrantId, ...]:
    """A table's seat order: who sat first least often sits first; otherwise the seeded draw decides."""
    keyed = [(first_seats.get(e, 0), rng.random(), e) for e in table]
    return tuple(entrant for _, _, entrant in sorted(keyed))


def pair_swiss(standings: Sequence[Standing], seed: int, sizes: TableSizes = TWO_PLAYER) -> Pairing:
    """The next Swiss round for the active (not withdrawn) entrants of `standings` (in standings order).

    A preferred size of 2 pairs two-player tables by weighted matching, with a bye (a win) for an odd field;
    larger preferred sizes split into tables (`split_tables`), byes only when the field cannot be split.
    """
    active = [s for s in standings if not s.withdrawn]
    rng = random.Random(seed)
    if sizes.preferred == 2:
        return _pair_two_player(active, rng)
    return _pair_tables(active, sizes, rng)


# --- two-player tables --------------------------------------------------------------------------------------


def _denominator(points: Sequence[Fraction]) -> int:
    """The least common denominator of the points: scales score differences to integers."""
    return math.lcm(*(p.denominator for p in points)) if points else 1


def _blocks(points: Sequence[Fraction], size: int) -> list[tuple[int, int]]:
    """Consecutive even ranges of the standings (the last one holds what is left, odd with an odd field),
    each cut at the score-group boundary nearest to `size` players when one lies within half a block."""
    boundaries = [i for i in range(1, len(points)) if points[i] != points[i - 1]]
    blocks: list[tuple[int, int]] = []
    start = 0
    while len(points) - start > size + size // 2:
        last = min(start + size + size // 2, len(points) - size // 2)  # leave the last block half a block at least
        near = [b for b in boundaries if start + size // 2 < b <= last]
        cut = min(near, key=lambda b: (abs(b - start - size), b)) if near else start + size
        cut += (cut - start) % 2  # the odd one out of a score group floats down to the next group
        blocks.append((start, cut))
        start = cut
    if start < len(points):
        blocks.append((start, len(points)))
    return blocks


def _fold_costs(points: Sequence[Fraction]) -> Callable[[int, int], int]:
    """The standings-order tier for players i < j of a block: in one score group, how far j is from i's
    partner in the top-half-against-bottom-half fold; across groups, how far i is from the bottom of its
    group plus how far j is from the top of its own."""
    group_start: list[int] = []
    group_size: list[int] = []
    start = 0
    for i in range(len(points) + 1):
        if i == len(points) or points[i] != points[start]:
            group_start.extend([start] * (i - start))
            group_size.extend([i - start] * (i - start))
            start = i

    def cost(i: int, j: int) -> int:
        if group_start[i] == group_start[j]:
            return abs(j - i - group_size[i] // 2)
        return (group_start[i] + group_size[i] - 1 - i) + (j - group_start[j])

    return cost


def _pack(costs: dict[tuple[int, int], tuple[int, ...]], pairs: int) -> dict[tuple[int, int], int]:
    """Edge weights from tiered costs: a mixed radix where each tier's unit outweighs every possible sum of
    the tiers below over a matching of `pairs` edges, so the heaviest matching is the lexicographically
    cheapest. Weights are positive (the top cost plus one, minus the edge's cost)."""
    tiers = len(next(iter(costs.values())))
    units = [1] * tiers
    for t in range(tiers - 2, -1, -1):
        most = max(c[t + 1] for c in costs.values()) * pairs
        units[t] = units[t + 1] * (most + 1)
    packed = {edge: sum(c * u for c, u in zip(cost, units, strict=True)) for edge, cost in costs.items()}
    top = max(packed.values()) + 1
    return {edge: top - value for edge, value in packed.items()}


def _match_block(block: Sequence[Standing], with_bye: bool) -> tuple[list[tuple[int, int]], bool]:
    """The best matching of one block (local indices; the bye is index len(block)), and whether it has to
    repeat a bye or a pairing."""
    count = len(block)
    points = [s.points for s in block]
    scale = _denominator(points)
    fold = _fold_costs(points)
    met = [Counter(s.opponents) for s in block]
    costs: dict[tuple[int, int], tuple[int, ...]] = {}
    for i in range(count):
        for j in range(i + 1, count):
            spread = int((points[i] - points[j]) * scale) ** 2
            costs[i, j] = (0, met[i][block[j].entrant], 0, spread, fold(i, j))
        if with_bye:
            costs[i, count] = (block[i].byes, 0, count - 1 - i, 0, 0)
    weights = _pack(costs, (count + with_bye) // 2)
    graph = nx.Graph()
    graph.add_weighted_edges_from((i, j, w) for (i, j), w in weights.items())
    matching = sorted(tuple(sorted(edge)) for edge in nx.max_weight_matching(graph, maxcardinality=True))
    if 2 * len(matching) != count + with_bye:
        raise PairingError("no perfect matching: this cannot happen on a complete graph")  # a guard, not a path
    repeats = any(costs[i, j][0] or costs[i, j][1] for i, j in matching)
    return [(i, j) for i, j in matching], repeats


def _pair_two_player(active: Sequence[Standing], rng: random.Random) -> Pairing:
    if len(active) < 2:
        raise PairingError(f"a round needs at least two active players, not {len(active)}")
    odd = len(active) % 2 == 1
    blocks = _blocks([s.points for s in active], BLOCK)
    solved: dict[tuple[int, int], tuple[list[tuple[int, int]], bool]] = {}
    while True:
        for start, end in blocks:
            if (start, end) not in solved:
                solved[start, end] = _match_block(active[start:end], odd and end == len(active))
        bad = [k for k, block in enumerate(blocks) if solved[block][1]]
        if not bad or len(blocks) == 1:
            break
        k = min(bad[0], len(blocks) - 2)  # merge with the next block (the last one with the one before)
        blocks[k : k + 2] = [(blocks[k][0], blocks[k + 1][1])]
    tables: list[tuple[int, int]] = []
    byes: list[EntrantId] = []
    for start, end in blocks:
        for i, j in solved[start, end][0]:
            if start + j == len(active):
                byes.append(active[start + i].entrant)
            else:
                tables.append((start + i, start + j))
    tables.sort()
    first = {s.entrant: s.first_seats for s in active}
    seated = tuple(seat_order((active[i].entrant, active[j].entrant), first, rng) for i, j in tables)
    return Pairing(seated, tuple(byes), 2)


# --- larger tables ------------------------------------------------------------------------------------------


def settle(
    tables: list[list[EntrantId]],
    pair_cost: Callable[[EntrantId, EntrantId], int],
    reach: int | None = None,
    worth_trying: Callable[[Sequence[EntrantId]], bool] | None = None,
) -> None:
    """Swap players between tables (in place) while a swap lowers the sum of `pair_cost` over the pairs
    sharing a table: first improvement, tables in order, so the outcome depends only on the inputs. Only
    tables at most `reach` apart are tried (None: all), and only pairs of tables of which one is
    `worth_trying` (None: all). Ends: every swap taken lowers a sum of integers bounded below."""
    improved = True
    while improved:
        improved = False
        for a, first in enumerate(tables):
            last = len(tables) if reach is None else min(len(tables), a + reach + 1)
            for b in range(a + 1, last):
                second = tables[b]
                if worth_trying is not None and not (worth_trying(first) or worth_trying(second)):
                    continue
                improved |= _swap_once(first, second, pair_cost)


def _swap_once(
    first: list[EntrantId], second: list[EntrantId], pair_cost: Callable[[EntrantId, EntrantId], int]
) -> bool:
    """Make every improving swap between two tables, one at a time; whether any was made."""
    swapped = False
    for x_at in range(len(first)):
        for y_at in range(len(second)):
            x, y = first[x_at], second[y_at]
            before = sum(pair_cost(x, o) for o in first if o != x) + sum(pair_cost(y, o) for o in second if o != y)
            after = sum(pair_cost(y, o) for o in first if o != x) + sum(pair_cost(x, o) for o in second if o != y)
            if after < before:
                first[x_at], second[y_at] = y, x
                swapped = True
    return swapped


def pick_byes(pool: list[EntrantId], byes: Mapping[EntrantId, int], sizes: TableSizes) -> list[EntrantId]:
    """Take byes out of `pool` (in place; it is in standings order) until the rest can be seated: each time
    the lowest-placed of those with the fewest `byes` so far. Returns them in the order taken; raises when
    too few are left for even one table."""
    out = []
    while not can_seat(len(pool), sizes):
        if len(pool) < sizes.minimum:
            raise PairingError(f"{len(pool)} players cannot make a table of {sizes.minimum} to {sizes.maximum}")
        at = min(range(len(pool)), key=lambda i: (byes.get(pool[i], 0), -i))
        out.append(pool.pop(at))
    return out


def _pair_tables(active: Sequence[Standing], sizes: TableSizes, rng: random.Random) -> Pairing:
    by_id = {s.entrant: s for s in active}
    pool = [s.entrant for s in active]
    byes = pick_byes(pool, {s.entrant: s.byes for s in active}, sizes)
    tables: list[list[EntrantId]] = []
    start = 0
    for size in split_tables(len(pool), sizes):
        tables.append(pool[start : start + size])
        start += size
    met = {e: Counter(by_id[e].opponents) for e in pool}
    scale = _denominator([by_id[e].points for e in pool])
    widest = int((by_id[pool[0]].points - by_id[pool[-1]].points) * scale) ** 2
    # A repeat must outweigh any change of spread one swap can make: 2 tables x (size - 1) pairs, twice.
    unit = 4 * sizes.maximum * widest + 1

    def pair_cost(x: EntrantId, y: EntrantId) -> int:
        return met[x][y] * unit + int((by_id[x].points - by_id[y].points) * scale) ** 2

    def has_repeat(table: Sequence[EntrantId]) -> bool:
        return any(met[x][y] for x in table for y in table)

    settle(tables, pair_cost, REACH, has_repeat)
    first = {e: by_id[e].first_seats for e in pool}
    seated = tuple(seat_order(table, first, rng) for table in tables)
    return Pairing(seated, tuple(byes), sizes.preferred)
