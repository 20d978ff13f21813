"""Italian and French that read as a native player writes them (issue 22): each case the issue lists,
rendered through the real templates and renderers and compared with sentences written by hand; every
template of the catalogs filled with sample values of both genders and numbers; French typography.
"""

from __future__ import annotations

import re
import string
from typing import Any

import pytest
from babel.messages.pofile import read_po

from bot.render.eggs_empires import RENDERER as EGGS
from bot.render.kit.chart import axis_label
from bot.render.kit.generic import TableContext
from bot.render.reggverse import RENDERER as REGG
from bot.render.reggverse.words import A_TILES, AN_EGGS, Words
from bot.texts import i18n, text
from bot.texts.i18n import po_path
from bot.texts.locales.typography import typeset

NNBSP = "\u202f"  # before ; ! ?
NBSP = "\u00a0"  # before : and inside « »


def ctx(game: str, lang: str, names: tuple[str, ...] = ("Anna", "Luca")) -> TableContext:
    return TableContext(game, 1, list(names), [], None, lang)


def eggs_line(lang: str, event: dict[str, Any]) -> str:
    return EGGS.event_line(event, ctx("Eggs and Empires", lang))


def regg_line(lang: str, event: dict[str, Any]) -> str:
    return REGG.event_line(event, ctx("Reggverse Riddles", lang))


# --- an article with a card's name: in the name's own catalog entry, agreeing with it ---------------
@pytest.mark.parametrize(
    ("lang", "card", "expected"),
    [
        ("it", 10, "Anna: l'Eroe (10) prende l'Uovo +5"),
        ("it", 2, "Anna: l'Esploratore (2) prende l'Uovo +5"),
        ("it", 9, "Anna: la Sacerdotessa Oscura (9) prende l'Uovo +5"),
        ("it", 6, "Anna: il Sacerdote (6) prende l'Uovo +5"),
        ("fr", 9, f"Anna{NBSP}: la Dark Priestess (9) prend l'œuf +5"),
        ("fr", 10, f"Anna{NBSP}: le Hero (10) prend l'œuf +5"),
        ("en", 9, "Anna: the Dark Priestess (9) takes the +5 Egg"),
    ],
)
def test_a_card_name_carries_its_own_article(lang: str, card: int, expected: str) -> None:
    assert eggs_line(lang, {"type": "collect", "seat": 0, "card": card, "value": 5, "face_down": False}) == expected


def test_a_card_kept_for_scoring_and_the_question_about_it_agree_with_the_card() -> None:
    kept = {"type": "bonus", "seat": 1, "card": 9}
    assert eggs_line("it", kept) == "Luca tiene la Sacerdotessa Oscura (9) per il punteggio"
    assert eggs_line("fr", kept) == "Luca garde la Dark Priestess (9) dans sa pile de score"
    assert i18n.t("it", "Which Egg do you collect with {the_card}?", the_card="l'Eroe (10)") == (
        "Quale Uovo recuperi con l'Eroe (10)?"
    )


def test_a_reveal_names_each_players_cards_with_the_languages_punctuation() -> None:
    reveal = {"type": "reveal", "plays": [[9], [2, 10]], "tie": True}
    assert eggs_line("en", reveal) == "Revealed: Anna: Dark Priestess (9); Luca: Scout (2), Hero (10) (tie)"
    assert eggs_line("it", reveal) == (
        "Rivelate: Anna: Sacerdotessa Oscura (9); Luca: Esploratore (2), Eroe (10) (pareggio)"
    )
    assert eggs_line("fr", reveal) == (
        f"Révélées{NBSP}: Anna{NBSP}: Dark Priestess (9){NNBSP}; Luca{NBSP}: Scout (2), Hero (10) (égalité)"
    )


