"""Checks that a picture works on a phone (issue 18): its smallest text, and its colours for colour-blind eyes.

    reading = text_on_phone(lambda: render_board(view))
    assert reading.smallest_px >= PHONE_MIN_TEXT_PX, reading

    closest = closest_colours_for_colour_blind(PLAYER_COLOURS)
    assert closest.distance >= MIN_CVD_DISTANCE, closest

Text. Most people play on a phone, where Discord shows a picture at most ~400 px wide (PHONE_WIDTH): a
picture drawn 960 px wide shrinks to 0.42 of its size, and its 15 px legend reads as 6 px. `text_on_phone`
runs a drawing function, records the size of every text it draws, and scales the smallest by the width
the picture is shown at. The hook is `ImageDraw.text` rather than `bot.render.kit.fonts.font`: every text a
renderer draws passes there, with the font it is drawn in (from bot/render/kit/fonts.py or not, requested
with `font_size=` or none at all) and the image it is drawn on, while a font may be requested and only
measured with. The fonts are Pillow FreeType fonts, whose `size` is the em size in pixels.

Colours. `closest_colours_for_colour_blind` simulates how deuteranopes and protanopes (about 6% of men
between them) see a palette, with the matrices of Machado, Oliveira and Fernandes (2009) at severity 1.0
applied in linear RGB (the model `colorspacious` implements, "sRGB1+CVD": this module gives the same
CIELAB values to 0.01 for the colours its tests use; the computation is a few lines, so the tests need
neither that library nor numpy), and returns the closest pair by CIEDE2000 colour difference.
"""

from __future__ import annotations

import hashlib
import io
import math
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

RGB = tuple[int, int, int]
Lab = tuple[float, float, float]

# The widest Discord shows a picture in a phone's chat column (an embed image or attachment preview).
PHONE_WIDTH = 400
# Issue 18: no text smaller than this when the picture is shown PHONE_WIDTH wide.
PHONE_MIN_TEXT_PX = 10.0
# Pillow's built-in bitmap font (no FreeType) has no `size`; its glyphs are 11 px tall.
BITMAP_FONT_PX = 11.0

# The smallest CIEDE2000 difference two colours that mean different things (players, egg types) keep
# for a dichromat. One unit is about the smallest difference people notice between two large patches
# side by side; colours of small marks apart on a board need several times more to be told apart at a
# glance (Szafir 2017, "Modeling Color Difference for Visualization Design": the noticeable difference
# grows as marks shrink, past 5 units for marks of a few pixels). 10 is a bar the standard palette made
# for colour-blind readers meets (Okabe & Ito 2008: closest pair 11.6, orange and yellow for a
# deuteranope) and a typical "player red, player green" pair misses (4.8 for a deuteranope).
MIN_CVD_DISTANCE = 10.0

# Machado, Oliveira & Fernandes 2009, Table 1, severity 1.0; rows give linear R, G, B from linear R, G, B.
MACHADO_2009: dict[str, tuple[tuple[float, float, float], ...]] = {
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
}


# --- text ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TextReading:
    """The text a drawing drew, as it reads on a phone."""

    smallest_px: float  # the smallest text's em size in pixels with the picture shown PHONE_WIDTH wide
    smallest_drawn_px: float  # the same text's size on the picture itself
    picture_width: int
    sizes: tuple[float, ...]  # every size drawn, in pixels of the picture, sorted, without repeats


@dataclass(frozen=True)
class _Drawn:
    size: float
    canvas_width: int


_recording = threading.local()
_patch_lock = threading.Lock()
_patched_depth = 0
_original_text = ImageDraw.ImageDraw.text


def _font_px(font: Any) -> float:
    size = getattr(font, "size", None)
    if size is None:  # a TransposedFont wraps the font that has the size
        size = getattr(getattr(font, "font", None), "size", None)
    return float(size) if size is not None else BITMAP_FONT_PX


