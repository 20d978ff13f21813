"""Many games at once through the real bot: decisions per second, response latency, REST cost, memory.

    python -m bench load [--games 1000] [--database-url URL] [--think 3.0] [--seed 1] [--memory-games 100]
                         [--duration S] [--mode loopback|inprocess] [--open-concurrency 16]
                         [--no-limits] [--global-limit]

Two modes. `loopback` (the default): the real `python -m bot` runs in its own process
(harness/run_bot.py) against the loopback fake Discord (fakediscord/loopback.py: real HTTP
and a real gateway websocket on 127.0.0.1), and the players and the fake run in this process, so
the bot's own CPU time can be told apart. The fake applies Discord's per-channel rate limit on
creating and editing messages (5 per 5 s per channel, each thread and DM its own; the headers
discord.py paces itself by; fakediscord/rate_limits.py), as Discord does for every bot:
`--no-limits` turns it off, `--global-limit` adds the global 50 requests per second (interactions
exempt; discord.py does not pace itself for it, so expect 429s). `inprocess`: the bot, discord.py,
the fake and the players share one process (harness: only the network replaced; no rate
limits); use it to profile the bot with py-spy or cProfile, and for the traced-memory figure.

The games are spread over several guilds (at most 100 tables per guild), one channel per game, and
mix all three games with and without their variants, 2-6 seats (2-4 for Eight-Minute Empire), some
of them AI. The lobbies are opened `--open-concurrency` at a time (`/game new`, Join clicks, Add AI,
Start; a game counts open once its players have their DMs, which follow Start's answer). Then every
human seat is a task that watches its DM and, after a think time drawn uniformly from 0 to 2x
`--think` seconds, clicks one of the buttons (or fills the select) the DM shows *at that moment*, at
random: all players of all games click concurrently and interleaved.

Figures (play phase only; opening the lobbies is reported apart):
- decisions per second: decisions committed (human clicks and AI seats; read from the action log) /
  wall time; per CPU second of the bot process (loopback) or of the one process (inprocess);
- latency: from the INTERACTION_CREATE handed to the bot (the gateway frame sent, or
  `parse_interaction_create` in process) to the first interaction callback the fake receives, p50 /
  p99 / max over every click; and to the answer itself (after a deferral: its edit);
- every click's outcome: accepted, refused (by reason: the refusal's message id in bot/text.py),
  unanswered within 30 s (and what those got in the end, if the answer came before the bot stopped);
- REST calls the bot sent on its own per resolved turn (a turn's log line, counted by the bot's
  `tablebot_notifications_total{kind="log"}`: lines owed at once share a post), by kind, with the
  answers to interactions apart, against what the table service asked its notifier to show meanwhile (the
  bot's `tablebot_notifications_total`): one table edit per update (each accepted click, with the AI
  moves it set off: in Eggs and Empires every player's secret play is an update, several per turn)
  and one DM refresh per human seat whose prompt changed, the clicking player's excepted (the answer
  to the click edits that DM). The floor is a log post, a table edit and those DM refreshes per turn;
  "without coalescing" adds every update's table edit. Fewer go out than asked because the notifier
  coalesces: an update that comes while the previous one of its game is still being drawn or sent
  replaces it (its table, a seat's DM), and only the newest is sent. (The former floor, a DM edit per
  human per turn, was never reached: a DM is refreshed only when its player's prompt changed, which
  in a turn-by-turn game is one player per turn, and not at all for the player who clicked; every
  player's at the end of a game.)
- within Discord's rate limits (loopback): the 429s the fake answered, by scope; the bot's requests
  held by discord.py's limiter (`tablebot_discord_request_held_seconds`: before a request while its
  bucket has no room, and after the one that used it up, until the reset); and from an update handed to the
  notifier to Discord's answer to the request that showed it (`tablebot_notification_delay_seconds`):
  the table (how stale it was when the update reached it; every update counts, coalesced ones too),
  the DM (a player's prompt), the log line; mean, and the metric's buckets under which p50/p99 fall;
- memory per active game: loopback: the bot process's RSS after opening the games minus before, over
  their number; `--memory-games N` (either mode): Python memory traced (tracemalloc) in process with
  N games open, minus the same before they were opened, over N, with the fake Discord's own records
  set aside. SQLite's C-level page cache is not traced (bounded, not per game); on PostgreSQL the
  server's memory is in another process.
- loopback also reports this process's CPU and its event-loop lag (p99): when the bench itself is
  saturated its latencies include its own delay.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import logging
import math
import os
import pickle
import random
import resource
import socket
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import games

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncEngine

    from fakediscord.driver import Driver
    from fakediscord.fake_discord import Call
    from fakediscord.loopback import Loopback
    from fakediscord.rate_limits import RateLimits
    from harness import Harness
    from harness.run_bot import BotProcess


def game_mix() -> tuple[tuple[str, str, int, int], ...]:
    """(game key, variants as /game new takes them, fewest seats, most seats): every registered game
    with each of its `sample_options`."""
    return tuple(
        (
            key,
            " ".join(f"{name}={str(value).lower()}" for name, value in options.items()),
            game.min_players,
            game.max_players,
        )
        for key in games.keys()
        for game in [games.get(key)]
        for options in game.sample_options
    )


MIX = game_mix()
MODES = ("loopback", "inprocess")
TABLES_PER_GUILD = 100
EPHEMERAL = 64
TARGETS = {"decisions_per_second": ">= 500", "latency_p99_ms": "< 100", "memory_per_game_kb": "<= 100"}
FAKE_RECORDS = (
    "messages",
    "ephemeral_messages",
    "calls",
    "responses",
    "interaction_sources",
    "acknowledged",
    "interaction_messages",
    "channels",
    "users",
)
STALL_SECONDS = 120.0  # no decision anywhere for this long: the run failed
ANSWER_WITHIN = 30.0  # a click with no answer after this long counts as unanswered
LOBBY_WITHIN = 120.0  # a lobby interaction with no answer after this long fails the run
FINISHED_POLL = 1.0  # seconds between two looks at which games have ended
# Refusals that changed nothing and ask to try again (the database was busy): a person clicks again.
TRY_AGAIN = ("TRY_AGAIN_SOON", "SOMETHING_WRONG")
RETRY_AFTER = 1.0  # seconds before trying again
LOBBY_ATTEMPTS = 5


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


@dataclass
class Pending:
    """An interaction handed to the bot, waiting for its answer."""

    kind: str  # "click", or the lobby step ("game new", "Join", "Add AI", "Start")
    arrival: float
    answer: asyncio.Future[str | None]  # None when accepted, else the refusal's reason
    first: float | None = None  # when the first callback (a deferral counts) came
    late: bool = False  # given up on (unanswered in time); its answer, if it comes, is counted apart


def plan(
    count: int, rng: random.Random, only: str | None = None, max_seats: int = 6
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


def percentile(values: Sequence[float], fraction: float) -> float:
    """Nearest-rank percentile (0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(fraction * len(ordered)) - 1))]


