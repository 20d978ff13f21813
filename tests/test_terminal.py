"""The terminal speaks like the bot (issue 21.10): names, the log's own sentences, answers by their
number in the list only, and only what changed printed again."""

from __future__ import annotations

import itertools
import re

import pytest

import games
from bot.terminal import parse_answer, play
from games.core import Choice, Prompt
from table.core import stand_in_level

STILL_NAMING_SEATS = {"reggverse-riddles"}  # its renderer's table line "Turn 3, seat 2 to play" (issue 21.4)


@pytest.mark.parametrize("key", games.keys())
def test_a_whole_game_in_the_terminal_reads_like_the_table(key: str) -> None:
    game = games.get(key)
    lines: list[str] = []
    # Wrong answers first (a word, a number out of the list, zero), then the first choices, one or two.
    answers = itertools.chain(["banana", "99", "0"], itertools.cycle(["1", "1 2"]))
    level = stand_in_level(game)  # the level the terminal and the table seat by default: heuristic, else the best
    status = play(game, game.min_players, 0, level, 3, {}, read=lambda _: next(answers), write=lines.append)
    out = "\n".join(lines)
    assert status == 0 and "Game over." in out
    assert "Answer with 1 different number(s) from 1 to" in out  # "banana", "99" and "0" are asked again
    assert f"AI 1 ({level})" in out and "You" in out
    # No raw events, no 0-based seats: sentences and names (Reggverse's renderer still says "seat 1").
    assert not re.search(r"\{'|'type'|seat: \d|\bPlayer \d", out)
    if key not in STILL_NAMING_SEATS:
        assert not re.search(r"\bseat \d", out)
    # Only what changed is printed again: the view is never printed twice in a row.
    views = [line for line in lines if line.startswith("\n") and line != "\nGame over."]
    assert all(a != b for a, b in itertools.pairwise(views))
    assert len(views) <= len([line for line in lines if line.startswith("  1. ")])


def test_a_cards_own_number_is_never_read_as_the_answer() -> None:
    prompt = Prompt(0, "play", [Choice("c7", "7"), Choice("c3", "3"), Choice("c5", "5")])
    assert parse_answer("2", prompt) == ["c3"]  # the second in the list, not the card numbered 2
    assert parse_answer("3", prompt) == ["c5"]  # the third, although a card numbered 3 is on offer
    assert parse_answer("c3", prompt) is None and parse_answer("4", prompt) is None
    two = Prompt(0, "play", prompt.choices, pick=2)
    assert parse_answer("1, 3", two) == ["c7", "c5"] and parse_answer("1 1", two) is None
