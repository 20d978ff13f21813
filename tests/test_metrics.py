"""The operators' endpoint: /metrics moves during a whole harness game, /healthz says 200 or 503 and why.

Everything is scraped over real HTTP from the bot's own aiohttp server on an ephemeral port. The
in-process harness replaces discord.py's `HTTPClient.request`, so no REST call reaches aiohttp there and
the REST counters cannot move in it. Two tests show the `http_trace` hook on real HTTP instead: the
real bot process against the loopback fake Discord (a whole game, with 429s it retried), and
discord.py's HTTP client alone against a tiny server (the scopes of a 429).
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
from aiohttp import web
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine

from bot.app.metrics import BotMetrics, InteractionKinds, route_template
from fakediscord.loopback import Loopback
from harness import Harness
from harness.play import choice_components, play_to_end
from harness.run_bot import BotProcess
from storage import Database
from storage.engine import create_sync_sqlite_engine

GAME_ID = 1
KEY = "eggs-empires"
TOKEN_OF_LOOPBACK = "fake-token"

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def parse(text: str) -> Samples:
    samples: Samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return samples


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def total(samples: Samples, name: str, **labels: str) -> float:
    """The sum over every sample of `name` whose labels include `labels`."""
    wanted = set(labels.items())
    return sum(v for (n, got), v in samples.items() if n == name and wanted <= got)


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[Harness]:
    h = await Harness.start(tmp_path / "bot.sqlite3", metrics_port=0)
    try:
        yield h
    finally:
        errors = h.errors
        await h.close()
    assert not errors, errors


async def get(h: Harness | int, path: str) -> tuple[int, str, str]:
    """GET the bot's endpoint (a harness bot's, or the one on that port)."""
    if isinstance(h, Harness):
        assert h.bot is not None and h.bot.metrics_server is not None and h.bot.metrics_server.port
        port = h.bot.metrics_server.port
    else:
        port = h
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}{path}") as response:
        return response.status, response.headers.get("Content-Type", ""), await response.text()


async def scrape(h: Harness | int) -> Samples:
    status, content_type, text = await get(h, "/metrics")
    assert status == 200 and content_type.startswith("text/plain")
    return parse(text)


async def test_counters_move_during_a_harness_game(served: Harness) -> None:
    h = served
    alice, bob = h.user("Alice"), h.user("Bob")
    before = await scrape(h)
    assert value(before, "tablebot_active_games", game=KEY) == 0
    assert value(before, "tablebot_decisions_total", game=KEY, kind="human") == 0
    assert ("tablebot_decisions_total", frozenset({("game", KEY), ("kind", "ai")})) in before, (
        "known label values are exported at 0 from the start"
    )

    await h.slash(alice, "game new", game=KEY, timer=0)
    await h.click(bob, h.find_button(h.channel, "Join"))
    await h.click(alice, h.find_button(h.channel, "Add AI"))
    await h.click(alice, h.find_button(h.channel, "Start"))
    started = await scrape(h)
    assert value(started, "tablebot_active_games", game=KEY) == 1
    assert value(started, "tablebot_games_started_total", game=KEY) == 1
    assert value(started, "tablebot_decisions_total", game=KEY, kind="human") == 0
    assert value(started, "tablebot_interaction_response_seconds_count", kind="/game new") == 1
    assert value(started, "tablebot_interaction_response_seconds_count", kind="component:lb") == 3

    cost = await play_to_end(h, GAME_ID, [alice, bob])
    await h.tick()
    after = await scrape(h)
    humans = value(after, "tablebot_decisions_total", game=KEY, kind="human")
    assert humans == cost.decisions > 20, "one count per decision a player clicked"
    assert value(after, "tablebot_decisions_total", game=KEY, kind="ai") > 10
    assert value(after, "tablebot_decisions_total", game=KEY, kind="afk") == 0
    decision_clicks = value(after, "tablebot_interaction_response_seconds_count", kind="component:g") + value(
        after, "tablebot_interaction_response_seconds_count", kind="component:gs"
    )
    assert decision_clicks == cost.decisions, "each click's first response is timed once"
    assert total(after, "tablebot_interaction_response_seconds_sum") > 0
    assert value(after, "tablebot_interaction_response_seconds_bucket", kind="component:g", le="+Inf") == value(
        after, "tablebot_interaction_response_seconds_count", kind="component:g"
    )
    assert total(after, "tablebot_interaction_response_failures_total") == 0
    assert value(after, "tablebot_active_games", game=KEY) == 0, "the finished game no longer counts"
    assert value(after, "tablebot_games_ended_total", game=KEY, end="finished") == 1
    assert value(after, "tablebot_timer_ticks_total") == 1
    assert total(after, "tablebot_database_errors_total") == 0
    assert value(after, "tablebot_gateway_connected") == 1


async def test_active_games_come_from_the_database_after_a_restart(served: Harness) -> None:
    h = served
    alice = h.user("Alice")
    await h.slash(alice, "game new", game=KEY, timer=0)
    await h.click(alice, h.find_button(h.channel, "Add AI"))
    await h.click(alice, h.find_button(h.channel, "Start"))
    await h.restart()  # a new bot: its counters start again, the running game is still running
    samples = await scrape(h)
    assert value(samples, "tablebot_active_games", game=KEY) == 1
    assert value(samples, "tablebot_games_started_total", game=KEY) == 0
    assert h.bot is not None
    await h.bot.table.abandon(GAME_ID, alice)
    await h.settle()
    samples = await scrape(h)
    assert value(samples, "tablebot_active_games", game=KEY) == 0
    assert value(samples, "tablebot_games_ended_total", game=KEY, end="abandoned") == 1


async def test_database_errors_are_counted_by_operation(
    served: Harness, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = served
    assert h.bot is not None
    db = h.bot.db
    # The database goes away: every new connection fails ("unable to open database file"), through
    # the async engine and the stdlib ones that read and write on the loop.
    gone = make_url(f"sqlite+aiosqlite:///{tmp_path}/gone/bot.sqlite3")
    monkeypatch.setattr(db, "engine", create_async_engine(gone))
    monkeypatch.setattr(db, "_sync_reader", create_sync_sqlite_engine(gone))
    monkeypatch.setattr(db, "_sync_writer", create_sync_sqlite_engine(gone, wait=False))
    alice = h.user("Alice")
    await h.slash(alice, "game new", game=KEY, timer=0)
    samples = await scrape(h)
    errors = {
        dict(labels)["operation"]: v
        for (name, labels), v in samples.items()
        if name == "tablebot_database_errors_total" and v
    }
    # /game new reads the channel's lobbies (a lost one is shown again), then the server's caps: both fail.
    assert errors == {"channel_games": 1, "get_guild_limits": 1, "active_games_by_key": 1}, errors
    h._errors.records.clear()  # the failed command logged its error: that was the point


async def test_healthz_is_200_when_connected_and_503_with_the_reason_otherwise(served: Harness) -> None:
    h = served
    assert h.bot is not None
    status, content_type, text = await get(h, "/healthz")
    assert status == 200 and content_type.startswith("application/json")
    assert json.loads(text) == {"status": "ok", "gateway": "connected", "database": "ok"}

    h.bot.dispatch("shard_disconnect", 0)  # what discord.py dispatches when shard 0's websocket closes
    await h.settle()
    status, _, text = await get(h, "/healthz")
    assert status == 503
    assert json.loads(text)["reasons"] == ["gateway disconnected (shards 0)"]
    assert value(await scrape(h), "tablebot_gateway_connected") == 0
    h.bot.dispatch("shard_resumed", 0)
    await h.settle()
    assert (await get(h, "/healthz"))[0] == 200

    await h.bot.db.writer.stop()  # as close() does first: nothing can be committed any more
    status, _, text = await get(h, "/healthz")
    body = json.loads(text)
    assert status == 503 and body["status"] == "unavailable" and body["gateway"] == "connected"
    assert body["reasons"] == ["database: error (RuntimeError: the database writer is not running)"]
    samples = await scrape(h)
    assert value(samples, "tablebot_database_errors_total", operation="ping") == 1


async def test_no_endpoint_without_metrics_port(harness: Harness) -> None:
    assert harness.bot is not None and harness.bot.metrics_server is None


@pytest.mark.parametrize(
    ("url", "template"),
    [
        ("https://discord.com/api/v10/channels/123/messages/456", "/channels/{id}/messages/{id}"),
        (
            "https://discord.com/api/v10/interactions/123/aW50ZXJhY3Rpb246MTIzOnh5eg/callback?with_response=1",
            "/interactions/{id}/{token}/callback",
        ),
        (
            "https://discord.com/api/v10/webhooks/9/abc.DEF-ghi/messages/@original",
            "/webhooks/{id}/{token}/messages/@original",
        ),
        ("https://discord.com/api/v10/users/@me/channels", "/users/@me/channels"),
        (
            "https://discord.com/api/v10/channels/1/messages/2/reactions/%F0%9F%91%8D/@me",
            "/channels/{id}/messages/{id}/reactions/{x}/@me",
        ),
        ("wss://gateway.discord.gg/?v=10&encoding=json", "gateway"),
        ("https://cdn.discordapp.com/attachments/1/2/board.png", "other"),
    ],
)
def test_routes_keep_no_ids_or_tokens(url: str, template: str) -> None:
    assert route_template(url) == template


# --- REST calls over real HTTP ------------------------------------------------------------------------
def json_answer(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    # discord.py parses JSON only when the Content-Type is exactly application/json (no charset).
    return web.Response(
        body=json.dumps(body).encode(), status=status, headers={**(headers or {}), "Content-Type": "application/json"}
    )


class TinyDiscord:
    """Just enough of Discord's REST API over real HTTP: /users/@me and channel messages, with 429s."""

    def __init__(self) -> None:
        self.limited: list[dict[str, str]] = []  # headers of the next 429 answers to give

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/api/v10/users/@me", self.me)
        app.router.add_post("/api/v10/channels/{channel}/messages", self.post)
        return app

    async def me(self, _request: web.Request) -> web.Response:
        return json_answer({"id": "1", "username": "Table", "discriminator": "0", "avatar": None, "bot": True})

    async def post(self, request: web.Request) -> web.Response:
        if self.limited:
            headers = {"Via": "1.1 google", **self.limited.pop(0)}
            return json_answer(
                {
                    "message": "You are being rate limited.",
                    "retry_after": 0.01,
                    "global": headers.get("X-RateLimit-Global") == "true",
                },
                status=429,
                headers=headers,
            )
        channel = request.match_info["channel"]
        author = {"id": "1", "username": "Table", "discriminator": "0", "avatar": None}
        message: dict[str, Any] = {
            "id": "55",
            "channel_id": channel,
            "content": "hi",
            "author": author,
            "timestamp": "2024-01-01T00:00:00+00:00",
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "pinned": False,
            "type": 0,
        }
        return json_answer(message)


