"""Running `bench load`: the bot in process or in its own process against the loopback fake Discord."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
import tracemalloc
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fakediscord.loopback import Loopback
    from fakediscord.rate_limits import RateLimits
    from harness import Harness
    from harness.run_bot import BotProcess

from bench._figures import percentile
from bench.floor import measure
from bench.load.measure import (
    BotClock,
    Ledger,
    LoopLag,
    _errors,
    counter_delta,
    cpu_seconds,
    free_port,
    idle,
    limit_figures,
    notifications_asked,
    rss_kb,
)
from bench.load.plan import LOBBY_WITHIN, MIX, TABLES_PER_GUILD, ThinkTime, plan
from bench.load.players import InProcessRun, LoadRun, LoopbackRun
from bench.load.record import Recorder
from bot.ops.settings import Settings
from games.search import DEFAULT_BUDGET_MS

# The bot's own pacing of its table edits, as it runs by default (the harness turns it off for tests).
TABLE_EDIT_INTERVAL: float = Settings.model_fields["table_edit_interval"].default


def sqlite_url(directory: Path) -> str:
    """The run's SQLite database in `directory`, emptied first: a run needs an empty database (the fake's ids
    restart at each run), and a bot started on a kept `--workdir`'s games would resume them all first."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        (directory / f"load.sqlite3{suffix}").unlink(missing_ok=True)
    return f"sqlite+aiosqlite:///{directory / 'load.sqlite3'}"


async def _channels(count: int, add_guild: Any) -> list[int]:
    """`count` text channels, at most TABLES_PER_GUILD per guild."""
    channels: list[int] = []
    while len(channels) < count:
        channels += await add_guild(min(TABLES_PER_GUILD, count - len(channels)))
    return channels


async def _warm_up(load: LoadRun, add_guild: Any, concurrency: int) -> None:
    """One game of each kind first, outside the figures: imports, fonts and caches warm up as in a running bot."""
    keys = sorted({key for key, _v, _lo, _hi in MIX})
    await load.open_all(
        [(key, "", 2, 0) for key in keys],
        await _channels(len(keys), add_guild),
        concurrency=concurrency,
        first_index=-len(keys) - 1,
    )
    load.forget()


async def traced_memory(
    count: int, *, database_url: str | None, seed: int, directory: Path, only: str | None = None, max_seats: int = 6
) -> float:
    """KB of Python memory traced per game with `count` games open in process (the bot, discord.py, storage)."""
    from harness import Harness

    overrides: dict[str, Any] = {"database_url": database_url} if database_url else {}
    h = await Harness.start(directory / "memory.sqlite3", seed=seed, **overrides)
    try:
        load = InProcessRun(h, 0.0, random.Random(seed))
        await _warm_up(load, _harness_guild(h), 4)
        channels = await _channels(count, _harness_guild(h))
        planned = plan(count, random.Random(seed), only, max_seats)
        await h.settle()
        tracemalloc.start()
        try:
            before = load.traced_without_fake()
            await load.open_all(planned, channels, concurrency=8)
            await h.settle()
            after = load.traced_without_fake()
        finally:
            tracemalloc.stop()
        if h.errors:
            raise AssertionError(f"errors while measuring memory: {h.errors[:3]}")
    finally:
        await h.close()
    return (after - before) / max(1, count) / 1024


def _given(channels: list[int]) -> Any:
    """An `add_guild` that hands out channels made earlier (the loopback's guilds exist before the bot connects)."""

    async def add(count: int) -> list[int]:
        taken, channels[:] = channels[:count], channels[count:]
        return taken

    return add


def _harness_guild(h: Harness) -> Any:
    async def add(channels: int) -> list[int]:
        _guild, ids = await h.add_guild(channels)
        return ids

    return add


