"""Game text that comes from the engines' data (Eight-Minute Empire cards, abilities, actions and
tokens; Reggverse rules, action tiles, objectives, tile types and choices) in Italian and French,
built from structured data; English stays exactly the engines' text."""

from __future__ import annotations

import re
from typing import Any

import pytest

import games
from bot.render import eight_minute_empire as eme
from bot.render.kit.generic import TableContext
from bot.texts import i18n, text
from games.core import Rng
from games.eight_minute_empire.cards import all_cards

ENGLISH_WORDS = re.compile(
    r"\b(Place|Move|Build|Destroy|army|armies|city|OR|AND|VP|coins?|Flying|Elixir|card|"
    r"tile|egg|eggs|rule|rules|pile|neighbours?|row|column|half|next|pawn|pawns|Tile|"
    r"Action|Seat|from|your|with|land|water|of yours|Bid|neutral)\b"
)


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


@pytest.mark.parametrize(
    ("lang", "name", "words"),
    [
        ("it", "Dire Dragon", ["Drago Terribile", "Volare", "Piazza 3 armate E Distruggi 1 armata"]),
        ("fr", "Dire Dragon", ["Dragon Terrible", "Vol", "Placez 3 armées ET Détruisez 1 armée"]),
        ("it", "Cursed King", ["Re Maledetto", "1 Elisir", "Piazza 3 armate O Muovi 4"]),
        ("fr", "Cursed King", ["Roi Maudit", "1 Élixir", "Placez 3 armées OU Déplacez 4"]),
        ("it", "Noble Hills", ["Colline Nobili", "4 PV per tutte le carte Nobili"]),
        ("fr", "Ancient Sage", ["Sage Ancien", "+1 PV par carte Anciens", "Déplacez 3"]),
        ("it", "Mountain Treasury", ["Tesoro della Montagna", "Guadagna 2 monete"]),
        ("fr", "Dire Giant", ["Géant Terrible", "Immunisé contre les attaques"]),
    ],
)
def test_cards_abilities_and_actions_are_translated(lang: str, name: str, words: list[str]) -> None:
    view: dict[str, Any] = card(name).to_view()
    text = " · ".join(
        [
            eme.card_name(lang, name),
            eme.abilities_text(lang, view["abilities"]),
            eme.action_text(lang, view["join"], view["parts"]),
        ]
    )
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
        events += engine.apply(state, now[0].seat, [c.id for c in picks[: now[0].pick]])
    return views, prompts, events


def test_eight_minute_empire_table_choices_and_log_in_italian_and_french_keep_no_english_game_terms() -> None:
    views, prompts, events = eme_game()
    english = ctx("Eight-Minute Empire: Legends", "en")
    kinds: set[str] = set()
    for prompt in prompts:
        for choice in prompt.choices:
            shown = eme.RENDERER.choice_label(prompt, choice, english)
            assert not re.search(r"\b(P\d|Seat \d|seat \d)", shown), shown  # players by name, never by seat
            for lang in ("it", "fr"):
                label = eme.RENDERER.choice_label(prompt, choice, ctx("Eight-Minute Empire: Legends", lang))
                if prompt.kind in (
                    "card",
                    "bid",
                    "branch",
                    "destroy",
                    "move_to",
                    "move_from",
                    "city",
                ) and choice.id not in ("done", "skip", "back"):
                    kinds.add(prompt.kind)
                    assert label != shown and not ENGLISH_WORDS.search(label), (lang, prompt.kind, label)
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
    coins = {"type": "coins", "seat": 1, "gain": 2, "source": "Mountain Treasury", "from_token": False}
    line = eme.RENDERER.event_line(coins, fr)
    assert line == "🟦 Bo a gagné 2 pièces grâce à la carte Trésor de la Montagne", line
    treasure = {"type": "coins", "seat": 0, "gain": 1, "source": "Hidden Treasure", "from_token": True}
    assert eme.RENDERER.event_line(treasure, it) == "🟧 Ada ha guadagnato 1 moneta dal segnalino Tesoro nascosto"
    assert i18n.tp("fr", "token", "Citadel") == "Citadelle"


