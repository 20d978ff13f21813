"""`python -m bench load --capacity`: the most concurrent games the machine holds at a human pace.

One bot process (loopback: its own process, Discord's limits on, the global limit too, as `bench load`
runs it) is taken up in levels: `start` games, then `step` more at a time up to `maximum`. At each level
the games are opened (`--open-concurrency` lobbies at a time) while the earlier ones play on, then left
to settle (`settle` seconds: the new games' openings sent, their first prompts out), then measured over
a `window` of seconds. A game that ends is replaced at once by a new game of the same kind and seats in
its channel, so a level holds its number of games however long the search runs. The search stops at the
first level that fails (`failures`) and the capacity is the largest level before it.

A level passes when, over its window, the words of a prompt reach its player in time: the answer to a
click (which shows the clicking player's next prompt; from the INTERACTION_CREATE the bench handed over to
the answer itself, an unanswered click counting as ANSWER_WITHIN) p99 < PROMPT_P99_MS as the bench saw it;
the DM prompt of every other player whose prompt changed (the bot's own clock,
`tablebot_notification_delay_seconds{kind="dm"}`: from the update handed to the notifier to Discord's answer
showing the prompt's words and buttons) p99 < PROMPT_P99_MS, estimated within its histogram's bucket
(there is a bound at 400 and one at 500 ms); and no 429 answered to the bot in the window. The 429s met
while the level's games opened are given apart and not held against it: opening `step` games within a
minute or so (each a thread, a table, DMs) is the search's own burst, not the steady load of that many
games; how the bot paces a burst of openings is measured by `python -m bench tournament` (tournament_open).
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bench._figures import cpu_seconds, percentile
from bench.load.measure import (
    DELAYS,
    BotClock,
    _errors,
    counter_delta,
    histogram_counts,
    histogram_quantile,
    rss_kb,
)
from bench.load.plan import ANSWER_WITHIN, FINISHED_POLL, PROMPT_P99_MS, Table, ThinkTime, plan
from bench.load.runner import limits_name, loopback_bot

if TYPE_CHECKING:
    from bench.load.players import LoadRun
    from bench.load.runner import LoopbackBot
    from fakediscord.rate_limits import RateLimits

# What a player meets once the bot is at its limit: the measure of a level (see the module's docstring).
CRITERIA = {
    "answer_p99_ms": f"< {PROMPT_P99_MS:g}",
    "dm_prompt_p99_ms": f"< {PROMPT_P99_MS:g}",
    "rate_limited": "0",
}

# The capacity found, and the memory each game held at it (the bot process's RSS growth over its games).
TARGETS = {"capacity_games": ">= 1000", "at_capacity.rss_per_game_kb": "<= 100"}

# Human pace: a player's think time log-normal around a 10 s median (plan.LOGNORMAL_SIGMA says why its spread).
THINK = ThinkTime(10.0, "lognormal")


@dataclass(frozen=True)
class Ramp:
    """The levels tried: `start` games, `step` more each time, up to `maximum`; each measured over `window`
    seconds once its games were open and `settle` seconds passed. The defaults reach 1,000 games in five
    levels and 2,000 in ten (about 2.5 minutes a level at 1,000 games: opening 200 games, settling, the
    window), a 200-game resolution; a window of 60 s holds several thousand clicks at 1,000 games and a
    few hundred at 200, enough for a p99."""

    start: int = 200
    step: int = 200
    maximum: int = 2000
    window: float = 60.0
    settle: float = 20.0


def failures(level: dict[str, Any]) -> list[str]:
    """Why a level's figures fail the criteria (nothing: it passed). A window where nobody clicked says
    nothing: it fails too. A p99 the level has no observation for (no DM prompt in the window) is not held
    against it."""
    found = []
    if not level.get("clicks"):
        found.append("no click in the window")
    for key, what in (("answer_p99_ms", "a click's answer"), ("dm_prompt_p99_ms", "a DM prompt's words")):
        value = level.get(key)
        if value is not None and value >= PROMPT_P99_MS:
            found.append(f"{what} p99 {value:g} ms >= {PROMPT_P99_MS:g}")
    if level.get("rate_limited"):
        found.append(f"{level['rate_limited']} 429s in the window")
    return found


def next_level(levels: Sequence[tuple[int, bool]], ramp: Ramp) -> int | None:
    """The number of games to hold next, given the levels measured so far ((games, passed), in order):
    `start` first, then `step` more after each level that passed, at most `maximum`; None once a level
    failed or `maximum` was held."""
    if not levels:
        return min(ramp.start, ramp.maximum)
    games, passed = levels[-1]
    if not passed or games >= ramp.maximum:
        return None
    return min(games + ramp.step, ramp.maximum)


def capacity_of(levels: Sequence[tuple[int, bool]]) -> int:
    """The largest number of games held: the last level that passed before the first that failed (0 when
    the first failed)."""
    held = 0
    for games, passed in levels:
        if not passed:
            break
        held = games
    return held


class Keeper:
    """Keeps `target` games running: opens new ones as the target rises (the mix in turn, seats at random)
    and, as games end, a game of the same kind and seats in the channel each ended one leaves, `concurrency`
    lobbies at a time. Each game's players start as soon as it is open."""

    def __init__(
        self,
        load: LoadRun,
        channels: Sequence[int],
        rng: random.Random,
        *,
        concurrency: int,
        only: str | None = None,
        max_seats: int = 6,
    ) -> None:
        self.load = load
        self.free = list(channels)  # channels with no running game
        self.rng = rng
        self.only = only
        self.max_seats = max_seats
        self.gate = asyncio.Semaphore(concurrency)
        self.target = 0
        self.running: list[Table] = []  # open games (those that ended leave at the next tick)
        self.opening = 0  # games being opened now
        self.rising = 0  # of which those the rising target asked for (not replacements)
        self.started = 0  # games whose opening started (each gets its own players' names)
        self.planned = 0  # games planned for the rising target (the mix's turn)
        self.opened = 0  # games opened so far
        self.replaced = 0  # games that ended (each replaced)
        self.failure: BaseException | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    def active(self) -> int:
        return sum(not t.finished for t in self.running)

    def tick(self) -> None:
        """Replace the games that ended; open what the target asks for beyond the games there are."""
        ended = [t for t in self.running if t.finished]
        if ended:
            self.running = [t for t in self.running if not t.finished]
            self.replaced += len(ended)
            for table in ended:
                self._open((table.key, table.variants, len(table.humans), table.ais), table.channel, rising=False)
        more = self.target - len(self.running) - self.opening
        if more > 0:
            channels, self.free = self.free[:more], self.free[more:]
            games = plan(len(channels), self.rng, self.only, self.max_seats, first=self.planned)
            self.planned += len(channels)
            for game, channel in zip(games, channels, strict=True):
                self._open(game, channel, rising=True)

    def _open(self, game: tuple[str, str, int, int], channel: int, *, rising: bool) -> None:
        self.started += 1
        self.opening += 1
        self.rising += rising
        task = asyncio.create_task(self._opened(self.started, game, channel, rising))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _opened(self, index: int, game: tuple[str, str, int, int], channel: int, rising: bool) -> None:
        try:
            async with self.gate:
                table = await self.load.open_game(index, *game, channel)
        except Exception as error:  # the search stops at this level and says why
            self.failure = self.failure or error
            return
        finally:
            self.opening -= 1
            self.rising -= rising
        self.opened += 1
        self.running.append(table)
        self.load.start_players(table)

    def check(self) -> None:
        """Raise what made a game fail to open, if one did."""
        if self.failure is not None:
            raise AssertionError(f"a game could not be opened: {self.failure!r}") from self.failure

    async def run(self) -> None:
        while True:
            self.tick()
            await asyncio.sleep(FINISHED_POLL)

    async def reach(self, target: int, check: Callable[[], None]) -> float:
        """Raise the target and wait until the games it adds are all open (replacements of games that end
        meanwhile may still be opening: under load some always are), `check()` raising if the run cannot go
        on; the seconds it took."""
        started = time.perf_counter()
        self.target = target
        self.tick()
        while self.rising:
            await asyncio.sleep(0.2)
            self.check()
            check()
        return time.perf_counter() - started

    async def close(self) -> None:
        """Stop opening games (what is being opened is given up)."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)


async def measure_level(
    session: LoopbackBot, keeper: Keeper, games: int, window: float, check: Callable[[], None], *, rss_before: int
) -> dict[str, Any]:
    """One level's window: what the players saw (the bench's own clock) and what the bot counted (its
    metrics between two scrapes), its CPU, memory, and the machine's load."""
    load, pid = session.load, session.bot.pid
    before = await session.clock.scrape()
    load.restart_counts()
    session.lag.lags.clear()
    bot_cpu, own_cpu, started = cpu_seconds(pid, children=True), time.process_time(), time.perf_counter()
    rejected = session.rate_limited()
    opened, replaced = keeper.opened, keeper.replaced
    active: list[int] = []
    while time.perf_counter() - started < window:
        await asyncio.sleep(1.0)
        active.append(keeper.active())
        keeper.check()
        check()
    after = await session.clock.scrape()
    wall = time.perf_counter() - started
    bot_cpu = cpu_seconds(pid, children=True) - bot_cpu
    own_cpu = time.process_time() - own_cpu
    decided = counter_delta(before, after, "tablebot_decisions", "kind")
    decisions = int(sum(decided.values()))
    # An unanswered click is a prompt that never came in time: it counts at the bench's give-up time.
    answers = [1000 * x for x in load.answers] + [1000 * ANSWER_WITHIN] * load.outcomes["unanswered"]
    rss = rss_kb(pid)

    def delay_p99(kind: str) -> float | None:
        estimate = histogram_quantile(
            histogram_counts(before, DELAYS, kinds=(kind,)), histogram_counts(after, DELAYS, kinds=(kind,)), 0.99
        )
        return round(1000 * estimate, 1) if estimate is not None else None

    dm = BotClock.figures(*(histogram_counts(page, DELAYS, kinds=("dm",)) for page in (before, after)))
    mean_active = sum(active) / max(1, len(active))
    return {
        "games": games,
        "active_min": min(active, default=0),
        "active_mean": round(mean_active, 1),
        "opened_in_window": keeper.opened - opened,
        "replaced_in_window": keeper.replaced - replaced,
        "window_seconds": round(wall, 1),
        "clicks": load.clicks,
        "decisions_per_second": round(decisions / wall, 1),
        "human_decisions_per_second": round(decided.get("human", 0.0) / wall, 1),
        "click_p99_ms": round(percentile([1000 * x for x in load.latencies], 0.99), 1),
        "answer_p99_ms": round(percentile(answers, 0.99), 1),
        "unanswered": load.outcomes["unanswered"],
        "dm_prompts": dm["answers"],
        "dm_prompt_p99_ms": delay_p99("dm"),
        "dm_prompt_p99_under_ms": dm.get("p99_under_ms"),
        "dm_picture_p99_ms": delay_p99("dm_picture"),
        "table_p99_ms": delay_p99("table"),
        "rate_limited": sum((session.rate_limited() - rejected).values()),
        "bot_cpu_ms_per_decision": round(1000 * bot_cpu / max(1, decisions), 2),
        "bot_cores": round(bot_cpu / wall, 2),
        "bot_rss_mb": round(rss / 1024, 1),
        "rss_per_game_kb": round((rss - rss_before) / max(1.0, mean_active), 1),
        "load_average": round(os.getloadavg()[0], 2),
        "bench_cores": round(own_cpu / wall, 2),
        "bench_loop_lag_p99_ms": round(percentile([1000 * x for x in session.lag.lags], 0.99), 1),
    }


