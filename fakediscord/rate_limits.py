"""Discord's REST rate limits, as the loopback fake applies them (`Loopback.start(limits=RateLimits())`).

Modelled on what Discord announces and what bots widely observe:
- creating or editing messages: `Bucket(5, 5.0)` per channel (a thread and each DM channel are channels
  of their own). POST .../messages and PATCH .../messages/{id} share one bucket, announced by the same
  X-RateLimit-Bucket, so discord.py keeps one counter for both (the stricter reading: Discord has been
  seen to count them apart too);
- the global limit: `Bucket(50, 1.0)` over every request with the bot token; the interaction routes
  (callbacks, and the webhook follow-up and edit routes) are exempt. Off unless asked for.

A window opens at the first request and closes `per` seconds later (Discord's buckets reset that way).
Every limited answer carries X-RateLimit-Limit, -Remaining, -Reset, -Reset-After and -Bucket, so
discord.py's own limiter (discord/http.py `Ratelimit`) holds a request that would exceed a bucket until
the reset. A request that comes anyway (a new process not knowing the bucket, the global limit, which
discord.py does not pace) is answered 429 with `retry_after`, Retry-After, X-RateLimit-Scope and, for
the global limit, X-RateLimit-Global, plus Cloudflare's "Via" header (without it discord.py takes a 429
for an IP ban and does not retry).

Cheap on purpose: a request costs one dict look-up per limit and a few float operations; the bench
drives thousands of requests per second through it.
"""

from __future__ import annotations

import math
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any

MESSAGES_BUCKET = "3d7c9a1e05b4f2c8"  # an opaque hash, as Discord's are
REJECTED = {"message": "You are being rate limited.", "code": 0}


@dataclass(frozen=True)
class Bucket:
    """`limit` requests per window of `per` seconds."""

    limit: int
    per: float


DISCORD_MESSAGES = Bucket(5, 5.0)
DISCORD_GLOBAL = Bucket(50, 1.0)


@dataclass(frozen=True)
class RateLimits:
    """Which of Discord's limits the loopback applies: `messages` per channel (None: unlimited), and
    `global_limit` for the whole bot (None: off, the default)."""

    messages: Bucket | None = DISCORD_MESSAGES
    global_limit: Bucket | None = None

    @classmethod
    def discord(cls, *, global_limit: bool = False) -> RateLimits:
        """Discord's observed values; the global limit only when asked for."""
        return cls(DISCORD_MESSAGES, DISCORD_GLOBAL if global_limit else None)


@dataclass
class Rejection:
    """A request answered 429."""

    status: int
    body: dict[str, Any]
    headers: dict[str, str]
    scope: str  # "user" (a route's bucket) or "global"


@dataclass
class Limiter:
    """The server side of the limits: per-bucket windows, and what they did (429s, exhausted windows)."""

    limits: RateLimits
    clock: Any = time.monotonic
    windows: dict[str, list[float]] = field(default_factory=dict)  # key -> [requests so far, reset time]
    rejected: Counter[str] = field(default_factory=Counter)  # scope -> 429s answered
    exhausted: int = 0  # windows whose last request left 0 remaining: discord.py holds the next until the reset
    # (channel id, when its window was used up, when it resets): the latest spans a channel's calls were held
    held_spans: deque[tuple[int, float, float]] = field(default_factory=lambda: deque(maxlen=10_000))
    limited: int = 0  # requests counted by a per-route bucket

    def check(self, method: str, path: str, *, interaction: bool) -> tuple[Rejection | None, dict[str, str]]:
        """(a 429 to answer, or None) and the rate-limit headers of the answer, for one request."""
        now = self.clock()
        if self.limits.global_limit is not None and not interaction:
            rejection = self._take("global", self.limits.global_limit, now, scope="global")
            if rejection is not None:
                return rejection, {}
        bucket = self.limits.messages
        if bucket is None or interaction or not _creates_or_edits_a_message(method, path):
            return None, {}
        key = path.split("/", 3)[2]  # the channel id: the top-level resource of the route
        self.limited += 1
        rejection = self._take(key, bucket, now, scope="user")
        if rejection is not None:
            return rejection, {}
        window = self.windows[key]
        remaining = bucket.limit - int(window[0])
        if remaining == 0:
            self.exhausted += 1
            self.held_spans.append((int(key), now, window[1]))
        return None, _headers(bucket, remaining, window[1] - now)

    def _take(self, key: str, bucket: Bucket, now: float, *, scope: str) -> Rejection | None:
        window = self.windows.get(key)
        if window is None or window[1] <= now:
            window = self.windows[key] = [0.0, now + bucket.per]
        if window[0] < bucket.limit:
            window[0] += 1
            return None
        self.rejected[scope] += 1
        wait = window[1] - now
        headers = {"Via": "1.1 google", "Retry-After": str(math.ceil(wait)), "X-RateLimit-Scope": scope}
        if scope == "global":
            headers["X-RateLimit-Global"] = "true"
        else:
            headers.update(_headers(bucket, 0, wait))
        body = {**REJECTED, "retry_after": _up_to_ms(wait), "global": scope == "global"}
        return Rejection(429, body, headers, scope)

    @property
    def rate_limited(self) -> int:
        """429s answered, every scope."""
        return sum(self.rejected.values())


def _creates_or_edits_a_message(method: str, path: str) -> bool:
    # /channels/{id}/messages (POST) or /channels/{id}/messages/{message id} (PATCH)
    if not path.startswith("/channels/"):
        return False
    parts = path.split("/")
    return (
        len(parts) >= 4
        and parts[3] == "messages"
        and ((len(parts) == 4 and method == "POST") or (len(parts) == 5 and method == "PATCH"))
    )


def _up_to_ms(seconds: float) -> float:
    """Rounded up to the millisecond (as Discord writes them): a client waiting this long never comes early."""
    return math.ceil(max(seconds, 0.0) * 1000) / 1000


def _headers(bucket: Bucket, remaining: int, reset_after: float) -> dict[str, str]:
    wait = _up_to_ms(reset_after)
    return {
        "X-RateLimit-Limit": str(bucket.limit),
        "X-RateLimit-Remaining": str(remaining),
        "X-RateLimit-Reset": f"{time.time() + wait:.3f}",
        "X-RateLimit-Reset-After": f"{wait:.3f}",
        "X-RateLimit-Bucket": MESSAGES_BUCKET,
    }


__all__ = ["DISCORD_GLOBAL", "DISCORD_MESSAGES", "Bucket", "Limiter", "RateLimits", "Rejection"]
