"""Where pictures are drawn: worker processes (RENDER_WORKERS), or a thread of the bot's process (0).

Drawing a map holds Python's GIL for 10-20 ms; in a thread of the bot that time is taken from the event
loop (every reply waits). Worker processes draw in parallel with the loop instead. They are started
with `forkserver` (a clean interpreter that has imported the renderers, forked per worker; never a fork
of the running bot) and warmed up before use: until they are, and whenever one has crashed (the pool is
then replaced), pictures are drawn in a thread as before, so no message goes without its picture.

A job names the renderer by game key, so a worker draws with its own copy of the same renderer, from the
same view: the picture is the same bytes either way. The text of a message never waits on anything but
its own picture, and a picture that is no longer wanted when its turn to be drawn comes (the message it
was for has a newer version pending: `still_wanted` says so) is not drawn at all (`Superseded`). Replies to
a player's click go before notifications waiting for a worker, and the newer version of a superseded
picture goes before the notifications that have not waited yet (under a steady stream of updates, a
table is not sent to the back of the queue again and again). A picture that starts while others wait
behind it for a place is hurried (bot.render.kit.palette.hurried: deflated by ISA-L, the same pixels in
~30% more bytes for a twentieth of the compression's CPU): a backlog drains at once, what players wait
for is not queued behind compression, and while the workers keep up pictures get the smaller file.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from collections import deque
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from bot.ops.processes import follow_parent
from bot.ops.settings import Settings
from bot.render.kit.palette import hurried
from bot.render.kit.workers import WorkerDied, WorkerPool
from games.core import Choice, Prompt

log = logging.getLogger(__name__)

DEFAULT_WORKER_MEMORY_MB: int = Settings.model_fields["render_worker_memory_mb"].default  # the setting's
GIVE_UP_AFTER = 3  # worker failures in a row, nothing drawn by a worker in between


class Superseded(Exception):
    """The picture was not drawn: a newer version of its message is pending, which brings its own."""


@dataclass(frozen=True)
class PictureJob:
    """One picture: `renderer.<method>(*args)` (`image` or `seat_image`, view and language)."""

    renderer: Any  # a bot.render Renderer (or a wrapper of one, in tests)
    method: str
    args: tuple[Any, ...]

    def run(self, hurry: bool = False) -> bytes | None:
        with hurried(hurry):
            drawn: bytes | None = getattr(self.renderer, self.method)(*self.args)
        return drawn


def _portable(value: Any) -> Any:
    """`value` as it can travel to a worker: a prompt as a plain `Prompt` of plain `Choice`s (games may
    use their own subclasses, e.g. with labels made when read, which need not survive pickling) and a
    dict for its read-only `info`."""
    if isinstance(value, Prompt):
        return Prompt(
            value.seat,
            value.kind,
            [Choice(c.id, c.label, dict(c.data)) for c in value.choices],
            value.pick,
            value.secret,
            value.text,
            dict(value.info),
        )
    return value


def draw_in_worker(target: Any, method: str, args: tuple[Any, ...], hurry: bool = False) -> bytes | None:
    """A job, in a worker process: the same renderer, found by its game's key (`target`), or sent as it is
    (a `portable` one, such as a tournament's standings: no game to look up); `hurry`: see `hurried`."""
    from bot.render import renderer_for

    renderer = renderer_for(target) if isinstance(target, str) else target
    with hurried(hurry):
        drawn: bytes | None = getattr(renderer, method)(*args)
    return drawn


def _target(renderer: Any) -> Any:
    """What a worker is sent to find the renderer by: its game's key, or the renderer itself if portable."""
    return renderer if getattr(renderer, "portable", False) else str(getattr(renderer, "key", ""))


def _start_worker(bot_pid: int, pieces_memory: int) -> None:
    """In each new worker: keep more recent pictures and drawn pieces than the bot's own process does
    (a worker draws every table's pictures; their memory is the worker's, the same however many games),
    and follow the bot."""
    from bot.render.kit import generic, paletted

    generic.RECENT_PICTURE_BYTES = generic.WORKER_RECENT_PICTURE_BYTES
    paletted.KeptPieces.memory = pieces_memory
    follow_parent(bot_pid)


def _warm() -> bool:
    """Load the renderers (and their fonts) in a new worker before it is given real pictures."""
    import games
    from bot.render import renderer_for
    from bot.render.kit.fonts import font

    for key in games.keys():
        renderer_for(key)
    font(16)
    return True


@dataclass
class Counts:
    requested: int = 0
    in_workers: int = 0  # drawn (or found among the recent pictures) by a worker process
    in_process: int = 0  # drawn in a thread of the bot's process
    superseded: int = 0  # not drawn: a newer version of the message was pending by then
    hurried: int = 0  # drawn while others waited behind: deflated by ISA-L (bot.render.kit.palette.hurried)
    worker_failures: int = 0  # a worker crashed or the pool broke: drawn in the bot's process instead


# Priorities: replies to clicks; a player's prompt (their turn came: what they wait for); a notification
# whose previous version was superseded (it waited its turn already); other notifications (tables, DMs
# that only show what happened). Under a full pool a prompt is not held behind the tables of other games.
CLICK, PROMPT, AGAIN, NOTIFICATION = 0, 1, 2, 3


def picture_priority(asks: bool, again: bool) -> int:
    """A seat's message: PROMPT when it `asks` them to decide, else AGAIN or NOTIFICATION (`again`: its
    previous version was superseded)."""
    return PROMPT if asks else AGAIN if again else NOTIFICATION


Waiter = tuple[asyncio.Future[None], Callable[[], bool] | None]  # its turn, and whether its picture is still wanted
# The waiting pictures are swept for those no longer wanted each time their number doubles (at least this
# many): under a sustained backlog the higher priorities can keep the workers busy for ever, and a
# superseded picture left to wait for its turn kept its message, its view and two tasks alive until then:
# the bot's memory grew ~200 KB a game a minute (issue 37).
SWEEP_FROM = 16


@dataclass
class _Gate:
    """At most `size` pictures in the making at once; by priority, then in order of arrival. A waiting
    picture that is no longer wanted leaves at the next sweep, raising `Superseded` where it waited."""

    size: int
    busy: int = 0
    waiting: tuple[deque[Waiter], ...] = field(default_factory=lambda: (deque(), deque(), deque(), deque()))
    swept_to: int = 0  # pictures still waiting after the last sweep

    async def enter(self, priority: int, still_wanted: Callable[[], bool] | None = None) -> None:
        if self.busy < self.size and not any(self.waiting):
            self.busy += 1
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiting[priority].append((turn, still_wanted))
        self._sweep_if_grown()
        try:
            await turn  # `leave` hands its place over: busy stays counted
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled() and turn.exception() is None:
                self.leave()  # the place was handed over just as this waiter was cancelled
            else:
                self._drop(priority, turn)
            raise

    def _drop(self, priority: int, turn: asyncio.Future[None]) -> None:
        queue = self.waiting[priority]
        for waiter in queue:
            if waiter[0] is turn:
                queue.remove(waiter)
                return

    def waiting_count(self) -> int:
        return sum(len(queue) for queue in self.waiting)

    def _sweep_if_grown(self) -> None:
        if self.waiting_count() < max(SWEEP_FROM, 2 * self.swept_to):
            return
        for queue in self.waiting:
            kept: list[Waiter] = []
            for turn, wanted in queue:
                if turn.done():  # cancelled while it waited
                    continue
                if wanted is not None and not wanted():
                    turn.set_exception(Superseded())
                    continue
                kept.append((turn, wanted))
            queue.clear()
            queue.extend(kept)
        self.swept_to = self.waiting_count()

    def crowded(self) -> bool:
        """Whether pictures wait for a place: more are asked for than the workers hold (one drawing and
        one queued each), the backlog a picture asked for now would wait behind."""
        return any(self.waiting)

    def leave(self) -> None:
        for queue in self.waiting:
            while queue:
                turn, wanted = queue.popleft()
                if turn.done():
                    continue
                if wanted is not None and not wanted():  # its place goes to one still wanted
                    turn.set_exception(Superseded())
                    continue
                turn.set_result(None)
                return
        self.busy -= 1


class Busy(Exception):
    """Too many long jobs (animations) are waiting already: asked again later, not queued for ever."""


ANIMATIONS_WAITING = 4  # animations queued at most; more are refused (Busy)


class Pictures:
    """The bot's picture drawing (one per process: `PICTURES`)."""

    def __init__(self) -> None:
        self._slow: ProcessPoolExecutor | None = None  # one process for long jobs (animations), when first needed
        self._slow_turn: tuple[asyncio.AbstractEventLoop, asyncio.Semaphore] | None = None  # one at a time, per loop
        self._slow_waiting = 0
        self.workers = 0
        self.pieces_memory = DEFAULT_WORKER_MEMORY_MB << 20
        self.counts = Counts()
        self._pool: WorkerPool | None = None
        self._gate = _Gate(2)
        self._failures_in_a_row = 0

    def start(self, workers: int, memory_mb: int = DEFAULT_WORKER_MEMORY_MB) -> None:
        """Start `workers` processes (0: draw in threads of this process), each keeping up to `memory_mb`
        of drawn pieces of pictures (bot.render.kit.paletted.KeptPieces); the workers warm up in the
        background and take pictures once ready. Blocks while the forkserver starts (seconds: the bot
        calls it in a thread once connected); pictures drawn meanwhile are drawn in threads."""
        self.workers = workers
        self.pieces_memory = memory_mb << 20
        # Threads of this process contend for the GIL with the event loop: two at a time are plenty.
        # Workers get two pictures each: one drawing and one queued, so that a worker never sits idle
        # while a busy event loop is slow to hand it the next one (one each left it idle most of the time).
        self._gate = _Gate(2 * workers if workers > 0 else 2)
        if workers > 0 and self._pool is None:
            self._pool = self._new_pool()

    def _new_pool(self) -> WorkerPool:
        """The picture workers, driven by the event loop (bot.render.kit.workers: no thread in between)."""
        from bot.render import renderer_modules

        return WorkerPool(
            self.workers,
            initializer=_start_worker,
            initargs=(os.getpid(), self.pieces_memory),
            warm=_warm,
            preload=renderer_modules(),  # imported once by the forkserver, before the workers fork
        )

    def _new_slow_pool(self) -> ProcessPoolExecutor:
        """One process for animations: seconds of CPU a job, where a thread's handoff costs nothing."""
        context = multiprocessing.get_context("forkserver")
        from bot.render import renderer_modules

        context.set_forkserver_preload(renderer_modules())
        return ProcessPoolExecutor(
            max_workers=1, mp_context=context, initializer=_start_worker, initargs=(os.getpid(), self.pieces_memory)
        )

    async def stop(self) -> None:
        pool, self._pool = self._pool, None
        slow, self._slow = self._slow, None
        if pool is not None:
            pool.close()
            await asyncio.to_thread(pool.join)
        if slow is not None:
            await asyncio.to_thread(slow.shutdown, wait=True, cancel_futures=True)

    def _one_at_a_time(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()  # (tests run several loops in one process: one semaphore each)
        if self._slow_turn is None or self._slow_turn[0] is not loop:
            self._slow_turn = (loop, asyncio.Semaphore(1))
        return self._slow_turn[1]

    async def animate(self, job: PictureJob) -> bytes | None:
        """A long job (an animated replay: seconds of CPU), one at a time, in a process of its own beside the
        picture workers, so that no prompt's picture ever waits behind it (with RENDER_WORKERS=0: a thread
        of this process). Raises `Busy` when ANIMATIONS_WAITING are waiting already."""
        if self._slow_waiting >= ANIMATIONS_WAITING:
            raise Busy
        self._slow_waiting += 1
        try:
            async with self._one_at_a_time():
                if self.workers <= 0:
                    return await asyncio.to_thread(job.run)
                if self._slow is None:
                    self._slow = self._new_slow_pool()
                args = tuple(_portable(a) for a in job.args)
                try:
                    drawn: bytes | None = await asyncio.get_running_loop().run_in_executor(
                        self._slow, draw_in_worker, _target(job.renderer), job.method, args
                    )
                except BrokenProcessPool:
                    self._slow = None  # a new one for the next; this one is made here
                    return await asyncio.to_thread(job.run)
                return drawn
        finally:
            self._slow_waiting -= 1

    def _ready_pool(self) -> WorkerPool | None:
        """The pool if its workers are warm and none died."""
        pool = self._pool
        if pool is None:
            return None
        ready = pool.ready()
        if pool.dead is not None:
            self._broken(pool.dead)
            return None
        return pool if ready else None

    def _broken(self, error: BaseException | None) -> None:
        """A worker died (or could not start): replace the pool; its pictures are drawn here meanwhile.
        Workers that keep failing with nothing drawn in between are given up: drawn here from then on."""
        self.counts.worker_failures += 1
        self._failures_in_a_row += 1
        old, self._pool = self._pool, None
        if old is not None:
            old.close()  # (the survivors stop; what they owed is drawn here by those who waited)
        if self._failures_in_a_row >= GIVE_UP_AFTER:
            log.error(
                "picture workers failed %d times in a row (last: %r); pictures are drawn in the bot from now on",
                self._failures_in_a_row,
                error,
            )
        elif self.workers > 0:
            log.warning("a picture worker failed (%r); starting a new one, drawing in the bot meanwhile", error)
            self._pool = self._new_pool()

    def waiting(self) -> int:
        """Pictures waiting now for a place (the backlog; still-wanted and not yet swept)."""
        return self._gate.waiting_count()

    async def draw(
        self, job: PictureJob, *, still_wanted: Callable[[], bool] | None = None, priority: int = NOTIFICATION
    ) -> bytes | None:
        """The picture, drawn off the event loop. Raises `Superseded` instead of drawing a picture that
        `still_wanted()` says is no longer wanted once its turn comes."""
        self.counts.requested += 1
        gate = self._gate  # the one to leave: `start` (in a thread, after connecting) may put a new one
        try:
            await gate.enter(priority, still_wanted)
        except Superseded:
            self.counts.superseded += 1  # swept out while it waited: it never held a place
            raise
        try:
            if still_wanted is not None and not still_wanted():
                self.counts.superseded += 1
                raise Superseded
            hurry = gate.crowded()
            self.counts.hurried += hurry
            pool = self._ready_pool()
            if pool is not None:
                try:
                    drawn = await pool.run(
                        draw_in_worker, _target(job.renderer), job.method, tuple(_portable(a) for a in job.args), hurry
                    )
                except WorkerDied as error:
                    if self._pool is pool:
                        self._broken(error)
                except Exception:  # e.g. a view that does not pickle: this picture is drawn here
                    log.exception("a picture could not be drawn by a worker")
                else:
                    self.counts.in_workers += 1
                    self._failures_in_a_row = 0
                    return drawn
            self.counts.in_process += 1
            return await asyncio.to_thread(job.run, hurry)
        finally:
            gate.leave()


PICTURES = Pictures()
