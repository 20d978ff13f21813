"""The bot's own pacing under Discord's global limit (bot/transport/pacing.py).

The bucket on its own: never more than its burst plus its rate in any stretch of time, whatever comes
when; waiting requests served by priority, then in order of arrival; a cancelled request takes no
token; how long it was the bottleneck. Then discord.py through it against the loopback fake with the
global limit on: a burst the fake would answer with 429s goes through paced with none, and a prompt
goes before the table and the log that were waiting.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path
from unittest import mock

import discord
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.app.metrics import BotMetrics
from bot.transport import pacing
from bot.transport.pacing import GlobalBucket, Priority, priority
from fakediscord.fake_discord import GUILD_ID
from fakediscord.loopback import TOKEN, Loopback
from fakediscord.rate_limits import Bucket, RateLimits
from harness.fault_play import Recorder, bot_on_loopback, caught_up
from harness.play import choice_components
from table import TableUpdate


def _most_in_any_stretch(times: list[float], rate: float, burst: float) -> float:
    """How far the grants exceed burst + rate x length over their worst stretch (<= 0: never)."""
    worst = float("-inf")
    for i, start in enumerate(times):
        for j in range(i, len(times)):
            worst = max(worst, (j - i + 1) - (burst + rate * (times[j] - start)))
    return worst


@settings(max_examples=8, deadline=None)
@given(
    arrivals=st.lists(
        st.tuples(st.floats(0, 0.03), st.sampled_from(list(Priority))),
        min_size=5,
        max_size=40,
    ),
    burst=st.integers(1, 4),
)
def test_the_bucket_never_lets_more_through_than_its_burst_and_rate(
    arrivals: list[tuple[float, Priority]], burst: int
) -> None:
    rate = 400.0

    async def run() -> list[float]:
        bucket = GlobalBucket(rate, burst)
        granted: list[float] = []

        async def request(delay: float, level: Priority) -> None:
            await asyncio.sleep(delay)
            await bucket.acquire(level)
            granted.append(bucket.clock())

        await asyncio.gather(*(request(delay, level) for delay, level in arrivals))
        return sorted(granted)

    granted = asyncio.run(run())
    assert len(granted) == len(arrivals)
    assert _most_in_any_stretch(granted, rate, burst) <= 1e-6


def _most_within(times: list[float], window: float) -> int:
    """The most of `times` (sorted) within any stretch shorter than `window`."""
    return max((sum(1 for later in times[i:] if later - start < window) for i, start in enumerate(times)), default=0)


@settings(max_examples=6, deadline=None)
@given(
    lateness=st.lists(st.floats(0, 0.06), min_size=25, max_size=40),
    arrivals=st.lists(st.floats(0, 0.05), min_size=25, max_size=40),
)
def test_requests_that_go_out_late_are_never_more_than_the_window_in_any_window(
    lateness: list[float], arrivals: list[float]
) -> None:
    """A busy event loop makes a request go out later than its token: tokens a window apart then reach
    Discord together (the 429s near a full core, issue 37). The bucket counts when each went out: at most
    `window_limit` go out within any `window`, however late each went (without the window, the tokens
    alone let 4 + 400 x 0.1 = 44 through in 0.1 s)."""
    window, limit = 0.1, 10

    async def run() -> list[float]:
        bucket = GlobalBucket(400.0, 4, window_limit=limit, window=window)
        went: list[float] = []

        async def request(arrival: float, late: float) -> None:
            await asyncio.sleep(arrival)
            grant = await bucket.acquire()
            await asyncio.sleep(late)  # between the token and the bytes: the loop was busy
            grant.went()
            went.append(bucket.clock())
            await asyncio.sleep(0.005)  # Discord's answer
            grant.close()  # over: it was counted when it went, not again

        await asyncio.gather(*(request(a, late) for a, late in zip(arrivals, lateness, strict=False)))
        assert bucket._unsent == 0 and len(bucket._sent) <= limit
        return sorted(went)

    went = asyncio.run(run())
    assert len(went) == min(len(arrivals), len(lateness))
    assert _most_within(went, window) <= limit


async def test_a_request_that_never_went_out_is_counted_when_it_is_over_and_a_cancelled_wait_holds_no_place() -> None:
    bucket = GlobalBucket(1000.0, 5, window_limit=2, window=0.2)
    first = await bucket.acquire()
    second = await bucket.acquire()
    third = asyncio.create_task(bucket.acquire())  # two in flight: the window is full
    await asyncio.sleep(0.01)
    assert not third.done()
    first.close()  # never seen going out (an error while sending): counted as gone now
    second.went()
    second.close()
    await asyncio.sleep(0.05)
    assert not third.done(), "both went out within the window: the third waits for the first to age out"
    given_up = asyncio.create_task(bucket.acquire())
    await asyncio.sleep(0)
    given_up.cancel()
    (await asyncio.wait_for(third, 1.0)).close()
    assert bucket._unsent == 0 and bucket.waiting() == 0


async def test_waiting_requests_go_by_priority_then_in_order_of_arrival() -> None:
    bucket = GlobalBucket(200.0, 1)
    await bucket.acquire()  # the one token there was: the next ones wait
    order: list[str] = []

    async def request(name: str, level: Priority) -> None:
        await bucket.acquire(level)
        order.append(name)

    names = [("log", Priority.LOG), ("table", Priority.TABLE), ("other", Priority.DEFAULT)]
    names += [("prompt 1", Priority.PROMPT), ("table 2", Priority.TABLE), ("prompt 2", Priority.PROMPT)]
    await asyncio.gather(*(request(name, level) for name, level in names))
    assert order == ["prompt 1", "prompt 2", "other", "table", "table 2", "log"]
    assert bucket.taken == [2, 2, 2, 1]
    assert bucket.waiting() == 0


async def test_a_cancelled_request_takes_no_token_and_the_bottleneck_time_is_counted() -> None:
    bucket = GlobalBucket(4.0, 1)  # a token every 0.25 s: what follows waits for the next
    await bucket.acquire()
    assert bucket.busy_seconds() == 0.0
    given_up = asyncio.create_task(bucket.acquire(Priority.PROMPT))
    waiting = asyncio.create_task(bucket.acquire(Priority.LOG))
    await asyncio.sleep(0)
    assert bucket.waiting() == 2
    given_up.cancel()
    await asyncio.wait_for(waiting, 1.0)  # the next token went to the request still waiting
    assert bucket.taken == [0, 1, 0, 1]
    busy = bucket.busy_seconds()
    assert busy > 0, "it waited for a token"
    await asyncio.sleep(0.03)
    assert bucket.busy_seconds() == busy, "nobody waits: the bucket is not the bottleneck"


def test_each_process_takes_its_share_of_the_limit() -> None:
    assert pacing.share() == 50.0
    assert pacing.share(shards=2, shard_count=8) == 12.5
    assert pacing.share(shards=2, shard_count=8, requests_per_second=20.0) == 20.0
    bucket = GlobalBucket.for_share(50.0)
    assert bucket.rate + bucket.burst <= 50.0 * 0.95, "a margin for requests that reach Discord late"
    assert bucket.window_limit is not None and bucket.window_limit <= 50.0 * 0.95
    assert GlobalBucket.for_share(2.0).burst == 1.0


async def test_buckets_that_hold_nothing_are_dropped_at_the_next_sweep_not_on_every_request() -> None:
    """discord.py scans every bucket each time it makes one past 256 and drops those idle for 5 minutes: with
    thousands of channels, most new requests walked them all, and each game's buckets stayed 5 minutes after
    their last request. The bot sweeps every SWEEP_EVERY seconds and drops the buckets that hold nothing:
    idle for IDLE_BUCKET seconds, no request in them or waiting, no window of Discord's still open."""
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    now = [1000.0]
    pacing.install(http, None, clock=lambda: now[0])
    post, edit = pacing.MESSAGE_ROUTES
    loop_now = asyncio.get_running_loop().time()
    for channel in range(300):
        http.get_ratelimit(f"{post}:{channel}")
    buckets = {channel: http._buckets[f"{post}:{channel}"] for channel in range(300)}
    for channel in range(100):  # idle long enough, nothing in them
        buckets[channel]._last_request = loop_now - pacing.IDLE_BUCKET - 1
    buckets[0].expires = loop_now + 60  # ... but Discord's window is still open: kept
    buckets[1].outgoing = 1  # ... but a request is out: kept
    buckets[2]._pending_requests.append(asyncio.get_running_loop().create_future())  # ... one waits: kept
    buckets[3].expires = loop_now - 1  # its window over: dropped
    http.get_ratelimit(f"{post}:300")
    assert len(http._buckets) == 301, "no bucket is dropped before the next sweep"
    now[0] += pacing.SWEEP_EVERY
    asked = http.get_ratelimit(f"{post}:4")
    assert asked is buckets[4], "the bucket asked for is not dropped: its request is about to use it"
    assert len(http._buckets) == 301 - 100 + 4, "the idle buckets that hold nothing are dropped"
    assert {0, 1, 2, 4} <= {c for c in range(300) if f"{post}:{c}" in http._buckets}
    assert http.get_ratelimit(f"{post}:3") is not buckets[3], "made again when needed"
    assert http.get_ratelimit(f"{edit}:3") is http.get_ratelimit(f"{post}:3"), "shared by posts and edits"
    for bucket in buckets.values():
        bucket._last_request = loop_now - 2 * pacing.IDLE_BUCKET
    buckets[2]._pending_requests.clear()
    buckets[1].outgoing = 0
    http.get_ratelimit(f"{post}:5")
    assert len(http._buckets) > 200, "and not again until SWEEP_EVERY has passed"


