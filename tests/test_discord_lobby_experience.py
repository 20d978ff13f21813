"""The lobby and the commands as a new user meets them (issue 21.7, 21.8): every variant settable with
friendly names, timers from a minute to three days, `/game new` refused in a thread, `/game hand` for
spectators, and leaderboards that can be posted for the channel with AI levels apart from people."""

from __future__ import annotations

import json
from typing import Any

import pytest

import games
from bot.messages import guide, present
from bot.messages.leaderboards import display_rating
from bot.render import renderer_for
from bot.texts import i18n
from harness import EPHEMERAL, GUILD_ID, Harness
from table import MAX_TURN_SECONDS, TableError

GAME_ID = 1


def lobby_message(h: Harness) -> dict[str, Any]:
    return h.messages_in(h.channel)[0]


def selects(message: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The message's selects by the option they set (custom_id lo:GAME:OPTION)."""
    return {c["custom_id"].split(":", 2)[2]: c for c in Harness.components(message) if c["type"] == 3}


@pytest.mark.parametrize("key", games.keys())
async def test_every_variant_of_every_game_is_settable_from_the_lobby_by_its_friendly_name(
    harness: Harness, key: str
) -> None:
    h = harness
    host = h.user("Host")
    await h.slash(host, "game new", game=key)
    engine = games.get(key)
    lobby = lobby_message(h)
    inline = selects(lobby)
    assert "turn_seconds" in inline
    if len(engine.options) <= present.INLINE_VARIANTS:
        panel = lobby
    else:  # the lobby offers a "Variants" button that opens every variant's select, for the host
        await h.click(host, h.find_button(h.channel, "Variants"))
        panel = h.ephemerals(host)[-1]
    offered = selects(panel)
    assert {o.name for o in engine.options} <= set(offered)
    for option in engine.options:
        shown = offered[option.name]
        name = guide.option_name(key, option, "en")
        # Each value is offered as "Friendly name: friendly value", never the engine's raw identifiers.
        labels = [o["label"] for o in shown["options"]]
        assert all(label.startswith(f"{name}: ") for label in labels), labels
        assert not any("_" in label for label in labels), labels
        other = next(v for v in option.values if v != option.default)
        await h.select(host, shown["custom_id"], [str(other)], message=panel)
        if panel is not lobby:
            panel = h.ephemerals(host)[-1]  # the panel answers with the new value selected
        assert h.bot is not None
        row = await h.bot.table.db.game_row(GAME_ID)
        assert row is not None and row.options[option.name] == other
        # The lobby message everybody sees says the new value by its friendly name.
        described = json.dumps(lobby_message(h)["embeds"], ensure_ascii=False)
        assert f"**{name}**: {guide.option_value(other, 'en', key, option)}" in described
    assert h.errors == []


def test_every_game_names_each_variant_and_its_values_in_three_languages() -> None:
    for key in games.keys():
        renderer = renderer_for(key)
        for option in games.get(key).options:
            assert option.name in renderer.option_names, (key, option.name)
            for value in option.values:
                if isinstance(value, str):  # words the engine uses as identifiers: each gets a name
                    assert str(value) in renderer.value_names.get(option.name, {}), (key, option.name, value)
            for lang in ("it", "fr"):
                assert i18n.translated(lang, renderer.option_names[option.name]), (key, option.name, lang)
        assert len(games.get(key).options) <= 5, "the variants panel holds five selects"


async def test_timers_run_from_a_minute_to_three_days_and_read_in_minutes_and_hours(harness: Harness) -> None:
    h = harness
    host = h.user("Host")
    await h.slash(host, "game new", game="eggs-empires", timer=259_200)
    labels = {o["value"]: o["label"] for o in selects(lobby_message(h))["turn_seconds"]["options"]}
    assert labels["60"] == "1 min per decision"
    assert labels["3600"] == "1 h per decision"
    assert {"43200", "86400", "259200"} <= set(labels)
    assert "72 h per decision" in json.dumps(lobby_message(h)["embeds"])
    assert present.timer_text(90) == "90 s per decision"
    assert i18n.t("fr", *present.timer_template(43_200)[:1], hours=12) == present.timer_text(43_200, "fr")
    assert MAX_TURN_SECONDS >= 259_200
    assert h.bot is not None
    with pytest.raises(TableError):
        await h.bot.table.set_option(GAME_ID, host, "turn_seconds", MAX_TURN_SECONDS + 1)


async def test_a_game_thread_refuses_a_new_lobby_and_points_at_the_channel(harness: Harness) -> None:
    h = harness
    alice, bob, carol = h.user("Alice"), h.user("Bob"), h.user("Carol")
    await h.slash(alice, "game new", game="eggs-empires", timer=0)
    await h.click(bob, h.find_button(h.channel, "Join"))
    await h.click(alice, h.find_button(h.channel, "Start"))
    [thread] = h.threads()
    await h.slash(bob, "game new", game="reggverse-riddles", channel=thread)
    refusal = h.ephemerals(bob)[-1]
    assert f"<#{h.channel}>" in refusal["content"] and int(refusal["flags"]) & EPHEMERAL
    assert h.threads() == [thread]
    assert h.bot is not None
    assert await h.bot.table.db.game_row(GAME_ID + 1) is None
    # A spectator asking for their hand in the game's thread is told they do not play in it.
    await h.slash(carol, "game hand", channel=thread)
    assert "not playing in this game" in h.ephemerals(carol)[-1]["content"]


async def test_a_leaderboard_can_be_posted_for_the_channel_with_ai_levels_apart(harness: Harness) -> None:
    h = harness
    alice = h.user("Alice")
    assert h.bot is not None
    await h.bot.db.save_ratings(
        [
            {"guild_id": GUILD_ID, "game_key": "eggs-empires", "user_id": uid, "games": 1, "wins": 0, **r}
            for uid, r in ((alice, {"mu": 20.0, "sigma": 7.0}), (-1, {"mu": 30.0, "sigma": 2.0}))
        ]
    )
    before = len(h.messages_in(h.channel))
    await h.slash(alice, "leaderboard", game="eggs-empires", public=True)
    posted = h.messages_in(h.channel)
    assert len(posted) == before + 1, "posted in the channel, not only to the caller"
    [board] = posted[-1]["embeds"]
    assert f"<@{alice}>" in board["description"] and "AI" not in board["description"]
    [ai_field] = board["fields"]
    assert "AI (easy)" in ai_field["value"]
    # Ratings read from 1,000 for a newcomer and never below 0.
    assert display_rating(0.0) == 1000 and display_rating(-3.3) == 918 and display_rating(-1000.0) == 0
    assert f"**{display_rating(20.0 - 21.0)}**" in board["description"].replace(",", "")