# --- a source phrase keeps its own preposition --------------------------------------------------------
def test_where_a_dropped_egg_came_from_is_one_phrase_per_source() -> None:
    dropped = {"type": "dropped", "seat": 0, "egg": "yellow", "square": "b2"}
    assert regg_line("it", {**dropped, "source": "pile"}) == "Anna lascia un uovo giallo in b2, preso dalla sua pila"
    assert regg_line("it", {**dropped, "source": "mine"}) == (
        "Anna lascia un uovo giallo in b2, preso dalle uova che ha raccolto"
    )
    assert regg_line("it", {**dropped, "source": "c3", "source_square": "c3"}) == (
        "Anna lascia un uovo giallo in b2, preso da c3"
    )
    assert regg_line("fr", {**dropped, "source": "pile"}) == "Anna dépose un œuf jaune en b2, pris dans sa pile"
    assert regg_line("fr", {**dropped, "source": "mine"}) == (
        "Anna dépose un œuf jaune en b2, pris parmi ses œufs récupérés"
    )
    assert (
        regg_line("fr", {**dropped, "source": "c3", "source_square": "c3"})
        == "Anna dépose un œuf jaune en b2, pris en c3"
    )


# --- colours agree with the noun they describe -------------------------------------------------------
def test_colours_agree_with_eggs_piles_and_rows() -> None:
    assert regg_line("it", {"type": "pile_out", "egg": "red"}) == (
        "La pila delle uova rosse è vuota: le sue regole sono tolte"
    )
    assert regg_line("fr", {"type": "pile_out", "egg": "green"}) == (
        f"La pile des œufs verts est vide{NBSP}: ses règles sont retirées"
    )
    assert (
        regg_line("it", {"type": "rules_cleared", "seat": 0, "egg": "green"}) == "Anna svuota la riga delle uova verdi"
    )
    assert regg_line("fr", {"type": "rules_cleared", "seat": 0, "egg": "green"}) == "Anna vide la rangée des œufs verts"
    traded = {"type": "traded", "seat": 0, "gave": "red", "got": "blue", "returned": True}
    assert regg_line("it", traded) == "Anna scambia 3 uova rosse, che tornano nella loro pila, con un uovo blu"
    assert regg_line("fr", traded) == "Anna échange 3 œufs rouges, qui retournent dans leur pile, contre un œuf bleu"
    stole = {"type": "stole", "seat": 0, "from": 1, "egg": "red"}
    assert regg_line("it", stole) == "Anna ruba un uovo rosso dalle uova raccolte da Luca"
    assert regg_line("fr", stole) == "Anna vole un œuf rouge à Luca"
    switched = {"type": "rules_switched", "seat": 1, "eggs": ["red", "blue"]}
    assert regg_line("it", switched) == "Luca scambia la riga delle uova rosse con la riga delle uova blu"
    assert regg_line("fr", switched) == "Luca échange la rangée des œufs rouges avec la rangée des œufs bleus"
    swapped = {"type": "tiles_swapped", "seat": 1, "squares": ["a1", "b2"]}
    assert regg_line("it", swapped) == "Luca scambia le tessere della mappa a1 e b2"
    assert regg_line("fr", swapped) == "Luca échange les tuiles de la carte a1 et b2"