async def test_a_channels_posts_and_edits_share_one_bucket_until_discord_says_otherwise() -> None:
    """Before discord.py has seen a bucket hash for both message routes, a channel's posts and edits are
    counted in one bucket (Discord's); after, by the hash: together if both routes got the same one."""
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    pacing.install(http, None)
    post, edit = pacing.MESSAGE_ROUTES
    assert http.get_ratelimit(f"{post}:5") is http.get_ratelimit(f"{edit}:5")
    assert http.get_ratelimit(f"{post}:5") is not http.get_ratelimit(f"{post}:6"), "each channel its own"
    assert http.get_ratelimit("GET /channels/{channel_id}/messages:5") is not http.get_ratelimit(f"{post}:5")
    http._bucket_hashes[post] = "abc"  # the posts' hash learned first: edits of channel 7 go by route still
    assert http.get_ratelimit("abc:7") is http.get_ratelimit(f"{edit}:7")
    http._bucket_hashes[edit] = "abc"
    assert http.get_ratelimit("abc:8") is http.get_ratelimit(f"{post}:8")
    http._bucket_hashes[edit] = "xyz"  # Discord counts them apart: so does the bot
    assert http.get_ratelimit("abc:9") is not http.get_ratelimit("xyz:9")


async def test_posts_and_edits_at_start_up_stay_within_the_channels_bucket() -> None:
    """A bot that has not learned the message routes' bucket yet posts and edits in one channel at once
    (a prompt, the picture following another): the fake counts both in one bucket, and answers none of
    them with a 429."""
    lb = await Loopback.start(limits=RateLimits(messages=Bucket(2, 1.0)))
    try:
        channel = lb.fake.add_text_channel("c")
        async with client_on(lb, None) as earlier:
            sent = [await earlier.get_partial_messageable(channel).send(f"m{i}") for i in range(2)]
        await asyncio.sleep(1.1)  # the channel's bucket full again
        async with client_on(lb, None) as client:
            where = client.get_partial_messageable(channel)
            await asyncio.gather(
                *(where.send(f"new {i}") for i in range(2)),
                *(where.get_partial_message(m.id).edit(content="edited") for m in sent),
            )
        assert sum(lb.limiter.rejected.values()) == 0, lb.limiter.rejected
    finally:
        await lb.close()


