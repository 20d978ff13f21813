"""The pictures' font, with the text it has rendered kept for the next picture.

Most words on a picture (tile and region names, numbers, seat labels, headings) are the same from one
picture to the next, and rendering their glyphs was the biggest cost of drawing one (about 25 ms of a
Reggverse board's 37). Pillow's `ImageDraw.text` asks the font for each line's bitmap with
`getmask2(...)`, a pure function of its arguments; this font answers a repeated request with the
bitmap it made before, so the pictures are the same pixel for pixel; and a repeated `getlength` (how wide
a text is: fitting names, centring labels, about a tenth of a map's CPU) the width it measured before.
Bitmaps are only read by the
drawing that follows (Pillow copies them onto the picture), so one may serve several pictures, also
from several worker threads at once.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from functools import cache
from importlib import resources
from io import BytesIO
from typing import Any

from PIL import Image, ImageFont

FontType = ImageFont.FreeTypeFont | ImageFont.ImageFont
# Per font size. A kept bitmap averages ~2.5 KB (one line of text), so at most ~1.3 MB per size and ~15 MB
# for the dozen sizes the pictures use; one game's words (names, tiles, rules, headings) are a few hundred.
KEPT_MASKS = 512
KEPT_LENGTHS = 4096  # text widths kept per font size (a few dozen bytes each)


class KeptMasksFont(ImageFont.FreeTypeFont):
    """A FreeType font whose rendered text bitmaps are kept (least recently used dropped first)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._masks: OrderedDict[tuple[Any, ...], tuple[Image.core.ImagingCore, tuple[int, int]]] = OrderedDict()
        self._lengths: dict[tuple[Any, ...], float] = {}
        self._lock = threading.Lock()

    def getlength(self, text: str | bytes, *args: Any, **kwargs: Any) -> float:
        key = (text, args, tuple(sorted(kwargs.items())))
        try:
            found = self._lengths.get(key)  # (a dict read and write are each atomic: no lock needed)
        except TypeError:  # OpenType features given as a list: measured each time
            return super().getlength(text, *args, **kwargs)
        if found is None:
            found = super().getlength(text, *args, **kwargs)
            if len(self._lengths) >= KEPT_LENGTHS:
                self._lengths.clear()  # rare: a game's texts are a few hundred
            self._lengths[key] = found
        return found

    def getmask2(
        self,
        text: str | bytes,
        mode: str = "",
        direction: str | None = None,
        features: list[str] | None = None,
        language: str | None = None,
        stroke_width: float = 0,
        anchor: str | None = None,
        ink: int = 0,
        start: tuple[float, float] | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> tuple[Image.core.ImagingCore, tuple[int, int]]:
        def render() -> tuple[Image.core.ImagingCore, tuple[int, int]]:
            return super(KeptMasksFont, self).getmask2(
                text, mode, direction, features, language, stroke_width, anchor, ink, start, *args, **kwargs
            )

        if mode == "RGBA":  # coloured glyphs: the caller writes into the bitmap it gets, so it is never shared
            return render()
        key = (
            text,
            mode,
            direction,
            tuple(features or ()),
            language,
            stroke_width,
            anchor,
            ink,
            start,
            args,
            tuple(sorted(kwargs.items())),
        )
        with self._lock:
            found = self._masks.get(key)
            if found is not None:
                self._masks.move_to_end(key)
                return found
        made = render()
        with self._lock:
            self._masks[key] = made
            while len(self._masks) > KEPT_MASKS:
                self._masks.popitem(last=False)
        return made


@cache
def font(size: int) -> FontType:
    """Pillow's default font (Aileron) at `size` pixels, keeping the text it renders."""
    default = ImageFont.load_default(size=size)
    if not isinstance(default, ImageFont.FreeTypeFont):  # Pillow built without FreeType: a bitmap font
        return default
    return KeptMasksFont(
        BytesIO(default.font_bytes), default.size, default.index, default.encoding, default.layout_engine
    )


# Vendored in this package (see dejavu-license.md): Pillow's own font has no accented letters.
LATIN_FONT_FILES = {False: "dejavu-sans-condensed-latin.ttf", True: "dejavu-sans-condensed-bold-latin.ttf"}


@cache
def latin_font(size: int, bold: bool = False) -> FontType:
    """DejaVu Sans Condensed at `size` pixels, keeping the text it renders: every letter Italian and French
    write (Pillow's default Aileron draws "é", "à", "œ" as empty boxes), narrow enough for words to fit
    a picture made for a phone's width."""
    data = resources.files(__package__).joinpath(LATIN_FONT_FILES[bold]).read_bytes()
    return KeptMasksFont(BytesIO(data), size)
