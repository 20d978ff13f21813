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

from bench.load.plan import LIMIT_TARGETS, MODES, TARGETS
from bench.load.report import report
from bench.load.runner import rate_limits, run


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
    parser.add_argument("--think", type=float, default=3.0, help="mean think time in seconds (uniform 0..2x)")
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
    parser.add_argument("--no-save", action="store_true", help="print only; leave bench/results alone")
    parser.add_argument("--workdir", default=None, help="keep the bot's log and the SQLite files here")
    args = parser.parse_args(argv)
    if args.record is not None and args.mode != "loopback":
        parser.error("--record needs --mode loopback (the bot in its own process)")
    root = Path(__file__).resolve().parents[2]
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="load-") as temporary:
        directory = Path(args.workdir or temporary)
        directory.mkdir(parents=True, exist_ok=True)
        figures = asyncio.run(
            run(
                args.games,
                database_url=args.database_url,
                think=args.think,
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
