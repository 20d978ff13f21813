"""Whole games played through the bot while faults are injected, and the checks that nothing was lost.

Two independent oracles:
- events: replaying the committed action log gives every public event of the game, in order; the
  updates handed to the notifier must carry exactly those, each once (nothing committed goes unshown,
  nothing is shown twice);
- posts: every log line the notifier was given must be in the thread exactly once, in order.
Plus: replay equals the stored state, the seats match the state's players, the table message ends
equal to the last picture of the game, and every decision a player was told was taken is in the log.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Container
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from unittest import mock

import discord
import discord.gateway
import yarl

import games
from bot.messages import present
from bot.texts import i18n, text
from fakediscord.driver import Driver
from fakediscord.loopback import Loopback
from harness import TASK_PREFIXES, Harness
from harness.play import choice_components, decide_from_message
from storage import DatabaseUnavailable
from storage.replay import replay
from table import TableUpdate

if TYPE_CHECKING:
    from bot.app.client import TableBot

TRY_AGAIN = i18n.t("en", text.TRY_AGAIN_SOON)
RECORDED = i18n.t("en", text.RECORDED_CATCHING_UP)
YOU_CHOSE = i18n.t("en", text.YOU_CHOSE, labels="").split(":")[0]
TRY_AGAIN_PAUSE = 0.1  # seconds a scripted player waits after "try again in a moment"


@dataclass
class Table:
    """The players' side (a Driver: the in-process Harness or the loopback) and the bot they play with."""

    driver: Driver
    bot: TableBot
    settle: Callable[[], Awaitable[None]]

    @classmethod
    def of(cls, h: Harness) -> Table:
        assert h.bot is not None
        return cls(h, h.bot, h.settle)


@dataclass
class Recorder:
    """What the table service handed to the notifier, per game."""

    updates: dict[int, list[TableUpdate]] = field(default_factory=dict)

    def install(self, bot: TableBot) -> None:
        notifier = bot.table.notifier
        publish = notifier.publish

        async def recording(update: TableUpdate) -> None:
            assert update.game.id is not None
            self.updates.setdefault(update.game.id, []).append(update)
            await publish(update)

        notifier.publish = recording  # type: ignore[method-assign]


@dataclass
class PlayStats:
    clicks: int = 0
    accepted: int = 0  # answered "You chose ..." or "recorded, the table catches up"
    try_again: int = 0  # answered "try again in a moment"
    unanswered: int = 0  # no answer reached the player (a Discord fault on the response itself)
    waits: int = 0  # rounds where nobody had anything to click (the bot was catching up)


def _said(responses: list[dict[str, Any]], words: str) -> bool:
    return any(words in str((r.get("data") or {}).get("content") or "") for r in responses)


async def open_game(t: Table, key: str, humans: list[int], ai: int, channel: int) -> int:
    """A lobby in `channel` with these humans (the first hosts) and AI seats, started; its game id."""
    h = t.driver
    await h.slash(humans[0], "game new", game=key, timer=0, channel=channel)
    for user in humans[1:]:
        await h.click(user, h.find_button(channel, "Join"))
    for _ in range(ai):
        await h.click(humans[0], h.find_button(channel, "Add AI"))
    row = await t.bot.table.db.channel_game(channel)
    assert row is not None and row.id is not None
    await h.click(humans[0], h.find_button(channel, "Start"))
    await caught_up(t)
    return row.id


async def _status(t: Table, game_id: int) -> str:
    try:
        row = await t.bot.table.db.get_game(game_id)
    except DatabaseUnavailable:
        return "active"  # cannot tell: keep playing
    assert row is not None
    return row.status


async def caught_up(t: Table) -> None:
    """Wait for the bot's background work: resumed games, retried notifications, interactions."""
    for _ in range(3):
        await t.bot.table.idle()
        await t.bot.table.notifier.idle()  # type: ignore[attr-defined]
        await t.settle()