async def search(
    ramp: Ramp,
    *,
    url: str,
    directory: Path,
    seed: int,
    limits: RateLimits | None,
    think: ThinkTime = THINK,
    open_concurrency: int = 16,
    only: str | None = None,
    max_seats: int = 6,
    ai_level: str = "heuristic",
    warm_up: bool = True,
    progress: bool = True,
) -> dict[str, Any]:
    """Take one bot process up level by level (`Ramp`) until a level fails the criteria; the figures of
    every level measured and the capacity found."""
    started = time.perf_counter()
    levels: list[dict[str, Any]] = []
    async with loopback_bot(
        ramp.maximum,
        url=url,
        think=think,
        seed=seed,
        directory=directory,
        open_concurrency=open_concurrency,
        warm_up=warm_up,
        limits=limits,
        ai_level=ai_level,
    ) as session:
        load, pid = session.load, session.bot.pid
        keeper = Keeper(
            load, session.channels, session.rng, concurrency=open_concurrency, only=only, max_seats=max_seats
        )
        rss_before = rss_kb(pid)
        load.recording = True  # count what the bot sends from the first game on (each window restarts the counts)
        load.last_progress = time.perf_counter()
        watcher = asyncio.create_task(load.watch_ends(session.ledger))
        keeping = asyncio.create_task(keeper.run())

        def check() -> None:
            load.check(watcher)

        try:
            games = next_level([], ramp)
            while games is not None:
                level_started, log_from = time.perf_counter(), session.logged()
                rejected = session.rate_limited()
                try:
                    ramp_seconds = await keeper.reach(games, check)
                    await _sleep_checking(ramp.settle, keeper, check)
                    level = await measure_level(session, keeper, games, ramp.window, check, rss_before=rss_before)
                    level["ramp_seconds"] = round(ramp_seconds, 1)
                    level["rss_per_added_game_kb"] = _rss_slope(levels, level)
                    # The 429s while its games opened and settled: told, not judged (see the module's docstring).
                    met = session.rate_limited() - rejected
                    level["rate_limited_opening"] = sum(met.values()) - level["rate_limited"]
                    level["rate_limited_by_scope"] = dict(met)
                except AssertionError as stopped:  # the bot could not open or play on at this level
                    level = {"games": games, "stopped": str(stopped)[:300]}
                errors = _errors(session.log_path.read_bytes()[log_from : session.logged()])
                level["errors"] = len(errors)
                level["first_error"] = errors[0] if errors else None
                level["failures"] = failures(level) if "stopped" not in level else [level["stopped"]]
                level["passed"] = not level["failures"]
                level["level_seconds"] = round(time.perf_counter() - level_started, 1)
                levels.append(level)
                if progress:
                    print(_progress(level, time.perf_counter() - started), file=sys.stderr, flush=True)
                games = next_level([(x["games"], x["passed"]) for x in levels], ramp)
            keeping.cancel()
            await keeper.close()
            await load.stop_players()
        finally:
            await keeper.close()
            await load.cancel_players(watcher, keeping)
        await session.bot.stop()
    held = capacity_of([(x["games"], x["passed"]) for x in levels])
    last = levels[-1]
    at = next((x for x in levels if x["games"] == held and x["passed"]), None)
    return {
        "mode": "loopback",
        "database": "postgresql" if url.startswith("postgresql") else "sqlite",
        "rate_limits": limits_name(limits),
        "ai_level": ai_level,
        "think_seconds": think.describe(),
        "ramp": {
            "start": ramp.start,
            "step": ramp.step,
            "maximum": ramp.maximum,
            "window_seconds": ramp.window,
            "settle_seconds": ramp.settle,
            "open_concurrency": open_concurrency,
        },
        "capacity_games": held,
        # The level held: what it cost and what players met there.
        "at_capacity": {key: at[key] for key in AT_CAPACITY} if at is not None else None,
        # Every level passed up to the most the search was allowed: the machine holds at least this many.
        "capacity_is_lower_bound": bool(last["passed"]),
        "stopped_at": None if last["passed"] else {"games": last["games"], "failures": last["failures"]},
        "games_opened": keeper.opened,
        "games_replaced": keeper.replaced,
        "errors": sum(x["errors"] for x in levels),
        "search_seconds": round(time.perf_counter() - started, 1),
        "levels": levels,
    }


