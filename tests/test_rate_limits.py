"""Discord's rate limits in the loopback fake, and the bot living within them.

The limiter itself (fakediscord/rate_limits.py): windows, headers, 429s, the global limit and the
routes it spares; discord.py pacing itself by those headers (a burst over a bucket is held, not
refused); and a fast game whose thread is held by its bucket while the next player's DM still goes at
once, every log line shown once and in order, and no 429.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
import statistics
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from unittest import mock

import aiohttp
import discord
import pytest

from bot.app.metrics import BotMetrics
from bot.transport.pacing import PRIORITY, Priority
from fakediscord.loopback import TOKEN, Loopback
from fakediscord.rate_limits import Bucket, Limiter, RateLimits
from harness.fault_play import Recorder, bot_on_loopback, caught_up, check_game, open_game
from harness.play import choice_components


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


# --- the limiter on its own ------------------------------------------------------------------------
def test_a_channel_bucket_counts_posts_and_edits_together_and_resets_after_its_window() -> None:
    clock = Clock()
    limiter = Limiter(RateLimits(messages=Bucket(3, 5.0)), clock=clock)
    post, edit = ("POST", "/channels/11/messages"), ("PATCH", "/channels/11/messages/99")
    answers = [limiter.check(*call, interaction=False) for call in (post, edit, post)]
    assert [rejection for rejection, _ in answers] == [None, None, None]
    assert [headers["X-RateLimit-Remaining"] for _, headers in answers] == ["2", "1", "0"]
    assert {headers["X-RateLimit-Bucket"] for _, headers in answers} == {answers[0][1]["X-RateLimit-Bucket"]}
    assert answers[0][1]["X-RateLimit-Limit"] == "3" and answers[0][1]["X-RateLimit-Reset-After"] == "5.000"
    assert limiter.exhausted == 1

    clock.now += 1.25
    rejection, _ = limiter.check(*edit, interaction=False)
    assert rejection is not None and rejection.status == 429 and rejection.scope == "user"
    assert rejection.body["retry_after"] == 3.75 and rejection.body["global"] is False
    assert rejection.headers["Via"] and rejection.headers["X-RateLimit-Scope"] == "user"
    assert rejection.headers["Retry-After"] == "4" and rejection.headers["X-RateLimit-Remaining"] == "0"

    other, headers = limiter.check("POST", "/channels/12/messages", interaction=False)
    assert other is None and headers["X-RateLimit-Remaining"] == "2", "another channel has its own bucket"
    assert limiter.check("GET", "/channels/11", interaction=False) == (None, {}), "not a message: not limited"

    clock.now += 3.75
    rejection, headers = limiter.check(*post, interaction=False)
    assert rejection is None and headers["X-RateLimit-Remaining"] == "2", "a new window after the reset"
    assert limiter.rejected == {"user": 1}


def test_the_global_limit_is_off_by_default_and_spares_the_interaction_routes() -> None:
    clock = Clock()
    default = Limiter(RateLimits(), clock=clock)
    assert all(default.check("GET", f"/channels/{n}", interaction=False)[0] is None for n in range(200))
    limiter = Limiter(RateLimits.discord(global_limit=True), clock=clock)
    for n in range(50):
        assert limiter.check("POST", f"/channels/{n}/messages", interaction=False)[0] is None
    for _ in range(20):
        assert limiter.check("POST", "/interactions/1/token/callback", interaction=True)[0] is None
    rejection, headers = limiter.check("POST", "/users/@me/channels", interaction=False)
    assert rejection is not None and rejection.scope == "global" and headers == {}
    assert rejection.body["global"] is True and rejection.headers["X-RateLimit-Global"] == "true"
    assert rejection.headers["X-RateLimit-Scope"] == "global" and 0 < rejection.body["retry_after"] <= 1
    clock.now += 1.0
    assert limiter.check("GET", "/channels/1", interaction=False)[0] is None
    assert limiter.rejected == {"global": 1}


# --- discord.py against the limited loopback -----------------------------------------------------
@pytest.fixture
async def limited() -> AsyncIterator[Loopback]:
    lb = await Loopback.start(limits=RateLimits(messages=Bucket(3, 0.5)))
    try:
        yield lb
    finally:
        await lb.close()


@contextlib.asynccontextmanager
async def logged_in(lb: Loopback) -> AsyncIterator[tuple[discord.Client, BotMetrics]]:
    """A discord.py client on the loopback, its rate-limit holds timed as the bot's are."""
    with mock.patch.object(discord.http.Route, "BASE", f"{lb.url}/api/v10"):
        bot = discord.Client(intents=discord.Intents.none())
        metrics = BotMetrics()
        metrics.pace(bot.http, None)
        await bot.login(TOKEN)
        try:
            yield bot, metrics
        finally:
            await bot.close()


