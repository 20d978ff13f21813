"""Reggverse Riddles picture parts: sizes, colours, the egg and pawn marks, the kept squares, the palette.

Sizes are layout pixels of a picture laid out for a phone 400 px wide (UNIT) and drawn SCALE times larger,
so text stays sharp; `u` turns layout pixels into picture pixels, and no text is drawn under MIN_TEXT
layout pixels (10 px on a phone): bot.render.kit.phone. Nothing is told by colour alone: each egg type has its own shape
(EGG_SHAPES) as well as its colour, pawns are figures (a head on a body) carrying their seat's number,
never the round or angular marks of eggs, and player colours are chosen so that deuteranopes and
protanopes tell them apart (DISTINCT_COLOURS, checked by tests/test_pictures_phone.py). The font is DejaVu
Sans Condensed (`bot.render.kit.fonts.latin_font`): every letter Italian and French need.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from bot.render.kit import paletted
from bot.render.kit.palette import UPLOAD_LEVEL, encode_png, fixed_palette
from bot.render.kit.phone import INK, SCALE, WHITE, fit, font, ink_on, u

RGB = tuple[int, int, int]

MARGIN = 10

PAPER: RGB = (250, 246, 236)
MUTED: RGB = (104, 98, 110)
RULE_LINE: RGB = (214, 206, 190)
LOCKED: RGB = (180, 40, 40)
OBJECTIVE: RGB = (150, 30, 90)
GOOD: RGB = (0, 110, 60)  # a hint that holds in the reader's favour ("you collect one")
HIGHLIGHT: RGB = (255, 236, 150)  # behind what the reader's prompt lets them choose
FADED: RGB = (206, 204, 196)
FADE = 150  # how much of FADED covers a square the prompt does not offer (of 255)
TYPE_COLOURS: dict[str, RGB] = {  # each square also says its type in words
    "empty": (236, 232, 220),
    "tree": (168, 212, 140),
    "cave": (190, 172, 152),
    "dragon": (238, 156, 136),
    "well": (160, 204, 236),
    "witch": (204, 174, 228),
    "statue": (208, 208, 208),
    "tower": (238, 210, 140),
}
UNKNOWN_TILE: RGB = (220, 220, 220)
EGG_RGB: dict[str, RGB] = {
    "red": (214, 40, 48),
    "green": (40, 150, 70),
    "yellow": (246, 208, 40),
    "blue": (40, 84, 210),
    "orange": (245, 140, 30),
    "cyan": (40, 196, 206),
    "purple": (130, 60, 170),
    "pink": (240, 130, 190),
}
UNKNOWN_EGG: RGB = (128, 128, 128)
# One shape per egg type: the colours of red and orange, blue and purple, green and cyan are close for
# some eyes, their shapes never are.
EGG_SHAPES: dict[str, str] = {
    "red": "circle",
    "green": "triangle",
    "yellow": "star",
    "blue": "square",
    "orange": "diamond",
    "cyan": "plus",
    "purple": "down",
    "pink": "heart",
}
# Okabe & Ito's colours for colour-blind readers, then white and a dark navy: their closest pair for a
# deuteranope or protanope differs by 19.5 (CIEDE2000; harness/picture_checks.py).
PLAYER_RGB: list[RGB] = [
    (0, 114, 178),
    (213, 94, 0),
    (0, 158, 115),
    (240, 228, 66),
    (86, 180, 233),
    (40, 40, 40),
    (255, 255, 255),
    (17, 0, 119),
]
GRID_RGB: dict[str, RGB] = {"centre": (150, 100, 60), "move": (60, 170, 80), "other": (236, 236, 236)}
DISTINCT_COLOURS: dict[str, Sequence[RGB]] = {"players": PLAYER_RGB}


def player_rgb(seat: int) -> RGB:
    return PLAYER_RGB[seat % len(PLAYER_RGB)]


@lru_cache(maxsize=4096)
def wrap(text: str, size: int, width: float, bold: bool = False) -> tuple[str, ...]:
    """`text` in lines at most `width` layout pixels wide at `size` (a word longer than a line stays whole);
    kept, since the same rules are drawn picture after picture."""
    face, room = font(size, bold), u(width)
    lines: list[str] = []
    line = ""
    for word in text.split():
        if line and face.getlength(line + " " + word) > room:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return tuple(lines)


# --- marks --------------------------------------------------------------------------------------------
@cache
def _outline(kind: str) -> tuple[tuple[float, float], ...]:
    """The outline of a polygon mark around (0, 0), for a mark of radius 1."""
    if kind in ("triangle", "down"):
        turn, shift = (90, 0.18) if kind == "triangle" else (270, -0.18)
        angles = [math.radians(turn + 120 * i) for i in range(3)]
        return tuple((1.18 * math.cos(a), shift - 1.18 * math.sin(a)) for a in angles)
    if kind == "diamond":
        return ((0.0, -1.12), (1.12, 0.0), (0.0, 1.12), (-1.12, 0.0))
    if kind == "star":
        points = []
        for i in range(10):
            angle = math.pi / 2 + i * math.pi / 5
            reach = 1.15 if i % 2 == 0 else 0.5
            points.append((reach * math.cos(angle), 0.1 - reach * math.sin(angle)))
        return tuple(points)
    if kind == "plus":
        a, b = 1.0, 0.38
        return (
            (-b, -a),
            (b, -a),
            (b, -b),
            (a, -b),
            (a, b),
            (b, b),
            (b, a),
            (-b, a),
            (-b, b),
            (-a, b),
            (-a, -b),
            (-b, -b),
        )
    if kind == "heart":
        points = []
        for i in range(28):
            t = 2 * math.pi * i / 28
            x = 16 * math.sin(t) ** 3
            y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
            points.append((2.2 * x / 34, 2.2 * (-y / 32 + 0.08)))
        return tuple(points)
    return tuple((math.cos(math.radians(60 * i)), math.sin(math.radians(60 * i))) for i in range(6))  # hexagon


def _quarter_turns(points: tuple[tuple[float, float], ...], turns: int) -> tuple[tuple[float, float], ...]:
    for _ in range(turns):
        points = tuple((-py, px) for px, py in points)
    return points


def shape(draw: ImageDraw.ImageDraw, kind: str, x: float, y: float, size: float, fill: RGB, outline: RGB) -> None:
    """One egg mark of `size` picture pixels centred on (x, y). A polygon's rim is the polygon drawn larger
    in `outline` under it: Pillow draws a wide polygon outline through a mask image, ten times slower."""
    r = size / 2
    width = max(1, round(size / 9))
    if kind == "circle":
        draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=outline, width=width)
    elif kind == "square":
        s = r * 0.88
        draw.rectangle((x - s, y - s, x + s, y + s), fill=fill, outline=outline, width=width)
    else:
        points = _outline(kind)
        outer, inner = r + width, r - width * 0.2
        draw.polygon([(x + px * outer, y + py * outer) for px, py in points], fill=outline)
        draw.polygon([(x + px * inner, y + py * inner) for px, py in points], fill=fill)


def egg_mark(draw: ImageDraw.ImageDraw, egg: str, x: float, y: float, size: float, outline: RGB = INK) -> None:
    """Egg type `egg`'s mark (its shape in its colour) of `size` picture pixels centred on (x, y)."""
    shape(draw, EGG_SHAPES.get(egg, "hexagon"), x, y, size, EGG_RGB.get(egg, UNKNOWN_EGG), outline)


