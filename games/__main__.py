"""Command-line tools for the engines.

python -m games list
python -m games simulate GAME --players N --games K --seed S [--ai random|heuristic|expert|a,b,..] [--json]
    (different levels per seat: the seats rotate from game to game, and each level's win rate is shown
    with its 95% interval and its CPU per decision)
python -m games play GAME --players N [--seat 0] [--ai heuristic] [--seed S]
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import games
from games.ai import play_out
from games.build import running_compiled
from games.core import Game, IllegalAction, Player, Prompt
from games.text import format_event


def _parse_options(pairs: Sequence[str]) -> dict[str, str]:
    options: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"--option takes NAME=VALUE, not {pair!r}")
        options[name.strip()] = value.strip()
    return options


def _seat_levels(spec: str, players: int) -> list[str]:
    levels = [s.strip() for s in spec.split(",") if s.strip()]
    if len(levels) == 1:
        levels *= players
    if len(levels) != players:
        raise SystemExit(f"--ai names one level or one per seat ({players}), got {spec!r}")
    return levels


@contextmanager
def _no_cyclic_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector. Game states hold no reference cycles, so during a game it
    only costs time (about a fifth of a random Eggs and Empires game); reference counting still
    frees everything, and the collector runs between games."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def wilson(wins: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate (shared wins count as fractions)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = wins / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return (max(0.0, centre - half), min(1.0, centre + half))


def _timed_play_out(game: Game[Any], state: Any, players: list[Player], spent: list[list[float]]) -> int:
    """`play_out`, appending each decision's CPU milliseconds to `spent[seat]`."""
    decisions = 0
    while prompts := game.prompts(state):
        for prompt in prompts:
            started = time.process_time()
            choice = players[prompt.seat].choose(game, state, prompt)
            spent[prompt.seat].append((time.process_time() - started) * 1000)
            game.apply(state, prompt.seat, choice)
        decisions += len(prompts)
    return decisions


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def simulate(
    game: Game[Any], players: int, count: int, seed: int, levels: list[str], options: dict[str, Any]
) -> dict[str, Any]:
    """Play `count` AI games; return throughput and score statistics.

    When the seats play different levels, game i seats them rotated by i places (seat order matters in
    every game), and the report adds per level its win rate (per seat of that level) with a 95%
    interval, and the CPU milliseconds of its decisions (median and 90th percentile)."""
    scores: list[list[float]] = [[] for _ in range(players)]
    wins = [0.0] * players
    mixed = len(set(levels)) > 1
    level_wins = dict.fromkeys(levels, 0.0)
    level_scores: dict[str, list[float]] = {level: [] for level in levels}
    level_ms: dict[str, list[float]] = {level: [] for level in levels}
    decisions = 0
    elapsed = cpu = 0.0
    for i in range(count):
        game_seed = seed + i
        seated = levels[i % players :] + levels[: i % players] if mixed else levels
        seats: list[Player] = [game.ai(level, game_seed * 31 + s) for s, level in enumerate(seated)]
        spent: list[list[float]] = [[] for _ in range(players)]
        with _no_cyclic_gc():
            started, started_cpu = time.perf_counter(), time.process_time()
            state = game.new(players, game_seed, options)
            decisions += _timed_play_out(game, state, seats, spent) if mixed else play_out(game, state, seats)
            elapsed += time.perf_counter() - started
            cpu += time.process_time() - started_cpu
        result = game.outcome(state)
        assert result is not None, "play_out ended before the game did"
        for s, score in enumerate(result["scores"]):
            scores[s].append(score)
            level_scores[seated[s]].append(score)
            level_ms[seated[s]] += spent[s]
        # the seats ranked first (the contract's "ranking"; "winners" is an extra not every game gives)
        winners = [s for s, rank in enumerate(result["ranking"]) if rank == 1]
        for w in winners:
            wins[w] += 1 / len(winners)  # a shared victory is split between the winners
            level_wins[seated[w]] += 1 / len(winners)
    report: dict[str, Any] = {
        "game": game.key,
        "players": players,
        "games": count,
        "seed": seed,
        "ai": levels,
        "seat_order": "rotated" if mixed else "fixed",
        "options": game.resolve_options(options),
        "seconds": round(elapsed, 4),
        "cpu_seconds": round(cpu, 4),
        # Per second of this process's CPU time: what one core does, even on a shared, busy machine.
        "games_per_second": round(count / cpu, 1) if cpu else None,
        "wall_games_per_second": round(count / elapsed, 1) if elapsed else None,
        "decisions_per_game": round(decisions / count, 1),
        "compiled": running_compiled(),  # engine modules running compiled (python -m games.build), if any
        "mean_score": [round(statistics.fmean(s), 2) for s in scores],
        "stdev_score": [round(statistics.pstdev(s), 2) for s in scores],
        "win_rate": [round(w / count, 4) for w in wins],
    }
    if mixed:
        report["levels"] = {}
        for level in level_wins:
            trials = count * levels.count(level)
            low, high = wilson(level_wins[level], trials)
            ms = level_ms[level]
            report["levels"][level] = {
                "seats": levels.count(level),
                "win_rate": round(level_wins[level] / trials, 4),
                "win_rate_95": [round(low, 4), round(high, 4)],
                "mean_score": round(statistics.fmean(level_scores[level]), 2),
                "decisions": len(ms),
                "cpu_ms_median": round(statistics.median(ms), 3) if ms else None,
                "cpu_ms_p90": round(_percentile(ms, 0.9), 3) if ms else None,
            }
    return report


