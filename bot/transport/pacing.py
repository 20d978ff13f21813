"""Discord's global rate limit, kept by the bot itself: a token bucket in front of every bot-token request.

Discord allows a bot token 50 requests per second in all (interaction callbacks and the interaction
webhook routes, which carry the interaction's own token, are exempt), and bans the IP address of a
client that gets 10,000 invalid answers (429s included) in 10 minutes. discord.py paces each route's
own bucket from Discord's headers but only learns of the global limit from a 429, so a busy bot would
get 429s by the thousand. This module paces it instead.

Where: every bot-token request goes through `discord.http.HTTPClient.request`, which enters the route's
rate-limit bucket (`discord.http.Ratelimit`, one per route and channel) right before it sends. The
bot's HTTP client makes its buckets as `PacedRatelimit`s (`install`), which, once the route's bucket
has room, take a token from the one `GlobalBucket` of the client. So a request waits for the global
token only when it is about to go, never while it is held for its channel's bucket (a token taken
early and spent late would let a burst through). The interaction routes do not go through that
client (discord.py sends them through its webhook adapter): they are not paced, as Discord does not
count them. discord.py's own retries inside one request (after a 429, after a 5xx) wait a second or
more first and are not paced again (each is counted as sent, below).

Tokens are not enough on their own: a token says when a request may go, not when it reaches Discord. With
the event loop busy (a bot near a full core) a request can wait a loop iteration or more between its token
and its bytes, and requests given their tokens a second apart then reach Discord together: 429s with the
global scope at 1,000-1,200 games (issue 37). So the bucket also counts when requests actually go out
(aiohttp's trace signals on the HTTP client's session: `install`; the headers of a request with a body go
out with its first chunk) and lets no more than
`window_limit` be in flight or sent within the last second: a request holds its place from its token
until a second after its headers went out, however late that was. Discord then sees at most that many in
any second, give or take its own jitter.

One bucket per HTTP client: an `AutoShardedBot` has one client for all its shards, so they share it.
With several processes on one token each takes its share (`share`: by default its shards' fraction of
the whole; `GLOBAL_RATE_LIMIT` in the settings overrides it; docs/deployment.md).

Who goes first: when requests wait, the bucket hands its tokens out by priority, then in order of
arrival: a player's prompt (`PROMPT`), then anything not classed (`DEFAULT`: answers to commands,
lobbies, threads), then the table message (`TABLE`), then the log and clean-ups (`LOG`). The notifier
says which a request is (`priority`, a context variable the request's task carries down to
discord.py); while the table and log wait, the notifier coalesces them (only the newest table goes,
the log lines pending meanwhile go as one post), so the least important traffic is what degrades.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from enum import IntEnum
from typing import Any, Self

import aiohttp
import discord
from aiohttp import hdrs

DISCORD_GLOBAL_LIMIT = 50.0  # requests per second per bot token, every process together
# Of a share, the bucket refills at RATE_FRACTION of it and holds at most BURST_FRACTION of it: in any
# second at most (RATE_FRACTION + BURST_FRACTION) x share go, and requests that arrive at Discord up to
# (1 - that) / RATE_FRACTION s later than they were let through (a busy event loop on either side,
# the network) still fit in its second: 0.125 s. The window below bounds our own lateness whatever it is.
RATE_FRACTION = 0.8
BURST_FRACTION = 0.1
# And of a share, at most WINDOW_FRACTION is in flight or went out within any WINDOW seconds, counted from when
# each request went out (so our own lateness cannot bunch them): the rest of Discord's 50 is the margin for
# the network's and Discord's jitter (0.25 s at the rate above). It is no more than the rate: the burst only
# lets a quiet bot's first requests go at once. At 0.9 (45), `bench load --capacity` still met a global 429
# at 1,200 games with the machine saturated (its fake Discord, in the bench's busy process, judging requests
# up to ~0.1 s late).
WINDOW_FRACTION = 0.8
WINDOW = 1.0


class Priority(IntEnum):
    """Who goes first when requests wait for the global bucket (lower first)."""

    PROMPT = 0  # a player's prompt: a new DM, a mention telling them it is their turn
    DEFAULT = 1  # not classed: answers' side requests, lobbies, opening a game's thread
    TABLE = 2  # a game's thread: the table message (only its newest version matters: the notifier
    # coalesces) and the log lines the table had no room for (several a post; the table waits behind them)
    LOG = 3  # clean-ups (deleting an old prompt)


PRIORITY: ContextVar[Priority] = ContextVar("discord_request_priority", default=Priority.DEFAULT)


@contextlib.contextmanager
def priority(level: Priority) -> Iterator[None]:
    """The bot-token requests made inside this block (in this task) wait for the global bucket as `level`."""
    token = PRIORITY.set(level)
    try:
        yield
    finally:
        PRIORITY.reset(token)


def share(
    *, shards: int | None = None, shard_count: int | None = None, requests_per_second: float | None = None
) -> float:
    """This process's share of Discord's global limit, in requests per second: `requests_per_second` when
    set (GLOBAL_RATE_LIMIT), else the fraction of the shards it runs (all of them: the whole limit)."""
    if requests_per_second is not None:
        return requests_per_second
    if shards is None or not shard_count:
        return DISCORD_GLOBAL_LIMIT
    return DISCORD_GLOBAL_LIMIT * shards / shard_count


class Grant:
    """One request's token: it tells the bucket when the request went out, and that it is over."""

    __slots__ = ("_bucket", "body_due", "unsent")

    def __init__(self, bucket: GlobalBucket) -> None:
        self._bucket = bucket
        self.unsent = True
        self.body_due = False  # its headers wait to go out with its body's first chunk

    def went(self) -> None:
        """Its request's headers went out now (each of discord.py's retries too: Discord counts each)."""
        self._bucket._went(self.unsent)
        self.unsent = False

    def close(self) -> None:
        """Its request is over. One never seen going out (no trace hook, an error while sending) is counted
        as going out now: it may have, and now is no earlier than it did."""
        if self.unsent:
            self.went()