def _recording_text(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
    drawn: list[_Drawn] | None = getattr(_recording, "drawn", None)
    if drawn is not None:
        words = getattr(text, "text", text)  # Pillow >= 12 also takes an ImageText.Text, with its font
        if str(words).strip():
            font = getattr(text, "font", None)
            if font is None:
                font = kwargs.get("font", args[1] if len(args) > 1 else None)
            if font is None:
                font = self._getfont(kwargs.get("font_size"))
            drawn.append(_Drawn(_font_px(font), self._image.width))
    _original_text(self, xy, text, *args, **kwargs)


@contextmanager
def _recorded_text() -> Iterator[list[_Drawn]]:
    """Every text drawn by this thread meanwhile (other threads' drawing is not recorded)."""
    global _patched_depth
    with _patch_lock:
        if _patched_depth == 0:
            ImageDraw.ImageDraw.text = _recording_text  # type: ignore[method-assign]
        _patched_depth += 1
    outer = getattr(_recording, "drawn", None)
    drawn: list[_Drawn] = []
    _recording.drawn = drawn
    try:
        yield drawn
    finally:
        _recording.drawn = outer
        with _patch_lock:
            _patched_depth -= 1
            if _patched_depth == 0:
                ImageDraw.ImageDraw.text = _original_text  # type: ignore[method-assign]


def drawn_text(draw: Callable[[], bytes | None]) -> tuple[int, list[float]] | None:
    """Run `draw` (a function returning a PNG or None): the picture's width and the size of each text
    drawn for it, in pixels of the picture; None if it returned no picture. Text drawn on an image wider
    than the picture (drawn large, then scaled down) counts at the scale it ends up at."""
    with _recorded_text() as drawn:
        png = draw()
    if not png:
        return None
    width = Image.open(io.BytesIO(png)).width
    return width, [d.size * min(1.0, width / d.canvas_width) for d in drawn]


def on_phone(size_px: float, picture_width: int) -> float:
    """How big a text of `size_px` pixels reads on a picture `picture_width` wide shown on a phone:
    shrunk to PHONE_WIDTH, never enlarged (a narrower picture is shown at its own size)."""
    return size_px * min(1.0, PHONE_WIDTH / picture_width)


def text_on_phone(draw: Callable[[], bytes | None]) -> TextReading:
    """Run `draw` (a function returning a PNG) and read its smallest text as shown on a phone.

    The smallest text in pixels of the picture, times PHONE_WIDTH / the picture's width: a 12 px text on
    a picture 800 px wide reads as 6 px. AssertionError if `draw` returns no picture or draws no text (a
    picture served from a renderer's kept pictures draws nothing: clear them first, or measure in a
    fresh process as tests/test_pictures_phone.py does)."""
    drawn = drawn_text(draw)
    assert drawn is not None, "the drawing function returned no picture"
    width, sizes = drawn
    assert sizes, "no text was drawn: was the picture served from a cache?"
    smallest = min(sizes)
    return TextReading(
        smallest_px=on_phone(smallest, width),
        smallest_drawn_px=smallest,
        picture_width=width,
        sizes=tuple(sorted(set(sizes))),
    )


# --- colours ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ColourReading:
    """The two colours of a palette closest to each other for some colour-blind eye."""

    distance: float  # CIEDE2000 between the two as simulated
    first: RGB
    second: RGB
    deficiency: str  # a key of MACHADO_2009


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _lab_of_linear(r: float, g: float, b: float) -> Lab:
    """CIELAB (D65 white) of a linear sRGB colour."""
    x = 0.4124564 * r + 0.3575761 * g + 0.1804375 * b
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = 0.0193339 * r + 0.1191920 * g + 0.9503041 * b

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x / 0.95047), f(y), f(z / 1.08883)
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def lab(rgb: RGB) -> Lab:
    """CIELAB of an sRGB colour (0-255 channels), as a person with normal colour vision sees it."""
    return _lab_of_linear(*(_linear(c) for c in rgb))


def simulated_lab(rgb: RGB, deficiency: str) -> Lab:
    """CIELAB of how a person with `deficiency` (a key of MACHADO_2009) sees an sRGB colour. Not
    clipped to the sRGB gamut, as `colorspacious` does: it models perception, not a display."""
    linear = [_linear(c) for c in rgb]
    r, g, b = (sum(w * c for w, c in zip(row, linear, strict=True)) for row in MACHADO_2009[deficiency])
    return _lab_of_linear(r, g, b)


