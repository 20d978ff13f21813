"""Reggverse Riddles pictures: the map, the eggs' rule rows and, in a seat's view, that seat's hand.

`render_board(view, names)` takes a view from `games.reggverse` and the players' names, and returns PNG
bytes; every word is phrased from the view's data through the catalogs (`bot.render.reggverse_words`).
The public view is drawn from the south (seat 1's side); a seat's view is drawn turned to that seat's side, so "left
half", "row" and the movement grids on its tiles read exactly as they do for that player. Only what
is in the view is drawn: the hand and the secret objective are there only in their owner's view.
"""

from __future__ import annotations

import textwrap
import threading
from collections import OrderedDict
from collections.abc import Sequence
from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.i18n import N_
from bot.render.fonts import font
from bot.render.palette import encode_png, fixed_palette
from bot.render.reggverse_words import Words
from games.core import Prompt
from games.reggverse.board import geometry, matching_tiles
from games.reggverse.data import EGG_COLOURS as ALL_EGGS

RGB = tuple[int, int, int]

WIDTH = 1000
MARGIN = 16
CELL = 104
INK: RGB = (34, 30, 40)
PAPER: RGB = (250, 246, 236)
MUTED: RGB = (110, 104, 116)
TYPE_COLOURS: dict[str, RGB] = {
    "empty": (236, 232, 220),
    "tree": (150, 200, 120),
    "cave": (170, 150, 130),
    "dragon": (230, 130, 110),
    "well": (140, 190, 230),
    "witch": (190, 150, 220),
    "statue": (200, 200, 200),
    "tower": (235, 200, 120),
}
EGG_ORDER = {colour: i for i, colour in enumerate(ALL_EGGS)}
EGG_RGB: dict[str, RGB] = {
    "red": (220, 40, 50),
    "green": (40, 160, 70),
    "yellow": (245, 205, 30),
    "blue": (40, 90, 220),
    "orange": (245, 140, 30),
    "cyan": (40, 200, 210),
    "purple": (140, 60, 180),
    "pink": (240, 120, 180),
}
PAWN_RGB: list[RGB] = [
    (20, 20, 20),
    (255, 255, 255),
    (120, 60, 20),
    (90, 90, 200),
    (200, 30, 120),
    (0, 120, 120),
    (160, 120, 0),
    (90, 90, 90),
]
WHITE: RGB = (255, 255, 255)
MINE: RGB = (230, 40, 40)  # the ring of the reader's own pawn
LOCKED: RGB = (180, 40, 40)
OBJECTIVE: RGB = (150, 30, 90)
GRID_RGB: list[RGB] = [(150, 100, 60), (60, 180, 80), (235, 235, 235)]  # a tile's grid: centre, moves, others
UNKNOWN_EGG: RGB = (128, 128, 128)
UNKNOWN_TILE: RGB = (220, 220, 220)


def _on(rgb: RGB) -> RGB:
    """Ink that reads on a background colour."""
    return INK if sum(rgb) > 380 else WHITE


def _egg(draw: ImageDraw.ImageDraw, x: int, y: int, colour: str, count: int, size: int = 26) -> None:
    rgb = EGG_RGB.get(colour, UNKNOWN_EGG)
    draw.ellipse((x, y, x + size * 0.78, y + size), fill=rgb, outline=INK, width=2)
    if count > 1:
        draw.text((x + size * 0.39, y + size * 0.55), str(count), fill=_on(rgb), font=font(16), anchor="mm")


@lru_cache(maxsize=4096)
def _wrap(text: str, width: int) -> tuple[str, ...]:
    """Lines of at most `width` characters; kept, since the same rules are drawn picture after picture."""
    return tuple(textwrap.wrap(text, width=width)) or ("",)


def _in_egg_order(eggs: dict[str, int]) -> list[tuple[str, int]]:
    """Egg counts in the game's own egg order: a view's dicts may come in any order (a state reloaded from
    JSON has its own), and the same moment must always give the same picture."""
    return sorted(eggs.items(), key=lambda item: EGG_ORDER.get(item[0], len(EGG_ORDER)))


def render_board(view: dict[str, Any], names: Sequence[str] = ()) -> bytes:
    return encode(draw_view(view, names))


