"""`python -m bench faults`: whole games of every game played through many injected faults.

Discord (the bot in this process, talking real HTTP to the loopback fake Discord, so faults go through
discord.py's own rate limiting and retries): 429s per route and global, 500/502/503, requests that
time out, answers lost after Discord carried the request out, and a player closing their DMs mid-game.
Database (the in-process harness): SQLite failing every statement for a while (I/O error), an
outage starting right after a decision was committed, a write lock held by another connection;
PostgreSQL (with --postgres URL or TEST_POSTGRES_URL) closed to connections with its backends
terminated. Players keep clicking throughout.

Printed and saved (bench/results/faults.json): games finished, faults injected per kind, duplicated
and missing log posts, committed events not shown or shown twice, decisions answered as taken but
lost, replays that differ from the stored state, retries, clicks told to try again.

    python -m bench faults [--games N] [--seed S] [--postgres URL] [--no-save]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import random
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import games
from bench import results

TARGETS = {
    "duplicated posts": "0",
    "missing posts": "0",
    "decisions lost": "0",
    "events not shown": "0",
    "events shown twice": "0",
    "replays differing": "0",
    "closed-DM pings per closed player": "1",
}
DISCORD_KINDS = ("429", "429-global", "500", "502", "503", "timeout", "answer-lost")
DB_KINDS = ("io-error", "after-commit", "write-lock")
PG_KINDS = ("connections-refused", "after-commit")


class Totals:
    def __init__(self) -> None:
        self.games = 0
        self.finished = 0
        self.problems: list[str] = []
        self.figures: Counter[str] = Counter()
        self.faults: Counter[str] = Counter()

    def add_check(self, check: Any, stats: Any) -> None:
        self.games += 1
        self.finished += not any(p.startswith("game ") for p in check.problems)
        self.figures["duplicated posts"] += check.posts_duplicated
        self.figures["missing posts"] += check.posts_missing
        self.figures["events not shown"] += check.events_missing
        self.figures["events shown twice"] += check.events_duplicated
        self.figures["decisions lost"] += check.decisions_lost
        self.figures["replays differing"] += sum(1 for p in check.problems if p.startswith("replay"))
        self.figures["decisions answered"] += stats.accepted
        self.figures["clicks told to try again"] += stats.try_again
        self.figures["clicks unanswered (fault on the response)"] += stats.unanswered
        self.problems += check.problems


async def discord_part(totals: Totals, keys: list[str], per_key: int, rng: random.Random, work: Path) -> None:
    from fakediscord.loopback import Loopback
    from harness.fault_play import Recorder, bot_on_loopback, check_game, open_game, play

    lb = await Loopback.start()
    try:
        async with bot_on_loopback(lb, f"sqlite+aiosqlite:///{work}/discord.sqlite3") as t:
            recorder = Recorder()
            recorder.install(t.bot)
            pings_per_closed: list[int] = []
            for key in keys:
                for _ in range(per_key):
                    channel = lb.fake.add_text_channel(f"{key}-{totals.games}")
                    await _announce_channel(t, lb, channel)
                    alice, bob = lb.user("Alice"), lb.user("Bob")
                    game_id = await open_game(t, key, [alice, bob], 1, channel)
                    closed: set[int] = set()
                    close_at = rng.randint(3, 12)

                    async def faults(
                        step: int, bob: int = bob, closed: set[int] = closed, close_at: int = close_at
                    ) -> None:
                        _discord_fault(lb, rng.choice(DISCORD_KINDS), rng)
                        if step == close_at:
                            lb.fake.dm_closed.add(bob)
                            closed.add(bob)
                            totals.faults["discord DMs closed mid-game"] += 1

                    stats = await play(
                        t, game_id, [alice, bob], rng=rng, between=faults, closed_dms=closed, max_steps=20_000
                    )
                    lb.faults.clear()
                    check = await check_game(t, game_id, recorder, stats)
                    totals.add_check(check, stats)
                    row = await t.bot.table.db.get_game(game_id)
                    assert row is not None
                    thread = row.thread_id or row.channel_id
                    pings_per_closed.append(
                        sum(1 for m in lb.messages_in(thread) if f"<@{bob}>" in m["content"] and m.get("components"))
                    )
            for call in lb.fake.calls:
                kind = {429: "429", 500: "500", 502: "502", 503: "503", 504: "timeout", -1: "answer lost"}.get(
                    call.status
                )
                if kind is not None:
                    totals.faults[f"discord {kind}"] += 1
            totals.figures["notification retries (bot)"] += t.bot.table.notifier.retried  # type: ignore[attr-defined]
            totals.figures["closed-DM pings per closed player"] = (
                max(pings_per_closed, default=0) if all(p == pings_per_closed[0] for p in pings_per_closed) else -1
            )
    finally:
        await lb.close()


async def _announce_channel(t: Any, lb: Any, channel: int) -> None:
    """Tell the bot's cache about a channel added after READY (as a CHANNEL_CREATE would)."""
    t.bot._connection.parse_channel_create(lb.fake.channels[channel])


