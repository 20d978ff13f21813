"""Eggs and Empires engine benchmark.

    python -m bench eggs_empires [--games 2000] [--repeats 5] [--winrate-games 400]

Prints complete random games per second of CPU time (one core, state round-trip excluded; CPU time
rather than wall time because these machines are shared) for 2, 4 and 6 players, as the median of
several runs, with the wall-clock figure beside it, and the win rate of one heuristic seat against three random
ones in 4-player games (the heuristic takes each seat in turn).

The engine runs compiled wherever `make` could build it (games/build.py). Then the same figures are also
measured interpreted, in a child process that runs the .py files (`games.build.prefer_sources`), in the same
sitting, alternating engine by engine and player count by player count, so the two can be compared.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from typing import Any, ClassVar

import games
from games.__main__ import simulate
from games.ai import RandomPlayer, play_out
from games.build import running_compiled
from games.core import Choice, Prompt

KEY = "eggs-empires"


def interpreted_throughput(players: int, count: int, repeats: int) -> dict[str, Any]:
    """`throughput` of the interpreted engine, in a child process that runs the .py files."""
    code = (
        "import json, sys; from games import build; build.prefer_sources();"
        "from bench.eggs_empires import throughput; print(json.dumps(throughput(*map(int, sys.argv[1:]))))"
    )
    child = subprocess.run(
        [sys.executable, "-c", code, str(players), str(count), str(repeats)], capture_output=True, text=True, check=True
    )
    result: dict[str, Any] = json.loads(child.stdout)
    return result


def throughput(players: int, count: int, repeats: int) -> dict[str, Any]:
    game = games.get(KEY)
    reports = [simulate(game, players, count, 1000 * r, ["random"] * players, {}) for r in range(repeats)]
    rates = [r["games_per_second"] for r in reports]
    return {
        "players": players,
        "games": count,
        "runs": rates,
        "median_games_per_second": statistics.median(rates),
        "median_wall_games_per_second": statistics.median(r["wall_games_per_second"] for r in reports),
    }


class _Floor:
    """The contract's own cost: a 'game' of 42 simultaneous turns of 4 seats (168 decisions, as many as
    a 4-player Eggs and Empires game) with no rules at all. Eggs and Empires' time divided by this one,
    measured in the same run, says how much the rules cost on top of the contract, whatever the machine's
    speed at that moment."""

    choices: ClassVar[list[Choice]] = [Choice(str(i), str(i)) for i in (1, 2, 3)]

    def prompts(self, state: dict[str, Any]) -> list[Prompt]:
        if not state["left"]:
            return []
        return [Prompt(s, "play", self.choices, 1, True, "x") for s, c in enumerate(state["sub"]) if c is None]

    def apply(self, state: dict[str, Any], seat: int, choice: list[str]) -> list[dict[str, Any]]:
        state["sub"][seat] = choice
        events: list[dict[str, Any]] = [{"type": "decided", "seat": seat}, {"type": "played", "to": seat}]
        if None not in state["sub"]:
            state["sub"], state["left"] = [None] * 4, state["left"] - 1
        return events


def contract_floor_ratio(count: int, repeats: int) -> dict[str, Any]:
    """Best CPU time of Eggs and Empires vs the rule-less floor, alternating in one run."""
    game, floor = games.get(KEY), _Floor()
    real, empty = [], []
    for r in range(repeats):
        started = time.process_time()
        for i in range(count):
            play_out(game, game.new(4, r * count + i), [RandomPlayer(i * 4 + s) for s in range(4)])
        real.append(time.process_time() - started)
        started = time.process_time()
        for i in range(count):
            play_out(floor, {"left": 42, "sub": [None] * 4}, [RandomPlayer(i * 4 + s) for s in range(4)])  # type: ignore[arg-type]
        empty.append(time.process_time() - started)
    return {
        "games_per_cpu_second_best": round(count / min(real)),
        "floor_games_per_cpu_second_best": round(count / min(empty)),
        "ratio": round(min(real) / min(empty), 2),
    }


def heuristic_win_rate(count: int) -> dict[str, Any]:
    game = games.get(KEY)
    wins = 0.0
    per_seat = count // 4
    for seat in range(4):
        levels = ["random"] * 4
        levels[seat] = "heuristic"
        report = simulate(game, 4, per_seat, 50_000 + seat * per_seat, levels, {})
        wins += report["win_rate"][seat] * per_seat
    return {"games": per_seat * 4, "heuristic_win_rate": round(wins / (per_seat * 4), 4), "chance": 0.25}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench eggs_empires")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--winrate-games", type=int, default=400)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    games.get(KEY)  # imports the engine: running_compiled() only sees imported modules
    compiled_now = running_compiled()
    results: dict[str, Any] = {"throughput": [], "compiled": compiled_now}
    for n in (2, 4, 6):
        results["throughput"].append(throughput(n, args.games, args.repeats))
        if compiled_now:
            results.setdefault("interpreted", []).append(interpreted_throughput(n, args.games, args.repeats))
    results["floor"] = contract_floor_ratio(200, args.repeats)
    if args.winrate_games:
        results["heuristic"] = heuristic_win_rate(args.winrate_games)
    if args.json:
        print(json.dumps(results))
        return 0
    compiled = ", ".join(results["compiled"]) or "none: the interpreted engine (python -m games.build compiles it)"
    print(f"eggs-empires compiled modules: {compiled}")
    for row in results["throughput"]:
        print(
            f"eggs-empires {row['players']}p random: median {row['median_games_per_second']:.0f} games per CPU "
            f"second (runs of {row['games']}: {', '.join(f'{r:.0f}' for r in row['runs'])}; wall clock "
            f"{row['median_wall_games_per_second']:.0f}/s)"
        )
    for row in results.get("interpreted", []):
        print(
            f"eggs-empires {row['players']}p random, interpreted (.py files): median "
            f"{row['median_games_per_second']:.0f} games per CPU second (runs: "
            f"{', '.join(f'{r:.0f}' for r in row['runs'])})"
        )
    f = results["floor"]
    print(
        f"eggs-empires 4p vs a rule-less game of the same 168 decisions, best of {args.repeats} alternating "
        f"runs: {f['games_per_cpu_second_best']} vs {f['floor_games_per_cpu_second_best']} games per CPU second "
        f"(the rules cost {f['ratio']}x the contract's own floor)"
    )
    if "heuristic" in results:
        h = results["heuristic"]
        print(
            f"eggs-empires 4p, 1 heuristic vs 3 random: heuristic wins {h['heuristic_win_rate']:.1%} "
            f"of {h['games']} games (chance 25%)"
        )
    from bench import results as saved

    # The targets, as flat figures the report can check: 4 players on one core, and the heuristic.
    figures: dict[str, Any] = {
        f"games_per_cpu_second_{row['players']}p": row["median_games_per_second"] for row in results["throughput"]
    }
    figures.update(
        {
            f"interpreted_games_per_cpu_second_{row['players']}p": row["median_games_per_second"]
            for row in results.get("interpreted", [])
        }
    )
    targets = {"games_per_cpu_second_4p": ">= 1000"}
    if "heuristic" in results:
        figures["heuristic_win_rate_percent"] = round(100 * results["heuristic"]["heuristic_win_rate"], 1)
        targets["heuristic_win_rate_percent"] = ">= 45"
    saved.save(
        "eggs_empires",
        saved.command("eggs_empires", argv),
        {**figures, **results},
        title="Eggs and Empires engine",
        targets=targets,
    )
    return 0
