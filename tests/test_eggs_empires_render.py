"""Eggs and Empires in the bot's words: everything is phrased from the engine's data (never its English
labels or prompt texts), players are named by their names, and card names carry their own articles."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

import games
from bot.render.eggs_empires import RENDERER
from bot.render.kit.generic import TableContext
from games.ai import RandomPlayer
from games.core import Choice, Prompt

GAME = games.get("eggs-empires")
NAMES = ["Ada", "Bo", "Cy", "Dee"]
LANGS = ("en", "it", "fr")
SEAT_WORDS = re.compile(r"\b(seat|posto|si[eè]ge|player|giocatore|joueur)\s*\d", re.IGNORECASE)


def moments(players: int, seed: int) -> Iterator[tuple[dict[Any, Any], list[Prompt], list[dict[str, Any]]]]:
    """(views by audience, prompts, public events that led here) at every decision of a random game."""
    state = GAME.new(players, seed)
    ais = [RandomPlayer(seed + s) for s in range(players)]
    events: list[dict[str, Any]] = []
    while prompts := GAME.prompts(state):
        yield GAME.views(state, [None, *range(players)]), prompts, events
        prompt = prompts[0]
        events = [
            e for e in GAME.apply(state, prompt.seat, ais[prompt.seat].choose(GAME, state, prompt)) if "to" not in e
        ]
    yield GAME.views(state, [None, *range(players)]), [], events


def scrambled(prompt: Prompt) -> Prompt:
    """The same prompt with every English word of the engine replaced."""
    choices = [Choice(c.id, "SCRAMBLED", c.data) for c in prompt.choices]
    return Prompt(prompt.seat, prompt.kind, choices, prompt.pick, prompt.secret, "SCRAMBLED", prompt.info)


def everything_said(players: int, seed: int, lang: str, scramble: bool = False) -> list[str]:
    """Every text the renderer produces over a whole game, for one language."""
    said: list[str] = []
    for views, prompts, events in moments(players, seed):
        ctx = TableContext("Eggs and Empires", 7, NAMES[:players], [p.seat for p in prompts], None, lang)
        said += [json.dumps(e.to_dict(), ensure_ascii=False) for e in RENDERER.table(views[None], ctx)]
        said.append(RENDERER.log_line(events, ctx) or "")
        for prompt in prompts:
            shown = scrambled(prompt) if scramble else prompt
            said.append(json.dumps(RENDERER.seat(views[prompt.seat], shown, ctx, prompt.seat).to_dict()))
            said.append(RENDERER.prompt_text(shown, ctx))
            said += [RENDERER.choice_label(shown, c, ctx) for c in shown.choices]
    return said


@pytest.mark.parametrize("lang", LANGS)
def test_nothing_said_depends_on_the_engines_english_labels_or_prompt_texts(lang: str) -> None:
    assert everything_said(3, 4, lang) == everything_said(3, 4, lang, scramble=True)


@pytest.mark.parametrize("lang", LANGS)
def test_players_are_named_never_numbered(lang: str) -> None:
    said = everything_said(4, 9, lang)
    numbered = [line for line in said if SEAT_WORDS.search(line)]
    assert not numbered, numbered[:3]
    assert not [line for line in said if "{" in line.replace("{}", "") and '"' not in line]
    whole = "\n".join(said)
    assert all(name in whole for name in NAMES)


def test_choices_name_the_players_and_eggs_they_stand_for() -> None:
    ctx = TableContext("Eggs and Empires", 7, NAMES, [], None, "en")
    courier = Prompt(0, "courier", [Choice("give2", "x", {"kind": "give", "seat": 2, "value": 5})], info={"egg": 5})
    assert RENDERER.choice_label(courier, courier.choices[0], ctx) == "Give it to Cy"
    assert RENDERER.prompt_text(courier, ctx) == "Courier: give the +5 Egg to another player?"
    hidden = {"kind": "egg", "slot": 2, "value": None, "face_down": True, "scout": 3}
    mine = {"kind": "egg", "slot": 2, "value": -6, "face_down": True, "scout": 0}
    egg = Prompt(0, "egg", [Choice("s2", "x", hidden), Choice("s2", "x", mine)], info={"card": 7})
    assert [RENDERER.choice_label(egg, c, ctx) for c in egg.choices] == [
        "Face-down Egg (scouted by Dee)",
        "Face-down Egg (you scouted it: -6)",
    ]


@pytest.mark.parametrize(
    ("lang", "card", "question", "collects", "keeps"),
    [
        ("en", 10, "Which Egg do you collect with the Hero (10)?", "Ada: the Hero (10) takes the +5 Egg", None),
        ("it", 10, "Quale Uovo recuperi con l'Eroe (10)?", "Ada: l'Eroe (10) prende l'Uovo +5", None),
        (
            "it",
            9,
            "Quale Uovo recuperi con la Sacerdotessa Oscura (9)?",
            "Ada: la Sacerdotessa Oscura (9) prende l'Uovo +5",
            None,
        ),
        ("it", 5, None, None, "Ada tiene il Mercante (5) per il punteggio"),
        ("it", 2, None, "Ada: l'Esploratore (2) prende l'Uovo +5", None),
        (
            "fr",
            9,
            "Quel œuf récupérez-vous avec la Dark Priestess (9)\u202f?",
            "Ada\u00a0: la Dark Priestess (9) prend l'œuf +5",
            None,
        ),
        ("fr", 8, None, None, "Ada garde le Blacksmith (8) dans sa pile de score"),
    ],
)
def test_card_names_come_with_their_own_article(
    lang: str, card: int, question: str | None, collects: str | None, keeps: str | None
) -> None:
    """Issue 22: no template splices an article onto a card name ("il Eroe", "le Dark Priestess")."""
    ctx = TableContext("Eggs and Empires", 7, NAMES, [], None, lang)
    if question is not None:
        assert RENDERER.prompt_text(Prompt(0, "egg", [], info={"card": card}), ctx) == question
    if collects is not None:
        event = {"type": "collect", "seat": 0, "card": card, "value": 5, "face_down": False}
        assert RENDERER.event_line(event, ctx) == collects
    if keeps is not None:
        assert RENDERER.event_line({"type": "bonus", "seat": 0, "card": card}, ctx) == keeps


@pytest.mark.parametrize(
    ("lang", "counted", "open_ended"), [("en", "Round 1/3 ·", "Round 1 ·"), ("fr", "Manche 1/3 ·", "Manche 1 ·")]
)
def test_the_rounds_are_counted_only_when_the_game_has_a_number_of_them(
    lang: str, counted: str, open_ended: str
) -> None:
    """Standard scoring plays 3 rounds; Con/Pub plays until someone holds enough Egg Tokens: its table says
    the round, not "1/?" (as its picture does)."""
    for scoring, expected in (("standard", counted), ("conpub", open_ended)):
        state = GAME.new(3, 5, {"scoring": scoring})
        ctx = TableContext("Eggs and Empires", 7, NAMES[:3], [], None, lang)
        text = json.dumps([e.to_dict() for e in RENDERER.table(GAME.view(state, None), ctx)], ensure_ascii=False)
        assert expected in text and "/?" not in text, (scoring, text[:300])