async def test_rest_calls_and_rate_limits_are_counted_over_real_http(monkeypatch: pytest.MonkeyPatch) -> None:
    tiny = TinyDiscord()
    runner = web.AppRunner(tiny.app())
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    port = runner.addresses[0][1]
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
    metrics = BotMetrics()
    http = discord.http.HTTPClient(aiohttp.TCPConnector(limit=0), http_trace=metrics.trace_config())
    try:
        await http.static_login("MTAyMzQ1Njc4OTAxMjM0NTY3OA.GaBcDe.abcdefghijklmnopqrstuvwxyz0123")
        tiny.limited = [{"X-RateLimit-Scope": "user"}, {"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"}]
        await http.send_message(123, params=discord.http.handle_message_parameters(content="hi"))
        await http.send_message(456, params=discord.http.handle_message_parameters(content="hi"))
    finally:
        await http.close()
        await runner.cleanup()
    samples = parse(metrics.exposition().decode())
    assert value(samples, "tablebot_discord_requests_total", method="GET", route="/users/@me", status="200") == 1
    route = "/channels/{id}/messages"
    assert value(samples, "tablebot_discord_requests_total", method="POST", route=route, status="429") == 2
    assert value(samples, "tablebot_discord_requests_total", method="POST", route=route, status="200") == 2
    assert value(samples, "tablebot_discord_rate_limits_total", scope="user", route=route) == 1
    assert value(samples, "tablebot_discord_rate_limits_total", scope="global", route=route) == 1


