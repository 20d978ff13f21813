"""Pictures drawn by worker processes: the same bytes as in the bot, a crashed worker costs no picture,
outdated pictures are not drawn, and replies to clicks are drawn before notifications."""

from __future__ import annotations

import asyncio
import os
import signal
import threading
import time
from typing import Any

import pytest

import games
from bot.render import renderer_for
from bot.render.kit import pool as pool_module
from bot.render.kit.pool import AGAIN, CLICK, NOTIFICATION, PROMPT, PictureJob, Pictures, Superseded, _Gate
from bot.render.kit.workers import WorkerDied, WorkerPool
from games.ai import RandomPlayer
from games.core import Choice

pytestmark = pytest.mark.xdist_group("render_pool")  # worker processes: not two of these files at once

KEY = "reggverse-riddles"


def _job(seed: int = 3, seat: int | None = None) -> PictureJob:
    engine = games.get(KEY)
    state = engine.new(3, seed, {})
    return PictureJob(renderer_for(KEY), "image", (engine.view(state, seat), "en"))


async def _warm(pictures: Pictures) -> None:
    deadline = time.monotonic() + 60
    while pictures._ready_pool() is None:
        assert time.monotonic() < deadline, "the picture worker never became ready"
        await asyncio.sleep(0.05)


async def test_a_worker_draws_the_same_picture_and_a_crash_loses_none() -> None:
    pictures = Pictures()
    pictures.start(1)
    try:
        job = _job()
        expected = job.run()
        assert expected is not None and expected.startswith(b"\x89PNG")
        await _warm(pictures)
        assert await pictures.draw(job) == expected
        engine = games.get("eight-minute-empire")
        state = engine.new(2, 5, {})
        prompt = engine.prompts(state)[0]  # its `info` is a read-only mapping, which does not pickle as is
        seat_job = PictureJob(
            renderer_for("eight-minute-empire"), "seat_image", (engine.view(state, prompt.seat), prompt, "it")
        )
        seat_picture = seat_job.run()
        assert seat_picture is not None and await pictures.draw(seat_job) == seat_picture
        regg = games.get(KEY)
        state = regg.new(3, 8, {"action_tiles": True})
        players = [RandomPlayer(s) for s in range(3)]
        while not any(type(c) is not Choice for p in regg.prompts(state) for c in p.choices):
            prompt = regg.prompts(state)[0]  # until a prompt offers a game's own kind of choice (labels made when read)
            regg.apply(state, prompt.seat, players[prompt.seat].choose(regg, state, prompt))
        prompt = regg.prompts(state)[0]
        own_job = PictureJob(renderer_for(KEY), "seat_image", (regg.view(state, prompt.seat), prompt, "fr"))
        assert await pictures.draw(own_job) == own_job.run()
        assert pictures.counts.in_workers == 3 and pictures.counts.in_process == 0

        pool = pictures._pool
        assert pool is not None
        for pid in pool.pids:
            os.kill(pid, signal.SIGKILL)
        other = _job(seed=4)
        assert await pictures.draw(other) == other.run(), "drawn in the bot when the worker is gone"
        assert pictures.counts.worker_failures == 1 and pictures.counts.in_process == 1
        assert pictures._pool is not pool, "the broken pool was replaced"
        await _warm(pictures)
        assert await pictures.draw(job) == expected
        assert pictures.counts.in_workers == 4
    finally:
        await pictures.stop()
    assert pictures._pool is None


class _Slow:
    """A renderer whose pictures wait for a signal, to hold the one place of the gate."""

    key = KEY

    def __init__(self) -> None:
        self.release = threading.Event()
        self.drawn: list[str] = []

    def image(self, name: str, lang: str) -> bytes:
        if name == "first":
            self.release.wait(10)
        self.drawn.append(name)
        return name.encode()


async def _queued(pictures: Pictures, renderer: _Slow, name: str, **kwargs: Any) -> asyncio.Task[bytes | None]:
    task = asyncio.create_task(pictures.draw(PictureJob(renderer, "image", (name, "en")), **kwargs))
    await asyncio.sleep(0.01)  # in the gate's queue before the next one
    return task


