"""The bot offers what a game declares and no more (issue 36): the lobby's AI choices are the game's
`ai_levels` (no expert to pick for a game without one), and a game not told in a reader's language
(`languages`, games/core.py) says it is English only, in the lobby and in `/game rules`.

Each check runs for every registered game (the minimal game of tests/minimal_game/ included when
TEST_MINIMAL_GAME=1), and once more with a real game's declarations narrowed in this process (a game
with a random AI only, an English-only game), so that the normal suite meets both sides."""

from __future__ import annotations

from typing import Any

import pytest

import games
from bot.messages import present
from bot.texts import i18n, text
from harness import Harness
from harness.languages import LOCALES, LocaleHarness, shown_strings
from table.core import stand_in_level

GAME_ID = 1


def level_picker(lobby: dict[str, Any]) -> dict[str, Any] | None:
    found = [c for c in Harness.components(lobby) if c.get("custom_id", "").endswith(f":{present.ADD_AI}")]
    return found[0] if found else None


def english_only(lang: str, key: str) -> str:
    return i18n.t(lang, text.ENGLISH_ONLY, title=games.get(key).title)


async def check_ai_levels(h: Harness, key: str) -> None:
    """The lobby of game `key` offers to pick exactly its pickable declared levels (a select only when
    there are two or more), Add AI seats its stand-in level, and a level it lacks is refused."""
    engine = games.get(key)
    host = h.user("Host")
    assert h.bot is not None
    await h.slash(host, "game new", game=key)
    lobby = h.messages_in(h.channel)[0]
    offered = [level for level in text.PICKABLE_AI_LEVELS if level in engine.ai_levels]
    picker = level_picker(lobby)
    if len(offered) > 1:
        assert picker is not None and [o["value"] for o in picker["options"]] == offered
    else:
        assert picker is None, f"{key} declares ai_levels {engine.ai_levels}: nothing to pick"
    if "expert" not in engine.ai_levels:
        said = " ".join(shown_strings(lobby)).lower()
        assert "expert" not in said, f"{key} has no expert: the lobby offers none"
    await h.click(host, h.find_button(h.channel, "Add AI"))
    seats = await h.bot.db.seats(GAME_ID)
    assert [s.ai_level for s in seats[1:]] == [stand_in_level(engine)]
    if "expert" not in engine.ai_levels:
        # a select value forged or left from an older lobby: refused, nobody seated
        custom_id = picker["custom_id"] if picker else f"lo:{GAME_ID}:{present.ADD_AI}"
        await h.select(host, custom_id, ["expert"], message=h.messages_in(h.channel)[0])
        assert [s.ai_level for s in (await h.bot.db.seats(GAME_ID))[1:]] == [stand_in_level(engine)]


@pytest.mark.parametrize("key", games.keys())
async def test_the_lobby_offers_the_ai_levels_the_game_declares(harness: Harness, key: str) -> None:
    await check_ai_levels(harness, key)


async def test_a_game_with_a_random_ai_only_offers_no_level_to_pick(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(games.get("eight-minute-empire"), "ai_levels", ("random",))
    await check_ai_levels(harness, "eight-minute-empire")
    seats = await harness.bot.db.seats(GAME_ID)  # type: ignore[union-attr]
    assert seats[1].name == "AI 1 (random)"


async def check_languages(h: LocaleHarness, key: str, lang: str) -> bool:
    """Open a lobby of `key` on a server set to `lang` and ask its rules as a player of `lang`: whether
    both say the game is English only (they must agree)."""
    host = h.user_in("Host", LOCALES[lang], admin=True)
    await h.slash(host, "game settings", language=lang)
    await h.slash(host, "game new", game=key)
    lobby = h.messages_in(h.channel)[0]
    sentence = english_only(lang, key)
    in_lobby = sentence in lobby["embeds"][0]["description"]
    await h.slash(host, "game rules", game=key)
    rules = h.ephemerals(host)[-1]
    in_rules = sentence in rules["embeds"][0]["description"]
    assert in_lobby == in_rules, (in_lobby, in_rules)
    return in_lobby


@pytest.mark.parametrize("lang", ["en", "it", "fr"])
@pytest.mark.parametrize("key", games.keys())
async def test_a_game_says_so_where_it_is_not_translated(locale_harness: LocaleHarness, key: str, lang: str) -> None:
    told = await check_languages(locale_harness, key, lang)
    assert told == (lang not in games.get(key).languages), games.get(key).languages


@pytest.mark.parametrize("lang", ["it", "fr"])
async def test_an_english_only_game_tells_italian_and_french_players(
    locale_harness: LocaleHarness, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(games.get("reggverse-riddles"), "languages", ("en",))
    assert await check_languages(locale_harness, "reggverse-riddles", lang)
    assert english_only(lang, "reggverse-riddles") != english_only("en", "reggverse-riddles"), "translated"
