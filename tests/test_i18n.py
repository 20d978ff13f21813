"""The message catalogs: complete, consistent, up to date with the code, and nothing user-facing
left outside them; locale formatting; the command translator; the Eggs and Empires vocabulary."""

from __future__ import annotations

import ast
import json
import re
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po
from discord import app_commands

import games
from bot.render.eggs_empires import RENDERER as EGGS
from bot.render.kit.generic import TableContext
from bot.texts import i18n, text
from bot.texts.i18n import LANGUAGES, LOCALES, po_path
from bot.texts.locales import extract
from bot.texts.translator import translate
from games.core import Rng

ROOT = Path(__file__).resolve().parents[1]
BOT = ROOT / "bot"
TRANSLATED = [lang for lang in LANGUAGES if lang != i18n.DEFAULT]


def catalog(lang: str) -> Catalog:
    with po_path(lang).open("rb") as handle:
        return read_po(handle, locale=lang, domain="bot")


def template() -> Catalog:
    with (LOCALES / "bot.pot").open("rb") as handle:
        return read_po(handle, domain="bot")


def keys(messages: Catalog) -> set[tuple[str | None, Any]]:
    return {(m.context, m.id) for m in messages if m.id}


def placeholders(value: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(value) if name is not None}


def forms(message: Message) -> list[str]:
    return [message.string] if isinstance(message.string, str) else list(message.string or ())


def ids(message: Message) -> list[str]:
    return [message.id] if isinstance(message.id, str) else list(message.id)


# --- the catalogs ------------------------------------------------------------------------------
def test_the_template_is_what_the_code_marks_and_every_language_has_every_message() -> None:
    marked = keys(extract())
    assert marked == keys(template()), "run `python -m bot.texts.locales` after changing marked messages"
    assert len(marked) > 150
    for lang in TRANSLATED:
        assert keys(catalog(lang)) == marked, lang


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_translation_is_filled_with_the_same_placeholders_and_all_plural_forms(lang: str) -> None:
    messages = catalog(lang)
    assert messages.num_plurals == 2  # Italian and French: one, other
    plurals = 0
    for message in messages:
        if not message.id:
            continue
        assert not message.fuzzy, message.id
        wanted = set().union(*(placeholders(i) for i in ids(message)))
        translations = forms(message)
        if message.pluralizable:
            plurals += 1
            assert len(translations) == messages.num_plurals, message.id
        for value in translations:
            assert value.strip(), f"{lang}: no translation for {message.id!r}"
            if message.pluralizable:  # a singular form may leave out {count}, as English may
                assert placeholders(value) <= wanted, (lang, message.id, value)
            else:
                assert placeholders(value) == wanted, (lang, message.id, value)
        assert set().union(*(placeholders(v) for v in translations)) == wanted, (lang, message.id)
        if message.context == "command":  # slash command and option names: Discord's rules
            assert re.fullmatch(r"[-_\w]{1,32}", translations[0]) and translations[0] == translations[0].lower()
    assert plurals >= 2


def test_plural_forms_follow_each_language() -> None:
    assert i18n.tn("en", text.LOBBY_FULL, 1) == "The lobby is full (1 seat)."
    assert i18n.tn("it", text.LOBBY_FULL, 6) == "La lobby è piena (6 posti)."
    assert i18n.tn("fr", text.LOBBY_FULL, 1) == "La salle d'attente est complète (1 place)."
    assert i18n.tn("fr", text.LOBBY_FULL, 4) == "La salle d'attente est complète (4 places)."


def test_languages_fall_back_to_english() -> None:
    assert [i18n.language(x) for x in ("it", "fr", "en-US", "en-GB", "de", "pt-BR", None, "")] == [
        "it",
        "fr",
        "en",
        "en",
        "en",
        "en",
        "en",
        "en",
    ]
    assert i18n.language(discord.Locale.italian) == "it"
    assert i18n.t("de", text.HOST_ONLY) == "Only the host can do that."
    assert i18n.t("it", text.HOST_ONLY) == "Solo chi ospita la partita può farlo."


