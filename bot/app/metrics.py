"""Operators' metrics (Prometheus) and the /metrics + /healthz endpoint.

Each bot owns its registry (`BotMetrics.registry`), so several bots in one process (tests, a restart
in the harness) never share or collide on a counter. Where the numbers come from:
- decisions, games started/ended, timer ticks, games the watchdog re-armed: the table service reports
  them (`TableObserver`);
- active games: the database, read at every scrape (so right after a restart too), counting the
  games of this process's shards (so the sum over the processes of a sharded bot is the whole bot);
- REST calls and 429s: aiohttp's tracing on discord.py's HTTP session (`http_trace=`), so every real
  request counts, interaction callbacks included, with its route reduced to a template;
- requests held by discord.py's rate limiter: its buckets (`Ratelimit`), made by this bot's HTTP
  client as `bot.transport.pacing.PacedRatelimit`s that time how long each holds a request (`pace`);
- Discord's global limit: the bot's own bucket (`bot.transport.pacing.GlobalBucket`), read at each scrape;
- notification delays: the notifier says when what it was handed reached Discord (`notification_shown`);
- interaction response time: from discord.py parsing the INTERACTION_CREATE to the end of the first
  response (the callback POST), timed by the webhook adapter that discord.py lets a context choose;
- database errors: every public coroutine of the `Database`, wrapped on the instance.

Over 500 lines: every metric of the bot in one registry, each beside the hook that feeds it (the table
service's observer, aiohttp's tracing, the rate-limit buckets), in the order docs/monitoring.md lists
them.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import json
import logging
import re
import time
from collections.abc import Awaitable, Callable, Iterable
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, TypeVar

import aiohttp
import discord
from aiohttp import web
from discord.webhook.async_ import AsyncWebhookAdapter, async_context
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from yarl import URL

import games
from bot.messages.components import PREFIXES
from bot.transport import pacing
from bot.transport.pacing import GlobalBucket, Priority
from storage import Database, GameNotFound, VersionConflict
from storage.shards import Shards

if TYPE_CHECKING:
    from bot.app.client import TableBot
    from bot.app.thinking import Thinkers
    from bot.render.kit.pool import Pictures
    from table import TableUpdate

log = logging.getLogger(__name__)

PREFIX = "tablebot"
DECISION_KINDS = ("human", "ai", "afk")
GAME_ENDS = ("finished", "abandoned", "all_afk")
STALL_CAUSES = ("overdue", "idle")
NOTIFICATION_KINDS = ("open", "table", "dm", "log")
DELAY_KINDS = ("table", "log", "dm", "dm_picture", "dm_view")
# Seconds a request is held: up to a message bucket's 5 s window.
HOLD_BUCKETS = (0.01, 0.05, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
HOLD_SIDES = ("before", "after")
# 0.4: a prompt p99 under 0.5 s; 60-300: how stale a table gets behind prompts under heavy load
DELAY_BUCKETS = (0.05, 0.1, 0.25, 0.4, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0)
RATE_LIMIT_SCOPES = ("user", "global", "shared", "cloudflare")
# Discord answers an interaction within 3 s or never: the buckets are finest around that limit.
INTERACTION_BUCKETS = (0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0, 10.0)
HEALTH_TIMEOUT = 2.0  # seconds the database may take to answer a health check or a scrape
EXPECTED_DATABASE_ERRORS = (VersionConflict, GameNotFound)  # answers, not faults (a lost race, a bad id)

T = TypeVar("T")
_PATH_WORD = re.compile(r"[a-z@][a-z0-9@_-]{0,31}\Z")
_inside_database_call: ContextVar[bool] = ContextVar("inside_database_call", default=False)


class BotMetrics:
    """The bot's metrics. Also the table service's observer (`table.TableObserver`)."""

    def __init__(self, game_keys: Iterable[str] | None = None) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        registry = self.registry
        ProcessCollector(registry=registry)  # process_resident_memory_bytes, process_cpu_seconds_total, fds
        PlatformCollector(registry=registry)  # python_info
        keys = sorted(game_keys if game_keys is not None else games.keys())
        self._active_keys = set(keys)  # every key the active-games gauge has shown
        self.active_games = Gauge(
            f"{PREFIX}_active_games",
            "Games running now, per game (read from the database at each scrape).",
            ["game"],
            registry=registry,
        )
        self.decisions = Counter(
            f"{PREFIX}_decisions",
            "Decisions committed, by game and by who decided: human, ai (an AI seat) "
            "or afk (the AI standing in for an absent player). Decisions per second: rate() of it.",
            ["game", "kind"],
            registry=registry,
        )
        self.games_started = Counter(
            f"{PREFIX}_games_started", "Games started (lobbies that became games).", ["game"], registry=registry
        )
        self.games_ended = Counter(
            f"{PREFIX}_games_ended",
            "Started games that ended: finished, abandoned (by the host or an admin) or "
            "all_afk (every human player went AFK).",
            ["game", "end"],
            registry=registry,
        )
        self.interaction_seconds = Histogram(
            f"{PREFIX}_interaction_response_seconds",
            "From an interaction's arrival to the end of its first "
            "response, by kind (/command, component:<prefix>). Discord drops answers after 3 s.",
            ["kind"],
            buckets=INTERACTION_BUCKETS,
            registry=registry,
        )
        self.interaction_failures = Counter(
            f"{PREFIX}_interaction_response_failures",
            "First responses to an interaction that failed (Discord "
            "answers 404 Unknown interaction when the 3 s limit has passed).",
            ["kind"],
            registry=registry,
        )
        self.rest_requests = Counter(
            f"{PREFIX}_discord_requests",
            "HTTP requests to Discord (interaction callbacks included), by method, "
            "route template and status (error: no answer).",
            ["method", "route", "status"],
            registry=registry,
        )
        self.rate_limits = Counter(
            f"{PREFIX}_discord_rate_limits",
            "429 answers from Discord, by scope (user: this bot's per-route "
            "limit; global; shared: the resource's limit; cloudflare: an IP ban) and route template.",
            ["scope", "route"],
            registry=registry,
        )
        self.database_errors = Counter(
            f"{PREFIX}_database_errors",
            "Database operations that failed (not counting lost races and unknown "
            "ids, which are answers), by operation.",
            ["operation"],
            registry=registry,
        )
        self.notifications = Counter(
            f"{PREFIX}_notifications",
            "What the table service asked the notifier to show, before coalescing: "
            "open (a new game's thread, table and DMs), table (an edit of the table message: one per update), dm "
            "(a private message refreshed: one per human seat whose prompt changed, the clicking player's excepted), "
            "log (a turn's line for the thread's log). Fewer requests go out when a newer update replaces one still "
            "being drawn or sent, and the log lines pending at once share a post.",
            ["kind"],
            registry=registry,
        )
        self.requests_held = Histogram(
            f"{PREFIX}_discord_request_held_seconds",
            "REST requests (bot token) that discord.py's rate limiter "
            "held, and for how long: before (until its bucket had room) or after (the request that used its "
            "bucket up returns only once the bucket resets). 429s are counted apart (discord_rate_limits).",
            ["when"],
            buckets=HOLD_BUCKETS,
            registry=registry,
        )
        self.notification_delay = Histogram(
            f"{PREFIX}_notification_delay_seconds",
            "From an update handed to the notifier to Discord's answer to "
            "the request that showed it: table (the first table edit showing it or a newer version: each update, "
            "the coalesced ones too), log (its line posted), dm (a seat's message showing its newest prompt, from the "
            "oldest view that was pending: its words and buttons; its picture may follow), dm_picture (the same "
            "with its picture), dm_view (the same for a view without a prompt).",
            ["kind"],
            buckets=DELAY_BUCKETS,
            registry=registry,
        )
        self.timer_ticks = Counter(
            f"{PREFIX}_timer_ticks", "Timer ticks run (reminders and AFK deadlines).", registry=registry
        )
        self.timer_games = Counter(
            f"{PREFIX}_timer_games", "Games a timer tick handled (a reminder or an AFK turn).", registry=registry
        )
        self.games_stalled = Counter(
            f"{PREFIX}_games_stalled",
            "Games the watchdog re-armed (finished, AI moved, prompts sent again, a fresh deadline): overdue "
            "(past their deadline with the timer making no progress) or idle (no turn timer, unchanged for long).",
            ["game", "cause"],
            registry=registry,
        )
        self.gateway_connected = Gauge(
            f"{PREFIX}_gateway_connected",
            "1 while every shard of this process is connected to the gateway.",
            registry=registry,
        )
        # Every label value that is known in advance starts at 0, so rate() sees the first increase.
        for key in keys:
            self.active_games.labels(key)
            self.games_started.labels(key)
            for kind in DECISION_KINDS:
                self.decisions.labels(key, kind)
            for end in GAME_ENDS:
                self.games_ended.labels(key, end)
            for cause in STALL_CAUSES:
                self.games_stalled.labels(key, cause)
        for kind in NOTIFICATION_KINDS:
            self.notifications.labels(kind)
        for kind in DELAY_KINDS:
            self.notification_delay.labels(kind)
        for side in HOLD_SIDES:
            self.requests_held.labels(side)

    # --- the table service's observer -----------------------------------------------------------
    def decided(self, game_key: str, kind: str) -> None:
        self.decisions.labels(game_key, kind).inc()

    def game_started(self, game_key: str) -> None:
        self.games_started.labels(game_key).inc()

    def game_ended(self, game_key: str, end: str) -> None:
        self.games_ended.labels(game_key, end).inc()

    def ticked(self, handled: int) -> None:
        self.timer_ticks.inc()
        self.timer_games.inc(handled)

    def stalled(self, game_key: str, cause: str, game_id: int) -> None:
        self.games_stalled.labels(game_key, cause).inc()

    def asked_to_show(self, update: TableUpdate) -> None:
        """An update handed to the notifier: what becomes pending, before coalescing."""
        self.notifications.labels("open" if update.started else "table").inc()
        if update.dms:
            self.notifications.labels("dm").inc(len(update.dms))
        if not update.started and (update.resolved or update.afk_seats):
            self.notifications.labels("log").inc()

    def notification_shown(self, kind: str, seconds: float) -> None:
        """What the notifier was handed `seconds` ago reached Discord (`kind`: table, log, dm, dm_picture, dm_view)."""
        self.notification_delay.labels(kind).observe(seconds)

    # --- scrape ---------------------------------------------------------------------------------
    async def refresh(self, db: Database, shards: Shards | None = None) -> None:
        """Read what lives in the database (the active games of this process's shards) into the gauges."""
        counts = await asyncio.wait_for(db.active_games_by_key(shards), HEALTH_TIMEOUT)
        self._active_keys |= set(counts)
        for key in self._active_keys:  # a key whose games all ended reads 0, not its last count
            self.active_games.labels(key).set(counts.get(key, 0))

    def exposition(self) -> bytes:
        return generate_latest(self.registry)

    # --- REST calls (aiohttp tracing) -----------------------------------------------------------
    def trace_config(self) -> aiohttp.TraceConfig:
        """For `discord.Client(http_trace=...)`: counts every request on discord.py's HTTP session."""
        trace = aiohttp.TraceConfig()
        trace.on_request_end.append(self._request_ended)
        trace.on_request_exception.append(self._request_failed)
        return trace

    def pace(self, http: discord.http.HTTPClient, global_bucket: GlobalBucket | None) -> None:
        """Let `http` pace its bot-token requests under Discord's global limit with `global_bucket`
        (None: not paced) and report here how long its route buckets held requests and what the
        global bucket did (`bot.transport.pacing`)."""
        held = (self.requests_held.labels("before").observe, self.requests_held.labels("after").observe)
        pacing.install(http, global_bucket, held)
        if global_bucket is not None:
            self.registry.register(_GlobalBucketCollector(global_bucket))

    async def _request_ended(
        self, _session: aiohttp.ClientSession, _context: Any, params: aiohttp.TraceRequestEndParams
    ) -> None:
        route = route_template(str(params.url))
        status = params.response.status
        self.rest_requests.labels(params.method, route, str(status)).inc()
        if status == 429:
            scope = rate_limit_scope(params.response.headers)
            self.rate_limits.labels(scope, route).inc()
            # The bot paces itself under every limit it knows: a 429 is a bug or a limit it did not know,
            # and 10,000 of them in 10 minutes get the IP address banned.
            log.error("Discord answered 429 (scope %s) to %s %s", scope, params.method, route)

    async def _request_failed(
        self, _session: aiohttp.ClientSession, _context: Any, params: aiohttp.TraceRequestExceptionParams
    ) -> None:
        self.rest_requests.labels(params.method, route_template(str(params.url)), "error").inc()

    # --- interactions -----------------------------------------------------------------------------
    def time_interactions(self, bot: TableBot) -> None:
        """Time each interaction the bot's connection state parses, until its first response.

        discord.py sends interaction responses through the webhook adapter found in the context
        variable `async_context`; the tasks that handle an interaction are created while it is parsed
        and copy the context then, so setting a timing adapter around the parse times exactly that
        interaction. The gateway finds the parser in `parsers`; the test harness calls it by name."""
        state = bot._connection
        parse = state.parse_interaction_create
        kinds = InteractionKinds(bot)

        def timed_parse(data: Any) -> None:
            try:
                kind = kinds.of(data)
            except Exception:  # a damaged payload is discord.py's to refuse; timing must not lose it
                kind = "other"
            adapter = _TimedAdapter(self, kind)
            token = async_context.set(adapter)
            try:
                parse(data)
            finally:
                async_context.reset(token)

        setattr(state, "parse_interaction_create", timed_parse)  # noqa: B010 (a method, replaced per instance)
        state.parsers["INTERACTION_CREATE"] = timed_parse

    # --- database ---------------------------------------------------------------------------------
    def watch_database(self, db: Database) -> None:
        """Count the failures of every public coroutine of `db` (on this instance only)."""
        for name, _member in inspect.getmembers(type(db), inspect.iscoroutinefunction):
            if name.startswith("_") or name in ("open", "close"):
                continue
            self.database_errors.labels(name)
            setattr(db, name, _counted(getattr(db, name), self.database_errors.labels(name).inc))

    # --- pictures ---------------------------------------------------------------------------------
    def watch_pictures(self, pictures: Pictures) -> None:
        self.registry.register(_PictureCollector(pictures))

    # --- the AI's searches --------------------------------------------------------------------------
    def watch_thinkers(self, thinkers: Thinkers) -> None:
        self.registry.register(_ThinkerCollector(thinkers))

    # --- gateway ----------------------------------------------------------------------------------
    def watch_gateway(self, bot: TableBot) -> GatewayStatus:
        status = GatewayStatus(self.gateway_connected)
        sharded = isinstance(bot, discord.AutoShardedClient)
        # discord.py dispatches (shard_)connect when a READY arrives, (shard_)resumed after a RESUME.
        if sharded:
            for event in ("on_shard_connect", "on_shard_resumed"):
                bot.add_listener(status.shard_up, event)
            bot.add_listener(status.shard_down, "on_shard_disconnect")
        else:
            for event in ("on_connect", "on_resumed"):
                bot.add_listener(status.up, event)
            bot.add_listener(status.down, "on_disconnect")
        return status


class GatewayStatus:
    """Which shards of this process are not connected (None stands for an unsharded bot's one link)."""

    def __init__(self, gauge: Gauge) -> None:
        self.gauge = gauge
        self.down_shards: set[int | None] = {None}
        self.gauge.set(0)

    @property
    def connected(self) -> bool:
        return not self.down_shards

    def _set(self, shard: int | None, up: bool) -> None:
        if up:
            self.down_shards.discard(shard)
            self.down_shards.discard(None)  # a shard's event also means the bot has connected
        else:
            self.down_shards.add(shard)
        self.gauge.set(1 if self.connected else 0)

    async def up(self) -> None:
        self._set(None, True)

    async def down(self) -> None:
        self._set(None, False)

    async def shard_up(self, shard_id: int) -> None:
        self._set(shard_id, True)

    async def shard_down(self, shard_id: int) -> None:
        self._set(shard_id, False)


class InteractionKinds:
    """The `kind` label of an interaction: /command name, component:<custom_id prefix>, ... (bounded)."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self.prefixes = {p.rstrip(":") for p in PREFIXES}
        self._commands: set[str] | None = None  # the tree's commands, once it has them all

    def of(self, payload: Any) -> str:
        data = payload.get("data") or {}
        kind = payload.get("type")
        if kind == 2:
            return "/" + self._command(data)
        if kind == 3:
            prefix = str(data.get("custom_id", "")).partition(":")[0]
            return f"component:{prefix if prefix in self.prefixes else 'other'}"
        return {4: "autocomplete", 5: "modal"}.get(kind, "other")

    def _command(self, data: dict[str, Any]) -> str:
        names = [str(data.get("name", ""))]
        options = data.get("options") or []
        while options and options[0].get("type") in (1, 2):  # subcommand (group)
            names.append(str(options[0].get("name", "")))
            options = options[0].get("options") or []
        if self._commands is None:
            self._commands = {c.qualified_name for c in self.bot.tree.walk_commands()}
        known = self._commands
        for length in range(len(names), 0, -1):
            name = " ".join(names[:length])
            if name in known:
                return name
        return "other"


class _TimedAdapter(AsyncWebhookAdapter):
    """discord.py's webhook adapter, timing the first response to one interaction."""

    def __init__(self, metrics: BotMetrics, kind: str) -> None:
        super().__init__()
        self._metrics = metrics
        self._kind = kind
        self._arrived = time.perf_counter()
        self._answered = False

    async def create_interaction_response(self, *args: Any, **kwargs: Any) -> Any:
        # A failed attempt counts as a failure; the first that succeeds (an attempt sent again after
        # its connection failed: bot.transport.answer) gives the time to the first response.
        try:
            result = await super().create_interaction_response(*args, **kwargs)
        except Exception:
            if not self._answered:
                self._metrics.interaction_failures.labels(self._kind).inc()
            raise
        if not self._answered:
            self._answered = True
            self._metrics.interaction_seconds.labels(self._kind).observe(time.perf_counter() - self._arrived)
        return result


def _counted(method: Callable[..., Awaitable[T]], count: Callable[[], None]) -> Callable[..., Awaitable[T]]:
    @functools.wraps(method)
    async def call(*args: Any, **kwargs: Any) -> T:
        if _inside_database_call.get():  # an operation called by another counts once, as the outer one
            return await method(*args, **kwargs)
        token = _inside_database_call.set(True)
        try:
            return await method(*args, **kwargs)
        except EXPECTED_DATABASE_ERRORS:
            raise
        except Exception:
            count()
            raise
        finally:
            _inside_database_call.reset(token)

    return call


def route_template(url: str) -> str:
    """A request's route with ids and tokens replaced, so the label's values stay few:
    https://discord.com/api/v10/channels/123/messages/456 -> /channels/{id}/messages/{id}."""
    parsed = URL(url)
    if parsed.scheme in ("ws", "wss"):
        return "gateway"
    base = URL(discord.http.Route.BASE)
    if parsed.host != base.host or parsed.port != base.port or not parsed.path.startswith(base.path):
        return "other"
    parts = parsed.path[len(base.path) :].strip("/").split("/")
    template: list[str] = []
    for i, part in enumerate(parts):
        if part.isdigit():
            template.append("{id}")
        elif i >= 2 and parts[i - 2] in ("interactions", "webhooks") and parts[i - 1].isdigit():
            template.append("{token}")
        elif _PATH_WORD.match(part):
            template.append(part)
        else:
            template.append("{x}")
    return "/" + "/".join(template)


def rate_limit_scope(headers: Any) -> str:
    if not headers.get("Via"):  # discord.py's own test: a 429 without Via comes from Cloudflare, not the API
        return "cloudflare"
    scope = str(headers.get("X-RateLimit-Scope", "")).lower()
    if scope in RATE_LIMIT_SCOPES:
        return scope
    return "global" if str(headers.get("X-RateLimit-Global", "")).lower() == "true" else "user"


# --- the HTTP endpoint ------------------------------------------------------------------------------
async def health(bot: TableBot) -> tuple[bool, dict[str, Any]]:
    """Whether this process can serve players: gateway connected, database answering, writer running."""
    problems: list[str] = []
    status = bot.gateway_status
    gateway = "connected" if status.connected and not bot.is_closed() else "disconnected"
    if gateway != "connected":
        down = sorted(str(s) for s in status.down_shards if s is not None)
        problems.append("gateway disconnected" + (f" (shards {', '.join(down)})" if down else ""))
    database = "ok"
    try:
        await asyncio.wait_for(bot.db.ping(), HEALTH_TIMEOUT)
    except TimeoutError:
        database = f"no answer within {HEALTH_TIMEOUT:g} s"
    except Exception as exc:  # the class only: an error's text may quote a URL
        database = f"error ({type(exc).__name__}: {_first_words(exc)})"
    if database != "ok":
        problems.append(f"database: {database}")
    body: dict[str, Any] = {"status": "ok" if not problems else "unavailable", "gateway": gateway, "database": database}
    if problems:
        body["reasons"] = problems
    return not problems, body


def _first_words(exc: BaseException) -> str:
    """A short, URL-free description of an error, for the health answer."""
    text = str(exc).splitlines()[0] if str(exc) else ""
    text = re.sub(r"\S+://\S+", "[url]", text)
    return text[:120]


class MetricsServer:
    """GET /metrics and GET /healthz on METRICS_HOST:METRICS_PORT (aiohttp.web, as discord.py uses)."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        app = web.Application()
        app.router.add_get("/metrics", self.metrics)
        app.router.add_get("/healthz", self.healthz)
        self._runner = web.AppRunner(app, access_log=None)
        self.port: int | None = None

    async def start(self, host: str, port: int) -> None:
        await self._runner.setup()
        await web.TCPSite(self._runner, host, port).start()
        self.port = int(self._runner.addresses[0][1])  # the real port when `port` was 0
        log.info("metrics endpoint listening", extra={"event": "metrics_listening", "host": host, "port": self.port})

    async def stop(self) -> None:
        await self._runner.cleanup()

    async def metrics(self, _request: web.Request) -> web.Response:
        metrics = self.bot.metrics
        try:
            await metrics.refresh(self.bot.db, self.bot.owned)
        except Exception as exc:  # the scrape still answers, with the last known values
            if isinstance(exc, TimeoutError):  # other failures were counted by the wrapped database
                metrics.database_errors.labels("active_games_by_key").inc()
            log.warning("metrics: could not read the active games (%s)", type(exc).__name__)
        body = metrics.exposition()
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def healthz(self, _request: web.Request) -> web.Response:
        ok, body = await health(self.bot)
        return web.Response(status=200 if ok else 503, text=json.dumps(body), content_type="application/json")


class _PictureCollector(Collector):
    """What became of the pictures asked for (read from `bot.render.kit.pool.Pictures.counts` at each scrape)."""

    def __init__(self, pictures: Pictures) -> None:
        self.pictures = pictures

    def collect(self) -> Iterable[Metric]:
        counts = self.pictures.counts
        drawn = CounterMetricFamily(
            f"{PREFIX}_pictures",
            "Pictures asked for, by what became of them: drawn by a "
            "worker process, drawn in the bot's process, or superseded (not drawn: a newer "
            "version of its message was pending by then).",
            labels=["outcome"],
        )
        for outcome, value in (
            ("worker", counts.in_workers),
            ("in_process", counts.in_process),
            ("superseded", counts.superseded),
        ):
            drawn.add_metric([outcome], value)
        yield drawn
        yield CounterMetricFamily(
            f"{PREFIX}_pictures_hurried",
            "Pictures drawn while others waited behind them, deflated by ISA-L instead of zlib (the same "
            "pixels, larger files, a twentieth of the compression's CPU).",
            value=counts.hurried,
        )
        yield GaugeMetricFamily(
            f"{PREFIX}_pictures_waiting",
            "Pictures waiting now for a place at the workers (those no longer wanted leave as the queue grows).",
            value=self.pictures.waiting(),
        )
        yield CounterMetricFamily(
            f"{PREFIX}_picture_worker_failures",
            "Picture worker processes that crashed or "
            "failed to start (each replaced; their pictures drawn in the bot).",
            value=counts.worker_failures,
        )


class _ThinkerCollector(Collector):
    """The searching AI levels' decisions and their CPU (read from `bot.app.thinking.Thinkers` at each scrape)."""

    def __init__(self, thinkers: Thinkers) -> None:
        self.thinkers = thinkers

    def collect(self) -> Iterable[Metric]:
        thinkers = self.thinkers
        searches = CounterMetricFamily(
            f"{PREFIX}_ai_searches",
            "Decisions of a searching AI level (the expert), by where they ran: an AI worker process, or the "
            "bot's own (no worker, or it died).",
            labels=["where"],
        )
        spent = CounterMetricFamily(
            f"{PREFIX}_ai_search_cpu_seconds",
            "CPU seconds those searches took, by where they ran.",
            labels=["where"],
        )
        for where, count in (("worker", thinkers.in_workers), ("in_process", thinkers.in_process)):
            searches.add_metric([where], count)
            spent.add_metric([where], thinkers.search_seconds[where])
        yield searches
        yield spent


class _GlobalBucketCollector(Collector):
    """What the bot's own bucket for Discord's global limit did (read from it at each scrape)."""

    def __init__(self, bucket: GlobalBucket) -> None:
        self.bucket = bucket

    def collect(self) -> Iterable[Metric]:
        bucket = self.bucket
        taken = CounterMetricFamily(
            f"{PREFIX}_global_limit_requests",
            "Bot-token requests that took a token of the bot's bucket for Discord's global limit, by "
            "priority (prompt, default, table, log: who goes first when they wait).",
            labels=["priority"],
        )
        waited = CounterMetricFamily(
            f"{PREFIX}_global_limit_wait_seconds",
            "Seconds requests waited for a token of the global bucket, in all, by priority.",
            labels=["priority"],
        )
        for level in Priority:
            taken.add_metric([level.name.lower()], bucket.taken[level])
            waited.add_metric([level.name.lower()], bucket.waited[level])
        yield taken
        yield waited
        yield CounterMetricFamily(
            f"{PREFIX}_global_limit_busy_seconds",
            "Seconds during which some request waited for the global bucket: the time it was the "
            "bottleneck (rate() of it: the share of time).",
            value=bucket.busy_seconds(),
        )