def square_names(shape: str) -> tuple[str, ...]:
    """Per square its one name for everybody (column letter and row number, from the south)."""
    return geometry(shape).names["south"]


def with_prompt(view: dict[str, Any], prompt: Prompt | None) -> dict[str, Any]:
    """A seat's view with what its picture marks for the prompt it must answer (nothing yet)."""
    del prompt
    return view


@cache
def _palette() -> Image.Image:
    backgrounds = [PAPER, WHITE, *TYPE_COLOURS.values()]
    named = [
        INK,
        PAPER,
        MUTED,
        WHITE,
        MINE,
        LOCKED,
        OBJECTIVE,
        *TYPE_COLOURS.values(),
        *EGG_RGB.values(),
        *PAWN_RGB,
        *GRID_RGB,
        UNKNOWN_EGG,
        UNKNOWN_TILE,
    ]
    on = [
        *((ink, paper) for ink in (INK, MUTED) for paper in backgrounds),
        (LOCKED, PAPER),
        (LOCKED, WHITE),
        (OBJECTIVE, PAPER),
        *((_on(c), c) for c in EGG_RGB.values()),
        *((_on(c), c) for c in PAWN_RGB),
    ]
    return fixed_palette(named, on)


def encode(image: Image.Image) -> bytes:
    """The picture as a palette PNG (see `bot.render.palette`): crisp text, a third of the former
    encoding's CPU (an adaptive palette took longer to find than the PNG took to write)."""
    return encode_png(image, _palette())