def test_numbers_dates_and_lists_follow_the_locale() -> None:
    from datetime import UTC, date, datetime

    assert [i18n.number(lang, 12345.5) for lang in LANGUAGES] == ["12,345.5", "12.345,5", "12\u202f345,5"]
    assert [i18n.listing(lang, ["Ada", "Bo", "Cy"]) for lang in LANGUAGES] == [
        "Ada, Bo, and Cy",
        "Ada, Bo e Cy",
        "Ada, Bo et Cy",
    ]
    day = date(2025, 3, 1)
    assert [i18n.day(lang, day) for lang in LANGUAGES] == ["Mar 1, 2025", "1 mar 2025", "1 mars 2025"]
    moment = datetime(2025, 3, 1, 18, 5, tzinfo=UTC)
    assert "18:05" in i18n.moment("fr", moment) and "6:05" in i18n.moment("en", moment)


def test_the_translator_answers_names_with_their_context_and_leaves_english_alone() -> None:
    where = app_commands.TranslationContextLocation
    assert translate("new", "fr", where.command_name, {}) == "nouvelle"
    assert translate("Which game", "it", where.parameter_description, {}) == "Quale gioco"
    assert translate("game", "it", where.group_name, {}) == "partita"
    # A word with no translation gives None, so Discord keeps the English.
    assert translate("Eggs and Empires", "fr", where.choice_name, {}) is None
    templated = {"msgid": text.TIMER_MINUTES, "minutes": 5}
    assert translate("5 min per decision", "it", where.choice_name, templated) == "5 min per decisione"


# --- nothing user-facing outside the catalogs --------------------------------------------------
# What counts as user-facing: a string literal in bot/ (f-string pieces included) that reads as
# words for people: it has a space between words or starts with a capitalised word, or it is
# passed where Discord shows text (content=, label=, placeholder=, title=, description=, name=,
# text=, an embed field's value=, or the message of send/send_message/refuse). Not counted: the markers N_/NP_/NN_
# themselves (that is the catalog), docstrings, logging calls, and the console-only modules below
# (the operator's terminal, before any Discord user is involved), `__all__`, dict keys (looked
# up in engine data) and lookups (dict.get), and patterns a renderer uses to read the engine's
# English labels (arguments of re.* and str.startswith).
# Text read by operators, not players: command-line messages, metric help, health reasons, log formats.
CONSOLE_ONLY = {
    "bot/__main__.py",
    "bot/ops/settings.py",
    "bot/app/metrics.py",
    "bot/ops/logs.py",
    "bot/terminal/__init__.py",
    "bot/terminal/__main__.py",
}
MARKERS = {"N_", "NP_", "NN_"}
LOG_METHODS = {"debug", "info", "warning", "error", "exception", "critical"}
PATTERN_CALLS = {"compile", "search", "match", "fullmatch", "startswith", "endswith", "get"}
SHOWN_KEYWORDS = {"content", "label", "placeholder", "title", "description", "name", "text"}
FIELD_CALLS = {"add_field", "insert_field_at", "set_field_at"}  # where value= is shown text (else an id)
SHOWN_CALLS = {"send", "send_message", "refuse"}
PROSE = re.compile(r"[A-Za-z]{2,}[^\n]*\s[^\n]*[A-Za-z]{2,}|^[A-Z][a-z]{2,}")
LETTER = re.compile(r"[A-Za-z]")