# --- discord.py through the bucket, against the loopback with the global limit on ---------------
GLOBAL = Bucket(20, 1.0)  # the fake's global limit for these tests (Discord's is 50 per second)


@contextlib.asynccontextmanager
async def client_on(
    lb: Loopback, bucket: GlobalBucket | None, metrics: BotMetrics | None = None
) -> AsyncIterator[discord.Client]:
    with mock.patch.object(discord.http.Route, "BASE", f"{lb.url}/api/v10"):
        client = discord.Client(intents=discord.Intents.none())
        (metrics or BotMetrics()).pace(client.http, bucket)
        await client.login(TOKEN)
        try:
            yield client
        finally:
            await client.close()


@pytest.fixture
async def global_limited() -> AsyncIterator[Loopback]:
    lb = await Loopback.start(limits=RateLimits(messages=None, global_limit=GLOBAL))
    try:
        yield lb
    finally:
        await lb.close()


async def _burst(client: discord.Client, lb: Loopback, count: int) -> None:
    channels = [lb.fake.add_text_channel(f"c{i}") for i in range(count)]
    await asyncio.gather(*(client.get_partial_messageable(c).send("hello") for c in channels))


async def test_a_burst_over_the_global_limit_gets_429s_unpaced_and_none_paced(global_limited: Loopback) -> None:
    lb = global_limited
    assert lb.limiter is not None
    async with client_on(lb, None) as client:
        await _burst(client, lb, 30)
    unpaced = lb.limiter.rejected["global"]
    assert unpaced > 0, "without pacing the fake answers 429s (discord.py learns of the global limit from them)"
    await asyncio.sleep(GLOBAL.per)  # the fake's window is over
    before, mark = dict(lb.limiter.rejected), len(lb.fake.calls)
    metrics = BotMetrics()
    over_unsent: list[bool] = []  # for each request, whether it was over before aiohttp said it went out
    close = pacing.Grant.close

    def closing(grant: pacing.Grant) -> None:
        over_unsent.append(grant.unsent)
        close(grant)

    with mock.patch.object(pacing.Grant, "close", closing):
        async with client_on(lb, GlobalBucket.for_share(GLOBAL.limit), metrics) as client:
            await _burst(client, lb, 30)
    assert dict(lb.limiter.rejected) == before, "paced: not one more 429"
    assert len(over_unsent) > 30 and not any(over_unsent), "each request's grant was told when its headers went"
    posts = [c for c in lb.fake.calls if c.method == "POST" and c.status == 200]
    assert len(posts) == 60
    # The bot's metrics say what the bucket did: every request (those of the login too) took a token,
    # and some of them waited: the bucket was the bottleneck for a while.
    value = metrics.registry.get_sample_value
    requests = len([c for c in lb.fake.calls[mark:] if c.via == "http"])
    assert value("tablebot_global_limit_requests_total", {"priority": "default"}) == requests > 30
    assert value("tablebot_global_limit_requests_total", {"priority": "prompt"}) == 0
    assert value("tablebot_global_limit_wait_seconds_total", {"priority": "default"}) > 0
    assert 0 < value("tablebot_global_limit_busy_seconds_total") < 5