GRANT: ContextVar[Grant | None] = ContextVar("discord_request_grant", default=None)


class GlobalBucket:
    """A token bucket refilled at `rate` tokens per second and holding at most `burst`; one token per
    request. Waiting requests are served by priority, then in order of arrival. With a `window_limit`, a
    token is also given only while fewer than that many requests are in flight (given a token, not yet
    gone out) or went out within the last `window` seconds (the `Grant` acquire returns says when).

    Cheap when there is room (a few float operations); when there is not, one timer wakes the bucket
    when the next token is due. Says what it did: tokens taken and seconds waited per priority, and for
    how long in all some request was waiting (the bucket was the bottleneck)."""

    def __init__(
        self,
        rate: float,
        burst: float,
        clock: Callable[[], float] = time.monotonic,
        window_limit: int | None = None,
        window: float = WINDOW,
    ) -> None:
        if rate <= 0 or burst < 1 or (window_limit is not None and window_limit < 1):  # it would never hand one out
            raise ValueError(rate, burst, window_limit)
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.window_limit = window_limit
        self.window = window
        self._unsent = 0  # requests given a token that have not gone out yet
        self._sent: deque[float] = deque()  # when requests went out, within the last `window` seconds
        self._tokens = burst
        self._refilled = clock()
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []  # (priority, arrival, future), a heap
        self._arrivals = itertools.count()
        self._timer: asyncio.TimerHandle | None = None
        self._busy_since: float | None = None  # when requests started waiting (None: none waits)
        self._busy_before = 0.0  # seconds some request waited, before the current stretch
        self.taken = [0] * len(Priority)  # tokens handed out, per priority
        self.waited = [0.0] * len(Priority)  # seconds waited in all, per priority
        self.observers: list[Callable[[Priority, float], None]] = []  # told of each wait (priority, seconds)

    @classmethod
    def for_share(cls, requests_per_second: float, clock: Callable[[], float] = time.monotonic) -> Self:
        """The bucket that keeps a process within `requests_per_second` (its share), with a margin."""
        return cls(
            RATE_FRACTION * requests_per_second,
            max(1.0, BURST_FRACTION * requests_per_second),
            clock,
            window_limit=max(1, int(WINDOW_FRACTION * requests_per_second)),
        )

    def _refill(self, now: float) -> None:
        self._tokens = min(self.burst, self._tokens + (now - self._refilled) * self.rate)
        self._refilled = now

    def _room(self, now: float) -> float:
        """How many more may be given a token under the window (as many as the tokens allow: no window)."""
        if self.window_limit is None:
            return float("inf")
        while self._sent and self._sent[0] <= now - self.window:
            self._sent.popleft()
        return self.window_limit - self._unsent - len(self._sent)

    def _take(self) -> None:
        self._tokens -= 1
        if self.window_limit is not None:
            self._unsent += 1

    def _went(self, unsent: bool) -> None:
        if self.window_limit is None:
            return
        if unsent:
            self._unsent -= 1
        self._sent.append(self.clock())
        if self._waiting and self._timer is None:  # its place now frees at a known time
            self._schedule()

    async def acquire(self, level: Priority = Priority.DEFAULT) -> Grant:
        """Take a token, waiting for one behind those of a higher priority and those who came earlier. The
        grant says when its request went out (`Grant.went`, `GRANT`) and that it is over (`Grant.close`)."""
        now = self.clock()
        self._refill(now)
        if not self._waiting and self._tokens >= 1 and self._room(now) >= 1:
            self._take()
            self.taken[level] += 1
            return Grant(self)
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if not self._waiting:
            self._busy_since = now
        heapq.heappush(self._waiting, (level, next(self._arrivals), future))
        self._schedule()
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():  # given a token, then cancelled: hand it back
                self._tokens += 1
                if self.window_limit is not None:
                    self._unsent -= 1
                self._hand_out()
            raise
        waited = self.clock() - now
        self.taken[level] += 1
        self.waited[level] += waited
        for observe in self.observers:
            observe(level, waited)
        return Grant(self)

    def _schedule(self) -> None:
        if self._timer is not None or not self._waiting:
            return
        now = self.clock()
        due = max(0.0, (1 - self._tokens) / self.rate)
        if self._room(now) < 1:
            if not self._sent:  # every place is held by a request still to go out: `_went` schedules
                return
            due = max(due, self._sent[0] + self.window - now)
        self._timer = asyncio.get_running_loop().call_later(due, self._on_timer)

    def _on_timer(self) -> None:
        self._timer = None
        self._hand_out()

    def _hand_out(self) -> None:
        now = self.clock()
        self._refill(now)
        while self._waiting and self._tokens >= 1 and self._room(now) >= 1:
            _level, _arrival, future = heapq.heappop(self._waiting)
            if future.done():  # its request was cancelled while it waited
                continue
            self._take()
            future.set_result(None)
        while self._waiting and self._waiting[0][2].done():
            heapq.heappop(self._waiting)
        if self._waiting:
            self._schedule()
        elif self._busy_since is not None:
            self._busy_before += now - self._busy_since
            self._busy_since = None

    def waiting(self) -> int:
        """Requests waiting now."""
        return sum(1 for _l, _a, future in self._waiting if not future.done())

    def busy_seconds(self) -> float:
        """Seconds during which some request was waiting for a token: the time the bucket was the bottleneck."""
        current = self.clock() - self._busy_since if self._busy_since is not None else 0.0
        return self._busy_before + current