def _call_name(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def _strings(node: ast.AST) -> Iterator[ast.Constant]:
    for child in ast.walk(node):
        if isinstance(child, ast.Constant) and isinstance(child.value, str):
            yield child


def _shown_text(node: ast.expr) -> list[ast.Constant]:
    """The literal text of an argument: a string, or the literal pieces of an f-string."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node]
    if isinstance(node, ast.JoinedStr):
        return [v for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str)]
    return []


def user_facing_literals(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    exempt: set[int] = set()  # ids of Constant nodes that are not user-facing
    shown: set[int] = set()  # ids of Constant nodes in a place Discord shows
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                exempt.add(id(first.value))
        if isinstance(node, ast.Dict):  # keys are looked up in engine data ("Magic Spring": "MS")
            exempt.update(id(k) for k in node.keys if isinstance(k, ast.Constant))
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            exempt.update(id(c) for c in _strings(node))
        if isinstance(node, ast.Call):
            name = _call_name(node)
            if (
                name in MARKERS
                or name in PATTERN_CALLS
                or (
                    name in LOG_METHODS
                    and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Name)
                    and node.func.value.id in {"log", "logger", "logging"}
                )
            ):
                exempt.update(id(c) for c in _strings(node))
                continue
            for keyword in node.keywords:
                if keyword.arg in SHOWN_KEYWORDS or (keyword.arg == "value" and name in FIELD_CALLS):
                    shown.update(id(c) for c in _shown_text(keyword.value))
            if name in SHOWN_CALLS and node.args:
                shown.update(id(c) for c in _shown_text(node.args[0]))
    found: list[tuple[int, str]] = []
    for constant in _strings(tree):
        if id(constant) in exempt:
            continue
        value = str(constant.value)
        if PROSE.search(value) or (id(constant) in shown and LETTER.search(value)):
            found.append((constant.lineno, value))
    return found


def test_no_user_facing_string_in_bot_is_outside_the_catalogs() -> None:
    offenders = []
    for path in sorted(BOT.rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        if relative in CONSOLE_ONLY or relative.startswith("bot/texts/locales/"):
            continue
        offenders += [f"{relative}:{line}: {value!r}" for line, value in user_facing_literals(path)]
    assert not offenders, "\n".join(offenders)


def test_the_scanner_catches_what_it_should(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        '"""Docstrings are fine."""\n'
        'log.info("Logging is fine %s", x)\n'
        'a = N_("Marked is fine")\n'
        'b = "plain_key"\n'
        'await channel.send("Hello there")\n'
        'button = Button(label="join")\n'
        'line = f"{name} wins the game"\n'
        'word = "Victory"\n',
        encoding="utf-8",
    )
    assert sorted(line for line, _ in user_facing_literals(sample)) == [5, 6, 7, 8]


# --- game vocabulary ---------------------------------------------------------------------------
def eggs_prompts() -> Iterator[Any]:
    """Prompts of every kind from real Eggs and Empires games (seeded random play)."""
    engine = games.get("eggs-empires")
    for seed in range(4):
        state = engine.new(3, seed)
        rng = Rng(seed)
        for _ in range(400):
            prompts = engine.prompts(state)
            if not prompts:
                break
            yield from prompts
            prompt = prompts[0]
            picks = list(prompt.choices)
            rng.shuffle(picks)
            engine.apply(state, prompt.seat, [c.id for c in picks[: prompt.pick]])


def test_every_eggs_and_empires_prompt_and_choice_is_translated_with_the_rulebook_names() -> None:
    kinds: set[str] = set()
    for lang in TRANSLATED:
        ctx = TableContext("Eggs and Empires", 1, ["Ada", "Bo", "Cy"], [], None, lang)
        for prompt in eggs_prompts():
            kinds.add(prompt.kind)
            question = EGGS.prompt_text(prompt, ctx)
            assert question != prompt.text and "{" not in question, (lang, prompt.kind, question)
            for choice in prompt.choices:
                label = EGGS.choice_label(prompt, choice, ctx)
                assert "{" not in label and label.strip()
                if lang == "it" or prompt.kind != "play":  # the French rulebook keeps English names
                    assert label != choice.label, (lang, prompt.kind, choice)
    assert kinds >= {"mulligan", "play", "egg", "courier", "priest"}
    rulebook = ROOT.parent / "shared" / "rules" / "eggs-and-empires.it.md"
    if rulebook.exists():
        words = rulebook.read_text(encoding="utf-8")
        from bot.render.eggs_empires import card_name

        for value in range(1, 11):
            assert f"**{card_name('it', value)} [" in words, card_name("it", value)


# --- glossaries --------------------------------------------------------------------------------
def glossary(lang: str) -> dict[str, dict[str, list[str]]]:
    data = json.loads((LOCALES / f"glossary.{lang}.json").read_text("utf-8"))
    return {game: terms for game, terms in data.items() if not game.startswith("_")}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_glossary_terms_are_used_consistently_in_the_catalog(lang: str) -> None:
    """Where an English message uses a glossary term, its translation uses that term's translation."""
    terms = glossary(lang)
    assert set(terms) >= {"table", "eggs-empires", "eight-minute-empire", "reggverse-riddles"}
    assert set(terms["table"]) >= {"lobby", "host", "rating", "score", "round", "turn"}
    messages = [m for m in catalog(lang) if m.id and m.context != "command"]
    checked = 0
    for game_terms in terms.values():
        for english, accepted in game_terms.items():
            # Whole words (plural -s/-es allowed); a capitalised term is a proper game term: case matters.
            flags = 0 if english[0].isupper() else re.IGNORECASE
            pattern = re.compile(rf"\b{re.escape(english)}(?:s|es)?\b", flags)
            for message in messages:
                if any(pattern.search(re.sub(r"\{[^}]*\}", "", i)) for i in ids(message)):
                    checked += 1
                    translated = re.sub(r"\{[^}]*\}", "", " ".join(forms(message))).lower()
                    assert any(a.lower() in translated for a in accepted), (lang, english, message.id)
    assert checked > 50


# --- the other games' narration ----------------------------------------------------------------
def test_eight_minute_empire_prompts_and_log_lines_are_translated() -> None:
    from bot.render.eight_minute_empire import RENDERER as EME

    engine = games.get("eight-minute-empire")
    state = engine.new(2, 7)
    seen: set[str] = set()
    events: list[dict[str, Any]] = []
    rng = Rng(7)
    for _ in range(300):
        prompts = engine.prompts(state)
        if not prompts:
            break
        for lang in TRANSLATED:
            ctx = TableContext("Eight-Minute Empire: Legends", 1, ["Ada", "Bo"], [], None, lang)
            for prompt in prompts:
                question = EME.prompt_text(prompt, ctx)
                assert question != prompt.text and "{" not in question and "?" not in question[:1], question
                seen.add(prompt.kind)
        prompt = prompts[0]
        picks = list(prompt.choices)
        rng.shuffle(picks)
        events += engine.apply(state, prompt.seat, [c.id for c in picks[: prompt.pick]])
    assert {"neutral", "bid", "card"} <= seen
    narrated = 0
    for lang in TRANSLATED:
        ctx = TableContext("Eight-Minute Empire: Legends", 1, ["Ada", "Bo"], [], None, lang)
        english = TableContext("Eight-Minute Empire: Legends", 1, ["Ada", "Bo"], [], None, "en")
        for event in events:
            line, original = EME.event_line(event, ctx), EME.event_line(event, english)
            if original and event.get("type") in ("neutral", "bids", "take", "place", "move", "city", "destroy"):
                assert line != original and "{" not in line, (lang, line)
                narrated += 1
    assert narrated > 10


def test_reggverse_log_lines_and_egg_colours_are_translated() -> None:
    """Colours agree with the noun they describe (issue 22): "uovo rosso" but "uova rosse", "pila delle
    uova verdi"; a source keeps its own preposition; French spaces before ":" do not break."""
    from bot.render.reggverse import RENDERER as REGG

    ctx = TableContext("Reggverse Riddles", 1, ["Ada", "Bo"], [], None, "it")
    dropped = {"type": "dropped", "seat": 0, "egg": "red", "source": "pile", "cell": 5, "square": "b2"}
    assert (
        REGG.event_line({**dropped, "source_square": None}, ctx)
        == "Ada lascia un uovo rosso in b2, preso dalla sua pila"
    )
    collected = {"type": "collected", "seat": 1, "eggs": ["blue", "pink"], "sources": ["pile", "c3"]}
    line = REGG.event_line({**collected, "source_squares": [None, "d1"], "cell": 5}, ctx)
    assert line == "Bo raccoglie un uovo blu e un uovo rosa da d1"
    assert (
        REGG.event_line({"type": "pile_out", "egg": "red"}, ctx)
        == "La pila delle uova rosse è vuota: le sue regole sono tolte"
    )
    traded = {"type": "traded", "seat": 0, "gave": "yellow", "got": "red", "returned": True}
    assert REGG.event_line(traded, ctx) == "Ada scambia 3 uova gialle, che tornano nella loro pila, con un uovo rosso"
    fr = TableContext("Reggverse Riddles", 1, ["Ada", "Bo"], [], None, "fr")
    line = REGG.event_line({"type": "pile_out", "egg": "green"}, fr)
    assert line == "La pile des œufs verts est vide\u00a0: ses règles sont retirées"
    assert (
        REGG.event_line(traded, fr) == "Ada échange 3 œufs jaunes, qui retournent dans leur pile, contre un œuf rouge"
    )


@pytest.mark.parametrize("key", ["eight-minute-empire", "reggverse-riddles"])
def test_pictures_are_drawn_in_the_requested_language(key: str) -> None:
    from bot.render import renderer_for

    engine = games.get(key)
    view = engine.view(engine.new(2, 11), None)
    renderer = renderer_for(key)
    english, italian, french = (renderer.image(view, lang) for lang in LANGUAGES)
    assert english and italian and french
    assert len({english, italian, french}) == 3  # the words drawn differ; nothing else does
    assert renderer.image(view) == english  # the default (and the golden pictures) stay English


def test_reggverse_table_text_is_translated_around_the_engines_rule_texts() -> None:
    from bot.render.reggverse import RENDERER as REGG

    engine = games.get("reggverse-riddles")
    state = engine.new(2, 4)
    for seat in (None, 0):
        view = engine.view(state, seat)
        english = REGG.describe_public(view, TableContext("Reggverse Riddles", 1, ["Ada", "Bo"], [], None, "en"))
        italian = REGG.describe_public(view, TableContext("Reggverse Riddles", 1, ["Ada", "Bo"], [], None, "it"))
        assert "Pawns:" in english and "Pedine:" in italian and "Pawns:" not in italian
        assert italian.count("\n") == english.count("\n")  # the same lines, one per thing
        if seat is not None:
            assert "movimento" in italian and "tessera" in italian


def test_numbers_are_formatted_as_babel_formats_them_in_every_language() -> None:
    """Integers are remembered once formatted (tables format the same few over and over); the text is
    Babel's all the same, in each language, for any integer and for other numbers."""
    from babel.numbers import format_decimal

    for lang in i18n.LANGUAGES:
        for value in (0, 1, 7, -3, 999, 1234, 1_000_000, 12345, 1234):
            assert i18n.number(lang, value) == format_decimal(value, locale=lang)
        assert i18n.number(lang, 2.5) == format_decimal(2.5, locale=lang)
    assert i18n.number("fr", 1234) != i18n.number("en", 1234), "each language its own grouping"


def test_lists_are_formatted_as_babel_formats_them_in_every_language() -> None:
    from babel.lists import format_list

    for lang in i18n.LANGUAGES:
        for names in (["Ann"], ["Ann", "Bob"], ["Ann", "Bob", "Cy"], ["Bob", "Ann", "Cy"]):
            assert i18n.listing(lang, names) == format_list(names, locale=lang)
            assert i18n.listing(lang, iter(names)) == format_list(names, locale=lang)
        assert i18n.listing(lang, []) == "-"
    assert i18n.listing("it", ["A", "B"]) != i18n.listing("en", ["A", "B"])
