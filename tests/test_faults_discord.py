"""Discord faults during whole games (short CI version of `python -m bench faults`).

The bot runs in this event loop against the loopback fake Discord over real HTTP, so the faults go
through discord.py's own HTTPClient.request (its rate-limit buckets, retry_after sleeps, 5xx retries)
and its webhook adapter (interaction responses): 429s per route and global, 500/502/503, requests
that time out (a 504 after a wait), answers lost after Discord carried the request out (a retry must
not post twice), and DMs closed mid-game. Each game must end with every turn's log line posted once,
every committed event shown once, the table message showing the end, and one "cannot DM you" ping
per player whose DMs closed.
"""

from __future__ import annotations

import asyncio
import logging
import random
from pathlib import Path
from typing import Any

import pytest

import games
from bot.messages import present
from bot.texts import i18n, text
from fakediscord.loopback import Loopback
from harness.fault_play import (
    Recorder,
    Table,
    bot_on_loopback,
    caught_up,
    check_game,
    open_game,
    play,
    table_windows,
)
from harness.play import choice_components

# CI plays Eggs and Empires to its end, the two longer games for their first rounds only; the
# benchmark plays them all to the end with many more faults.
CI_ROUNDS = {"eggs-empires": None, "eight-minute-empire": 16, "reggverse-riddles": 16}


KINDS = ("429", "429-global", "500", "502", "503", "timeout", "lost")


def discord_faults(lb: Loopback, rng: random.Random, kind: str) -> None:
    """A few REST faults of one kind, on whatever the bot calls next."""
    match kind:
        case "429":
            lb.fail_next(rng.randint(1, 2), status=429, retry_after=0.05)
        case "429-global":
            lb.fail_next(1, status=429, retry_after=0.05, is_global=True)
        case "500" | "502" | "503":
            lb.fail_next(1, status=int(kind))
        case "timeout":
            lb.hang_next(1, seconds=0.2)
        case "lost":
            lb.lose_answer_next(1, match="/messages")


def fault_counts(lb: Loopback) -> dict[str, int]:
    counts: dict[str, int] = {}
    for call in lb.fake.calls:
        if call.status in (429, 500, 502, 503, 504, -1):
            kind = {-1: "answer lost", 504: "timeout"}.get(call.status, str(call.status))
            counts[kind] = counts.get(kind, 0) + 1
    return counts


@pytest.mark.parametrize("key", games.keys())
async def test_a_whole_game_through_discord_faults(loopback: Loopback, tmp_path: Path, key: str) -> None:
    lb = loopback
    rng = random.Random(key)
    async with bot_on_loopback(lb, f"sqlite+aiosqlite:///{tmp_path}/bot.sqlite3") as t:
        alice, bob = lb.user("Alice"), lb.user("Bob")
        recorder = Recorder()
        recorder.install(t.bot)
        game_id = await open_game(t, key, [alice, bob], 1, lb.channel)
        closed: set[int] = set()

        # Early in the game, so that a short one (Tiny Bid's three rounds) meets them all the same.
        async def faults(step: int) -> None:
            if step < len(KINDS):
                discord_faults(lb, rng, KINDS[step])  # each kind once
            if step == 1:
                lb.fake.dm_closed.add(bob)  # Bob closes his DMs mid-game: "Show my hand" from now on
                closed.add(bob)
                # ... and his clicks' tokens (through which the bot reaches him while they live) die.
                lb.fake.expired_tokens |= set(lb.fake.interaction_sources)

        rounds = CI_ROUNDS.get(key)  # a game not listed plays to its end
        # Bob decides first in each round: where everybody decides at once, Alice's click then ends the
        # phase and the bot has something to tell Bob (after his own click he is shown what comes next).
        stats = await play(t, game_id, [bob, alice], rng=rng, between=faults, closed_dms=closed, rounds=rounds)
        lb.faults.clear()
        check = await check_game(t, game_id, recorder, stats, finished=rounds is None)
        assert check.ok(), check.problems
        thread = (await t.bot.table.db.get_game(game_id)).thread_id  # type: ignore[union-attr]
        assert thread is not None
        said = i18n.t("en", text.DM_CLOSED, mention=f"<@{bob}>")
        pings = [m for m in lb.messages_in(thread) if m["content"] == said and m.get("components")]
        assert len(pings) == 1, "a closed DM is said once in the thread, not every turn"
        counts = fault_counts(lb)
        assert sum(counts.values()) >= 3, counts
        assert lb.unknown == []