async def run(
    count: int,
    *,
    database_url: str | None,
    think: float,
    seed: int,
    memory_games: int,
    directory: Path,
    only: str | None = None,
    duration: float | None = None,
    max_seats: int = 6,
    mode: str = "loopback",
    think_distribution: str = "uniform",
    open_concurrency: int = 16,
    warm_up: bool = True,
    limits: RateLimits | None = None,
    ai_level: str = "heuristic",
    with_floor: bool = False,
    record: Path | None = None,
) -> dict[str, Any]:
    """One load run; its figures. `think`, `think_distribution`: a player's think time (plan.ThinkTime).
    `warm_up`: one game of each kind is opened first, outside the figures.
    `limits`: Discord's rate limits the loopback fake applies (loopback mode only; None: none).
    `ai_level`: the level of the AI seats (the lobby's Add AI button seats the easy one, its select others).
    `with_floor`: the floor (bench/floor.py) is measured first, in the same sitting, and the bot's CPU
    per decision is given as a multiple of its CPU per click. `record` (loopback only): what the bot sent
    while playing goes to this folder (bench/load/record.py), for `bench floor --same-work`."""
    url = database_url or sqlite_url(directory)
    thinking = ThinkTime(think, think_distribution)
    figures: dict[str, Any] = {
        "mode": mode,
        "database": "postgresql" if url.startswith("postgresql") else "sqlite",
        "rate_limits": limits_name(limits if mode == "loopback" else None),
        "ai_level": ai_level,
    }
    floor: dict[str, Any] | None = None
    if with_floor:
        floor = await measure(FLOOR_CLICKERS, FLOOR_SECONDS, FLOOR_POSTS)
    if mode == "loopback":
        figures.update(
            await _run_loopback(
                count,
                url=url,
                think=thinking,
                seed=seed,
                directory=directory,
                only=only,
                duration=duration,
                max_seats=max_seats,
                open_concurrency=open_concurrency,
                warm_up=warm_up,
                ai_level=ai_level,
                limits=limits,
                record=record,
            )
        )
    else:
        figures.update(
            await _run_inprocess(
                count,
                url=url,
                think=thinking,
                seed=seed,
                directory=directory,
                only=only,
                duration=duration,
                max_seats=max_seats,
                open_concurrency=open_concurrency,
                warm_up=warm_up,
                ai_level=ai_level,
            )
        )
    if floor is not None:
        figures["floor"] = floor
        figures["cpu_ratio_to_floor"] = round(figures["cpu_ms_per_decision"] / floor["bot_cpu_ms_per_click"], 2)
    measured = min(memory_games, count)
    figures["memory_games"] = measured
    figures["memory_per_game_kb"] = (
        round(
            await traced_memory(
                measured,
                database_url=database_url and f"{database_url}",
                seed=seed,
                directory=directory,
                only=only,
                max_seats=max_seats,
            ),
            1,
        )
        if measured and database_url is None
        else None
    )
    return figures


async def _play_and_count(load: LoadRun, ledger: Ledger, duration: float | None) -> dict[str, Any]:
    ids = [t.game_id for t in load.tables]
    human_before, robot_before = await ledger.decisions(ids)
    wall = await load.play(duration, ledger)
    human_after, robot_after = await ledger.decisions(ids)
    human, robot = human_after - human_before, robot_after - robot_before
    return {
        "wall_seconds": round(wall, 2),
        "decisions": human + robot,
        "human_decisions": human,
        "ai_decisions": robot,
        "decisions_per_second": round((human + robot) / wall, 1),
        "human_decisions_per_second": round(human / wall, 1),
    }