# --- an egg or a tile with its article: one catalog entry per colour and tile type ------------------------
def regg_rule(lang: str, rule: dict[str, Any]) -> str:
    return Words(lang, ("Anna", "Luca")).rule(rule)


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        (
            "en",
            [
                "My tile has an orange egg",
                "My tile has no orange egg",
                "I'm next to an empty tile",
                "I'm not next to a tree tile",
                "I'm not next to an orange egg",
                "There's an empty tile in my column",
                "There's no empty tile in my row",
                "There's a red egg in my row",
            ],
        ),
        (
            "it",
            [
                "La mia tessera ha un uovo arancione",
                "La mia tessera non ha un uovo arancione",
                "Sono accanto a una tessera vuota",
                "Non sono accanto a una tessera albero",
                "Non sono accanto a un uovo arancione",
                "C'è una tessera vuota nella mia colonna",
                "Non c'è nessuna tessera vuota nella mia riga",
                "C'è un uovo rosso nella mia riga",
            ],
        ),
        (
            "fr",
            [
                "Ma tuile a un œuf orange",
                "Ma tuile n'a pas d'œuf orange",
                "Je suis à côté d'une tuile vide",
                "Je ne suis pas à côté d'une tuile arbre",
                "Je ne suis pas à côté d'un œuf orange",
                "Il y a une tuile vide dans ma colonne",
                "Il n'y a pas de tuile vide dans ma rangée",
                "Il y a un œuf rouge dans ma rangée",
            ],
        ),
    ],
)
def test_a_rule_names_an_egg_or_a_tile_with_the_article_its_word_takes(lang: str, expected: list[str]) -> None:
    rules: list[dict[str, Any]] = [
        {"t": 2, "egg": "orange"},
        {"t": 2, "egg": "orange", "neg": True},
        {"t": 6, "tile": "empty"},
        {"t": 6, "tile": "tree", "neg": True},
        {"t": 7, "egg": "orange", "neg": True},
        {"t": 12, "tile": "empty", "line": "column"},
        {"t": 12, "tile": "empty", "neg": True},
        {"t": 13, "egg": "red"},
    ]
    assert [regg_rule(lang, rule) for rule in rules] == expected


def test_the_log_names_an_egg_with_the_article_its_colour_takes() -> None:
    collected = {"type": "collected", "seat": 0, "eggs": ["orange", "red"], "source_squares": ["b2", None]}
    assert regg_line("en", collected) == "Anna collects an orange egg from b2 and a red egg"
    assert regg_line("it", collected) == "Anna raccoglie un uovo arancione da b2 e un uovo rosso"
    assert regg_line("fr", collected) == "Anna récupère un œuf orange pris en b2 et un œuf rouge"
    placed = {"type": "egg_placed", "seat": 1, "egg": "orange", "square": "c1"}
    assert regg_line("en", placed) == "Luca puts an orange egg from its pile on c1"
    traded = {"type": "traded", "seat": 0, "gave": "red", "got": "orange", "returned": False}
    assert regg_line("en", traded) == "Anna trades 3 red eggs, out of the game, for an orange egg"


def test_french_elides_de_before_every_egg_and_tile_phrase() -> None:
    # The French rules say "à côté d'{a_tile}" / "d'{an_egg}": every such phrase must begin with a vowel;
    # the Italian "accanto a {a_tile}" wants no "ad": none begins with an "a".
    for lang, tile, egg in (("fr", "une ", "un "), ("it", "una ", "un ")):
        for kind in A_TILES:
            assert Words(lang).a_tile(kind).startswith(tile), kind
        for colour in AN_EGGS:
            assert Words(lang).an_egg(colour).startswith(egg), colour


# --- a list of names needs no verb that agrees with it ------------------------------------------------
@pytest.mark.parametrize(
    ("lang", "names", "expected"),
    [
        ("it", ["Anna"], "Tempo scaduto per Anna: ha deciso l'IA."),
        ("it", ["Anna", "Luca"], "Tempo scaduto per Anna e Luca: ha deciso l'IA."),
        ("fr", ["Anna"], f"Temps écoulé pour Anna{NBSP}: l'IA a décidé."),
        ("fr", ["Anna", "Luca"], f"Temps écoulé pour Anna et Luca{NBSP}: l'IA a décidé."),
        ("en", ["Anna", "Luca"], "Time ran out for Anna and Luca: the AI decided."),
    ],
)
def test_names_that_did_not_decide_in_time(lang: str, names: list[str], expected: str) -> None:
    assert i18n.t(lang, text.AFK_LOG, names=i18n.listing(lang, names)) == expected


