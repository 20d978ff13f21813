"""The harness itself: the real bot answers a slash command, REST calls are recorded, restarts work."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest

from fakediscord.fake_discord import APP_ID
from harness import EPHEMERAL, GUILD_ID, Harness


async def test_slash_command_opens_a_lobby_through_real_discord_py(harness: Harness) -> None:
    alice = harness.user("Alice")
    responses = await harness.slash(alice, "game new", game="eggs-empires")
    assert [r["type"] for r in responses] == [4]
    lobby = harness.messages_in(harness.channel)[-1]
    assert lobby["embeds"][0]["title"] == "Eggs and Empires: lobby"
    labels = [c.get("label") for c in harness.components(lobby)]
    assert labels[:5] == ["Join", "Leave", "Add AI", "Start", "Cancel"]
    assert all(len(c["custom_id"]) <= 100 for c in harness.components(lobby))
    # Login, application info and the command sync happened over the recorded REST door.
    paths = [(c.method, c.path) for c in harness.fake.calls]
    assert ("GET", "/users/@me") in paths
    assert any(p.endswith("/commands") and m == "PUT" for m, p in paths)


async def test_refusals_are_ephemeral_and_a_click_is_routed_by_dynamic_items(harness: Harness) -> None:
    alice, bob = harness.user("Alice"), harness.user("Bob")
    await harness.slash(alice, "game new", game="eggs-empires")
    responses = await harness.slash(bob, "game start")
    assert responses[-1]["data"]["flags"] & EPHEMERAL
    assert "Only the host" in responses[-1]["data"]["content"]
    join = harness.find_button(harness.channel, "Join")
    responses = await harness.click(bob, join)
    assert responses[-1]["type"] == 7  # the lobby message was updated in place
    assert "2. Bob" in str(harness.messages_in(harness.channel)[-1]["embeds"])


async def test_restart_keeps_the_lobby_and_its_buttons(harness: Harness) -> None:
    alice, bob = harness.user("Alice"), harness.user("Bob")
    await harness.slash(alice, "game new", game="eggs-empires")
    join = harness.find_button(harness.channel, "Join")
    first_bot = harness.bot
    await harness.restart()
    assert harness.bot is not first_bot
    responses = await harness.click(bob, join)  # a button sent before the restart
    assert responses[-1]["type"] == 7
    assert "2. Bob" in str(harness.messages_in(harness.channel)[-1]["embeds"])


async def test_rate_limit_and_closed_dms_are_simulated(harness: Harness) -> None:
    carol = harness.user("Carol", dm_closed=True)
    assert harness.bot is not None
    channel = await harness.bot.create_dm(discord.Object(carol))
    with pytest.raises(discord.Forbidden) as closed:
        await channel.send("hi")
    assert closed.value.code == 50007
    harness.fake.rate_limit_next = 1
    with pytest.raises(discord.HTTPException) as limited:
        await harness.bot.get_partial_messageable(harness.channel).send("hi")
    assert limited.value.status == 429


async def test_commands_sync_to_the_dev_guild_when_set(tmp_path: Path) -> None:
    h = await Harness.start(tmp_path / "dev.sqlite3", dev_guild_id=GUILD_ID)
    try:
        puts = [c.path for c in h.fake.calls if c.method == "PUT"]
        assert puts == [f"/applications/{APP_ID}/guilds/{GUILD_ID}/commands"]
        [synced] = [c.json for c in h.fake.calls if c.method == "PUT"]
        group = next(cmd for cmd in synced if cmd["name"] == "game")
        names = {o["name"] for o in group["options"]}
        assert {"new", "join", "leave", "start", "hand", "status", "rules", "abandon", "kick"} <= names
    finally:
        await h.close()
