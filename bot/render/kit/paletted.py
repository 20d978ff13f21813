"""Pictures drawn straight onto their fixed palette (mode "P": one byte a pixel), ready to be encoded.

The phone pictures were drawn in RGB, then mapped onto their renderer's fixed palette to be encoded
(`bot.render.kit.palette.encode_png`): the mapping, and drawing on a canvas of four bytes a pixel, were about
a third of a picture's CPU. Here the picture is drawn on the palette itself:

- shapes are drawn with their colours' palette indexes (`Colours.getcolor`, which an ImageDraw of a
  palette image asks): Pillow draws them without anti-aliasing, so they are the same pixels as in RGB;
- text stays anti-aliased: each glyph bitmap's coverage (0-255) becomes the palette colour nearest to the
  ink blended over the colour found under the text, as Pillow blends it in RGB (`Colours.ramp`), which is
  what mapping the RGB picture gave (the palettes hold blends of their inks over their papers);
- parts drawn apart in RGB or RGBA (kept by the renderers: a board's squares, cards, discs) are mapped
  onto the palette once and kept with the part (`paste`).

The canvas's palette is the renderer's: `encode` writes it as it is, with no mapping (`palette_png`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

from PIL import Image, ImageDraw

from bot.render.kit.palette import png_at

RGB = tuple[int, int, int]
Ramp = tuple[list[int], list[int]]  # per coverage 0-255: the index written, and 255 where it is written

# What is kept with a part, in its `info`: its mapped versions (per palette and paper) and whether its pixels
# are all opaque or see-through, under the part's id (`Image.copy` copies `info`: a copy, maybe drawn on
# since, must not find the original's).
_KEPT = "bot.render.kit.paletted"
OPAQUE = "opaque"  # kept with an RGBA part: whether it is


def _blend(paper: int, ink: int, coverage: int) -> int:
    """One channel of `ink` over `paper` at `coverage` (0-255), rounded as Pillow blends text in RGB."""
    value = paper * (255 - coverage) + ink * coverage + 128
    return ((value >> 8) + value) >> 8


class Colours:
    """A fixed palette's colours. `getcolor` turns an RGB colour into its index (its entry, or the nearest
    one's): an ImageDraw of a palette picture asks it for every fill, so drawing code passes RGB as before.
    Thread-safe: look-ups and ramps are kept in dicts, each read or write atomic."""

    def __init__(self, palette: Image.Image) -> None:
        flat = (palette.getpalette() or [0, 0, 0])[: 3 * 256]
        self.palette = palette
        self.flat = bytes(flat)
        self.rgb: list[RGB] = [(flat[i], flat[i + 1], flat[i + 2]) for i in range(0, len(flat), 3)]
        self._index: dict[tuple[int, ...], int] = {}
        for index, colour in enumerate(self.rgb):
            self._index.setdefault(colour, index)
        self._ramps: dict[tuple[int, int], Ramp] = {}

    def nearest(self, colours: list[RGB]) -> list[int]:
        """The palette index of each colour, as mapping an RGB picture onto the palette gives them
        (`Image.quantize`, which the pictures drawn in RGB went through)."""
        strip = Image.new("RGB", (len(colours), 1))
        strip.putdata(colours)
        return list(strip.quantize(palette=self.palette, dither=Image.Dither.NONE).tobytes())

    def getcolor(self, color: Any, image: Image.Image | None = None) -> int:
        """The palette index of `color` (an RGB or RGBA tuple, or already an index)."""
        del image
        if isinstance(color, int):
            return color
        key = (color[0], color[1], color[2])
        found = self._index.get(key)
        if found is None:
            found = self._index[key] = self.nearest([key])[0]
        return found

    def ramp(self, ink: int, paper: int) -> Ramp:
        """Text of palette colour `ink` over `paper`: per coverage the index of the nearest colour to the
        blend, and where that differs from the paper (the only pixels written)."""
        found = self._ramps.get((ink, paper))
        if found is None:
            (ir, ig, ib), (pr, pg, pb) = self.rgb[ink], self.rgb[paper]
            blends = [
                (_blend(pr, ir, coverage), _blend(pg, ig, coverage), _blend(pb, ib, coverage))
                for coverage in range(256)
            ]
            mapped = zip(blends, self.nearest(blends), strict=True)
            indexes = [paper if blend == self.rgb[paper] else index for blend, index in mapped]
            found = self._ramps[(ink, paper)] = (indexes, [0 if i == paper else 255 for i in indexes])
        return found


_colours: dict[int, Colours] = {}
_colours_lock = threading.Lock()


def colours(palette: Image.Image) -> Colours:
    """The (kept) colours of a renderer's palette image (each renderer has one, made once)."""
    found = _colours.get(id(palette))
    if found is None or found.palette is not palette:
        with _colours_lock:
            found = _colours[id(palette)] = Colours(palette)
    return found