def ciede2000(first: Lab, second: Lab) -> float:
    """The CIEDE2000 colour difference (kL = kC = kH = 1), per Sharma, Wu & Dalal (2005)."""
    l1, a1, b1 = first
    l2, a2, b2 = second
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dh = 0.0
    if c1p * c2p:
        dh = h2p - h1p
        if dh > 180:
            dh -= 360
        elif dh < -180:
            dh += 360
    d_l, d_c = l2 - l1, c2p - c1p
    d_h = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_mean, cp_mean = (l1 + l2) / 2, (c1p + c2p) / 2
    if not c1p * c2p:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_mean = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        h_mean = (h1p + h2p + 360) / 2
    else:
        h_mean = (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(h_mean - 30))
        + 0.24 * math.cos(math.radians(2 * h_mean))
        + 0.32 * math.cos(math.radians(3 * h_mean + 6))
        - 0.20 * math.cos(math.radians(4 * h_mean - 63))
    )
    rotation = 30 * math.exp(-(((h_mean - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_mean**7 / (cp_mean**7 + 25**7))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c = 1 + 0.045 * cp_mean
    s_h = 1 + 0.015 * cp_mean * t
    r_t = -math.sin(math.radians(2 * rotation)) * r_c
    return math.sqrt((d_l / s_l) ** 2 + (d_c / s_c) ** 2 + (d_h / s_h) ** 2 + r_t * (d_c / s_c) * (d_h / s_h))


def closest_colours_for_colour_blind(palette: Sequence[RGB]) -> ColourReading:
    """The pair of `palette` (at least two colours) that deuteranopes or protanopes see closest."""
    assert len(palette) >= 2, "a palette to tell apart has at least two colours"
    closest: ColourReading | None = None
    for deficiency in MACHADO_2009:
        seen = [simulated_lab(c, deficiency) for c in palette]
        for i in range(len(palette)):
            for j in range(i + 1, len(palette)):
                distance = ciede2000(seen[i], seen[j])
                if closest is None or distance < closest.distance:
                    closest = ColourReading(distance, palette[i], palette[j], deficiency)
    assert closest is not None
    return closest


def pixels_hash(png: bytes) -> str:
    """A picture's pixels and size, hashed: what a golden pins (the PNG's bytes may differ by encoder)."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return hashlib.sha256(image.tobytes() + repr(image.size).encode()).hexdigest()


def random_moment(game: Any, players: int, seed: int, decisions: int, options: dict[str, Any] | None = None) -> Any:
    """A `game` state after `decisions` decisions of random players (seeded): a moment to draw."""
    from games.ai import RandomPlayer

    state = game.new(players, seed, dict(options or {}))
    ais = [RandomPlayer(seed * 10 + s) for s in range(players)]
    for _ in range(decisions):
        prompt = game.prompts(state)[0]
        game.apply(state, prompt.seat, ais[prompt.seat].choose(game, state, prompt))
    return state


def kept_parts_change_nothing(
    game: Any,
    draw: Callable[[dict[str, Any]], bytes],
    seat_view: Callable[[dict[str, Any], Any], dict[str, Any]],
    forget: Callable[[], None],
    options: dict[str, Any] | None = None,
    decisions: int = 24,
) -> int:
    """Assert that the pictures of two 4-player games of `game` (random players), each decision's table and
    deciding seat's (`seat_view` adds its prompt) in turn in English, Italian and French, drawn by `draw`
    with whatever it keeps from the pictures before them, are the pictures it draws after `forget`ting all
    it keeps: a kept part is never pasted where another moment, seat or language is drawn. Returns how many
    pictures were compared."""
    from bot.texts import i18n
    from games.ai import RandomPlayer

    drawn: list[tuple[dict[str, Any], str, bytes]] = []
    forget()
    for seed in (1, 2):
        state = game.new(4, seed, dict(options or {}))
        players = [RandomPlayer(seed * 10 + s) for s in range(4)]
        for decision in range(decisions):
            prompts = game.prompts(state)
            if not prompts:
                break
            prompt = prompts[0]
            lang = ("en", "it", "fr")[decision % 3]
            for view in (game.view(state, None), seat_view(game.view(state, prompt.seat), prompt)):
                with i18n.picture_language(lang):
                    drawn.append((view, lang, draw(view)))
            game.apply(state, prompt.seat, players[prompt.seat].choose(game, state, prompt))
    for view, lang, kept in drawn:
        forget()
        with i18n.picture_language(lang):
            assert pixels_hash(draw(view)) == pixels_hash(kept), (lang, view)
    return len(drawn)