@pytest.fixture
async def limited_client(limited: Loopback) -> AsyncIterator[tuple[discord.Client, BotMetrics]]:
    async with logged_in(limited) as logged:
        yield logged


def seen_by_limiter(limiter: Limiter) -> list[tuple[str, float]]:
    """(path, when) of every request the limiter checks from now on, by the limiter's own clock.

    Not `Call.at`: that is the loop's clock read before the limiter reads its own, and a process
    descheduled between the two reads (a loaded machine) made the 4th request of a burst look less than
    a window after the 1st though the limiter had let it through only after the reset (issue 24)."""
    seen: list[tuple[str, float]] = []
    clock, check = limiter.clock, limiter.check
    now: list[float] = []

    def read_clock() -> float:
        now.append(clock())
        return now[-1]

    def checked(method: str, path: str, *, interaction: bool) -> tuple[Any, dict[str, str]]:
        answer = check(method, path, interaction=interaction)  # reads the clock once, first
        seen.append((path, now[-1]))
        return answer

    limiter.clock = read_clock
    limiter.check = checked  # type: ignore[method-assign]
    return seen


def holds(metrics: BotMetrics) -> dict[str, float]:
    return {
        side: metrics.registry.get_sample_value("tablebot_discord_request_held_seconds_count", {"when": side}) or 0
        for side in ("before", "after")
    }


async def test_a_burst_over_a_bucket_is_held_by_discord_py_not_refused(
    limited: Loopback, limited_client: tuple[discord.Client, BotMetrics]
) -> None:
    client, metrics = limited_client
    busy, quiet = limited.channel, limited.other_channel
    assert limited.limiter is not None
    seen = seen_by_limiter(limited.limiter)
    sends = [client.get_partial_messageable(busy).send(f"line {n}") for n in range(8)]
    sends.append(client.get_partial_messageable(quiet).send("elsewhere"))
    await asyncio.gather(*sends)
    assert limited.limiter.rejected == {}, "paced by the headers: no 429"
    assert sorted(m["content"] for m in limited.messages_in(busy)) == sorted(f"line {n}" for n in range(8))
    arrivals = sorted(at for path, at in seen if path == f"/channels/{busy}/messages")
    assert len(arrivals) == 8
    # Never more than 3 in one window (a window opens at its first request and lasts 0.5 s), so the 4th came
    # in the second window at the earliest and the 7th in the third, and a window was used up on the way.
    # (Not "every 4th request a window after the 1st": the 2nd may come a little after the 1st, and the 5th
    # as soon as the 4th has opened the next window.)
    assert arrivals[3] - arrivals[0] >= 0.5 and arrivals[6] - arrivals[0] >= 1.0
    assert limited.limiter.exhausted >= 1
    [elsewhere] = [at for path, at in seen if path == f"/channels/{quiet}/messages"]
    assert elsewhere < arrivals[3], "another channel's bucket is not held by this one"
    # The bot's metric saw the holds: the 4th to 8th waited for room, or the 3rd and 6th for the reset.
    assert sum(holds(metrics).values()) >= 2, holds(metrics)


async def test_without_rate_limit_headers_nothing_counts_as_held(loopback: Loopback) -> None:
    async with logged_in(loopback) as (client, metrics):
        for n in range(6):
            await client.get_partial_messageable(loopback.channel).send(f"line {n}")
    assert holds(metrics) == {"before": 0, "after": 0}