def _flat_under(image: Any, box: tuple[int, int, int, int]) -> int | None:
    """The palette index under a text or part about to be drawn at `box` of the picture (a core image) when
    the whole box shows that one colour (the usual case: text on a panel or a square), else None."""
    left, top, right, bottom = box
    width, height = image.size
    clipped = (max(left, 0), max(top, 0), min(right, width), min(bottom, height))
    if clipped[2] <= clipped[0] or clipped[3] <= clipped[1]:
        return None
    lowest, highest = image.crop(clipped).getextrema()
    return int(lowest) if lowest == highest else None


class _Operations:
    """A palette picture's drawing operations (Pillow's C drawing object), with text bitmaps blended
    through the palette (`Colours.ramp`) instead of written with one index."""

    def __init__(self, operations: Any, image: Image.Image, palette: Colours) -> None:
        self._operations = operations
        self._image = image
        self._colours = palette

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._operations, name)
        setattr(self, name, found)  # looked up once per drawing
        return found

    def draw_bitmap(self, xy: tuple[int, int], mask: Any, ink: int) -> None:
        width, height = mask.size
        if not width or not height:
            return
        x, y = xy
        box = (x, y, x + width, y + height)
        core = self._image.im
        paper = _flat_under(core, box)
        if paper is not None:
            written, where = self._colours.ramp(ink, paper)
            core.paste(mask.point(written, None), box, mask.point(where, None))
            return
        # Over several colours (a pawn's number on its body and outline): blended in RGB as before, and
        # mapped back onto the palette.
        under = self._image.crop(box).convert("RGB")
        operations = Image.core.draw(under.im, 0)
        operations.draw_bitmap((0, 0), mask, operations.draw_ink(self._colours.rgb[ink]))
        drawn = under.quantize(palette=self._colours.palette, dither=Image.Dither.NONE)
        core.paste(drawn.im, box, mask.point([0] + [255] * 255, None))


class PaletteDraw(ImageDraw.ImageDraw):
    """An ImageDraw of a palette picture: RGB fills go to their palette index, text is anti-aliased."""

    def __init__(self, image: Image.Image, palette: Colours) -> None:
        super().__init__(image)
        self.image = image
        self.palette = palette  # type: ignore[assignment]  # asked by ImageDraw for each RGB fill (`getcolor`)
        self.fontmode = "L"  # anti-aliased bitmaps: `_Operations.draw_bitmap` blends them
        self.draw = _Operations(self.draw, image, palette)


def canvas(size: tuple[int, int], palette: Image.Image, background: RGB) -> tuple[Image.Image, PaletteDraw]:
    """A palette picture of `size` filled with `background`, and its ImageDraw."""
    found = colours(palette)
    image = Image.new("P", size, found.getcolor(background))
    image.putpalette(found.flat, "RGB")
    return image, PaletteDraw(image, found)


def mapped(part: Image.Image, palette: Image.Image, paper: RGB | int = 0) -> tuple[Image.Image, Image.Image | None]:
    """`part` on `palette`, kept with the part: a palette image and the mask of its pixels to write (None:
    all of them). An RGBA part is laid on `paper` (a colour or palette index) first; its mask is where it
    is not transparent."""
    if part.mode == "P":
        return part, None
    found = colours(palette)
    index = found.getcolor(paper) if part.mode == "RGBA" else 0
    key = (id(palette), index)
    kept = _kept_with(part)
    if key not in kept:
        if part.mode == "RGBA":
            laid = Image.new("RGB", part.size, found.rgb[index])
            laid.paste(part, (0, 0), part)
            where: Image.Image | None = part.getchannel("A").point([0] + [255] * 255)
        else:
            laid, where = part.convert("RGB"), None
        kept[key] = (laid.quantize(palette=palette, dither=Image.Dither.NONE), where)
    return kept[key]


