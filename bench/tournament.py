"""What pairing a Swiss round costs: CPU time to pair 1,024 entrants, after a few simulated rounds.

    python -m bench tournament [--entrants 1024] [--rounds 3] [--repeats 5] [--seed 1] [--no-save]

For two-player tables and for four-player tables (Eggs and Empires' range, 2-6), the entrants play
`--rounds` Swiss rounds with random results (so scores spread and rematches matter), then the next round
is paired `--repeats` times; the figure is the median of this process's CPU time (time.process_time: the
machine is shared, wall clock is noise) for the standings and the pairing together. Target: under 1 s each.

The Discord side of a tournament (the messages when 256 tables open at once) is not measured here yet:
`pair_swiss_round_figures` is one part of `main`, and a second part can sit beside it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence

from bench import results
from table.tournaments import (
    TWO_PLAYER,
    Pairing,
    PlayedRound,
    TableResult,
    TableSizes,
    pair_swiss,
    standings,
)

FOUR_PLAYER = TableSizes(2, 6, 4)  # Eggs and Empires' range, four at a table


def random_results(pairing: Pairing, rng: random.Random) -> tuple[TableResult, ...]:
    """A random finishing order at each table, a tie now and then (the second and third share)."""
    outcomes = []
    for table in pairing.tables:
        order = list(table)
        rng.shuffle(order)
        ranks = {e: place for place, e in enumerate(order, 1)}
        if len(order) > 2 and rng.random() < 0.1:
            ranks[order[2]] = 2
        outcomes.append(TableResult(ranks))
    return tuple(outcomes)


def simulate(entrants: Sequence[int], sizes: TableSizes, rounds: int, seed: int) -> list[PlayedRound]:
    """`rounds` Swiss rounds of random results, each paired from the standings before it."""
    rng = random.Random(seed)
    played: list[PlayedRound] = []
    for number in range(rounds):
        pairing = pair_swiss(standings(entrants, played), seed + number, sizes)
        played.append(PlayedRound(pairing, random_results(pairing, rng)))
    return played


def _cpu_seconds(entrants: Sequence[int], played: Sequence[PlayedRound], sizes: TableSizes, seed: int) -> float:
    began = time.process_time()
    pair_swiss(standings(entrants, played), seed, sizes)
    return time.process_time() - began


def pair_swiss_round_figures(entrants: int, rounds: int, repeats: int, seed: int) -> dict[str, float]:
    """The median CPU seconds to pair the next Swiss round of `entrants`, two and four to a table."""
    ids = [10**17 + 7919 * k for k in range(entrants)]  # Discord-sized ids, in seed order
    figures = {}
    for name, sizes in (("two_player", TWO_PLAYER), ("four_player", FOUR_PLAYER)):
        played = simulate(ids, sizes, rounds, seed)
        times = [_cpu_seconds(ids, played, sizes, seed + rounds) for _ in range(repeats)]
        figures[f"swiss_{name}_{entrants}_cpu_s"] = round(statistics.median(times), 4)
    return figures


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench tournament", description=__doc__)
    parser.add_argument("--entrants", type=int, default=1024)
    parser.add_argument("--rounds", type=int, default=3, help="random rounds played before the one paired")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-save", action="store_true", help="print only; leave bench/results alone")
    args = parser.parse_args(argv)
    figures = pair_swiss_round_figures(args.entrants, args.rounds, args.repeats, args.seed)
    print(f"Swiss pairing of {args.entrants} entrants after {args.rounds} random rounds (median of {args.repeats})")
    for name, value in figures.items():
        print(f"  {name}: {value:.3f} s CPU")
    if not args.no_save:
        results.save(
            "tournament",
            results.command("tournament", argv),
            figures,
            title="Tournament pairing",
            targets={name: "< 1 s" for name in figures},
            notes="standings and pairing of one Swiss round; CPU time (time.process_time), median of the repeats",
        )
    return 0
