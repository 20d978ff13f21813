"""`/leaderboard`, `/stats` and `/history` through the fake-Discord harness (real discord.py, real bot)."""

from __future__ import annotations

import json
import os
from typing import Any

from harness import EPHEMERAL, GUILD_ID, Harness
from harness.play import play_to_end
from storage import Database

GAME_ID = 1
DUMP = bool(os.environ.get("DUMP_EMBEDS"))  # show the answers when looking at them by hand


def answer(responses: list[dict[str, Any]]) -> dict[str, Any]:
    """The one ephemeral message a command answered with."""
    assert len(responses) == 1, responses
    [response] = responses
    assert response["type"] in (4, 7), response
    if response["type"] == 4:
        assert response["data"]["flags"] & EPHEMERAL, response
    return response


def embed(responses: list[dict[str, Any]]) -> dict[str, Any]:
    return dict(answer(responses)["data"]["embeds"][0])


async def slash_about(h: Harness, caller: int, command: str, target: int) -> list[dict[str, Any]]:
    """A command with a `user` option: Discord sends the chosen user in `resolved`."""
    inner = {
        "id": str(h.fake.snowflake()),
        "name": command,
        "type": 1,
        "options": [{"name": "user", "type": 6, "value": str(target)}],
        "resolved": {"users": {str(target): h.fake.users[target]}},
    }
    payload, token = h._payload(caller, 2, inner, h.channel, None)
    return await h._feed(payload, token)


async def finished(db: Database, players: list[int], ranks: list[int], guild: int = GUILD_ID) -> None:
    row = await db.create_game(
        guild_id=guild,
        channel_id=55,
        game_key="eggs-empires",
        options={},
        host_id=players[0],
        seed=1,
        turn_seconds=None,
    )
    assert row.id is not None
    await db.set_seats(row.id, [{"seat": i, "user_id": u, "name": f"N{u}"} for i, u in enumerate(players)])
    await db.start_game(row.id, {"x": 1}, None)
    await db.finish_game(
        row.id,
        "finished",
        [
            {"seat": i, "user_id": u, "ai_level": None, "rank": ranks[i], "score": 10 - ranks[i], "breakdown": {}}
            for i, u in enumerate(players)
        ],
    )


async def test_an_empty_server_says_so_everywhere(harness: Harness) -> None:
    h = harness
    alice = h.user("Alice")
    board = embed(await h.slash(alice, "leaderboard", game="eggs-empires"))
    assert "Nobody has finished a rated game of Eggs and Empires here yet." in board["description"]
    assert "leaderboard (This server)" in board["title"]
    stats = await h.slash(alice, "stats")
    assert embed(stats)["description"] == "You have not finished a game here yet."
    assert not answer(stats)["files"]  # no chart without games
    assert embed(await h.slash(alice, "history"))["description"] == "You have not finished a game here yet."
    world = embed(await h.slash(alice, "leaderboard", game="reggverse-riddles", scope="global"))
    assert "Nobody has finished a rated game of Reggverse Riddles here yet." in world["description"]


async def test_a_played_game_shows_on_every_command(harness: Harness) -> None:
    h = harness
    alice = h.user("Alice")
    await h.slash(alice, "game new", game="eggs-empires", timer=0)
    await h.click(alice, h.find_button(h.channel, "Add AI"))
    await h.click(alice, h.find_button(h.channel, "Start"))
    await play_to_end(h, GAME_ID, [alice])
    assert h.bot is not None
    results = await h.bot.db.results(GAME_ID)
    mine = next(r for r in results if r.user_id == alice)
    [thread] = h.threads()

    board = embed(await h.slash(alice, "leaderboard", game="eggs-empires"))
    assert f"<@{alice}>" in board["description"] and "AI (easy)" not in board["description"]
    assert "AI (easy)" in board["fields"][0]["value"], "AI levels are listed apart from people"
    assert "1 game" in board["description"] and "Page 1 of 1" in board["footer"]["text"]
    world = embed(await h.slash(alice, "leaderboard", game="eggs-empires", scope="global"))
    assert "(Global)" in world["title"] and f"<@{alice}>" in world["description"]

    stats_responses = await h.slash(alice, "stats")
    stats = embed(stats_responses)
    assert stats["title"] == "Stats: Alice (This server)"
    [field, last] = stats["fields"]
    assert field["name"] == "Eggs and Empires"
    assert "Rating **" in field["value"] and "over the last game)" in field["value"]
    assert f"1 game · {1 if mine.rank == 1 else 0} win" in field["value"]
    best = int(mine.score) if mine.score == int(mine.score) else mine.score
    assert f"best {best}" in field["value"]
    assert "Favourite plays: " in field["value"] and "×" in field["value"]  # Adventurers she played
    assert last["name"] == "Last results" and f"#{mine.rank} of 2" in last["value"]
    assert answer(stats_responses)["files"] == ["rating.png"]
    assert stats["image"]["url"] == "attachment://rating.png"
    if DUMP:
        print(json.dumps(stats, indent=1, ensure_ascii=False), json.dumps(board, indent=1, ensure_ascii=False))

    history = embed(await h.slash(alice, "history"))
    assert f"https://discord.com/channels/{GUILD_ID}/{thread}" in history["description"]
    assert "Eggs and Empires" in history["description"] and "Alice" in history["description"]


