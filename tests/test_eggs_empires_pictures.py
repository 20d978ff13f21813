"""Eggs and Empires pictures: golden images at 2, 4 and 6 players (the table and a deciding seat's), what
each picture may show (hidden information stays hidden), what it outlines, and that every moment of whole
games can be drawn."""

from __future__ import annotations

import io
import os
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import games
from bot.render import renderer_for, renderer_modules
from bot.render.eggs_empires import RENDERER
from bot.render.eggs_empires.parts import KEPT, SCALE, UNIT
from bot.render.eggs_empires.picture import png, seat_view_with_prompt
from bot.texts import i18n
from games.ai import RandomPlayer
from games.core import Prompt
from games.eggs_empires import rules
from games.eggs_empires.engine import EggsState
from harness.picture_checks import (
    PHONE_MIN_TEXT_PX,
    kept_parts_change_nothing,
    pixels_hash,
    random_moment,
    text_on_phone,
)

GOLDEN = Path(__file__).parent / "golden"
GAME = games.get("eggs-empires")
NAMES = ["Ada", "Bartholomew", "Cy", "Dee", "Evangelina", "Fox"]


def moment(players: int, seed: int, decisions: int) -> EggsState:
    state: EggsState = random_moment(GAME, players, seed, decisions)
    return state


def seat_png(state: EggsState, prompt: Prompt, lang: str = "en") -> bytes:
    picture = RENDERER.seat_image(GAME.view(state, prompt.seat), prompt, lang, NAMES[: state.players])
    assert picture is not None
    return picture


# Mid-game moments with a seat deciding: 2 players, which egg to take; 4, with a face-down Scout egg on offer;
# 6, a Courier or Priest at the end of a turn.
GOLDEN_MOMENTS = {2: (3, 32), 4: (2, 43), 6: (4, 77)}


@pytest.mark.parametrize("players", sorted(GOLDEN_MOMENTS))
@pytest.mark.parametrize("audience", ["public", "seat"])
def test_golden_pictures(players: int, audience: str) -> None:
    seed, decisions = GOLDEN_MOMENTS[players]
    state = moment(players, seed, decisions)
    if audience == "public":
        picture = RENDERER.image(GAME.view(state, None), "en", NAMES[:players])
    else:
        picture = seat_png(state, GAME.prompts(state)[0])
    assert picture is not None and picture[:8] == b"\x89PNG\r\n\x1a\n"
    name = f"eggs_empires_{players}p_{audience}"
    digest = pixels_hash(picture)
    if os.environ.get("UPDATE_GOLDEN"):
        (GOLDEN / f"{name}.sha256").write_text(digest + "\n")
        (GOLDEN / f"{name}.png").write_bytes(picture)
    assert digest == (GOLDEN / f"{name}.sha256").read_text().strip(), (
        "picture changed: look at it, then UPDATE_GOLDEN=1"
    )


def test_pictures_are_laid_out_for_a_phone() -> None:
    state = moment(6, 77, 60)
    prompt = GAME.prompts(state)[0]
    seat_view = seat_view_with_prompt(GAME.view(state, prompt.seat), prompt)
    for view in (GAME.view(state, None), seat_view):
        KEPT.clear()  # every text drawn, none pasted from a kept block
        with i18n.picture_language("it"):  # Italian words are the longest
            reading = text_on_phone(partial(png, view, NAMES))
        assert reading.picture_width == UNIT * SCALE
        assert reading.smallest_px >= PHONE_MIN_TEXT_PX, reading


def test_the_table_picture_shows_nothing_private() -> None:
    """Swapping a seat's hand, or the value of a face-down egg, leaves the table picture as it was."""
    state = moment(4, 5, 30)
    public = png(GAME.view(state, None), NAMES)
    state.hands[1], state.decks[1][-3:] = sorted(state.decks[1][-3:]), state.hands[1]
    assert png(GAME.view(state, None), NAMES) == public
    low, high = min(deck_values := {rules.EGG_VALUES[e] for e in state.egg_deck}), max(deck_values)
    scouted = with_scouted_egg(state, scout=0, value=low)
    other_value = with_scouted_egg(state, scout=0, value=high)
    assert png(GAME.view(scouted, None), NAMES) == png(GAME.view(other_value, None), NAMES)
    # ... and so does every other seat's, while the scout's own picture shows the value it saw
    for seat in (1, 2):
        assert png(GAME.view(scouted, seat), NAMES) == png(GAME.view(other_value, seat), NAMES)
    assert png(GAME.view(scouted, 0), NAMES) != png(GAME.view(other_value, 0), NAMES)