async def _run_inprocess(
    count: int,
    *,
    url: str,
    think: ThinkTime,
    seed: int,
    directory: Path,
    only: str | None,
    duration: float | None,
    max_seats: int,
    open_concurrency: int,
    warm_up: bool,
    ai_level: str = "heuristic",
) -> dict[str, Any]:
    from harness import Harness

    h = await Harness.start(
        directory / "load.sqlite3", seed=seed, database_url=url, table_edit_interval=TABLE_EDIT_INTERVAL
    )
    # Per-decision INFO lines would cost more than the decisions; put the level back after (tests share it).
    bot_logger = logging.getLogger("bot")
    old_level = bot_logger.level
    bot_logger.setLevel(logging.WARNING)
    rng = random.Random(seed)
    load = InProcessRun(h, think, rng)
    load.ai_level = ai_level
    ledger = Ledger(url)
    try:
        if warm_up:
            await _warm_up(load, _harness_guild(h), open_concurrency)
        channels = await _channels(count, _harness_guild(h))
        opened = await load.open_all(
            plan(count, rng, only, max_seats), channels, concurrency=open_concurrency, progress=True
        )
        await h.settle()
        assert h.bot is not None
        asked_before = notifications_asked(h.bot.metrics.exposition().decode())
        cpu = time.process_time()
        figures = await _play_and_count(load, ledger, duration)
        cpu = time.process_time() - cpu
        await h.settle()
        asked = notifications_asked(h.bot.metrics.exposition().decode()) - asked_before
        errors = h.errors
    finally:
        await ledger.close()
        await h.close()
        bot_logger.setLevel(old_level)
    figures.update(load.figures(asked))
    figures.update(
        {
            "think_seconds": think.describe(),
            "window_seconds": duration,
            "opening_seconds": round(opened, 1),
            "cpu_seconds": round(cpu, 2),
            "cpu_ms_per_decision": round(1000 * cpu / max(1, figures["decisions"]), 2),
            "decisions_per_cpu_second": round(figures["decisions"] / max(cpu, 1e-9), 1),
            "errors": len(errors),
            "first_errors": errors[:3],
        }
    )
    return figures


# The floor measured with `with_floor`: bench floor's defaults.
FLOOR_CLICKERS, FLOOR_SECONDS, FLOOR_POSTS = 64, 20.0, 1.3


def rate_limits(*, per_channel: bool, global_limit: bool) -> RateLimits | None:
    """The loopback's limits for these flags: Discord's per-channel message bucket, its global limit."""
    from fakediscord.rate_limits import DISCORD_GLOBAL, DISCORD_MESSAGES, RateLimits

    if not (per_channel or global_limit):
        return None
    return RateLimits(DISCORD_MESSAGES if per_channel else None, DISCORD_GLOBAL if global_limit else None)


def limits_name(limits: RateLimits | None) -> str:
    """How the run's rate limits read in the report."""
    if limits is None:
        return "none"
    parts = [f"{b.limit} messages per {b.per:g} s per channel" for b in [limits.messages] if b is not None]
    parts += [f"global {b.limit} per {b.per:g} s" for b in [limits.global_limit] if b is not None]
    return ", ".join(parts) or "none"


@dataclass
class LoopbackBot:
    """The bot in its own process against the loopback fake Discord, warmed up and idle, with what the
    bench drives and measures it by: the players, its metrics page, its database, this process's loop lag."""

    lb: Loopback
    bot: BotProcess
    load: LoopbackRun
    rng: random.Random
    clock: BotClock
    ledger: Ledger
    lag: LoopLag
    channels: list[int]  # one per game to open, made before the bot connected
    log: IO[bytes]
    log_path: Path

    def rate_limited(self) -> Counter[str]:
        """The 429s the fake answered so far, by scope."""
        return Counter(self.lb.limiter.rejected) if self.lb.limiter is not None else Counter()

    def logged(self) -> int:
        """The bot's log so far, in bytes (what was logged up to now is told apart from what follows)."""
        self.log.flush()
        return self.log_path.stat().st_size


