"""An ending worth a screenshot (issue 21.6): the result message, the lobby and DMs saying how it ended,
the thread archived and locked, Rematch and Replay."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from bot.messages import endings
from harness import EPHEMERAL, Harness
from harness.play import play_to_end

GAME_ID = 1


QUICK_ARCHIVE = {"thread_archive_seconds": 0.05}  # the thread archived as soon as the test can see it


def result_of(h: Harness, thread: int) -> dict[str, Any]:
    [result] = [
        m for m in h.messages_in(thread) if any(c.get("custom_id", "").startswith("rematch:") for c in h.components(m))
    ]
    return result


@pytest.mark.parametrize("harness", [QUICK_ARCHIVE], indirect=True)
async def test_a_finished_game_ends_with_results_rematch_and_replay(harness: Harness) -> None:
    h = harness
    alice, bob, carol = h.user("Alice"), h.user("Bob"), h.user("Carol")
    await h.slash(alice, "game new", game="eggs-empires", timer=0)
    await h.click(bob, h.find_button(h.channel, "Join"))
    await h.click(alice, h.find_button(h.channel, "Add AI"))
    await h.click(alice, h.find_button(h.channel, "Start"))
    await play_to_end(h, GAME_ID, [alice, bob])
    await h.settle()
    [thread] = h.threads()

    # The result: everybody named, the humans mentioned (and notified), ranks, each score broken down by
    # the game's own categories, each human's rating change; Rematch and Replay.
    result = result_of(h, thread)
    for user in (alice, bob):
        assert f"<@{user}>" in result["content"]
    [embed] = result["embeds"]
    assert "AI 1 (easy)" in embed["description"]
    assert "Rounds " in embed["description"] and "Rating 1," in embed["description"]
    labels = [c["label"] for c in h.components(result)]
    assert labels == ["Rematch", "Replay"]
    assert h.bot is not None
    outcome_ranks = sorted(r.rank for r in await h.bot.db.results(GAME_ID))
    assert outcome_ranks[0] == 1

    # The lobby message in the channel shows the ranking and links to the thread.
    lobby = h.messages_in(h.channel)[0]
    assert f"<#{thread}>" in lobby["content"] and "the game is over" in lobby["content"]
    assert lobby["components"] == []
    # Every DM says how the game ended, never that it waits for the others.
    for user in (alice, bob):
        last = h.dms(user)[-1]
        assert "Game over: place " in last["content"], last["content"]
        assert "waiting for the other players" not in json.dumps(last)
    # The thread is archived and locked once the delay has passed.
    await asyncio.sleep(0.2)
    metadata = h.fake.channels[thread]["thread_metadata"]
    assert metadata["archived"] and metadata["locked"]

    # Replay: an ephemeral pager through the game's turns, rebuilt from the seed and the action log.
    replay_id = next(c["custom_id"] for c in h.components(result) if c["label"] == "Replay")
    await h.click(carol, replay_id, message=result)
    first = h.ephemerals(carol)[-1]
    assert int(first["flags"]) & EPHEMERAL
    assert "Turn 1 of " in first["embeds"][0]["footer"]["text"]
    pages = int(first["embeds"][0]["footer"]["text"].rsplit(" ", 1)[1])
    assert pages > 3
    next_id = next(c["custom_id"] for c in h.components(first) if c["label"] == "Next")
    await h.click(carol, next_id, message=first)
    assert "Turn 2 of " in h.ephemerals(carol)[-1]["embeds"][0]["footer"]["text"]
    # ... and by command, for any finished game of the server.
    await h.slash(carol, "game replay", game=GAME_ID)
    assert "Turn 1 of " in h.ephemerals(carol)[-1]["embeds"][0]["footer"]["text"]
    await h.slash(carol, "game replay", game=GAME_ID + 50)
    assert "no finished game #51" in h.ephemerals(carol)[-1]["content"]

    # Rematch: a spectator may not; a player opens a new lobby in the channel with the same variants,
    # timer and AI seats; the other player's click seats them there.
    rematch_id = next(c["custom_id"] for c in h.components(result) if c["label"] == "Rematch")
    await h.click(carol, rematch_id, message=result)
    assert "Only the players" in h.ephemerals(carol)[-1]["content"]
    await h.click(bob, rematch_id, message=result)
    await h.click(alice, rematch_id, message=result)
    new_lobby = h.messages_in(h.channel)[-1]
    seats_field = new_lobby["embeds"][0]["fields"][0]["value"]
    assert seats_field.splitlines() == ["1. Bob", "2. AI 1 (easy)", "3. Alice"]
    row = await h.bot.db.game_row(GAME_ID + 1)
    old = await h.bot.db.game_row(GAME_ID)
    assert row is not None and old is not None
    assert (row.status, row.options, row.turn_seconds, row.host_id) == ("lobby", old.options, old.turn_seconds, bob)


def test_ties_say_how_the_rules_broke_them_and_scores_read_by_category() -> None:
    placed = endings.placings({"scores": [7, 9, 7], "ranking": [2, 1, 3]}, 3)
    assert [p.seat for p in placed] == [1, 0, 2]
    lines = endings.tie_lines("eight-minute-empire", placed, ["Ann", "Ben", "Cy"], "en")
    assert lines == [
        "Ann and Cy tied on 7: the Magic Book wins, then the most coins, the most armies on the board, the most regions"
    ]
    shared = endings.placings({"scores": [4, 4], "ranking": [1, 1]}, 2)
    assert endings.tie_lines("reggverse-riddles", shared, ["Ann", "Ben"], "en") == [
        "Ann and Ben tied on 4 and share the place."
    ]
    breakdown = {"regions": 4, "continents": 0, "abilities": 2, "total": 6}
    assert endings.breakdown_text("eight-minute-empire", breakdown, "en") == "Regions 4 · Abilities 2"
    rounds = {"rounds": [{"total": 8}, {"total": 12}], "tokens": 0, "total": 20}
    assert endings.breakdown_text("eggs-empires", rounds, "en") == "Rounds 8 + 12"
    # Without a ranking in the outcome, equal scores share a rank.
    assert [p.rank for p in endings.placings({"scores": [3, 5, 3]}, 3)] == [1, 2, 2]
