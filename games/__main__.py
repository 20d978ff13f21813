"""Command-line tools for the engines.

python -m games list
python -m games simulate GAME --players N --games K --seed S [--ai random|heuristic|a,b,..] [--json]
python -m games play GAME --players N [--seat 0] [--ai heuristic] [--seed S]
"""

from __future__ import annotations

import argparse
import gc
import json
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


def simulate(
    game: Game[Any], players: int, count: int, seed: int, levels: list[str], options: dict[str, Any]
) -> dict[str, Any]:
    """Play `count` AI games; return throughput and score statistics."""
    scores: list[list[float]] = [[] for _ in range(players)]
    wins = [0.0] * players
    decisions = 0
    elapsed = cpu = 0.0
    for i in range(count):
        game_seed = seed + i
        seats: list[Player] = [game.ai(level, game_seed * 31 + s) for s, level in enumerate(levels)]
        with _no_cyclic_gc():
            started, started_cpu = time.perf_counter(), time.process_time()
            state = game.new(players, game_seed, options)
            decisions += play_out(game, state, seats)
            elapsed += time.perf_counter() - started
            cpu += time.process_time() - started_cpu
        result = game.outcome(state)
        assert result is not None, "play_out ended before the game did"
        for s, score in enumerate(result["scores"]):
            scores[s].append(score)
        for w in result["winners"]:
            wins[w] += 1 / len(result["winners"])  # a shared victory is split between the winners
    return {
        "game": game.key,
        "players": players,
        "games": count,
        "seed": seed,
        "ai": levels,
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


def _visible(event: dict[str, Any], seat: int) -> bool:
    return "to" not in event or event["to"] == seat


def _ask(prompt: Prompt, read: Callable[[str], str]) -> list[str]:
    print(f"\n{prompt.text or prompt.kind} (choose {prompt.pick}):")
    for n, choice in enumerate(prompt.choices, 1):
        print(f"  {n}. {choice.label}  [{choice.id}]")
    answer = read("> ").replace(",", " ").split()
    picked: list[str] = []
    for token in answer:
        if token.isdigit() and 1 <= int(token) <= len(prompt.choices):
            picked.append(prompt.choices[int(token) - 1].id)
        else:
            picked.append(token)
    return picked


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
    print(f"{game.title}: you are seat {seat + 1} of {players}.")
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


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m games", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="list the registered games and their options")
    for name in ("simulate", "play"):
        p = sub.add_parser(name)
        p.add_argument("game", help="game key, see `python -m games list`")
        p.add_argument("--players", type=int, required=True)
        p.add_argument("--seed", type=int, default=1)
        p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
        if name == "simulate":
            p.add_argument("--games", type=int, default=100)
            p.add_argument("--ai", default="random", help="random, heuristic, or one level per seat: a,b,c")
            p.add_argument("--json", action="store_true")
        else:
            p.add_argument("--seat", type=int, default=1, help="your seat, 1-based")
            p.add_argument("--ai", default="heuristic")
    args = parser.parse_args(argv)

    if args.command == "list":
        for key in games.keys():
            game = games.get(key)
            print(f"{key}: {game.title} ({game.min_players}-{game.max_players} players)")
            for o in game.options:
                print(f"    {o.name} = {o.default!r} of {list(o.values)}: {o.description}")
        return 0

    try:
        game = games.get(args.game)
        options = game.resolve_options(_parse_options(args.option))
        game.check_players(args.players)
    except (KeyError, ValueError) as exc:
        print(f"error: {exc.args[0]}", file=sys.stderr)
        return 2
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
        return 0
    if not 1 <= args.seat <= args.players:
        print(f"error: --seat must be 1..{args.players}", file=sys.stderr)
        return 2
    return play(game, args.players, args.seat - 1, args.ai, args.seed, options)


if __name__ == "__main__":
    sys.exit(main())
