"""Leaderboard benchmark: `/leaderboard` and `/stats` answer times with 100,000 recorded results, and
the cost of recording a game's results and ratings at game end (SQLite).

    python -m bench leaderboard [--results N] [--players N] [--repeat N] [--json]

The benchmark fills a fresh SQLite file itself: N results (4 seats a game, 2,000 players, three
games, one server) written straight into the tables, then `Database.rerate()` computes every rating
and the rating history from them (timed too). The commands then run through the real bot and
discord.py with only the network faked (tests/harness), as a player would call them; the figures
are the time from feeding the interaction to the recorded answer. "builder" is the same answer
without discord.py around it. Targets: /leaderboard and /stats median < 50 ms; rating at game end
(Database.finish_game: results + ratings + history, one transaction) median < 10 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from storage import Database
from storage.ratings import rank_by_scores

GUILD_ID = 800_000_000_000_000_001  # the harness's server
GAME_KEYS = ("eggs-empires", "eight-minute-empire", "reggverse-riddles")
SEATS = 4
FIRST_USER = 10_000


def fill(path: Path, results: int, players: int, seed: int = 1) -> int:
    """Write finished games straight into the tables (stdlib sqlite3, one transaction)."""
    rng = random.Random(seed)
    games_count = results // SEATS
    start = datetime(2024, 1, 1, tzinfo=UTC)
    game_rows, seat_rows, result_rows = [], [], []
    for game_id in range(1, games_count + 1):
        at = (start + timedelta(minutes=game_id)).replace(tzinfo=None).isoformat(sep=" ")
        key = GAME_KEYS[game_id % len(GAME_KEYS)]
        users: list[int | None] = list(rng.sample(range(FIRST_USER, FIRST_USER + players), SEATS))
        if game_id % 5 == 0:
            users[-1] = None  # an AI seat in every fifth game
        game_rows.append((game_id, GUILD_ID, 1000 + game_id % 50, 5000 + game_id, key, "{}", "finished",
                          users[0], game_id, None, 10, None, 0, None, None, None, None, at, at, at, game_id))
        scores = [rng.randint(20, 80) for _ in range(SEATS)]
        ranks = rank_by_scores(scores)
        plays = json.dumps({"Bard (1)": rng.randint(0, 9), "Hero (10)": rng.randint(0, 9)})
        for seat, user in enumerate(users):
            level = "heuristic" if user is None else None
            seat_rows.append((game_id, seat, user, level, f"P{user}", None, None, 0, 0, 0, None))
            result_rows.append((game_id, seat, user, level, ranks[seat], scores[seat], "{}", None, plays))
    connection = sqlite3.connect(path)
    with connection:
        connection.executemany(f"INSERT INTO games VALUES ({','.join('?' * 21)})", game_rows)
        connection.executemany(f"INSERT INTO seats VALUES ({','.join('?' * 11)})", seat_rows)
        connection.executemany(f"INSERT INTO results VALUES ({','.join('?' * 9)})", result_rows)
    connection.close()
    return games_count


async def timed(repeat: int, call: Callable[[], Awaitable[Any]]) -> list[float]:
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        await call()
        times.append((time.perf_counter() - began) * 1000)
    return times


def summary(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {"median_ms": round(statistics.median(ordered), 2),
            "p90_ms": round(ordered[int(0.9 * (len(ordered) - 1))], 2), "n": len(ordered)}


async def run(results: int, players: int, repeat: int) -> dict[str, Any]:
    from bot.cogs import leaderboard as cog
    from tests.harness import Harness

    figures: dict[str, Any] = {"results": results, "players": players}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.sqlite3"
        db = await Database.open(f"sqlite+aiosqlite:///{path}")  # creates the schema
        await db.close()
        began = time.perf_counter()
        figures["games"] = fill(path, results, players)
        figures["fill_s"] = round(time.perf_counter() - began, 2)

        h = await Harness.start(path)
        try:
            assert h.bot is not None
            db = h.bot.db
            began = time.perf_counter()
            figures["rerated_games"] = await db.rerate()
            figures["rerate_s"] = round(time.perf_counter() - began, 2)
            someone = h.user("Caller")  # not on the board: its own row is looked up too
            # One of the recorded players calls /stats and /history (the fake Discord learns the id).
            heavy_target = FIRST_USER + 7
            h.fake.users[heavy_target] = {**h.fake.users[someone], "id": str(heavy_target), "username": "Heavy"}
            played = len(await db.user_results(heavy_target, GUILD_ID, limit=100_000))
            figures["stats_user_results"] = played

            async def board_cmd() -> None:
                await h.slash(someone, "leaderboard", game=GAME_KEYS[0])

            async def stats_cmd() -> None:
                await h.slash(heavy_target, "stats")

            async def history_cmd() -> None:
                await h.slash(heavy_target, "history")

            await stats_cmd()  # warm caches (fonts, statements) once
            await board_cmd()
            figures["/leaderboard"] = summary(await timed(repeat, board_cmd))
            figures["/stats"] = summary(await timed(repeat, stats_cmd))
            figures["/history"] = summary(await timed(repeat, history_cmd))
            figures["builder board"] = summary(await timed(repeat, lambda: cog.board_message(
                db, GUILD_ID, "s", GAME_KEYS[0], someone, 3, "en")))
            figures["builder stats"] = summary(await timed(repeat, lambda: cog.stats_message(
                db, GUILD_ID, heavy_target, "Heavy", "en", self_view=True)))

            # Game end: finish_game on fresh 4-seat games of rated players (results + ratings + history).
            rng = random.Random(3)
            finish_times = []
            for i in range(repeat):
                row = await db.create_game(guild_id=GUILD_ID, channel_id=77, game_key=GAME_KEYS[0], options={},
                                           host_id=FIRST_USER, seed=i, turn_seconds=None)
                assert row.id is not None
                users = rng.sample(range(FIRST_USER, FIRST_USER + players), SEATS)
                await db.set_seats(row.id, [{"seat": s, "user_id": u, "name": "x"} for s, u in enumerate(users)])
                await db.start_game(row.id, {"x": 1}, None)
                scores = [rng.randint(20, 80) for _ in users]
                ranks = rank_by_scores(scores)
                outcome = [{"seat": s, "user_id": u, "ai_level": None, "rank": ranks[s], "score": scores[s],
                            "breakdown": {"total": scores[s]}} for s, u in enumerate(users)]
                began = time.perf_counter()
                await db.finish_game(row.id, "finished", outcome)
                finish_times.append((time.perf_counter() - began) * 1000)
            figures["finish_game (rating at game end)"] = summary(finish_times)
        finally:
            await h.close()
    return figures


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench leaderboard", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--results", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=2_000)
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    figures = asyncio.run(run(args.results, args.players, args.repeat))
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(f"{figures['results']:,} results ({figures['games']:,} games, {figures['players']:,} players, "
          f"SQLite): filled in {figures['fill_s']} s; rerate of {figures['rerated_games']:,} games "
          f"{figures['rerate_s']} s")
    for name in ("/leaderboard", "/stats", "/history", "builder board", "builder stats",
                 "finish_game (rating at game end)"):
        f = figures[name]
        print(f"  {name:34} median {f['median_ms']:7.2f} ms   p90 {f['p90_ms']:7.2f} ms   (n={f['n']})")
    print(f"  (/stats for a player with {figures['stats_user_results']} results on this server)")
    ok = (figures["/leaderboard"]["median_ms"] < 50 and figures["/stats"]["median_ms"] < 50
          and figures["finish_game (rating at game end)"]["median_ms"] < 10)
    print("targets met" if ok else "TARGETS MISSED: /leaderboard and /stats < 50 ms, finish_game < 10 ms")
    return 0 if ok else 1
