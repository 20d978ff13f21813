"""A whole game of each game in Italian and in French through the harness (issue 22): the server set to
the language, every player's client in it. Nothing the bot sent (every version of every message, the
lobby, the thread, DMs, ephemeral answers, buttons and selects) holds an English message of the
catalogs, English words of the engines, a placeholder left unfilled, or, in French, a space that lets
Discord wrap a line before ":", ";", "!" or "?" (or not the space French puts there)."""

from __future__ import annotations

import re

import pytest

from harness.languages import LocaleHarness, english_leftovers, everything_sent, play_in_language
from tests.declared import with_languages

# English words no Italian or French sentence has (game titles and names taken out first): the engines'
# own English, a label never looked up.
ENGLISH = re.compile(r"\b(the|and|your|with|from|you|takes?|eggs?|rules?|seat|cleared|swapped|stole|tiles?)\b")
TITLES = re.compile(r"Eggs and Empires|Eight-Minute Empire: Legends|Eight-Minute Empire|Reggverse Riddles")
FRENCH_SPACE = re.compile(r" [:;!?]|\u00a0[;!?]|\u202f:")  # no-break before ":", narrow before ; ! ?


@pytest.fixture
def h(locale_harness: LocaleHarness) -> LocaleHarness:
    return locale_harness


@pytest.mark.slow
@pytest.mark.parametrize(("key", "lang"), with_languages("it", "fr"))  # a game not told in one: skipped
async def test_a_whole_game_in_italian_and_french_sends_no_english(h: LocaleHarness, key: str, lang: str) -> None:
    await play_in_language(h, key, lang)
    assert h.bot is not None
    row = await h.bot.table.db.get_game(1)
    assert row is not None and row.status == "finished"
    sent = sorted(set(everything_sent(h)))
    assert len(sent) > 100
    assert english_leftovers(sent, lang) == {}
    prose = [TITLES.sub("", s) for s in sent]
    assert [s for s in prose if ENGLISH.search(s)][:5] == []
    assert [s for s in sent if re.search(r"\{[a-z_]+\}", s)][:5] == []
    if lang == "fr":
        assert [s for s in sent if FRENCH_SPACE.search(s)][:5] == []


def test_the_english_check_finds_english_messages() -> None:
    """The check itself: catalog English anywhere in a string (placeholders filled with anything), a lone
    word only as a whole label; the translation passes."""
    found = english_leftovers(["Waiting for: Anna, Luca", "Join", "Rejoindre", "Unisciti", "In attesa di: Anna"], "it")
    assert found == {"Waiting for: {names}": "Waiting for: Anna, Luca", "Join": "Join"}
