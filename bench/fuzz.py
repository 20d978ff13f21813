"""Hostile input, the long version: `python -m bench fuzz --examples N [--seed S]`.

Builds one arena (harness/hostile.py: games of every kind and state, in several guilds) and
hits it with N generated interactions (harness/hostile_inputs.py), two thirds components
(forged clicks and selects) and one third slash commands, some with damaged payloads. Every example
must be answered exactly once, log no error and change nothing unless it was a legitimate move.
Prints how many were tried, delivered, accepted, and every failure; saves the figures for
bench/REPORT.md. The short CI version is tests/test_fuzz_interactions.py.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bench import results

KINDS = ("unanswered", "answered twice", "unhandled exceptions", "state changes by refused input", "unclear answers")
TARGETS = {"failures": "0", **{kind: "0" for kind in KINDS}}


def run(examples: int, seed_value: int) -> dict[str, Any]:
    from hypothesis import HealthCheck, given, seed, settings
    from hypothesis import strategies as st

    from harness.hostile import Broken, build_arena, close_loop
    from harness.hostile_inputs import hostile

    loop = asyncio.new_event_loop()
    failures: list[str] = []
    kinds: Counter[str] = Counter({kind: 0 for kind in KINDS})
    with tempfile.TemporaryDirectory() as folder:
        arena = loop.run_until_complete(build_arena(Path(folder) / "bot.sqlite3", seed=seed_value))
        started = time.perf_counter()
        cpu = time.process_time()

        @seed(seed_value)
        @settings(max_examples=examples, deadline=None, database=None, suppress_health_check=list(HealthCheck))
        @given(data=st.data())
        def hit(data: st.DataObject) -> None:
            example = data.draw(hostile(arena))
            try:
                loop.run_until_complete(arena.hit(example))
            except Broken as exc:
                failures.append(str(exc))
                kinds[exc.kind] += 1
                arena.h._errors.records.clear()  # report each failure once and carry on

        hit()
        elapsed = time.perf_counter() - started
        cpu = time.process_time() - cpu
        loop.run_until_complete(arena.cache_agrees())
        loop.run_until_complete(arena.h.close())
    close_loop(loop)
    tally = dict(arena.tally)
    tried = arena.tried
    return {
        "examples tried": tried,
        "failures": len(failures),
        **dict(kinds),
        "tally": tally,
        "seconds": round(elapsed, 1),
        "cpu seconds": round(cpu, 1),
        "failure list": failures,
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench fuzz", description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=300, help="generated interactions (default 300)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the generator and of the games")
    parser.add_argument("--no-save", action="store_true", help="do not write bench/results/fuzz.json")
    args = parser.parse_args(argv)
    figures = run(args.examples, args.seed)
    tally = figures.pop("tally")
    failures = figures.pop("failure list")
    print(
        f"hostile interactions tried: {figures['examples tried']} in {figures['seconds']} s "
        f"({figures['cpu seconds']} s CPU)"
    )
    for name in sorted(tally):
        print(f"  {name}: {tally[name]}")
    print(f"failures: {figures['failures']}")
    for failure in failures[:50]:
        print(f"  {failure}")
    if not args.no_save:
        figures.update(tally)
        results.save(
            "fuzz",
            f"python -m bench fuzz --examples {args.examples} --seed {args.seed}",
            figures,
            title="Hostile input (forged clicks, selects, commands, damaged payloads)",
            targets=TARGETS,
            notes="In-process harness, real discord.py; invariants per example: answered exactly once, "
            "no error logged, no change unless a legitimate move (harness/hostile.py).",
        )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
