"""Discord's gateway going away mid-game (issue 20, point 4): one test per kind of drop.

The real bot runs in this event loop on the loopback fake Discord (real websocket, discord.py's own
reconnect logic). The gateway drops its shard and stays shut while a player clicks, then opens again:
- 1000, 1006 (the connection cut with no close frame), 4000: the session stays resumable; discord.py
  RESUMEs, the click made meanwhile is replayed and answered;
- 4009 (session timed out) and INVALID_SESSION: the session is gone; discord.py IDENTIFYs afresh, the
  click made meanwhile never reaches the bot (Discord shows the player "This interaction failed"), and
  the click made again is answered.
Either way the game goes on: the decision is committed once.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fakediscord.loopback import DROP_KINDS, RESUMABLE_CLOSES, Loopback
from harness.fault_play import bot_on_loopback, open_game
from harness.play import choice_components


@pytest.mark.parametrize("kind", DROP_KINDS, ids=str)
async def test_a_click_made_while_the_gateway_was_down(loopback: Loopback, tmp_path: Path, kind: int | str) -> None:
    lb = loopback
    async with bot_on_loopback(lb, f"sqlite+aiosqlite:///{tmp_path}/bot.sqlite3") as t:
        alice, bob = lb.user("Alice"), lb.user("Bob")
        game_id = await open_game(t, "eggs-empires", [alice, bob], 0, lb.channel)
        await t.settle()
        dm = lb.dms(bob)[-1]
        [choice, *_] = choice_components(dm)
        decided = len(await t.bot.table.db.actions(game_id))
        identified, resumed = lb.identified, lb.resumed

        session = await lb.drop_gateway(kind)
        payload, token = lb.click_payload(bob, choice["custom_id"], message=dm)
        delivered = await lb.send(payload, token)  # Bob clicks while the bot is away
        lb.reopen_gateway()

        if kind in RESUMABLE_CLOSES:
            assert delivered  # kept in the session for its RESUME
            assert await lb.wait_until(lambda: lb.resumed == resumed + 1, 60), "the bot resumed"
            answer = await lb.answered(token, within=60)
            assert answer and answer[-1]["type"] in (7, "edit"), answer  # the replayed click is answered
            assert "You chose" in json.dumps(answer[-1]["data"])
            assert lb.identified == identified and session in lb.connections  # the same session goes on
        else:
            assert not delivered and token in lb.undelivered  # Discord: "This interaction failed"
            assert await lb.wait_until(lambda: lb.identified == identified + 1, 60), "the bot identified again"
            assert lb.resumed == resumed and session not in lb.connections
            assert lb.responses_for(token) == []
            answer = await lb.click(bob, choice["custom_id"], message=dm)  # he clicks again
            assert answer and answer[-1]["type"] in (7, "edit"), answer
        await t.settle()
        assert len(await t.bot.table.db.actions(game_id)) == decided + 1  # the game went on, once
        # Connected again as far as the operators can tell (/healthz, tablebot_gateway_connected).
        assert lb.ready_shards() == {0}
        assert await lb.wait_until(lambda: t.bot.gateway_status.connected, 10)
    assert lb.unknown == []


async def test_a_session_never_resumed_loses_the_events_it_kept(loopback: Loopback, tmp_path: Path) -> None:
    """Dropped with a resumable close, but Discord refuses the RESUME (the session expired on its side
    meanwhile): discord.py identifies afresh and the click the old session kept is lost, as on Discord.
    The test makes the RESUME miss by filing the session under another id."""
    lb = loopback
    async with bot_on_loopback(lb, f"sqlite+aiosqlite:///{tmp_path}/bot.sqlite3") as t:
        alice, bob = lb.user("Alice"), lb.user("Bob")
        await open_game(t, "eggs-empires", [alice, bob], 0, lb.channel)
        await t.settle()
        dm = lb.dms(bob)[-1]
        [choice, *_] = choice_components(dm)
        await lb.drop_gateway(4000)
        payload, token = lb.click_payload(bob, choice["custom_id"], message=dm)
        assert await lb.send(payload, token)
        [session] = lb.sessions.values()
        lb.sessions.clear()  # Discord forgot it meanwhile: the RESUME is refused
        lb.sessions["stale"] = session  # ... but kept it aside, as if for another bot's RESUME
        identified = lb.identified
        lb.reopen_gateway()
        assert await lb.wait_until(lambda: lb.identified == identified + 1, 60)
        assert token in lb.lost and lb.responses_for(token) == []
        assert lb.sessions == {}