def _refusal_prefixes() -> list[tuple[str, str]]:
    """(English text up to its first placeholder, message id name) of every sentence in bot/text.py,
    longest first, so a refusal is named by the sentence it starts with."""
    from bot import text

    found = []
    for name in dir(text):
        value = getattr(text, name)
        for sentence in (value,) if isinstance(value, str) else value if isinstance(value, tuple) else ():
            if name.isupper() and isinstance(sentence, str) and sentence.split("{", 1)[0]:
                found.append((sentence.split("{", 1)[0], name))
    return sorted(found, key=lambda pair: -len(pair[0]))


def refusal_reason(content: str, prefixes: list[tuple[str, str]] | None = None) -> str:
    """A refusal's message id (`STALE`, `ALREADY_DECIDED`, ...); a rules refusal keeps the engine's reason
    (`REFUSED_BY_RULES: ...`), an unknown text is shown as it is."""
    for prefix, name in prefixes if prefixes is not None else _refusal_prefixes():
        if content.startswith(prefix):
            rest = content[len(prefix) :].strip()
            return f"{name}: {rest[:60]}" if name == "REFUSED_BY_RULES" else name
    return f"other: {content[:80]}"


def choice_components(message: dict[str, Any]) -> list[dict[str, Any]]:
    from harness.play import choice_components as components

    return components(message)


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


async def idle(pid: int, *, below: float = 0.05, within: float = 600.0) -> float:
    """Wait until process `pid` and its children use less than `below` of a core over a second (its
    backlog done); the seconds waited."""
    started = time.perf_counter()
    while time.perf_counter() - started < within:
        before = cpu_seconds(pid, children=True)
        await asyncio.sleep(1.0)
        if cpu_seconds(pid, children=True) - before < below:
            break
    return time.perf_counter() - started


def rss_kb(pid: int | str = "self") -> int:
    """Resident memory of process `pid` now, in KB."""
    with open(f"/proc/{pid}/statm", encoding="ascii") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize() // 1024


class Ledger:
    """What the bot committed, read straight from its database (the bench's own connection)."""

    def __init__(self, url: str) -> None:
        from sqlalchemy.ext.asyncio import create_async_engine

        self.engine: AsyncEngine = create_async_engine(url)

    async def close(self) -> None:
        await self.engine.dispose()

    async def decisions(self, game_ids: Sequence[int]) -> tuple[int, int]:
        """Actions in the log of these games: by humans, by AI (AI seats and AFK stand-ins)."""
        from sqlalchemy import bindparam, text

        if not game_ids:
            return 0, 0
        query = text(
            "SELECT count(*), coalesce(sum(CASE WHEN s.user_id IS NULL OR a.afk THEN 1 ELSE 0 END), 0) "
            "FROM actions a JOIN seats s ON s.game_id = a.game_id AND s.seat = a.seat "
            "WHERE a.game_id IN :ids"
        ).bindparams(bindparam("ids", expanding=True))
        async with self.engine.connect() as connection:
            total, robot = (await connection.execute(query, {"ids": list(game_ids)})).one()
        return int(total) - int(robot), int(robot)

    async def ended(self, game_ids: Sequence[int]) -> set[int]:
        """Those of these games that are no longer active."""
        from sqlalchemy import bindparam, text

        if not game_ids:
            return set()
        query = text("SELECT id FROM games WHERE status <> 'active' AND id IN :ids").bindparams(
            bindparam("ids", expanding=True)
        )
        async with self.engine.connect() as connection:
            return {int(row[0]) for row in await connection.execute(query, {"ids": list(game_ids)})}


SENT_AS = {"table": ("PATCH table/thread edit",), "dm": ("PATCH dm edit", "POST dm post")}


def rest_figures(sent: Counter[str], answers: int, turns: int, asked: Counter[str] | None) -> dict[str, Any]:
    """The REST figures per resolved turn (a log line): sent by kind, and against what was asked.

    `asked` (the bot's `tablebot_notifications_total` over the same time): table edits (one per update
    the table service published: each accepted click, with the AI moves it set off) and DM refreshes
    (one per human seat whose prompt changed, the clicking player's own excepted: the answer to the
    click shows it). Without coalescing the bot would send a log post, every asked table edit and
    every asked DM refresh; the floor is a log post, one table edit and the asked DM refreshes."""
    per = max(1, turns)
    figures: dict[str, Any] = {
        "resolved_turns": turns,
        "rest_per_turn": round(sum(sent.values()) / per, 2),
        "rest_by_kind_per_turn": {k: round(v / per, 2) for k, v in sorted(sent.items())},
        "interaction_answers_per_turn": round(answers / per, 2),
    }
    if asked is None:
        figures.update(
            {
                "floor_per_turn": None,
                "uncoalesced_per_turn": None,
                "asked_per_turn": None,
                "coalesced_away_per_turn": None,
            }
        )
        return figures
    figures.update(
        {
            "floor_per_turn": round((2 * turns + asked["dm"]) / per, 2),
            "uncoalesced_per_turn": round((turns + asked["table"] + asked["dm"]) / per, 2),
            "asked_per_turn": {kind: round(asked[kind] / per, 2) for kind in SENT_AS},
            "coalesced_away_per_turn": {
                kind: round((asked[kind] - sum(sent[k] for k in SENT_AS[kind])) / per, 2) for kind in SENT_AS
            },
        }
    )
    return figures


def notifications_asked(page: str) -> Counter[str]:
    """`tablebot_notifications_total` by kind, from a Prometheus exposition of the bot's metrics."""
    from prometheus_client.parser import text_string_to_metric_families

    asked: Counter[str] = Counter()
    for family in text_string_to_metric_families(page):
        if family.name == "tablebot_notifications":
            for sample in family.samples:
                if sample.name.endswith("_total"):
                    asked[sample.labels["kind"]] += int(sample.value)
    return asked