def _visible(event: dict[str, Any], seat: int) -> bool:
    return "to" not in event or event["to"] == seat


def _ask(prompt: Prompt, read: Callable[[str], str]) -> list[str]:
    """The choices picked by their numbers in the list (1-based) and nothing else: a card's own number
    is part of its label, never the answer. Asks again until the answer is `pick` different numbers."""
    print(f"\n{prompt.text or prompt.kind} (choose {prompt.pick}):")
    for n, choice in enumerate(prompt.choices, 1):
        print(f"  {n}. {choice.label}")
    while True:
        tokens = read("> ").replace(",", " ").split()
        numbers = [int(t) for t in tokens if t.isdigit()]
        if (
            len(numbers) == len(tokens) == prompt.pick
            and len(set(numbers)) == len(numbers)
            and all(1 <= n <= len(prompt.choices) for n in numbers)
        ):
            return [prompt.choices[n - 1].id for n in numbers]
        print(f"Answer with {prompt.pick} different number(s) from 1 to {len(prompt.choices)}.")


def play(
    game: Game[Any],
    players: int,
    seat: int,
    level: str,
    seed: int,
    options: dict[str, Any],
    read: Callable[[str], str] = input,
) -> int:
    """A terminal game: one human seat, AI seats for the others. Shows only what that seat may know."""
    state = game.new(players, seed, options)
    ais = {s: game.ai(level, seed * 31 + s) for s in range(players) if s != seat}
    print(f"{game.title}: you are player {seat + 1} of {players}.")
    print("(python -m bot.terminal plays the same game told in the Discord table's own words.)")
    shown_view = ""
    while True:
        prompts = game.prompts(state)
        if not prompts:
            break
        mine = next((p for p in prompts if p.seat == seat), None)
        for prompt in prompts:
            if prompt.seat == seat:
                continue
            events = game.apply(state, prompt.seat, ais[prompt.seat].choose(game, state, prompt))
            for event in events:
                if _visible(event, seat):
                    print("  " + format_event(event))
        if mine is None:
            continue
        view_text = game.describe(game.view(state, seat))
        if view_text != shown_view:
            print("\n" + view_text)
            shown_view = view_text
        while True:
            try:
                choice = _ask(mine, read)
            except EOFError:
                print("\nBye.")
                return 1
            try:
                events = game.apply(state, seat, choice)
            except IllegalAction as exc:
                print(f"Not allowed: {exc}")
                continue
            break
        for event in events:
            if _visible(event, seat):
                print("  " + format_event(event))
    print("\n" + game.describe(game.view(state, seat)))
    result = game.outcome(state)
    print(
        f"\nGame over. Scores: {result['scores'] if result else '?'}; "
        f"winners: {[w + 1 for w in result['winners']] if result else '?'}"
    )
    return 0


