"""A restart shows the players exactly what they were owed (issue 23): what Discord confirmed is recorded
(table.delivery), so start-up sends nothing for a game whose players saw everything, and a game that
ended while its ending was never shown gets its result, final table and DMs, once."""

from __future__ import annotations

import asyncio
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.app.tree import COMMANDS_DIGEST, commands_digest
from bot.render.kit.pool import PICTURES
from fakediscord.fake_discord import APP_ID, GUILD_ID
from harness import Harness
from harness.fault_play import log_shown
from harness.play import decide_from_message, play_to_end

GAME_ID = 1


def results_in(h: Harness, thread: int) -> list[dict[str, Any]]:
    return [
        m for m in h.messages_in(thread) if any(c.get("custom_id", "").startswith("rematch:") for c in h.components(m))
    ]


def requests_since(h: Harness, mark: int) -> list[str]:
    """The REST calls since `mark`, as "METHOD path", the bot's start-up (gateway, commands) left out."""
    return [
        f"{c.method} {c.path}"
        for c in h.calls_since(mark)
        if not c.path.startswith(("/gateway", "/applications", "/oauth2", "/users/@me"))
    ]


async def two_players(h: Harness, *, ai: bool) -> tuple[int, int]:
    """Alice and Bob (and an AI seat) start a game of Eggs and Empires without a turn timer."""
    alice, bob = h.user("Alice"), h.user("Bob")
    await h.slash(alice, "game new", game="eggs-empires", timer=0)
    await h.click(bob, h.find_button(h.channel, "Join"))
    if ai:
        await h.click(alice, h.find_button(h.channel, "Add AI"))
    await h.click(alice, h.find_button(h.channel, "Start"))
    return alice, bob


async def test_a_game_ended_just_before_a_kill_gets_its_result_final_table_and_dms_once(harness: Harness) -> None:
    h = harness
    alice, bob = await two_players(h, ai=True)
    assert h.bot is not None
    notifier = h.bot.table.notifier
    publish = notifier.publish

    async def killed_at_the_end(update: Any) -> None:
        if update.outcome is not None:
            return None  # the commit that ended the game is done; the process dies before showing it
        await publish(update)

    notifier.publish = killed_at_the_end  # type: ignore[method-assign]
    await play_to_end(h, GAME_ID, [alice, bob])
    await h.settle()
    [thread] = h.threads()
    assert results_in(h, thread) == []
    row = await h.bot.table.db.get_game(GAME_ID)
    assert row is not None and row.status == "finished" and row.delivered is None, "owed its ending"
    table_id = int(h.messages_in(thread)[0]["id"])
    last_dms = {user: h.dms(user)[-1]["content"] for user in (alice, bob)}
    # The last to decide saw the end in the answer to their click; the other was never shown it.
    assert not all("Game over" in (text or "") for text in last_dms.values()), last_dms

    mark = len(h.fake.calls)
    await h.restart()
    await h.settle()
    assert h.bot is not None
    await h.bot.table.repaired()
    await h.bot.notifier.idle()
    assert len(results_in(h, thread)) == 1, "the result is posted once"
    sent = requests_since(h, mark)
    assert sent.count(f"PATCH /channels/{thread}/messages/{table_id}") == 1, sent  # the final table, once
    for user in (alice, bob):
        over = [m for m in h.dms(user) if "Game over: place " in (m["content"] or "")]
        assert len(over) == 1, (user, [m["content"] for m in h.dms(user)])
    await h.bot.table.delivery.flush()  # (what waits for the next batch of marks)
    row = await h.bot.table.db.get_game(GAME_ID)
    assert row is not None and row.delivered == row.version, "delivered: owed nothing now"

    mark = len(h.fake.calls)
    await h.restart()  # nothing is owed: a second start-up sends nothing at all
    await h.settle()
    await h.bot.table.repaired()
    assert requests_since(h, mark) == []
    assert len(results_in(h, thread)) == 1


async def test_after_a_clean_stop_a_restart_sends_nothing(harness: Harness) -> None:
    h = harness
    alice, bob = await two_players(h, ai=False)
    for user in (alice, bob):  # the mulligan: both decide, the first turn's prompts go out
        assert await decide_from_message(h, user, h.dms(user)[-1])
    await h.settle()
    assert h.bot is not None
    await h.bot.notifier.idle()
    mark = len(h.fake.calls)
    await h.restart()
    await h.settle()
    await h.bot.table.repaired()
    assert requests_since(h, mark) == [], "every player saw everything: nothing is owed"
    # ... and the game plays on from the buttons sent before the restart.
    for user in (alice, bob):
        assert await decide_from_message(h, user, h.dms(user)[-1])


