"""Reggverse Riddles pictures: golden images at 2, 4 and 8 players (the table and a deciding seat's), what
each picture shows (every egg on a square, true collecting hints, the tile being played, the prompt's
targets, no step ids), and that they are laid out for a phone."""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw

import games
from bot.render.kit import phone
from bot.render.reggverse import RENDERER, render_board
from bot.render.reggverse import parts as parts
from bot.render.reggverse import picture as picture
from games.ai import RandomPlayer
from games.core import Prompt
from games.reggverse.board import SIDES, destination, geometry, index_board, matching_tiles
from games.reggverse.data import EGG_COLOURS, SHAPES
from harness.picture_checks import (
    PHONE_MIN_TEXT_PX,
    kept_parts_change_nothing,
    pixels_hash,
    random_moment,
    text_on_phone,
)

GOLDEN = Path(__file__).parent / "golden"
GAME = games.get("reggverse-riddles")
NAMES = ("Ada", "Bartholomew", "Chloé", "Dmitri_the_Bold", "Eun-ji", "Farouk", "Giulia", "Hiroshi")
BOTH = {"action_tiles": True, "objectives": True}


def moment(players: int, seed: int, decisions: int, options: dict[str, Any] | None = None) -> Any:
    return random_moment(GAME, players, seed, decisions, BOTH if options is None else options)


def seat_png(state: Any, prompt: Prompt, lang: str = "en") -> bytes:
    drawn = RENDERER.seat_image(GAME.view(state, prompt.seat), prompt, lang, NAMES[: state.players])
    assert drawn is not None
    return drawn