class LoadRun:
    """Drives the games of one run through a driver (in-process Harness or Loopback) and records what
    happened, by watching every REST call the fake Discord serves."""

    def __init__(self, driver: Driver, think: float, rng: random.Random) -> None:
        self.driver = driver
        self.think = think
        self.rng = rng
        self.prefixes = _refusal_prefixes()
        self.tables: list[Table] = []
        self.by_channel: dict[int, Table] = {}
        self.by_thread: dict[int, Table] = {}
        self.dm_of: dict[int, int] = {}  # user -> DM channel
        self.user_of_dm: dict[int, int] = {}
        self.changed: dict[int, asyncio.Event] = {}  # user -> "their DM changed"
        self.pending: dict[str, Pending] = {}  # token -> the interaction waiting for its answer
        self.latencies: list[float] = []  # arrival -> first callback (a deferral counts), clicks only
        self.answers: list[float] = []  # arrival -> the answer itself (the first message or edit)
        self.lobby_latencies: dict[str, list[float]] = {}  # lobby step -> arrival -> its answer
        self.lobby_retries: Counter[str] = Counter()  # "step: reason" -> lobby interactions tried again
        self.clicks = 0
        self.outcomes: Counter[str] = Counter()  # "accepted", "refused", "unanswered", "undelivered"
        self.refusals: Counter[str] = Counter()  # reason -> clicks refused for it
        self.late_answers: Counter[str] = Counter()  # "accepted" or reason -> unanswered clicks answered later
        self.bot_calls: Counter[str] = Counter()  # REST calls the bot made on its own, by kind
        self.answer_calls = 0  # interaction callbacks, follow-ups and edits of answers
        self.turns: Counter[int] = Counter()  # game id -> resolved turns (log posts)
        self.last_progress = time.perf_counter()
        self.recording = False
        self.closing = False  # the window is over: players stop clicking
        self.keep_records = True  # the in-process driver's own helpers read fake.calls / fake.responses
        fake = driver.fake
        self._original_handle = fake._handle
        fake._handle = self._observe  # type: ignore[method-assign]

    # --- the transport (one per mode) -------------------------------------------------------
    async def deliver(self, payload: dict[str, Any], token: str) -> bool:
        raise NotImplementedError

    # --- watching the fake Discord -----------------------------------------------------------
    def _observe(self, call: Call) -> Any:
        """Every REST call the fake serves: note answers, wake the player whose DM changed, and
        (while recording) count the call and drop the fake's copy so a long run does not pile up."""
        result = self._original_handle(call)
        self._after(call, result)
        return result

    def _after(self, call: Call, result: Any) -> None:
        from harness.play import classify

        fake = self.driver.fake
        parts = call.path.strip("/").split("/")
        body = call.json or {}
        channel: int | None = None
        if parts[0] == "interactions":  # /interactions/{id}/{token}/callback
            kind = int(body.get("type", 0))
            data = body.get("data") or {}
            self._answered(
                parts[2],
                final=kind in (4, 7),
                content=data.get("content"),
                ephemeral=bool(int(data.get("flags") or 0) & EPHEMERAL),
            )
            channel = fake.interaction_sources.get(parts[2], {}).get("channel_id")
        elif parts[0] == "webhooks" and len(parts) > 2:  # a followup or an edit after a deferral
            refusal = call.method == "POST" and bool(int(body.get("flags") or 0) & EPHEMERAL)
            self._answered(parts[2], final=True, content=body.get("content"), ephemeral=refusal)
            channel = fake.interaction_sources.get(parts[2], {}).get("channel_id")
        elif parts[:3] == ["users", "@me", "channels"] and isinstance(result, dict):
            user, dm = int(body["recipient_id"]), int(result["id"])
            self.dm_of[user], self.user_of_dm[dm] = dm, user
        elif parts[0] == "channels" and len(parts) >= 3:
            channel = int(parts[1])
            if parts[2] == "threads" and call.method == "POST" and channel in self.by_channel:
                table = self.by_channel[channel]
                table.thread = int(result["id"])
                self.by_thread[table.thread] = table
        watcher = self.user_of_dm.get(channel) if channel is not None else None
        if watcher is not None and watcher in self.changed:
            self.changed[watcher].set()
        if not self.recording:
            if not self.keep_records:
                fake.calls.clear()
                fake.responses.clear()
            return
        if call.via != "http" or parts[0] == "interactions":
            self.answer_calls += 1
        else:
            self.bot_calls[classify(self.driver, call.method, call.path)] += 1  # type: ignore[arg-type]
            if channel is not None and call.method == "POST" and channel in self.by_thread:
                table = self.by_thread[channel]
                self.turns[table.game_id] += 1
                posted = fake.messages.get(channel, {})
                if len(posted) > 1:  # keep the table message (edited each turn), drop the log line
                    posted.pop(max(posted))
        fake.calls.clear()
        fake.responses.clear()

    def _answered(self, token: str, *, final: bool, content: str | None, ephemeral: bool) -> None:
        pending = self.pending.get(token)
        if pending is None:
            return
        now = time.perf_counter()
        if pending.first is None:
            pending.first = now
            if pending.kind == "click":
                self.latencies.append(now - pending.arrival)
        if not final:
            return
        del self.pending[token]
        if pending.late:  # a click already counted unanswered: what it got in the end
            self.late_answers[(refusal_reason(content or "", self.prefixes) if ephemeral else "accepted")] += 1
            return
        if pending.kind == "click":
            self.answers.append(now - pending.arrival)
        else:
            self.lobby_latencies.setdefault(pending.kind, []).append(now - pending.arrival)
        if not pending.answer.done():
            pending.answer.set_result(refusal_reason(content or "", self.prefixes) if ephemeral else None)

    async def interact(self, kind: str, payload: dict[str, Any], token: str, within: float) -> str | None:
        """Hand an interaction to the bot and wait for its answer: None (accepted) or the refusal's reason.
        Raises TimeoutError when it is not answered `within` seconds."""
        answer: asyncio.Future[str | None] = asyncio.get_running_loop().create_future()
        self.pending[token] = Pending(kind, time.perf_counter(), answer)
        if not await self.deliver(payload, token):
            del self.pending[token]
            raise ConnectionError("no bot connection took the interaction")
        try:
            return await asyncio.wait_for(asyncio.shield(answer), within)
        except TimeoutError:
            self.pending[token].late = True
            raise

    # --- opening the games -------------------------------------------------------------------
    async def open_game(self, index: int, key: str, variants: str, humans: int, ais: int, channel: int) -> Table:
        """/game new, Join clicks, Add AI, Start: one interaction after the other, as the host and players would."""
        driver = self.driver
        users = [driver.user(f"P{index}-{i}") for i in range(humans)]
        table = Table(key, variants, users, ais, channel)
        self.by_channel[channel] = table
        for user in users:
            self.changed[user] = asyncio.Event()
        extra: dict[str, Any] = {"variants": variants} if variants else {}
        await self._lobby_step(
            table,
            "game new",
            lambda: driver.slash_payload(users[0], "game new", channel=channel, game=key, timer=0, **extra),
        )
        for user in users[1:]:
            await self._lobby_click(table, user, "Join")
        for _ in range(ais):
            await self._lobby_click(table, users[0], "Add AI")
        custom_id, _message = self._lobby_button(table, "Start")
        table.game_id = int(custom_id.split(":")[1])
        await self._lobby_click(table, users[0], "Start")
        await self._opened(table)
        self.tables.append(table)
        return table

    def _has_dm(self, user: int) -> bool:
        dm = self.dm_of.get(user)
        return dm is not None and bool(self.driver.fake.messages.get(dm))

    async def _opened(self, table: Table) -> None:
        """Wait until every player of a started game has their DM: Start is answered first, its thread,
        table and DMs follow. (Counting a game open at its answer would let the next lobbies pile up on
        the bot's unsent openings, which is not how hosts wait for their game.)"""
        deadline = time.perf_counter() + LOBBY_WITHIN
        for user in table.humans:
            while not self._has_dm(user):
                changed = self.changed[user]
                changed.clear()
                if self._has_dm(user):
                    break
                if time.perf_counter() > deadline:
                    raise AssertionError(f"no DM for a player of a {table.key} game {LOBBY_WITHIN:g} s after Start")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(changed.wait(), 1.0)

    async def _lobby_step(self, table: Table, kind: str, interaction: Callable[[], tuple[dict[str, Any], str]]) -> None:
        """One lobby interaction (made afresh by `interaction()` for each try, as Discord gives each click its
        own); tried again a moment later when the bot says it changed nothing and to try again."""
        for _attempt in range(LOBBY_ATTEMPTS):
            payload, token = interaction()
            refused = await self.interact(kind, payload, token, LOBBY_WITHIN)
            if refused is None:
                return
            if refused not in TRY_AGAIN:
                raise AssertionError(f"{kind} refused in the lobby of a {table.key} game: {refused}")
            self.lobby_retries[f"{kind}: {refused}"] += 1
            await asyncio.sleep(RETRY_AFTER)
        raise AssertionError(f"{kind} refused {LOBBY_ATTEMPTS} times in the lobby of a {table.key} game")

    def _lobby_button(self, table: Table, label: str) -> tuple[str, dict[str, Any]]:
        for message in reversed(self.driver.messages_in(table.channel)):
            for component in self.driver.components(message):
                if component.get("label") == label:
                    return str(component["custom_id"]), message
        raise AssertionError(f"no {label!r} button in the lobby of a {table.key} game")

    async def _lobby_click(self, table: Table, user: int, label: str) -> None:
        def click() -> tuple[dict[str, Any], str]:
            custom_id, message = self._lobby_button(table, label)
            return self.driver.click_payload(user, custom_id, message=message, channel=table.channel)

        await self._lobby_step(table, label, click)

    async def open_all(
        self,
        planned: Sequence[tuple[str, str, int, int]],
        channels: Sequence[int],
        *,
        concurrency: int,
        first_index: int = 0,
        progress: bool = False,
    ) -> float:
        """Open these games, `concurrency` lobbies at a time; the wall time it took."""
        gate = asyncio.Semaphore(concurrency)
        started = time.perf_counter()
        opened = 0

        async def one(index: int, game: tuple[str, str, int, int], channel: int) -> None:
            nonlocal opened
            async with gate:
                await self.open_game(index, *game, channel)
            opened += 1
            if progress and opened % 100 == 0:
                print(f"{opened} games open after {time.perf_counter() - started:.0f} s", file=sys.stderr)

        async with asyncio.TaskGroup() as group:
            for index, (game, channel) in enumerate(zip(planned, channels, strict=False)):
                group.create_task(one(first_index + index, game, channel))
        return time.perf_counter() - started

    def forget(self) -> None:
        """Drop the games opened so far from the run (the warm-up game)."""
        for table in self.tables:
            table.finished = True
            for user in table.humans:
                self.changed.pop(user, None)
        self.tables.clear()
        self.by_thread.clear()
        self.by_channel.clear()
        self.lobby_latencies.clear()
        self.lobby_retries.clear()

    # --- playing -----------------------------------------------------------------------------
    def _offer(self, user: int) -> tuple[dict[str, Any] | None, list[dict[str, Any]], str]:
        """The user's DM message as it is now, its choices, and their custom ids as one version string."""
        dm = self.dm_of.get(user)
        messages = self.driver.fake.messages.get(dm, {}) if dm is not None else {}
        message = messages[max(messages)] if messages else None
        choices = choice_components(message) if message is not None else []
        return message, choices, ":".join(str(c["custom_id"]) for c in choices)

    async def _click(self, user: int, message: dict[str, Any], choices: list[dict[str, Any]]) -> str | None:
        """Click one of `choices` on `message` (a random button, or a random pick on its select); the
        refusal's reason, if it was refused."""
        component = self.rng.choice(choices)
        data: dict[str, Any] = {"custom_id": component["custom_id"], "component_type": component["type"]}
        if component["type"] == 3:
            data["values"] = self.rng.sample([o["value"] for o in component["options"]], component["min_values"])
        payload, token = self.driver._payload(user, 3, data, self.dm_of[user], message)
        self.clicks += 1
        try:
            refused = await self.interact("click", payload, token, ANSWER_WITHIN)
        except TimeoutError:
            self.outcomes["unanswered"] += 1
            return None
        except ConnectionError:
            self.outcomes["undelivered"] += 1
            return None
        self.last_progress = time.perf_counter()
        if refused is None:
            self.outcomes["accepted"] += 1
        else:
            self.outcomes["refused"] += 1
            self.refusals[refused] += 1
        return refused

    async def player(self, table: Table, user: int) -> None:
        """One human: waits for a prompt in their DM, thinks, looks again and clicks what the DM shows
        then; until the game is over (or the run's window closes: a click already sent is still waited for)."""
        changed = self.changed[user]
        answered: str | None = None  # the version of the choices last clicked
        while not table.finished and not self.closing:
            changed.clear()
            _message, choices, version = self._offer(user)
            if not choices or version == answered:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(changed.wait(), timeout=5)
                continue
            await asyncio.sleep(self.rng.uniform(0, 2 * self.think))
            if table.finished or self.closing:
                return
            # The fake edits messages in place: what was read before thinking may be gone. A person
            # clicks what the screen shows now, so read it again (a click can still cross an edit in flight).
            message, choices, version = self._offer(user)
            if message is None or not choices or version == answered:
                continue
            answered = version
            if await self._click(user, message, choices) in TRY_AGAIN:
                answered = None  # nothing changed: the same buttons are clicked again after a moment

    async def watch_ends(self, ledger: Ledger) -> None:
        """Mark games over as the database says they ended, waking their players."""
        while True:
            running = [t.game_id for t in self.tables if not t.finished]
            for game_id in await ledger.ended(running):
                table = next(t for t in self.tables if t.game_id == game_id)
                table.finished = True
                for user in table.humans:
                    self.changed[user].set()
            await asyncio.sleep(FINISHED_POLL)

    async def play(self, duration: float | None, ledger: Ledger) -> float:
        """Every human of every game plays at once, until every game ended or `duration` seconds
        passed; returns the wall time from the first click to the last answer."""
        self.recording = True
        tasks = [
            asyncio.create_task(self.player(t, u), name=f"player-{t.game_id}-{u}")
            for t in self.tables
            for u in t.humans
        ]
        watcher = asyncio.create_task(self.watch_ends(ledger))
        self.last_progress = started = time.perf_counter()
        try:
            while not all(t.finished for t in self.tables):
                await asyncio.sleep(0.2)
                if duration is not None and time.perf_counter() - started >= duration:
                    break
                if watcher.done():
                    watcher.result()  # the database could not be read: say why
                if time.perf_counter() - self.last_progress > STALL_SECONDS:
                    waiting = [t.game_id for t in self.tables if not t.finished][:10]
                    raise AssertionError(f"no progress for {STALL_SECONDS:.0f} s; unfinished games {waiting}")
            self.closing = True
            for event in self.changed.values():
                event.set()
            await asyncio.gather(*tasks)
            return time.perf_counter() - started
        finally:
            for task in [*tasks, watcher]:
                task.cancel()
            await asyncio.gather(*tasks, watcher, return_exceptions=True)

    def figures(self, asked: Counter[str] | None = None) -> dict[str, Any]:
        """What was recorded during play, as report fields. `asked`: what the table service asked the
        bot's notifier to show meanwhile, by kind (its metrics), for the REST figures."""
        # A resolved turn: a log line the table service handed over (several may share a post), or a post.
        turns = asked["log"] if asked is not None and "log" in asked else sum(self.turns.values())
        ms = [latency * 1000 for latency in self.latencies]
        answer_ms = [latency * 1000 for latency in self.answers]
        kinds = Counter(f"{t.key}{' (' + t.variants + ')' if t.variants else ''}" for t in self.tables)
        return {
            "games": len(self.tables),
            "finished": sum(t.finished for t in self.tables),
            "games_by_kind": dict(sorted(kinds.items())),
            "human_seats": sum(len(t.humans) for t in self.tables),
            "ai_seats": sum(t.ais for t in self.tables),
            "clicks": self.clicks,
            "accepted_clicks": self.outcomes["accepted"],
            "refused_clicks": self.outcomes["refused"],
            "unanswered": self.outcomes["unanswered"],
            "undelivered": self.outcomes["undelivered"],
            "refusals_by_reason": dict(self.refusals.most_common()),
            "unanswered_then_answered": dict(self.late_answers.most_common()),
            "unanswered_never_answered": sum(1 for p in self.pending.values() if p.late and p.kind == "click"),
            "latency_p50_ms": round(percentile(ms, 0.50), 1),
            "latency_p99_ms": round(percentile(ms, 0.99), 1),
            "latency_max_ms": round(max(ms, default=0.0), 1),
            "latency_mean_ms": round(statistics.fmean(ms), 1) if ms else 0.0,
            "answer_p50_ms": round(percentile(answer_ms, 0.50), 1),
            "answer_p99_ms": round(percentile(answer_ms, 0.99), 1),
            "answer_max_ms": round(max(answer_ms, default=0.0), 1),
            **rest_figures(self.bot_calls, self.answer_calls, turns, asked),
            "lobby_steps": self.lobby_figures(),
            "lobby_retries": dict(self.lobby_retries.most_common()),
        }

    def lobby_figures(self) -> dict[str, Any]:
        """Arrival -> answer of each lobby step while opening: p50 / p99 / max in ms (each try counts)."""
        return {
            kind: {
                "count": len(values),
                "p50_ms": round(percentile(values, 0.5) * 1000, 1),
                "p99_ms": round(percentile(values, 0.99) * 1000, 1),
                "max_ms": round(max(values) * 1000, 1),
            }
            for kind, values in sorted(self.lobby_latencies.items())
        }


