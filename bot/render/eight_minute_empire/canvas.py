"""A palette picture drawn directly in its palette's indexes: no colour mapping when it is encoded.

The Eight-Minute Empire map was drawn in RGB and mapped onto its fixed palette when encoded (the
nearest-colour look-up of `Image.quantize`, a third of a picture's CPU). Pillow draws its shapes
(rectangles, ellipses, polygons, lines) without anti-aliasing, so a shape drawn in a palette image
with the index of its colour has the very pixels the RGB drawing had after the look-up. Only text is
anti-aliased, and Pillow writes text in a palette image without it; so text is a kept sprite instead:
written by ImageDraw.text in RGB over the flat colour it sits on (`paper`: every text of the map has
one), mapped onto the palette once, and pasted through the glyphs' own shape. A region faded for a
seat's picture goes through a table of each palette colour's faded one. Small parts drawn again and
again (markers, tabs, tokens, labels) are kept as stamps: drawn once at their sub-pixel place, pasted.

Contract: a `Canvas` draws on a mode "P" image whose palette is the one it was made with
(bot.render.kit.paletted.Colours); each colour it is given comes out as mapping an RGB picture would give
it (the palette's own for its named colours; WHITE as (250, 250, 255) when the palette holds that too:
Pillow's look-up works on 6 bits a channel).
Sprites, stamps and tables are kept per process and shared by threads (only read once made).
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from functools import cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from bot.render.kit.fonts import FontType
from bot.render.kit.paletted import Colours

RGB = tuple[int, int, int]
Box = tuple[float, float, float, float]

KEPT_SPRITES = 2048  # a map's texts at their places: a few hundred per layout and language
# A mask value -> 255 where any ink is: a sprite is pasted over exactly the pixels its glyphs touch.
_INKED = [0] + [255] * 255


def blank(size: tuple[int, int], palette: Colours, colour: RGB) -> Image.Image:
    """A palette picture of `size` filled with `colour`."""
    image = Image.new("P", size, _mapped(palette, colour))
    image.putpalette(palette.palette.getpalette() or [])
    return image


def _pixels(strip: Image.Image) -> list[RGB]:
    data = strip.tobytes()
    return [(data[i], data[i + 1], data[i + 2]) for i in range(0, len(data), 3)]


@cache
def _mapped(palette: Colours, colour: RGB) -> int:
    """The index mapping an RGB picture gives `colour` (not always its own entry: see the contract)."""
    return palette.nearest([colour])[0]


@cache
def _fade_tables(palette: Colours, towards: RGB, amount: int) -> list[int]:
    """Palette index -> the index of its colour with `towards` laid over it at `amount` (of 255)."""
    strip = Image.new("RGB", (len(palette.rgb), 1))
    strip.putdata(palette.rgb)
    strip.paste(towards, (0, 0, len(palette.rgb), 1), Image.new("L", strip.size, amount))
    return palette.nearest(_pixels(strip))


# Pillow's own image cores (pasted without Image.paste's checks: a tenth of its time for a short word):
# the indexes, where the glyphs are (mode "1"), and the sprite's width, height and offset from the point.
_Sprite = tuple[Any, Any, int, int, int, int]
_sprites: OrderedDict[tuple[object, ...], _Sprite] = OrderedDict()
_sprites_lock = threading.Lock()


def _glyphs(
    face: FontType, text: str, anchor: str, start: tuple[float, float], stroke: int
) -> tuple[Any, tuple[int, int]]:
    """The text's coverage (a Pillow image core, mode "L") and its offset from the point."""
    if isinstance(face, ImageFont.FreeTypeFont):
        return face.getmask2(text, "L", anchor=anchor, start=start, stroke_width=stroke, stroke_filled=True)
    return face.getmask(text, "L"), (0, 0)  # Pillow built without FreeType: its bitmap font, unanchored