# --- the real bot process over real HTTP (the loopback fake Discord) ---------------------------------
async def listening_port(log: Path, bot: BotProcess, within: float = 60.0) -> int:
    """The metrics port the bot process chose (METRICS_PORT=0), from its JSON log."""
    for _ in range(int(within / 0.05)):
        text = await asyncio.to_thread(log.read_text)
        for line in text.splitlines():
            entry = json.loads(line)
            if entry.get("event") == "metrics_listening":
                return int(entry["port"])
        assert bot.alive, text[-3000:]
        await asyncio.sleep(0.05)
    raise AssertionError("the bot never said where it listens")


async def test_a_real_bot_process_counts_its_real_rest_calls_and_429s(tmp_path: Path) -> None:
    lb = await Loopback.start()
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
    log = tmp_path / "bot.log"
    with log.open("wb") as out:
        bot = await BotProcess.spawn(lb, url, log=out, metrics_port="0", log_format="json", log_level="INFO")
        db: Database | None = None
        try:
            await lb.wait_ready()
            port = await listening_port(log, bot)
            # The fake has sent READY; the bot counts as connected once it has handled it.
            health = 0
            for _ in range(200):
                if (health := (await get(port, "/healthz"))[0]) == 200:
                    break
                await asyncio.sleep(0.05)
            assert health == 200
            alice = lb.user("Alice")
            await lb.slash(alice, "game new", game=KEY, timer=0)
            await lb.click(alice, lb.find_button(lb.channel, "Add AI"))
            lb.fail_next(2, status=429, retry_after=0.05, match="/channels/")  # discord.py waits and retries
            await lb.click(alice, lb.find_button(lb.channel, "Start"))
            assert await lb.wait_until(lambda: bool(lb.dms(alice)), 60)  # the DMs follow Start's answer
            await lb.quiet()
            db = await Database.open(url)
            clicks = 0
            while (row := await db.get_game(GAME_ID)) is not None and row.status == "active":
                [component, *_] = choice_components(lb.dms(alice)[-1])
                if component["type"] == 3:
                    values = [o["value"] for o in component["options"][: component["min_values"]]]
                    assert await lb.select(alice, component["custom_id"], values, message=lb.dms(alice)[-1])
                else:
                    assert await lb.click(alice, component["custom_id"], message=lb.dms(alice)[-1])
                clicks += 1
                assert clicks < 500, "the game should have ended"
            await lb.quiet()
            samples = await scrape(port)
        finally:
            if db is not None:
                await db.close()
            await bot.stop()
            await lb.close()
    requests = {
        dict(labels)["route"]: v
        for (name, labels), v in samples.items()
        if name == "tablebot_discord_requests_total" and v
    }
    segment = r"/([a-z@][a-z0-9@_-]*|\{id\}|\{token\}|\{x\})"  # no raw id, no token
    assert all(re.fullmatch(f"({segment})+|gateway|other", route) for route in requests), requests
    assert total(samples, "tablebot_discord_requests_total", status="429") == 2
    assert total(samples, "tablebot_discord_rate_limits_total", scope="user") == 2
    assert total(samples, "tablebot_discord_requests_total", route="/channels/{id}/messages", status="200") > 2
    callbacks = total(samples, "tablebot_discord_requests_total", route="/interactions/{id}/{token}/callback")
    interactions = total(samples, "tablebot_interaction_response_seconds_count")
    assert callbacks == interactions == clicks + 3, "each interaction answered once, over real HTTP"
    assert value(samples, "tablebot_decisions_total", game=KEY, kind="human") == clicks
    assert value(samples, "tablebot_games_ended_total", game=KEY, end="finished") == 1
    assert value(samples, "tablebot_gateway_connected") == 1
    text = await asyncio.to_thread(log.read_text)
    assert all(json.loads(line) for line in text.splitlines()) and TOKEN_OF_LOOPBACK not in text


async def test_an_interaction_whose_kind_cannot_be_told_is_still_handled_and_timed(
    served: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    def unreadable(_kinds: Any, _payload: Any) -> str:
        raise KeyError("data")

    monkeypatch.setattr(InteractionKinds, "of", unreadable)
    h = served
    alice = h.user("Alice")
    assert await h.slash(alice, "game new", game=KEY, timer=0), "the command was answered"
    samples = await scrape(h)
    assert value(samples, "tablebot_interaction_response_seconds_count", kind="other") == 1