AT_CAPACITY = (
    "decisions_per_second",
    "click_p99_ms",
    "answer_p99_ms",
    "dm_prompt_p99_ms",
    "dm_picture_p99_ms",
    "table_p99_ms",
    "bot_cpu_ms_per_decision",
    "bot_cores",
    "bot_rss_mb",
    "rss_per_game_kb",
    "rss_per_added_game_kb",
    "load_average",
)


def save(figures: dict[str, Any], command: str, *, directory: Path | None = None, pictures: Path | None = None) -> Path:
    """Save a search as bench/results/capacity-<database>.json (or in `directory`) and its curve as
    bench/capacity-<database>.png (or in `pictures`: beside the REPORT.md that shows it)."""
    from bench import results
    from bench.load.curve import capacity_curve

    database = figures["database"]
    name = f"capacity-{database}"
    label = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}.get(database, database)
    held = f"{'at least ' if figures['capacity_is_lower_bound'] else ''}{figures['capacity_games']:,}"
    picture = f"{name}.png"
    folder = pictures or results.RESULTS.parent
    folder.mkdir(parents=True, exist_ok=True)
    (folder / picture).write_bytes(
        capacity_curve(
            figures["levels"],
            title=f"Capacity on {label}: holds {held} games at a human pace",
            capacity=figures["capacity_games"],
        )
    )
    how = (__doc__ or "").split("\n", 1)[1].strip()
    return results.save(
        name,
        command,
        figures,
        title=f"Capacity: concurrent games at a human pace ({label}, bot in its own process, within Discord's limits)",
        targets=TARGETS,
        notes=how + "\n\nThe curve: each level's p99s (an unanswered click counts 30 s; the axis stops at 1 s).",
        directory=directory,
        picture=picture,
    )


