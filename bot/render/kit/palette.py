"""PNG encoding of the pictures through a fixed palette: a third of the CPU of the former encodings.

Pillow encodes an RGB PNG by trying five filters on every row and compressing three bytes a pixel
(38 ms for the 960x1034 Eight-Minute Empire map); a palette image (one byte a pixel, no filter choice)
takes ~5 ms. Finding an adaptive palette (`quantize`, ~13-15 ms) cost more than what it saved, so each
renderer gives its colours once: the palette holds them exactly (large areas keep their true colour),
blends of its text colours over its backgrounds (the anti-aliased edges of letters), and a 4x4x4 colour
cube for anything else. Mapping a picture onto a given palette is a cached nearest-colour look-up
(~1-2 ms). The rows are then deflated by ISA-L (`palette_png`, levels 0-3: Pillow's zlib took 3.4 ms of the
map's 4.5 ms encoding, ISA-L 0.6 ms) or, for the pictures the bot uploads, by zlib at `UPLOAD_LEVEL`
(issue 37.3: what a game uploads counts more than 4 ms of CPU per picture; over whole 4-player games
zlib's level 6 makes the files 20-33% smaller than ISA-L's level 2, for about 4 ms more per picture:
`python -m bench uploads`). Under load the bot hurries (`hurried`): while other pictures wait for a
worker, a picture is deflated by ISA-L instead (the same pixels, ~30% more bytes, a twentieth of the CPU:
0.3-0.5 ms instead of 3-8 ms), so that what players wait for is not queued behind compression.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from itertools import product

from isal import isal_zlib
from PIL import Image

RGB = tuple[int, int, int]
CUBE_LEVELS = (0, 85, 170, 255)
BLEND_STEPS = (0.25, 0.5, 0.75)
PALETTE_SIZE = 256


def _blend(ink: RGB, paper: RGB, amount: float) -> RGB:
    return (
        round(paper[0] + (ink[0] - paper[0]) * amount),
        round(paper[1] + (ink[1] - paper[1]) * amount),
        round(paper[2] + (ink[2] - paper[2]) * amount),
    )


def fixed_palette(colours: Iterable[RGB], text_on: Iterable[tuple[RGB, RGB]] = ()) -> Image.Image:
    """A palette image: `colours` exactly, then blends of each (ink, paper) pair, then the colour cube,
    without repeats, cut at 256 entries (the named colours always fit: renderers have a few dozen)."""
    entries: list[RGB] = []
    seen: set[RGB] = set()

    def add(colour: RGB) -> None:
        if colour not in seen and len(entries) < PALETTE_SIZE:
            seen.add(colour)
            entries.append(colour)

    for colour in colours:
        add(colour)
    for ink, paper in text_on:
        for amount in BLEND_STEPS:
            add(_blend(ink, paper, amount))
    for red, green, blue in product(CUBE_LEVELS, repeat=3):
        add((red, green, blue))
    flat: list[int] = [channel for colour in entries for channel in colour]
    flat += [0] * (3 * PALETTE_SIZE - len(flat))
    palette = Image.new("P", (1, 1))
    # As bytes: Pillow keeps a list as given, and every picture mapped on this palette (`quantize`) and
    # every part kept mapped on it (bot.render.kit.paletted) copies it: 6 KB a copy as a list, 0.8 as bytes.
    palette.putpalette(bytes(flat))
    return palette


def encode_png(image: Image.Image, palette: Image.Image, compress_level: int = 1) -> bytes:
    """`image` (RGB) as a PNG on `palette`: nearest colours, no dithering (flat colours stay flat).
    `compress_level` is zlib's (1: fastest; higher: smaller files for more CPU): up to ZLIB_FROM - 1
    mapped onto ISA-L's, from ZLIB_FROM zlib's own."""
    mapped = image.quantize(palette=palette, dither=Image.Dither.NONE)
    return png_at(mapped, compress_level)


# zlib's levels 0-9 as ISA-L's 0-3: its level 1 is already smaller than zlib's 1; 3 is its slowest.
ISAL_LEVELS = (0, 1, 1, 1, 2, 2, 2, 3, 3, 3)
# From this zlib level on, zlib itself deflates (ISA-L's best is about zlib's 3: larger files).
ZLIB_FROM = 4
# The level of the pictures the bot uploads: 20-33% smaller files than ISA-L's, ~4 ms more per picture.
UPLOAD_LEVEL = 6
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


# Set while the picture being encoded is hurried (bot.render.kit.pool: others wait behind it).
_HURRIED: ContextVar[bool] = ContextVar("picture_hurried", default=False)


@contextmanager
def hurried(hurry: bool = True) -> Iterator[None]:
    """Pictures encoded within are deflated by ISA-L whatever their level, if `hurry`."""
    token = _HURRIED.set(hurry)
    try:
        yield
    finally:
        _HURRIED.reset(token)


def png_at(mapped: Image.Image, compress_level: int) -> bytes:
    """A palette image as a PNG at zlib's `compress_level`: ISA-L's nearest level below ZLIB_FROM, zlib from it
    (unless `hurried`: ISA-L's nearest level then too)."""
    if compress_level >= ZLIB_FROM and not _HURRIED.get():
        return palette_png(mapped, zlib_level=compress_level)
    return palette_png(mapped, ISAL_LEVELS[min(compress_level, len(ISAL_LEVELS) - 1)])


def palette_png(mapped: Image.Image, level: int = 1, *, zlib_level: int | None = None) -> bytes:
    """A palette image (mode P, 8 bits) as a PNG whose rows are deflated by ISA-L instead of zlib: the
    same pixels and palette as Pillow's PNG, for a fifth of the compression time (0.6 ms instead of 3 ms
    for the 800x970 Eight-Minute Empire map; deflating was half of a picture's CPU). Rows are unfiltered,
    as Pillow leaves palette images: each is its filter byte (0) and its indexes, which the picture pasted
    one pixel to the right of a column of zeros gives in one `tobytes`. With `zlib_level`, zlib deflates
    them at that level instead."""
    width, height = mapped.size
    rows = Image.new("P", (width + 1, height), 0)
    rows.paste(mapped, (1, 0))
    colours = bytes(mapped.getpalette() or [0, 0, 0])
    return b"".join(
        (
            PNG_SIGNATURE,
            _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)),
            _chunk(b"PLTE", colours),
            _chunk(
                b"IDAT",
                isal_zlib.compress(rows.tobytes(), level)
                if zlib_level is None
                else zlib.compress(rows.tobytes(), zlib_level),
            ),
            _chunk(b"IEND", b""),
        )
    )


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
