"""Several bot processes on one PostgreSQL: load with one process against two, over real HTTP.

    python -m bench shards --database-url postgresql+asyncpg://... [--games 16] [--seed 1]

The loopback fake Discord (fakediscord/loopback.py) serves four guilds, one on each of four shards.
The real bot runs as subprocesses (harness/run_bot.py): first one process with shards 0-3,
then two with 0-1 and 2-3, on the same PostgreSQL database. In each setup `--games` two-player
Eggs and Empires games (one human and one AI seat, spread over the four guilds) are opened, then all
played at once to the end by scripted players who click their DM buttons as soon as they come
(bench.crash's players; the DMs all come through shard 0's process). Figures per setup: decisions
committed per second of wall time, the click latency (interaction sent -> answered, p50 / p99), and
the bot processes' CPU seconds per 1,000 decisions (from /proc; the fake Discord and the players run
in this process and are not counted).

On a 2-core machine shared with the players and the fake, two processes cannot double the
throughput; what the figures show is what splitting costs (CPU per decision) and that both setups
keep the latency. `ShardedRun` is also the two-process crash proof of tests/test_shards.py.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench import _crash_run
from bench._sharding import ONE, TWO, ShardedRun
from fakediscord.loopback import Loopback


async def compare(database_url: str, games: int, seed: int, workdir: Path) -> list[dict[str, Any]]:
    results = []
    _crash_run.ONLY = ("eggs-empires", 2, 2)  # the players' game choice (bench._crash_run reads it)
    for split in (ONE, TWO):
        loopback = await Loopback.start()
        try:
            with open(workdir / f"bots-{len(split)}.log", "wb") as log:  # noqa: ASYNC230 - opened once
                run = ShardedRun(loopback, database_url, split=split, kills=0, tables=games, seed=seed, log=log)
                try:
                    results.append(await run.load())
                finally:
                    await run.stop()
        finally:
            await loopback.close()
    return results


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench shards", description=__doc__.split("\n")[0])
    parser.add_argument(
        "--database-url",
        default=os.environ.get("TEST_POSTGRES_URL"),
        help="PostgreSQL (default: TEST_POSTGRES_URL); games are added to it",
    )
    parser.add_argument("--games", type=int, default=16, help="games played at once in each setup")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if not args.database_url or not args.database_url.startswith("postgres"):
        print(
            "bench shards needs PostgreSQL: --database-url postgresql+asyncpg://... (or TEST_POSTGRES_URL)",
            file=sys.stderr,
        )
        return 2
    with tempfile.TemporaryDirectory(prefix="shards-") as tmp:
        results = asyncio.run(compare(args.database_url, args.games, args.seed, Path(tmp)))
    for figures in results:
        print(
            f"{figures['processes']} process(es): {figures['decisions']} decisions in {figures['wall_s']} s = "
            f"{figures['decisions_per_s']}/s; click latency p50 {figures['latency_p50_ms']} ms, p99 "
            f"{figures['latency_p99_ms']} ms; bot CPU {figures['bot_cpu_s_per_1000_decisions']} s per 1,000 "
            f"decisions; {figures['finished']}/{figures['games']} finished, {figures['doubled']} doubled"
        )
    one, two = results
    ratio = round(two["decisions_per_s"] / one["decisions_per_s"], 2)
    print(f"two processes / one: {ratio}x decisions per second")
    from bench import results as saved

    saved.save(
        "shards",
        saved.command("shards", argv),
        {"one_process": one, "two_processes": two, "throughput_ratio": ratio},
        title="One bot process against two on PostgreSQL (loopback Discord, 4 shards)",
        notes="2-player Eggs and Empires, 1 human + 1 AI per game, players click at once; "
        "the players and the fake Discord share the machine with the bots.",
    )
    ok = all(f["finished"] == f["games"] and f["doubled"] == 0 and f["problems"] == 0 for f in results)
    return 0 if ok else 1
