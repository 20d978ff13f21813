"""What pairing a Swiss round costs: CPU time to pair 1,024 entrants, after a few simulated rounds.

    python -m bench tournament [--entrants 1024] [--rounds 3] [--repeats 5] [--seed 1] [--no-save]

For two-player tables and for four-player tables (Eggs and Empires' range, 2-6), the entrants play
`--rounds` Swiss rounds with random results (so scores spread and rematches matter), then the next round
is paired `--repeats` times; the figure is the median of this process's CPU time (time.process_time: the
machine is shared, wall clock is noise) for the standings and the pairing together. Target: under 1 s each.

    python -m bench tournament --open 512 [--no-save]

`--open N`: the Discord side when a round opens N/2 two-player tables at once. The real bot runs in its own
process against the loopback fake Discord with Discord's rate limits on (each channel's message bucket and
the global 50 requests per second); N entrants sign up with /tournament join, the host starts it, and the
figures are the wall time until every table's game is shown (its thread, its table message, both players'
DMs), the bot's requests, and the 429s it drew (target: 0; a bot that draws them is banned).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from bench import results
from bench._crash_run import count_errors
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


async def open_round(entrants: int, workdir: Path) -> dict[str, float | int]:
    """The figures of `--open` (see the module's docstring)."""
    from fakediscord.loopback import Loopback
    from fakediscord.rate_limits import DISCORD_GLOBAL, DISCORD_MESSAGES, RateLimits
    from harness.run_bot import BotProcess

    lb = await Loopback.start(limits=RateLimits(DISCORD_MESSAGES, DISCORD_GLOBAL), answer_timeout=600)
    channel = lb.fake.add_text_channel("tournaments")
    url = f"sqlite+aiosqlite:///{workdir / 'tournament.sqlite3'}"
    try:
        with open(workdir / "bot.log", "wb") as log:  # noqa: ASYNC230 - opened once, before anything runs
            bot = await BotProcess.spawn(lb, url, log=log, timer_interval="0")
            try:
                await lb.wait_ready(within=120)
                host = lb.user("host", admin=True)
                await lb.slash(host, "game settings", channel=channel, games_per_server=100_000)
                await lb.slash(host, "tournament new", channel=channel, game="eggs-empires", format="swiss", players=2)
                users = [lb.user(f"p{i}") for i in range(entrants)]
                for first in range(0, len(users), 32):  # sign-ups 32 at a time, as a busy server sends them
                    await asyncio.gather(
                        *(lb.slash(u, "tournament join", channel=channel) for u in users[first : first + 32])
                    )
                await lb.quiet()
                mark, began = len(lb.fake.calls), time.perf_counter()
                await lb.slash(host, "tournament start", channel=channel)

                def shown() -> bool:
                    games = [t for t in lb.threads() if lb.fake.channels[t]["name"].startswith("Eggs and Empires #")]
                    return (
                        len(games) >= entrants // 2
                        and all(lb.messages_in(t) for t in games)
                        and all(lb.dms(u) for u in users)
                    )

                await lb.wait_until(shown, 900)
                seconds = time.perf_counter() - began
                await lb.quiet(within=120)
            finally:
                await bot.stop()
        calls = lb.fake.calls[mark:]
        assert lb.limiter is not None
        return {
            "tables": entrants // 2,
            "seconds_to_every_table_shown": round(seconds, 1),
            "requests": sum(1 for c in calls if c.via == "http"),
            "requests_per_table": round(sum(1 for c in calls if c.via == "http") / max(1, entrants // 2), 2),
            "rate_limited_429": int(sum(lb.limiter.rejected.values())),
            "bot_errors": count_errors(workdir / "bot.log"),
        }
    finally:
        await lb.close()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench tournament", description=__doc__)
    parser.add_argument("--entrants", type=int, default=1024)
    parser.add_argument("--rounds", type=int, default=3, help="random rounds played before the one paired")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-save", action="store_true", help="print only; leave bench/results alone")
    parser.add_argument("--open", type=int, default=0, metavar="N", help="N entrants' first round opened on Discord")
    args = parser.parse_args(argv)
    if args.open:
        with tempfile.TemporaryDirectory(prefix="tournament-") as folder:
            opened = asyncio.run(open_round(args.open, Path(folder)))
        print(f"A round of {opened['tables']} tables opened at once, rate limits on:")
        for name, value in opened.items():
            print(f"  {name}: {value}")
        if not args.no_save:
            results.save(
                "tournament_open",
                results.command("tournament", argv),
                dict(opened),
                title="A tournament's round opening its tables at once (Discord's rate limits on)",
                targets={"rate_limited_429": "0", "bot_errors": "0"},
                notes="wall time from /tournament start until every table's thread, table message and both "
                "players' DMs are shown; the bot in its own process, the loopback fake Discord with each "
                "channel's message bucket and the global limit",
            )
        return 0 if opened["rate_limited_429"] == 0 and opened["bot_errors"] == 0 else 1
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
