"""`python -m bench load`: its options, the run, the saved figures."""

from __future__ import annotations

import argparse
import ast
import asyncio
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    pass

from bench.load.capacity import THINK, Ramp
from bench.load.plan import LIMIT_TARGETS, MODES, TARGETS, THINK_DISTRIBUTIONS
from bench.load.report import capacity_report, report
from bench.load.runner import rate_limits, run, sqlite_url

DEFAULT_RAMP = Ramp()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench load", description=_package_doc(), formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument(
        "--database-url",
        default=None,
        help="postgresql+asyncpg://... (an EMPTY database: the fake's ids restart at each run); "
        "SQLite in a temporary file otherwise",
    )
    parser.add_argument(
        "--mode",
        choices=MODES,
        default="loopback",
        help="loopback: the bot in its own process (default); inprocess: one process, for profiling",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=None,
        help=f"think time in seconds: the mean (uniform 0..2x) or the median (lognormal); default 3, "
        f"{THINK.seconds:g} with --capacity",
    )
    parser.add_argument(
        "--think-distribution",
        choices=THINK_DISTRIBUTIONS,
        default=None,
        help=f"how think times spread (default uniform; {THINK.distribution} with --capacity: a human pace)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--memory-games",
        type=int,
        default=100,
        help="games opened in process with memory tracing on (SQLite only; 0: skip)",
    )
    parser.add_argument("--open-concurrency", type=int, default=16, help="lobbies opened at a time")
    parser.add_argument(
        "--duration",
        type=float,
        default=None,
        help="stop clicking after this many seconds of play (default: play every game to its end)",
    )
    parser.add_argument("--only", default=None, help="one game key instead of the mix (for profiling)")
    parser.add_argument(
        "--no-limits",
        action="store_true",
        help="the loopback fake answers at once (default: Discord's 5 messages per 5 s per channel)",
    )
    parser.add_argument(
        "--no-global-limit",
        action="store_true",
        help="leave out Discord's global limit (50 requests per second, interactions exempt; on by default): "
        "the fake does not apply it and the bot does not pace itself under it",
    )
    parser.add_argument(
        "--with-floor",
        action="store_true",
        help="measure the floor (python -m bench floor) in the same run, first: the CPU ratio to it",
    )
    parser.add_argument(
        "--ai-level",
        choices=("heuristic", "expert"),
        default="heuristic",
        help="the level of the AI seats (expert: saved as load-<database>-expert)",
    )
    parser.add_argument(
        "--record",
        type=Path,
        default=None,
        metavar="RUN_DIR",
        help="keep what the bot sent while playing (loopback), for `python -m bench floor --same-work RUN_DIR`",
    )
    parser.add_argument(
        "--capacity",
        action="store_true",
        help="find the most concurrent games the machine holds at a human pace (bench/load/capacity.py): "
        "one bot process taken up level by level until prompt p99 >= 500 ms or a 429",
    )
    parser.add_argument(
        "--capacity-start", type=int, default=DEFAULT_RAMP.start, help="games of the first level (--capacity)"
    )
    parser.add_argument(
        "--capacity-step", type=int, default=DEFAULT_RAMP.step, help="games added at each level (--capacity)"
    )
    parser.add_argument(
        "--capacity-max", type=int, default=DEFAULT_RAMP.maximum, help="the most games tried (--capacity)"
    )
    parser.add_argument(
        "--window", type=float, default=DEFAULT_RAMP.window, help="seconds each level is measured (--capacity)"
    )
    parser.add_argument(
        "--settle",
        type=float,
        default=DEFAULT_RAMP.settle,
        help="seconds between a level's games all open and its window (--capacity)",
    )
    parser.add_argument("--no-save", action="store_true", help="print only; leave bench/results alone")
    parser.add_argument("--workdir", default=None, help="keep the bot's log and the SQLite files here")
    args = parser.parse_args(argv)
    if args.record is not None and args.mode != "loopback":
        parser.error("--record needs --mode loopback (the bot in its own process)")
    root = Path(__file__).resolve().parents[2]
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    if args.capacity:
        return _capacity(parser, args, argv)
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="load-") as temporary:
        directory = Path(args.workdir or temporary)
        directory.mkdir(parents=True, exist_ok=True)
        figures = asyncio.run(
            run(
                args.games,
                database_url=args.database_url,
                think=3.0 if args.think is None else args.think,
                think_distribution=args.think_distribution or "uniform",
                seed=args.seed,
                memory_games=args.memory_games,
                directory=directory,
                only=args.only,
                duration=args.duration,
                mode=args.mode,
                open_concurrency=args.open_concurrency,
                limits=rate_limits(per_channel=not args.no_limits, global_limit=not args.no_global_limit),
                with_floor=args.with_floor,
                ai_level=args.ai_level,
                record=args.record,
            )
        )
    # The machine is shared: its load (1-minute average, all cores) says how far apart runs can be compared.
    figures["machine_load"] = {"before": round(load_before[0], 2), "after": round(os.getloadavg()[0], 2)}
    if args.record is not None:
        from bench import results

        meta = json.loads((args.record / "meta.json").read_text(encoding="utf-8"))
        meta.update(command=results.command("load", argv), machine_load=figures["machine_load"], uptime=uptime())
        (args.record / "meta.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    print(report(figures))
    if not args.no_save:
        from bench import results

        # One record per database, size and limit: the limits issue compares runs of one sitting.
        unlimited = args.no_global_limit and args.mode == "loopback"
        name = (
            f"load-{figures['database']}-{args.games}"
            + ("-no-global-limit" if unlimited else "")
            + ("" if args.ai_level == "heuristic" else f"-{args.ai_level}")
        )
        where = "in its own process" if args.mode == "loopback" else "in process"
        limit = "without the global limit" if unlimited else "within Discord's limits"
        results.save(
            name,
            results.command("load", argv),
            figures,
            title=f"Load: {args.games} concurrent games ({figures['database']}, bot {where}, {limit}"
            + ("" if args.ai_level == "heuristic" else f", {args.ai_level} AI seats")
            + ")",
            targets={**(TARGETS if figures["database"] == "sqlite" else {}), **LIMIT_TARGETS},
            notes=_figures_doc(),
        )
    return 0 if figures["errors"] == 0 and figures["unanswered"] == 0 else 1


def _capacity(parser: argparse.ArgumentParser, args: argparse.Namespace, argv: list[str]) -> int:
    """`--capacity`: the search, its report, and its figures and curve saved (unless --no-save)."""
    from bench.load import capacity
    from bench.load.plan import ThinkTime

    if args.mode != "loopback" or args.record is not None or args.duration is not None:
        parser.error("--capacity runs the bot in its own process (loopback), with --window rather than --duration")
    if not 0 < args.capacity_start <= args.capacity_max or args.capacity_step <= 0:
        parser.error("--capacity needs 0 < --capacity-start <= --capacity-max and --capacity-step > 0")
    ramp = Ramp(args.capacity_start, args.capacity_step, args.capacity_max, args.window, args.settle)
    think = ThinkTime(
        THINK.seconds if args.think is None else args.think, args.think_distribution or THINK.distribution
    )
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="capacity-") as temporary:
        directory = Path(args.workdir or temporary)
        directory.mkdir(parents=True, exist_ok=True)
        figures = asyncio.run(
            capacity.search(
                ramp,
                url=args.database_url or sqlite_url(directory),
                directory=directory,
                seed=args.seed,
                limits=rate_limits(per_channel=not args.no_limits, global_limit=not args.no_global_limit),
                think=think,
                open_concurrency=args.open_concurrency,
                only=args.only,
                ai_level=args.ai_level,
            )
        )
    figures["machine_load"] = {"before": round(load_before[0], 2), "after": round(os.getloadavg()[0], 2)}
    figures["uptime_after"] = uptime()
    print(capacity_report(figures))
    if not args.no_save:
        from bench import results

        print(capacity.save(figures, results.command("load", argv)))
    return 0 if figures["errors"] == 0 else 1


def uptime() -> str:
    """`uptime`'s line (the machine's load as it says it), or "" where there is none."""
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, timeout=5).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def _package_doc() -> str:
    """What `python -m bench load` does and measures: the package's docstring, without its module list (read
    from its source: this module is part of the package, which imports it)."""
    source = Path(__file__).with_name("__init__.py").read_text(encoding="utf-8")
    return (ast.get_docstring(ast.parse(source)) or "").split("The package:", 1)[0].strip()


def _figures_doc() -> str:
    """The package docstring's account of the figures (saved with them)."""
    return _package_doc().split("Figures", 1)[-1].strip()