class InProcessRun(LoadRun):
    """The bot in this process: an interaction is handed to discord.py's connection state directly."""

    def __init__(self, h: Harness, think: float, rng: random.Random) -> None:
        super().__init__(h, think, rng)
        self.h = h

    async def deliver(self, payload: dict[str, Any], token: str) -> bool:
        assert self.h.bot is not None
        self.h.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        return True

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


class LoopbackRun(LoadRun):
    """The bot in its own process: an interaction is a gateway frame on its websocket."""

    def __init__(self, lb: Loopback, think: float, rng: random.Random) -> None:
        super().__init__(lb, think, rng)
        self.lb = lb
        self.keep_records = False

    async def deliver(self, payload: dict[str, Any], token: str) -> bool:
        return await self.lb.send(payload, token)


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
    open_concurrency: int = 16,
    warm_up: bool = True,
    limits: RateLimits | None = None,
) -> dict[str, Any]:
    """One load run; its figures. `warm_up`: one game of each kind is opened first, outside the figures.
    `limits`: Discord's rate limits the loopback fake applies (loopback mode only; None: none)."""
    url = database_url or f"sqlite+aiosqlite:///{directory / 'load.sqlite3'}"
    figures: dict[str, Any] = {
        "mode": mode,
        "database": "postgresql" if url.startswith("postgresql") else "sqlite",
        "rate_limits": limits_name(limits if mode == "loopback" else None),
    }
    if mode == "loopback":
        figures.update(
            await _run_loopback(
                count,
                url=url,
                think=think,
                seed=seed,
                directory=directory,
                only=only,
                duration=duration,
                max_seats=max_seats,
                open_concurrency=open_concurrency,
                warm_up=warm_up,
                limits=limits,
            )
        )
    else:
        figures.update(
            await _run_inprocess(
                count,
                url=url,
                think=think,
                seed=seed,
                directory=directory,
                only=only,
                duration=duration,
                max_seats=max_seats,
                open_concurrency=open_concurrency,
                warm_up=warm_up,
            )
        )
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
    think: float,
    seed: int,
    directory: Path,
    only: str | None,
    duration: float | None,
    max_seats: int,
    open_concurrency: int,
    warm_up: bool,
) -> dict[str, Any]:
    from harness import Harness

    h = await Harness.start(directory / "load.sqlite3", seed=seed, database_url=url)
    # Per-decision INFO lines would cost more than the decisions; put the level back after (tests share it).
    bot_logger = logging.getLogger("bot")
    old_level = bot_logger.level
    bot_logger.setLevel(logging.WARNING)
    rng = random.Random(seed)
    load = InProcessRun(h, think, rng)
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
            "think_seconds": f"uniform 0-{2 * think:g}",
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