def _sprite(
    palette: Colours,
    text: str,
    face: FontType,
    ink: RGB,
    paper: RGB,
    anchor: str,
    start: tuple[float, float],
    stroke: tuple[int, RGB] | None,
) -> _Sprite:
    key = (id(palette), id(face), text, ink, paper, anchor, start, stroke)
    with _sprites_lock:
        found = _sprites.get(key)
        if found is not None:
            _sprites.move_to_end(key)
            return found
    # Written by ImageDraw.text itself, on the paper, at the same sub-pixel start: the same pixels as
    # in an RGB picture (and seen by whatever watches ImageDraw.text, as tests/harness do), cut out at
    # the glyphs' box and mapped onto the palette as the encoder would.
    width = stroke[0] if stroke else 0
    core, (dx, dy) = _glyphs(face, text, anchor, start, width)
    margin = max(0, dx, dy) + 1
    rgb = Image.new("RGB", (margin + core.size[0] + 1, margin + core.size[1] + 1), paper)
    ImageDraw.Draw(rgb).text(
        (margin - dx + start[0], margin - dy + start[1]),
        text,
        font=face,
        fill=ink,
        anchor=anchor,
        stroke_width=width,
        stroke_fill=stroke[1] if stroke else None,
    )
    box = (margin, margin, margin + core.size[0], margin + core.size[1])
    indexes = rgb.crop(box).quantize(palette=palette.palette, dither=Image.Dither.NONE)
    glyphs = Image.new("L", core.size)
    glyphs.im.paste(core, (0, 0, *core.size))
    made = (indexes.im, glyphs.point(_INKED, "1").im, *core.size, dx, dy)
    with _sprites_lock:
        _sprites[key] = made
        while len(_sprites) > KEPT_SPRITES:
            _sprites.popitem(last=False)
    return made


class Canvas:
    """Drawing on a palette image: `draw` takes palette indexes (`ink`), `text` writes kept sprites."""

    def __init__(self, image: Image.Image, palette: Colours) -> None:
        self.image = image
        self.palette = palette
        self.draw = ImageDraw.Draw(image)
        self._core = image.im  # this canvas's own image: pasted into directly

    def ink(self, colour: RGB) -> int:
        return _mapped(self.palette, colour)

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        face: FontType,
        fill: RGB,
        paper: RGB,
        anchor: str = "la",
        stroke: tuple[int, RGB] | None = None,
    ) -> None:
        """`text` at `xy` as ImageDraw.text would write it in `fill` on a ground of `paper` (with a
        `stroke` of (width, colour) around the letters, blended at its rim over `paper` too)."""
        if not text:
            return
        x, y = xy
        start = (math.modf(x)[0], math.modf(y)[0])
        indexes, glyphs, width, height, dx, dy = _sprite(self.palette, text, face, fill, paper, anchor, start, stroke)
        left, top = int(x) + dx, int(y) + dy
        self._core.paste(indexes, (left, top, left + width, top + height), glyphs)

    def fade(self, box: tuple[int, int, int, int], shape: Image.Image, towards: RGB, amount: int) -> None:
        """Lay `towards` at `amount` (of 255) over the pixels of `box` where `shape` (mode "1") is set."""
        faded = self._core.crop(box).point(_fade_tables(self.palette, towards, amount), None)
        self._core.paste(faded, box, shape.im)

    def stamp(
        self,
        key: Hashable,
        xy: tuple[float, float],
        reach: tuple[int, int],
        paint: Callable[[Canvas, float, float], None],
    ) -> None:
        """What `paint(canvas, x, y)` draws around (x, y), no farther than `reach` (x, y) pixels, kept by
        `key` and where (x, y) falls within two pixels, and pasted: a marker, a tab, a label drawn once.
        Pillow draws the same pixels for a shape moved by an even number of pixels (it rounds halves to
        even), so the kept drawing is the one `paint` would make here; `key` must say everything `paint`
        draws (its colours, text, size)."""
        x, y = xy
        rx, ry = reach
        left, top = 2 * math.floor((x - rx) / 2), 2 * math.floor((y - ry) / 2)
        key = (id(self.palette), key, x - left, y - top, reach)
        found = _stamps.get(key)
        if found is None:
            found = _new_stamp(self.palette, key, paint)
        width, height = 2 * rx + 3, 2 * ry + 3
        self._core.paste(found[0], (left, top, left + width, top + height), found[1])


_stamps: OrderedDict[tuple[object, ...], tuple[Any, Any]] = OrderedDict()  # cores: indexes, where drawn
KEPT_STAMPS = 4096  # markers, tabs, tokens, labels at their sub-pixel places: ~1 KB each


def _new_stamp(
    palette: Colours, key: tuple[Any, ...], paint: Callable[[Canvas, float, float], None]
) -> tuple[Any, Any]:
    """Paint twice, on two grounds: where the two drawings agree is what `paint` drew."""
    _, _, x, y, (rx, ry) = key
    drawings = []
    for ground in (0, 1):
        canvas = Canvas(Image.new("P", (2 * rx + 3, 2 * ry + 3), ground), palette)
        paint(canvas, x, y)
        drawings.append(canvas.image.tobytes())
    drawn = Image.frombytes("L", canvas.image.size, bytes(255 * (a == b) for a, b in zip(*drawings, strict=True)))
    made = (canvas.image.im, drawn.point(_INKED, "1").im)
    with _sprites_lock:
        _stamps[key] = made
        while len(_stamps) > KEPT_STAMPS:
            _stamps.popitem(last=False)
    return made
