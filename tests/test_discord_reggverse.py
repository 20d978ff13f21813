"""End to end: a whole 3-player Reggverse Riddles game with both expansions through the Discord harness.

Alice, Bob and Carol play every step from their DMs (action tiles and secret objectives on, piles of
four eggs so the game stays short). Each DM carries that seat's picture: the board turned to its side
with its hand (checked byte for byte against the renderer's drawing of that seat's view); a seat's
secret objective is named in its own DM only and in no channel or thread message before the game
ends; the final table shows the engine's scores.
"""

from __future__ import annotations

import json
import random
from typing import Any

import games
from bot.render.reggverse import RENDERER
from harness import EPHEMERAL, Call, Harness
from harness.fault_play import log_shown
from harness.payloads import channel_of, engine_state
from harness.pictures import Pictures
from harness.play import choice_components, decide_from_message

KEY = "reggverse-riddles"
VARIANTS = "action_tiles=true objectives=true tokens=4"
GAME_ID = 1
SEED = 3
PICTURE_CHECK_EVERY = 5  # decisions between byte-for-byte comparisons with a fresh drawing

ENGINE = games.get(KEY)


def embeds_of(call: Call) -> str:
    """The visible text of a message payload: content and embeds (not the select options)."""
    body = call.json or {}
    data = body.get("data", body) if call.path.startswith("/interactions/") else body
    if not isinstance(data, dict):
        return ""
    return json.dumps([data.get("content"), data.get("embeds")], ensure_ascii=False)


NAMES = ("Alice", "Bob", "Carol")


def seat_picture(state: Any, seat: int | None) -> bytes | None:
    """The picture the bot shows: the table's, or a seat's with the prompt it must answer marked."""
    view = ENGINE.view(state, seat)
    if seat is None:
        return RENDERER.image(view, "en", NAMES)
    prompt = next((p for p in ENGINE.prompts(state) if p.seat == seat), None)
    return RENDERER.seat_image(view, prompt, "en", NAMES)


async def test_whole_game_with_both_expansions(harness: Harness) -> None:
    h = harness
    assert h.bot is not None
    h.bot.table.seeds.seed(SEED)
    pictures = Pictures(h.fake)
    users = [h.user(name) for name in NAMES]
    await h.slash(users[0], "game new", game=KEY, timer=0, variants=VARIANTS)
    for user in users[1:]:
        await h.click(user, h.find_button(h.channel, "Join"))
    started = len(h.fake.calls)
    await h.click(users[0], h.find_button(h.channel, "Start"))

    state, _row = await engine_state(h, ENGINE, GAME_ID)
    assert state.options["action_tiles"] and state.options["objectives"]
    objectives = [state.objective_tiles[state.secret[s]]["text"] for s in range(3)]
    assert len(set(objectives)) == 3, "three different secrets, so each can be told apart"
    sides = [ENGINE.view(state, s)["side"] for s in range(3)]
    assert len(set(sides)) == 3, sides

    # At the start: the table shows the public board; each DM its own side with its hand.
    [thread] = h.threads()
    table = h.messages_in(thread)[0]
    assert table["embeds"][0]["image"]["url"] == "attachment://table.png"
    public = seat_picture(state, None)
    assert pictures.of(table) == [public]
    firsts = [pictures.of(h.dms(u)[0]) for u in users]
    assert firsts == [[seat_picture(state, s)] for s in range(3)]
    assert len({public, *(p[0] for p in firsts)}) == 4, "four different pictures"
    for seat, user in enumerate(users):
        [dm] = h.dms(user)
        assert dm["embeds"][0]["image"]["url"] == "attachment://table.png"
        assert f"Secret objective: {objectives[seat]}" in json.dumps(dm["embeds"], ensure_ascii=False)

    picker = random.Random(SEED)
    decisions = checked = 0
    last_click = started
    for step in range(600):
        state, row = await engine_state(h, ENGINE, GAME_ID)
        if row.status != "active":
            break
        progressed = False
        for seat, user in enumerate(users):
            [dm] = h.dms(user)  # one DM per player, edited in place
            assert len(pictures.of(dm)) == 1, "the seat's picture stays on its DM"
            if not choice_components(dm):
                continue
            last_click = len(h.fake.calls)
            before = pictures.of(dm)
            assert await decide_from_message(h, user, dm, index=picker.randrange(10_000))
            decisions += 1
            progressed = True
            if decisions % PICTURE_CHECK_EVERY == 0:
                # The decision's answer redrew the DM from the seat's fresh view when the seat has something
                # more to decide; when it waits, the DM keeps the picture of the prompt it answered (issue
                # 37.3: its next prompt brings the new one).
                state, row = await engine_state(h, ENGINE, GAME_ID)
                if row.status == "active":
                    deciding = any(p.seat == seat for p in ENGINE.prompts(state))
                    expected = [seat_picture(state, seat)] if deciding else before
                    assert pictures.of(h.dms(user)[0]) == expected
                    checked += 1
        assert progressed, f"the game stalled at step {step}: {h.errors}"

    state, row = await engine_state(h, ENGINE, GAME_ID)
    assert row.status == "finished", "the game was played to its end"
    assert not h.errors, h.errors
    assert checked >= 5
    log = log_shown(h, thread)  # the log is folded into the table (bot.delivery.notify)
    assert "plays an action:" in log, "an action tile was played"

    # Secret objectives: nowhere public before the end; in a DM, only the owner's is named.
    dm_owner = {h.dm_channel(u): s for s, u in enumerate(users)}
    public_payloads = dm_payloads = 0
    for call in h.fake.calls[started:last_click]:
        channel = channel_of(h, call)
        if channel is None:
            continue
        text = embeds_of(call)
        if channel in dm_owner:
            dm_payloads += 1
            owner = dm_owner[channel]
            assert not any(objectives[s] in text for s in range(3) if s != owner), (owner, text[:300])
        elif not int(((call.json or {}).get("data") or {}).get("flags") or 0) & EPHEMERAL:
            public_payloads += 1
            raw = json.dumps(call.json, ensure_ascii=False)
            assert not any(objective in raw for objective in objectives), (call.path, raw[:300])
    assert public_payloads > 20 and dm_payloads > 20, (public_payloads, dm_payloads)

    # The end: the table shows the engine's scores and the final board; every DM its final picture.
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    names = [s.name for s in await h.bot.table.db.seats(GAME_ID)]
    final = h.messages_in(thread)[0]
    [results] = [e for e in final["embeds"] if e.get("title") == "Game over."]
    scores = outcome["scores"]
    ranks = [1 + sum(other > mine for other in scores) for mine in scores]
    expected = sorted(range(3), key=lambda s: (ranks[s], s))
    assert results["description"].splitlines() == [f"{ranks[s]}. {names[s]}: {scores[s]}" for s in expected]
    assert scores == [b["eggs"] + b["objective_points"] for b in outcome["breakdown"]]
    assert [b["objective"] for b in outcome["breakdown"]] == objectives
    assert final["components"] == []
    assert pictures.of(final) == [seat_picture(state, None)]
    for seat, user in enumerate(users):
        assert pictures.of(h.dms(user)[0]) == [seat_picture(state, seat)]