class PacedRatelimit(discord.http.Ratelimit):
    """discord.py's bucket of one route (and channel): once it lets a request go, the request takes a token
    of the global bucket (if any) as its task's priority says. It also says how long it held a request:
    before (no room in the route's bucket) and after (the request that used the bucket up is held until
    the reset), for the metrics."""

    __slots__ = ("_global", "_held")

    def __init__(
        self,
        max_ratelimit_timeout: float | None,
        global_bucket: GlobalBucket | None,
        held: tuple[Callable[[float], None], Callable[[float], None]] | None = None,
    ) -> None:
        super().__init__(max_ratelimit_timeout)
        self._global = global_bucket
        self._held = held

    async def __aenter__(self) -> Self:
        # A hold is told by the bucket's state, not by the time the call took: on a busy machine the
        # process can be descheduled for milliseconds inside a call that never waited for the bucket.
        waits = self.remaining <= 0 and not self.is_expired()
        started = time.perf_counter()
        entered = await super().__aenter__()
        if self._held is not None and waits:
            self._held[0](time.perf_counter() - started)
        if self._global is not None:
            try:
                # The grant rides in the request's context: the trace hook (`install`) tells it when the
                # request went out, even from the task aiohttp writes the body in.
                GRANT.set(await self._global.acquire(PRIORITY.get()))
            except BaseException:
                # Not sent after all: the route's bucket gets its place back (as Ratelimit.acquire undoes).
                self.outgoing -= 1
                self.remaining += 1
                self._wake_next()
                raise
        return entered

    async def __aexit__(self, *exc: Any) -> None:
        # discord.py sleeps after the request that used the bucket up, until the reset. Without Discord's
        # headers it "waits" 0 s after every request: that is no hold.
        waits = self.reset_after > 0 and self.remaining - (self.outgoing - 1) <= 0 and not self._sleeping.locked()
        grant = GRANT.get()
        if grant is not None:  # the request is over (before any hold until the reset)
            grant.close()
            GRANT.set(None)
        started = time.perf_counter()
        await super().__aexit__(*exc)
        if self._held is not None and waits:
            self._held[1](time.perf_counter() - started)


