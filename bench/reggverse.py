"""Reggverse Riddles benchmark.

    python -m bench reggverse [--games 100] [--repeats 5] [--renders 20] [--json]

Prints complete random 4-player games per second (one core; default options and both expansions on)
as the median of several runs, by wall clock and by CPU time of this process (target >= 100), and the
median milliseconds to render one PNG of the table view and of a seat's view of a mid-game position
(target < 100 ms). The machine is shared, so the best run by CPU time is printed too: it is the
closest to what one free core gives.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

import games
from bot.render.reggverse import render_board
from games.ai import RandomPlayer, play_out
from games.core import Player

KEY = "reggverse-riddles"


def throughput(count: int, repeats: int, options: dict[str, Any]) -> dict[str, Any]:
    """Games per second by wall clock and by this process's CPU time: the machine is shared, and the
    CPU figure is what one free core would give."""
    game = games.get(KEY)
    wall_rates: list[float] = []
    cpu_rates: list[float] = []
    decisions = 0
    for r in range(repeats):
        wall = cpu = 0.0
        for i in range(count):
            seed = 1000 * r + i
            players: list[Player] = [RandomPlayer(seed * 31 + s) for s in range(4)]
            started, started_cpu = time.perf_counter(), time.process_time()
            state = game.new(4, seed, options)
            decisions += play_out(game, state, players)
            wall += time.perf_counter() - started
            cpu += time.process_time() - started_cpu
        wall_rates.append(round(count / wall, 1))
        cpu_rates.append(round(count / cpu, 1))
    return {
        "options": options,
        "games": count,
        "wall_runs": wall_rates,
        "cpu_runs": cpu_rates,
        "median_games_per_second": statistics.median(wall_rates),
        "median_games_per_cpu_second": statistics.median(cpu_rates),
        "best_games_per_cpu_second": max(cpu_rates),
        "decisions_per_game": round(decisions / (count * repeats), 1),
    }


def render_times(count: int) -> dict[str, float]:
    game = games.get(KEY)
    state = game.new(4, 11, {"action_tiles": True, "objectives": True})
    players = [RandomPlayer(s) for s in range(4)]
    for _ in range(60):  # a mid-game position: eggs on the board, rules in the rows
        prompt = game.prompts(state)[0]
        game.apply(state, prompt.seat, players[prompt.seat].choose(game, state, prompt))
    result: dict[str, float] = {}
    for name, seat in (("public", None), ("seat", 2)):
        times = []
        for _ in range(count):
            started = time.perf_counter()
            render_board(game.view(state, seat))
            times.append((time.perf_counter() - started) * 1000)
        result[name] = round(statistics.median(times), 1)
    return result


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench reggverse")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--renders", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    results: dict[str, Any] = {
        "throughput": [
            throughput(args.games, args.repeats, {}),
            throughput(args.games, args.repeats, {"action_tiles": True, "objectives": True}),
        ],
        "render_ms": render_times(args.renders),
    }
    if args.json:
        print(json.dumps(results))
        return 0
    for row in results["throughput"]:
        label = "both expansions" if row["options"] else "base game"
        print(
            f"reggverse-riddles 4p random, {label}: median {row['median_games_per_second']:.1f} games/s wall, "
            f"{row['median_games_per_cpu_second']:.1f} per CPU second, best run "
            f"{row['best_games_per_cpu_second']:.1f} (target >= 100; runs of {row['games']}, "
            f"wall: {', '.join(f'{r:.1f}' for r in row['wall_runs'])}; "
            f"{row['decisions_per_game']} decisions per game)"
        )
    r = results["render_ms"]
    print(f"reggverse-riddles render: median {r['public']} ms table view, {r['seat']} ms seat view (target < 100 ms)")
    from bench import results as saved

    figures = {
        "base_games_per_cpu_second": results["throughput"][0]["median_games_per_cpu_second"],
        "expansions_games_per_cpu_second": results["throughput"][1]["median_games_per_cpu_second"],
        **results,
    }
    saved.save(
        "reggverse",
        saved.command("reggverse", argv),
        figures,
        title="Reggverse Riddles engine and render",
        targets={
            "base_games_per_cpu_second": ">= 100",
            "expansions_games_per_cpu_second": ">= 100",
            "render_ms.public": "< 100 ms",
            "render_ms.seat": "< 100 ms",
        },
    )
    return 0
