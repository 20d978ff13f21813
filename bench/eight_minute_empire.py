"""Eight-Minute Empire: Legends: complete random 4-player games per second, and map render time.

    python -m bench eight_minute_empire [--games N] [--batches B] [--renders R]

Targets: >= 200 games/s (whole games: new + every prompt and apply), < 100 ms per map image.
Figures are medians over batches, so one slow moment on a shared machine does not decide them.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence

from games.ai import RandomPlayer, play_out
from games.eight_minute_empire import GAME


def games_per_second(games: int, batches: int, players: int = 4) -> tuple[list[float], list[float], float]:
    """Per batch: games per wall-clock second and per CPU second of this process (the CPU figure is
    steadier when other work shares the machine); and the mean number of decisions per game."""
    wall, cpu = [], []
    decisions = 0
    for batch in range(batches):
        started, started_cpu = time.perf_counter(), time.process_time()
        for i in range(games):
            seed = batch * games + i
            state = GAME.new(players, seed)
            decisions += play_out(GAME, state, [RandomPlayer(seed * 31 + s) for s in range(players)])
        wall.append(games / (time.perf_counter() - started))
        cpu.append(games / max(time.process_time() - started_cpu, 1e-9))
    return wall, cpu, decisions / (games * batches)


def render_times(renders: int) -> tuple[list[float], list[float]]:
    """Milliseconds per PNG, wall clock and CPU, over views from several moments of different games."""
    from bot.render.eight_minute_empire import render_map

    views = []
    for seed in range(renders):
        state = GAME.new(4, seed, {"explore": True, "citadels": True})
        seats = [RandomPlayer(seed * 31 + s) for s in range(4)]
        for _ in range(20 + 15 * (seed % 8)):
            for p in GAME.prompts(state):
                GAME.apply(state, p.seat, seats[p.seat].choose(GAME, state, p))
        views.append(GAME.view(state, None))
    render_map(views[0])  # load the fonts once, as a running bot would have
    times, cpu = [], []
    for view in views:
        started, started_cpu = time.perf_counter(), time.process_time()
        render_map(view)
        times.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
    return times, cpu


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench eight_minute_empire")
    parser.add_argument("--games", type=int, default=100, help="games per batch")
    parser.add_argument("--batches", type=int, default=5)
    parser.add_argument("--renders", type=int, default=30)
    args = parser.parse_args(list(argv or []))
    wall, cpu, decisions = games_per_second(args.games, args.batches)
    print(
        f"eight-minute-empire: random 4-player games: median {statistics.median(wall):.0f} games/s "
        f"wall clock, {statistics.median(cpu):.0f} per CPU second (batches of {args.games}: "
        f"{', '.join(f'{r:.0f}' for r in wall)}; {decisions:.0f} decisions per game; target >= 200)"
    )
    times, cpu_times = render_times(args.renders)
    print(
        f"eight-minute-empire: map render (PNG, 800 px wide): median {statistics.median(times):.1f} ms "
        f"wall clock, {statistics.median(cpu_times):.1f} ms CPU, max {max(times):.1f} ms over "
        f"{len(times)} images (target < 100 ms)"
    )
    from bench import results

    figures = {
        "games_per_second": round(statistics.median(wall)),
        "games_per_cpu_second": round(statistics.median(cpu)),
        "decisions_per_game": round(decisions),
        "render_median_ms": round(statistics.median(times), 1),
        "render_cpu_median_ms": round(statistics.median(cpu_times), 1),
        "render_max_ms": round(max(times), 1),
    }
    results.save(
        "eight_minute_empire",
        results.command("eight_minute_empire", list(argv or [])),
        figures,
        title="Eight-Minute Empire: Legends engine and map",
        targets={"games_per_cpu_second": ">= 200", "render_cpu_median_ms": "< 100 ms"},
    )
    return 0
