"""One live table in view (issue 21.2): the table message pinned in the game's thread, the players
added to the thread, and every private message one tap away from the table."""

from __future__ import annotations

from harness import Harness
from harness.play import decide_from_message

GAME_ID = 1


async def test_the_table_is_pinned_the_players_follow_the_thread_and_every_dm_links_to_it(harness: Harness) -> None:
    h = harness
    alice, bob, carol = h.user("Alice"), h.user("Bob"), h.user("Carol", dm_closed=True)
    await h.slash(alice, "game new", game="eight-minute-empire", timer=0)
    await h.click(bob, h.find_button(h.channel, "Join"))
    await h.click(carol, h.find_button(h.channel, "Join"))
    await h.click(alice, h.find_button(h.channel, "Add AI"))
    await h.click(alice, h.find_button(h.channel, "Start"))
    [thread] = h.threads()
    table = h.messages_in(thread)[0]
    assert table["pinned"], "the live table stays in reach however long the thread grows"
    assert sorted(h.fake.channels[thread]["_members"]) == sorted([alice, bob, carol])
    link = f"https://discord.com/channels/{h.fake.channels[thread]['guild_id']}/{thread}/{table['id']}"

    def links(message: dict) -> list[str]:
        return [c["url"] for c in h.components(message) if c.get("style") == 5]

    for step in range(6):
        for user in (alice, bob):
            dms = h.dms(user)
            if dms:
                assert links(dms[-1]) == [link], dms[-1]["components"]
                assert "seat" not in dms[-1]["embeds"][0].get("title", "").lower()
                await decide_from_message(h, user, dms[-1], step)
    # The closed-DM player's hand (an ephemeral answer) links to the table too.
    await h.click(carol, h.find_button(thread, "Show my hand"))
    assert links(h.ephemerals(carol)[-1]) == [link]