async def test_an_outdated_picture_is_not_drawn_and_clicks_go_first_then_pictures_that_waited() -> None:
    pictures = Pictures()
    pictures.start(0)
    pictures._gate.size = 1
    renderer = _Slow()
    wanted = {"old table": False}
    first = await _queued(pictures, renderer, "first")
    old = await _queued(pictures, renderer, "old table", still_wanted=lambda: wanted["old table"])
    later = await _queued(pictures, renderer, "notification")
    again = await _queued(pictures, renderer, "again", priority=AGAIN)
    prompt = await _queued(pictures, renderer, "prompt", priority=PROMPT)
    click = await _queued(pictures, renderer, "click", priority=CLICK)
    renderer.release.set()
    assert await first == b"first"
    with pytest.raises(Superseded):
        await old
    assert await later == b"notification" and await click == b"click" and await again == b"again"
    assert await prompt == b"prompt"
    assert renderer.drawn == ["first", "click", "prompt", "again", "notification"], (
        "the click's picture before the waiting ones, then a player's prompt, then a superseded one's newer version"
    )
    assert pictures.counts.superseded == 1 and pictures.counts.requested == 6


async def test_a_picture_with_others_waiting_behind_it_is_hurried_same_pixels_cheaper_file() -> None:
    """Under a backlog the pool hurries (ISA-L instead of zlib: bot.render.kit.palette.hurried): each picture
    that starts while others wait behind it is deflated by ISA-L, the last one (none behind) by zlib at the
    upload level; either way the same pixels."""
    import io

    from PIL import Image

    from bot.render.kit.palette import UPLOAD_LEVEL, hurried, png_at

    pictures = Pictures()
    pictures.start(0)
    pictures._gate.size = 1
    renderer = _Slow()
    first = await _queued(pictures, renderer, "first")
    queued = [
        asyncio.create_task(pictures.draw(_job(seed=seed, seat=0), priority=NOTIFICATION)) for seed in (11, 12, 13)
    ]
    await asyncio.sleep(0.01)
    renderer.release.set()
    assert await first == b"first"
    drawn = [await task for task in queued]

    def encodings(png: bytes | None) -> tuple[bytes, bytes]:
        assert png is not None
        image = Image.open(io.BytesIO(png))
        with hurried():
            quick = png_at(image, UPLOAD_LEVEL)
        return png_at(image, UPLOAD_LEVEL), quick

    *behind_others, last = drawn
    for png in behind_others:
        small, quick = encodings(png)
        assert png == quick != small, "a picture with others waiting behind it is deflated by ISA-L"
    small, quick = encodings(last)
    assert last == small != quick, "with none behind it, the smaller file"
    assert len(small) < len(quick)
    assert pictures.counts.hurried == 2


async def test_a_cancelled_waiter_gives_its_place_back() -> None:
    pictures = Pictures()
    pictures.start(0)
    pictures._gate.size = 1
    renderer = _Slow()
    first = await _queued(pictures, renderer, "first")
    gone = await _queued(pictures, renderer, "gone")
    gone.cancel()
    after = await _queued(pictures, renderer, "after")
    renderer.release.set()
    assert await first == b"first" and await after == b"after"
    assert renderer.drawn == ["first", "after"] and pictures._gate.busy == 0


async def test_a_waiter_cancelled_as_a_place_frees_up_leaves_the_gate_consistent() -> None:
    """The waiter is cancelled, then `leave` runs before the waiter's task does: `leave` skips the
    cancelled turn, and the waiter must not try to remove it again (a ValueError at shutdown)."""
    gate = _Gate(1)
    await gate.enter(NOTIFICATION)
    waiter = asyncio.get_running_loop().create_task(gate.enter(NOTIFICATION))
    await asyncio.sleep(0)  # queued
    waiter.cancel()
    gate.leave()
    with pytest.raises(asyncio.CancelledError):
        await waiter
    assert gate.busy == 0 and not any(gate.waiting)


