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
    # Bob opening a lobby of his own in that channel shows Alice's too (many lobbies share a channel).
    responses = await h.slash(bob, "game new", game="reggverse-riddles")
    assert len(responses) == 1 and not responses[0]["data"].get("flags", 0) & EPHEMERAL
    reposted = await h.bot.table.db.get_game(row.id)
    assert reposted is not None and reposted.lobby_message_id is not None and reposted.game_key == "eggs-empires"
    alices = next(m for m in h.messages_in(h.channel) if int(m["id"]) == reposted.lobby_message_id)
    await h.click(bob, next(c["custom_id"] for c in h.components(alices) if c.get("label") == "Join"), message=alices)
    _game, seats = await h.bot.table.lobby(row.id)
    assert [s.user_id for s in seats] == [alice, bob]


async def test_a_lobby_already_shown_is_not_posted_again(harness: Harness) -> None:
    h = harness
    alice, bob = h.user("Alice"), h.user("Bob")
    await h.slash(alice, "game new", game="eggs-empires", timer=0)
    shown = len(h.messages_in(h.channel))
    responses = await h.slash(bob, "game new", game="eggs-empires")
    assert not responses[0]["data"].get("flags", 0) & EPHEMERAL, "a second lobby opens beside the first"
    assert len(h.messages_in(h.channel)) == shown + 1