# --- Reggverse Riddles --------------------------------------------------------------------------
def every_rule() -> list[dict[str, Any]]:
    """Every rule the engine can make: each template, sense and filling of its placeholders."""
    from itertools import product

    from games.reggverse.data import EGG_COLOURS, HALF_SIDES, LINES, NO_OPPOSITE, NUMBERS, TEMPLATE_PARAMS, TILE_TYPES

    values: dict[str, tuple[Any, ...]] = {
        "tile": TILE_TYPES,
        "egg": EGG_COLOURS,
        "n": NUMBERS,
        "side": HALF_SIDES,
        "line": LINES,
    }
    found = []
    for template, names in TEMPLATE_PARAMS.items():
        for neg in (False,) if template in NO_OPPOSITE else (False, True):
            for combo in product(*(values[name] for name in names)):
                found.append({"t": template, "neg": neg, **dict(zip(names, combo, strict=True))})
    return found


def test_every_rule_action_and_objective_in_english_is_exactly_the_engines_text() -> None:
    from bot.render.reggverse import words as regg
    from games.reggverse.board import rule_text
    from games.reggverse.data import ACTION_TEXT
    from games.reggverse.material import objective_tiles

    english = regg.Words("en")
    rules = every_rule()
    assert len(rules) > 150 and {r["t"] for r in rules} == set(range(1, 16))
    for rule in rules:
        assert english.rule(rule) == rule_text(rule)
    assert {k: english.action(k) for k in ACTION_TEXT} == ACTION_TEXT
    for tile in objective_tiles(Rng(3), ["red", "green", "yellow", "blue"]):
        assert english.objective(tile) == tile["text"]


@pytest.mark.parametrize(
    ("lang", "rule", "expected"),
    [
        ("it", {"t": 1, "neg": True, "tile": "tree"}, "La mia tessera non è di tipo albero"),
        ("fr", {"t": 6, "neg": False, "tile": "witch"}, "Je suis à côté d'une tuile sorcière"),
        ("it", {"t": 13, "neg": False, "egg": "red", "line": "column"}, "C'è un uovo rosso nella mia colonna"),
        ("fr", {"t": 4, "neg": False, "side": "top"}, "Ma tuile est dans la moitié haute"),
        ("it", {"t": 15, "neg": True, "n": 2, "line": "row"}, "Al massimo 2 pedine nella mia riga"),
        ("fr", {"t": 10, "neg": True}, "Toutes mes tuiles voisines ont les mêmes types d'œuf"),
    ],
)
def test_rules_are_built_from_template_and_placeholders(lang: str, rule: dict[str, Any], expected: str) -> None:
    from bot.render.reggverse import words as regg

    assert regg.Words(lang).rule(rule) == expected
    assert not ENGLISH_WORDS.search(expected)


def test_actions_objectives_and_tile_types_are_translated() -> None:
    from bot.render.reggverse import words as regg

    it, fr = regg.Words("it"), regg.Words("fr")
    assert it.action("teleport") == "Teletrasporto: spostati su una tessera libera qualsiasi"
    assert "main" in fr.action("refresh")
    assert (
        it.objective({"kind": "five_of_two", "eggs": ["red", "blue"]})
        == "+10 se hai almeno 5 uova di colore rosso o blu"
    )
    assert (
        fr.objective({"kind": "two_of_three", "eggs": ["red", "green", "blue"]})
        == "+10 si vous avez au moins 2 œufs de chaque couleur parmi rouge, vert et bleu"
    )
    assert it.tile_type("well") == "pozzo" and fr.tile_type("witch") == "sorcière"


def regg_game(seed: int, moves: int = 150) -> tuple[list[Any], list[dict[str, Any]], Any, Any]:
    engine = games.get("reggverse-riddles")
    state = engine.new(2, seed, {"action_tiles": True, "objectives": True})
    rng = Rng(seed)
    prompts, events = [], []
    for _ in range(moves):
        now = engine.prompts(state)
        if not now:
            break
        prompts += now
        picks = list(now[0].choices)
        rng.shuffle(picks)
        events += engine.apply(state, now[0].seat, [c.id for c in picks[: now[0].pick]])
    return prompts, events, engine, state


