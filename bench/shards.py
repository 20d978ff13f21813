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
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import IO, Any

from bench import crash as crash_bench
from bench.crash import CrashRun, choice_of
from fakediscord.loopback import Loopback
from harness.run_bot import BotProcess
from storage import Database, shard_of

SHARD_COUNT = 4
TWO = ("0-1", "2-3")  # process 0 runs shards 0 and 1 (and so every DM), process 1 runs 2 and 3
ONE = ("0-3",)


def shard_ids(text: str) -> list[int]:
    low, _, high = text.partition("-")
    return list(range(int(low), int(high or low) + 1))


def guilds_on_every_shard(lb: Loopback) -> list[int]:
    """One guild on each shard, in shard order."""
    while len(lb.fake.guilds) < SHARD_COUNT:
        lb.fake.add_guild(f"guild {len(lb.fake.guilds)}")
    by_shard = {shard_of(g, SHARD_COUNT): g for g in lb.fake.guilds}
    assert sorted(by_shard) == list(range(SHARD_COUNT)), by_shard
    return [by_shard[s] for s in range(SHARD_COUNT)]


async def spawn(lb: Loopback, url: str, shards: str, log: IO[bytes], **settings: str) -> BotProcess:
    """One bot process running `shards` of SHARD_COUNT, once all its shards are connected."""
    mark = lb.identified
    process = await BotProcess.spawn(lb, url, log=log, shard_ids=shards, shard_count=str(SHARD_COUNT), **settings)
    await lb.wait_ready(shard_ids(shards), since=mark, within=180)
    return process


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a live process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class ShardedRun(CrashRun):
    """bench.crash's scripted players with the bot split over processes (`split`: a shard range each),
    tables in guilds of every process. Kills (if any) alternate between the processes, the last one
    first; every choice click sent is kept, so that `doubled()` can check that none was applied twice."""

    def __init__(self, loopback: Loopback, database_url: str, *, split: tuple[str, ...] = TWO, **kwargs: Any) -> None:
        super().__init__(loopback, database_url, **kwargs)
        guilds = guilds_on_every_shard(loopback)
        owner = {g: next(i for i, r in enumerate(split) if shard in shard_ids(r)) for shard, g in enumerate(guilds)}
        # Alternate between the processes' guilds, so that any `len(split)` tables span them all.
        by_process = [[g for g in guilds if owner[g] == which] for which in range(len(split))]
        order = [g for group in zip(*by_process, strict=False) for g in group]
        count = len(self.channels)
        self.channels = [loopback.fake.add_text_channel(f"table-{i}", order[i % len(order)]) for i in range(count)]
        self.split = split
        self.processes: list[BotProcess] = []
        self.victim = len(split) - 1
        self.clicks: list[tuple[int, int, int, list[str]]] = []  # every choice sent: game, seat, offered, action
        self.latencies: list[float] = []

    async def boot(self) -> None:
        started = time.perf_counter()
        if not self.processes:
            self.processes = [await self.spawn(r) for r in self.split]
        else:  # the victim was killed: bring it back, and kill another one next time
            self.processes[self.victim] = await self.spawn(self.split[self.victim])
            self.victim = (self.victim - 1) % len(self.split)
        self.restart_times.append(time.perf_counter() - started)
        self.bot = self.processes[self.victim]
        self.generation += 1
        self.up.set()

    async def spawn(self, shards: str) -> BotProcess:
        return await spawn(self.lb, self.database_url, shards, self.log, timer_interval=crash_bench.TIMER_INTERVAL)

    async def stop(self) -> list[int]:
        return [await process.stop() for process in self.processes]

    async def interact(self, payload: dict[str, Any], token: str) -> list[dict[str, Any]] | None:
        data = payload.get("data") or {}
        sent = choice_of({"custom_id": data.get("custom_id", "")}, data.get("values"))
        if sent is not None:
            self.clicks.append(sent)
        started = time.perf_counter()
        answer = await super().interact(payload, token)
        if answer is not None:
            self.latencies.append(time.perf_counter() - started)
        return answer

    async def doubled(self) -> list[str]:
        """Human decisions in the log that no distinct click accounts for (a click applied twice).

        A click offered at version v can only become its seat's first action after v; each logged
        human action must be matched by its own click, made after that seat's previous action."""
        assert self.db is not None
        unused = list(self.clicks)
        problems = []
        for game_id in self.game_ids:
            seats = {s.seat: s for s in await self.db.seats(game_id)}
            previous: dict[int, int] = {}
            for action in await self.db.actions(game_id):
                since = previous.get(action.seat, 0)
                previous[action.seat] = action.seq
                if seats[action.seat].user_id is None:
                    continue  # an AI seat
                match = next(
                    (
                        c
                        for c in unused
                        if c[0] == game_id
                        and c[1] == action.seat
                        and since <= c[2] < action.seq
                        and c[3] == list(action.action)
                    ),
                    None,
                )
                if match is None:
                    problems.append(f"game {game_id} seq {action.seq}: {action.action} by seat {action.seat}")
                else:
                    unused.remove(match)
        return problems

    async def logged(self, games: list[int]) -> int:
        """Actions in these games' logs."""
        assert self.db is not None
        return sum([len(await self.db.actions(g)) for g in games])

    async def load(self) -> dict[str, Any]:
        """Open every table's game, then play them all at once; the figures of the play phase."""
        self._pending = {}
        self.players = {}
        self._channels = {}
        await self.boot()
        self.db = await Database.open(self.database_url)
        try:
            humans = {c: [self.lb.user(f"p{i}")] for i, c in enumerate(self.channels)}
            games = await asyncio.gather(*(self.open_game(c, "eggs-empires", humans[c], 1) for c in self.channels))
            for channel, game_id in zip(self.channels, games, strict=True):
                self._channels[game_id] = channel
                self.game_ids.append(game_id)
            before = await self.logged(games)
            self.latencies.clear()
            cpu = [cpu_seconds(p.pid) for p in self.processes]
            started = time.perf_counter()
            await asyncio.gather(*(self.play(g, humans[self._channels[g]]) for g in games))
            wall = time.perf_counter() - started
            used = sum(cpu_seconds(p.pid) - c for p, c in zip(self.processes, cpu, strict=True))
            decisions = await self.logged(games) - before
            rows = [await self.db.get_game(g) for g in games]
            finished = sum(1 for row in rows if row is not None and row.status == "finished")
            doubled = await self.doubled()
        finally:
            await self.db.close()
        latencies = sorted(self.latencies)
        return {
            "processes": len(self.split),
            "games": len(games),
            "finished": finished,
            "decisions": decisions,
            "wall_s": round(wall, 2),
            "decisions_per_s": round(decisions / wall, 1),
            "latency_p50_ms": round(1000 * statistics.median(latencies), 1),
            "latency_p99_ms": round(1000 * latencies[int(0.99 * (len(latencies) - 1))], 1),
            "bot_cpu_s_per_1000_decisions": round(1000 * used / max(decisions, 1), 2),
            "doubled": len(doubled),
            "problems": len(self.figures.problems),
        }


async def compare(database_url: str, games: int, seed: int, workdir: Path) -> list[dict[str, Any]]:
    results = []
    crash_bench.ONLY = ("eggs-empires", 2, 2)  # the players' game choice (bench.crash reads it)
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