async def test_a_table_edit_whose_answer_is_lost_shows_its_log_line_on_the_retry(
    loopback: Loopback, tmp_path: Path
) -> None:
    lb = loopback
    async with bot_on_loopback(lb, f"sqlite+aiosqlite:///{tmp_path}/bot.sqlite3") as t:
        alice, bob = lb.user("Alice"), lb.user("Bob")
        recorder = Recorder()
        recorder.install(t.bot)
        game_id = await open_game(t, "eggs-empires", [alice, bob], 0, lb.channel)
        [thread] = lb.threads()
        posted = len(lb.messages_in(thread))
        table_id = int(lb.messages_in(thread)[0]["id"])
        for user in (alice, bob):
            [dm] = lb.dms(user)
            if user == bob:
                # Discord edits the table with the turn's log line, but its answer never arrives: the bot
                # tries again, with the same line (the log is folded into the table: nothing is posted).
                lb.lose_answer_next(1, match=f"/channels/{thread}/messages/{table_id}", method="PATCH")
            await lb.click(user, choice_components(dm)[0]["custom_id"], message=dm)
        await caught_up(t)
        lost = [c for c in lb.fake.calls if c.status == -1]
        assert [c.method for c in lost] == ["PATCH"]
        assert t.bot.table.notifier.retried >= 1  # type: ignore[attr-defined]
        assert len(lb.messages_in(thread)) == posted, "no log post"
        line = present.log_line(recorder.updates[game_id][-1], "en")
        assert line and table_windows(lb.fake.calls, thread, table_id)[-1] == line.split("\n")
        row = await t.bot.table.db.get_game(game_id)
        assert row is not None and row.announced == row.version


async def test_a_thread_whose_answer_is_lost_is_not_opened_twice(loopback: Loopback, tmp_path: Path) -> None:
    lb = loopback
    async with bot_on_loopback(lb, f"sqlite+aiosqlite:///{tmp_path}/bot.sqlite3") as t:
        alice, bob = lb.user("Alice"), lb.user("Bob")
        # Discord opens the game's thread, but its answer never arrives: the bot tries again, and must
        # find that thread rather than open a second one (Discord takes no nonce for threads).
        lb.lose_answer_next(1, match=f"/channels/{lb.channel}/threads", method="POST")
        game_id = await open_game(t, "eggs-empires", [alice, bob], 0, lb.channel)
        lost = [c for c in lb.fake.calls if c.status == -1]
        assert [c.path.rsplit("/", 1)[-1] for c in lost] == ["threads"]
        [thread] = lb.threads()
        row = await t.bot.table.db.get_game(game_id)
        assert row is not None and row.thread_id == thread
        assert any(m.get("embeds") for m in lb.messages_in(thread)), "the table is posted in that thread"
        assert t.bot.table.notifier.retried >= 1  # type: ignore[attr-defined]


async def test_notifications_cut_off_by_shutdown_are_left_for_start_up_not_logged_as_errors(
    harness: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """Stopping the bot closes its HTTP session under notifications still on their way: that is no
    refusal by Discord (no error is logged) and nothing is retried by a process that is going away."""
    h = harness
    alice, bob = h.user("Alice"), h.user("Bob")
    await open_game(Table.of(h), "eggs-empires", [alice, bob], 0, h.channel)

    async def session_gone(*_args: Any, **_kwargs: Any) -> Any:
        raise RuntimeError("Session is closed")

    for user in (alice, bob):
        if user == bob:  # the turn resolves as the bot stops: its table edit and log post meet a closed session
            h.bot.http.request = session_gone
            h.bot._closing_task = asyncio.get_running_loop().create_future()  # is_closed(): close() began
            h.bot._closing_task.set_result(None)
        [dm] = h.dms(user)
        with caplog.at_level(logging.INFO, logger="bot.delivery.notify"):
            await h.click(user, choice_components(dm)[0]["custom_id"], message=dm)
    await h.settle()
    assert h.errors == []
    assert any("start-up resumption sends them" in r.getMessage() for r in caplog.records)
    assert h.bot.table.notifier.retried == 0
    h.bot._closing_task = None  # let the harness close it for real