def test_reggverse_choices_summary_and_log_in_italian_and_french() -> None:
    from bot.render.reggverse import RENDERER as REGG

    prompts, events, engine, state = regg_game(5)
    english = ctx("Reggverse Riddles", "en")
    translated = 0
    for prompt in prompts:
        for choice in prompt.choices:
            source = REGG.choice_label(prompt, choice, english)
            for lang in ("it", "fr"):
                label = REGG.choice_label(prompt, choice, ctx("Reggverse Riddles", lang))
                if prompt.kind in ("play", "move", "drop", "rule", "teleport", "swap"):
                    assert not re.search(
                        r"\b(Tile|tile|egg|My|I'm|There's|All my|At (most|least)|tree|cave|"
                        r"empty|witch|well|tower)\b",
                        label,
                    ), (lang, prompt.kind, label)
                    translated += label != source
    assert translated > 20
    for seat in (None, 0):
        view = engine.view(state, seat)
        for lang in ("it", "fr"):
            text = REGG.describe_public(view, ctx("Reggverse Riddles", lang))
            assert not re.search(
                r"\b(My tile|I'm|There's|All my|At (most|least)|tree|cave|witch|tower|"
                r"Teleport|Cleanup|Secret objective|if you)\b",
                text,
            ), (lang, text)
    placed = [e for e in events if e["type"] == "rule_placed"]
    assert placed
    for event in placed:
        line = REGG.event_line(event, ctx("Reggverse Riddles", "fr", ["Ada", "Bo"]))
        assert event["text"] not in line and "{" not in line, line


def test_reggverse_pictures_draw_the_rules_in_the_language_and_stay_english_by_default() -> None:
    from bot.render.reggverse import RENDERER as REGG

    _, _, engine, state = regg_game(9, moves=40)
    view = engine.view(state, 0)
    assert REGG.image(view, "it") != REGG.image(view, "en") == REGG.image(view)


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        (
            "it",
            [
                "Dove, nella riga delle uova rosse?",
                "Quale uovo sposti? (ne restano 2)",
                "Indovina l'obiettivo segreto di Bo, il tuo vicino di destra",
            ],
        ),
        (
            "fr",
            [
                "Où dans la rangée des œufs rouges\u202f?",
                "Quel œuf déplacer\u202f? (encore 2)",
                "Devinez l'objectif secret de votre voisin de droite, Bo",
            ],
        ),
        (
            "en",
            [
                "Where in the red row?",
                "Which egg moves? (2 left)",
                "Guess the secret objective of Bo, your right neighbour",
            ],
        ),
    ],
)
def test_reggverse_questions_with_an_egg_or_a_count_are_translated(lang: str, expected: list[str]) -> None:
    from bot.render.reggverse import RENDERER
    from games.core import Choice, Prompt

    done = [Choice("done", "Done")]
    prompts = [
        Prompt(0, "rule_spot", done, info={"step": "rule_spot", "egg": "red"}),
        Prompt(0, "shift_egg", done, info={"step": "shift_egg", "from": 3, "to": 5, "left": 2}),
        Prompt(0, "guess", done, secret=True, info={"step": "guess", "target": 1, "which": "right"}),
    ]
    ctx = TableContext("Reggverse Riddles", 1, ["Ada", "Bo"], [], None, lang)
    assert [RENDERER.prompt_text(p, ctx) for p in prompts] == expected


@pytest.mark.parametrize("colour", ["red", "green", "yellow", "blue", "orange", "cyan", "purple", "pink"])
def test_french_objectives_agree_with_their_colour(colour: str) -> None:
    """A colour after "couleur" (feminine) or "œufs" (plural) agrees, or the sentence needs no agreement: no
    "œufs de couleur vert", no "la pile de couleur bleu" (issue 36.3)."""
    from bot.render.reggverse import words as regg

    fr, it = regg.Words("fr"), regg.Words("it")
    eggs = fr.eggs_of(colour)
    assert fr.objective({"kind": "most_of", "eggs": [colour]}) == f"+5 si vous avez plus d'{eggs} que vos deux voisins"
    assert fr.objective({"kind": "out_first", "eggs": [colour]}) == f"+7 si la {fr.pile(colour)} s'épuise en premier"
    assert (
        it.objective({"kind": "out_last", "eggs": [colour]}) == f"+10 se la {it.pile(colour)} si esaurisce per ultima"
    )
    for kind in ("five_of_two", "two_of_three", "most_of", "fewest_of", "out_first", "out_last", "double_but"):
        said = fr.objective({"kind": kind, "eggs": [colour, "blue" if colour != "blue" else "red"]})
        assert "de couleur" not in said, said
    assert eggs.startswith("œufs ") and (eggs.endswith("s") or colour in ("orange", "cyan")), eggs


def test_the_page_buttons_agree_in_french() -> None:
    assert (i18n.t("fr", text.BUTTON_PREVIOUS), i18n.t("fr", text.BUTTON_NEXT)) == ("Précédent", "Suivant")
