"""Leaderboard benchmark: `/leaderboard` and `/stats` answer times with 100,000 recorded results, and
the cost of recording a game's results and ratings at game end (SQLite).

    python -m bench leaderboard [--results N] [--players N] [--repeat N] [--reuse FILE] [--json]

The benchmark fills a fresh SQLite file itself: N results (4 seats a game, 2,000 players, three
games, one server) written straight into the tables, then `Database.rerate()` computes every rating
and the rating history from them (timed too). `--reuse FILE` keeps that filled and rerated file
(made on the first run, copied on later ones) to skip the minute it takes. The commands then run
through the real bot and discord.py with only the network faked (harness), as a player would
call them; the figures are the time from feeding the interaction to the recorded answer, wall clock
and CPU time of this process (the machine is shared: CPU time is the steadier figure). "builder" is
the same answer without discord.py around it.

Game end is measured three ways:
- "rating maths alone": storage.ratings.rate_game for the server and the global scope (openskill).
- "finish_game (rating at game end)": the whole Database.finish_game call for a 4-seat game of rated
  players with an empty action log: the small read of the game's inputs, then one transaction that
  closes the game, stores the results and writes both scopes' ratings and rating history. This is
  the figure the target is about.
- "finish_game with a played log": the same call for games played to the end by the random AI, so
  it also replays the log once to count each seat's plays (storage/plays.py); that replay is the
  game engine's speed, and happens before the transaction.

Targets: /leaderboard and /stats median < 50 ms; rating at game end median < 10 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import games
from storage import Database
from storage.ratings import GLOBAL, Standing, rank_by_scores, rate_game

GUILD_ID = 800_000_000_000_000_001  # the harness's server
GAME_KEYS = ("eggs-empires", "eight-minute-empire", "reggverse-riddles")
SEATS = 4
FIRST_USER = 10_000
LOG_SEED = 11  # the seed of the games played to the end for "finish_game with a played log"


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
        game_rows.append(
            (
                game_id,
                GUILD_ID,
                1000 + game_id % 50,
                5000 + game_id,
                key,
                "{}",
                "finished",
                users[0],
                game_id,
                None,
                10,
                None,
                0,
                None,
                None,
                None,
                None,
                at,
                at,
                at,
                game_id,
            )
        )
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


async def timed(repeat: int, call: Callable[[], Awaitable[Any]]) -> list[tuple[float, float]]:
    """(wall ms, CPU ms of this process) of each call."""
    times = []
    for _ in range(repeat):
        began, cpu = time.perf_counter(), time.process_time()
        await call()
        times.append(((time.perf_counter() - began) * 1000, (time.process_time() - cpu) * 1000))
    return times


def summary(times: list[tuple[float, float]]) -> dict[str, float]:
    wall = sorted(t[0] for t in times)
    return {
        "median_ms": round(statistics.median(wall), 2),
        "p90_ms": round(wall[int(0.9 * (len(wall) - 1))], 2),
        "cpu_median_ms": round(statistics.median(t[1] for t in times), 2),
        "n": len(wall),
    }


def played_log(game_key: str, seed: int) -> tuple[int, list[tuple[int, list[str]]]]:
    """(players, the action log) of one game played to the end by the random AI."""
    game = games.get(game_key)
    players = min(SEATS, game.max_players)
    state = game.new(players, seed, game.resolve_options({}))
    log: list[tuple[int, list[str]]] = []
    while game.outcome(state) is None:
        for prompt in game.prompts(state):
            choice = list(game.ai("random", seed + len(log)).choose(game, state, prompt))
            game.apply(state, prompt.seat, choice)
            log.append((prompt.seat, choice))
    return players, log


def write_log(path: Path, game_id: int, log: list[tuple[int, list[str]]]) -> None:
    """The action log of a game, written straight into the table (as commit_action would have)."""
    at = datetime(2024, 6, 1).isoformat(sep=" ")
    connection = sqlite3.connect(path, timeout=15)
    with connection:
        connection.executemany(
            "INSERT INTO actions (game_id, seq, seat, action, afk, at) VALUES (?, ?, ?, ?, 0, ?)",
            [(game_id, seq, seat, json.dumps(action), at) for seq, (seat, action) in enumerate(log, start=2)],
        )
        connection.execute("UPDATE games SET version = ? WHERE id = ?", (len(log) + 1, game_id))
    connection.close()


async def prepare(
    path: Path, results: int, players: int, reuse: Path | None, reuse_ready: bool, figures: dict[str, Any]
) -> bool:
    """Fill the database (or copy a kept one); True if it still needs rerating."""
    if reuse is not None and reuse_ready:
        shutil.copyfile(reuse, path)
        figures["games"], figures["fill_s"] = results // SEATS, 0.0
        return False
    db = await Database.open(f"sqlite+aiosqlite:///{path}")  # creates the schema
    await db.close()
    began = time.perf_counter()
    figures["games"] = fill(path, results, players)
    figures["fill_s"] = round(time.perf_counter() - began, 2)
    return True


async def run(
    results: int, players: int, repeat: int, reuse: Path | None = None, reuse_ready: bool = False
) -> dict[str, Any]:
    from bot.messages import leaderboards as cog
    from harness import Harness

    figures: dict[str, Any] = {"results": results, "players": players}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.sqlite3"
        needs_rerate = await prepare(path, results, players, reuse, reuse_ready, figures)
        h = await Harness.start(path)
        try:
            assert h.bot is not None
            db = h.bot.db
            figures["rerated_games"], figures["rerate_s"] = 0, 0.0
            if needs_rerate:
                began = time.perf_counter()
                figures["rerated_games"] = await db.rerate()
                figures["rerate_s"] = round(time.perf_counter() - began, 2)
                if reuse is not None:
                    await db.close()  # checkpoint, then keep a copy
                    shutil.copyfile(path, reuse)
                    await h.close()
                    h = await Harness.start(path)
                    assert h.bot is not None
                    db = h.bot.db
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
            figures["builder board"] = summary(
                await timed(repeat, lambda: cog.board_message(db, GUILD_ID, "s", GAME_KEYS[0], someone, 3, "en"))
            )
            figures["builder stats"] = summary(
                await timed(
                    repeat, lambda: cog.stats_message(db, GUILD_ID, heavy_target, "Heavy", "en", self_view=True)
                )
            )

            # Game end: fresh 4-seat games of rated players (results + ratings + history).
            rng = random.Random(3)
            maths: list[tuple[float, float]] = []

            async def new_game(seed: int, game_key: str, seats: int) -> tuple[int, list[dict[str, Any]]]:
                row = await db.create_game(
                    guild_id=GUILD_ID,
                    channel_id=77,
                    game_key=game_key,
                    options={},
                    host_id=FIRST_USER,
                    seed=seed,
                    turn_seconds=None,
                )
                assert row.id is not None
                users = rng.sample(range(FIRST_USER, FIRST_USER + players), seats)
                await db.set_seats(row.id, [{"seat": s, "user_id": u, "name": "x"} for s, u in enumerate(users)])
                await db.start_game(row.id, {"x": 1}, None)
                scores = [rng.randint(20, 80) for _ in users]
                ranks = rank_by_scores(scores)
                # The rating maths alone, on the same priors the transaction will read.
                entries = list(zip(users, ranks, strict=True))
                priors: list[dict[int, Standing]] = []
                for scope in (GUILD_ID, GLOBAL):
                    found = await db.ratings(scope, game_key, users)
                    priors.append({u: Standing(r.mu, r.sigma, r.games, r.wins) for u, r in found.items()})
                began, cpu = time.perf_counter(), time.process_time()
                for prior in priors:
                    rate_game(prior, entries)
                maths.append(((time.perf_counter() - began) * 1000, (time.process_time() - cpu) * 1000))
                return row.id, [
                    {
                        "seat": s,
                        "user_id": u,
                        "ai_level": None,
                        "rank": ranks[s],
                        "score": scores[s],
                        "breakdown": {"total": scores[s]},
                    }
                    for s, u in enumerate(users)
                ]

            async def finish_all(prepared: list[tuple[int, list[dict[str, Any]]]]) -> list[tuple[float, float]]:
                times = []
                for game_id, outcome in prepared:
                    began, cpu = time.perf_counter(), time.process_time()
                    await db.finish_game(game_id, "finished", outcome)
                    times.append(((time.perf_counter() - began) * 1000, (time.process_time() - cpu) * 1000))
                return times

            bare = [await new_game(i, GAME_KEYS[0], SEATS) for i in range(repeat)]
            figures["rating maths alone (2 scopes)"] = summary(maths)
            figures["finish_game (rating at game end)"] = summary(await finish_all(bare))

            logs = {key: played_log(key, LOG_SEED) for key in GAME_KEYS}
            with_logs = []
            for i in range(repeat):
                key = GAME_KEYS[i % len(GAME_KEYS)]
                seats, log = logs[key]
                game_id, outcome = await new_game(LOG_SEED, key, seats)
                write_log(path, game_id, log)
                with_logs.append((game_id, outcome))
            figures["finish_game with a played log"] = summary(await finish_all(with_logs))
            figures["played log actions"] = {key: len(log) for key, (_seats, log) in logs.items()}
        finally:
            await h.close()
    return figures


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench leaderboard", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--results", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=2_000)
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument(
        "--reuse",
        type=Path,
        default=None,
        help="keep the filled, rerated database in this file and reuse it on later runs",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    figures = asyncio.run(
        run(args.results, args.players, args.repeat, args.reuse, args.reuse is not None and args.reuse.exists())
    )
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(
        f"{figures['results']:,} results ({figures['games']:,} games, {figures['players']:,} players, "
        f"SQLite): filled in {figures['fill_s']} s; rerate of {figures['rerated_games']:,} games "
        f"{figures['rerate_s']} s"
    )
    for name in (
        "/leaderboard",
        "/stats",
        "/history",
        "builder board",
        "builder stats",
        "rating maths alone (2 scopes)",
        "finish_game (rating at game end)",
        "finish_game with a played log",
    ):
        f = figures[name]
        print(
            f"  {name:34} median {f['median_ms']:7.2f} ms   p90 {f['p90_ms']:7.2f} ms   "
            f"CPU median {f['cpu_median_ms']:7.2f} ms   (n={f['n']})"
        )
    actions = ", ".join(f"{key} {count}" for key, count in figures["played log actions"].items())
    print(f"  (played logs, replayed to count plays: {actions} actions)")
    print(f"  (/stats for a player with {figures['stats_user_results']} results on this server)")
    ok = (
        figures["/leaderboard"]["median_ms"] < 50
        and figures["/stats"]["median_ms"] < 50
        and figures["finish_game (rating at game end)"]["median_ms"] < 10
    )
    print("targets met" if ok else "TARGETS MISSED: /leaderboard and /stats < 50 ms, finish_game < 10 ms")
    from bench import results

    results.save(
        "leaderboard",
        results.command("leaderboard", argv),
        figures,
        title="Leaderboard and stats",
        targets={
            "/leaderboard.median_ms": "< 50 ms",
            "/stats.median_ms": "< 50 ms",
            "finish_game (rating at game end).median_ms": "< 10 ms",
        },
    )
    return 0 if ok else 1
