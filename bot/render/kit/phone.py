"""What the pictures made for a phone share: their layout scale, font, text fitting, and the phone's view.

Pictures are laid out in layout pixels for a phone 400 px wide (UNIT) and drawn SCALE times larger, so
text stays sharp on phone screens; `u` turns layout pixels into picture pixels, and no text is drawn
under MIN_TEXT layout pixels (10 px when shown 400 px wide: tests/test_pictures_phone.py). The font is
DejaVu Sans Condensed (`bot.render.kit.fonts.latin_font`): every letter Italian and French need. Used by
the Eggs and Empires and Reggverse Riddles pictures.
"""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image

from bot.render.kit.fonts import FontType, latin_font

RGB = tuple[int, int, int]

UNIT = 400  # the width the layout is made for, in layout pixels
SCALE = 1.5  # picture pixels per layout pixel: 600 px wide, sharp on phones
MIN_TEXT = 10  # layout pixels: the smallest text, as read on a phone 400 px wide
INK: RGB = (34, 30, 40)
WHITE: RGB = (255, 255, 255)


def u(value: float) -> int:
    """Layout pixels to picture pixels."""
    return round(value * SCALE)


def font(size: int, bold: bool = False) -> FontType:
    """The picture's font at `size` layout pixels (at least MIN_TEXT)."""
    return latin_font(u(max(size, MIN_TEXT)), bold)


def ink_on(rgb: RGB) -> RGB:
    """Black or white, whichever reads on `rgb`."""
    return INK if 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2] > 150 else WHITE


@lru_cache(maxsize=4096)
def fit(text: str, size: int, width: float, bold: bool = False) -> str:
    """`text` shortened with "…" to fit `width` layout pixels (kept: the same names and headings come
    back picture after picture)."""
    face = font(size, bold)
    if face.getlength(text) <= u(width):
        return text
    while text and face.getlength(text + "…") > u(width):
        text = text[:-1]
    return text.rstrip() + "…"


def as_on_phone(png: bytes, palette: Image.Image, width: int = UNIT) -> bytes:
    """A picture as a phone shows it, for the galleries in docs/pictures: `width` px wide, on `palette`."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    small = image.resize((width, round(image.height * width / image.width)), Image.Resampling.BOX)
    out = io.BytesIO()
    small.quantize(palette=palette, dither=Image.Dither.NONE).save(out, format="PNG", optimize=True)
    return out.getvalue()
