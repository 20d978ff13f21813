"""Run one test N times in a row, each in a fresh pytest process, keeping the record of every failure.

    python -m harness.repeat TEST_ID [--runs 100] [--until-failure] [--keep DIR] [--log-level INFO]
    make repeat TEST=tests/test_shards.py::test_two_processes_play_through_kills_of_either N=100

A race that fails one run in fifty needs the runs and what each failing one left: each run gets
KEEP_FAILED_RUN=DIR/run-NNN (tests that request the `kept_on_failure` fixture write their bot logs,
database rows and fake Discord record there when they fail; harness/keep.py) and
BOT_LOG_LEVEL (the bot subprocesses' log level: INFO logs every decision with its game and version).
pytest's own output of a failing run goes to DIR/run-NNN/pytest.txt. The summary (runs, failures,
their first lines, durations) is printed and written to DIR/summary.json.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from harness.run_bot import ROOT


def first_failure_line(output: str) -> str:
    """The line that says why: pytest's `E ` lines, the first one that is not just `assert`."""
    for line in output.splitlines():
        if line.startswith("E ") and line[2:].strip() not in ("", "assert"):
            return line[2:].strip()[:400]
    return output.strip().splitlines()[-1][:400] if output.strip() else "(no output)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m harness.repeat", description=__doc__.split("\n")[0])
    parser.add_argument("test", help="a pytest node id")
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--until-failure", action="store_true", help="stop at the first failing run")
    parser.add_argument("--keep", default=None, help="where failing runs are kept (default: a new temp directory)")
    parser.add_argument("--log-level", default="INFO", help="the bot subprocesses' LOG_LEVEL (BOT_LOG_LEVEL)")
    args = parser.parse_args(argv)
    keep = Path(args.keep or tempfile.mkdtemp(prefix="repeat-"))
    keep.mkdir(parents=True, exist_ok=True)
    failures: list[dict[str, object]] = []
    durations: list[float] = []
    runs = 0
    for run in range(1, args.runs + 1):
        folder = keep / f"run-{run:03d}"
        env = {**os.environ, "KEEP_FAILED_RUN": str(folder), "BOT_LOG_LEVEL": args.log_level}
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x", args.test],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        durations.append(time.perf_counter() - started)
        runs = run
        output = done.stdout + done.stderr
        passed = done.returncode == 0 and " passed" in output and " skipped" not in output
        if not passed:
            folder.mkdir(parents=True, exist_ok=True)
            (folder / "pytest.txt").write_text(output)
            why = first_failure_line(output)
            failures.append({"run": run, "code": done.returncode, "why": why, "kept": str(folder)})
        print(
            f"run {run}/{args.runs}: {'passed' if passed else 'FAILED: ' + str(failures[-1]['why'])} "
            f"({durations[-1]:.0f} s)",
            flush=True,
        )
        if failures and args.until_failure:
            break
    summary = {
        "test": args.test,
        "runs": runs,
        "failures": len(failures),
        "failed_runs": failures,
        "median_s": round(statistics.median(durations), 1) if durations else None,
        "load_average": os.getloadavg(),
    }
    (keep / "summary.json").write_text(json.dumps(summary, indent=1))
    print(f"{runs} runs, {len(failures)} failed; median {summary['median_s']} s; kept in {keep}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