@contextmanager
def words_drawn() -> Iterator[list[str]]:
    """Every text drawn meanwhile (the kept parts are forgotten first, so theirs are drawn too)."""
    parts.forget_kept()
    original = ImageDraw.ImageDraw.text
    drawn: list[str] = []

    def recording(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        drawn.append(str(text))
        original(self, xy, text, *args, **kwargs)

    ImageDraw.ImageDraw.text = recording  # type: ignore[method-assign]
    try:
        yield drawn
    finally:
        ImageDraw.ImageDraw.text = original  # type: ignore[method-assign]


# Mid-game moments with a seat deciding: 2 players on the 5x4 map; 4 with both expansions; 8 on the cross.
GOLDEN_MOMENTS: dict[int, tuple[int, int, dict[str, Any]]] = {
    2: (3, 21, {"shape": "5x4"}),
    4: (11, 40, BOTH),
    8: (5, 30, {**BOTH, "shape": "cross", "egg_types": 8}),
}


@pytest.mark.parametrize("players", sorted(GOLDEN_MOMENTS))
@pytest.mark.parametrize("audience", ["public", "seat"])
def test_golden_pictures(players: int, audience: str) -> None:
    seed, decisions, options = GOLDEN_MOMENTS[players]
    state = moment(players, seed, decisions, options)
    if audience == "public":
        png = RENDERER.image(GAME.view(state, None), "en", NAMES[:players])
    else:
        png = seat_png(state, GAME.prompts(state)[0])
    assert png is not None and png[:8] == b"\x89PNG\r\n\x1a\n"
    name = f"reggverse_{players}p_{audience}"
    digest = pixels_hash(png)
    if os.environ.get("UPDATE_GOLDEN"):
        (GOLDEN / f"{name}.sha256").write_text(digest + "\n")
        (GOLDEN / f"{name}.png").write_bytes(png)
    assert digest == (GOLDEN / f"{name}.sha256").read_text().strip(), (
        "picture changed: look at it, then UPDATE_GOLDEN=1"
    )


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_every_map_is_laid_out_for_a_phone(shape: str) -> None:
    """600 px wide (shown 400 px wide on a phone) whatever the map and the number of players, and no text
    under 10 px there."""
    for players in (2, 8):
        state = moment(players, 5, 12, {**BOTH, "shape": shape, "egg_types": 8})
        prompt = GAME.prompts(state)[0]
        names = NAMES[:players]
        views = (GAME.view(state, None), picture.with_prompt(GAME.view(state, prompt.seat), prompt))
        for draw in (partial(render_board, view, names) for view in views):
            parts.forget_kept()
            reading = text_on_phone(draw)
            assert reading.picture_width == phone.u(phone.UNIT) == 600
            assert reading.smallest_px >= PHONE_MIN_TEXT_PX, reading


def _colour_pixels(png: bytes, rgb: tuple[int, int, int]) -> int:
    colours = Image.open(io.BytesIO(png)).convert("RGB").getcolors(1 << 24) or []
    return sum(count for count, colour in colours if colour == rgb)


@pytest.mark.parametrize("shape", ["4x4", "cross"])
def test_every_egg_type_on_a_square_is_drawn(shape: str) -> None:
    """A square holding all eight egg types and a pawn shows each of them (the former picture showed three)."""
    state = moment(2, 7, 0, {"shape": shape, "egg_types": 8})
    here = state.board["pawns"][0]
    before = render_board(GAME.view(state, None))
    state.board["eggs"][here] = {egg: 1 + i % 3 for i, egg in enumerate(EGG_COLOURS)}
    after = render_board(GAME.view(state, None))
    for egg in EGG_COLOURS:
        assert _colour_pixels(after, parts.EGG_RGB[egg]) > _colour_pixels(before, parts.EGG_RGB[egg]) + 20, egg


def test_every_egg_type_and_pawn_has_its_own_shape_and_player_colours_differ() -> None:
    assert set(parts.EGG_SHAPES) == set(EGG_COLOURS)
    assert len(set(parts.EGG_SHAPES.values())) == len(EGG_COLOURS)
    assert len(set(parts.PLAYER_RGB)) == GAME.max_players


def _whole_games() -> Iterator[tuple[Any, Prompt]]:
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        state = GAME.new(players, seed, dict(BOTH))
        ais = [RandomPlayer(seed + s) for s in range(players)]
        while prompts := GAME.prompts(state):
            yield state, prompts[0]
            prompt = prompts[0]
            GAME.apply(state, prompt.seat, ais[prompt.seat].choose(GAME, state, prompt))


def test_collecting_hints_say_what_the_engine_would_collect() -> None:
    """'you would collect one' exactly for the eggs the engine's end-of-turn check collects on the seat's
    square now; 'one lies there' exactly where the row points at the square but such an egg lies on it."""
    said = {picture.YOU_COLLECT: 0, picture.LIES_THERE: 0}
    for state, prompt in _whole_games():
        view = GAME.view(state, prompt.seat)
        board = view["board"]
        here = board["pawns"][prompt.seat]
        in_play = [e for e in view["eggs"] if e in board["rows"]]
        collected = set(index_board(state.board).pointing_at(in_play, SIDES[prompt.seat % 4], here, {}))
        lying = board["eggs"][here]
        for egg in in_play:
            hint = picture.collect_hint(view, egg, matching_tiles(board, egg, prompt.seat))
            if hint is not None:
                said[hint] += 1
            assert (hint == picture.YOU_COLLECT) == (egg in collected and not lying.get(egg)), egg
            assert (hint == picture.LIES_THERE) == (egg in collected and bool(lying.get(egg))), egg
    assert all(said.values()), said


def test_the_header_names_steps_in_words_and_the_tile_being_played_is_drawn() -> None:
    kinds = set()
    for state, prompt in _whole_games():
        if prompt.kind in kinds or prompt.kind == "guess":
            continue
        kinds.add(prompt.kind)
        view = GAME.view(state, None)
        with words_drawn() as drawn:
            render_board(view, NAMES[: state.players])
        raw = [text for text in drawn if f"({prompt.kind})" in text or ("_" in prompt.kind and prompt.kind in text)]
        assert not raw, (prompt.kind, raw)
        tile = view["step"].get("tile_data")
        shown = [text for text in drawn if text.startswith("Being played: tile")]
        assert shown == ([f"Being played: tile {tile['id']}"] if tile else []), (prompt.kind, shown)
    assert {"play", "move", "drop", "rule"} <= kinds


def test_a_seat_picture_marks_its_prompts_targets() -> None:
    seen = set()
    for state, prompt in _whole_games():
        if prompt.kind in seen:
            continue
        seen.add(prompt.kind)
        view = GAME.view(state, prompt.seat)
        marked = picture.with_prompt(view, prompt)[picture.TARGETS]
        squares = {c.data["cell"] for c in prompt.choices if "cell" in c.data}
        assert set(marked["squares"]) == squares
        if prompt.kind == "play":
            assert set(marked["tiles"]) == {c.data["tile"]["id"] for c in prompt.choices}
        if prompt.kind in ("cleanup", "collect", "switch", "rule_egg", "spawn_egg"):
            assert set(marked["eggs"]) == {c.data["egg"] for c in prompt.choices}
        if prompt.kind == "steal_from":
            assert set(marked["seats"]) == {c.data["seat"] for c in prompt.choices}
        in_play = {egg for egg in view["eggs"] if egg in view["board"]["rows"]}
        some_eggs = bool(marked["eggs"]) and not in_play <= set(marked["eggs"])  # all marked: none is
        if squares or some_eggs or marked["seats"] or marked["tiles"]:
            assert render_board(picture.with_prompt(view, prompt)) != render_board(view), prompt.kind
    assert {"move", "play", "drop", "rule"} <= seen


@pytest.mark.parametrize("holder", SIDES)
@pytest.mark.parametrize("reader", SIDES)
def test_the_tile_being_played_points_where_the_pawn_goes_on_the_readers_map(holder: str, reader: str) -> None:
    geo = geometry("5x4")
    for cell in range(len(geo.cells)):
        for move in ((0, -1), (1, 0), (1, 1), (-1, -1), (0, 1)):
            dx, dy = picture._turned(move, holder, reader)
            lx, ly = geo.local[reader][cell]
            assert destination(geo, holder, cell, move) == geo.at_local[reader].get((lx + dx, ly + dy))


def test_a_seat_picture_is_turned_to_its_side_and_has_its_hand() -> None:
    state = moment(3, 11, 40)
    public = Image.open(io.BytesIO(render_board(GAME.view(state, None))))
    west = Image.open(io.BytesIO(render_board(GAME.view(state, 2))))
    assert west.size[1] > public.size[1] + 150  # the hand of tiles and the secret objective
    with words_drawn() as drawn:
        render_board(GAME.view(state, 2))
    assert "Your tiles (movement as you see the map)" in drawn
    with words_drawn() as drawn:
        render_board(GAME.view(state, None))
    assert not [text for text in drawn if text.startswith(("Your tiles", "Secret objective"))]


def test_the_table_service_finds_the_renderer_and_its_texts_keep_secrets() -> None:
    from bot.render import renderer_for
    from bot.render.kit.generic import TableContext

    assert renderer_for("reggverse-riddles") is RENDERER
    state = moment(3, 11, 40)
    ctx = TableContext("Reggverse Riddles", 1, ["a", "b", "c"], [state.current])
    public = RENDERER.describe_public(GAME.view(state, None), ctx)
    private = RENDERER.describe_private(GAME.view(state, 2), ctx, 2)
    assert "Secret objective" not in public and "Tile " not in public.split("Collected")[1]
    assert "Secret objective" in private and f"Tile {state.hands[2][0]}:" in private
    png = RENDERER.image(GAME.view(state, None))
    assert png is not None and png[:4] == b"\x89PNG"


def test_every_event_of_a_whole_game_gets_a_log_line_or_is_quiet() -> None:
    from bot.render.kit.generic import TableContext

    state = GAME.new(4, 3, dict(BOTH))
    players = [RandomPlayer(s) for s in range(4)]
    ctx = TableContext("Reggverse Riddles", 1, ["a", "b", "c", "d"], [])
    kinds = set()
    while prompts := GAME.prompts(state):
        for p in prompts:
            events = GAME.apply(state, p.seat, players[p.seat].choose(GAME, state, p))
            public = [e for e in events if "to" not in e]
            kinds |= {e["type"] for e in public}
            line = RENDERER.log_line(public, ctx)
            assert line is None or ("{" not in line and len(line) <= 1900)
    assert {"played", "dropped", "collected", "pile_out", "game_over"} <= kinds


def test_kept_parts_never_show_another_moment_or_language() -> None:
    """Pictures of whole games (the table and the deciding seat's, in turn in English, Italian and French)
    drawn with the parts kept from the pictures before them are the pictures drawn from nothing: a kept
    square, rule row, player's line or tile is only pasted where it shows the same, in the same words."""
    compared = kept_parts_change_nothing(
        GAME, partial(render_board, names=NAMES[:4]), picture.with_prompt, parts.forget_kept, BOTH
    )
    assert compared == 96
