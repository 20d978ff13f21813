"""Leaks, the long version: `python -m bench leaks --games N [--seed S]`.

Plays N random games through the harness (the three games in turn, random player counts, human
and AI seats, random variants, some players with closed DMs who play from "Show my hand") and
checks every message the bot sent or edited, for its audience, after every decision
(harness/leaks.py). Prints the messages and renders checked and every leak found; saves the
figures for bench/REPORT.md. The short CI version is tests/test_leaks.py.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bench import results


async def run(count: int, seed: int) -> dict[str, Any]:
    import games
    from harness import Harness
    from harness.leaks import LeakWatch, play_watched

    rng = random.Random(seed)
    played: Counter[str] = Counter()
    finished = 0
    with tempfile.TemporaryDirectory() as folder:
        h = await Harness.start(Path(folder) / "bot.sqlite3", seed=seed)
        watch = LeakWatch(h)
        started = time.perf_counter()
        cpu = time.process_time()
        try:
            with watch.installed():
                for i in range(count):
                    key = games.keys()[i % len(games.keys())]
                    channel = h.channel if i % 2 == 0 else h.other_channel
                    game_id = await play_watched(h, watch, channel, key, rng)
                    played[key] += 1
                    assert h.bot is not None
                    row = await h.bot.table.db.get_game(game_id)
                    finished += row is not None and row.status == "finished"
        finally:
            errors = h.errors
            await h.close()
    return {
        "games": count,
        "games finished": finished,
        **{f"games of {k}": v for k, v in sorted(played.items())},
        "messages checked": watch.messages_checked,
        "renders checked": watch.renders_checked,
        "leaks": len(watch.problems),
        "errors": len(errors),
        "seconds": round(time.perf_counter() - started, 1),
        "cpu seconds": round(time.process_time() - cpu, 1),
        "problems": watch.problems[:50] + errors[:10],
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench leaks", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="random games to play (default 6)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-save", action="store_true", help="do not write bench/results/leaks.json")
    args = parser.parse_args(argv)
    figures = asyncio.run(run(args.games, args.seed))
    problems = figures.pop("problems")
    for name, value in figures.items():
        print(f"{name}: {value}")
    for problem in problems:
        print(f"  {problem}")
    if not args.no_save:
        results.save(
            "leaks",
            f"python -m bench leaks --games {args.games} --seed {args.seed}",
            figures,
            title="Leaks (secrets in channel, thread and other players' messages)",
            targets={"leaks": "0", "errors": "0"},
            notes="Every message sent or edited, after every decision, against the secrets of the seats "
            "outside its audience (harness/leaks.py); renderer inputs checked against the "
            "engine's views of the stored state.",
        )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
