"""The log folded into the table message (bot.delivery.notify, bot.messages.present.add_recent): the table's
"Recently" field shows the newest log lines that fit Discord's limits, oldest first, and nothing is shown
twice or out of order."""

from __future__ import annotations

import discord
from hypothesis import given
from hypothesis import strategies as st

from bot.messages.present import EMBEDS_LIMIT, FIELD_LIMIT, add_recent
from harness.fault_play import lines_not_shown

NAME = "Recently"


@given(st.lists(st.text(min_size=1, max_size=1500), min_size=1, max_size=8), st.integers(0, EMBEDS_LIMIT))
def test_the_newest_lines_that_fit_are_shown_oldest_first(lines: list[str], room: int) -> None:
    embed = discord.Embed(title="table")
    add_recent(embed, lines, NAME, room=room)
    if room - len(NAME) <= 1:
        assert not embed.fields, "no room: no field"
        return
    [field] = embed.fields
    assert field.name == NAME and field.value is not None
    assert len(field.value) <= min(FIELD_LIMIT, room - len(NAME)), "within a field and the room left"
    fitting = min(FIELD_LIMIT, room - len(NAME))
    if len(lines[-1]) > fitting:
        assert field.value == lines[-1][: fitting - 1] + "…", "the newest alone, clipped"
        return
    # A suffix of the lines, the longest that fits.
    shown = 1
    while shown < len(lines) and len("\n".join(lines[-shown - 1 :])) <= fitting:
        shown += 1
    assert field.value == "\n".join(lines[-shown:])


def test_a_line_no_table_edit_showed_is_missing() -> None:
    lines = ["a", "b", "c", "d", "e"]
    assert lines_not_shown(lines, [["a"], ["a", "b"], ["b", "c", "d", "e"]]) == 0
    assert lines_not_shown(lines, [["a"], ["d", "e"]]) == 2, "b and c never shown"
    assert lines_not_shown(lines, [["c"], ["a", "b"]]) == 4, "a window going back is not counted"
    assert lines_not_shown(["x", "long line"], [["x", "long…"]]) == 0, "a clipped line matches what it starts"
    assert lines_not_shown(["same", "same"], [["same"]]) == 1, "a line repeated is shown once per window"
