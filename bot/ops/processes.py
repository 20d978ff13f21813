"""Worker processes that leave with the bot: the picture workers (bot.render.kit.pool) and the AI's
(bot.app.thinking) both come from a forkserver, whose pipes a worker holds; a bot killed with SIGKILL never
says goodbye, so each worker watches for its bot and exits when it is gone."""

from __future__ import annotations

import os
import threading
import time

PARENT_CHECK_SECONDS = 0.5


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
        with open(f"/proc/{pid}/stat", "rb") as stat:  # a killed bot not yet reaped is a zombie
            return stat.read().rpartition(b")")[2].split()[0] != b"Z"
    except ProcessLookupError:
        return False
    except OSError:  # no /proc: the signal check alone
        return True


def follow_parent(bot_pid: int) -> None:
    """In a worker: leave when the bot is gone. A bot killed with SIGKILL never says so, and a worker
    (which holds the forkserver's pipes) would otherwise keep itself and the forkserver alive."""

    def watch() -> None:
        while alive(bot_pid):
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.name = "picture-worker-watch"
    watcher.start()
