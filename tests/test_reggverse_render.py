"""Reggverse Riddles pictures: golden images for the table and a seat, and what each one may show."""

from __future__ import annotations

import hashlib
import io
import os
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import games
from bot.render.reggverse import render_board
from games.ai import RandomPlayer

GOLDEN = Path(__file__).parent / "golden"
GAME = games.get("reggverse-riddles")


def _midgame() -> Any:
    state = GAME.new(3, 11, {"action_tiles": True, "objectives": True})
    players = [RandomPlayer(k) for k in range(3)]
    for _ in range(40):
        prompt = GAME.prompts(state)[0]
        GAME.apply(state, prompt.seat, players[prompt.seat].choose(GAME, state, prompt))
    return state


def _pixels_hash(png: bytes) -> str:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return hashlib.sha256(image.tobytes() + repr(image.size).encode()).hexdigest()


@pytest.mark.parametrize(("name", "seat"), [("public", None), ("seat", 2)])
def test_golden_images(name: str, seat: int | None) -> None:
    png = render_board(GAME.view(_midgame(), seat))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    path = GOLDEN / f"reggverse_{name}.sha256"
    digest = _pixels_hash(png)
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(digest + "\n")
        (GOLDEN / f"reggverse_{name}.png").write_bytes(png)
    assert digest == path.read_text().strip(), "picture changed; look at it and rerun with UPDATE_GOLDEN=1"


def test_a_seat_picture_is_the_board_turned_to_its_side_with_its_hand() -> None:
    state = _midgame()
    public = Image.open(io.BytesIO(render_board(GAME.view(state, None))))
    west = Image.open(io.BytesIO(render_board(GAME.view(state, 2))))
    # the seat picture is taller: it carries the hand of tiles and the secret objective
    assert west.size[1] > public.size[1] + 150
    # the 4x4 board is drawn in that seat's frame: the square under seat 3's pawn sits where the west
    # frame puts it, which differs from where the table picture has it
    from games.reggverse.board import geometry

    geo = geometry("4x4")
    cell = state.board["pawns"][2]
    assert geo.local["west"][cell] != geo.local["south"][cell]


def test_every_shape_and_player_count_renders() -> None:
    for shape in ("4x4", "5x4", "cross", "ring"):
        for players in (2, 8):
            state = GAME.new(players, 5, {"shape": shape, "egg_types": 8})
            for seat in (None, players - 1):
                image = Image.open(io.BytesIO(render_board(GAME.view(state, seat))))
                assert image.size[0] == 1000


def test_the_table_service_finds_the_renderer_and_its_texts_keep_secrets() -> None:
    from bot.render import renderer_for
    from bot.render.generic import TableContext
    from bot.render.reggverse import RENDERER

    assert renderer_for("reggverse-riddles") is RENDERER
    state = _midgame()
    ctx = TableContext("Reggverse Riddles", 1, ["a", "b", "c"], [state.current])
    public = RENDERER.describe_public(GAME.view(state, None), ctx)
    private = RENDERER.describe_private(GAME.view(state, 2), ctx, 2)
    assert "Secret objective" not in public and "Tile " not in public.split("Collected")[1]
    assert "Secret objective" in private and f"Tile {state.hands[2][0]}:" in private
    png = RENDERER.image(GAME.view(state, None))
    assert png is not None and png[:4] == b"\x89PNG"


def test_every_event_of_a_whole_game_gets_a_log_line_or_is_quiet() -> None:
    from bot.render.generic import TableContext
    from bot.render.reggverse import RENDERER

    state = GAME.new(4, 3, {"action_tiles": True, "objectives": True})
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