async def play(
    t: Table,
    game_id: int,
    users: list[int],
    *,
    rng: random.Random,
    max_steps: int = 3000,
    between: Callable[[int], Awaitable[None]] | None = None,
    closed_dms: Container[int] = frozenset(),
    stats: PlayStats | None = None,
    rounds: int | None = None,
) -> PlayStats:
    """Every human decides as soon as offered (from the DM, or "Show my hand" when DMs are closed)
    until the game is over (or for `rounds` rounds); `between(step)` runs before each round (to
    inject faults)."""
    h = t.driver
    stats = stats or PlayStats()
    idle_rounds = 0
    for step in range(max_steps):
        if await _status(t, game_id) != "active" or step == rounds:
            await caught_up(t)
            return stats
        if between is not None:
            await between(step)
        progressed = False
        for user in users:
            if user in closed_dms:
                shown = await h.click(user, f"hand:{game_id}")
                source = h.ephemerals(user)[-1] if h.ephemerals(user) and not _said(shown, TRY_AGAIN) else None
            else:
                source = h.dms(user)[-1] if h.dms(user) else None
            if source is None or not choice_components(source):
                continue
            mark = len(h.fake.responses)
            if not await decide_from_message(h, user, source, index=rng.randrange(10_000)):
                continue
            await t.settle()
            answers = h.fake.responses[mark:]
            stats.clicks += 1
            progressed = True
            if _said(answers, TRY_AGAIN):
                stats.try_again += 1
                await asyncio.sleep(TRY_AGAIN_PAUSE)  # "in a moment", as a player would
            elif _said(answers, RECORDED) or _said(answers, YOU_CHOSE):
                stats.accepted += 1
            elif not answers:
                stats.unanswered += 1
        if not progressed:
            stats.waits += 1
            idle_rounds += 1
            await caught_up(t)
            await asyncio.sleep(0.05)
            if idle_rounds > 200:
                raise AssertionError(f"game {game_id} stalled: {getattr(h, 'errors', [])[-5:]}")
        else:
            idle_rounds = 0
    raise AssertionError(f"game {game_id} did not end in {max_steps} rounds")


@dataclass
class Check:
    """What a finished game's record says about the faults it went through."""

    events_missing: int = 0
    events_duplicated: int = 0
    posts_missing: int = 0
    posts_duplicated: int = 0
    decisions_lost: int = 0
    problems: list[str] = field(default_factory=list)

    def ok(self) -> bool:
        return not self.problems


def _public_events(key: str, seed: int, players: int, options: dict[str, Any], log: list[Any]) -> list[Any]:
    engine = games.get(key)
    state = engine.new(players, seed, options)
    events: list[Any] = []
    for entry in log:
        events += [e for e in engine.apply(state, entry.seat, list(entry.action)) if "to" not in e]
    return events


def _count_difference(expected: list[Any], got: list[Any]) -> tuple[int, int]:
    """(missing, extra) between two sequences that should be equal."""
    if expected == got:
        return 0, 0
    from collections import Counter

    want, have = Counter(map(repr, expected)), Counter(map(repr, got))
    missing = sum((want - have).values())
    extra = sum((have - want).values())
    return max(missing, 1 if not extra else 0), extra


def table_windows(calls: list[Any], thread: int, table_id: int) -> list[list[str]]:
    """The log lines shown, in order: by each successful edit of the table message (its "Recently"
    field), and by each log post in the thread (posted when more lines came than the table had room for)."""
    edit, post = f"/channels/{thread}/messages/{table_id}", f"/channels/{thread}/messages"
    recently = {i18n.t(lang, text.RECENTLY) for lang in i18n.LANGUAGES}  # the thread speaks the server's
    windows = []
    for call in calls:
        if call.status != 200 or not isinstance(call.json, dict):
            continue
        if call.method == "PATCH" and call.path == edit:
            for embed in call.json.get("embeds") or []:
                windows += [f["value"].split("\n") for f in embed.get("fields") or [] if f.get("name") in recently]
        elif call.method == "POST" and call.path == post and _log_post(call.json):
            windows.append(call.json["content"].split("\n"))
    return windows


def log_shown(h: Driver, thread: int) -> str:
    """Every log line the thread showed (on the table message, or posted), once each, in order."""
    table_id = int(h.messages_in(thread)[0]["id"])
    seen: list[str] = []
    for window in table_windows(h.fake.calls, thread, table_id):
        seen += [line for line in window if line not in seen]
    return "\n".join(seen)


def _log_post(message: dict[str, Any]) -> bool:
    """A log post in a thread: words only (not the table, a turn mention or the result)."""
    content = message.get("content") or ""
    words_only = not message.get("components") and not message.get("embeds")
    return bool(content) and words_only and not content.startswith("<@")


def lines_not_shown(lines: list[str], windows: list[list[str]]) -> int:
    """How many of `lines` no window showed. Each window is a run of them ending with the newest line its
    edit knew of, the runs going forward (a line clipped to fit, ending in "…", matches what it starts)."""

    def same(shown: str, line: str) -> bool:
        return shown == line or (shown.endswith("…") and line.startswith(shown[:-1]))

    covered = [False] * len(lines)
    end = 0
    for window in windows:
        n = len(window)
        for last in range(max(end, n - 1), len(lines)):
            if all(same(w, line) for w, line in zip(window, lines[last - n + 1 : last + 1], strict=True)):
                covered[last - n + 1 : last + 1] = [True] * n
                end = last
                break
    return covered.count(False)


