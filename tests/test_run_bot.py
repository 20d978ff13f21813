"""The harness's bot subprocess ends with whatever started it (harness.run_bot.leave_with_parent)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from harness.run_bot import ROOT

# A middle process starts a child that watches it (as `python -m harness.run_bot` watches the test or
# bench that started it), prints the child's pid, then waits to be killed.
MIDDLE = """
import os, subprocess, sys
env = {**os.environ, "HARNESS_PARENT_PID": str(os.getpid())}
child = subprocess.Popen([sys.executable, "-c", CHILD], cwd=sys.argv[1], env=env)
print(child.pid, flush=True)
child.wait()
"""
CHILD = """
import os, time
from harness.run_bot import leave_with_parent
leave_with_parent(int(os.environ["HARNESS_PARENT_PID"]), every=0.05)
time.sleep(60)
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat", "rb") as stat:  # a child not yet reaped by init is a zombie
        return stat.read().rpartition(b")")[2].split()[0] != b"Z"


def test_a_bot_whose_starter_is_killed_ends_too() -> None:
    middle = subprocess.Popen(
        [sys.executable, "-c", MIDDLE.replace("CHILD", repr(CHILD)), str(ROOT)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert middle.stdout is not None
    child = int(middle.stdout.readline())
    try:
        time.sleep(0.3)
        assert _alive(child), "the child runs while its parent does"
        middle.send_signal(signal.SIGKILL)
        middle.wait()
        for _ in range(400):  # (its imports may take a few seconds on a busy machine)
            if not _alive(child):
                break
            time.sleep(0.05)
        assert not _alive(child), "the child ended once its parent was killed"
    finally:
        if _alive(child):
            os.kill(child, signal.SIGKILL)