async def test_a_prompt_goes_before_the_table_and_log_that_were_waiting(global_limited: Loopback) -> None:
    """(Each in a channel of its own: within one channel discord.py's bucket of the route keeps the order.)"""
    lb = global_limited
    bucket = GlobalBucket(5.0, 1)  # a token every 0.2 s: the prompt comes while the others wait
    async with client_on(lb, bucket) as client:

        async def post(content: str, level: Priority) -> None:
            with priority(level):
                await client.get_partial_messageable(lb.fake.add_text_channel(content)).send(content)

        await post("first", Priority.DEFAULT)  # takes the one token: what follows waits
        waiting = [
            asyncio.create_task(post(f"{level.name.lower()} {n}", level))
            for n in range(3)
            for level in (Priority.LOG, Priority.TABLE)
        ]
        await asyncio.sleep(0.01)
        await post("prompt", Priority.PROMPT)
        await asyncio.gather(*waiting)
    order = [c.json["content"] for c in lb.fake.calls if c.method == "POST"]
    assert order == ["first", "prompt", "table 0", "table 1", "table 2", "log 0", "log 1", "log 2"]
    assert lb.limiter is not None and lb.limiter.rejected == {}


# --- the bot under a burst ------------------------------------------------------------------------
GAMES = 20
UPDATES_PER_GAME = 25  # 500 in all


