"""Many games at once through the real bot: decisions per second, response latency, REST cost, memory.

    python -m bench load [--games 1000] [--database-url URL] [--think 3.0] [--seed 1] [--memory-games 100]

Runs the real bot and discord.py in one process with only the network replaced (tests/harness), in
several guilds (at most 100 tables per guild), one channel per game. The games mix all three games
with and without their variants, 2-6 seats (2-4 for Eight-Minute Empire), some of them AI. Every
human seat is a task that watches its DM and, after a think time drawn uniformly from 0 to 2x
`--think` seconds, clicks one of the buttons (or fills the select) it shows, at random: all players
of all games click concurrently and interleaved, and a click may be stale (answered "no longer
available"), as a slow human's would be.

Figures (play phase only; opening the lobbies is set-up):
- decisions per second: decisions committed (human clicks and AI seats; the action log) / wall time,
  also per CPU second of this process (which also runs the fake Discord and the players);
- latency: from the gateway event handed to discord.py (`parse_interaction_create`) to the first
  interaction callback the fake receives, p50 / p99 / max over every click;
- REST calls the bot sent on its own per resolved turn (a log post), against the floor
  (one table edit + one log post + one DM edit per human, weighted by each game's turns);
- memory per active game: Python memory traced (tracemalloc) with `--memory-games` games open and
  every human prompted, minus the same before they were opened, divided by their number. The fake
  Discord's own records (messages, calls, responses, channels, users) are set aside (pickled into one
  buffer whose size is subtracted) while measuring, so only the bot, discord.py and storage count.
  The other games are opened with tracing off. SQLite's C-level page cache is not traced (bounded,
  not per game); on PostgreSQL the server's memory is in another process.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import logging
import math
import pickle
import random
import resource
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tests.harness import Harness

# (game key, variants as /game new takes them, fewest seats, most seats)
MIX: tuple[tuple[str, str, int, int], ...] = (
    ("eggs-empires", "", 2, 6),
    ("eggs-empires", "scoring=conpub", 2, 6),
    ("eggs-empires", "tiebreaker=round", 2, 6),
    ("eight-minute-empire", "", 2, 4),
    ("eight-minute-empire", "explore=true citadels=true", 2, 4),
    ("reggverse-riddles", "", 2, 6),
    ("reggverse-riddles", "action_tiles=true objectives=true", 2, 6),
)
TABLES_PER_GUILD = 100
EPHEMERAL = 64
TARGETS = {"decisions_per_second": ">= 500", "latency_p99_ms": "< 100", "memory_per_game_kb": "<= 100"}
FAKE_RECORDS = ("messages", "ephemeral_messages", "calls", "responses", "interaction_sources",
                "interaction_messages", "channels", "users")
STALL_SECONDS = 120.0  # no decision anywhere for this long: the run failed


@dataclass
class Table:
    """One game of the run and the people at it."""

    key: str
    variants: str
    humans: list[int]
    ais: int
    channel: int
    game_id: int = 0
    thread: int = 0
    finished: bool = False
    dm_channels: dict[int, int] = field(default_factory=dict)  # user -> DM channel

    @property
    def floor(self) -> int:
        """REST calls a resolved turn cannot do without: table edit, log post, one DM edit per human."""
        return 2 + len(self.humans)


def plan(count: int, rng: random.Random, only: str | None = None, max_seats: int = 6
         ) -> list[tuple[str, str, int, int]]:
    """(key, variants, humans, AI seats) for each game: the mix in turn, seats and AIs at random."""
    mix = [m for m in MIX if only is None or m[0] == only]
    tables = []
    for index in range(count):
        key, variants, low, high = mix[index % len(mix)]
        seats = rng.randint(low, min(high, max_seats))
        ais = rng.randint(0, min(2, seats - 1))
        tables.append((key, variants, seats - ais, ais))
    return tables


def percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile (0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(fraction * len(ordered)) - 1))]


def _choice_components(message: dict[str, Any]) -> list[dict[str, Any]]:
    from tests.harness.play import choice_components

    return choice_components(message)


class LoadRun:
    """Drives the games of one run and records what happened."""

    def __init__(self, h: Harness, think: float, rng: random.Random) -> None:
        self.h = h
        self.think = think
        self.rng = rng
        self.tables: list[Table] = []
        self.by_game: dict[int, Table] = {}
        self.by_thread: dict[int, Table] = {}
        self.changed: dict[int, asyncio.Event] = {}  # DM channel -> "its message changed"
        self.answered: dict[str, asyncio.Future[float]] = {}  # token -> when its first callback came
        self.arrivals: dict[str, float] = {}
        self.latencies: list[float] = []  # arrival -> first callback (a deferral counts)
        self.answers: list[float] = []  # arrival -> the answer itself (the first message or edit)
        self.clicks = 0
        self.refused: set[str] = set()  # clicks answered with an ephemeral refusal (stale, already decided)
        self.unanswered = 0
        self.bot_calls: Counter[str] = Counter()
        self.turns: Counter[int] = Counter()  # game id -> resolved turns (log posts)
        self.last_progress = time.perf_counter()
        self.recording = False
        self.closing = False  # the window is over: players stop clicking
        self._original_handle: Callable[[Any], Any] = h.fake._handle
        h.fake._handle = self._observe  # type: ignore[method-assign]

    # --- watching the fake Discord -----------------------------------------------------------
    def _observe(self, call: Any) -> Any:
        """Every REST call the fake serves: note responses, wake the player whose DM changed, and
        (while recording) count the call and drop the fake's copy so a long run does not pile up."""
        try:
            return self._original_handle(call)
        finally:
            self._after(call)

    def _after(self, call: Any) -> None:
        from tests.harness.play import classify

        fake = self.h.fake
        parts = call.path.strip("/").split("/")
        now = time.perf_counter()
        channel: int | None = None
        if parts[0] == "interactions":
            token = parts[2]
            waiter = self.answered.pop(token, None)
            if waiter is not None and not waiter.done():
                waiter.set_result(now)
            body = call.json or {}
            if int(body.get("type", 0)) in (4, 7):  # a message or an edit, not a deferral
                self._answered(token, now)
            if int(body.get("type", 0)) == 4 and int((body.get("data") or {}).get("flags") or 0) & EPHEMERAL:
                self.refused.add(token)
            channel = fake.interaction_sources.get(token, {}).get("channel_id")
        elif parts[0] == "webhooks" and len(parts) > 2:
            self._answered(parts[2], now)  # the edit or followup after a deferral
            if call.method == "POST" and int((call.json or {}).get("flags") or 0) & EPHEMERAL:
                self.refused.add(parts[2])  # a refusal sent after a deferral
            channel = fake.interaction_sources.get(parts[2], {}).get("channel_id")
        elif parts[0] == "channels" and len(parts) >= 3:
            channel = int(parts[1])
        if channel is not None and channel in self.changed:
            self.changed[channel].set()
        if not self.recording:
            return
        if call.via == "http":
            self.bot_calls[classify(self.h, call.method, call.path)] += 1
            if channel is not None and call.method == "POST" and channel in self.by_thread:
                table = self.by_thread[channel]
                self.turns[table.game_id] += 1
                posted = fake.messages.get(channel, {})
                if len(posted) > 1:  # keep the table message (edited each turn), drop the log line
                    posted.pop(max(posted))
        fake.calls.clear()
        fake.responses.clear()

    def _answered(self, token: str, now: float) -> None:
        arrival = self.arrivals.pop(token, None)
        if arrival is not None:
            self.answers.append(now - arrival)

    # --- opening the games -------------------------------------------------------------------
    async def open_game(self, key: str, variants: str, humans: int, ais: int, channel: int) -> Table:
        h = self.h
        users = [h.user(f"P{len(self.tables)}-{i}") for i in range(humans)]
        table = Table(key, variants, users, ais, channel)
        extra: dict[str, Any] = {"variants": variants} if variants else {}
        await h.slash(users[0], "game new", channel=channel, game=key, timer=0, **extra)
        for user in users[1:]:
            await self._lobby_click(table, user, "Join")
        for _ in range(ais):
            await self._lobby_click(table, users[0], "Add AI")
        custom_id, _message = self._lobby_button(table, "Start")
        table.game_id = int(custom_id.split(":")[1])
        await self._lobby_click(table, users[0], "Start")
        assert self.h.bot is not None
        row = await self.h.bot.table.db.get_game(table.game_id)
        assert row is not None and row.status == "active", f"game {table.game_id} did not start: {h.errors}"
        table.thread = row.thread_id or channel
        for user in users:
            dm = h.dm_channel(user)
            assert dm is not None, "every human gets a DM"
            table.dm_channels[user] = dm
            self.changed[dm] = asyncio.Event()
        self.tables.append(table)
        self.by_game[table.game_id] = table
        self.by_thread[table.thread] = table
        return table

    def _lobby_button(self, table: Table, label: str) -> tuple[str, dict[str, Any]]:
        for message in reversed(self.h.messages_in(table.channel)):
            for component in self.h.components(message):
                if component.get("label") == label:
                    return str(component["custom_id"]), message
        raise AssertionError(f"no {label!r} button in the lobby of a {table.key} game")

    async def _lobby_click(self, table: Table, user: int, label: str) -> None:
        custom_id, message = self._lobby_button(table, label)
        responses = await self.h.click(user, custom_id, message=message, channel=table.channel)
        assert responses, f"{label} was not answered"

    # --- playing -----------------------------------------------------------------------------
    def _dm_message(self, table: Table, user: int) -> dict[str, Any] | None:
        messages = self.h.fake.messages.get(table.dm_channels[user], {})
        return messages[max(messages)] if messages else None

    async def _click(self, user: int, channel: int, message: dict[str, Any]) -> None:
        """Click a choice on `message` (a random button, or a random pick on its select)."""
        assert self.h.bot is not None
        component = self.rng.choice(_choice_components(message))
        data: dict[str, Any] = {"custom_id": component["custom_id"], "component_type": component["type"]}
        if component["type"] == 3:
            data["values"] = self.rng.sample([o["value"] for o in component["options"]], component["min_values"])
        payload, token = self.h._payload(user, 3, data, channel, message)
        waiter: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self.answered[token] = waiter
        self.clicks += 1
        self.arrivals[token] = arrival = time.perf_counter()
        self.h.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        try:
            answered = await asyncio.wait_for(waiter, timeout=30)
        except TimeoutError:
            self.unanswered += 1
            self.answered.pop(token, None)
            return
        self.latencies.append(answered - arrival)
        self.last_progress = answered

    async def player(self, table: Table, user: int) -> None:
        """One human: waits for a prompt in their DM, thinks, clicks; until the game is over (or the
        run's window closes: a click already fed is still waited for)."""
        channel = table.dm_channels[user]
        changed = self.changed[channel]
        answered_version: str | None = None
        while not table.finished and not self.closing:
            changed.clear()
            message = self._dm_message(table, user)
            choices = _choice_components(message) if message is not None else []
            version = ":".join(str(c["custom_id"]) for c in choices)
            if not choices or version == answered_version:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(changed.wait(), timeout=5)
                continue
            await asyncio.sleep(self.rng.uniform(0, 2 * self.think))
            if table.finished or self.closing:
                return
            assert message is not None
            answered_version = version
            await self._click(user, channel, message)

    def watch_finishes(self) -> None:
        """Mark a game over when the bot publishes its last update (observing, changing nothing)."""
        assert self.h.bot is not None
        notifier = self.h.bot.table.notifier
        publish = notifier.publish

        async def observed(update: Any) -> None:
            await publish(update)
            if update.game.status != "active":
                table = self.by_game.get(update.game.id)
                if table is not None and not table.finished:
                    table.finished = True
                    for dm in table.dm_channels.values():
                        self.changed[dm].set()

        notifier.publish = observed  # type: ignore[method-assign]

    async def play(self, duration: float | None) -> float:
        """Every human of every game plays at once, until every game ended or `duration` seconds
        passed; returns the wall time from the first click to the last answer."""
        self.recording = True
        tasks = [asyncio.create_task(self.player(t, u), name=f"player-{t.game_id}-{u}")
                 for t in self.tables for u in t.humans]
        self.last_progress = started = time.perf_counter()
        while not all(t.finished for t in self.tables):
            await asyncio.sleep(0.2)
            if duration is not None and time.perf_counter() - started >= duration:
                break
            if time.perf_counter() - self.last_progress > STALL_SECONDS:
                waiting = [t.game_id for t in self.tables if not t.finished][:10]
                for task in tasks:
                    task.cancel()
                raise AssertionError(f"no progress for {STALL_SECONDS:.0f} s; unfinished games {waiting}, "
                                     f"errors {self.h.errors[:5]}")
        self.closing = True
        for dm in self.changed.values():
            dm.set()
        await asyncio.gather(*tasks)
        elapsed = time.perf_counter() - started
        await self.h.settle()
        self.recording = False
        return elapsed

    async def decisions(self) -> tuple[int, int]:
        """Committed decisions so far in the run's games (the action log): human, AI."""
        assert self.h.bot is not None
        db = self.h.bot.table.db
        human = robot = 0
        for table in self.tables:
            robots = {s.seat for s in await db.seats(table.game_id) if s.user_id is None}
            for action in await db.actions(table.game_id):
                if action.seat in robots or action.afk:
                    robot += 1
                else:
                    human += 1
        return human, robot

    # --- memory ------------------------------------------------------------------------------
    def traced_without_fake(self) -> int:
        """Traced Python memory with the fake Discord's records set aside (pickled; buffer subtracted)."""
        fake = self.h.fake
        saved = pickle.dumps({name: getattr(fake, name) for name in FAKE_RECORDS}, pickle.HIGHEST_PROTOCOL)
        for name in FAKE_RECORDS:
            setattr(fake, name, type(getattr(fake, name))())
        gc.collect()
        traced = tracemalloc.get_traced_memory()[0] - sys.getsizeof(saved)
        for name, value in pickle.loads(saved).items():
            setattr(fake, name, value)
        return traced


