"""The bot in a subprocess, talking to the loopback fake Discord (fakediscord/loopback.py).

    python -m harness.run_bot        # env: LOOPBACK_URL=http://127.0.0.1:PORT, DATABASE_URL, ...

points discord.py's two network addresses at the loopback (the REST base `Route.BASE`, which the
interaction webhooks share, and the gateway `DiscordWebSocket.DEFAULT_GATEWAY`) and runs the real
production entry, `bot.__main__.main()`, with its settings from the environment. Nothing in the bot
is patched. `BotProcess.spawn(loopback, database_url, **settings)` starts one from a test.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    from fakediscord.loopback import Loopback

ROOT = Path(__file__).resolve().parents[1]


def point_at(url: str) -> None:
    import discord.gateway
    import discord.http
    import yarl

    discord.http.Route.BASE = f"{url}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url.replace("http://", "ws://") + "/gateway-ws/")


def leave_with_parent(parent: int, every: float = 0.5) -> threading.Thread:
    """End this process (at once) when `parent` is no longer its parent: a test or a bench killed with its
    bot still running (SIGKILL, a timeout, Ctrl-C on the shell) would otherwise leave the bot behind, busy
    with its games, its CPU spoiling the next measurement on the machine."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every)
        os._exit(0)

    watcher = threading.Thread(target=watch, name="leave-with-parent", daemon=True)
    watcher.start()
    return watcher


def main() -> int:
    leave_with_parent(int(os.environ.get("HARNESS_PARENT_PID", os.getppid())))
    point_at(os.environ["LOOPBACK_URL"])
    from bot.__main__ import main as bot_main

    return bot_main()


class BotProcess:
    """A bot subprocess; its stdout and stderr go to `log` (a file) when given."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process

    @classmethod
    async def spawn(
        cls, loopback: Loopback, database_url: str, *, log: IO[bytes] | None = None, **settings: str
    ) -> BotProcess:
        """Start `python -m harness.run_bot`; `settings` become environment variables (TIMER_INTERVAL=...)."""
        from fakediscord.loopback import TOKEN

        env = {
            **os.environ,
            "LOOPBACK_URL": loopback.url,
            "DISCORD_TOKEN": TOKEN,
            "DATABASE_URL": database_url,
            "TIMER_INTERVAL": "0",
            "TABLE_EDIT_INTERVAL": "0",  # tests see every update on the table; bench load sets the bot's own
            "SYNC_COMMANDS": "1",
            "LOG_LEVEL": os.environ.get("BOT_LOG_LEVEL", "WARNING"),  # INFO: every decision, with its game
            "DEV_GUILD_ID": "",
            "PYTHONUNBUFFERED": "1",
            "HARNESS_PARENT_PID": str(os.getpid()),  # (it ends when this process does: `leave_with_parent`)
        }
        env.update({k.upper(): str(v) for k, v in settings.items()})
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "harness.run_bot",
            cwd=ROOT,
            env=env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=log or asyncio.subprocess.DEVNULL,
            stderr=log or asyncio.subprocess.DEVNULL,
        )
        return cls(process)

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def alive(self) -> bool:
        return self.process.returncode is None

    def kill(self) -> None:
        """SIGKILL: no cleanup, no flush, as a crash or an OOM kill."""
        if self.alive:
            self.process.send_signal(signal.SIGKILL)

    async def stop(self, within: float = 10.0) -> int:
        """SIGTERM, then SIGKILL if it does not end `within` seconds; the exit code."""
        if self.alive:
            self.process.terminate()
            try:
                await asyncio.wait_for(self.process.wait(), within)
            except TimeoutError:
                self.kill()
        return await self.process.wait()

    async def wait(self) -> int:
        return await self.process.wait()


if __name__ == "__main__":
    sys.exit(main())