async def test_a_request_over_a_bucket_anyway_gets_a_429_and_discord_py_retries_after_it(
    limited: Loopback, limited_client: tuple[discord.Client, BotMetrics]
) -> None:
    client, _metrics = limited_client
    url = f"{limited.url}/api/v10/channels/{limited.channel}/messages"
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {TOKEN}"}) as session:
        for n in range(3):  # another process (one that does not know the bucket) uses it up
            async with session.post(url, json={"content": f"raw {n}"}) as response:
                assert response.status == 200 and response.headers["X-RateLimit-Remaining"] == str(2 - n)
        async with session.post(url, json={"content": "one too many"}) as response:
            assert response.status == 429 and response.headers["Via"]
            assert 0 < (await response.json())["retry_after"] <= 0.5
    # discord.py knows nothing of this bucket yet: its first try gets a 429, it sleeps retry_after, and posts.
    await client.get_partial_messageable(limited.channel).send("after the reset")
    assert limited.limiter is not None and limited.limiter.rejected == {"user": 2}
    contents = [m["content"] for m in limited.messages_in(limited.channel)]
    assert contents == ["raw 0", "raw 1", "raw 2", "after the reset"]
    assert [c.status for c in limited.fake.calls][-2:] == [429, 200]


# --- a fast game within the limits ---------------------------------------------------------------
async def _play_fast(lb: Loopback, users: list[int], finished: Any, within: float = 120.0) -> int:
    """Every human clicks the first choice of their DM as soon as it offers new ones, waiting only for
    the click's answer (never for the table or the log): faster than a thread's 5 posts per 5 s."""
    clicked: dict[int, str] = {}
    clicks = 0
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within

    def offers() -> list[tuple[int, dict[str, Any], list[dict[str, Any]]]]:
        found = []
        for user in users:
            dms = lb.dms(user)
            choices = choice_components(dms[-1]) if dms else []
            if choices and ":".join(c["custom_id"] for c in choices) != clicked.get(user):
                found.append((user, dms[-1], choices))
        return found

    while not await finished():
        assert loop.time() < deadline, "the game did not end in time"
        ready = offers()
        if not ready:
            await lb.wait_until(lambda: bool(offers()), 0.2)
            continue
        for user, message, choices in ready:
            clicked[user] = ":".join(c["custom_id"] for c in choices)
            choice = choices[0]
            if choice["type"] == 3:
                values = [o["value"] for o in choice["options"][: choice["min_values"]]]
                await lb.select(user, choice["custom_id"], values, message=message)
            else:
                await lb.click(user, choice["custom_id"], message=message)
            clicks += 1
    return clicks


async def _a_fast_game(t: Any, lb: Loopback) -> tuple[int, int, Recorder, int, float]:
    """A two-player Eggs and Empires game played fast to its end (`_play_fast`) and checked: every log line
    once and in order, the table showing the end. (game id, its thread, the updates, clicks, seconds played.)"""
    recorder = Recorder()
    recorder.install(t.bot)
    alice, bob = lb.user("Alice"), lb.user("Bob")
    game_id = await open_game(t, "eggs-empires", [alice, bob], 2, lb.channel)
    [thread] = lb.threads()

    async def finished() -> bool:
        row = await t.bot.table.db.get_game(game_id)
        return row is not None and row.status != "active"

    started = asyncio.get_running_loop().time()
    clicks = await _play_fast(lb, [alice, bob], finished)
    played = asyncio.get_running_loop().time() - started
    await caught_up(t)
    await lb.quiet(idle=0.3, within=60)
    check = await check_game(t, game_id, recorder)
    assert check.ok(), check.problems
    return game_id, thread, recorder, clicks, played


