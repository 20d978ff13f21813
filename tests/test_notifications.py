"""Exactly one notification per awaited decision (the table-experience issue, points 1 and 5).

Whole games with three humans and an AI: Alice takes the default (a new DM with each prompt), Bob
chose `/game settings notifications: mention`, Carol has closed DMs and plays from her ephemeral hand.
From every request the bot made, in order, each player's timeline of notifications (a new message
that notifies them: a DM post without Discord's "suppress notifications" flag, or a thread message
mentioning them) and of their own clicks is rebuilt, and checked: before their first decision exactly
one notification; between two decisions none if the answer to the first showed their next prompt,
else exactly one. Carol is served by her ephemeral hand refreshed through her latest click's token:
she clicks "Show my hand" once. And each DM holds one live prompt at any time.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.delivery.preferences import DM, MENTION, OFF, NotificationModes
from bot.render.kit.pool import AGAIN, CLICK, NOTIFICATION, PICTURES, PROMPT, PictureJob
from fakediscord.fake_discord import Call
from harness import EPHEMERAL, Harness
from harness.pictures import Pictures
from harness.play import choice_components, decide_from_message, play_to_end
from storage import Database

SUPPRESS_NOTIFICATIONS = 4096
GAME_ID = 1


@dataclass
class Timeline:
    """One player's notifications and decisions, in order: "N" (notified), "P" (a decision whose answer
    showed their next prompt), "D" (a decision whose answer showed none)."""

    events: list[str] = field(default_factory=list)

    def problems(self) -> list[str]:
        found = []
        since = 0  # notifications since the last decision
        expected = 1  # before the first decision: the game's first prompt
        for n, event in enumerate(self.events):
            if event == "N":
                since += 1
                continue
            if since != expected:
                found.append(f"decision {n}: {since} notifications before it, {expected} expected")
            since = 0
            expected = 0 if event == "P" else 1
        if since > expected:
            found.append(f"{since} notifications after the last decision")
        return found


def _mentions(call: Call, user: int) -> bool:
    body = call.json or {}
    return f"<@{user}>" in str(body.get("content") or "")


def timelines(h: Harness, users: list[int]) -> dict[int, Timeline]:
    """Each user's timeline, from the fake's record of every request (see the module)."""
    fake = h.fake
    lines = {user: Timeline() for user in users}
    dm_of = {fake.dm_channel_of(user): user for user in users}
    threads = set(h.threads()) | {h.channel}
    deferred: dict[str, int] = {}  # token of a deferred decision -> its user
    for call in fake.calls:
        if call.status >= 300:
            continue
        parts = call.path.strip("/").split("/")
        body = call.json or {}
        if parts[0] == "interactions":
            token = parts[2]
            source = fake.interaction_sources.get(token, {})
            user = source.get("user_id")
            data = body.get("data") or {}
            custom_id = _clicked(fake, token)
            if user not in lines or not custom_id.startswith(("g:", "gs:")):
                continue
            if body.get("type") == 6:
                deferred[token] = user
            elif body.get("type") == 7:
                lines[user].events.append("P" if choice_components(data) else "D")
            continue
        if parts[0] == "webhooks" and len(parts) >= 3:
            token = parts[2]
            if call.method == "PATCH" and token in deferred:
                lines[deferred.pop(token)].events.append("P" if choice_components(body) else "D")
                continue
            if call.method != "POST":
                continue
            channel = fake.interaction_sources.get(token, {}).get("channel_id")
        elif parts[0] == "channels" and len(parts) == 3 and parts[2] == "messages" and call.method == "POST":
            channel = int(parts[1])
        else:
            continue
        if int(body.get("flags") or 0) & (EPHEMERAL | SUPPRESS_NOTIFICATIONS):
            continue
        if channel in dm_of:
            lines[dm_of[channel]].events.append("N")
        elif channel in threads:
            for user in users:
                if _mentions(call, user):
                    lines[user].events.append("N")
    return lines


def _clicked(fake: Any, token: str) -> str:
    """The custom_id an interaction clicked (from the payload the harness made for it)."""
    return str(fake.interaction_sources.get(token, {}).get("custom_id") or "")


@pytest.mark.parametrize("game", ["eight-minute-empire", "eggs-empires"])
async def test_one_notification_per_awaited_decision_and_none_after_ones_own_click(harness: Harness, game: str) -> None:
    h = harness
    alice, bob, carol = h.user("Alice"), h.user("Bob"), h.user("Carol", dm_closed=True)
    users = [alice, bob, carol]
    answer = await h.slash(bob, "game settings", notifications="mention")
    assert "mention" in answer[-1]["data"]["content"]
    await h.slash(alice, "game new", game=game, timer=0)
    for user in (bob, carol):
        await h.click(user, h.find_button(h.channel, "Join"))
    await h.click(alice, h.find_button(h.channel, "Add AI"))
    await h.click(alice, h.find_button(h.channel, "Start"))
    rng = random.Random(7)
    hand_clicks = 0
    for _step in range(3000):
        assert h.bot is not None
        row = await h.bot.table.db.get_game(GAME_ID)
        assert row is not None
        if row.status != "active":
            break
        progressed = False
        for user in (alice, bob):
            dms = h.dms(user)
            assert len([m for m in dms if choice_components(m)]) <= 1, "one live prompt in the DM"
            if dms and await decide_from_message(h, user, dms[-1], index=rng.randrange(10_000)):
                progressed = True
        hands = [m for m in h.ephemerals(carol) if choice_components(m)]
        if not hands and not progressed:
            await h.click(carol, f"hand:{GAME_ID}")
            hand_clicks += 1
            hands = [m for m in h.ephemerals(carol) if choice_components(m)]
        if hands and await decide_from_message(h, carol, hands[-1], index=rng.randrange(10_000)):
            progressed = True
        assert progressed or hands, "somebody could play"
    else:
        raise AssertionError("the game did not end")
    found = timelines(h, users)
    print(f"\n{game}: " + "; ".join(f"{n} {''.join(found[u].events)}" for u, n in zip(users, "ABC", strict=True)))
    for user, name in zip(users, ("Alice", "Bob", "Carol"), strict=True):
        assert found[user].events.count("P") + found[user].events.count("D") > 3, name
        assert found[user].problems() == [], (name, found[user].events)
    assert hand_clicks <= 1, "Carol is served by her hand refreshed through her latest click"
    assert h.errors == []


async def _two_player_game(h: Harness, alice: int, bob: int) -> None:
    await h.slash(alice, "game new", game="eggs-empires", timer=0)
    await h.click(bob, h.find_button(h.channel, "Join"))
    await h.click(alice, h.find_button(h.channel, "Start"))


async def _round(h: Harness, users: list[int]) -> None:
    """Each player with a prompt in their DM decides once (somebody does)."""
    decided = [await decide_from_message(h, user, h.dms(user)[-1]) for user in users]
    assert any(decided)


async def test_off_edits_the_prompt_in_place_and_never_notifies(harness: Harness) -> None:
    h = harness
    alice, bob = h.user("Alice"), h.user("Bob")
    answer = await h.slash(bob, "game settings", notifications="off")
    assert "not told" in answer[-1]["data"]["content"]
    assert "not told" in (await h.slash(bob, "game settings"))[-1]["data"]["content"], "said again when asked"
    await _two_player_game(h, alice, bob)
    [first] = h.dms(bob)
    for _ in range(4):
        await _round(h, [alice, bob])
    assert [m["id"] for m in h.dms(bob)] == [first["id"]], "one message, edited in place"
    found = timelines(h, [alice, bob])
    assert "N" not in found[bob].events and len(found[bob].events) >= 3
    assert found[alice].problems() == []


async def test_an_expired_token_falls_back_to_the_bots_own_routes(harness: Harness) -> None:
    h = harness
    alice, bob = h.user("Alice"), h.user("Bob")
    await _two_player_game(h, alice, bob)
    await _round(h, [alice, bob])
    assert await decide_from_message(h, alice, h.dms(alice)[-1])
    mark = len(h.fake.calls)
    later = h.fake.clock() + 16 * 60
    h.fake.clock = lambda: later  # 16 minutes later (on Discord's clock): every token so far is dead
    assert await decide_from_message(h, bob, h.dms(bob)[-1])  # Alice's next prompt: her token is dead
    calls = h.calls_since(mark)
    dm = h.fake.dm_channel_of(alice)
    refused = [c for c in calls if c.status == 401]
    posted = [c for c in calls if c.via == "http" and c.method == "POST" and c.path == f"/channels/{dm}/messages"]
    deleted = [c for c in calls if c.via == "http" and c.method == "DELETE" and c.path.startswith(f"/channels/{dm}/")]
    assert refused and posted and deleted, [(c.method, c.path, c.status) for c in calls]
    assert len([m for m in h.dms(alice) if choice_components(m)]) == 1
    assert timelines(h, [alice])[alice].problems() == []
    # The dead token is forgotten: the next prompt goes straight through the bot's routes.
    mark = len(h.fake.calls)
    await _round(h, [alice, bob])
    assert not [c for c in h.calls_since(mark) if c.status == 401 and f"/{dm}/" in c.path]
    assert h.errors == []


async def test_the_choice_is_stored_per_user_and_survives_a_reopen(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'users.sqlite3'}"
    db = await Database.open(url)
    try:
        modes = NotificationModes(db)
        assert await db.get_user_notifications(1) is None and await modes.of(1) == DM
        await modes.set(1, MENTION)
        await modes.set(2, OFF)
        await modes.set(1, OFF)  # an upsert, not a second row
        assert (await db.get_user_notifications(1), await db.get_user_notifications(2)) == (OFF, OFF)
        with pytest.raises(ValueError):
            await modes.set(3, "carrier pigeon")
    finally:
        await db.close()
    db = await Database.open(url)
    try:
        assert await NotificationModes(db).of(1) == OFF
        # Shared with other processes: a choice read is trusted for a while, then read again.
        now = [0.0]
        shared = NotificationModes(db, ttl=60.0, clock=lambda: now[0])
        assert await shared.of(2) == OFF
        await db.set_user_notifications(2, MENTION)  # another process changed it
        assert await shared.of(2) == OFF
        now[0] = 61.0
        assert await shared.of(2) == MENTION
    finally:
        await db.close()


async def test_an_unchanged_picture_keeps_its_attachment_and_none_is_uploaded_twice(harness: Harness) -> None:
    """Eight-Minute Empire draws its map on the table and in the deciding player's DM, and many decisions
    (bids, picking a card, steps of an action) leave it as it was: a whole game's edits upload a picture
    only when it changed (Discord keeps the attachment named by id otherwise), never the same bytes to
    one message (what a message shows now: a picture it showed before and changed back to is uploaded again,
    as Discord dropped that attachment when the picture changed)."""
    h = harness
    pictures = Pictures(h.fake)
    alice, bob = h.user("Alice"), h.user("Bob")
    await h.slash(alice, "game new", game="eight-minute-empire", timer=0)
    await h.click(bob, h.find_button(h.channel, "Join"))
    await h.click(alice, h.find_button(h.channel, "Start"))
    mark = len(h.fake.calls)
    await play_to_end(h, GAME_ID, [alice, bob], rng=random.Random(3))
    calls = h.calls_since(mark)
    assert h.bot is not None
    assert h.bot.notifier.pictures.kept > 20, "edits kept their attachment"
    kept = [c for c in calls if not c.uploads and any(a.get("id") for a in (_body(c).get("attachments") or []))]
    assert kept and sum(c.reuploads for c in calls) == 0
    # What the fake shows is what the bot drew: the table's picture is the last one uploaded for it.
    [thread] = h.threads()
    table = h.messages_in(thread)[0]
    assert len(pictures.of(table)) == 1 and len(table["attachments"]) == 1
    assert h.errors == []


def _body(call: Call) -> dict[str, Any]:
    """A request's message fields (an interaction callback carries them under "data")."""
    body = call.json or {}
    return body.get("data") or {} if call.path.endswith("/callback") else body


