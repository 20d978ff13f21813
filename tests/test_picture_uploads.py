"""Pictures that cost less to send (issue 37.3): whole 4-player games through the harness, every seat a person
with open DMs (so every seat's prompts are counted), upload no picture Discord holds already and stay within
their measured bytes; every word on the pictures stays readable at a phone's 400 px.

`python -m bench uploads` plays the same games and says where the bytes go (bench/REPORT.md). Sizes are
deterministic (seeded games and choices, the same pixels, the same encoder), not timings: a ceiling here
moves only when the pictures or what is sent change, and then by a measured amount.

The issue's target, at most 2 MB a game, is not met yet with every seat a person (CEILING_MB says where each
game stands; the report says why): the ceilings hold what was reached, so nothing grows back unseen.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.uploads import KEYS, MB, play_whole_game, text_heights_in_fresh_process

# Bytes uploaded by a whole 4-player game of each, every seat a person (bench uploads' game, seed 7), with
# about 5% of room; the target is 2 MB.
CEILING_MB = {"eggs-empires": 7.3, "eight-minute-empire": 4.6, "reggverse-riddles": 26.0}
TARGET_MB = 2.0
# Files whose bytes went before in the game, Discord no longer holding them (removed from their message).
MAX_REUPLOADS = {"eggs-empires": 0, "eight-minute-empire": 2, "reggverse-riddles": 0}
SMALLEST_WORD_PX = 6.0  # a capital letter's height at 400 px wide, the smallest word
MEDIAN_WORD_PX = 8.0  # ... the median word


@pytest.mark.slow
@pytest.mark.parametrize("key", KEYS)
async def test_a_whole_game_uploads_no_picture_twice(tmp_path: Path, key: str) -> None:
    result, _harness = await play_whole_game(key, tmp_path)
    assert result.files > 20, "the game's pictures were uploaded"
    # Discord holds every picture a message shows: none is uploaded again while it does. (Eight-Minute
    # Empire clears the map from a waiting player's DM, so its next prompt may bring the same map again.)
    assert result.held_reuploads == 0, f"{result.held_reuploads} pictures uploaded again while Discord held them"
    assert result.reuploads <= MAX_REUPLOADS[key], f"{result.reuploads} pictures uploaded again"
    assert result.size <= CEILING_MB[key] * MB, f"{key}: {result.size / MB:.2f} MB uploaded"
    if result.size <= TARGET_MB * MB:  # reached: the ceiling comes down to the target
        assert CEILING_MB[key] <= TARGET_MB, f"{key} is within {TARGET_MB} MB: lower its ceiling to it"


def test_every_word_on_the_pictures_reads_at_a_phones_width() -> None:
    texts = text_heights_in_fresh_process(list(KEYS))
    for key in KEYS:
        measured = texts[key]
        assert measured["words"] > 50, (key, measured)
        assert measured["smallest_word_px"] >= SMALLEST_WORD_PX, (key, measured)
        assert measured["median_word_px"] >= MEDIAN_WORD_PX, (key, measured)
