"""Discord's ordinary refusals, each reproduced in the fake as Discord answers it (issue 33.4): the bot handles
them without an ERROR and without losing what a player should see.

Covered elsewhere: a second callback to one interaction (40060, tests/test_answer_lost.py); a token past
its 15 minutes (50027, tests/test_notifications.py::test_an_expired_token_falls_back_to_the_bots_own_routes);
a missing permission (50001/50013, tests/test_discord_permissions.py).
"""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.commands import handlers
from harness import Harness
from harness.play import choice_components, decide_from_message, play_to_end
from tests.test_discord_table import GAME_ID, lobby_with


async def _started(h: Harness, *names: str, dm_closed: tuple[str, ...] = ()) -> list[int]:
    users = await lobby_with(h, *names, dm_closed=dm_closed)
    await h.click(users[0], h.find_button(h.channel, "Start"))
    return users


async def test_a_click_on_a_prompt_replaced_meanwhile_is_a_warning_and_the_player_gets_their_message(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """After a restart the bot replaces a DM prompt (deleting it) while its player clicks it: the click is
    deferred (a busy bot), and the answer's edit of the deleted message gets 10008 Unknown Message. The
    decision stands, the log says so in a warning, and the player's message is sent again."""
    h = harness
    monkeypatch.setattr(handlers, "DECISION_DEFER_AFTER", 0.0)  # the click is deferred before it is answered
    alice, bob = await _started(h, "Alice", "Bob")
    prompt = h.dms(alice)[-1]
    h.fake._delete(h.fake.calls[-1], prompt)  # replaced meanwhile (as the restarted bot's notifier does)
    before = len(h.dms(alice))
    with caplog.at_level(logging.WARNING, logger="table.decisions"):
        assert await decide_from_message(h, alice, prompt)
        await h.settle()
    assert any("10008" in r.getMessage() and r.levelno == logging.WARNING for r in caplog.records)
    assert h.errors == []
    actions = await h.bot.table.db.actions(GAME_ID) if h.bot is not None else []
    assert [a.seat for a in actions] == [0], "Alice's decision is kept"
    assert len(h.dms(alice)) > before or h.dms(alice)[-1]["id"] != prompt["id"], "her message comes again"
    assert not [c for c in h.fake.calls if c.status == 404 and c.path.endswith("/callback")]
    await play_to_end(h, GAME_ID, [alice, bob])


@pytest.mark.parametrize("harness", [{"thread_archive_seconds": 0.01}], indirect=True)
async def test_a_thread_discord_archived_meanwhile_is_reopened_and_the_game_goes_on(harness: Harness) -> None:
    """A turn-based game idle past its thread's auto-archive: the next table edit gets 50083 Thread is
    archived; the bot reopens the thread and the edit goes through."""
    h = harness
    alice, bob = await _started(h, "Alice", "Bob")
    [thread] = h.threads()
    h.fake.channels[thread]["thread_metadata"]["archived"] = True  # Discord's auto-archive
    mark = len(h.fake.calls)
    assert await decide_from_message(h, alice, h.dms(alice)[-1])
    await h.settle()
    calls = h.calls_since(mark)
    assert [c.refused["code"] for c in calls if c.refused] == [50083]
    assert any(c.method == "PATCH" and c.path == f"/channels/{thread}" and c.json == {"archived": False} for c in calls)
    assert h.errors == []
    await play_to_end(h, GAME_ID, [alice, bob])
    await asyncio.sleep(0.05)
    await h.settle()
    assert h.fake.channels[thread]["thread_metadata"]["archived"] is True, "archived again at the end"


async def test_a_thread_locked_by_a_moderator_stays_shut_and_the_game_goes_on_in_dms(harness: Harness) -> None:
    h = harness
    h.fake.deny(h.channel, "manage_threads")
    alice, bob = await _started(h, "Alice", "Bob")
    [thread] = h.threads()
    h.fake.channels[thread]["thread_metadata"].update(archived=True, locked=True)
    await play_to_end(h, GAME_ID, [alice, bob])
    assert h.errors == []
    assert h.fake.channels[thread]["thread_metadata"]["locked"] is True


async def test_dms_closed_mid_game_bring_a_ping_and_the_hand_button_and_the_game_ends(harness: Harness) -> None:
    """50007 Cannot send messages to this user, mid-game: the player is mentioned in the thread once, with
    the "Show my hand" button, and plays on from the ephemeral hand."""
    h = harness
    alice, bob = await _started(h, "Alice", "Bob")
    assert await decide_from_message(h, bob, h.dms(bob)[-1])
    h.fake.dm_closed.add(bob)
    later = h.fake.clock() + 16 * 60
    h.fake.clock = lambda: later  # a quarter of an hour later: Bob's next prompt is a new DM, refused
    assert await decide_from_message(h, alice, h.dms(alice)[-1])
    await h.settle()
    assert any(c.refused and c.refused["code"] == 50007 for c in h.fake.calls)
    [thread] = h.threads()
    pings = [m for m in h.messages_in(thread) if f"<@{bob}>" in (m.get("content") or "")]
    assert pings and any(c.get("custom_id") == f"hand:{GAME_ID}" for m in pings for c in h.components(m))
    for _ in range(500):
        row = await h.bot.table.db.get_game(GAME_ID) if h.bot is not None else None
        if row is None or row.status != "active":
            break
        for user in (alice, bob):
            if user == bob:
                await h.click(bob, f"hand:{GAME_ID}")
                offered = [m for m in h.ephemerals(bob) if choice_components(m)]
                if offered:
                    await decide_from_message(h, bob, offered[-1])
            elif h.dms(alice):
                await decide_from_message(h, alice, h.dms(alice)[-1])
    row = await h.bot.table.db.get_game(GAME_ID) if h.bot is not None else None
    assert row is not None and row.status == "finished"
    assert h.errors == []
