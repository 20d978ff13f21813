"""Storage benchmark: acknowledged actions/s and submit->ack latency, plus bytes per finished game.

    python -m bench storage [--url postgresql+asyncpg://...] [--actions N] [--games N] [--json]

Runs on a fresh SQLite file, and on PostgreSQL when --url is given or TEST_POSTGRES_URL is set (a new
database is created beside the one named, and dropped afterwards). Each action carries a ~1.5 KB
state, the size of a real Eggs and Empires state. "1 game": one caller commits actions one after the
other. "N games": N callers, one per game, each committing its next action as soon as the previous
one is acknowledged, so the group-commit writer sees up to N actions at a time.
Targets (SQLite): 100 games >= 5,000 actions/s with p99 < 50 ms; 1 game p99 < 10 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import make_url

import games
from games.ai import RandomPlayer
from storage import Database


def sample_state(turn: int) -> dict[str, Any]:
    rng = random.Random(turn)
    return {
        "turn": turn,
        "rng": [12345, turn],
        "players": [
            {"hand": [rng.randrange(60) for _ in range(8)], "eggs": rng.randrange(40), "board": list(range(30))}
            for _ in range(4)
        ],
        "deck": [rng.randrange(60) for _ in range(120)],
        "log": ["played card"] * 10,
    }


async def new_active_game(db: Database, channel: int, players: int = 4) -> int:
    row = await db.create_game(
        guild_id=1, channel_id=channel, game_key="bench", options={}, host_id=1, seed=channel, turn_seconds=None
    )
    assert row.id is not None
    await db.set_seats(row.id, [{"seat": s, "user_id": s + 1, "name": f"p{s}"} for s in range(players)])
    await db.start_game(row.id, sample_state(0), None)
    return row.id


async def run_load(db: Database, games_count: int, actions_per_game: int) -> dict[str, float]:
    ids = [await new_active_game(db, 10_000 + i) for i in range(games_count)]
    states = [sample_state(t) for t in range(16)]
    latencies: list[float] = []

    async def play(game_id: int) -> None:
        version = 1
        for turn in range(actions_per_game):
            started = time.perf_counter()
            version = await db.commit_action(game_id, version, turn % 4, ["card-7"], states[turn % 16])
            latencies.append(time.perf_counter() - started)

    batches = db.writer.batches
    started = time.perf_counter()
    await asyncio.gather(*(play(g) for g in ids))
    elapsed = time.perf_counter() - started
    quantiles = statistics.quantiles(latencies, n=100)
    return {
        "actions": len(latencies),
        "actions_per_s": len(latencies) / elapsed,
        "p50_ms": quantiles[49] * 1000,
        "p99_ms": quantiles[98] * 1000,
        "max_ms": max(latencies) * 1000,
        "mean_batch": len(latencies) / max(1, db.writer.batches - batches),
    }


async def bytes_per_game(db: Database, size: Any, key: str, count: int) -> float:
    game = games.get(key)
    before = await size()
    for n in range(count):
        row = await db.create_game(
            guild_id=1, channel_id=50_000 + n, game_key=key, options={}, host_id=1, seed=n, turn_seconds=60
        )
        assert row.id is not None
        await db.set_seats(row.id, [{"seat": s, "user_id": s + 1, "name": f"player {s}"} for s in range(4)])
        state: Any = game.new(4, n, {})
        version = await db.start_game(row.id, game.to_json(state), None)
        ais = [RandomPlayer(n * 4 + s) for s in range(4)]
        while prompts := game.prompts(state):
            for prompt in prompts:
                choice = ais[prompt.seat].choose(game, state, prompt)
                game.apply(state, prompt.seat, choice)
                version = await db.commit_action(row.id, version, prompt.seat, choice, game.to_json(state))
        results = [{"seat": s, "user_id": s + 1, "rank": s + 1, "score": 0, "breakdown": {}} for s in range(4)]
        await db.finish_game(row.id, "finished", results)
    return (await size() - before) / count


async def measure(url: str, label: str, actions: int, games_count: int, game_count_for_size: int) -> dict[str, Any]:
    db = await Database.open(url)
    try:
        one = await run_load(db, 1, actions)
        many = await run_load(db, games_count, max(1, actions * 5 // games_count))

        async def size() -> int:
            async with db.engine.connect() as conn:
                if db.engine.dialect.name == "sqlite":
                    await conn.execute(text("PRAGMA wal_checkpoint(TRUNCATE)"))
                    path = make_url(url).database
                    assert path
                    return await asyncio.to_thread(os.path.getsize, path)
                total = 0
                for table in ("games", "seats", "actions", "results"):
                    query = text("SELECT pg_total_relation_size(CAST(:t AS regclass))")
                    total += int((await conn.execute(query, {"t": table})).scalar_one())
                return total

        keys = [k for k in games.keys() if games.get(k).min_players <= 4 <= games.get(k).max_players]
        per_game = {k: await bytes_per_game(db, size, k, game_count_for_size) for k in keys}
    finally:
        await db.close()
    return {"database": label, "one_game": one, "many_games": many, "games": games_count, "bytes_per_game": per_game}


async def pg_database(base: str) -> tuple[str, str]:
    import asyncpg

    name = f"storage_bench_{uuid.uuid4().hex[:12]}"
    admin_dsn = make_url(base).set(drivername="postgresql").render_as_string(hide_password=False)
    admin = await asyncpg.connect(admin_dsn)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    return make_url(base).set(database=name).render_as_string(hide_password=False), admin_dsn


async def drop_pg_database(url: str, admin_dsn: str) -> None:
    import asyncpg

    admin = await asyncpg.connect(admin_dsn)
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{make_url(url).database}" WITH (FORCE)')
    finally:
        await admin.close()


async def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    reports = []
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{Path(tmp) / 'bench.sqlite3'}"
        reports.append(
            await measure(url, "SQLite (WAL, synchronous=NORMAL)", args.actions, args.games, args.size_games)
        )
    pg = args.url or os.environ.get("TEST_POSTGRES_URL")
    if pg:
        url, admin = await pg_database(pg)
        try:
            reports.append(await measure(url, "PostgreSQL", args.actions, args.games, args.size_games))
        finally:
            await drop_pg_database(url, admin)
    return reports


def print_table(reports: list[dict[str, Any]]) -> None:
    print(
        f"{'database':34} {'load':10} {'actions':>8} {'actions/s':>10} {'p50 ms':>8} {'p99 ms':>8} "
        f"{'max ms':>8} {'batch':>6}"
    )
    for r in reports:
        for name, figures in (("1 game", r["one_game"]), (f"{r['games']} games", r["many_games"])):
            print(
                f"{r['database']:34} {name:10} {figures['actions']:8d} {figures['actions_per_s']:10,.0f} "
                f"{figures['p50_ms']:8.2f} {figures['p99_ms']:8.2f} {figures['max_ms']:8.1f} "
                f"{figures['mean_batch']:6.1f}"
            )
    for r in reports:
        for key, size in r["bytes_per_game"].items():
            print(f"{r['database']:34} on disk per finished 4-player {key} game: {size / 1024:,.1f} KiB")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench storage", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--url", help="PostgreSQL URL (default: TEST_POSTGRES_URL when set)")
    parser.add_argument("--actions", type=int, default=2000, help="actions for the 1-game run (x5 for N games)")
    parser.add_argument("--games", type=int, default=100, help="concurrent games in the second run")
    parser.add_argument("--size-games", type=int, default=10, help="finished games per key for the size figure")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    reports = asyncio.run(run(args))
    if args.json:
        print(json.dumps(reports, indent=2))
    else:
        print_table(reports)
    from bench import results

    figures = {("sqlite" if r is reports[0] else "postgresql"): r for r in reports}
    results.save(
        "storage",
        results.command("storage", argv),
        figures,
        title="Storage: group commit",
        targets={
            "sqlite.many_games.actions_per_s": ">= 5000",
            "sqlite.many_games.p99_ms": "< 50 ms",
            "sqlite.one_game.p99_ms": "< 10 ms",
        },
    )
    return 0