async def test_a_fast_game_lives_within_the_thread_bucket_and_dms_are_not_held_behind_it(tmp_path: Path) -> None:
    lb = await Loopback.start(limits=RateLimits())  # Discord's values: 5 messages per 5 s per channel
    try:
        async with bot_on_loopback(lb, f"sqlite+aiosqlite:///{tmp_path}/bot.sqlite3") as t:
            notifier = t.bot.table.notifier
            delays: dict[str, list[float]] = {"table": [], "log": [], "dm": []}
            to_metrics = notifier.shown  # type: ignore[attr-defined]

            def shown(kind: str, seconds: float) -> None:
                delays[kind].append(seconds)
                to_metrics(kind, seconds)

            notifier.shown = shown  # type: ignore[attr-defined]
            game_id, thread, recorder, clicks, played = await _a_fast_game(t, lb)
            assert lb.limiter is not None and lb.limiter.rejected == {}, "discord.py paced itself: no 429"
            thread_calls = [c for c in lb.fake.calls if c.path.startswith(f"/channels/{thread}/messages")]
            assert clicks / played > 1.0 and len(thread_calls) > 5, "faster than the thread's 5 per 5 s"
            assert lb.limiter.exhausted > 0, "the thread's bucket was used up: its calls were held"
            turns = sum(1 for u in recorder.updates[game_id] if not u.started and u.resolved)
            posts = [c for c in thread_calls if c.method == "POST" and c.status == 200][1:]  # after the table
            assert len(posts) < turns, "the lines pending at once went out together"
            # The thread lagged behind its bucket; the DMs (each its own channel) did not wait for it: they
            # went out while the thread's calls were held (in one queue after the thread's, none would).
            held = [(start, end) for channel, start, end in lb.limiter.held_spans if channel == thread]
            dm_calls = [
                c.at
                for c in lb.fake.calls
                if c.method == "PATCH" and c.via == "http" and lb.fake.channels[int(c.path.split("/")[2])]["type"] == 1
            ]
            during = [at for at in dm_calls if any(start < at < end for start, end in held)]
            print(
                f"\n{clicks} clicks in {played:.1f} s; thread held {len(held)} times; {len(during)} of "
                f"{len(dm_calls)} DM edits went while it was held; delays (s) p50 table "
                f"{statistics.median(delays['table']):.2f} dm {statistics.median(delays['dm']):.3f}, "
                f"max table {max(delays['table']):.2f} dm {max(delays['dm']):.2f}"
            )
            assert held and len(during) >= len(dm_calls) / 4, (len(during), len(dm_calls))
            assert statistics.median(delays["dm"]) < 0.25 < 1.0 < max(delays["table"])
            # The bot's metrics say the same: requests held for their bucket, and the delays by kind.
            metrics = t.bot.metrics.registry
            held_long = sum(
                metrics.get_sample_value("tablebot_discord_request_held_seconds_count", {"when": side})
                - metrics.get_sample_value("tablebot_discord_request_held_seconds_bucket", {"when": side, "le": "1.0"})
                for side in ("before", "after")
            )
            assert held_long >= len(held) - 1 > 0, (held_long, len(held))
            for kind in ("table", "log", "dm"):
                assert metrics.get_sample_value("tablebot_notification_delay_seconds_count", {"kind": kind}) == len(
                    delays[kind]
                )
    finally:
        await lb.close()