async def check_game(
    t: Table, game_id: int, recorder: Recorder, stats: PlayStats | None = None, *, finished: bool = True
) -> Check:
    """`finished=False`: a game stopped mid-way (everything but its end is checked)."""
    h = t.driver
    db = t.bot.table.db
    check = Check()
    row = await db.get_game(game_id)
    assert row is not None
    if row.status != ("finished" if finished else "active"):
        check.problems.append(f"game {game_id} is {row.status}")
    report = await replay(db, game_id)
    if not report.equal:
        check.problems.append(f"replay: {report}")
    log = await db.actions(game_id)
    seats = await db.seats(game_id)
    results = await db.results(game_id)
    if [s.seat for s in seats] != list(range(len(seats))) or (
        finished and [r.seat for r in results] != [s.seat for s in seats]
    ):
        check.problems.append("the seats and the results do not match")
    # Events: everything committed was handed to the notifier once, in order.
    expected = _public_events(row.game_key, row.seed, len(seats), row.options, log)
    # (A turn still going on holds its events until its last step: they are owed, not lost.)
    shown = [e for u in recorder.updates.get(game_id, []) for e in u.events] + t.bot.table.held(game_id)
    expected = [e for e in expected if e.get("type") != "decided"]
    shown = [e for e in shown if e.get("type") != "decided"]
    check.events_missing, check.events_duplicated = _count_difference(expected, shown)
    if check.events_missing or check.events_duplicated:
        check.problems.append(f"events: {check.events_missing} missing, {check.events_duplicated} shown twice")
    # The log, folded into the table (bot.delivery.notify): every log line the notifier was given was shown, in
    # order, by the table message or (those it had no room for) a log post, none posted twice (a turn's
    # line may hold several events: compared line by line).
    lines = [
        part
        for u in recorder.updates.get(game_id, [])
        if not u.started
        for line in [present.log_line(u, "en")]
        if line
        for part in line.split("\n")
    ]
    thread = row.thread_id or row.channel_id
    table_id = int(h.messages_in(thread)[0]["id"])
    check.posts_missing = lines_not_shown(lines, table_windows(h.fake.calls, thread, table_id))
    posts = [m["content"] for m in h.messages_in(thread)[1:] if _log_post(m)]
    check.posts_duplicated = len(posts) - len(set(posts))
    if check.posts_missing or check.posts_duplicated:
        check.problems.append(
            f"log: {check.posts_missing} lines neither the table nor a post showed, "
            f"{check.posts_duplicated} posted twice"
        )
    # The table message ends as the last picture of the game.
    last = recorder.updates[game_id][-1]
    final = await present.table(last, "en").render()
    table_message = h.messages_in(thread)[0]
    want = [e.to_dict() for e in final.embeds]
    got = table_message["embeds"]
    if [(e.get("title"), e.get("description")) for e in want] != [(e.get("title"), e.get("description")) for e in got]:
        check.problems.append("the table message does not show the end of the game")
    if finished and table_message.get("components"):
        check.problems.append("the finished table still has buttons")
    # Decisions: every one a player was told was taken is in the log.
    if stats is not None:
        human_seats = {s.seat for s in seats if s.user_id is not None}
        logged = sum(1 for a in log if a.seat in human_seats and not a.afk)
        check.decisions_lost = max(0, stats.accepted - logged)
        if check.decisions_lost:
            check.problems.append(f"{check.decisions_lost} decisions answered as taken are not in the log")
    return check


@contextlib.asynccontextmanager
async def bot_on_loopback(
    lb: Loopback, database_url: str, seed: int = 2024, table_edit_interval: float = 0.0
) -> AsyncIterator[Table]:
    """The real bot in this event loop, talking HTTP and websocket to the loopback fake Discord: its
    REST calls go through discord.py's own HTTPClient.request (rate-limit buckets, retry_after,
    5xx retries) and webhook adapter, over aiohttp. Its tables are edited as each update comes unless
    `table_edit_interval` says otherwise (TABLE_EDIT_INTERVAL)."""
    from pydantic import SecretStr

    from bot import create_bot
    from bot.ops.settings import Settings
    from fakediscord.loopback import TOKEN

    with (
        mock.patch.object(discord.http.Route, "BASE", f"{lb.url}/api/v10"),
        mock.patch.object(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(lb.gateway_url)),
    ):
        settings = Settings(
            discord_token=SecretStr(TOKEN),
            database_url=database_url,
            timer_interval=0,
            sync_commands=True,
            table_edit_interval=table_edit_interval,
        )
        bot = create_bot(settings)
        since = lb.identified
        running = asyncio.get_running_loop().create_task(bot.start(TOKEN))
        try:
            # A bound on a hang, not a measure: on a loaded 2-core machine (load ~22) a start took over 30 s
            # once (issue 24), where it takes under a second alone.
            await lb.wait_ready(since=since, within=120)
            bot.table.seeds = random.Random(seed)

            async def settle() -> None:
                # The interaction handlers run in this loop: wait for them, then for REST in flight.
                while pending := [
                    t for t in asyncio.all_tasks() if not t.done() and t.get_name().startswith(TASK_PREFIXES)
                ]:
                    await asyncio.wait(pending, timeout=30)
                await lb.quiet(idle=0.01)

            yield Table(lb, bot, settle)
        finally:
            await bot.close()
            with contextlib.suppress(Exception):
                await running
