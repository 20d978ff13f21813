"""The expert AI level (games.search): its strength against the heuristic and its CPU per decision.

    python -m bench expert [--games-2p 400] [--games-eggs 1000] [--games-eggs-4p 400] [--jobs 2]
                           [--only KEY ...] [--no-save]
    python -m bench expert --calibrate [--positions 60]

Strength: `games.__main__.simulate` with the levels expert and heuristic, seats rotating from game to
game (in 2-player games half the games each way round), split over `--jobs` worker processes by
ranges of seeds; the win rate of the expert comes with its 95% (Wilson) interval. The targets are the
issue's: 2-player Eight-Minute Empire and Reggverse >= 60% over 400 games, 2-player Eggs and Empires
>= 55% over 1,000 games with the interval above 50%, and one expert among three heuristics in
4-player Eggs and Empires >= 30% (chance 25%).

Cost: the CPU milliseconds of every expert decision in those games (`cpu_ms_*`: all of them, most of
which the heuristic answers) and of the decisions it searched (`search_ms_*`, from recorded
positions, timed again one by one), median and 90th percentile. `--calibrate` measures the rollout
decisions a search makes per CPU millisecond on this machine (what each game's `steps_per_ms` says,
measured on the development machine), so a budget in milliseconds can be turned into a count of
decisions: the count, not the clock, ends a search, which is what keeps expert games replayable.

`--only KEY` (repeatable) measures those games only and saves their figures into the results already
there, keeping the other games' figures (each game's figures carry the command that measured them and
the load average of the machine while they ran: the machine is shared, and strength runs are long).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import games
from games.__main__ import simulate, wilson
from games.search import DEFAULT_BUDGET_MS, ExpertPlayer

TWO_PLAYER = ("eight-minute-empire", "reggverse-riddles")
EGGS = "eggs-empires"
SEED = 70_000


def _chunk(args: tuple[str, int, int, int, list[str]]) -> dict[str, Any]:
    key, players, count, seed, levels = args
    return simulate(games.get(key), players, count, seed, levels, {})


def strength(key: str, players: int, count: int, jobs: int) -> dict[str, Any]:
    """Expert (one seat) against heuristics (the others) over `count` games, seats rotating."""
    levels = ["expert"] + ["heuristic"] * (players - 1)
    per_job = -(-count // jobs)
    per_job += (-per_job) % players  # whole rotations in every chunk: each seat order equally often
    chunks, start = [], 0
    while start < count:
        size = min(per_job, count - start)
        chunks.append((key, players, size, SEED + start, levels))
        start += size
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        reports = list(pool.map(_chunk, chunks))
    wins = sum(r["levels"]["expert"]["win_rate"] * r["games"] for r in reports)
    games_played = sum(r["games"] for r in reports)
    low, high = wilson(wins, games_played)
    medians = [r["levels"]["expert"]["cpu_ms_median"] for r in reports]
    p90s = [r["levels"]["expert"]["cpu_ms_p90"] for r in reports]
    return {
        "games": games_played,
        "win_rate": round(wins / games_played, 4),
        "win_rate_95": [round(low, 4), round(high, 4)],
        "win_rate_95_low": round(low, 4),
        "heuristic_mean_score": round(statistics.fmean(r["levels"]["heuristic"]["mean_score"] for r in reports), 2),
        "expert_mean_score": round(statistics.fmean(r["levels"]["expert"]["mean_score"] for r in reports), 2),
        # medians of the chunks' figures (each chunk times thousands of decisions)
        "cpu_ms_median": round(statistics.median(medians), 3),
        "cpu_ms_p90": round(statistics.median(p90s), 3),
    }


def searched_costs(key: str, players: int, positions: int) -> dict[str, Any]:
    """CPU ms of the expert's searched decisions, and rollout steps per CPU ms, on positions of
    heuristic games (a fresh expert per decision, as the table service makes)."""
    game = games.get(key)
    spent: list[float] = []
    steps = 0
    seed = 0
    while len(spent) < positions:
        seed += 1
        state = game.new(players, 90_000 + seed)
        ais = [game.ai("heuristic", seed * 10 + s) for s in range(players)]
        while (prompts := game.prompts(state)) and len(spent) < positions:
            for prompt in prompts:
                if prompt.seat == 0:
                    player = game.ai("expert", seed * 1000 + len(spent))
                    assert isinstance(player, ExpertPlayer)
                    started = time.process_time()
                    player.choose(game, state, prompt)
                    took = time.process_time() - started
                    if player.last is not None:
                        spent.append(took * 1000)
                        steps += player.last.steps
                game.apply(state, prompt.seat, ais[prompt.seat].choose(game, state, prompt))
    ordered = sorted(spent)
    return {
        "searched_decisions": len(spent),
        "search_ms_median": round(statistics.median(spent), 2),
        "search_ms_p90": round(ordered[int(0.9 * len(ordered))], 2),
        "steps_per_cpu_ms": round(steps / sum(spent), 2),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench expert", description=__doc__)
    parser.add_argument("--games-2p", type=int, default=400, help="games of Eight-Minute Empire and Reggverse")
    parser.add_argument("--games-eggs", type=int, default=1000, help="2-player Eggs and Empires games")
    parser.add_argument("--games-eggs-4p", type=int, default=400, help="4-player Eggs and Empires games")
    parser.add_argument("--positions", type=int, default=60, help="searched decisions timed per game")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--only",
        action="append",
        choices=games.keys(),
        help="measure this game only (repeatable); keeps the others' figures",
    )
    parser.add_argument("--calibrate", action="store_true", help="only the rollout steps per CPU ms")
    parser.add_argument("--no-save", action="store_true")
    args = parser.parse_args(argv)
    keys = args.only or games.keys()
    run = " ".join(["python -m bench expert", *argv])
    figures: dict[str, Any] = {}
    targets: dict[str, str] = {}
    for key in keys:
        cost = searched_costs(key, 2, args.positions)
        print(
            f"{key}: searched decisions median {cost['search_ms_median']} ms CPU, p90 {cost['search_ms_p90']} ms, "
            f"{cost['steps_per_cpu_ms']} rollout steps per CPU ms (budget {DEFAULT_BUDGET_MS:g} ms)"
        )
        if args.calibrate:
            continue
        runs = [(2, args.games_eggs if key == EGGS else args.games_2p)]
        if key == EGGS:
            runs.append((4, args.games_eggs_4p))
        for players, count in runs:
            if count <= 0:
                continue
            load_before = os.getloadavg()[0]
            found = {**strength(key, players, count, args.jobs), **cost}
            found["load_average"] = [round(load_before, 1), round(os.getloadavg()[0], 1)]  # 1-minute, before/after
            found["command"] = run
            name = f"{key}_{players}p"
            figures[name] = found
            low, high = found["win_rate_95"]
            print(
                f"{key} {players}p: expert wins {found['win_rate']:.1%} of {found['games']} games against "
                f"heuristics (95%: {low:.1%}-{high:.1%}); CPU per expert decision median {found['cpu_ms_median']} "
                f"ms, p90 {found['cpu_ms_p90']} ms"
            )
            if players == 4:
                targets[f"{name}.win_rate"] = ">= 0.30"
            elif key == EGGS:
                targets[f"{name}.win_rate"] = ">= 0.55"
                targets[f"{name}.win_rate_95_low"] = "> 0.50"
            else:
                targets[f"{name}.win_rate"] = ">= 0.60"
            targets[f"{name}.search_ms_median"] = f"<= {DEFAULT_BUDGET_MS:g}"
    if args.calibrate or args.no_save:
        return 0
    from bench import results

    if args.only:  # the other games' figures and targets as they were last measured
        saved = results.RESULTS / "expert.json"
        if saved.exists():
            before = json.loads(saved.read_text(encoding="utf-8"))
            # figures from an older run say which (the record's command and commit are the latest run's)
            stamp = {"command": before["command"], "commit": before.get("commit", "?")}
            kept = {name: {**stamp, **value} for name, value in before["figures"].items() if name not in figures}
            figures = {**kept, **figures}
            targets = {**before["targets"], **targets}
        figures = dict(sorted(figures.items()))

    results.save(
        "expert",
        results.command("expert", argv),
        figures,
        title="Expert AI: strength against the heuristic, CPU per decision",
        targets=targets,
        notes="Seats rotate from game to game (half the 2-player games each way round). cpu_ms_*: every "
        "expert decision of those games (the heuristic answers most of them); search_ms_*: the decisions it "
        f"searched, on positions of heuristic games, default budget {DEFAULT_BUDGET_MS:g} ms counted as "
        "rollout decisions (steps_per_cpu_ms: as measured here). Each game's command and load_average (the "
        "machine's 1-minute load before and after its strength run, 2 cores) say how and when it was measured.",
    )
    return 0