def pawn(draw: ImageDraw.ImageDraw, seat: int, x: float, y: float, height: float, mine: bool = False) -> None:
    """Seat `seat`'s pawn, `height` picture pixels tall, centred on (x, y): a head on a rounded body in the
    seat's colour, the seat's number on the body; the reader's own pawn stands on a white disc ringed in ink.
    On a palette picture at whole pixels, the same pawn drawn once and kept (`_pawn`) is pasted."""
    if isinstance(draw, paletted.PaletteDraw) and isinstance(x, int) and isinstance(y, int):
        drawn, reach = _pawn(seat, height, mine)
        paletted.paste(draw.image, drawn, (x - reach, y - reach), picture_palette())
        return
    _draw_pawn(draw, seat, x, y, height, mine)


@lru_cache(maxsize=256)
def _pawn(seat: int, height: float, mine: bool) -> tuple[Image.Image, int]:
    """A pawn drawn on a see-through square, centred `reach` pixels from its top left corner."""
    reach = math.ceil(height * 0.62 + height / 12 + 2)
    drawn = Image.new("RGBA", (2 * reach + 1, 2 * reach + 1), (0, 0, 0, 0))
    _draw_pawn(ImageDraw.Draw(drawn), seat, reach, reach, height, mine)
    return drawn, reach


def _draw_pawn(draw: ImageDraw.ImageDraw, seat: int, x: float, y: float, height: float, mine: bool) -> None:
    colour = player_rgb(seat)
    h = height
    if mine:
        r = h * 0.62
        draw.ellipse((x - r, y - r, x + r, y + r), fill=WHITE, outline=INK, width=max(2, round(h / 12)))
    width = max(1, round(h / 14))
    head = h * 0.17
    top = y - h / 2
    body = (x - h * 0.34, top + head * 1.6, x + h * 0.34, y + h / 2 + h * 0.5)
    draw.chord(body, 180, 360, fill=colour, outline=INK, width=width)
    draw.line((body[0], y + h / 2, body[2], y + h / 2), fill=INK, width=width)
    draw.ellipse((x - head, top, x + head, top + 2 * head), fill=colour, outline=INK, width=width)
    draw.text((x, y + h * 0.3), str(seat + 1), fill=ink_on(colour), font=font(10, True), anchor="ms")


