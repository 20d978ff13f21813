"""Game text that comes from the engines' data (Eight-Minute Empire cards, abilities, actions and
tokens; Reggverse rules, action tiles, objectives, tile types and choices) in Italian and French,
built from structured data; English stays exactly the engines' text."""

from __future__ import annotations

import re
from typing import Any

import pytest

import games
from bot import i18n
from bot.render import eight_minute_empire as eme
from bot.render.generic import TableContext
from games.core import Rng
from games.eight_minute_empire.cards import all_cards

ENGLISH_WORDS = re.compile(r"\b(Place|Move|Build|Destroy|army|armies|city|OR|AND|VP|coins?|Flying|Elixir|card|"
                           r"tile|egg|eggs|rule|rules|pile|neighbours?|row|column|half|next|pawn|pawns|Tile|"
                           r"Action|Seat|from|your|with|land|water|of yours|Bid|neutral)\b")


def ctx(game: str, lang: str, names: list[str] | None = None) -> TableContext:
    return TableContext(game, 1, names or ["Ada", "Bo"], [], None, lang)


def card(name: str) -> Any:
    return next(c for c in all_cards() if c.name == name)


# --- Eight-Minute Empire ------------------------------------------------------------------------
def test_every_card_family_and_token_has_a_catalog_entry_and_english_is_the_engines_text() -> None:
    assert {c.name for c in all_cards()} == set(eme.CARD_NAMES)
    assert {c.family for c in all_cards() if c.family} == set(eme.FAMILIES)
    from games.eight_minute_empire.engine import CITADEL, EXPLORE_TOKENS

    assert {*EXPLORE_TOKENS, CITADEL} == set(eme.TOKENS)
    for c in all_cards():
        view: dict[str, Any] = c.to_view()
        assert eme.abilities_text("en", view["abilities"]) == c.ability_text
        assert eme.action_text("en", view["join"], view["parts"]) == c.action_text
        for lang in ("it", "fr"):
            assert eme.card_name(lang, c.name) != c.name or c.name in ("Castle 2",), (lang, c.name)


@pytest.mark.parametrize(("lang", "name", "words"), [
    ("it", "Dire Dragon", ["Drago Terribile", "Volare", "Piazza 3 armate E Distruggi 1 armata"]),
    ("fr", "Dire Dragon", ["Dragon Terrible", "Vol", "Placez 3 armées ET Détruisez 1 armée"]),
    ("it", "Cursed King", ["Re Maledetto", "1 Elisir", "Piazza 3 armate O Muovi 4"]),
    ("fr", "Cursed King", ["Roi Maudit", "1 Élixir", "Placez 3 armées OU Déplacez 4"]),
    ("it", "Noble Hills", ["Colline Nobili", "4 PV per tutte le carte Nobili"]),
    ("fr", "Ancient Sage", ["Sage Ancien", "+1 PV par carte Anciens", "Déplacez 3"]),
    ("it", "Mountain Treasury", ["Tesoro della Montagna", "Guadagna 2 monete"]),
    ("fr", "Dire Giant", ["Géant Terrible", "Immunisé contre les attaques"]),
])
def test_cards_abilities_and_actions_are_translated(lang: str, name: str, words: list[str]) -> None:
    view: dict[str, Any] = card(name).to_view()
    text = " · ".join([eme.card_name(lang, name), eme.abilities_text(lang, view["abilities"]),
                       eme.action_text(lang, view["join"], view["parts"])])
    for word in words:
        assert word in text, (word, text)
    assert not ENGLISH_WORDS.search(text), text


def eme_game(seed: int = 7, moves: int = 300) -> tuple[list[dict[str, Any]], list[Any], list[dict[str, Any]]]:
    """Views, prompts and events of a seeded random two-player game."""
    engine = games.get("eight-minute-empire")
    state = engine.new(2, seed)
    rng = Rng(seed)
    views, prompts, events = [], [], []
    for _ in range(moves):
        now = engine.prompts(state)
        if not now:
            break
        views.append(engine.view(state, None))
        prompts += now
        picks = list(now[0].choices)
        rng.shuffle(picks)
        events += engine.apply(state, now[0].seat, [c.id for c in picks[:now[0].pick]])
    return views, prompts, events


def test_eight_minute_empire_table_choices_and_log_in_italian_and_french_keep_no_english_game_terms() -> None:
    views, prompts, events = eme_game()
    english = ctx("Eight-Minute Empire: Legends", "en")
    kinds: set[str] = set()
    for prompt in prompts:
        for choice in prompt.choices:
            assert eme.RENDERER.choice_label(prompt, choice, english) == choice.label  # English is the engine's
            for lang in ("it", "fr"):
                label = eme.RENDERER.choice_label(prompt, choice, ctx("Eight-Minute Empire: Legends", lang))
                if prompt.kind in ("card", "bid", "branch", "destroy", "move_to", "move_from", "city") and \
                        choice.id not in ("done", "skip", "back"):
                    kinds.add(prompt.kind)
                    assert label != choice.label and not ENGLISH_WORDS.search(label), (lang, prompt.kind, label)
    assert {"card", "bid", "move_to", "move_from"} <= kinds
    for lang in ("it", "fr"):
        c = ctx("Eight-Minute Empire: Legends", lang)
        for view in views[::10]:
            row = eme.public_text(view, c).split("\n\n")[1]  # the card row block
            for line in row.splitlines()[1:]:
                assert not ENGLISH_WORDS.search(line), (lang, line)
        taken = [e for e in events if e["type"] in ("take", "branch", "explore")]
        assert taken
        for event in taken:
            line = eme.RENDERER.event_line(event, c)
            assert event.get("card", "\0") not in line or event["card"] == "Castle 2", line
            assert not re.search(r"\b(Place|Move \d|Build|Destroy|Magic Spring|Cottage|Stable)\b", line), line


def test_public_text_in_english_is_unchanged_by_the_lookups() -> None:
    views, _, _ = eme_game(seed=3, moves=120)
    english = ctx("Eight-Minute Empire: Legends", "en")
    for view in views[::15]:
        text = eme.public_text(view, english)
        for c in view["row"]:
            if c is not None:
                assert f"**{c['name']}** · {c['ability']} · {c['action']}" in text
        for s in view["seats"]:
            if s["cards"]:
                abilities = "; ".join(a for a in s["abilities"] if a) or "none"
                assert f"cards: {', '.join(s['cards'])} · abilities: {abilities}" in text


def test_explore_tokens_and_coin_sources_are_translated() -> None:
    it = ctx("Eight-Minute Empire: Legends", "it")
    line = eme.RENDERER.event_line({"type": "explore", "seat": 0, "region": "A1", "token": "Magic Spring"}, it)
    assert "Sorgente magica" in line and "Magic" not in line
    fr = ctx("Eight-Minute Empire: Legends", "fr")
    line = eme.RENDERER.event_line({"type": "coins", "seat": 1, "gain": 2, "source": "Mountain Treasury"}, fr)
    assert "Trésor de la Montagne" in line and "Mountain" not in line
    assert i18n.tp("fr", "token", "Citadel") == "Citadelle"
