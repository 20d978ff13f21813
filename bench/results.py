"""Where benchmarks leave their latest figures, for `python -m bench report` to gather into bench/REPORT.md.

Each benchmark that belongs in the report calls `save(name, command, figures, ...)` once it has
measured: one JSON file per benchmark under bench/results/, overwritten by the next run, so the
report always shows the latest figures next to the exact command that produced them.
"""

from __future__ import annotations

import json
import os
import platform
import shlex
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"


def machine() -> str:
    """A one-line description of where the figures were measured."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            names = [line.split(":", 1)[1].strip() for line in info if line.startswith("model name")]
        if names:
            cpu = names[0]
    except OSError:
        pass
    return f"{os.cpu_count()} cores, {cpu}, Python {platform.python_version()}, {platform.system()}"


def _commit() -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, timeout=5, cwd=RESULTS.parent
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return out.stdout.strip() or "unknown"


def command(name: str, argv: list[str]) -> str:
    """The command line that ran benchmark `name` with `argv`, as the report shows it (database URLs,
    which may hold a password, are replaced by a placeholder)."""
    shown = ["<database url>" if "://" in a else a for a in argv]
    return " ".join(["python -m bench", name, *(shlex.quote(a) for a in shown)])


def save(
    name: str,
    command: str,
    figures: dict[str, Any],
    *,
    title: str | None = None,
    targets: dict[str, str] | None = None,
    notes: str = "",
    directory: Path | None = None,
    picture: str | None = None,
) -> Path:
    """Write bench/results/<name>.json: the figures (JSON values), the command and where they were measured.

    `targets` maps a figure's name to its target as text (">= 500", "< 100 ms", "0") so the report
    can show both side by side. `picture`: a picture of the figures (a file name beside bench/REPORT.md, which
    the report shows in the benchmark's section).
    """
    folder = directory or RESULTS
    folder.mkdir(parents=True, exist_ok=True)
    record = {
        "name": name,
        "title": title or name,
        "command": command,
        "figures": figures,
        "targets": targets or {},
        "notes": notes,
        **({"picture": picture} if picture else {}),
        "machine": machine(),
        "commit": _commit(),
        "measured_at": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    path = folder / f"{name}.json"
    path.write_text(json.dumps(record, indent=2, sort_keys=False) + "\n", encoding="utf-8")
    return path


def load_all(directory: Path | None = None) -> list[dict[str, Any]]:
    folder = directory or RESULTS
    return [json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.json"))]