def draw_view(view: dict[str, Any], names: Sequence[str] = ()) -> Image.Image:
    words = Words(None, names)
    board = view["board"]
    geo = geometry(board["shape"])
    seat = view.get("seat")
    side = view["side"] if seat is not None else "south"
    lw, lh = geo.local_size[side]
    board_w, board_h = lw * CELL, lh * CELL
    panel_x = MARGIN * 2 + board_w + 24
    hand = view.get("hand") if seat is not None else None
    rows_h = _rows_height(view, words)
    top = 64
    body_h = max(board_h + 40, rows_h)
    hand_h = 0
    if hand is not None:
        hand_h = 60 + 190 * ((len(hand) + 3) // 4 or 1) + (40 if view.get("objective") else 0)
    scores_h = _scores_height(view)
    height = top + body_h + 8 + scores_h + hand_h + 10
    img = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(img)
    _header(draw, view, side, words)
    _board(img, draw, view, geo, side, MARGIN + 12, top + 8, words)
    _rows(draw, view, panel_x, top, words)
    y = top + body_h + 8
    _scores(draw, view, y, words)
    y += scores_h
    if hand is not None:
        _hand(draw, view, hand, y, words)
    return img


def _header(draw: ImageDraw.ImageDraw, view: dict[str, Any], side: str, words: Words) -> None:
    seat = view.get("seat")
    if view.get("finished"):
        outcome = view.get("outcome") or {}
        winners = words.listing([words.player(s) for s in outcome.get("winners", [])])
        status = words.t(N_("Game over. Winner: {winners}"), winners=winners)
    else:
        status = words.t(N_("Turn {turn}: {name} to play"), turn=view["turn"], name=words.player(view["current"]))
    draw.text((MARGIN, 10), words.t(N_("Reggverse Riddles")), fill=INK, font=font(28))
    draw.text((MARGIN + 270, 16), status, fill=INK, font=font(22))
    who = (
        words.t(N_("{name}'s view, from the {side}"), name=words.player(seat), side=words.side(side).lower())
        if seat is not None
        else words.t(N_("Table view, from the south"))
    )
    draw.text((MARGIN, 44), who, fill=MUTED, font=font(16))
    locks = view.get("locks") or {}
    if locks:
        held = [words.t(LOCK_NAMES[k], name=words.player(v)) for k, v in locks.items() if k in LOCK_NAMES]
        draw.text((WIDTH - MARGIN, 44), "; ".join(held), fill=LOCKED, font=font(16), anchor="ra")


LOCK_NAMES = {
    "move": N_("movement locked by {name}"),
    "rules": N_("rules locked by {name}"),
    "actions": N_("actions locked by {name}"),
}


KEPT_SQUARES = 32  # drawn boards (~0.5 MB each): a game's board seen from each side, for a few games


_squares: OrderedDict[tuple[Any, ...], Image.Image] = OrderedDict()
_squares_lock = threading.Lock()


def _squares_of(geo: Any, board: dict[str, Any], side: str, words: Words) -> Image.Image:
    """The board's squares (colour, type and name) seen from `side`, on paper. They change only when
    squares are swapped, so they are drawn once and pasted into each picture (eggs and pawns go on top)."""
    kinds = tuple(board["types"])
    key = (board["shape"], side, kinds, tuple(words.tile_type(k) for k in kinds))
    with _squares_lock:
        found = _squares.get(key)
        if found is not None:
            _squares.move_to_end(key)
            return found
    lw, lh = geo.local_size[side]
    image = Image.new("RGB", (lw * CELL, lh * CELL), PAPER)
    draw = ImageDraw.Draw(image)
    for cell, kind in enumerate(kinds):
        lx, ly = geo.local[side][cell]
        x, y = lx * CELL, ly * CELL
        draw.rounded_rectangle(
            (x + 2, y + 2, x + CELL - 2, y + CELL - 2),
            radius=10,
            fill=TYPE_COLOURS.get(kind, UNKNOWN_TILE),
            outline=INK,
            width=2,
        )
        draw.text((x + 8, y + 6), words.tile_type(kind), fill=INK, font=font(17))
        draw.text((x + CELL - 8, y + 6), geo.names["south"][cell], fill=MUTED, font=font(14), anchor="ra")
    with _squares_lock:
        _squares[key] = image
        while len(_squares) > KEPT_SQUARES:
            _squares.popitem(last=False)
    return image


def _board(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: dict[str, Any],
    geo: Any,
    side: str,
    x0: int,
    y0: int,
    words: Words,
) -> None:
    board = view["board"]
    seat = view.get("seat")
    pawns: list[int] = board["pawns"]
    img.paste(_squares_of(geo, board, side, words), (x0, y0))
    for cell in range(len(geo.cells)):
        lx, ly = geo.local[side][cell]
        x, y = x0 + lx * CELL, y0 + ly * CELL
        ex = x + 8
        for colour, count in _in_egg_order(board["eggs"][cell]):
            if count:
                _egg(draw, ex, y + CELL - 36, colour, count)
                ex += 24
                if ex > x + CELL - 26:
                    break
        if cell in pawns:
            owner = pawns.index(cell)
            cx, cy = x + CELL - 28, y + 46
            ring = MINE if owner == seat else INK
            draw.ellipse((cx - 17, cy - 17, cx + 17, cy + 17), fill=PAWN_RGB[owner % 8], outline=ring, width=4)
            draw.text((cx, cy), str(owner + 1), fill=_on(PAWN_RGB[owner % 8]), font=font(20), anchor="mm")
    lw, lh = geo.local_size[side]
    label = words.t(N_("you sit on this edge")) if seat is not None else words.t(N_("the south edge"))
    draw.text((x0 + lw * CELL // 2, y0 + lh * CELL + 8), label, fill=MUTED, font=font(16), anchor="ma")


def _rows_height(view: dict[str, Any], words: Words) -> int:
    rows = view["board"]["rows"]
    height = 0
    for egg in view["eggs"]:
        height += 34 + sum(18 * len(_wrap(words.rule(r), 44)) + 4 for r in rows.get(egg, []))
    return height + 10


def _rows(draw: ImageDraw.ImageDraw, view: dict[str, Any], x: int, y: int, words: Words) -> None:
    board = view["board"]
    seat = view.get("seat")
    here = board["pawns"][seat] if seat is not None else None
    for egg in view["eggs"]:
        _egg(draw, x, y + 2, egg, 1, size=24)
        pile = view["piles"][egg]
        row = board["rows"].get(egg)
        if row is None:
            head = words.t(N_("{eggs}: pile out, no rules"), eggs=words.egg_type(egg))
        else:
            head = words.t(N_("{eggs}: {count} in the pile"), eggs=words.egg_type(egg), count=pile)
            if seat is not None and row:
                spots = matching_tiles(board, egg, seat)
                mark = (
                    words.t(N_(" - points at YOUR tile"))
                    if here in spots
                    else words.t(N_(" - points at {count} tiles"), count=len(spots))
                )
                head += mark
            elif not row:
                head += words.t(N_(" (no rules: hidden nowhere)"))
        draw.text((x + 28, y + 4), head, fill=INK, font=font(18))
        y += 30
        for rule in row or []:
            for i, line in enumerate(_wrap(words.rule(rule), 44)):
                draw.text((x + 28, y), ("- " if i == 0 else "  ") + line, fill=INK, font=font(16))
                y += 18
            y += 4
        y += 4


SEATS_PER_LINE = 4


def _scores_height(view: dict[str, Any]) -> int:
    lines = (len(view["collected"]) + SEATS_PER_LINE - 1) // SEATS_PER_LINE
    return 12 + 56 * lines + 20 * len(view.get("secret_objectives") or []) + 10


def _scores(draw: ImageDraw.ImageDraw, view: dict[str, Any], y: int, words: Words) -> None:
    draw.line((MARGIN, y, WIDTH - MARGIN, y), fill=MUTED, width=1)
    y += 8
    totals = (view.get("outcome") or {}).get("scores")
    for s, collected in enumerate(view["collected"]):
        x = MARGIN + (s % SEATS_PER_LINE) * 242
        ty = y + (s // SEATS_PER_LINE) * 56
        text = words.t(N_("{name}: {eggs} eggs"), name=words.player(s), eggs=view["scores"][s])
        if totals is not None:
            text = words.t(
                N_("{name}: {eggs} eggs, {points} pts"), name=words.player(s), eggs=view["scores"][s], points=totals[s]
            )
        draw.text((x, ty), text, fill=INK, font=font(17))
        ex = x
        for colour, count in _in_egg_order(collected):
            if count:
                _egg(draw, ex, ty + 24, colour, count, size=22)
                ex += 22
    y += 56 * ((len(view["collected"]) + SEATS_PER_LINE - 1) // SEATS_PER_LINE)
    for i, objective in enumerate(view.get("secret_objectives") or []):
        if objective is None:
            continue
        draw.text(
            (MARGIN, y + 20 * i),
            words.t(N_("{name}'s objective: {objective}"), name=words.player(i), objective=words.objective(objective)),
            fill=OBJECTIVE,
            font=font(16),
        )


def _hand(draw: ImageDraw.ImageDraw, view: dict[str, Any], hand: list[dict[str, Any]], y: int, words: Words) -> None:
    draw.text((MARGIN, y), words.t(N_("Your tiles (movement as you see the map)")), fill=INK, font=font(20))
    y += 32
    objective = view.get("objective")
    for i, tile in enumerate(hand):
        x = MARGIN + (i % 4) * 242
        ty = y + (i // 4) * 190
        draw.rounded_rectangle((x, ty, x + 232, ty + 180), radius=10, fill=WHITE, outline=INK, width=2)
        draw.text((x + 10, ty + 6), words.t(N_("Tile {number}"), number=tile["id"]), fill=MUTED, font=font(14))
        if tile["kind"] == "action":
            draw.text((x + 10, ty + 28), words.t(N_("ACTION")), fill=LOCKED, font=font(18))
            for j, line in enumerate(_wrap(words.action(tile["action"]), 22)):
                draw.text((x + 10, ty + 56 + 20 * j), line, fill=INK, font=font(17))
            continue
        moves = {tuple(m) for m in tile["moves"]}
        gx, gy, g = x + 10, ty + 28, 22
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                bx, by = gx + (dx + 1) * g, gy + (dy + 1) * g
                if (dx, dy) == (0, 0):
                    fill: RGB = GRID_RGB[0]
                elif (dx, dy) in moves:
                    fill = GRID_RGB[1]
                else:
                    fill = GRID_RGB[2]
                draw.rectangle((bx, by, bx + g - 2, by + g - 2), fill=fill, outline=MUTED)
        for j, line in enumerate(_wrap(words.rule(tile["rule"]), 22)):
            draw.text((x + 10, ty + 104 + 19 * j), line, fill=INK, font=font(17))
    if objective:
        rows = (len(hand) + 3) // 4 or 1
        secret = words.t(N_("Secret objective: {objective}"), objective=words.objective(objective))
        draw.text((MARGIN, y + rows * 190 + 4), secret, fill=OBJECTIVE, font=font(19))
