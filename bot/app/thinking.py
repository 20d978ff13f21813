"""Where the bot's AI seats think: the searching levels in worker processes (AI_WORKERS), beside the
picture workers, so that an expert's search never holds the event loop.

An expert decision takes tens of milliseconds of CPU (games.search); made on the event loop, every
other game's click would wait that long. The table service awaits its thinker (table.thinking), and this
one sends each decision of a searching level (`table.thinking.SEARCHING_LEVELS`) to a worker: the game's
key, the level, the seed, the state as JSON and the seat. The worker rebuilds the state and decides as
the loop's process would (the AI is deterministic and reads only its seat's view), so the game replays
the same either way. Cheap levels (the heuristic, random) decide on the spot: sending them would cost
more than deciding.

Workers come from the same `forkserver` as the picture workers (a clean interpreter with the games
imported, never a fork of the running bot) and leave when the bot is gone. A worker that dies is
replaced, and the decision it had is made in the bot's process meanwhile: no decision is ever lost.
With AI_WORKERS=0 every decision is made in the bot's process (tests, a one-core machine).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot.ops.processes import follow_parent
from games.core import Game, Prompt
from table.thinking import SEARCHING_LEVELS, decide, decide_from_json

log = logging.getLogger(__name__)


def _start_worker(bot_pid: int) -> None:
    follow_parent(bot_pid)


def _decide_timed(key: str, level: str, seed: int, data: Any, seat: int) -> tuple[list[str], float]:
    """In a worker: the decision and the CPU seconds its search took (the operator's metrics add them up)."""
    started = time.process_time()
    choice = decide_from_json(key, level, seed, data, seat)
    return choice, time.process_time() - started


class Thinkers:
    """The bot's thinker (one per process: `THINKERS`)."""

    def __init__(self) -> None:
        self.workers = 0
        self._pool: ProcessPoolExecutor | None = None
        self.in_workers = 0  # decisions made by a worker
        self.in_process = 0  # decisions of a searching level made in the bot's process (no worker, or it died)
        self.search_seconds = {"worker": 0.0, "in_process": 0.0}  # CPU the searches took, by where they ran

    def start(self, workers: int) -> None:
        """Start `workers` processes (0: every decision in this process). Returns at once."""
        self.workers = workers
        if workers > 0 and self._pool is None:
            self._pool = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor:
        context = multiprocessing.get_context("forkserver")
        return ProcessPoolExecutor(
            max_workers=self.workers, mp_context=context, initializer=_start_worker, initargs=(os.getpid(),)
        )

    async def stop(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)

    async def choose(self, game: Game[Any], level: str, seed: int, state: Any, prompt: Prompt) -> list[str]:
        pool = self._pool
        if level not in SEARCHING_LEVELS:
            return decide(game, level, seed, state, prompt)
        if pool is not None:
            data = game.to_json(state)
            try:
                loop = asyncio.get_running_loop()
                choice, spent = await loop.run_in_executor(
                    pool, _decide_timed, game.key, level, seed, data, prompt.seat
                )
            except BrokenProcessPool as error:
                log.warning("an AI worker failed (%r); starting a new one, deciding in the bot meanwhile", error)
                if self._pool is pool:
                    pool.shutdown(wait=False, cancel_futures=True)
                    self._pool = self._new_pool()
            else:
                self.in_workers += 1
                self.search_seconds["worker"] += spent
                return choice
        self.in_process += 1
        started = time.thread_time()
        try:
            return decide(game, level, seed, state, prompt)
        finally:
            self.search_seconds["in_process"] += time.thread_time() - started


THINKERS = Thinkers()
