"""Every bad input gets a short ephemeral explanation and changes nothing."""

from __future__ import annotations

import copy
import json
from typing import Any

from harness import EPHEMERAL, Harness
from harness.play import choice_components, play_to_end

GAME_ID = 1


async def started_game(h: Harness, *, humans: int = 2, ai: int = 0) -> list[int]:
    users = [h.user(f"P{i}") for i in range(humans)]
    await h.slash(users[0], "game new", game="eggs-empires", timer=0)
    for user in users[1:]:
        await h.click(user, h.find_button(h.channel, "Join"))
    for _ in range(ai):
        await h.click(users[0], h.find_button(h.channel, "Add AI"))
    await h.click(users[0], h.find_button(h.channel, "Start"))
    return users


async def snapshot(h: Harness) -> tuple[int, str, int]:
    assert h.bot is not None
    row = await h.bot.table.db.get_game(GAME_ID)
    assert row is not None
    return row.version, json.dumps(row.state, sort_keys=True), len(await h.bot.table.db.actions(GAME_ID))


def refusal(responses: list[dict[str, Any]]) -> str:
    assert len(responses) == 1, responses
    [response] = responses
    assert response["type"] == 4 and response["data"]["flags"] & EPHEMERAL, response
    return str(response["data"]["content"])


async def test_a_strangers_click_is_refused(harness: Harness) -> None:
    h = harness
    alice, _bob = await started_game(h)
    stranger = h.user("Mallory")
    [dm] = h.dms(alice)
    before = await snapshot(h)
    message = refusal(await h.click(stranger, choice_components(dm)[0]["custom_id"], message=dm))
    assert "another player" in message
    assert await snapshot(h) == before


async def test_a_click_on_another_seat_by_a_player_is_refused(harness: Harness) -> None:
    h = harness
    alice, bob = await started_game(h)
    [dm] = h.dms(alice)
    before = await snapshot(h)
    assert "another player" in refusal(await h.click(bob, choice_components(dm)[0]["custom_id"], message=dm))
    assert await snapshot(h) == before


async def test_double_click_applies_once_and_stale_buttons_are_refused(harness: Harness) -> None:
    h = harness
    alice, _bob = await started_game(h)
    [dm] = h.dms(alice)
    old = copy.deepcopy(dm)
    button = choice_components(old)[0]["custom_id"]
    first = await h.click(alice, button, message=old)
    assert first[-1]["type"] == 7  # the DM itself was edited: "You chose ..."
    after_first = await snapshot(h)
    again = refusal(await h.click(alice, button, message=old))
    assert "already decided" in again
    assert await snapshot(h) == after_first


async def test_an_old_button_after_the_turn_moved_on_is_refused(harness: Harness) -> None:
    h = harness
    alice, bob = await started_game(h)
    old = copy.deepcopy(h.dms(alice)[0])
    await h.click(alice, choice_components(h.dms(alice)[0])[0]["custom_id"])
    await h.click(bob, choice_components(h.dms(bob)[0])[0]["custom_id"])
    before = await snapshot(h)
    message = refusal(await h.click(alice, choice_components(old)[1]["custom_id"], message=old))
    assert "already decided" in message or "no longer available" in message
    assert await snapshot(h) == before


async def test_forged_and_malformed_custom_ids_are_refused(harness: Harness) -> None:
    h = harness
    alice, _bob = await started_game(h)
    [dm] = h.dms(alice)
    button = choice_components(dm)[0]["custom_id"]
    _, game, seat, seq, choice = button.split(":")
    before = await snapshot(h)
    forgeries = {
        f"g:{game}:{seat}:{int(seq) + 5}:{choice}": "no longer available",  # a future sequence
        f"g:{game}:{seat}:{seq}:nonsense": "not one of the choices",  # a choice never offered
        f"g:999:{seat}:{seq}:{choice}": "does not exist",  # another game
        f"g:{game}:x:{seq}:{choice}": "not valid",  # malformed
        "g:": "not valid",
        "hand:abc": "not valid",
        "lb:1:explode": "not valid",
        "zzz:whatever": "not valid",  # not one of the bot's own prefixes
    }
    for custom_id, expected in forgeries.items():
        forged = copy.deepcopy(dm)
        forged["components"][0]["components"][0]["custom_id"] = custom_id
        message = refusal(await h.click(alice, custom_id, message=forged))
        assert expected in message, (custom_id, message)
    assert await snapshot(h) == before


async def test_clicks_on_a_finished_game_are_refused(harness: Harness) -> None:
    h = harness
    users = await started_game(h, humans=1, ai=1)
    old = copy.deepcopy(h.dms(users[0])[0])
    await play_to_end(h, GAME_ID, users)
    assert h.bot is not None
    row = await h.bot.table.db.get_game(GAME_ID)
    assert row is not None and row.status == "finished"
    message = refusal(await h.click(users[0], choice_components(old)[0]["custom_id"], message=old))
    assert "over" in message
    assert "over" in refusal(await h.click(users[0], f"hand:{GAME_ID}", message=_with_button(old, f"hand:{GAME_ID}")))


def _with_button(message: dict[str, Any], custom_id: str) -> dict[str, Any]:
    forged = copy.deepcopy(message)
    forged["components"] = [{"type": 1, "components": [{"type": 2, "style": 2, "label": "x", "custom_id": custom_id}]}]
    return forged


async def test_a_full_lobby_refuses_more_players(harness: Harness) -> None:
    h = harness
    host = h.user("Host")
    await h.slash(host, "game new", game="eggs-empires")
    join = h.find_button(h.channel, "Join")
    for i in range(5):
        await h.click(h.user(f"U{i}"), join)
    late = h.user("Late")
    assert "full" in refusal(await h.click(late, join))
    assert "full" in refusal(await h.click(host, h.find_button(h.channel, "Add AI")))
    assert h.bot is not None
    assert len(await h.bot.table.db.seats(GAME_ID)) == 6


async def test_lobby_controls_belong_to_the_host(harness: Harness) -> None:
    h = harness
    host, guest = h.user("Host"), h.user("Guest")
    await h.slash(host, "game new", game="eggs-empires")
    await h.click(guest, h.find_button(h.channel, "Join"))
    assert "host" in refusal(await h.click(guest, h.find_button(h.channel, "Start")))
    assert "host" in refusal(await h.click(guest, h.find_button(h.channel, "Cancel")))
    lobby = h.messages_in(h.channel)[-1]
    select = next(c for c in h.components(lobby) if c.get("custom_id") == "lo:1:scoring")
    assert "host" in refusal(await h.select(guest, select["custom_id"], ["conpub"], message=lobby))
    responses = await h.select(host, select["custom_id"], ["conpub"], message=lobby)
    assert responses[-1]["type"] == 7
    assert h.bot is not None
    row = await h.bot.table.db.get_game(GAME_ID)
    assert row is not None and row.options["scoring"] == "conpub"
    assert "host" in refusal(await h.slash(guest, "game kick", seat=1))
    assert "host" in refusal(await h.slash(guest, "game abandon"))


async def test_several_lobbies_per_channel_within_a_persons_cap(harness: Harness) -> None:
    h = harness
    alice = h.user("Alice")
    await h.slash(alice, "game new", game="eggs-empires")
    responses = await h.slash(alice, "game new", game="eggs-empires")
    assert responses[-1]["type"] == 4 and not responses[-1]["data"].get("flags")
    assert "2 open lobbies" in refusal(await h.slash(alice, "game new", game="eggs-empires", channel=h.other_channel))
    status = await h.slash(alice, "game status")
    assert status[-1]["data"]["content"].count("lobby") == 2