async def test_a_players_prompt_is_drawn_before_tables_and_other_notifications(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under a full picture pool a player's prompt is not held behind other games' tables (bot.render.kit.pool's
    priorities): a seat's message asking them to decide is drawn as PROMPT, a table as a notification."""
    h = harness
    drawn: list[tuple[str, bool, int]] = []  # (method, does the seat's picture show a prompt, priority)
    draw = PICTURES.draw

    async def recording(job: PictureJob, **kwargs: Any) -> bytes | None:
        asks = job.method == "seat_image" and job.args[1] is not None
        drawn.append((job.method, asks, kwargs.get("priority", NOTIFICATION)))
        return await draw(job, **kwargs)

    monkeypatch.setattr(PICTURES, "draw", recording)
    alice, bob = h.user("Alice"), h.user("Bob")
    await h.slash(alice, "game new", game="eight-minute-empire", timer=0)
    await h.click(bob, h.find_button(h.channel, "Join"))
    await h.click(alice, h.find_button(h.channel, "Start"))
    for _ in range(6):  # a few turns each, from the DMs
        for user in (alice, bob):
            for dm in h.dms(user):
                await decide_from_message(h, user, dm)
    assert h.bot is not None
    await h.bot.notifier.idle()
    notified = [(method, asks, p) for method, asks, p in drawn if p != CLICK]  # (a click's answer goes first)
    prompts = [p for method, asks, p in notified if method == "seat_image" and asks]
    tables = [p for method, _asks, p in notified if method == "image"]
    assert prompts and tables, drawn
    assert set(prompts) == {PROMPT}, "each prompt sent to a player is drawn before waiting tables"
    assert set(tables) <= {AGAIN, NOTIFICATION}
