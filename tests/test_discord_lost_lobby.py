"""A lobby whose message was never posted (the bot stopped between opening it and answering) is shown again."""

from __future__ import annotations

from harness import EPHEMERAL, GUILD_ID, Harness


async def test_game_new_shows_a_lobby_whose_message_was_lost(harness: Harness) -> None:
    h = harness
    alice, bob = h.user("Alice"), h.user("Bob")
    assert h.bot is not None
    # What a kill between the lobby's commit and the command's answer leaves: a lobby row, no message.
    row = await h.bot.table.create_lobby(
        guild_id=GUILD_ID,
        channel_id=h.channel,
        game_key="eggs-empires",
        host_id=alice,
        host_name="Alice",
        turn_seconds=0,
    )
    assert row.lobby_message_id is None and not h.messages_in(h.channel)
    responses = await h.slash(bob, "game new", game="reggverse-riddles")
    assert len(responses) == 1 and not responses[0]["data"].get("flags", 0) & EPHEMERAL
    reposted = await h.bot.table.db.get_game(row.id)
    assert reposted is not None and reposted.lobby_message_id is not None and reposted.game_key == "eggs-empires"
    await h.click(bob, h.find_button(h.channel, "Join"))
    _game, seats = await h.bot.table.lobby(row.id)
    assert [s.user_id for s in seats] == [alice, bob]


async def test_game_new_still_refuses_a_channel_whose_lobby_is_shown(harness: Harness) -> None:
    h = harness
    alice, bob = h.user("Alice"), h.user("Bob")
    await h.slash(alice, "game new", game="eggs-empires", timer=0)
    shown = len(h.messages_in(h.channel))
    responses = await h.slash(bob, "game new", game="eggs-empires")
    assert responses[0]["data"]["flags"] & EPHEMERAL and "already has a lobby" in responses[0]["data"]["content"]
    assert len(h.messages_in(h.channel)) == shown
