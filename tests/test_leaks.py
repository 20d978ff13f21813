"""Leaks, the short CI version: random games of every kind, every message checked for its audience.

The long version is `python -m bench leaks --games N`. The checker itself must be able to fail: a
deliberately leaking table message and a DM sent to the wrong player are caught.
"""

from __future__ import annotations

import contextlib
import dataclasses
import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

import games
from bot.messages import present
from harness import Harness
from harness.leaks import LeakWatch, play_watched
from table import SeatNotice, TableUpdate

pytestmark = pytest.mark.xdist_group("leaks")


STEPS = 30  # decisions per human in CI (a whole game in the benchmark)


@pytest.mark.parametrize("game_key", games.keys())
async def test_no_message_leaks_a_secret(tmp_path: Path, game_key: str) -> None:
    h = await Harness.start(tmp_path / "bot.sqlite3", seed=11)
    watch = LeakWatch(h)
    try:
        with watch.installed():
            for i, channel in enumerate((h.channel, h.other_channel)):
                await play_watched(h, watch, channel, game_key, random.Random(i), max_steps=STEPS)
    finally:
        errors = h.errors
        await h.close()
    assert not errors, errors
    assert not watch.problems, watch.problems[:10]
    assert watch.messages_checked > 20 and watch.renders_checked > 20


# --- the checker can fail -----------------------------------------------------------------------------
async def _leaky_run(tmp_path: Path, game_key: str, leak: Any) -> LeakWatch:
    h = await Harness.start(tmp_path / "bot.sqlite3", seed=5)
    watch = LeakWatch(h)
    try:
        with watch.installed(), leak(), contextlib.suppress(AssertionError):
            # (a game whose DMs went to the wrong players stalls: the check has run by then)
            await play_watched(h, watch, h.channel, game_key, random.Random(3), max_steps=2, humans=2)
    finally:
        await h.close()
    return watch


@contextmanager
def _hand_in_the_log() -> Iterator[None]:
    """The turn log also prints the first human seat's private embed, as text."""
    original = present.log_line

    def leaky(update: TableUpdate, lang: str = "en") -> str | None:
        line = original(update, lang) or ""
        notice = next(iter(update.notices.values()), None)
        if notice is None:
            return line or None
        embed = present.seat_message(update.game, notice, update, lang=lang).embeds[0].to_dict()
        fields = [str(f.get("value")) for f in embed.get("fields") or []]
        return "\n".join([line, str(embed.get("description") or ""), *fields])

    with mock.patch.object(present, "log_line", leaky):
        yield


@contextmanager
def _dm_to_the_wrong_player() -> Iterator[None]:
    """Every DM shows the next human seat's private message instead of the recipient's own."""
    original = present.seat_message

    def swapped(game: Any, notice: SeatNotice, update: TableUpdate | None = None, **kwargs: Any) -> Any:
        if update is not None:
            others = [n for s, n in sorted(update.notices.items()) if s != notice.seat.seat]
            if others:
                notice = others[0]
        return original(game, notice, update, **kwargs)

    with mock.patch.object(present, "seat_message", swapped):
        yield


@contextmanager
def _table_drawn_from_a_seat() -> Iterator[None]:
    """The public table is drawn from a seat's view rather than the public one."""
    original = present.table

    def leaky(update: TableUpdate, lang: str = "en") -> Any:
        notice = next(iter(update.notices.values()), None)
        if notice is not None:
            update = dataclasses.replace(update, public_view=notice.view)
        return original(update, lang)

    with mock.patch.object(present, "table", leaky):
        yield


@pytest.mark.parametrize("game_key", ["eggs-empires", "reggverse-riddles"])
async def test_a_hand_printed_in_the_public_log_is_caught(tmp_path: Path, game_key: str) -> None:
    watch = await _leaky_run(tmp_path, game_key, _hand_in_the_log)
    assert any("can read a secret" in p and p.startswith("public") for p in watch.problems), watch.problems[:5]


async def test_a_dm_sent_to_the_wrong_player_is_caught(tmp_path: Path) -> None:
    watch = await _leaky_run(tmp_path, "eight-minute-empire", _dm_to_the_wrong_player)
    assert any("private embed" in p for p in watch.problems), watch.problems[:5]


def test_another_seats_buttons_are_caught() -> None:
    watch = LeakWatch(mock.Mock())
    button = {"type": 2, "label": "Bid 3", "custom_id": "g:7:1:4:bid-3"}
    message = {"content": "", "components": [{"type": 1, "components": [button]}]}
    watch._check_message(message, {(7, 1)}, {}, "user 1")
    assert not watch.problems
    watch._check_message(message, {(7, 0)}, {}, "user 2")
    watch._check_message(message, set(), {}, "public")
    assert len(watch.problems) == 2 and all("decision buttons of game 7 seat 1" in p for p in watch.problems)


async def test_a_table_drawn_from_a_seats_view_is_caught(tmp_path: Path) -> None:
    watch = await _leaky_run(tmp_path, "eggs-empires", _table_drawn_from_a_seat)
    assert any("was not given exactly the public view" in p for p in watch.problems), watch.problems[:5]
