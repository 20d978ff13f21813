"""A real SIGKILL of a bot process between the commit that ends a game and the post of its result (issue
23): after the restart the result, the final table and each player's last DM are there exactly once."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bench.restart import build, owed_now
from fakediscord.loopback import Loopback
from harness.play import choice_components, decide_from_message
from harness.run_bot import BotProcess
from storage import Database

GAME_ID = 1


def results(lb: Loopback, thread: int) -> list[dict[str, Any]]:
    """The thread's result messages (the one with the rematch button)."""
    return [
        m
        for m in lb.messages_in(thread)
        if any(str(c.get("custom_id", "")).startswith("rematch:") for c in lb.components(m))
    ]


def over(lb: Loopback, user: int) -> list[str]:
    """The user's DMs that tell them the game is over (their last DM of the game)."""
    return [m["content"] for m in lb.dms(user) if "Game over: place " in (m.get("content") or "")]


@pytest.mark.slow
async def test_a_sigkill_after_the_ending_commit_shows_the_ending_once_after_the_restart(
    loopback: Loopback, tmp_path: Path
) -> None:
    lb = loopback
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
    settings = {"render_workers": "0", "ai_workers": "0", "table_edit_interval": "0"}
    with (tmp_path / "bot.log").open("wb") as log:
        bot = await BotProcess.spawn(lb, url, log=log, **settings)
        db = await Database.open(url)
        try:
            await lb.wait_ready(within=120)
            alice, bob = lb.user("Alice"), lb.user("Bob")
            await lb.slash(alice, "game new", game="eggs-empires", timer=0)
            await lb.click(bob, lb.find_button(lb.channel, "Join"))
            await lb.click(alice, lb.find_button(lb.channel, "Start"))
            assert await lb.wait_until(lambda: bool(lb.dms(alice)) and bool(lb.dms(bob)) and bool(lb.threads()), 60)
            [thread] = lb.threads()
            # From now on every post in the game's thread hangs, unanswered: the result's among them, which
            # comes right after the commit that ends the game (the table is edited, never posted).
            lb.hang_next(10_000, seconds=600, match=f"/channels/{thread}/messages", method="POST")
            for step in range(1000):
                row = await db.get_game(GAME_ID)
                assert row is not None
                if row.status != "active":
                    break
                # (Not `quiet`: a held post is a call in progress for good.)
                assert await lb.wait_until(lambda: any(choice_components(lb.dms(u)[-1]) for u in (alice, bob)), 60)
                for turn, user in enumerate((alice, bob)):
                    await decide_from_message(lb, user, lb.dms(user)[-1], index=step + turn)
            assert row.status == "finished"
            # The result's post is held (or, behind a held post of log lines, not even sent).
            assert await lb.wait_until(lambda: bool(_posts(lb, thread)), 60)
            assert results(lb, thread) == [], "killed before the result was posted"
            mark = lb.identified
            bot.kill()
            assert await bot.wait() == -9
            ended = await db.get_game(GAME_ID)
            assert ended is not None and (ended.delivered or 0) < ended.version, "owed its ending"

            lb.faults.clear()
            before = {user: len(over(lb, user)) for user in (alice, bob)}
            bot = await BotProcess.spawn(lb, url, log=log, **settings)
            await lb.wait_ready(since=mark, within=120)
            assert await lb.wait_until(lambda: len(results(lb, thread)) > 0, 60)
            await lb.quiet(idle=1.0)
            await asyncio.sleep(1.0)  # what it delivered is recorded (table.delivery)
            await lb.quiet(idle=0.5)
        finally:
            await bot.stop()
            await db.close()
    assert len(results(lb, thread)) == 1, "the result, once"
    for user in (alice, bob):
        assert len(over(lb, user)) == 1, (user, before, over(lb, user))
    table = lb.messages_in(thread)[0]
    assert "Game over" in str(table.get("embeds")), "the table shows the end"
    db = await Database.open(url)
    try:
        row = await db.get_game(GAME_ID)
        assert row is not None and row.delivered == row.version, "and nothing more is owed"
    finally:
        await db.close()
    assert b"Traceback" not in (tmp_path / "bot.log").read_bytes()


def _posts(lb: Loopback, thread: int) -> list[Any]:
    return [c for c in lb.fake.calls if c.method == "POST" and c.path == f"/channels/{thread}/messages"]


async def test_the_repair_after_a_kill_sends_every_owed_prompt_before_the_owed_tables(
    loopback: Loopback, tmp_path: Path
) -> None:
    """Twelve games whose last decision was never shown (their table and both players' windows show the
    version before): the repair's requests wait in the global bucket together, prompts first."""
    lb = loopback
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
    assert await build(url, 12, 1.0, lb, seed=5) == 12
    mark = len(lb.fake.calls)
    settings = {"render_workers": "0", "ai_workers": "0", "global_rate_limit": "8"}
    with (tmp_path / "bot.log").open("wb") as log:
        bot = await BotProcess.spawn(lb, url, log=log, **settings)
        try:
            await lb.wait_ready(within=120)
            for _ in range(120):
                if await owed_now(url) == 0:
                    break
                await asyncio.sleep(0.5)
            assert await owed_now(url) == 0, "every owed game repaired"
        finally:
            await bot.stop()
    sent = []
    for call in lb.fake.calls[mark:]:
        parts = call.path.strip("/").split("/")
        if call.via != "http" or parts[0] != "channels" or len(parts) < 3:
            continue
        dm = lb.fake.channels.get(int(parts[1]), {}).get("type") == 1
        if dm and call.method in ("POST", "PATCH"):  # a new prompt, or the window edited to show it
            sent.append("prompt")
        elif not dm and call.method == "PATCH":
            sent.append("table")
    assert sent.count("prompt") >= 24 and sent.count("table") == 12, sent
    last_prompt = len(sent) - 1 - sent[::-1].index("prompt")
    # The bucket lets its first request or two through at once, in the order they came.
    assert sent[:last_prompt].count("table") <= 2, sent