@pytest.mark.parametrize("seed", [3])
async def test_log_lines_pending_at_once_are_shown_by_posts_and_one_table_edit(seed: int) -> None:
    """Many long lines pending while the thread is held: the newest the table has room for are shown by its
    next edit, the older ones by as few posts as fit 2,000 characters each; every line once, in order, and
    the last marked announced once."""
    from types import SimpleNamespace

    from bot.delivery import notify
    from bot.delivery.pending import MESSAGE_LIMIT
    from bot.messages import present
    from harness.offline import offline_notifier

    rng = random.Random(seed)
    lines = [f"turn {n}: " + "x" * rng.randint(10, 400) for n in range(30)]
    shown: list[tuple[str, list[str]]] = []  # ("edit" or "post", the lines), in order
    nonces: list[int] = []
    priorities: set[Priority] = set()  # of the thread's requests, in the bot's bucket for the global limit
    gate = asyncio.Event()

    class Channel:
        async def send(self, content: str, *, nonce: int, **_: Any) -> None:
            shown.append(("post", content.split("\n")))
            nonces.append(nonce)
            priorities.add(PRIORITY.get())

    notifier = offline_notifier()

    async def edit_table(update: Any, lang: str, still_wanted: Any, again: bool, carried: list[str]) -> bool:
        if not shown:
            await gate.wait()  # the first edit is on its way while the other lines come
        shown.append(("edit", list(carried)))
        priorities.add(PRIORITY.get())
        return True

    notifier._public_channel = lambda game: Channel()  # type: ignore[assignment,method-assign,return-value]
    notifier._edit_table = edit_table  # type: ignore[method-assign]
    game = SimpleNamespace(id=5, status="active", guild_id=None)
    by_version = dict(enumerate(lines, start=1))
    with mock.patch.object(present, "log_line", side_effect=lambda update, lang: by_version[update.version]):
        first = asyncio.create_task(
            notifier.publish(SimpleNamespace(game=game, version=1, started=False, dms=[], notices={}, afk_seats=[]))
        )
        await asyncio.sleep(0)
        for version in range(2, len(lines) + 1):
            await notifier.publish(
                SimpleNamespace(game=game, version=version, started=False, dms=[], notices={}, afk_seats=[])
            )
        gate.set()
        await first
    assert shown[0] == ("edit", lines[:1])
    kinds = [kind for kind, _ in shown]
    assert kinds == ["edit", *["post"] * (len(kinds) - 2), "edit"], "the older lines posted, then the table"
    assert [line for _, run in shown[1:] for line in run] == lines[1:], "every line once, in order"
    posts = ["\n".join(run) for kind, run in shown if kind == "post"]
    assert all(len(post) <= MESSAGE_LIMIT for post in posts)
    # Fewest posts: no two neighbouring posts would have fit in one.
    assert all(len(a) + 1 + len(b.split("\n")[0]) > MESSAGE_LIMIT for a, b in itertools.pairwise(posts))
    table = shown[-1][1]
    assert 1 <= len(table) <= notify.RECENT_LINES and len("\n".join(table)) <= present.FIELD_LIMIT
    assert len(set(nonces)) == len(nonces), "each post its own nonce"
    assert priorities == {Priority.TABLE}, "the posts go at the table's priority: its next edit waits behind them"
    assert list(notifier._recent[5]) == lines[-notify.RECENT_LINES :]
    notifier.bot.table.db.update_game.assert_awaited_with(5, announced=len(lines))  # type: ignore[attr-defined]
    assert notifier.bot.table.db.update_game.await_count == 1  # type: ignore[attr-defined]


async def test_with_a_table_interval_a_fast_game_edits_its_table_at_most_once_an_interval(tmp_path: Path) -> None:
    """TABLE_EDIT_INTERVAL: the same fast game, its table edited at least an interval apart (the end of the
    game excepted: it goes at once) and fewer times than it had turns, the newest state winning: every
    log line still shown once and in order, the table ending on the result."""
    interval = 1.0
    lb = await Loopback.start(limits=RateLimits())
    try:
        url = f"sqlite+aiosqlite:///{tmp_path}/bot.sqlite3"
        async with bot_on_loopback(lb, url, table_edit_interval=interval) as t:
            game_id, thread, recorder, _clicks, _played = await _a_fast_game(t, lb)
            assert lb.limiter is not None and lb.limiter.rejected == {}
            row = await t.bot.table.db.get_game(game_id)
            assert row is not None and row.table_message_id is not None
            edits = [
                c.at
                for c in lb.fake.calls
                if c.method == "PATCH" and c.path == f"/channels/{thread}/messages/{row.table_message_id}"
            ]
            turns = sum(1 for u in recorder.updates[game_id] if not u.started and u.resolved)
            gaps = [b - a for a, b in itertools.pairwise(edits[:-1])]
            print(f"\n{turns} turns, {len(edits)} table edits; shortest gap {min(gaps, default=0):.2f} s")
            # The interval runs from when an edit is asked for (its picture then drawn, its request sent):
            # what reaches Discord is an interval apart give or take that time (without it: ~0 s apart).
            assert len(edits) >= 2 and all(gap >= interval * 0.75 for gap in gaps), gaps
            assert len(edits) < turns, "turns that came within an interval shared an edit"
    finally:
        await lb.close()