def test_winners_ties_and_guessers_read_right_for_one_name_or_several() -> None:
    assert i18n.tn("it", text.RESULT_CONTENT, 2, names="Anna e Luca", mentions="") == (
        "Partita finita! Vincono Anna e Luca. "
    )
    assert i18n.tn("fr", text.RESULT_CONTENT, 1, names="Anna", mentions="") == f"Partie terminée{NNBSP}! Anna gagne. "
    assert i18n.t("it", text.RESULT_TIE_SHARED, names="Anna e Luca", score=12) == (
        "Pari merito a 12 tra Anna e Luca, che condividono il posto."
    )
    assert i18n.t("fr", text.RESULT_TIE_SHARED, names="Anna et Luca", score=12) == (
        "Égalité à 12 entre Anna et Luca, qui se partagent la place."
    )
    guessing = {"type": "guessing", "seats": [0, 1]}
    assert regg_line("it", guessing) == "Chi indovina l'obiettivo del vicino: Anna e Luca"
    assert regg_line("fr", guessing) == f"Qui devine l'objectif de son voisin{NBSP}: Anna et Luca"


# --- a relative time reads on from the verb ------------------------------------------------------------
@pytest.mark.parametrize(
    ("lang", "when", "expected"),
    [
        ("en", "in 2 minutes", "Decide in 2 minutes"),
        ("it", "tra 2 minuti", "Decidi tra 2 minuti"),
        ("fr", "dans 2 minutes", "Décidez dans 2 minutes"),
    ],
)
def test_decide_with_a_relative_time(lang: str, when: str, expected: str) -> None:
    # Discord shows <t:...:R> as "in 2 minutes" / "tra 2 minuti" / "dans 2 minutes" in the reader's language.
    assert i18n.t(lang, text.DECIDE_BY, when=when) == expected


# --- the meaning kept, and words that do not mislead --------------------------------------------------
def test_the_explore_token_variant_gives_each_token_to_one_city() -> None:
    from bot.render.eight_minute_empire import RENDERER as EME

    message = EME.option_texts["explore"]
    assert i18n.t("it", message) == (
        "sei segnalini esplorazione sulla mappa: chi costruisce per primo una città nella regione di un segnalino "
        "ottiene quel segnalino"
    )
    assert i18n.t("fr", message) == (
        f"six jetons d'exploration sur la carte{NBSP}: le premier à construire une cité dans la région d'un jeton "
        "gagne ce jeton"
    )


def test_host_lobby_rating_and_score_are_the_words_players_use() -> None:
    assert i18n.t("it", text.LOBBY_HOST, name="Anna", low=2, high=6) == "Chi ospita: Anna. Giocatori: da 2 a 6."
    assert i18n.t("fr", text.LOBBY_HOST, name="Anna", low=2, high=6) == (f"Hôte{NBSP}: Anna. Joueurs{NBSP}: de 2 à 6.")
    assert i18n.t("fr", text.LOBBY_TITLE, title="Reggverse Riddles") == f"Reggverse Riddles{NBSP}: salle d'attente"
    assert i18n.t("fr", text.NO_GAME_HERE) == "Il n'y a ni salle d'attente ni partie dans ce salon."
    assert i18n.t("it", text.RESULT_RATING, change="+12") == "Valutazione +12"
    assert i18n.t("fr", text.RESULT_RATING, change="+12") == "Cote +12"
    from bot.texts import text_stats

    assert i18n.t("it", text_stats.STATS_SCORES, average="12,5", best="20") == "Punteggio medio 12,5 · migliore 20"
    for lang in ("it", "fr"):
        catalog = read(lang)
        for message in catalog:
            if message.id and message.context != "command":
                shown = " ".join(forms(message))
                assert "Ospite" not in shown and "salon d'attente" not in shown, (lang, message.id, shown)
                assert "Punti medi" not in shown