def add_game_arguments(parser: argparse.ArgumentParser, *, playing: bool) -> None:
    """The arguments naming a game and its table (`play` also takes the human's seat and the AI level)."""
    parser.add_argument("game", help="game key, see `python -m games list`")
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    if playing:
        parser.add_argument("--seat", type=int, default=1, help="your seat, 1-based")
        parser.add_argument("--ai", default=None, help="the AI seats' level (default: heuristic, else the game's best)")


def checked_game(args: argparse.Namespace, *, playing: bool) -> tuple[Game[Any], dict[str, Any]] | None:
    """The game and its resolved options from those arguments, or None after saying what is wrong."""
    try:
        game = games.get(args.game)
        options = game.resolve_options(_parse_options(args.option))
        game.check_players(args.players)
    except (KeyError, ValueError) as exc:
        print(f"error: {exc.args[0]}", file=sys.stderr)
        return None
    if playing and not 1 <= args.seat <= args.players:
        print(f"error: --seat must be 1..{args.players}", file=sys.stderr)
        return None
    if playing:
        # the level the table seats by default (table.core.stand_in_level): not every game has a heuristic
        args.ai = args.ai or ("heuristic" if "heuristic" in game.ai_levels else game.ai_levels[-1])
        if args.ai not in game.ai_levels:
            print(f"error: --ai must be one of {', '.join(game.ai_levels)}", file=sys.stderr)
            return None
    return game, options


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m games", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="list the registered games and their options")
    for name in ("simulate", "play"):
        p = sub.add_parser(name)
        add_game_arguments(p, playing=name == "play")
        if name == "simulate":
            p.add_argument("--games", type=int, default=100)
            p.add_argument("--ai", default="random", help="random, heuristic, expert, or one level per seat: a,b,c")
            p.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    if args.command == "list":
        for key in games.keys():
            game = games.get(key)
            print(f"{key}: {game.title} ({game.min_players}-{game.max_players} players)")
            for o in game.options:
                print(f"    {o.name} = {o.default!r} of {list(o.values)}: {o.description}")
        return 0

    checked = checked_game(args, playing=args.command == "play")
    if checked is None:
        return 2
    game, options = checked
    if args.command == "simulate":
        report = simulate(game, args.players, args.games, args.seed, _seat_levels(args.ai, args.players), options)
        if args.json:
            print(json.dumps(report))
        else:
            print(f"{game.title}, {args.players} players, {args.games} games, AI {','.join(report['ai'])}")
            print(
                f"  {report['games_per_second']} games per CPU second ({report['cpu_seconds']} s CPU, "
                f"{report['seconds']} s wall, {report['decisions_per_game']} decisions per game)"
            )
            print(f"  compiled modules: {', '.join(report['compiled']) or 'none (interpreted)'}")
            print(f"  mean score per seat: {report['mean_score']}")
            print(f"  win rate per seat:   {report['win_rate']}")
            for level, figures in report.get("levels", {}).items():
                low, high = figures["win_rate_95"]
                print(
                    f"  {level} ({figures['seats']} seat{'s' if figures['seats'] > 1 else ''}, rotated): wins "
                    f"{figures['win_rate']:.1%} (95%: {low:.1%}-{high:.1%}), CPU per decision median "
                    f"{figures['cpu_ms_median']} ms, p90 {figures['cpu_ms_p90']} ms"
                )
        return 0
    return play(game, args.players, args.seat - 1, args.ai, args.seed, options)


if __name__ == "__main__":
    sys.exit(main())