def command_pushes(h: Harness) -> list[str]:
    return [c.path for c in h.fake.calls if c.method == "PUT" and c.path.endswith("/commands")]


async def test_the_commands_are_pushed_only_when_they_changed(harness: Harness) -> None:
    h = harness
    assert len(command_pushes(h)) == 1, "a first start pushes the commands"
    await h.restart()
    assert len(command_pushes(h)) == 1, "the same commands: not pushed again"
    assert h.bot is not None
    await h.bot.db.set_bot_state(COMMANDS_DIGEST, "the digest of older commands")
    await h.restart()
    assert len(command_pushes(h)) == 2, "other commands than those pushed last: pushed"
    await h.restart()
    assert len(command_pushes(h)) == 2


async def test_the_commands_digest_follows_what_a_push_would_send(harness: Harness) -> None:
    assert harness.bot is not None
    tree = harness.bot.tree
    before = commands_digest(tree, None, APP_ID)
    assert commands_digest(tree, None, APP_ID) == before
    assert commands_digest(tree, discord.Object(GUILD_ID), APP_ID) != before, "elsewhere"
    assert commands_digest(tree, None, APP_ID + 1) != before, "another application"
    command = tree.get_commands()[0]
    command.description = command.description + "!"
    assert commands_digest(tree, None, APP_ID) != before, "a command that changed"


async def test_the_worker_processes_start_beside_the_connection_not_before_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = threading.Event()
    started: list[tuple[int, int]] = []

    def slow_start(workers: int, memory_mb: int) -> None:  # a forkserver starting on a busy machine
        release.wait(10)
        started.append((workers, memory_mb))

    monkeypatch.setattr(PICTURES, "start", slow_start)
    h = await Harness.start(tmp_path / "bot.sqlite3", render_workers=3, render_worker_memory_mb=48)
    try:
        assert started == [], "the bot logged in and took its first events while the workers were starting"
        release.set()
        for _ in range(200):
            if started:
                break
            await asyncio.sleep(0.01)
        assert started == [(3, 48)], "with the settings' workers and the memory each keeps"
    finally:
        release.set()
        await h.close()


async def test_a_game_abandoned_just_before_a_kill_says_so_once_after_the_restart(harness: Harness) -> None:
    h = harness
    alice, _bob = await two_players(h, ai=False)
    [thread] = h.threads()
    assert h.bot is not None
    await h.bot.notifier.idle()

    async def killed_before_showing(update: Any) -> None:
        return None  # the abandonment is committed; the process dies before showing any of it

    h.bot.table.notifier.publish = killed_before_showing  # type: ignore[method-assign]
    await h.slash(alice, "game abandon", channel=thread)  # (its answer goes to Alice alone)
    await h.settle()
    assert "The game was abandoned." not in log_shown(h, thread)
    assert h.components(h.messages_in(thread)[0]) != [], "nothing of it was shown"

    for _ in range(2):  # the second start finds it delivered: nothing more
        await h.restart()
        await h.settle()
        await h.bot.table.repaired()
        await h.bot.notifier.idle()
        assert log_shown(h, thread).count("The game was abandoned.") == 1, "the thread's log says it, once"
        assert h.components(h.messages_in(thread)[0]) == [], "and the table lost its buttons"


async def test_a_game_abandoned_by_the_turn_timer_just_before_a_kill_says_why_after_the_restart(
    harness: Harness,
) -> None:
    """Every player away: the turn timer abandons the game; killed before it was shown, the restart says
    that everyone was away (not that somebody abandoned it)."""
    h = harness
    alice, bob = h.user("Alice"), h.user("Bob")
    await h.slash(alice, "game new", game="eggs-empires")  # with its turn timer
    await h.click(bob, h.find_button(h.channel, "Join"))
    await h.click(alice, h.find_button(h.channel, "Start"))
    [thread] = h.threads()
    assert h.bot is not None
    await h.bot.notifier.idle()

    async def killed_before_showing(update: Any) -> None:
        return None  # committed; never shown

    h.bot.table.notifier.publish = killed_before_showing  # type: ignore[method-assign]
    clock = datetime.now(UTC)
    for _ in range(40):  # reminders and deadlines until the AI stands in for both, then the timer gives up
        clock += timedelta(minutes=10)
        await h.tick(clock)
        row = await h.bot.table.db.get_game(GAME_ID)
        assert row is not None
        if row.status != "active":
            break
    assert row.status == "abandoned"
    assert "Every player is away" not in log_shown(h, thread)

    await h.restart()
    await h.settle()
    await h.bot.table.repaired()
    await h.bot.notifier.idle()
    shown = log_shown(h, thread)
    assert shown.count("Every player is away: the game was abandoned.") == 1, shown
    assert "The game was abandoned." not in shown