def _opaque_or_clear(part: Image.Image) -> bool:
    """Whether every pixel of an RGBA part is opaque or fully transparent (shapes, and text on them): then
    its mapping is the same on any paper. Kept with the part."""
    kept = _kept_with(part)
    found = kept.get(OPAQUE)
    if found is None:
        alpha = part.getchannel("A").histogram()
        found = kept[OPAQUE] = sum(alpha[1:255]) == 0
    return bool(found)


def _kept_with(part: Image.Image) -> dict[Any, Any]:
    """What is kept with `part` (this very image, not one it was copied from)."""
    found = part.info.get(_KEPT)
    if found is None or found[0] != id(part):
        found = part.info[_KEPT] = (id(part), {})
    kept: dict[Any, Any] = found[1]
    return kept


def paste(image: Image.Image, part: Image.Image, xy: tuple[int, int], palette: Image.Image) -> None:
    """`part` (palette, RGB or RGBA: see `mapped`) pasted on the palette picture `image` at `xy`; an RGBA
    part's see-through pixels show what is under it, the paper it is laid on found there."""
    paper = 0
    if part.mode == "RGBA" and not _opaque_or_clear(part):  # blends with what is under it: found there
        box = (xy[0], xy[1], xy[0] + part.width, xy[1] + part.height)
        flat = _flat_under(image.im, box)
        if flat is None:  # over several colours: laid on them as before, and mapped back
            under = image.crop(box).convert("RGB")
            under.paste(part, (0, 0), part)
            drawn = under.quantize(palette=palette, dither=Image.Dither.NONE)
            image.paste(drawn, xy, part.getchannel("A").point([0] + [255] * 255))
            return
        paper = flat
    drawn, where = mapped(part, palette, paper)
    image.paste(drawn, xy, where)


def encode(image: Image.Image, compress_level: int = 1) -> bytes:
    """A palette picture as a PNG (`palette_png`); `compress_level` is zlib's, as `encode_png` takes it."""
    return png_at(image, compress_level)


Piece = Callable[[Image.Image, ImageDraw.ImageDraw], None]


class KeptPieces:
    """Pieces of pictures (a player's line, a card, a rule row) drawn once on the palette and pasted into
    the next pictures that show the same: most of a picture is unchanged from one decision to the next.
    Kept by a key that must hold everything the piece is drawn from (texts already in the picture's
    language, numbers, colours, sizes), the least recently used dropped first past `limit()` pixels (one
    byte each). Thread-safe.

    `budget` is what the pictures of a few tables need, and what the bot's own process keeps. A picture
    worker draws the pictures of every table of the bot, interleaved, and a piece comes back only when its
    table's next decision does: with a hundred tables at once, the pieces of the others had pushed it out
    and 75-85% of the pieces were drawn again. A worker keeps `memory` bytes of pieces in all instead
    (RENDER_WORKER_MEMORY_MB), shared by the renderers in proportion to their budgets (`bench pictures`'
    *_tables figures, `bench load`'s CPU per picture)."""

    memory: int | None = None  # bytes for the pieces of every renderer, in a picture worker
    _budgets = 0  # every renderer's budget together

    def __init__(self, budget: int) -> None:
        KeptPieces._budgets += budget
        self.budget = budget
        self._kept: OrderedDict[Hashable, Image.Image] = OrderedDict()
        self._pixels = 0
        self._lock = threading.Lock()

    def piece(self, key: Hashable, size: tuple[int, int], palette: Image.Image, paper: RGB, draw: Piece) -> Image.Image:
        """The piece kept for `key`, or drawn by `draw` on a palette image of `size` filled with `paper`."""
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
                return found
        found, drawing = canvas(size, palette, paper)
        draw(found, drawing)
        with self._lock:
            if key not in self._kept:
                self._kept[key] = found
                self._pixels += size[0] * size[1]
                limit = self.limit()
                while self._pixels > limit and len(self._kept) > 1:
                    dropped = self._kept.popitem(last=False)[1]
                    self._pixels -= dropped.width * dropped.height
        return found

    def limit(self) -> int:
        """The pixels kept at most: `budget`, or this renderer's share of a worker's `memory`."""
        if KeptPieces.memory is None:
            return self.budget
        return max(self.budget, self.budget * KeptPieces.memory // KeptPieces._budgets)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self._pixels = 0