def _errors(log: bytes) -> list[str]:
    """The ERROR lines of a bot log, each with the last line of its traceback (the exception itself);
    a traceback is on the following lines, or folded into the line with escaped newlines."""
    lines = log.decode("utf-8", errors="replace").splitlines()
    found = []
    for number, line in enumerate(lines):
        if " ERROR " not in line:
            continue
        head, *folded = line.split("\\n")
        following = [x for x in lines[number + 1 : number + 60] if x and not x.startswith((" ", "Traceback"))][:1]
        cause = folded[-1] if folded else following[0] if following and " ERROR " not in following[0] else ""
        found.append(head + (f" / {cause.strip()}" if cause else ""))
    return found


class BotClock:
    """The bot's own timing of its answers, scraped from its Prometheus endpoint (METRICS_PORT): from
    discord.py's Interaction object created (the gateway frame read and parsed) to the end of the first
    response, for choice clicks (`component:g`, `component:gs`). Against the bench's latency (frame
    sent -> callback received) it tells time spent in the bot's handlers from time spent before them
    (a gateway backlog) or on the wire."""

    KINDS = ("component:g", "component:gs")

    def __init__(self, port: int) -> None:
        self.port = port
        self.url = f"http://127.0.0.1:{port}/metrics"

    async def scrape(self) -> str:
        """The bot's metrics page (Prometheus text)."""
        import aiohttp

        async with aiohttp.ClientSession() as session, session.get(self.url) as response:
            return await response.text()

    @classmethod
    def answer_counts(cls, page: str) -> dict[float, float]:
        """Cumulative count of choice-click answers by bucket bound (inf: all), and their sum under -1."""
        return histogram_counts(page, "tablebot_interaction_response_seconds", kinds=cls.KINDS)

    @staticmethod
    def figures(before: dict[float, float], after: dict[float, float]) -> dict[str, Any]:
        """Mean, and the bucket bounds the p50 and p99 fall under, of the answers between two scrapes."""
        delta = {bound: after.get(bound, 0.0) - before.get(bound, 0.0) for bound in after}
        count = delta.get(math.inf, 0.0)
        if count <= 0:
            return {"answers": 0}
        bounds = sorted(b for b in delta if b >= 0)

        def under(fraction: float) -> float | None:
            """The bucket bound (ms) under which this fraction falls; None: above the largest bound."""
            bound = next(b for b in bounds if delta[b] >= fraction * count)
            return 1000 * bound if bound != math.inf else None

        return {
            "answers": int(count),
            "mean_ms": round(1000 * delta[-1.0] / count, 1),
            "p50_under_ms": under(0.5),
            "p99_under_ms": under(0.99),
            "largest_bucket_ms": 1000 * max((b for b in bounds if b != math.inf), default=0.0),
        }