# discord.py drops the buckets idle for 5 minutes by scanning all of them each time it makes a new one
# (once there are 256). A bot in thousands of channels and DMs makes a new bucket for most of its first
# requests to each, and each such scan walked thousands of buckets: 7% of the bot's CPU while 200 games
# opened. The bot sweeps them itself, every SWEEP_EVERY seconds, and drops a bucket as soon as it holds
# nothing (`holds_nothing`: idle IDLE_BUCKET seconds, no request in it, no window of Discord's still open)
# rather than after 5 minutes: most of a game's buckets serve one request (its thread's creation, the pin,
# adding each player to the thread) and the others wait for the next turn; kept 5 minutes, they were ~7 KB
# of each active game's memory (issue 37). A bucket made again starts as discord.py's first one does.
SWEEP_EVERY = 5.0
IDLE_BUCKET = 5.0


def holds_nothing(bucket: discord.http.Ratelimit, idle_for: float = IDLE_BUCKET) -> bool:
    """Nothing would be lost with `bucket`: no request sent through it or waiting for it, no window of
    Discord's still open (expired, or none told), none for `idle_for` seconds. One made in its place lets a
    first request go alone, and learns the limit again from Discord's answer to it."""
    now = bucket._loop.time()
    return (
        bucket.outgoing == 0
        and not bucket._pending_requests
        and not bucket._sleeping.locked()
        and (bucket.expires is None or now > bucket.expires)
        and now - bucket._last_request >= idle_for
    )


# Creating and editing messages in one channel share one bucket at Discord (fakediscord/rate_limits.py reads
# it so). discord.py learns that from the bucket hash of each route's first answer; until both routes
# have had one, it counted a channel's posts and edits apart and could send more than the bucket holds (a
# 429 at start-up, when a prompt's picture follows its words in an edit).
MESSAGE_PATHS = {"POST": "/channels/{channel_id}/messages", "PATCH": "/channels/{channel_id}/messages/{message_id}"}
MESSAGE_ROUTES = tuple(f"{method} {path}" for method, path in MESSAGE_PATHS.items())  # discord.py's Route.key


