"""The bot as several processes on one database, each with its own shards (`ShardedRun`: the crash proof's
players against them). `bench.shards` compares one process with two; `bench.crash --processes 2` is the
two-process crash proof."""

from __future__ import annotations

import asyncio
import os
import statistics
import time
from pathlib import Path
from typing import IO, Any

from bench import _crash_run
from bench._crash_run import CrashRun, choice_of
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
        return await spawn(self.lb, self.database_url, shards, self.log, timer_interval=_crash_run.TIMER_INTERVAL)

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