@contextlib.asynccontextmanager
async def loopback_bot(
    channels: int,
    *,
    url: str,
    think: ThinkTime,
    seed: int,
    directory: Path,
    open_concurrency: int,
    warm_up: bool,
    limits: RateLimits | None = None,
    ai_level: str = "heuristic",
    record: Path | None = None,
) -> AsyncIterator[LoopbackBot]:
    """Start the loopback fake with `channels` text channels (at most TABLES_PER_GUILD per guild), the bot in
    its own process against it (its log in `directory`/bot.log), one game of each kind played first
    (`warm_up`), and wait until the bot is idle; stop everything after."""
    from fakediscord.loopback import Loopback
    from harness.run_bot import BotProcess

    lb = await Loopback.start(answer_timeout=LOBBY_WITHIN, limits=limits)
    fake = lb.fake
    rng = random.Random(seed)
    load = LoopbackRun(lb, think, rng)
    load.ai_level = ai_level
    if record is not None:
        load.recorder = Recorder(record)
        load.recorder.watch(lb)

    async def add_guild(count: int) -> list[int]:
        guild = fake.add_guild(f"guild-{len(fake.guilds)}")
        return [fake.add_text_channel(f"table-{i}", guild) for i in range(count)]

    # Every guild exists before the bot connects: the gateway sends them all at IDENTIFY.
    warm_channels = await _channels(3, add_guild)
    game_channels = await _channels(channels, add_guild)
    log_path = directory / "bot.log"
    bot: BotProcess | None = None
    ledger = Ledger(url)
    lag = LoopLag()
    lag_task = asyncio.create_task(lag.run())
    log: IO[bytes]
    try:
        with open(log_path, "wb") as log:  # noqa: ASYNC230 - opened once, before anything runs
            clock = BotClock(free_port())
            # Without the global limit the bot does not pace itself under it either (bot/transport/pacing.py).
            paced = {} if limits is not None and limits.global_limit is not None else {"global_rate_limit": "0"}
            bot = await BotProcess.spawn(
                lb, url, log=log, metrics_port=str(clock.port), table_edit_interval=str(TABLE_EDIT_INTERVAL), **paced
            )
            await lb.wait_ready(within=120)
            if not await lb.wait_until(lambda: bool(fake.commands), 60):
                raise AssertionError("the bot never synced its commands")
            if warm_up:
                await _warm_up(load, _given(warm_channels), open_concurrency)
            await idle(bot.pid)
            yield LoopbackBot(lb, bot, load, rng, clock, ledger, lag, game_channels, log, log_path)
    finally:
        lag_task.cancel()
        if bot is not None and bot.alive:
            bot.kill()
            await bot.wait()
        await ledger.close()
        await lb.close()