async def test_pictures_no_longer_wanted_leave_the_queue_while_the_workers_stay_busy() -> None:
    """Clicks' pictures keep the one place busy for ever; the notifications waiting behind them are
    superseded one after another. They must not wait for a turn that never comes (each kept its message,
    its view and its tasks: ~200 KB a game a minute under a sustained backlog): a sweep, each time the
    queue has doubled, drops them, raising Superseded where they waited."""
    gate = _Gate(1)
    await gate.enter(CLICK)  # the place the clicks hold
    wanted: dict[int, bool] = {}
    waiters: list[asyncio.Task[None]] = []
    for n in range(200):
        wanted[n] = True
        if n:
            wanted[n - 1] = False  # each newer version supersedes the one before
        waiters.append(asyncio.create_task(gate.enter(NOTIFICATION, lambda n=n: wanted[n])))
        await asyncio.sleep(0)
        assert gate.waiting_count() <= 2 * pool_module.SWEEP_FROM, "the queue stays bounded"
    superseded = [w for w in waiters if w.done()]
    assert len(superseded) >= 200 - pool_module.SWEEP_FROM
    assert all(isinstance(w.exception(), Superseded) for w in superseded)
    assert not waiters[-1].done(), "the newest version still waits for its turn"
    gate.leave()
    await waiters[-1]  # it got the place
    assert gate.busy == 1
    gate.leave()
    for w in waiters:
        if not w.done():
            w.cancel()
    await asyncio.gather(*waiters, return_exceptions=True)
    assert gate.busy == 0 and gate.waiting_count() == 0


KILLED_BOT = """
import asyncio, os, signal
from bot.render.kit.pool import Pictures

async def main():
    pictures = Pictures()
    pictures.start(1)
    while pictures._ready_pool() is None:
        await asyncio.sleep(0.05)
    print(*pictures._pool.pids, flush=True)
    os.kill(os.getpid(), signal.SIGKILL)

asyncio.run(main())
"""


def test_a_bot_killed_with_sigkill_leaves_no_worker_behind() -> None:
    import subprocess
    import sys

    from bot.ops.processes import alive as _alive

    bot = subprocess.run([sys.executable, "-c", KILLED_BOT], capture_output=True, text=True, timeout=120)
    assert bot.returncode == -signal.SIGKILL, bot.stderr
    workers = [int(pid) for pid in bot.stdout.split()]
    assert workers
    deadline = time.monotonic() + 15
    while any(_alive(pid) for pid in workers):
        assert time.monotonic() < deadline, "a picture worker outlived its bot"
        time.sleep(0.1)


async def test_the_metrics_say_what_became_of_the_pictures() -> None:
    from prometheus_client import generate_latest

    from bot.app.metrics import BotMetrics

    pictures = Pictures()
    pictures.start(0)
    metrics = BotMetrics()
    metrics.watch_pictures(pictures)
    await pictures.draw(_job())
    with pytest.raises(Superseded):
        await pictures.draw(_job(), still_wanted=lambda: False)
    text = generate_latest(metrics.registry).decode()
    assert 'tablebot_pictures_total{outcome="in_process"} 1.0' in text
    assert 'tablebot_pictures_total{outcome="superseded"} 1.0' in text
    assert 'tablebot_pictures_total{outcome="worker"} 0.0' in text
    assert "tablebot_picture_worker_failures_total 0.0" in text
    assert "tablebot_pictures_hurried_total 0.0" in text
    assert "tablebot_pictures_waiting 0.0" in text
    pictures._gate.size = 1
    await pictures._gate.enter(CLICK)  # the one place, held: what follows waits
    waiting = [asyncio.create_task(pictures.draw(_job())) for _ in range(2)]
    await asyncio.sleep(0)
    assert "tablebot_pictures_waiting 2.0" in generate_latest(metrics.registry).decode()
    for task in waiting:
        task.cancel()
    await asyncio.gather(*waiting, return_exceptions=True)
    assert "tablebot_pictures_waiting 0.0" in generate_latest(metrics.registry).decode()


