"""The loopback fake Discord: its gateway handshake, shard routing, REST faults, and a real bot subprocess."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

import aiohttp
import discord
import pytest

from fakediscord.loopback import TOKEN, Loopback
from harness.run_bot import BotProcess


async def _frame(ws: aiohttp.ClientWebSocketResponse) -> dict[str, Any]:
    message = await ws.receive(timeout=5)
    assert message.type is aiohttp.WSMsgType.TEXT, message
    frame: dict[str, Any] = json.loads(message.data)
    return frame


async def _identify(ws: aiohttp.ClientWebSocketResponse, shard: list[int], token: str = TOKEN) -> None:
    await ws.send_str(json.dumps({"op": 2, "d": {"token": token, "shard": shard, "intents": 1, "properties": {}}}))


async def test_gateway_handshake_ready_and_guilds_by_shard(loopback: Loopback) -> None:
    second = loopback.fake.add_guild("second")  # the next guild lands on the other shard of two
    owners = {g: (g >> 22) % 2 for g in loopback.fake.guilds}
    assert set(owners.values()) == {0, 1}
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{loopback.url}/api/v10/gateway/bot") as response:
            assert response.headers["Content-Type"] == "application/json"
            info = await response.json()
        assert info["url"] == loopback.gateway_url and info["shards"] == 1
        assert info["session_start_limit"]["remaining"] > 0
        sockets = {}
        for shard in (0, 1):
            ws = await session.ws_connect(loopback.gateway_url + "?v=10&encoding=json")
            hello = await _frame(ws)
            assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] > 0
            await ws.send_str(json.dumps({"op": 1, "d": None}))
            assert (await _frame(ws))["op"] == 11  # HEARTBEAT_ACK
            await _identify(ws, [shard, 2])
            ready = await _frame(ws)
            assert ready["t"] == "READY" and ready["d"]["shard"] == [shard, 2]
            owned = [g for g, s in owners.items() if s == shard]
            assert [int(g["id"]) for g in ready["d"]["guilds"]] == owned
            created = await _frame(ws)
            assert created["t"] == "GUILD_CREATE" and int(created["d"]["id"]) == owned[0]
            assert created["s"] == ready["s"] + 1
            sockets[shard] = ws
        await loopback.wait_ready({0, 1}, within=5)

        # An interaction goes to the shard owning its guild; a DM to shard 0.
        alice = loopback.user("Alice")
        channel = loopback.fake.add_text_channel("far", second)
        payload, token = loopback.click_payload(alice, "x", message={"id": "1", "channel_id": str(channel)})
        assert await loopback.send(payload, token)
        frame = await _frame(sockets[owners[second]])
        assert frame["t"] == "INTERACTION_CREATE" and frame["d"]["token"] == token

        # RESUME is refused with INVALID_SESSION (not resumable): discord.py then identifies afresh.
        await sockets[0].send_str(json.dumps({"op": 6, "d": {"token": TOKEN, "session_id": "x", "seq": 1}}))
        assert await _frame(sockets[0]) == {"op": 9, "d": False}

        # A closed shard takes nothing: the interaction is undelivered, as when the bot is down.
        await sockets[owners[second]].close()
        await loopback.wait_ready({1 - owners[second]}, within=5)
        for _ in range(50):
            if owners[second] not in loopback.ready_shards():
                break
            await sockets[1 - owners[second]].send_str(json.dumps({"op": 1, "d": None}))
            await _frame(sockets[1 - owners[second]])
        payload, token = loopback.click_payload(alice, "x", message={"id": "1", "channel_id": str(channel)})
        assert not await loopback.send(payload, token)
        assert token in loopback.undelivered


async def test_gateway_refuses_a_bad_token(loopback: Loopback) -> None:
    async with aiohttp.ClientSession() as session:
        ws = await session.ws_connect(loopback.gateway_url)
        await _frame(ws)
        await _identify(ws, [0, 1], token="wrong")
        message = await ws.receive(timeout=5)
        assert message.type is aiohttp.WSMsgType.CLOSE and message.data == 4004
        async with session.get(f"{loopback.url}/api/v10/users/@me", headers={"Authorization": "Bot wrong"}) as r:
            assert r.status == 401
        assert loopback.ready_shards() == set()


@pytest.mark.parametrize(
    ("intents", "code"),
    [(None, 4013), ("1", 4013), (1 << 26, 4013), (-1, 4013), (1 << 15, 4014), ((1 << 1) | 1, 4014), (1 << 8, 4014)],
)
async def test_gateway_refuses_bad_or_privileged_intents(loopback: Loopback, intents: Any, code: int) -> None:
    """As Discord: intents missing or out of range are invalid (4013); a privileged one (message content,
    members, presences) the application was not granted is disallowed (4014). Nothing is identified."""
    async with aiohttp.ClientSession() as session:
        ws = await session.ws_connect(loopback.gateway_url)
        await _frame(ws)
        identify: dict[str, Any] = {"token": TOKEN, "shard": [0, 1], "properties": {}}
        if intents is not None:
            identify["intents"] = intents
        await ws.send_str(json.dumps({"op": 2, "d": identify}))
        message = await ws.receive(timeout=5)
        assert message.type is aiohttp.WSMsgType.CLOSE and message.data == code
        assert loopback.identified == 0 and loopback.ready_shards() == set()


async def test_rest_faults_and_unknown_routes(loopback: Loopback) -> None:
    headers = {"Authorization": f"Bot {TOKEN}"}
    url = f"{loopback.url}/api/v10/users/@me"
    loopback.fail_next(1, status=429, retry_after=0.5)
    loopback.fail_next(1, status=503, match="/users/")
    async with aiohttp.ClientSession(headers=headers) as session:
        async with session.get(url) as response:
            assert response.status == 429 and response.headers["Via"]  # discord.py retries only with Via
            assert (await response.json())["retry_after"] == 0.5
        async with session.get(url) as response:
            assert response.status == 503
        async with session.get(url) as response:
            assert response.status == 200 and (await response.json())["bot"] is True
        async with session.post(f"{loopback.url}/api/v10/guilds/1/bans") as response:
            assert response.status == 405, "Discord's description has no POST on this path"
        async with session.get(f"{loopback.url}/api/v10/no/such/route") as response:
            assert response.status == 404 and (await response.json())["message"] == "404: Not Found"
        async with session.get(f"{loopback.url}/api/v10/guilds/1/bans") as response:
            assert response.status == 404, "a route Discord has and the fake does not play"
    assert [c.status for c in loopback.fake.calls] == [429, 503, 200, 405, 404, 404]
    assert len(loopback.unknown) == 1 and "GET /guilds/1/bans" in loopback.unknown[0]


@pytest.fixture
def bot_log(tmp_path: Path) -> Iterator[BinaryIO]:
    with open(tmp_path / "bot.log", "wb") as log:
        yield log


@pytest.mark.slow
async def test_a_real_bot_process_plays_through_the_loopback_and_survives_sigkill(
    loopback: Loopback, tmp_path: Path, bot_log: BinaryIO
) -> None:
    """The production entry in a subprocess: slash command, buttons, DMs; SIGKILL; old buttons still work."""
    database = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
    log = bot_log
    bot = await BotProcess.spawn(loopback, database, log=log)
    try:
        await loopback.wait_ready()
        # The guilds intent alone: no message, typing, reaction or member events to parse for nothing.
        assert [c.intents for c in loopback.connections] == [discord.Intents(guilds=True).value]
        alice, bob = loopback.user("Alice"), loopback.user("Bob")
        lobby = await loopback.slash(alice, "game new", game="eggs-empires")
        assert [r["type"] for r in lobby] == [4]
        join = loopback.find_button(loopback.channel, "Join")
        lobby_message = copy.deepcopy(loopback.find_message(join)[1])
        assert [r["type"] for r in await loopback.click(bob, join)] == [7]
        start = loopback.find_button(loopback.channel, "Start")
        started = await loopback.click(alice, start)  # answered at once (7), or late after the guard's deferral
        assert started[-1]["type"] in (7, "edit") and "started" in json.dumps(started[-1]["data"])
        # The thread, the table and the DMs follow the answer.
        assert await loopback.wait_until(lambda: bool(loopback.dms(alice)) and bool(loopback.dms(bob)), 60)
        await loopback.quiet()
        dm = loopback.dms(bob)[-1]
        choice = next(c for c in loopback.components(dm) if str(c.get("custom_id", "")).startswith("g:"))

        mark = loopback.identified
        bot.kill()
        assert await bot.wait() == -9
        bot = await BotProcess.spawn(loopback, database, log=log)
        await loopback.wait_ready(since=mark)
        # The DM button sent before the kill works on the new process.
        answer = await loopback.click(bob, choice["custom_id"], message=dm)
        assert answer and answer[-1]["type"] in (7, "edit"), answer
        assert "You chose" in json.dumps(answer[-1]["data"])
        # A lobby button of the started game is answered (a refusal), not lost.
        again = await loopback.click(bob, join, message=lobby_message)
        assert again and again[0]["type"] == 4 and again[0]["data"]["flags"] & 64
    finally:
        await bot.stop()
    assert loopback.unknown == []
    bot_log.flush()
    assert b"Traceback" not in (tmp_path / "bot.log").read_bytes()
