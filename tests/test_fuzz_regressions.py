"""Bugs the hostile-input fuzzer (tests/test_fuzz_interactions.py) found, pinned one by one."""

from __future__ import annotations

import copy
from typing import Any

from harness import Harness
from harness.play import choice_components
from tests.test_discord_bad_input import GAME_ID, _with_button, refusal, snapshot, started_game

HUGE = "9" * 19  # fits the 19-digit id pattern but not a 64-bit SQL integer


async def test_ids_beyond_64_bits_are_refused_not_crashed(harness: Harness) -> None:
    h = harness
    alice, _bob = await started_game(h)
    [dm] = h.dms(alice)
    before = await snapshot(h)
    for custom_id in (
        f"g:{HUGE}:0:1:x",
        f"g:{GAME_ID}:{HUGE}:1:x",
        f"g:{GAME_ID}:0:{HUGE}:x",
        f"hand:{HUGE}",
        f"back:{HUGE}",
        f"lb:{HUGE}:join",
    ):
        assert "not valid" in refusal(await h.click(alice, custom_id, message=_with_button(dm, custom_id))), custom_id
    assert await snapshot(h) == before


async def test_other_scripts_digits_are_not_ids(harness: Harness) -> None:
    h = harness
    alice, _bob = await started_game(h)
    [dm] = h.dms(alice)
    custom_id = "hand:\u0661"  # ARABIC-INDIC DIGIT ONE: int() would read it as game 1
    assert "not valid" in refusal(await h.click(alice, custom_id, message=_with_button(dm, custom_id)))


async def test_a_click_on_a_component_the_message_no_longer_carries_is_answered(harness: Harness) -> None:
    # Discord sends the message as it is when the click arrives: if the bot has just edited the
    # buttons away, discord.py routes the click nowhere, and nobody would answer it.
    h = harness
    alice, _bob = await started_game(h)
    [dm] = h.dms(alice)
    button = choice_components(dm)[0]["custom_id"]
    edited = copy.deepcopy(dm)
    edited["components"] = []
    before = await snapshot(h)
    assert "no longer available" in refusal(await h.click(alice, button, message=edited))
    # The same custom_id sent as a select while the message shows a button: also not routed by discord.py.
    assert "no longer available" in refusal(await h.select(alice, button, ["x"], message=dm))
    assert await snapshot(h) == before


async def test_a_custom_id_with_a_newline_is_answered(harness: Harness) -> None:
    h = harness
    alice, _bob = await started_game(h)
    [dm] = h.dms(alice)
    before = await snapshot(h)
    for custom_id, expected in (
        ("g:1:0:1:a\nb", "not one of the choices"),
        ("hand:\n1", "not valid"),
        ("rules:\n:0", "not valid"),
        ("lbd:\n", "not valid"),
    ):
        assert expected in refusal(await h.click(alice, custom_id, message=_with_button(dm, custom_id))), custom_id
    assert await snapshot(h) == before


def _lobby_select(h: Harness) -> dict[str, Any]:
    return h.messages_in(h.channel)[-1]


async def test_a_turn_timer_out_of_range_is_refused(harness: Harness) -> None:
    h = harness
    host = h.user("Host")
    message = refusal(await h.slash(host, "game new", game="eggs-empires", timer=10**15))
    assert "turn timer" in message
    assert h.bot is not None and await h.bot.table.db.get_game(GAME_ID) is None
    await h.slash(host, "game new", game="eggs-empires", timer=60)
    lobby = _lobby_select(h)
    select = next(c for c in h.components(lobby) if c.get("custom_id") == f"lo:{GAME_ID}:turn_seconds")
    for value in ("99999999999999999999", "abc", ""):
        forged = copy.deepcopy(lobby)
        assert "turn timer" in refusal(await h.select(host, select["custom_id"], [value], message=forged)), value
    row = await h.bot.table.db.get_game(GAME_ID)
    assert row is not None and row.turn_seconds == 60


async def test_a_command_the_code_does_not_know_is_answered(harness: Harness) -> None:
    # After a deploy Discord may still offer an old command, or old options: discord.py cannot run it.
    h = harness
    alice = h.user("Alice")
    cases = [
        ([{"type": 1, "name": "nonsense", "options": []}], "out of date"),  # an unknown subcommand
        ([{"type": 1, "name": "new", "options": [{"name": "bogus", "type": 3, "value": "x"}]}], "out of date"),
        # an integer option registered as text by an older version
        ([{"type": 1, "name": "kick", "options": [{"name": "seat", "type": 3, "value": "E"}]}], "out of date"),
        # integer options registered as text by an older version: discord.py would pass the text on
        (
            [
                {
                    "type": 1,
                    "name": "new",
                    "options": [
                        {"name": "game", "type": 3, "value": "eggs-empires"},
                        {"name": "timer", "type": 3, "value": "soon"},
                    ],
                }
            ],
            "out of date",
        ),
    ]
    for options, expected in cases:
        data = {"id": str(h.fake.snowflake()), "name": "game", "type": 1, "options": options}
        payload, token = h._payload(alice, 2, data, h.channel, None)
        message = refusal(await h._feed(payload, token))
        assert expected in message, options
    assert h.bot is not None and await h.bot.table.db.get_game(GAME_ID) is None


async def test_a_refusal_quotes_long_input_only_briefly(harness: Harness) -> None:
    h = harness
    alice = h.user("Alice")
    junk = "\U0008eac4" * 500
    for options in (
        {"game": junk},
        {"game": "eggs-empires", "variants": "scoring=" + "x" * 3000},
        {"game": "eggs-empires", "variants": junk + "=1"},
    ):
        message = refusal(await h.slash(alice, "game new", **options))
        assert len(message) < 400, (options.keys(), message[:100])
    assert "no game called" in refusal(await h.slash(alice, "game rules", game=junk))
    assert h.bot is not None and await h.bot.table.db.get_game(GAME_ID) is None


async def test_lobby_controls_work_only_in_the_lobbys_channel(harness: Harness) -> None:
    # A lobby button forged onto a message elsewhere (another channel, another server) joins nothing.
    h = harness
    host, stranger = h.user("Host"), h.user("Stranger")
    await h.slash(host, "game new", game="eggs-empires")
    lobby = h.messages_in(h.channel)[-1]
    _guild, [elsewhere] = await h.add_guild(1)
    moved = copy.deepcopy(lobby)
    moved["channel_id"] = str(elsewhere)
    join = h.find_button(h.channel, "Join")
    assert "not valid" in refusal(await h.click(stranger, join, message=moved, channel=elsewhere))
    select = next(c for c in h.components(lobby) if c.get("custom_id") == f"lo:{GAME_ID}:scoring")
    payload, token = h.click_payload(host, select["custom_id"], message=moved, channel=elsewhere, values=["conpub"])
    assert "not valid" in refusal(await h._feed(payload, token))
    assert h.bot is not None
    assert [s.user_id for s in await h.bot.table.db.seats(GAME_ID)] == [host]
    row = await h.bot.table.db.get_game(GAME_ID)
    assert row is not None and row.options["scoring"] == "standard"
    await h.click(stranger, join)  # from the lobby's own channel it still works
    assert [s.user_id for s in await h.bot.table.db.seats(GAME_ID)] == [host, stranger]