def _discord_fault(lb: Any, kind: str, rng: random.Random) -> None:
    match kind:
        case "429":
            lb.fail_next(rng.randint(1, 3), status=429, retry_after=rng.choice([0.05, 0.2]))
        case "429-global":
            lb.fail_next(1, status=429, retry_after=0.1, is_global=True)
        case "500" | "502" | "503":
            lb.fail_next(1, status=int(kind))
        case "timeout":
            lb.hang_next(1, seconds=rng.uniform(0.1, 0.5))
        case "answer-lost":
            lb.lose_answer_next(1, match="/messages")


async def database_part(
    totals: Totals, keys: list[str], per_key: int, rng: random.Random, work: Path, postgres: str | None
) -> None:
    await _database_backend(totals, keys, per_key, rng, work, None)
    if postgres:
        await _database_backend(totals, keys, per_key, rng, work, postgres)


async def _database_backend(
    totals: Totals, keys: list[str], per_key: int, rng: random.Random, work: Path, postgres: str | None
) -> None:
    from harness import Harness
    from harness.db_faults import PostgresOutage, SQLiteLock, SQLiteOutage
    from harness.fault_play import Recorder, Table, caught_up, check_game, open_game, play

    backend = "postgres" if postgres else "sqlite"
    with SQLiteOutage() as io_outage:
        database = work / f"{backend}.sqlite3"
        pg_url = await _fresh_pg(postgres) if postgres else None
        h = await (Harness.start(database, database_url=pg_url) if pg_url else Harness.start(database))
        pg = PostgresOutage(pg_url) if pg_url else None
        lock = SQLiteLock(str(database))
        try:
            assert h.bot is not None
            t = Table.of(h)
            recorder = Recorder()
            recorder.install(h.bot)
            db = h.bot.table.db
            commit = db.commit_actions
            armed: list[float] = []  # an outage of this length starts right after the next commit
            running: list[asyncio.Task[None]] = []

            async def down_for(seconds: float) -> None:
                if pg is not None:
                    await pg.for_seconds(seconds)
                else:
                    await io_outage.for_seconds(seconds)

            async def commit_then_fail(*args: Any, **kwargs: Any) -> int:
                version = await commit(*args, **kwargs)
                if armed:
                    running.append(asyncio.get_running_loop().create_task(down_for(armed.pop())))
                return version

            kinds = PG_KINDS if pg is not None else DB_KINDS

            async def outages(step: int) -> None:
                if step % 6 != 3 or any(not r.done() for r in running):
                    return
                kind = kinds[(step // 6) % len(kinds)]
                seconds = rng.uniform(0.5, 3.0)
                totals.faults[f"{backend} {kind}"] += 1
                if kind == "after-commit":
                    armed.append(seconds)
                elif kind == "write-lock":
                    running.append(await lock.taken_for(seconds))
                else:
                    running.append(asyncio.get_running_loop().create_task(down_for(seconds)))

            db.commit_actions = commit_then_fail  # type: ignore[method-assign]
            for key in keys:
                for _ in range(per_key):
                    channel = h.fake.add_text_channel(f"{key}-{totals.games}")
                    h.bot._connection.parse_channel_create(h.fake.channels[channel])
                    alice, bob = h.user("Alice"), h.user("Bob")
                    game_id = await open_game(t, key, [alice, bob], 1, channel)
                    stats = await play(t, game_id, [alice, bob], rng=rng, between=outages, max_steps=20_000)
                    armed.clear()
                    await asyncio.gather(*running)
                    running.clear()
                    await caught_up(t)
                    check = await check_game(t, game_id, recorder, stats)
                    totals.add_check(check, stats)
            totals.figures[f"{backend}: games that waited for the database and resumed by themselves"] += (
                h.bot.table.stalls
            )
            if pg is None:
                totals.figures["sqlite: statements refused during outages"] += io_outage.refused
            else:
                totals.figures["postgres: backends terminated"] += pg.terminated
            h._errors.records.clear()
        finally:
            await h.close()
            if pg_url:
                await _drop_pg(pg_url)


def _admin_dsn(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).set(drivername="postgresql", database="postgres").render_as_string(hide_password=False)


async def _fresh_pg(url: str) -> str:
    """A new empty database beside the one named in `url` (dropped afterwards)."""
    import asyncpg
    from sqlalchemy.engine import make_url

    name = f"bench_faults_{random.getrandbits(32):08x}"
    admin = await asyncpg.connect(_admin_dsn(url))
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    return make_url(url).set(database=name).render_as_string(hide_password=False)


async def _drop_pg(url: str) -> None:
    import asyncpg
    from sqlalchemy.engine import make_url

    admin = await asyncpg.connect(_admin_dsn(url))
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{make_url(url).database}" WITH (FORCE)')
    finally:
        await admin.close()


def _print(totals: Totals, seconds: float) -> dict[str, Any]:
    figures: dict[str, Any] = {"games finished": f"{totals.finished}/{totals.games}"}
    figures.update({f"faults: {k}": v for k, v in sorted(totals.faults.items())})
    figures["faults injected"] = sum(totals.faults.values())
    for name in (
        "duplicated posts",
        "missing posts",
        "events not shown",
        "events shown twice",
        "decisions lost",
        "replays differing",
        "closed-DM pings per closed player",
    ):
        figures[name] = totals.figures.get(name, 0)
    figures.update({k: v for k, v in sorted(totals.figures.items()) if k not in figures})
    figures["wall seconds"] = round(seconds, 1)
    width = max(len(k) for k in figures)
    for name, value in figures.items():
        target = TARGETS.get(name)
        print(f"  {name:<{width}}  {value}" + (f"   (target {target})" if target else ""))
    for problem in totals.problems:
        print("  PROBLEM:", problem)
    return figures


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench faults", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1, help="games per game and part (default 1)")
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument(
        "--postgres",
        default=os.environ.get("TEST_POSTGRES_URL"),
        help="a PostgreSQL server database to also fault (default: TEST_POSTGRES_URL)",
    )
    parser.add_argument("--only", choices=["discord", "database"], help="run one part only")
    parser.add_argument("--game", choices=list(games.keys()), help="play this game only")
    parser.add_argument("--no-save", action="store_true")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.ERROR)  # the faults' warnings (retries, refusals) are expected here
    keys = [args.game] if args.game else list(games.keys())
    totals = Totals()
    started = time.perf_counter()

    async def run(part: Callable[..., Awaitable[None]], *extra: Any) -> None:
        with tempfile.TemporaryDirectory(prefix="bench-faults-") as work:
            await part(totals, keys, args.games, random.Random(args.seed), Path(work), *extra)

    async def both() -> None:
        if args.only != "database":
            await run(discord_part)
        if args.only != "discord":
            await run(database_part, args.postgres)

    asyncio.run(both())
    figures = _print(totals, time.perf_counter() - started)
    if not args.no_save:
        shown = ["--games", str(args.games), "--seed", str(args.seed)]
        shown += [f"--{name}={value}" for name, value in (("only", args.only), ("game", args.game)) if value]
        if args.postgres:
            shown += ["--postgres", "URL"]
        results.save(
            "faults",
            results.command("faults", shown),
            figures,
            targets=TARGETS,
            title="Faults: Discord (429, 5xx, timeouts, lost answers, closed DMs), the database unavailable",
            notes="Whole games of every game with 2 scripted players and 1 AI; faults injected every round "
            "(Discord) or every few rounds for 0.5-3 s (database); players keep clicking.",
        )
    ok = not totals.problems and totals.finished == totals.games
    return 0 if ok else 1