def histogram_counts(
    page: str, name: str, *, kinds: Sequence[str] | None = None, label: str = "kind"
) -> dict[float, float]:
    """A histogram of a Prometheus page (its samples whose `label` is one of `kinds`, or all), summed:
    cumulative count by bucket bound (inf: all), and the sum under -1 (`BotClock.figures` reads two)."""
    from prometheus_client.parser import text_string_to_metric_families

    counts: dict[float, float] = {}
    for family in text_string_to_metric_families(page):
        if family.name != name:
            continue
        for sample in family.samples:
            if kinds is not None and sample.labels.get(label) not in kinds:
                continue
            if sample.name.endswith("_bucket"):
                bound = float(sample.labels["le"])
                counts[bound] = counts.get(bound, 0.0) + sample.value
            elif sample.name.endswith("_sum"):
                counts[-1.0] = counts.get(-1.0, 0.0) + sample.value
    return counts


HELD = "tablebot_discord_request_held_seconds"
DELAYS = "tablebot_notification_delay_seconds"


def limit_figures(before: str, after: str) -> dict[str, Any]:
    """From two scrapes of the bot's metrics: the requests discord.py's rate limiter held (before them:
    no room in their bucket; after them: the one that used a bucket up waits for its reset) and for how
    long, and how long what the notifier was handed took to reach Discord, by kind (table: how stale the
    table was when an update reached it; dm: a player's prompt; log)."""

    def between(name: str, label: str, value: str) -> dict[str, Any]:
        return BotClock.figures(
            histogram_counts(before, name, kinds=(value,), label=label),
            histogram_counts(after, name, kinds=(value,), label=label),
        )

    held = {side: between(HELD, "when", side) for side in ("before", "after")}
    return {
        "requests_held": {side: figures["answers"] for side, figures in held.items()},
        "held_seconds": round(sum(f["answers"] * f.get("mean_ms", 0.0) for f in held.values()) / 1000, 1),
        "held": held,
        "delays": {kind: between(DELAYS, "kind", kind) for kind in ("table", "dm", "log")},
    }


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


def free_port() -> int:
    with contextlib.closing(socket.socket()) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class LoopLag:
    """How late this process's event loop wakes up: a busy bench delays what it measures."""

    def __init__(self, period: float = 0.05) -> None:
        self.period = period
        self.lags: list[float] = []

    async def run(self) -> None:
        while True:
            before = time.perf_counter()
            await asyncio.sleep(self.period)
            self.lags.append(time.perf_counter() - before - self.period)