def rss_kb() -> int:
    """This process's resident memory now, in KB."""
    with open("/proc/self/statm", encoding="ascii") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize() // 1024


async def run(count: int, *, database_url: str | None, think: float, seed: int, memory_games: int,
              directory: Path, only: str | None = None, duration: float | None = None, max_seats: int = 6
              ) -> dict[str, Any]:
    from tests.harness import Harness

    overrides: dict[str, Any] = {"database_url": database_url} if database_url else {}
    h = await Harness.start(directory / "load.sqlite3", seed=seed, **overrides)
    # Per-decision INFO lines would cost more than the decisions; put the level back after (tests share it).
    bot_logger = logging.getLogger("bot")
    old_level = bot_logger.level
    bot_logger.setLevel(logging.WARNING)
    rng = random.Random(seed)
    load = LoadRun(h, think, rng)
    try:
        channels: list[int] = []
        while len(channels) < count + 1:
            _guild, ids = await h.add_guild(min(TABLES_PER_GUILD, count + 1 - len(channels)))
            channels += ids
        # One game first, outside the figures: imports, fonts and caches warm up as in a running bot.
        warm = await load.open_game("eggs-empires", "", 2, 0, channels.pop())
        load.tables.clear()
        load.by_game.clear()
        load.by_thread.clear()
        warm.finished = True
        planned = plan(count, rng, only, max_seats)
        measured = min(memory_games, count)
        tracemalloc.start()
        before = load.traced_without_fake()
        opening = time.perf_counter()
        for (key, variants, humans, ais), channel in zip(planned[:measured], channels, strict=False):
            await load.open_game(key, variants, humans, ais, channel)
        after = load.traced_without_fake()
        tracemalloc.stop()
        rss_before = rss_kb()
        for (key, variants, humans, ais), channel in zip(planned[measured:], channels[measured:], strict=False):
            await load.open_game(key, variants, humans, ais, channel)
            if len(load.tables) % 100 == 0:
                print(f"{len(load.tables)} games open after {time.perf_counter() - opening:.0f} s", file=sys.stderr)
        opened = time.perf_counter() - opening
        rss_growth = rss_kb() - rss_before
        load.watch_finishes()
        human_before, robot_before = await load.decisions()
        cpu = time.process_time()
        wall = await load.play(duration)
        cpu = time.process_time() - cpu
        human_after, robot_after = await load.decisions()
        human_decisions, ai_decisions = human_after - human_before, robot_after - robot_before
        assert h.bot is not None
        if duration is None:
            for table in load.tables:
                row = await h.bot.table.db.get_game(table.game_id)
                assert row is not None and row.status == "finished", f"game {table.game_id} is {row and row.status}"
        errors = h.errors
    finally:
        await h.close()
        bot_logger.setLevel(old_level)
    turns = sum(load.turns.values())
    floor = sum(load.turns[t.game_id] * t.floor for t in load.tables) / max(1, turns)
    decisions = human_decisions + ai_decisions
    ms = [latency * 1000 for latency in load.latencies]
    answer_ms = [latency * 1000 for latency in load.answers]
    kinds = Counter(f"{t.key}{' (' + t.variants + ')' if t.variants else ''}" for t in load.tables)
    return {
        "games": len(load.tables), "finished": sum(t.finished for t in load.tables),
        "database": "postgresql" if database_url and database_url.startswith("postgresql") else "sqlite",
        "games_by_kind": dict(sorted(kinds.items())),
        "human_seats": sum(len(t.humans) for t in load.tables), "ai_seats": sum(t.ais for t in load.tables),
        "think_seconds": f"uniform 0-{2 * think:g}",
        "window_seconds": duration, "opening_seconds": round(opened, 1),
        "wall_seconds": round(wall, 2), "cpu_seconds": round(cpu, 2),
        "decisions": decisions, "human_decisions": human_decisions, "ai_decisions": ai_decisions,
        "decisions_per_second": round(decisions / wall, 1),
        "human_decisions_per_second": round(human_decisions / wall, 1),
        "decisions_per_cpu_second": round(decisions / max(cpu, 1e-9), 1),
        "clicks": load.clicks, "refused_clicks": len(load.refused), "unanswered": load.unanswered,
        "latency_p50_ms": round(percentile(ms, 0.50), 1), "latency_p99_ms": round(percentile(ms, 0.99), 1),
        "latency_max_ms": round(max(ms, default=0.0), 1),
        "latency_mean_ms": round(statistics.fmean(ms), 1) if ms else 0.0,
        "answer_p50_ms": round(percentile(answer_ms, 0.50), 1), "answer_p99_ms": round(percentile(answer_ms, 0.99), 1),
        "answer_max_ms": round(max(answer_ms, default=0.0), 1),
        "resolved_turns": turns, "rest_per_turn": round(sum(load.bot_calls.values()) / max(1, turns), 2),
        "floor_per_turn": round(floor, 2),
        "rest_by_kind_per_turn": {k: round(v / max(1, turns), 2) for k, v in sorted(load.bot_calls.items())},
        "memory_games": measured, "memory_per_game_kb": round((after - before) / max(1, measured) / 1024, 1),
        "rss_growth_per_game_kb": round(rss_growth / max(1, count - measured), 1) if count > measured else None,
        "errors": len(errors), "first_errors": errors[:3],
    }