async def _run_loopback(
    count: int,
    *,
    url: str,
    think: ThinkTime,
    seed: int,
    directory: Path,
    only: str | None,
    duration: float | None,
    max_seats: int,
    open_concurrency: int,
    warm_up: bool,
    limits: RateLimits | None = None,
    ai_level: str = "heuristic",
    record: Path | None = None,
) -> dict[str, Any]:
    async with loopback_bot(
        count,
        url=url,
        think=think,
        seed=seed,
        directory=directory,
        open_concurrency=open_concurrency,
        warm_up=warm_up,
        limits=limits,
        ai_level=ai_level,
        record=record,
    ) as session:
        lb, bot, load, clock, lag = session.lb, session.bot, session.load, session.clock, session.lag
        recorder = load.recorder
        rss_before, own_cpu = rss_kb(bot.pid), time.process_time()
        bot_cpu = cpu_seconds(bot.pid, children=True)
        opened = await load.open_all(
            plan(count, session.rng, only, max_seats), session.channels, concurrency=open_concurrency, progress=True
        )
        opening_own_cpu = time.process_time() - own_cpu
        # The threads, tables and first DMs are out once the bot has nothing left to do.
        backlog = await idle(bot.pid)
        opening_bot_cpu = cpu_seconds(bot.pid, children=True) - bot_cpu
        rss_growth = rss_kb(bot.pid) - rss_before
        lag.lags.clear()
        scraped = await clock.scrape()
        scraped_at = time.perf_counter()
        rejected_before = session.rate_limited()
        bot_cpu, main_cpu = cpu_seconds(bot.pid, children=True), cpu_seconds(bot.pid)
        own_cpu = time.process_time()
        figures = await _play_and_count(load, session.ledger, duration)
        own_cpu = time.process_time() - own_cpu
        bot_cpu = cpu_seconds(bot.pid, children=True) - bot_cpu
        main_cpu = cpu_seconds(bot.pid) - main_cpu
        if recorder is not None:
            recorder.stop({"window_seconds": round(time.perf_counter() - recorder.started, 2)})
        lags = [x * 1000 for x in lag.lags]
        with contextlib.suppress(TimeoutError):  # what the last decisions set off is sent before the bot stops
            # (a request held for its rate-limit bucket sends nothing until the bucket resets)
            held_up_to = limits.messages.per if limits is not None and limits.messages is not None else 0.0
            await lb.quiet(idle=0.5 + held_up_to, within=120)
        final = await clock.scrape()
        scraped_for = time.perf_counter() - scraped_at
        inside = BotClock.figures(BotClock.answer_counts(scraped), BotClock.answer_counts(final))
        asked = notifications_asked(final) - notifications_asked(scraped)
        searches = counter_delta(scraped, final, "tablebot_ai_searches", "where")
        searched = counter_delta(scraped, final, "tablebot_ai_search_cpu_seconds", "where")
        within_limits = limit_figures(scraped, final)
        bucket = within_limits["global_bucket"]
        bucket["busy_share"] = round(bucket["busy_seconds"] / max(scraped_for, 1e-9), 3)
        within_limits["rate_limited"] = dict(session.rate_limited() - rejected_before)
        measured_log = session.logged()
        await bot.stop()
    logged = session.log_path.read_bytes()
    errors = _errors(logged[:measured_log])
    figures.update(load.figures(asked))
    decisions = max(1, figures["decisions"])
    figures.update(
        {
            "think_seconds": think.describe(),
            "window_seconds": duration,
            "opening_seconds": round(opened, 1),
            "open_concurrency": open_concurrency,
            "opening_bot_cpu_seconds": round(opening_bot_cpu, 2),
            "opening_bot_cpu_ms_per_game": round(1000 * opening_bot_cpu / max(1, count), 1),
            "opening_bench_cpu_seconds": round(opening_own_cpu, 2),
            "bot_busy_after_opening_seconds": round(backlog, 1),
            "cpu_seconds": round(bot_cpu, 2),
            "cpu_ms_per_decision": round(1000 * bot_cpu / decisions, 2),
            "bot_main_process_cpu_seconds": round(main_cpu, 2),
            # The expert's searches (AI workers, or the bot's process without them), within their budget each.
            "ai_search": {
                "searches": int(sum(searches.values())),
                "cpu_seconds": round(sum(searched.values()), 2),
                "cpu_ms_per_search": round(1000 * sum(searched.values()) / max(1, sum(searches.values())), 1),
                "budget_ms": DEFAULT_BUDGET_MS,
            },
            "cpu_ms_per_decision_without_ai_search": round(1000 * (bot_cpu - sum(searched.values())) / decisions, 2),
            "decisions_per_cpu_second": round(figures["decisions"] / max(bot_cpu, 1e-9), 1),
            "bench_cpu_seconds": round(own_cpu, 2),
            "bench_loop_lag_p99_ms": round(percentile(lags, 0.99), 1),
            "bench_loop_lag_max_ms": round(max(lags, default=0), 1),
            "rss_per_game_kb": round(rss_growth / max(1, count), 1),
            "bot_answer_timing": inside,
            "unknown_rest_calls": len(lb.unknown),
            "within_limits": within_limits,
            "errors": len(errors),
            "first_errors": errors[:3],
            "errors_at_shutdown": len(_errors(logged[measured_log:])),
        }
    )
    if recorder is not None:
        recorder.write_meta(
            {
                "games": count,
                "think": think.seconds,
                "think_distribution": think.distribution,
                "ai_level": ai_level,
                "limits": {
                    "per_channel": limits is not None and limits.messages is not None,
                    "global": limits is not None and limits.global_limit is not None,
                },
                **{key: figures[key] for key in ("decisions", "human_decisions", "ai_decisions", "wall_seconds")},
                "bot_cpu_seconds": round(bot_cpu, 3),
                "bot_main_process_cpu_seconds": round(main_cpu, 3),
                "ai_search": figures["ai_search"],
            }
        )
    return figures