def install(
    http: discord.http.HTTPClient,
    global_bucket: GlobalBucket | None,
    held: tuple[Callable[[float], None], Callable[[float], None]] | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> None:
    """Let `http` (this instance only) make its rate-limit buckets as `PacedRatelimit`s, one per channel
    for the message routes (MESSAGE_ROUTES) while their bucket hashes are not both known, and drop the
    buckets that hold nothing (`holds_nothing`) every SWEEP_EVERY seconds rather than scan them all on every
    new one. discord.py 2.x: `HTTPClient.get_ratelimit(key)` is the one place its buckets are made."""
    swept = clock()
    messages: dict[str, discord.http.Ratelimit] = {}  # channel -> its message routes' bucket

    def channel_of(key: str) -> str | None:
        """The channel of a message route's bucket key (by route, or by a hash learned for one of them,
        unless the two were given different hashes: then discord.py keeps them apart, as Discord does)."""
        head, _, channel = key.rpartition(":")
        hashes = {http._bucket_hashes.get(route) for route in MESSAGE_ROUTES} - {None}
        return channel if head in MESSAGE_ROUTES or (len(hashes) == 1 and head in hashes) else None

    def sweep(asked: discord.http.Ratelimit) -> None:
        """Drop the buckets that hold nothing, but the one just asked for (its request is about to use it)."""
        for key in [k for k, b in http._buckets.items() if b is not asked and holds_nothing(b)]:
            del http._buckets[key]
        for channel in [c for c, b in messages.items() if b is not asked and holds_nothing(b)]:
            del messages[channel]

    def get_ratelimit(key: str) -> discord.http.Ratelimit:
        nonlocal swept
        bucket = http._buckets.get(key)
        if bucket is None:
            channel = channel_of(key)
            bucket = messages.get(channel) if channel is not None else None
            if bucket is None:
                bucket = PacedRatelimit(http.max_ratelimit_timeout, global_bucket, held)
                if channel is not None:
                    messages[channel] = bucket
            http._buckets[key] = bucket
        now = clock()
        if now - swept >= SWEEP_EVERY:
            swept = now
            sweep(bucket)
        return bucket

    setattr(http, "get_ratelimit", get_ratelimit)  # noqa: B010 (a method, replaced per instance)
    if global_bucket is not None:
        # Before login: discord.py makes its session, with this trace config, in `static_login`.
        if http.http_trace is None:
            http.http_trace = aiohttp.TraceConfig()
        http.http_trace.on_request_headers_sent.append(_headers_written)
        http.http_trace.on_request_chunk_sent.append(_chunk_written)


async def _headers_written(
    _session: aiohttp.ClientSession, _context: Any, params: aiohttp.TraceRequestHeadersSentParams
) -> None:
    """aiohttp has the request's headers ready. Without a body they go out now; with one, aiohttp holds them
    to go out with its first chunk, written from another task (a loop iteration or more later): then that
    is when the request went (`_chunk_written`)."""
    grant = GRANT.get()
    if grant is None:
        return
    headers = params.headers
    grant.body_due = headers.get(hdrs.CONTENT_LENGTH, "0") != "0" or hdrs.TRANSFER_ENCODING in headers
    if not grant.body_due:
        grant.went()


async def _chunk_written(
    _session: aiohttp.ClientSession, _context: Any, _params: aiohttp.TraceRequestChunkSentParams
) -> None:
    """aiohttp writes a chunk of the request's body: the first one takes the held headers out with it."""
    grant = GRANT.get()
    if grant is not None and grant.body_due:
        grant.body_due = False
        grant.went()


__all__ = [
    "DISCORD_GLOBAL_LIMIT",
    "GRANT",
    "PRIORITY",
    "GlobalBucket",
    "Grant",
    "PacedRatelimit",
    "Priority",
    "install",
    "priority",
    "share",
]
