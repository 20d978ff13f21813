"""Every registered game plays at the Discord table, with its own renderer or the generic one."""

from __future__ import annotations

import pytest

import games
from bot.render import renderer_for
from bot.render.kit.pool import PICTURES
from harness import Harness
from harness.play import choice_components, decide_from_message

GAME_ID = 1


@pytest.mark.parametrize("key", games.keys())
async def test_each_game_starts_and_takes_decisions_through_buttons(harness: Harness, key: str) -> None:
    h = harness
    engine = games.get(key)
    users = [h.user(f"P{i}") for i in range(engine.min_players)]
    requested = PICTURES.counts.requested
    await h.slash(users[0], "game new", game=key, timer=0)
    for user in users[1:]:
        await h.click(user, h.find_button(h.channel, "Join"))
    await h.click(users[0], h.find_button(h.channel, "Start"))
    [thread] = h.threads()
    table = h.messages_in(thread)[0]
    assert table["embeds"], "the table message shows the public view"
    assert h.bot is not None
    decisions = 0
    for step in range(40):
        for turn, user in enumerate(users):
            dms = h.dms(user)
            if dms and choice_components(dms[-1]) and await decide_from_message(h, user, dms[-1], step + turn):
                decisions += 1
    actions = await h.bot.table.db.actions(GAME_ID)
    row = await h.bot.table.db.get_game(GAME_ID)
    assert row is not None
    # twenty decisions at least, or a shorter game played to its end by its players' clicks alone
    whole = row.status == "finished" and decisions == len(actions) > 0
    assert (decisions >= 20 and len(actions) >= 10) or whole, (decisions, len(actions), row.status)
    # Every decision offered was one the engine accepted or answered with a readable refusal.
    if renderer_for(key).pictured():
        assert h.messages_in(thread)[0]["attachments"], "the board image is attached to the table"
    else:  # nothing is sent to be drawn (and to wait behind other games' pictures) to come back empty
        assert PICTURES.counts.requested == requested
        assert not any(m.get("attachments") for m in h.messages_in(thread))
