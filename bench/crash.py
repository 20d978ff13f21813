"""Crash proof: the real bot in a subprocess, killed with SIGKILL at random moments while people play.

    python -m bench crash --kills 100 [--tables 3] [--seed 1] [--database-url URL]
    python -m bench crash --kills 100 --processes 2 --database-url postgresql+asyncpg://.../EMPTY_DB

A loopback fake Discord (fakediscord/loopback.py) serves REST and the gateway on 127.0.0.1; the
bot runs its production entry (harness/run_bot.py) on one database. Scripted players open
lobbies of all three games (2-6 seats, some AI seats), join, start and decide by clicking the
buttons the bot sent them (their DM, or "/game hand" when a crash left their DM behind), several
tables at once. Meanwhile the bot is killed (SIGKILL) at random moments and restarted on the same
database, `--kills` times; then the running games are played to the end.

Checked, and reported:
- every acknowledged decision (a click whose "You chose" answer reached the fake) is in the action
  log: the seat's first action after the sequence number the button was offered at is that choice;
- every game started finishes;
- buttons sent before a crash work after it: the players go on from the messages they had, and after
  each restart a few buttons of older snapshots (including the ones taken just before the kill) are
  clicked again: each must be answered (decided, or refused as no longer available), never lost;
- every interaction gets an answer, except the ones in flight at a kill (Discord would show
  "interaction failed"; the player clicks again) and the ones sent while the bot was down.
The database must be empty (a fresh SQLite file in a temporary directory by default).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from dataclasses import asdict
from pathlib import Path
from typing import IO

from bench._crash_run import CrashRun, Figures, count_errors
from bench._sharding import TWO, ShardedRun
from fakediscord.loopback import Loopback
from harness.keep import keep_run
from storage import Database


async def crash(
    kills: int,
    *,
    tables: int = 3,
    seed: int = 1,
    database_url: str | None = None,
    workdir: Path,
    max_gap: float = 3.0,
    processes: int = 1,
) -> Figures:
    """Run the crash script; the bot's log is left in `workdir`/bot.log. With `processes=2` (PostgreSQL
    only) the bot runs as two processes, shards 0-1 and 2-3 (bench.shards), killed in turn, and the
    action log is checked for a click applied twice. A failing run also leaves the fake Discord's record
    and the database rows in `workdir` (harness/keep.py)."""
    url = database_url or f"sqlite+aiosqlite:///{workdir / 'crash.sqlite3'}"
    loopback = await Loopback.start()
    log_path = workdir / "bot.log"
    try:
        with open(log_path, "wb") as log:  # noqa: ASYNC230 - opened once, before anything runs
            if processes == 1:
                run = CrashRun(loopback, url, kills=kills, tables=tables, seed=seed, log=log, max_gap=max_gap)
                figures = await run.run()
            else:
                figures = await _sharded(loopback, url, processes, kills, tables, seed, log, max_gap)
        figures.bot_errors = count_errors(log_path)
        if loopback.unknown:
            figures.problems += [f"the fake does not know {u}" for u in loopback.unknown]
        if not figures.ok() or figures.bot_errors:
            await keep_run(workdir, fake=loopback.fake, database_url=url, logs=[])
    finally:
        await loopback.close()
    return figures


async def _sharded(
    loopback: Loopback, url: str, processes: int, kills: int, tables: int, seed: int, log: IO[bytes], max_gap: float
) -> Figures:
    if processes != len(TWO):
        raise SystemExit(f"--processes is 1 or {len(TWO)}")
    run = ShardedRun(loopback, url, split=TWO, kills=kills, tables=tables, seed=seed, log=log, max_gap=max_gap)
    try:
        figures = await run.run()
        run.db = await Database.open(url)
        try:
            doubled = await run.doubled()
        finally:
            await run.db.close()
    finally:
        await run.stop()
    figures.decisions_doubled = len(doubled)
    figures.problems += [f"applied twice: {d}" for d in doubled]
    return figures


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench crash", description=__doc__.split("\n")[0])
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--tables", type=int, default=3, help="games played at once (one channel each)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-gap", type=float, default=3.0, help="longest wait between restart and kill (s)")
    parser.add_argument("--database-url", default=None, help="an EMPTY database (default: a fresh SQLite file)")
    parser.add_argument("--workdir", default=None, help="keep the bot's log (and the SQLite file) here")
    parser.add_argument(
        "--processes", type=int, default=1, choices=(1, 2), help="2: two bot processes (shards 0-1, 2-3), PostgreSQL"
    )
    args = parser.parse_args(argv)
    if args.processes > 1 and not str(args.database_url or "").startswith("postgres"):
        print("--processes 2 needs --database-url postgresql+asyncpg://... (an empty database)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="crash-") as tmp:
        workdir = Path(args.workdir or tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        figures = asyncio.run(
            crash(
                args.kills,
                tables=args.tables,
                seed=args.seed,
                database_url=args.database_url,
                workdir=workdir,
                max_gap=args.max_gap,
                processes=args.processes,
            )
        )
        if figures.bot_errors:
            print(Path(workdir, "bot.log").read_text(encoding="utf-8", errors="replace")[-4000:], file=sys.stderr)
    shown = {k: v for k, v in asdict(figures).items() if k != "problems"}
    for name, value in shown.items():
        print(f"{name:>24}: {value}")
    for problem in figures.problems[:20]:
        print("PROBLEM:", problem)
    command = "python -m bench crash " + " ".join(argv) if argv else "python -m bench crash"
    from bench.results import save

    two = args.processes > 1
    save(
        "crash_two_processes" if two else "crash",
        command,
        shown,
        title="Crash proof, two bot processes on PostgreSQL (SIGKILL of either in turn, restart)"
        if two
        else "Crash proof (SIGKILL at random moments, restart on the same database)",
        targets={
            "kills_survived": f">= {args.kills}",
            "decisions_lost": "0",
            "games_unfinished": "0",
            "unanswered": "0",
            "old_buttons_dead": "0",
            "games_stalled": "0",
            "bot_errors": "0",
            **({"decisions_doubled": "0"} if two else {}),
        },
        notes="in_flight_at_kill: interactions the bot was killed before answering (Discord shows "
        "'interaction failed'; the scripted player clicks again). hand_recoveries: '/game hand' used because "
        "a kill left a player's DM behind. restart_median_s: spawn to gateway READY on this shared machine.",
    )
    return 0 if figures.ok() else 1
