"""End to end: a whole 3-player Eight-Minute Empire: Legends game played through the Discord harness.

Alice and Bob play every step from the buttons and selects in their DMs, the third seat is the
heuristic AI. Along the way: the map is attached to the table message (and to the DM of the seat that
decides), no select holds more than 25 options and none of the engine's choices is cut off, the
secret bids show nowhere public (nor in another player's DM) until the last one is in, and the final
scores on the table are the engine's outcome.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import games
from bot.render.eight_minute_empire import SEAT_MARKS, render_map, seat_part
from harness import Call, Harness
from harness.fault_play import log_shown
from harness.payloads import channel_of, engine_state, is_ephemeral, payload_text, walk
from harness.pictures import Pictures
from harness.play import choice_components, decide_from_message

KEY = "eight-minute-empire"
GAME_ID = 1
SEED = 4
BIDS = (3, 5)  # Alice's and Bob's secret bids: distinct, so no die roll decides
MAX_SELECT_OPTIONS = 25
PICTURE_CHECK_EVERY = 9  # steps between byte-for-byte comparisons of a DM map with a fresh render

ENGINE = games.get(KEY)


def assert_components_fit_discord(calls: list[Call]) -> tuple[int, int]:
    """No select over 25 options, at most 5 rows of at most 5 buttons (or one select).

    Returns how many component rows and selects were checked."""
    checked = selects = 0
    for call in calls:
        for part in walk(call.json):
            rows = part.get("components")
            if part.get("type") == 1 or not isinstance(rows, list) or not rows or rows[0].get("type") != 1:
                continue
            assert len(rows) <= 5, call.path
            checked += len(rows)
            for row in rows:
                items = row["components"]
                assert 1 <= len(items) <= 5, call.path
                for item in items:
                    assert len(item.get("custom_id", "")) <= 100
                    if item["type"] == 3:
                        selects += 1
                        assert len(items) == 1, "a select fills its row"
                        assert 1 <= len(item["options"]) <= MAX_SELECT_OPTIONS, len(item["options"])
                        assert item["min_values"] <= len(item["options"])
    return checked, selects


def offered(message: dict[str, Any]) -> list[str]:
    """The choice ids the message offers (buttons, or the options of its select)."""
    ids = []
    for component in choice_components(message):
        if component["type"] == 3:
            ids += [o["value"] for o in component["options"]]
        else:
            ids.append(str(component["custom_id"]).split(":", 4)[4])
    return ids


async def test_whole_game_through_buttons_and_selects(harness: Harness) -> None:
    h = harness
    h.seed = SEED
    assert h.bot is not None
    h.bot.table.seeds.seed(SEED)
    pictures = Pictures(h.fake)
    alice, bob = h.user("Alice"), h.user("Bob")
    humans = [alice, bob]
    await h.slash(alice, "game new", game=KEY, timer=0)
    await h.click(bob, h.find_button(h.channel, "Join"))
    await h.click(alice, h.find_button(h.channel, "Add AI"))
    started = len(h.fake.calls)
    await h.click(alice, h.find_button(h.channel, "Start"))

    [thread] = h.threads()
    table = h.messages_in(thread)[0]
    table_path = f"/channels/{thread}/messages/{table['id']}"
    assert [a["filename"] for a in table["attachments"]] == ["table.png"], "the map is on the table message"
    assert table["embeds"][0]["image"]["url"] == "attachment://table.png"
    seats = await h.bot.table.db.seats(GAME_ID)
    names = [s.name for s in seats]
    state, _row = await engine_state(h, ENGINE, GAME_ID)
    assert pictures.of(table) == [render_map(ENGINE.view(state, None), names)], "the map of the public view"

    reveal_mark: int | None = None
    maps_checked = 0
    largest = 0  # the most choices one prompt offered
    picker = random.Random(SEED)
    for step in range(800):
        state, row = await engine_state(h, ENGINE, GAME_ID)
        if row.status != "active":
            break
        progressed = False
        for seat, user in enumerate(humans):
            state, _row = await engine_state(h, ENGINE, GAME_ID)
            [dm] = h.dms(user)  # one DM per player, edited in place
            prompt = next((p for p in ENGINE.prompts(state) if p.seat == seat), None)
            if prompt is None:
                assert not choice_components(dm), "buttons only while the seat must decide"
                assert pictures.of(dm) == [], "no map in a waiting player's DM (the thread has the live one)"
                continue
            # Every choice the engine offers is on the message: nothing cut off at 25.
            assert sorted(offered(dm)) == sorted(prompt.choice_ids()), (prompt.kind, step)
            largest = max(largest, len(prompt.choices))
            [dm_map] = pictures.of(dm)  # the deciding player sees the map next to the region selects
            if step % PICTURE_CHECK_EVERY == 0:
                assert dm_map == render_map(seat_part(ENGINE.view(state, seat), prompt), names)
                maps_checked += 1
            if prompt.kind == "bid":
                assert state.bids[seat] is None
                last = sum(b is None for b in state.bids) == 1
                if last:
                    reveal_mark = len(h.fake.calls)  # this click brings the last bid in
                [button] = [c for c in choice_components(dm) if c.get("label") == f"Bid {BIDS[seat]}"]
                assert await h.click(user, button["custom_id"], message=dm)
                if not last:  # the bidder's own DM shows the bid while the others still think
                    assert f"Your secret bid: **{BIDS[seat]}**" in json.dumps(h.dms(user)[0]["embeds"])
            else:
                # At random: a fixed rotation can cycle for ever ("Pick another army" is a choice).
                assert await decide_from_message(h, user, dm, index=picker.randrange(10_000))
            progressed = True
        assert progressed, f"the game stalled at step {step}: {h.errors}"

    state, row = await engine_state(h, ENGINE, GAME_ID)
    assert row.status == "finished", "the game was played to its end"
    assert not h.errors, h.errors
    calls = h.calls_since(started)
    assert maps_checked >= 5

    # Discord's limits: at most 25 options in a select, 5 rows; prompts over 20 choices became selects.
    # (A 3-player game offers at most a dozen choices at once, so they are buttons; the check above
    # and the no-cut-off check in the loop are what would catch a select over 25.)
    rows, _selects = assert_components_fit_discord(calls)
    assert rows > 100 and largest <= MAX_SELECT_OPTIONS, (rows, largest)

    # The map rides on every table edit, uploaded when it changed, its attachment kept when not (never the
    # same bytes twice); the table is never re-posted.
    table_calls = [c for c in calls if c.path == table_path]
    kept = [c for c in table_calls if not c.files and [a["filename"] for a in c.json["attachments"]] == ["table.png"]]
    assert len(table_calls) > 30 and all(c.files == ["table.png"] or c in kept for c in table_calls)
    assert sum(c.reuploads for c in calls) == 0

    # The secret bids: nowhere public, nor in the other player's DM, until the last one was in.
    assert reveal_mark is not None
    bids = list(state.revealed)
    assert bids[:2] == list(BIDS)
    shown = [re.compile(rf"{re.escape(names[s])} {bids[s]}\b") for s in range(3)]
    for call in h.fake.calls[started:reveal_mark]:
        channel = channel_of(h, call)
        if channel is None or is_ephemeral(call):
            continue
        # (A picture's description lists each seat's score, "Scores: Ann 0, Ben 0.": no bid, yet the same shape.)
        text = re.sub(r"Scores: [^.]*\.", "", payload_text(call))
        if h.fake.channels[channel]["type"] != 1:  # a channel or the game thread
            assert "Bids revealed" not in text and "Your secret bid" not in text, call.path
            assert not any(p.search(text) for p in shown), (call.path, text[:300])
        else:  # a DM shows its own bid only
            owner = next(s for s, u in enumerate(humans) if h.dm_channel(u) == channel)
            for other in (s for s in range(3) if s != owner):
                assert not shown[other].search(text), (owner, other)
    # ... and the same patterns do find them once they are revealed (so the check above can fail).
    log = log_shown(h, thread)  # the log is folded into the table (bot.delivery.notify)
    reveal = next(line for line in log.splitlines() if line.startswith("Bids revealed"))
    assert all(p.search(reveal) for p in shown), reveal
    assert f"{SEAT_MARKS[1]} Bob pays 5 and goes first" in reveal

    # The final table: the engine's outcome, the final map, no buttons left.
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    final = h.messages_in(thread)[0]
    [results] = [e for e in final["embeds"] if e.get("title") == "Game over."]
    lines = results["description"].splitlines()
    expected = sorted(range(3), key=lambda s: (outcome["ranking"][s], s))
    assert lines == [f"{outcome['ranking'][s]}. {names[s]}: {outcome['scores'][s]}" for s in expected]
    assert outcome["scores"] == [b["total"] for b in outcome["breakdown"]]
    assert final["components"] == []
    assert pictures.of(final) == [render_map(ENGINE.view(state, None), names)]
    stored = await h.bot.table.db.results(GAME_ID)
    assert [(r.rank, r.score) for r in stored] == list(zip(outcome["ranking"], outcome["scores"], strict=True))
