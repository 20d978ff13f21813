"""What one heuristic (AI seat) decision costs, in CPU milliseconds, for each game at 2 and 4 players.

    python -m bench heuristics [--games 4] [--repeats 5] [--no-save]

Positions come from fixed-seed games played by heuristic seats (default options): each state is kept
as JSON with the seat to decide, then every decision is timed again from that position with a fresh
player, as the table service does (`game.ai("heuristic", seed).choose(...)`, table/advance.py). The time
includes the seat's `game.view()`, which the heuristic reads; the view alone is timed on the same
positions and printed beside it, so what the heuristic itself costs is the difference. Figures are
medians over the repeats of the mean per decision, in CPU time of this process (steadier than wall
time on a shared machine).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import games

SEATS = (2, 4)


def positions(key: str, players: int, count: int) -> list[tuple[dict[str, Any], int, int]]:
    """(state JSON, deciding seat, player seed) of every decision of `count` fixed-seed heuristic games."""
    game = games.get(key)
    found: list[tuple[dict[str, Any], int, int]] = []
    for g in range(count):
        seed = 1000 * players + g
        state = game.new(players, seed, {})
        while prompts := game.prompts(state):
            prompt = prompts[0]  # one at a time: the others' prompts may change once it is answered
            player_seed = seed * 7919 + len(found)
            found.append((game.to_json(state), prompt.seat, player_seed))
            game.apply(state, prompt.seat, game.ai("heuristic", player_seed).choose(game, state, prompt))
    return found


def cpu_ms_per_decision(
    key: str,
    recorded: list[tuple[dict[str, Any], int, int]],
    repeats: int,
    work: Callable[[Any, Any, Any, int], object],
) -> float:
    """Median over `repeats` of the mean CPU ms of `work(game, state, prompt, seed)` per position."""
    game = games.get(key)
    ready = []
    for data, seat, seed in recorded:
        state = game.from_json(data)
        prompt = next(p for p in game.prompts(state) if p.seat == seat)
        ready.append((state, prompt, seed))
    runs = []
    for _ in range(repeats):
        spent = 0
        for state, prompt, seed in ready:
            started = time.process_time_ns()
            work(game, state, prompt, seed)
            spent += time.process_time_ns() - started
        runs.append(spent / len(ready) / 1e6)
    return statistics.median(runs)


def _decide(game: Any, state: Any, prompt: Any, seed: int) -> object:
    return game.ai("heuristic", seed).choose(game, state, prompt)


def _view(game: Any, state: Any, prompt: Any, seed: int) -> object:
    return game.view(state, prompt.seat)


def with_heuristic() -> list[str]:
    """The games that declare a heuristic AI (`ai_levels`): a game without one has nothing to measure here."""
    return [key for key in games.keys() if "heuristic" in games.get(key).ai_levels]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench heuristics")
    parser.add_argument("--games", type=int, default=4, help="fixed-seed games per game and seat count")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--no-save", action="store_true", help="print only, keep bench/results as it is")
    args = parser.parse_args(argv)
    figures: dict[str, Any] = {}
    for key in with_heuristic():
        for players in SEATS:
            recorded = positions(key, players, args.games)
            decide = cpu_ms_per_decision(key, recorded, args.repeats, _decide)
            view = cpu_ms_per_decision(key, recorded, args.repeats, _view)
            print(
                f"{key} {players}p: median {decide:.3f} ms CPU per heuristic decision, of which the view "
                f"{view:.3f} ms ({len(recorded)} decisions, {args.repeats} repeats)"
            )
            figures[f"{key}_{players}p_ms_per_decision"] = round(decide, 3)
            figures[f"{key}_{players}p_view_ms"] = round(view, 3)
    if not args.no_save:
        from bench import results

        results.save(
            "heuristics",
            " ".join(["python -m bench heuristics", *argv]),
            figures,
            title="CPU per heuristic (AI seat) decision",
            notes="Fresh player per decision from recorded positions, as the table service does; "
            "the view alone is timed on the same positions. Medians of the mean per decision.",
        )
    return 0