# --- a name after a word that bends before a vowel: the Italian "a" ("a Anna" is "ad Anna"), the French
# "de" and "que" ("de Anna" is "d'Anna", "de Eggs and Empires" "d'Eggs..."). Names and titles are arbitrary,
# so the sentence puts them where nothing bends ("da {name}", the subject, after a comma) instead of
# choosing the form on their first letter. What may follow: numbers ("da {low} a {high}", "de {low}"), map
# codes ("de C2"), an egg or a tile with its article ("accanto a {an_egg}": "a un uovo"; see
# test_french_elides_de_before_every_egg_and_tile_phrase for their first word).
BENDING = {
    "it": (re.compile(r"(?<![\w'])a [*_«]*\{(\w+)\}"), {"high", "score", "target", "an_egg", "a_tile"}),
    "fr": (
        re.compile(r"(?<![\w'])(?:de|que|jusque|lorsque|puisque) [*_«\u00a0]*\{(\w+)\}"),
        {"low", "source", "origin"},
    ),
}


@pytest.mark.parametrize("lang", ["it", "fr"])
def test_no_template_puts_a_name_after_a_word_that_bends_before_a_vowel(lang: str) -> None:
    pattern, allowed = BENDING[lang]
    for message in read(lang):
        if message.id and message.context != "command":
            for value in forms(message):
                for placeholder in pattern.findall(value):
                    assert placeholder in allowed, (message.id, value)


def test_italian_sentences_that_gave_to_a_name() -> None:
    from bot.render import eggs_empires

    names = ("Anna", "Ugo")
    courier = {"type": "courier", "seat": 0, "value": 3, "to_seat": 1}
    assert EGGS.event_line(courier, ctx("Eggs and Empires", "it", names)) == "Ugo riceve un Uovo +3 da Anna"
    assert EGGS.event_line(courier, ctx("Eggs and Empires", "en", names)) == "Anna gives a +3 Egg to Ugo"
    assert i18n.t("it", eggs_empires.GIVE, name=names[1]) == "Lo riceve Ugo"
    assert i18n.t("it", eggs_empires.MARKER_TO, name=names[0]) == "Anna riceve il Segnalino di Spareggio"
    stole = {"type": "stole", "seat": 1, "from": 0, "egg": "blue"}
    assert REGG.event_line(stole, ctx("Reggverse Riddles", "it", names)) == (
        "Ugo ruba un uovo blu dalle uova raccolte da Anna"
    )


def test_french_sentences_about_a_name_beginning_with_a_vowel() -> None:
    from bot.render.reggverse import words as regg
    from bot.texts.text_stats import BOARD_EMPTY

    assert i18n.t("fr", regg.GUESS["left"], name="Ugo") == "Devinez l'objectif secret de votre voisin de gauche, Ugo"
    assert i18n.t("fr", regg.NO_EFFECT, who="Ugo") == "L'action jouée par Ugo n'a pas d'effet"
    assert i18n.t("fr", BOARD_EMPTY, title="Eggs and Empires") == (
        "Personne n'a encore terminé ici de partie classée du jeu Eggs and Empires."
    )


def test_a_players_private_message_is_titled_as_players_say_it() -> None:
    assert i18n.t("it", text.YOUR_VIEW, name="Anna") == "La tua partita, Anna"
    assert i18n.t("fr", text.YOUR_VIEW, name="Anna") == "Votre jeu, Anna"


@pytest.mark.parametrize("game_key", ["eight-minute-empire", "reggverse-riddles"])
def test_the_engines_option_help_says_what_the_catalog_says(game_key: str) -> None:
    """The engine's description is what `python -m games` prints and the guide's fallback: the same
    English as the catalog's msgid. (Eggs and Empires' engine names the raw values its command line takes,
    "tie" and "conpub", where the catalog names them in words.)"""
    import games
    from bot.messages.guide import renderer_for

    texts = renderer_for(game_key).option_texts
    for option in games.get(game_key).options:
        assert texts[option.name] == option.description, option.name


# --- typography ---------------------------------------------------------------------------------------
def read(lang: str) -> Any:
    with po_path(lang).open("rb") as handle:
        return read_po(handle, locale=lang, domain="bot")


