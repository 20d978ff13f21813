"""Measuring helpers the benchmarks share: a process's CPU time from /proc, and a nearest-rank percentile."""

from __future__ import annotations

import contextlib
import math
import os
from collections.abc import Sequence


def _stat(pid: int | str) -> list[str]:
    """The fields of /proc/PID/stat after the command name (state is [0], ppid [1], utime [11])."""
    with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
        return stat.read().rpartition(")")[2].split()


def cpu_seconds(pid: int, *, children: bool = False) -> float:
    """User + system CPU time of process `pid` so far (all its threads), from /proc. With `children`, its
    descendants' too (the bot's picture workers): live ones, and the ones it has waited for."""
    ticks = os.sysconf("SC_CLK_TCK")
    fields = _stat(pid)
    if not children:
        return (int(fields[11]) + int(fields[12])) / ticks
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError, IndexError):
                parents[int(entry)] = int(_stat(entry)[1])
    tree, grew = {pid}, True
    while grew:
        found = {child for child, parent in parents.items() if parent in tree}
        grew = not found <= tree
        tree |= found
    total = 0
    for member in tree:
        with contextlib.suppress(OSError, IndexError):
            fields = _stat(member)
            total += sum(int(f) for f in fields[11:15])  # utime, stime, cutime, cstime
    return total / ticks


def percentile(values: Sequence[float], fraction: float) -> float:
    """Nearest-rank percentile (0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(fraction * len(ordered)) - 1))]