def report(figures: dict[str, Any]) -> str:
    f = figures
    lines = [
        f"{f['games']} games at once on {f['database']} ({f['human_seats']} human seats, {f['ai_seats']} AI; "
        f"think time {f['think_seconds']} s; opening them took {f['opening_seconds']} s; "
        + (f"{f['finished']} finished" if f["window_seconds"] is None
           else f"played for a {f['window_seconds']:g} s window, {f['finished']} finished in it") + ")",
        f"  decisions: {f['decisions']} ({f['human_decisions']} human, {f['ai_decisions']} AI) in "
        f"{f['wall_seconds']} s: {f['decisions_per_second']}/s ({f['human_decisions_per_second']}/s human), "
        f"{f['decisions_per_cpu_second']} per CPU second of this process  [target >= 500/s]",
        f"  arrival -> first response over {f['clicks']} clicks: p50 {f['latency_p50_ms']} ms, "
        f"p99 {f['latency_p99_ms']} ms, max {f['latency_max_ms']} ms  [target p99 < 100 ms]; "
        f"{f['refused_clicks']} refused as stale, {f['unanswered']} unanswered",
        f"  arrival -> the answer itself (after a deferral: its edit): p50 {f['answer_p50_ms']} ms, "
        f"p99 {f['answer_p99_ms']} ms, max {f['answer_max_ms']} ms",
        f"  REST calls sent by the bot per resolved turn: {f['rest_per_turn']} (floor {f['floor_per_turn']}) "
        f"over {f['resolved_turns']} turns",
    ]
    lines += [f"    {kind:28s} {per:6.2f} per turn" for kind, per in f["rest_by_kind_per_turn"].items()]
    rss = f["rss_growth_per_game_kb"]
    lines.append(f"  memory per active game: {f['memory_per_game_kb']} KB traced over {f['memory_games']} games "
                 f"[target <= 100 KB]" + (f"; RSS growth {rss} KB per game over the others "
                                          f"(includes the fake Discord)" if rss is not None else ""))
    lines.append(f"  errors logged: {f['errors']}" + (f" {f['first_errors']}" if f["errors"] else ""))
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench load", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--database-url", default=None,
                        help="postgresql+asyncpg://... (an empty database); SQLite in a temporary file otherwise")
    parser.add_argument("--think", type=float, default=3.0, help="mean think time in seconds (uniform 0..2x)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--memory-games", type=int, default=100, help="games opened with memory tracing on")
    parser.add_argument("--duration", type=float, default=None,
                        help="stop clicking after this many seconds of play (default: play every game to its end)")
    parser.add_argument("--only", default=None, help="one game key instead of the mix (for profiling)")
    parser.add_argument("--no-save", action="store_true", help="print only; leave bench/results alone")
    args = parser.parse_args(argv)
    root = Path(__file__).resolve().parents[1]
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    with tempfile.TemporaryDirectory() as directory:
        figures = asyncio.run(run(args.games, database_url=args.database_url, think=args.think, seed=args.seed,
                                  memory_games=args.memory_games, directory=Path(directory), only=args.only,
                                  duration=args.duration))
    print(report(figures))
    if not args.no_save:
        from bench import results

        command = "python -m bench load " + " ".join(a if "://" not in a else "<postgresql url>" for a in argv)
        name = f"load-{figures['database']}"
        results.save(name, command.strip(), figures, title=f"Load: {args.games} concurrent games "
                     f"({figures['database']})", targets=TARGETS if figures["database"] == "sqlite" else {},
                     notes=__doc__.split("Figures", 1)[1].strip() if __doc__ else "")
    return 0 if figures["errors"] == 0 and figures["unanswered"] == 0 else 1
