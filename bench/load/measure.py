"""What `bench load` measures with: CPU and memory of processes, the bot's metrics pages, refusals, REST figures."""

from __future__ import annotations

import asyncio
import contextlib
import math
import resource
import socket
import time
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bench._figures import cpu_seconds

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncEngine


def _refusal_prefixes() -> list[tuple[str, str]]:
    """(English text up to its first placeholder, message id name) of every sentence in bot/texts/text.py,
    longest first, so a refusal is named by the sentence it starts with."""
    from bot.texts import text

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


def rest_figures(sent: Counter[str], exempt: Counter[str], turns: int, asked: Counter[str] | None) -> dict[str, Any]:
    """The REST figures per resolved turn (a log line): the bot-token requests by route (what Discord's
    global limit counts), the requests through interaction tokens apart (`exempt`: answers to clicks,
    and the notifier reaching players through their latest click), and against what was asked.

    `asked` (the bot's `tablebot_notifications_total` over the same time): table edits (one per update
    the table service published: each accepted click, with the AI moves it set off) and private
    windows refreshed (one per human seat whose prompt changed, the clicking player's own excepted: the
    answer to the click shows it). The log is folded into the table message (bot.delivery.notify): without
    coalescing the bot would send every asked table edit and every asked DM refresh; the floor is one
    table edit per turn (showing its log line) and the asked DM refreshes."""
    per = max(1, turns)
    figures: dict[str, Any] = {
        "resolved_turns": turns,
        "rest_per_turn": round(sum(sent.values()) / per, 2),
        "rest_by_kind_per_turn": {k: round(v / per, 2) for k, v in sorted(sent.items())},
        "interaction_answers_per_turn": round(exempt["answer"] / per, 2),
        "exempt_per_turn": {k: round(v / per, 2) for k, v in sorted(exempt.items())},
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
            "floor_per_turn": round((turns + asked["dm"]) / per, 2),
            "uncoalesced_per_turn": round((asked["table"] + asked["dm"]) / per, 2),
            "asked_per_turn": {kind: round(asked[kind] / per, 2) for kind in ("table", "dm")},
            "coalesced_away_per_turn": {
                "table": round((asked["table"] - sent["PATCH table/thread edit"]) / per, 2),
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


def histogram_quantile(before: dict[float, float], after: dict[float, float], fraction: float) -> float | None:
    """The `fraction` quantile (seconds) of what a histogram observed between two scrapes (`histogram_counts`
    of each), interpolated linearly within the bucket it falls in, as Prometheus's histogram_quantile does:
    an estimate, where the bucket bound under which it falls (`BotClock.figures`) is a certainty. The largest
    finite bound when it falls above it; None when nothing was observed."""
    delta = {bound: after.get(bound, 0.0) - before.get(bound, 0.0) for bound in after if bound >= 0}
    count = delta.get(math.inf, 0.0)
    if count <= 0:
        return None
    rank = fraction * count
    lower, below = 0.0, 0.0  # the previous bucket's bound and cumulative count
    for bound in sorted(delta):
        if delta[bound] >= rank:
            if bound == math.inf:
                return lower
            inside = delta[bound] - below
            return lower + (bound - lower) * ((rank - below) / inside if inside > 0 else 1.0)
        lower, below = bound, delta[bound]
    return lower


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
    requests = counter_delta(before, after, GLOBAL_REQUESTS)
    waited = counter_delta(before, after, GLOBAL_WAITED)
    busy = counter_delta(before, after, GLOBAL_BUSY).get("", 0.0)
    pictures = counter_delta(before, after, PICTURES, "outcome")
    hurried = counter_delta(before, after, PICTURES_HURRIED).get("", 0.0)
    return {
        "requests_held": {side: figures["answers"] for side, figures in held.items()},
        "held_seconds": round(sum(f["answers"] * f.get("mean_ms", 0.0) for f in held.values()) / 1000, 1),
        "held": held,
        "delays": {kind: between(DELAYS, "kind", kind) for kind in ("table", "dm", "dm_picture", "dm_view", "log")},
        # The bot's own bucket for Discord's global limit (bot/transport/pacing.py): requests by priority, their
        # mean wait, and the seconds some request waited (the bucket was the bottleneck).
        "global_bucket": {
            "requests": {level: int(n) for level, n in sorted(requests.items())},
            "mean_wait_ms": {
                level: round(1000 * waited.get(level, 0.0) / n, 1) for level, n in sorted(requests.items()) if n
            },
            "busy_seconds": round(busy, 2),
        },
        # Pictures asked for, by what became of them: drawn by a worker, drawn in the bot, or superseded.
        "pictures": {outcome: int(n) for outcome, n in sorted(pictures.items())},
        # Of those drawn, the ones hurried (others waited behind them: ISA-L instead of zlib).
        "pictures_hurried": int(hurried),
    }


GLOBAL_REQUESTS = "tablebot_global_limit_requests"
GLOBAL_WAITED = "tablebot_global_limit_wait_seconds"
GLOBAL_BUSY = "tablebot_global_limit_busy_seconds"
PICTURES = "tablebot_pictures"
PICTURES_HURRIED = "tablebot_pictures_hurried"


def counter_values(page: str, name: str, label: str = "priority") -> dict[str, float]:
    """A counter of a Prometheus page by the value of `label` ("" for a counter without labels)."""
    from prometheus_client.parser import text_string_to_metric_families

    values: dict[str, float] = {}
    for family in text_string_to_metric_families(page):
        if family.name == name:
            for sample in family.samples:
                if sample.name.endswith("_total"):
                    key = sample.labels.get(label, "")
                    values[key] = values.get(key, 0.0) + sample.value
    return values


def counter_delta(before: str, after: str, name: str, label: str = "priority") -> dict[str, float]:
    """How much a counter grew between two scrapes, by the value of `label`."""
    old = counter_values(before, name, label)
    return {key: value - old.get(key, 0.0) for key, value in counter_values(after, name, label).items()}


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
