"""What Eight-Minute Empire players read is built from data: prompts from their kind and info, choices
from their data, events and views from their fields, all through the catalogs, in every language, with
players named, never numbered. (tests/test_renderers_read_data.py checks that the engine's English,
`Choice.label` and `Prompt.text`, is never read; the prompts here are guarded the same way.)"""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.render.eight_minute_empire import RENDERER
from bot.render.kit.generic import TableContext
from bot.texts.i18n import LANGUAGES
from games.core import Choice, Prompt
from games.eight_minute_empire import GAME, shapes
from tests.test_renderers_read_data import GuardedPrompt

NAMES = ["Ann", "Bob", "Cy", "Di"]
NUMBERED = re.compile(r"\b(P\d|[Ss]eat \d|[Pp]layer \d|Giocatore \d|Joueur \d)")


def context(lang: str, players: int) -> TableContext:
    return TableContext("Eight-Minute Empire: Legends", 1, NAMES[:players], [0], None, lang)


def played(players: int, seed: int, options: dict[str, Any]) -> tuple[list[Prompt], list[dict[str, Any]], list[Any]]:
    """Every prompt, event and public view of a random game."""
    state = GAME.new(players, seed, options)
    seats = [GAME.ai("random", seed * 10 + s) for s in range(players)]
    prompts: list[Prompt] = []
    events: list[dict[str, Any]] = []
    views = []
    while now := GAME.prompts(state):
        prompts += now
        views.append(GAME.view(state, now[0].seat))
        for p in now:
            events += GAME.apply(state, p.seat, seats[p.seat].choose(GAME, state, p))
    return prompts, events, views


GAMES = {
    2: played(2, 11, {"explore": True, "citadels": True}),
    4: played(4, 12, {"explore": True}),
}


@pytest.mark.parametrize("players", sorted(GAMES))
@pytest.mark.parametrize("lang", LANGUAGES)
def test_prompts_and_choices_are_phrased_from_data_without_the_engines_english(players: int, lang: str) -> None:
    prompts, _, _ = GAMES[players]
    ctx = context(lang, players)
    for prompt in prompts:
        shown: Any = GuardedPrompt(prompt)  # reading its English raises
        question = RENDERER.prompt_text(shown, ctx)
        assert question and "{" not in question and question != prompt.kind, (prompt.kind, question)
        labels = [RENDERER.choice_label(shown, c, ctx) for c in shown.choices]
        assert all(labels) and not any("{" in label or NUMBERED.search(label) for label in labels), labels
        assert len(set(labels)) == len(labels), ("two choices read the same", prompt.kind, labels)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_public_event_has_its_sentence_naming_players(lang: str) -> None:
    seen = set()
    for players, (_, events, _) in GAMES.items():
        ctx = context(lang, players)
        for event in events:
            line = RENDERER.event_line(event, ctx)
            private = "to" in event or event["type"] in RENDERER.progress_events
            assert bool(line) != private, event
            assert "{" not in line and not NUMBERED.search(line), line
            if line:
                seen.add(event["type"])
    narrated = {kind for kind in shapes.EVENTS if kind not in ("bid", "turn", "bidding")}
    assert seen >= narrated - {"game_end", "new_game", "explore", "skip"}, narrated - seen
    # The ones a random game may not reach, written out.
    for event in (
        {"type": "game_end", "game": 1, "scores": [3, 5]},
        {"type": "new_game", "game": 2, "start": "B3"},
        {"type": "explore", "seat": 1, "region": "A2", "token": "Cottage"},
        {"type": "skip", "seat": 0},
    ):
        line = RENDERER.event_line(event, context(lang, 2))
        assert line and (any(name in line for name in ("Ann", "Bob")) or event["type"] == "new_game"), line


@pytest.mark.parametrize("lang", LANGUAGES)
def test_table_and_seat_texts_name_players(lang: str) -> None:
    for players, (_, _, views) in GAMES.items():
        ctx = context(lang, players)
        for view in views[::25]:
            for text in (RENDERER.describe_public(view, ctx), RENDERER.describe_private(view, ctx, view["me"])):
                assert "{" not in text and not NUMBERED.search(text), text
                assert NAMES[view["me"]] in text


def test_english_phrases_read_as_written() -> None:
    ctx = context("en", 3)
    data = {"what": "move", "region": "A4", "continent": "Brisk", "way": "water", "cost": 2}
    prompt = Prompt(
        0, "move_to", [Choice("A4", "x", data)], info={"card": "Lake", "kind": "move", "left": 3, "from": "A2"}
    )
    assert RENDERER.choice_label(prompt, prompt.choices[0], ctx) == "A4 Brisk (sea, 2 moves)"
    assert RENDERER.prompt_text(prompt, ctx) == "Move the army from A2 to?"
    army = Choice("B2p2", "x", {"what": "army", "region": "B2", "continent": "Dunmere", "owner": 1})
    assert RENDERER.choice_label(Prompt(0, "destroy", [army]), army, ctx) == "an army of 🟦 Bob in B2"
    bid = Prompt(2, "bid", [Choice("bid0", "x", {"what": "bid", "amount": 0})], info={"coins": 1})
    assert RENDERER.prompt_text(bid, ctx) == "Your secret bid for first player (you have 1 coin)?"
    assert RENDERER.event_line({"type": "branch", "seat": 2, "action": "x", "kind": "place", "amount": 3}, ctx) == (
        "🟩 Cy chose: Place 3 armies"
    )


# --- the table and the log ------------------------------------------------------------------------------
def test_public_embed_shows_row_costs_and_every_players_figures_but_no_bids() -> None:
    ctx = context("en", 3)
    state = GAME.new(3, 2)
    GAME.apply(state, 0, ["bid7"])
    public = RENDERER.describe_public(GAME.view(state, None), ctx)
    for i, cost in enumerate((0, 1, 1, 2, 2, 3)):
        card = GAME.view(state, None)["row"][i]
        assert f"`{cost}` **{card['name']}**" in public
    assert "🟧 Ann: 11 coins" in public and "🟩 Cy: 11 coins" in public
    assert "Bids in: 🟧 Ann" in public and "7" not in public.split("Bids in:")[1].split("\n")[0]
    mine = RENDERER.describe_private(GAME.view(state, 0), ctx, 0)
    assert "Your secret bid: **7**" in mine and "Your pieces on the map: orange squares." in mine
    assert "secret bid:" not in RENDERER.describe_private(GAME.view(state, 1), ctx, 1)
    GAME.apply(state, 1, ["bid2"])
    events = GAME.apply(state, 2, ["bid0"])
    line = RENDERER.log_line([e for e in events if "to" not in e], ctx)
    assert line is not None and "Ann 7" in line and "Ann pays 7 and goes first" in line


def test_log_lines_name_players_and_regions() -> None:
    ctx = context("en", 3)
    assert RENDERER.event_line({"type": "destroy", "seat": 0, "region": "B2", "victim": 2}, ctx) == (
        "🟧 Ann destroyed an army of 🟩 Cy in B2"
    )
    assert RENDERER.event_line({"type": "destroy", "seat": 1, "region": "B2", "victim": None}, ctx) == (
        "🟦 Bob destroyed a neutral army in B2"
    )
    move = {"type": "move", "seat": 2, "origin": "A1", "dest": "A4", "cost": 3}
    assert RENDERER.event_line(move, ctx) == "🟩 Cy moved an army A1 → A4"
    assert RENDERER.event_line({"type": "bid", "to": 0, "amount": 3}, ctx) == ""  # private: never in the log