def _later(update: TableUpdate, by: int) -> TableUpdate:
    """The same moment of the game shown as `by` versions later: its prompts carry the new version."""
    notices = {
        seat: dataclasses.replace(notice, version=notice.version + by) for seat, notice in update.notices.items()
    }
    return dataclasses.replace(
        update,
        version=update.version + by,
        started=False,
        events=[],
        dms=list(notices.values()),
        notices=notices,
    )


async def test_a_burst_of_500_updates_within_the_global_limit_gets_no_429_and_every_latest_prompt(
    tmp_path: Path,
) -> None:
    """The Done-when of the limits issue: Discord's limits on in the fake (5 messages per 5 s per channel,
    50 requests per second in all), 500 updates of 20 games handed to the notifier at once."""
    lb = await Loopback.start(limits=RateLimits.discord(global_limit=True))
    try:
        async with bot_on_loopback(lb, f"sqlite+aiosqlite:///{tmp_path}/bot.sqlite3") as t:
            table = t.bot.table
            recorder = Recorder()
            recorder.install(t.bot)
            players: dict[int, list[int]] = {}

            async def open_one(n: int) -> None:
                users = [lb.user(f"P{n}-{i}") for i in range(3)]
                row = await table.create_lobby(
                    guild_id=GUILD_ID,
                    channel_id=lb.fake.add_text_channel(f"table-{n}"),
                    game_key="eggs-empires",
                    host_id=users[0],
                    host_name="host",
                    turn_seconds=None,
                )
                assert row.id is not None
                for i, user in enumerate(users[1:], start=1):
                    await table.join(row.id, user, f"player {i}")
                await table.start(row.id, users[0])
                players[row.id] = users

            await asyncio.gather(*(open_one(n) for n in range(GAMES)))
            await caught_up(t)
            burst = [
                _later(updates[-1], by)
                for updates in recorder.updates.values()
                for by in range(1, UPDATES_PER_GAME + 1)
            ]
            assert len(burst) == GAMES * UPDATES_PER_GAME
            await asyncio.gather(*(t.bot.table.notifier.publish(update) for update in burst))
            await caught_up(t)
            await lb.quiet(idle=0.3, within=120)
            assert lb.limiter is not None and lb.limiter.rejected == {}, "no 429 of any scope"
            assert lb.unknown == []
            for game_id, users in players.items():
                latest = recorder.updates[game_id][-1].version
                for user in users:
                    prompt = [c["custom_id"] for c in choice_components(lb.dms(user)[-1])]
                    # g:GAME:SEAT:SEQ:CHOICE or gs:GAME:SEAT:SEQ: offered at the latest version
                    assert prompt and {c.split(":")[3] for c in prompt} == {str(latest)}, (game_id, prompt)
            bot_token = [c for c in lb.fake.calls if c.via == "http"]
            print(f"\n{len(bot_token)} bot-token requests for {len(burst)} updates of {GAMES} games")
    finally:
        await lb.close()
