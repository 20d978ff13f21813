"""An interaction's answer whose connection fails on its way (bot/transport/answer.py).

The connection of an interaction callback may fail either before Discord acts on it (nothing was
answered: sending it again is the answer) or after (the answer is in place, and Discord refuses a second
callback with 40060). The bot cannot tell which, so it sends the callback once more and, if Discord says
it was acknowledged already, answers through the acknowledged response. Either way the player sees one
answer, the decision counts once and the game goes on; nothing is logged as an error.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from fakediscord.loopback import Loopback
from harness.db_faults import SQLiteLock
from harness.fault_play import bot_on_loopback, caught_up, open_game
from harness.play import choice_components


def _callbacks(lb: Loopback) -> list[int]:
    """The status of every interaction callback the bot sent (-1: the connection failed)."""
    return [c.status for c in lb.fake.calls if c.path.endswith("/callback")]


@pytest.mark.parametrize("fault", ["answer lost", "request dropped"])
async def test_a_click_whose_answer_fails_on_its_way_counts_once_and_is_answered(
    loopback: Loopback, tmp_path: Path, caplog: pytest.LogCaptureFixture, fault: str
) -> None:
    lb = loopback
    caplog.set_level(logging.WARNING)
    async with bot_on_loopback(lb, f"sqlite+aiosqlite:///{tmp_path}/bot.sqlite3") as t:
        alice, bob = lb.user("Alice"), lb.user("Bob")
        game_id = await open_game(t, "eggs-empires", [alice, bob], 0, lb.channel)
        db = t.bot.table.db
        [dm] = lb.dms(alice)
        offered = dm["components"]
        before = len(await db.actions(game_id))
        if fault == "answer lost":
            lb.lose_answer_next(1, match="/callback")
        else:
            lb.drop_next(1, match="/callback")
        responses = await lb.click(alice, choice_components(dm)[0]["custom_id"], message=dm)
        await caught_up(t)

        assert _callbacks(lb)[-2:] == ([-1, 400] if fault == "answer lost" else [-1, 200])
        assert [r["type"] for r in responses] == [7], "one answer: the DM edited in place"
        [dm] = lb.dms(alice)
        assert "You chose" in dm["content"] and dm["components"] != offered
        assert len(await db.actions(game_id)) == before + 1, "the decision counts once"
        assert any("lost on its way" in r.getMessage() for r in caplog.records)

        # The game goes on: Bob's decision resolves the turn.
        [bob_dm] = lb.dms(bob)
        await lb.click(bob, choice_components(bob_dm)[0]["custom_id"], message=bob_dm)
        await caught_up(t)
        assert len(await db.actions(game_id)) == before + 2
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert lb.unknown == []


async def test_a_command_whose_answer_is_lost_posts_its_lobby_once_and_keeps_its_id(
    loopback: Loopback, tmp_path: Path
) -> None:
    lb = loopback
    async with bot_on_loopback(lb, f"sqlite+aiosqlite:///{tmp_path}/bot.sqlite3") as t:
        alice, bob = lb.user("Alice"), lb.user("Bob")
        lb.lose_answer_next(1, match="/callback")
        await lb.slash(alice, "game new", game="eggs-empires", timer=0)
        await caught_up(t)
        assert _callbacks(lb) == [-1, 400]
        lobbies = [m for m in lb.messages_in(lb.channel) if m.get("components")]
        assert len(lobbies) == 1, "the lobby is posted once"
        row = await t.bot.table.db.channel_game(lb.channel)
        assert row is not None and row.lobby_message_id == int(lobbies[0]["id"])
        await lb.click(bob, lb.find_button(lb.channel, "Join"))  # the lobby's buttons work
        _, seats = await t.bot.table.lobby(row.id)  # type: ignore[arg-type]
        assert [s.user_id for s in seats] == [alice, bob]


async def test_a_deferral_whose_answer_is_lost_is_followed_by_the_answer_through_it(
    loopback: Loopback, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The click waits for a held write lock, so it is deferred; that deferral reaches Discord but its
    answer is lost. The answer's own callback is then refused (40060): it edits the deferred response."""
    lb = loopback
    caplog.set_level(logging.WARNING)
    async with bot_on_loopback(lb, f"sqlite+aiosqlite:///{tmp_path}/bot.sqlite3") as t:
        alice, bob = lb.user("Alice"), lb.user("Bob")
        game_id = await open_game(t, "eggs-empires", [alice, bob], 0, lb.channel)
        [dm] = lb.dms(alice)
        released = await SQLiteLock(str(tmp_path / "bot.sqlite3")).taken_for(1.0)
        lb.lose_answer_next(1, match="/callback")
        responses = await lb.click(alice, choice_components(dm)[0]["custom_id"], message=dm)
        await released
        await caught_up(t)
        assert _callbacks(lb)[-2:] == [-1, 400]
        assert [r["type"] for r in responses] == [6, "edit"], "deferred, then the deferred response edited"
        [dm] = lb.dms(alice)
        assert "You chose" in dm["content"]
        assert len(await t.bot.table.db.actions(game_id)) == 1
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