async def test_pages_turn_keep_the_callers_row_and_survive_a_restart(harness: Harness) -> None:
    h = harness
    zed = h.user("Zed")
    assert h.bot is not None
    others = list(range(100, 124))  # 24 players who each beat Zed once: Zed is 25th of 25
    for other in others:
        await finished(h.bot.db, [other, zed], [1, 2])
    first = embed(await h.slash(zed, "leaderboard", game="eggs-empires"))
    assert "Page 1 of 3" in first["footer"]["text"]
    lines = first["description"].splitlines()
    assert lines[0].startswith("**1.** <@100>") and lines[9].startswith("**10.** <@109>")
    assert lines[-1].startswith(f"You: **25.** <@{zed}>") and "24 games" in lines[-1] and "0 wins" in lines[-1]

    message = h.ephemerals(zed)[-1]
    next_id = "lbd:eggs-empires:s:1"
    assert [c["custom_id"] for c in h.components(message)] == ["lbd:eggs-empires:s:0", next_id]
    assert h.components(message)[0]["disabled"] is True  # no page before the first
    second = embed(await h.click(zed, next_id, message=message))
    assert "Page 2 of 3" in second["footer"]["text"] and second["description"].startswith("**11.** <@110>")
    assert "You: **25.**" in second["description"]

    await h.restart()  # the buttons carry ids only: they still work on a new bot object
    message = h.ephemerals(zed)[-1]
    third = embed(await h.click(zed, "lbd:eggs-empires:s:2", message=message))
    assert "Page 3 of 3" in third["footer"]["text"]
    assert f"**25.** <@{zed}>" in third["description"] and "You:" not in third["description"]

    # Someone without a rating sees the board and is told so.
    newcomer = h.user("New")
    board = embed(await h.slash(newcomer, "leaderboard", game="eggs-empires"))
    assert board["description"].endswith("You have no rating here yet: finish a game to get one.")


async def test_other_users_unknown_users_and_forged_buttons(harness: Harness) -> None:
    h = harness
    alice, bob, stranger = h.user("Alice"), h.user("Bob"), h.user("Stranger")
    assert h.bot is not None
    await finished(h.bot.db, [alice, bob], [1, 2])
    await finished(h.bot.db, [alice, bob], [1, 2], guild=GUILD_ID + 1)  # another server: not shown here
    about_bob = embed(await slash_about(h, alice, "stats", bob))
    assert about_bob["title"] == "Stats: Bob (This server)"
    assert "1 game · 0 wins" in about_bob["fields"][0]["value"]
    assert "Global rating" in about_bob["fields"][0]["value"]
    assert embed(await slash_about(h, alice, "stats", stranger))["description"] == (
        "Stranger has not finished a game here yet."
    )
    assert embed(await slash_about(h, alice, "history", stranger))["description"] == (
        "Stranger has not finished a game here yet."
    )
    history = embed(await slash_about(h, bob, "history", alice))
    assert len(history["description"].splitlines()) == 1 and "N" + str(bob) in history["description"]

    board = await h.slash(alice, "leaderboard", game="eggs-empires")
    message = h.ephemerals(alice)[-1]

    def carrying(custom_id: str) -> dict[str, Any]:
        return {
            **message,
            "components": [{"type": 1, "components": [{"type": 2, "style": 2, "label": "x", "custom_id": custom_id}]}],
        }

    for forged in ("lbd:nope:s:1", "lbd:eggs-empires:x:1", "lbd:eggs-empires:s:-1", "lbd:"):
        refused = answer(await h.click(alice, forged, message=carrying(forged)))
        assert refused["data"]["content"] == "That button is not valid.", forged
    assert board  # the real board answered before
    far_id = "lbd:eggs-empires:s:99"
    far = embed(await h.click(alice, far_id, message=carrying(far_id)))  # past the end: the last page
    assert "Page 1 of 1" in far["footer"]["text"]


def test_favourite_plays_are_named_in_the_readers_language() -> None:
    """/stats names a player's favourite plays as the game's renderer names them in the reader's language:
    Eggs and Empires' Adventurers by the Italian rulebook's names (the French rulebook keeps the English
    ones), Eight-Minute Empire's cards by their catalog names (issue 36.3)."""
    from datetime import UTC, datetime

    from bot.messages.leaderboards import favourite_plays
    from storage.ladder import PlayedGame

    def played(key: str, plays: dict[str, int]) -> PlayedGame:
        return PlayedGame(1, key, None, 1, None, datetime.now(UTC), 0, 1, 10.0, None, plays)

    eggs = [played("eggs-empires", {"Bard (1)": 3, "Blacksmith (8)": 2})]
    assert favourite_plays(eggs, "eggs-empires", "it") == "Bardo (1) ×3 e Fabbro (8) ×2"
    assert favourite_plays(eggs, "eggs-empires", "en") == "Bard (1) ×3 and Blacksmith (8) ×2"
    assert "Blacksmith (8)" in (favourite_plays(eggs, "eggs-empires", "fr") or "")
    eme = [played("eight-minute-empire", {"Night Wizard": 2})]
    assert favourite_plays(eme, "eight-minute-empire", "it") == "Stregone della Notte ×2"
    assert favourite_plays(eme, "eight-minute-empire", "fr") == "Sorcier de la Nuit ×2"
