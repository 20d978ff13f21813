"""Reggverse Riddles benchmark.

    python -m bench reggverse [--games 100] [--repeats 5] [--renders 20] [--json]

Prints complete random 4-player games per second (one core; default options and both expansions on)
as the median of several runs (target >= 100), and the median milliseconds to render one PNG of the
table view and of a seat's view of a mid-game position (target < 100 ms).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

import games
from bot.render.reggverse import render_board
from games.__main__ import simulate
from games.ai import RandomPlayer

KEY = "reggverse-riddles"


def throughput(count: int, repeats: int, options: dict[str, Any]) -> dict[str, Any]:
    game = games.get(KEY)
    runs = [simulate(game, 4, count, 1000 * r, ["random"] * 4, options) for r in range(repeats)]
    rates = [r["games_per_second"] for r in runs]
    return {"options": options, "games": count, "runs": rates, "median_games_per_second": statistics.median(rates),
            "decisions_per_game": runs[0]["decisions_per_game"]}


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
        "throughput": [throughput(args.games, args.repeats, {}),
                       throughput(args.games, args.repeats, {"action_tiles": True, "objectives": True})],
        "render_ms": render_times(args.renders),
    }
    if args.json:
        print(json.dumps(results))
        return 0
    for row in results["throughput"]:
        label = "both expansions" if row["options"] else "base game"
        print(f"reggverse-riddles 4p random, {label}: median {row['median_games_per_second']:.1f} games/s "
              f"(target >= 100; runs of {row['games']}: {', '.join(f'{r:.1f}' for r in row['runs'])}; "
              f"{row['decisions_per_game']} decisions per game)")
    r = results["render_ms"]
    print(f"reggverse-riddles render: median {r['public']} ms table view, {r['seat']} ms seat view (target < 100 ms)")
    return 0