def move_grid(draw: ImageDraw.ImageDraw, moves: Sequence[Sequence[int]], x: float, y: float, cell: float) -> None:
    """A tile's movement grid (3x3 squares of `cell` picture pixels, top left at (x, y)): the pawn in the
    middle, the squares it may move to green and marked with a dot."""
    allowed = {(int(m[0]), int(m[1])) for m in moves}
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            bx, by = x + (dx + 1) * cell, y + (dy + 1) * cell
            kind = "centre" if (dx, dy) == (0, 0) else "move" if (dx, dy) in allowed else "other"
            draw.rectangle((bx, by, bx + cell - 2, by + cell - 2), fill=GRID_RGB[kind], outline=MUTED)
            if kind == "move":
                r = cell * 0.16
                cx, cy = bx + (cell - 2) / 2, by + (cell - 2) / 2
                draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=WHITE)


# --- the squares, kept -----------------------------------------------------------------------------------
KEPT_SQUARES = 1024  # squares drawn (a type, its words, a name, a size, faded or not): ~20-30 KB each


@lru_cache(maxsize=KEPT_SQUARES)
def square_image(kind: str, label: str, name: str, cell: int, fade: bool = False) -> Image.Image:
    """One square of the board on paper (its colour, its type in words, its name), `cell` picture pixels a
    side, as the board shows it wherever it lies: each square is drawn within its own cell, so one drawing
    serves every board, side and game that has it (eggs and pawns go on top). `fade`: under the fade of
    squares a prompt does not offer. (Kept by square rather than by whole board: with many games at once,
    boards seen from each side did not stay kept, and each changed square drew its whole board again.)"""
    if fade:
        plain = square_image(kind, label, name, cell)
        mask = Image.new("L", plain.size, 0)
        ImageDraw.Draw(mask).rounded_rectangle((0, 0, cell, cell), radius=u(6), fill=FADE)
        image = plain.copy()
        image.paste(FADED, (0, 0, *plain.size), mask)
        return image
    image = Image.new("RGB", (cell, cell), PAPER)
    draw = ImageDraw.Draw(image)
    name_font = font(10)
    draw.rounded_rectangle(
        (u(1.5), u(1.5), cell - u(1.5), cell - u(1.5)),
        radius=u(6),
        fill=TYPE_COLOURS.get(kind, UNKNOWN_TILE),
        outline=INK,
        width=2,
    )
    room = (cell - name_font.getlength(name)) / SCALE - 12
    draw.text((u(5), u(3)), fit(label, 10, room, True), fill=INK, font=font(10, True))
    draw.text((cell - u(5), u(3)), name, fill=MUTED, font=name_font, anchor="ra")
    return image


# --- pieces kept ---------------------------------------------------------------------------------------
# Players' lines, tiles of a hand, rule rows: drawn once (bot.render.kit.paletted.KeptPieces), full width pieces
# of ~20-60 thousand pixels (a byte each): the last few hundred.
KEPT = paletted.KeptPieces(8_000_000)


def forget_kept() -> None:
    """Forget every drawn part kept (squares, pieces, pawns): the next picture draws all of itself (for tests
    that read what a picture draws)."""
    square_image.cache_clear()
    KEPT.clear()
    _pawn.cache_clear()


# --- encoding ------------------------------------------------------------------------------------------
def faded(rgb: RGB) -> RGB:
    """`rgb` under the fade of a square the prompt does not offer."""
    return tuple(round(c + (f - c) * FADE / 255) for c, f in zip(rgb, FADED, strict=True))  # type: ignore[return-value]


@cache
def picture_palette() -> Image.Image:
    """The pictures' palette: they are drawn on it (bot.render.kit.paletted)."""
    backgrounds = [PAPER, WHITE, HIGHLIGHT, *TYPE_COLOURS.values()]
    named = [
        INK,
        PAPER,
        MUTED,
        WHITE,
        RULE_LINE,
        LOCKED,
        OBJECTIVE,
        GOOD,
        HIGHLIGHT,
        FADED,
        *TYPE_COLOURS.values(),
        *(faded(c) for c in TYPE_COLOURS.values()),
        *EGG_RGB.values(),
        *PLAYER_RGB,
        *GRID_RGB.values(),
        UNKNOWN_EGG,
        UNKNOWN_TILE,
    ]
    on = [
        *((ink, paper) for ink in (INK, MUTED) for paper in backgrounds),
        *((ink, paper) for ink in (LOCKED, OBJECTIVE, GOOD) for paper in (PAPER, WHITE)),
        *((ink_on(c), c) for c in PLAYER_RGB),
        *((INK, c) for c in EGG_RGB.values()),
    ]
    return fixed_palette(named, on)


# zlib's level 6, as the Eight-Minute Empire map: a fifth fewer bytes uploaded than ISA-L's best, ~4 ms more
# CPU (issue 37.3, `python -m bench uploads`).
COMPRESS_LEVEL = UPLOAD_LEVEL


def encode(image: Image.Image) -> bytes:
    """The picture as a palette PNG: drawn on the palette (bot.render.kit.paletted), or RGB mapped onto it."""
    if image.mode == "P":
        return paletted.encode(image, COMPRESS_LEVEL)
    return encode_png(image, picture_palette(), compress_level=COMPRESS_LEVEL)