def with_scouted_egg(state: EggsState, scout: int, value: int) -> EggsState:
    copy = GAME.from_json(GAME.to_json(state))
    egg = next(e for e in copy.egg_deck if rules.EGG_VALUES[e] == value)
    copy.egg_deck.remove(egg)
    copy.offer.append([egg, scout])
    return copy


def test_a_seat_picture_outlines_what_its_prompt_offers() -> None:
    """The eggs a collector may take are outlined: the picture differs from the same view without them."""
    state = moment(4, 52, 0)
    for _ in range(400):
        prompts = GAME.prompts(state)
        if prompts and prompts[0].kind == "egg":
            break
        prompt = prompts[0]
        GAME.apply(state, prompt.seat, RandomPlayer(1).choose(GAME, state, prompt))
    prompt = GAME.prompts(state)[0]
    assert prompt.kind == "egg"
    view = GAME.view(state, prompt.seat)
    outlined = png(seat_view_with_prompt(view, prompt), NAMES)
    plain = png(view, NAMES)
    assert outlined != plain
    # the same view and prompt is the same picture, through the renderer's kept pictures too
    assert RENDERER.seat_image(view, prompt, "en", NAMES) == outlined


def test_pictures_follow_the_language() -> None:
    state = moment(3, 8, 20)
    view = GAME.view(state, None)
    english, italian, french = (RENDERER.image(view, lang, NAMES[:3]) for lang in ("en", "it", "fr"))
    assert english and italian and french and len({english, italian, french}) == 3


def test_the_bot_and_its_picture_workers_know_the_game_has_pictures() -> None:
    assert renderer_for("eggs-empires") is RENDERER
    assert RENDERER.pictured() and RENDERER.seat_pictured(GAME.prompts(GAME.new(3, 1))[0])
    assert not RENDERER.seat_pictured(None)  # between its decisions a seat's message has no picture
    assert "bot.render.eggs_empires" in renderer_modules()  # the picture workers preload it


@pytest.mark.parametrize(
    ("players", "options"), [(2, {}), (3, {"scoring": "conpub"}), (5, {}), (6, {"tiebreaker": "round"})]
)
def test_every_moment_of_whole_games_is_drawn(players: int, options: dict[str, Any]) -> None:
    state = GAME.new(players, players, options)
    ais = [RandomPlayer(players + s) for s in range(players)]
    drawn = 0
    while prompts := GAME.prompts(state):
        if drawn % 7 == 0:
            image = Image.open(io.BytesIO(png(GAME.view(state, None), NAMES)))
            assert image.width == UNIT * SCALE and image.height < 2400
            prompt = prompts[0]
            png(seat_view_with_prompt(GAME.view(state, prompt.seat), prompt), NAMES)
        prompt = prompts[0]
        GAME.apply(state, prompt.seat, ais[prompt.seat].choose(GAME, state, prompt))
        drawn += 1
    assert GAME.view(state, None)["phase"] == "over"
    assert png(GAME.view(state, None), NAMES)[:4] == b"\x89PNG"


def test_the_gallery_of_a_whole_game_is_written_with_its_index(tmp_path: Path) -> None:
    from bench.pictures import eggs_empires_gallery as gallery

    index = gallery(str(tmp_path), seed=5)
    files = sorted(path.name for path in tmp_path.glob("*.png"))
    assert len(files) == len(index) >= 3 * 9 + 1  # every turn's table and the end, and the seat's prompts
    assert {"end-table.png", "r1t1-table.png", "r3t9-table.png"} <= set(files)
    assert all(Image.open(tmp_path / name).width == UNIT for name in files)
    readme = (tmp_path / "README.md").read_text(encoding="utf-8")
    assert all(f"]({name})" in readme for name in files)


def test_kept_player_blocks_never_show_another_moment_or_language() -> None:
    """Pictures of whole games (the table and the deciding seat's, in turn in English, Italian and French)
    drawn with the players' blocks kept from the pictures before them are the pictures drawn from nothing."""
    compared = kept_parts_change_nothing(GAME, partial(png, names=NAMES[:4]), seat_view_with_prompt, KEPT.clear)
    assert compared == 96