def forms(message: Any) -> list[str]:
    return [message.string] if isinstance(message.string, str) else list(message.string)


@pytest.mark.parametrize("lang", ["it", "fr"])
def test_every_translation_is_typeset_for_its_language(lang: str) -> None:
    """`make locales` typesets every translation; none is left as typed (a French space before ":" that can
    wrap, straight quotes)."""
    for message in read(lang):
        if message.id and message.context != "command":
            for value in forms(message):
                assert typeset(lang, value) == value, (lang, message.id, value)
                assert '"' not in value, (lang, value)
                if lang == "fr":
                    assert not re.search(r" [:;!?»]|« |\u00a0[;!?]|\u202f:", value), (lang, value)


def test_french_typesetting() -> None:
    assert typeset("fr", "Hôte : {name} ; prêt ? Oui !") == f"Hôte{NBSP}: {{name}}{NNBSP}; prêt{NNBSP}? Oui{NNBSP}!"
    assert typeset("fr", 'Cliquez sur "Je suis de retour".') == f"Cliquez sur «{NBSP}Je suis de retour{NBSP}»."
    assert typeset("fr", "Vous: {row}") == f"Vous{NBSP}: {{row}}"
    # Not prose: URLs, Discord timestamps, format specifications, times of day.
    for untouched in ("https://example.org", "<t:1700000000:R>", "{value:.1f}", "18:05"):
        assert typeset("fr", untouched) == untouched
    assert typeset("it", 'Clicca "Sono tornato".') == "Clicca «Sono tornato»."
    assert typeset("it", "Chi ospita: Anna?") == "Chi ospita: Anna?"


def test_chart_axis_labels_are_numbers_as_each_language_writes_them() -> None:
    labels = [axis_label(1234.5, lang) for lang in ("en", "it", "fr")]
    assert labels == ["1,234.5", "1.234,5", f"1{NNBSP}234,5"]  # Babel's grouping
    assert axis_label(12.0, "it") == "12,0"


# --- every template, filled with sample values of both genders and numbers ---------------------------
SAMPLES: dict[str, list[str]] = {
    "it": ["Anna", "Luca", "Anna e Luca", "la Sacerdotessa Oscura (9)", "l'Eroe (10)"],
    "fr": ["Anna", "Luca", "Anna et Luca", "la Dark Priestess (9)", "le Hero (10)"],
}


@pytest.mark.parametrize("lang", ["it", "fr"])
def test_every_template_fills_with_names_of_both_genders_and_numbers(lang: str) -> None:
    """Every translation takes any value in each placeholder: no placeholder is left, no space doubled; and
    no template puts an article (or a preposition with one) before a value whose gender varies (a name,
    a card, a player, an egg's value): such a value stands alone or brings its own article. Phrases of
    one gender whatever fills them ({row}: "riga delle uova rosse", "rangée des œufs verts") may."""
    filled = 0
    varying = r"\{(card|the_card|name|names|who|other|mention|title|tile|token|value|source|egg|eggs)\}"
    articles = r"\b(il|lo|la|le|l'|i|gli|un|una|uno|un'|une|les|du|des|del|dello|della|dei|degli|delle|dal|dalla|"
    articles += r"al|alla|nel|nella|sul|sulla|au|aux)\s*"
    spliced = re.compile(articles + varying, re.IGNORECASE)
    for message in read(lang):
        if not message.id or message.context == "command":
            continue
        for value in forms(message):
            assert not spliced.search(value), (lang, message.id, value)
            names = {n for _, n, _, _ in string.Formatter().parse(value) if n}
            for sample in SAMPLES[lang]:
                for count in (1, 2):
                    params = {n: (i18n.number(lang, count) if n == "count" else sample) for n in names}
                    out = i18n.t(lang, value, **params) if names else value
                    assert "{" not in out and "  " not in out.replace("\n  ", "\n"), (lang, message.id, out)
                    filled += 1
    assert filled > 1000
