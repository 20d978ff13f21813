"""What the views of one update cost: the public view and every seat's view, as the table service asks
for them after each decision (`Game.views`), in CPU microseconds per update, for each game.

    python -m bench views [--positions 60] [--repeats 15] [--no-save]

Positions are taken from random games of every seat count at many moments. Figures are medians over
the repeats, in CPU time of this process (steadier than wall time on a shared machine). Each game is
also timed asking `view()` once per audience (what a game that shares nothing between its views
costs), and Eight-Minute Empire also with the plain one-audience-at-a-time view it replaced
(harness/eme_reference_view.py), on the same positions in the same run, so the ratios compare like with like.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

import games
from games.ai import RandomPlayer


def positions(key: str, count: int) -> list[Any]:
    """`count` states of game `key`: every seat count in turn, each stopped after a different number of
    decisions (from the first moves to late in the game)."""
    game = games.get(key)
    seat_counts = range(game.min_players, game.max_players + 1)
    out = []
    for i in range(count):
        players = seat_counts[i % len(seat_counts)]
        state = game.new(players, i)
        seats = [RandomPlayer(i * 31 + s) for s in range(players)]
        for _ in range(5 + 9 * (i % 12)):
            prompts = game.prompts(state)
            if not prompts:
                break
            for p in prompts:
                game.apply(state, p.seat, seats[p.seat].choose(game, state, p))
        out.append(state)
    return out


def cpu_us_per_update(build: Callable[[Any], object], states: Sequence[Any], repeats: int) -> float:
    """Median over `repeats` of the CPU microseconds per state that `build(state)` takes."""
    runs = []
    for _ in range(repeats):
        started = time.process_time()
        for state in states:
            build(state)
        runs.append((time.process_time() - started) / len(states) * 1e6)
    return statistics.median(runs)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench views")
    parser.add_argument("--positions", type=int, default=60, help="positions per game")
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--no-save", action="store_true", help="print only; leave bench/results alone")
    args = parser.parse_args(list(argv or []))
    figures: dict[str, Any] = {}
    for key in games.keys():
        game = games.get(key)
        states = positions(key, args.positions)

        def together(state: Any, game: Any = game) -> object:
            return game.views(state, [None, *range(game.players(state))])

        def apart(state: Any, game: Any = game) -> object:
            return {seat: game.view(state, seat) for seat in [None, *range(game.players(state))]}

        us = cpu_us_per_update(together, states, args.repeats)
        one_each = cpu_us_per_update(apart, states, args.repeats)
        seats = statistics.mean(game.players(s) for s in states)
        figures[f"{key}_us_per_update"] = round(us, 1)
        figures[f"{key}_view_per_audience_us_per_update"] = round(one_each, 1)
        print(
            f"{key}: public + every seat's view ({seats:.1f} seats on average): median {us:.0f} us CPU per update "
            f"with views(), {one_each:.0f} us with view() once per audience"
        )
        if key == "eight-minute-empire":
            from harness.eme_reference_view import reference_view

            def one_by_one(state: Any, game: Any = game) -> object:
                return {seat: reference_view(game, state, seat) for seat in [None, *range(game.players(state))]}

            old = cpu_us_per_update(one_by_one, states, args.repeats)
            figures[f"{key}_reference_us_per_update"] = round(old, 1)
            print(
                f"{key}: the same views one audience at a time, as before: median {old:.0f} us CPU per update "
                f"({old / us:.1f}x the time)"
            )
    if not args.no_save:
        from bench import results

        results.save(
            "views",
            results.command("views", list(argv or [])),
            figures,
            title="Views per update (public + every seat), CPU",
            notes=(
                "Eight-Minute Empire's reference is its former one-audience-at-a-time view, timed in "
                "the same run on the same positions."
            ),
        )
    return 0