def _recent_budget() -> tuple[int, int | None]:
    from bot.render.kit import generic, paletted

    return generic.RECENT_PICTURE_BYTES, paletted.KeptPieces.memory


async def test_workers_keep_more_recent_pictures_than_the_bot_process() -> None:
    """The bot's own process keeps a few recent pictures and pieces of pictures (its memory per game is
    counted); a worker, whose memory does not grow with the games, keeps many more, so a game's repeated
    picture is found and pieces come back at its next decision: as much as RENDER_WORKER_MEMORY_MB says."""
    from bot.render.kit import generic, paletted

    pictures = Pictures()
    pictures.start(1, memory_mb=48)
    try:
        await _warm(pictures)
        pool = pictures._ready_pool()
        assert pool is not None
        in_worker = await pool.run(_recent_budget)
        assert in_worker == (generic.WORKER_RECENT_PICTURE_BYTES, 48 << 20)
        assert generic.RECENT_PICTURE_BYTES < generic.WORKER_RECENT_PICTURE_BYTES
        assert paletted.KeptPieces.memory is None, "the bot's own process keeps its renderers' budgets"
    finally:
        await pictures.stop()


def _nothing(*_args: Any) -> None:
    return None


def _fails() -> None:
    raise ValueError("no fonts here")


def _sleeps(seconds: float) -> str:
    time.sleep(seconds)
    return "slept"


async def _pool_ready(pool: WorkerPool) -> None:
    deadline = time.monotonic() + 60
    while not pool.ready():
        assert pool.dead is None, pool.dead
        assert time.monotonic() < deadline, "the worker never became ready"
        await asyncio.sleep(0.02)


@pytest.mark.parametrize("loop", ["asyncio", "uvloop"])
def test_workers_answer_in_order_pass_errors_back_and_a_killed_one_fails_what_it_owed(loop: str) -> None:
    """bot.render.kit.workers, on asyncio's loop and on uvloop (the bot's, which makes the fds it watches
    non-blocking): jobs answered in order through the event loop, a message larger than a socket's buffer
    both ways, a job's error raised where it was awaited (the worker goes on), and a worker killed mid-job
    fails what it owed with WorkerDied at once (not after the job's time) so that the pool can draw it
    elsewhere."""
    factory = asyncio.new_event_loop
    if loop == "uvloop":
        uvloop = pytest.importorskip("uvloop")
        factory = uvloop.new_event_loop
    with asyncio.Runner(loop_factory=factory) as runner:
        runner.run(_workers_answer_in_order())


async def _workers_answer_in_order() -> None:
    pool = WorkerPool(1, initializer=_nothing, initargs=(), warm=_nothing, preload=[])
    try:
        await _pool_ready(pool)
        large = "egg" * 2_000_000  # 6 MB: written and read in pieces
        first, second, third = pool.run(_sleeps, 0.05), pool.run(str.upper, large), pool.run(str.upper, "after")
        assert await asyncio.gather(first, second, third) == ["slept", large.upper(), "AFTER"]
        with pytest.raises(ValueError, match="no fonts"):
            await pool.run(_fails)
        assert await pool.run(str.upper, "still serving") == "STILL SERVING"
        owed = asyncio.ensure_future(pool.run(_sleeps, 30))
        await asyncio.sleep(0.2)
        started = time.monotonic()
        os.kill(pool.pids[0], signal.SIGKILL)
        with pytest.raises(WorkerDied):
            await owed
        assert time.monotonic() - started < 10 and pool.dead is not None and not pool.ready()
    finally:
        pool.close()
        pool.join()


async def test_a_worker_that_cannot_warm_up_is_dead_not_waited_for() -> None:
    pool = WorkerPool(1, initializer=_nothing, initargs=(), warm=_fails, preload=[])
    try:
        deadline = time.monotonic() + 60
        while pool.dead is None:
            assert not pool.ready()
            assert time.monotonic() < deadline, "the failed start was never noticed"
            await asyncio.sleep(0.02)
        assert "no fonts" in repr(pool.dead)
        with pytest.raises(WorkerDied):
            await pool.run(str.upper, "x")
    finally:
        pool.close()
        pool.join()