async def _run_loopback(
    count: int,
    *,
    url: str,
    think: float,
    seed: int,
    directory: Path,
    only: str | None,
    duration: float | None,
    max_seats: int,
    open_concurrency: int,
    warm_up: bool,
    limits: RateLimits | None = None,
) -> dict[str, Any]:
    from fakediscord.loopback import Loopback
    from harness.run_bot import BotProcess

    lb = await Loopback.start(answer_timeout=LOBBY_WITHIN, limits=limits)
    fake = lb.fake
    rng = random.Random(seed)
    load = LoopbackRun(lb, think, rng)

    async def add_guild(channels: int) -> list[int]:
        guild = fake.add_guild(f"guild-{len(fake.guilds)}")
        return [fake.add_text_channel(f"table-{i}", guild) for i in range(channels)]

    # Every guild exists before the bot connects: the gateway sends them all at IDENTIFY.
    warm_channels = await _channels(3, add_guild)
    channels = await _channels(count, add_guild)
    log_path = directory / "bot.log"
    bot: BotProcess | None = None
    ledger = Ledger(url)
    lag = LoopLag()
    lag_task = asyncio.create_task(lag.run())
    log: IO[bytes]
    try:
        with open(log_path, "wb") as log:  # noqa: ASYNC230 - opened once, before anything runs
            clock = BotClock(free_port())
            bot = await BotProcess.spawn(lb, url, log=log, metrics_port=str(clock.port))
            await lb.wait_ready(within=120)
            if not await lb.wait_until(lambda: bool(fake.commands), 60):
                raise AssertionError("the bot never synced its commands")
            if warm_up:
                await _warm_up(load, _given(warm_channels), open_concurrency)
            await idle(bot.pid)
            rss_before, own_cpu = rss_kb(bot.pid), time.process_time()
            bot_cpu = cpu_seconds(bot.pid, children=True)
            opened = await load.open_all(
                plan(count, rng, only, max_seats), channels, concurrency=open_concurrency, progress=True
            )
            opening_own_cpu = time.process_time() - own_cpu
            # The threads, tables and first DMs are out once the bot has nothing left to do.
            backlog = await idle(bot.pid)
            opening_bot_cpu = cpu_seconds(bot.pid, children=True) - bot_cpu
            rss_growth = rss_kb(bot.pid) - rss_before
            lag.lags.clear()
            scraped = await clock.scrape()
            rejected_before = Counter(lb.limiter.rejected) if lb.limiter is not None else Counter()
            bot_cpu, main_cpu = cpu_seconds(bot.pid, children=True), cpu_seconds(bot.pid)
            own_cpu = time.process_time()
            figures = await _play_and_count(load, ledger, duration)
            own_cpu = time.process_time() - own_cpu
            bot_cpu = cpu_seconds(bot.pid, children=True) - bot_cpu
            main_cpu = cpu_seconds(bot.pid) - main_cpu
            lags = [x * 1000 for x in lag.lags]
            with contextlib.suppress(TimeoutError):  # what the last decisions set off is sent before the bot stops
                # (a request held for its rate-limit bucket sends nothing until the bucket resets)
                held_up_to = limits.messages.per if limits is not None and limits.messages is not None else 0.0
                await lb.quiet(idle=0.5 + held_up_to, within=120)
            final = await clock.scrape()
            inside = BotClock.figures(BotClock.answer_counts(scraped), BotClock.answer_counts(final))
            asked = notifications_asked(final) - notifications_asked(scraped)
            within_limits = limit_figures(scraped, final)
            within_limits["rate_limited"] = dict(
                (Counter(lb.limiter.rejected) if lb.limiter is not None else Counter()) - rejected_before
            )
            log.flush()
            measured_log = log_path.stat().st_size
            await bot.stop()
    finally:
        lag_task.cancel()
        if bot is not None and bot.alive:
            bot.kill()
            await bot.wait()
        await ledger.close()
        await lb.close()
    logged = log_path.read_bytes()
    errors = _errors(logged[:measured_log])
    figures.update(load.figures(asked))
    decisions = max(1, figures["decisions"])
    figures.update(
        {
            "think_seconds": f"uniform 0-{2 * think:g}",
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
    return figures


def limit_report(f: dict[str, Any]) -> list[str]:
    """The report's lines on Discord's rate limits: what the fake applied, 429s, holds, notification delays."""
    within = f.get("within_limits")
    if within is None:
        return [f"  Discord's rate limits: {f.get('rate_limits', 'none')} (in process: the fake has no limiter)"]
    rejected = within["rate_limited"]
    lines = [
        f"  Discord's rate limits in the fake: {f['rate_limits']}; 429s the bot received: "
        f"{sum(rejected.values())}"
        + (f" ({', '.join(f'{n} {scope}' for scope, n in rejected.items())})" if rejected else ""),
        f"    requests held by discord.py's limiter: {within['requests_held']['before']} until their bucket had "
        f"room, {within['requests_held']['after']} after their answer until the reset (the request that used "
        f"the bucket up); {within['held_seconds']} s in all",
    ]

    def timing(figures: dict[str, Any]) -> str:
        if not figures.get("answers"):
            return "none"

        def bound(key: str) -> str:
            value = figures[key]
            return f"<= {value:g} ms" if value is not None else f"> {figures['largest_bucket_ms']:g} ms"

        return f"mean {figures['mean_ms']} ms, p50 {bound('p50_under_ms')}, p99 {bound('p99_under_ms')}"

    names = {
        "table": "table (how stale it was when an update reached it)",
        "dm": "dm (a player's prompt)",
        "log": "log line",
    }
    lines.append("    from an update handed to the notifier to Discord's answer showing it (metrics' buckets):")
    lines += [f"      {names[kind]:52s} {timing(figures)}" for kind, figures in within["delays"].items()]
    return lines


def report(figures: dict[str, Any]) -> str:
    f = figures
    inprocess = f["mode"] == "inprocess"
    whose = "the one process (bot, fake Discord and players)" if inprocess else "the bot (its process and children)"
    lines = [
        f"{f['games']} games at once on {f['database']}, bot {'in this process' if inprocess else 'in its own process'}"
        f" ({f['human_seats']} human seats, {f['ai_seats']} AI; think time {f['think_seconds']} s; "
        + (
            f"{f['finished']} finished"
            if f["window_seconds"] is None
            else f"played for a {f['window_seconds']:g} s window, {f['finished']} finished in it"
        )
        + ")",
        f"  opening the lobbies: {f['opening_seconds']} s"
        + (
            f" ({f['open_concurrency']} at a time; bot CPU {f['opening_bot_cpu_seconds']} s, "
            f"{f['opening_bot_cpu_ms_per_game']} ms per game; bench CPU {f['opening_bench_cpu_seconds']} s; "
            f"the bot then busy for {f['bot_busy_after_opening_seconds']} s more)"
            if not inprocess
            else ""
        ),
    ]
    lines += [
        f"    {kind:10s} x{s['count']:<6d} answered p50 {s['p50_ms']} ms, p99 {s['p99_ms']} ms, max {s['max_ms']} ms"
        for kind, s in f["lobby_steps"].items()
    ]
    lines += [f"    tried again {count} times: {why}" for why, count in f["lobby_retries"].items()]
    lines += [
        f"  decisions: {f['decisions']} ({f['human_decisions']} human, {f['ai_decisions']} AI) in "
        f"{f['wall_seconds']} s: {f['decisions_per_second']}/s ({f['human_decisions_per_second']}/s human)  "
        f"[target >= 500/s]",
        f"  CPU of {whose}: {f['cpu_seconds']} s, {f['cpu_ms_per_decision']} ms per decision, "
        f"{f['decisions_per_cpu_second']} decisions per CPU second"
        + ("" if inprocess else f" (main process alone: {f['bot_main_process_cpu_seconds']} s)"),
    ]
    if not inprocess:
        lines.append(
            f"  bench process (players + fake Discord): CPU {f['bench_cpu_seconds']} s, event-loop lag "
            f"p99 {f['bench_loop_lag_p99_ms']} ms, max {f['bench_loop_lag_max_ms']} ms"
        )
    lines += [
        f"  INTERACTION_CREATE -> first callback over {f['clicks']} clicks: p50 {f['latency_p50_ms']} ms, "
        f"p99 {f['latency_p99_ms']} ms, max {f['latency_max_ms']} ms  [target p99 < 100 ms]",
        f"  INTERACTION_CREATE -> the answer itself (after a deferral: its edit): p50 {f['answer_p50_ms']} ms, "
        f"p99 {f['answer_p99_ms']} ms, max {f['answer_max_ms']} ms",
    ]
    inside = f.get("bot_answer_timing") or {}
    if inside.get("answers"):

        def bound(key: str) -> str:
            value = inside[key]
            return f"<= {value:g} ms" if value is not None else f"> {inside['largest_bucket_ms']:g} ms"

        lines.append(
            f"  the bot's own clock (Interaction parsed -> first response sent) over {inside['answers']} "
            f"clicks: mean {inside['mean_ms']} ms, p50 {bound('p50_under_ms')}, "
            f"p99 {bound('p99_under_ms')} (its metrics' buckets)"
        )
    lines += [
        f"  clicks: {f['accepted_clicks']} accepted, {f['refused_clicks']} refused, {f['unanswered']} unanswered "
        f"within {ANSWER_WITHIN:g} s, {f['undelivered']} undelivered",
    ]
    lines += [f"    refused {count:6d}  {reason}" for reason, count in f["refusals_by_reason"].items()]
    if f["unanswered"]:
        lines.append(
            f"    of the unanswered: {f['unanswered_never_answered']} never answered while the bot ran; "
            "answered later: " + (", ".join(f"{n} {why}" for why, n in f["unanswered_then_answered"].items()) or "none")
        )
    lines.append(
        f"  REST calls the bot sent on its own per resolved turn (a log line): {f['rest_per_turn']} over "
        f"{f['resolved_turns']} turns; plus {f['interaction_answers_per_turn']} answers to interactions"
    )
    lines += [f"    {kind:28s} {per:6.2f} per turn" for kind, per in f["rest_by_kind_per_turn"].items()]
    if f.get("asked_per_turn"):
        asked, away = f["asked_per_turn"], f["coalesced_away_per_turn"]
        lines.append(
            f"    floor {f['floor_per_turn']} (a log post, a table edit, a DM edit per player whose prompt "
            f"changed); without coalescing {f['uncoalesced_per_turn']}"
        )
        lines += [
            f"    asked {kind:5s} {asked[kind]:6.2f} per turn, {away[kind]:6.2f} coalesced away (a newer update "
            "replaced it while it waited)"
            for kind in asked
        ]
    lines += limit_report(f)
    memory = []
    if f.get("rss_per_game_kb") is not None:
        memory.append(f"bot process RSS growth {f['rss_per_game_kb']} KB per game over {f['games']} games (loopback)")
    if f.get("memory_per_game_kb") is not None:
        memory.append(f"{f['memory_per_game_kb']} KB traced per game over {f['memory_games']} games (in process)")
    lines.append("  memory per active game: " + ("; ".join(memory) or "not measured") + "  [target <= 100 KB]")
    lines.append(
        f"  errors logged: {f['errors']}"
        + (f" {f['first_errors']}" if f["errors"] else "")
        + (f"; {f['errors_at_shutdown']} more while the bot stopped" if f.get("errors_at_shutdown") else "")
    )
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench load", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument(
        "--database-url",
        default=None,
        help="postgresql+asyncpg://... (an EMPTY database: the fake's ids restart at each run); "
        "SQLite in a temporary file otherwise",
    )
    parser.add_argument(
        "--mode",
        choices=MODES,
        default="loopback",
        help="loopback: the bot in its own process (default); inprocess: one process, for profiling",
    )
    parser.add_argument("--think", type=float, default=3.0, help="mean think time in seconds (uniform 0..2x)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--memory-games",
        type=int,
        default=100,
        help="games opened in process with memory tracing on (SQLite only; 0: skip)",
    )
    parser.add_argument("--open-concurrency", type=int, default=16, help="lobbies opened at a time")
    parser.add_argument(
        "--duration",
        type=float,
        default=None,
        help="stop clicking after this many seconds of play (default: play every game to its end)",
    )
    parser.add_argument("--only", default=None, help="one game key instead of the mix (for profiling)")
    parser.add_argument(
        "--no-limits",
        action="store_true",
        help="the loopback fake answers at once (default: Discord's 5 messages per 5 s per channel)",
    )
    parser.add_argument(
        "--global-limit",
        action="store_true",
        help="add Discord's global limit (50 requests per second; interactions exempt)",
    )
    parser.add_argument("--no-save", action="store_true", help="print only; leave bench/results alone")
    parser.add_argument("--workdir", default=None, help="keep the bot's log and the SQLite files here")
    args = parser.parse_args(argv)
    root = Path(__file__).resolve().parents[1]
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    with tempfile.TemporaryDirectory(prefix="load-") as temporary:
        directory = Path(args.workdir or temporary)
        directory.mkdir(parents=True, exist_ok=True)
        figures = asyncio.run(
            run(
                args.games,
                database_url=args.database_url,
                think=args.think,
                seed=args.seed,
                memory_games=args.memory_games,
                directory=directory,
                only=args.only,
                duration=args.duration,
                mode=args.mode,
                open_concurrency=args.open_concurrency,
                limits=rate_limits(per_channel=not args.no_limits, global_limit=args.global_limit),
            )
        )
    print(report(figures))
    if not args.no_save:
        from bench import results

        name = f"load-{figures['database']}"
        where = "in its own process" if args.mode == "loopback" else "in process"
        results.save(
            name,
            results.command("load", argv),
            figures,
            title=f"Load: {args.games} concurrent games ({figures['database']}, bot {where})",
            targets=TARGETS if figures["database"] == "sqlite" else {},
            notes=__doc__.split("Figures", 1)[1].strip() if __doc__ else "",
        )
    return 0 if figures["errors"] == 0 and figures["unanswered"] == 0 else 1