def _rss_slope(levels: Sequence[dict[str, Any]], level: dict[str, Any]) -> float | None:
    """The bot's RSS grown since the previous level over the games added: memory per game without what
    grows once (caches warming up), which the growth since the first game (`rss_per_game_kb`) spreads
    over them. None for the first level."""
    previous = next((x for x in reversed(levels) if "bot_rss_mb" in x), None)
    if previous is None or level["games"] <= previous["games"]:
        return None
    return round(1024 * (level["bot_rss_mb"] - previous["bot_rss_mb"]) / (level["games"] - previous["games"]), 1)


async def _sleep_checking(seconds: float, keeper: Keeper, check: Callable[[], None]) -> None:
    """Wait `seconds` while the games play, raising as soon as the run cannot go on."""
    until = time.perf_counter() + seconds
    while time.perf_counter() < until:
        await asyncio.sleep(min(1.0, max(0.0, until - time.perf_counter())))
        keeper.check()
        check()


def _progress(level: dict[str, Any], elapsed: float) -> str:
    """One line per level while the search runs (stderr)."""
    head = f"[{elapsed / 60:5.1f} min] {level['games']:5d} games: "
    if "stopped" in level:
        return head + f"stopped: {level['stopped']}"
    return head + (
        f"answer p99 {level['answer_p99_ms']:g} ms, DM prompt p99 {level['dm_prompt_p99_ms']} ms, "
        f"{level['rate_limited']} 429s ({level['rate_limited_opening']} while opening), "
        f"{level['decisions_per_second']:g} decisions/s, "
        f"bot {level['bot_cpu_ms_per_decision']:g} ms CPU per decision, load {level['load_average']:g}: "
        + ("passed" if level["passed"] else "FAILED (" + "; ".join(level["failures"]) + ")")
    )
