"""Many tables per channel (issue 21.9): lobbies and games side by side in one channel, each in its own
thread; commands reach the right one; caps a server's admins set; lobbies nobody starts close."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.commands.cogs.timers import close_expired_lobbies
from harness import Harness


def last_answer(h: Harness, user: int) -> str:
    return str(h.ephemerals(user)[-1]["content"])


async def test_two_lobbies_and_two_games_run_side_by_side_in_one_channel(harness: Harness) -> None:
    h = harness
    ann, ben, cleo = h.user("Ann"), h.user("Ben"), h.user("Cleo")
    assert h.bot is not None
    await h.slash(ann, "game new", game="eggs-empires", timer=0)
    await h.slash(ben, "game new", game="reggverse-riddles", timer=0)
    lobbies = [m for m in h.messages_in(h.channel) if m["embeds"]]
    assert len(lobbies) == 2, "a second lobby opens beside the first"
    # Typed in the channel with two lobbies open, /game join asks which; its game option says it.
    await h.slash(cleo, "game join")
    assert "Several lobbies and games" in last_answer(h, cleo)
    await h.slash(cleo, "game join", game=2)
    _row, seats = await h.bot.table.lobby(2)
    assert [s.user_id for s in seats] == [ben, cleo]
    # Each lobby's buttons act on their own lobby; both start, each in its own thread.
    await h.click(ben, next(c["custom_id"] for c in h.components(lobbies[0]) if c.get("label") == "Join"))
    await h.click(ann, next(c["custom_id"] for c in h.components(lobbies[0]) if c.get("label") == "Start"))
    await h.slash(ben, "game start")  # Ben is in both lobbies but hosts one: the command finds it
    first, second = h.threads()
    assert (await h.bot.table.db.game_row(1)).thread_id == first  # type: ignore[union-attr]
    assert (await h.bot.table.db.game_row(2)).thread_id == second  # type: ignore[union-attr]
    # In a game's thread a command acts on that game; in the channel, Ben (in both) must say which.
    await h.slash(ben, "game hand", channel=second)
    assert h.ephemerals(ben)[-1]["embeds"], "Ben's hand in game 2"
    await h.slash(ben, "game hand")
    assert "Several lobbies and games" in last_answer(h, ben)
    await h.slash(ben, "game hand", game=1)
    assert h.ephemerals(ben)[-1]["embeds"]
    # And a third and fourth lobby in the same channel, beside the two games.
    await h.slash(cleo, "game new", game="eight-minute-empire", timer=0)
    await h.slash(ann, "game new", game="eggs-empires", timer=0)
    assert {g.id for g in await h.bot.table.db.channel_games(h.channel)} == {1, 2, 3, 4}


async def test_caps_refuse_clearly_and_admins_can_change_them(harness: Harness) -> None:
    h = harness
    ann, admin = h.user("Ann"), h.user("Admin", admin=True)
    await h.slash(ann, "game new", game="eggs-empires", timer=0)
    await h.slash(ann, "game new", game="eggs-empires", timer=0)
    await h.slash(ann, "game new", game="eggs-empires", timer=0)
    refusal = last_answer(h, ann)
    assert "You already have 2 open lobbies" in refusal and "start or cancel one of them" in refusal
    await h.slash(ann, "game settings", lobbies_per_user=3)
    assert "Manage Server" in last_answer(h, ann)
    await h.slash(admin, "game settings", lobbies_per_user=3)
    assert "open lobbies per person 3" in last_answer(h, admin)
    await h.slash(ann, "game new", game="eggs-empires", timer=0)
    assert h.bot is not None
    assert len(await h.bot.table.db.channel_games(h.channel)) == 3


async def test_a_lobby_nobody_starts_closes_after_an_hour_with_a_message(harness: Harness) -> None:
    h = harness
    ann = h.user("Ann")
    await h.slash(ann, "game new", game="eggs-empires", timer=0)
    assert h.bot is not None
    h.set_clock(datetime.now(UTC) + timedelta(minutes=50))
    assert await close_expired_lobbies(h.bot) == 0
    h.set_clock(datetime.now(UTC) + timedelta(minutes=70))
    assert await close_expired_lobbies(h.bot) == 1
    lobby = h.messages_in(h.channel)[0]
    assert "nobody started it within an hour" in lobby["content"] and lobby["components"] == []
    row = await h.bot.table.db.game_row(1)
    assert row is not None and row.status == "abandoned"
