"""A small rating-history chart (PNG) for `/stats`: one line per game, the rating after each game.

Drawn on a palette image (one byte a pixel, a handful of colours): encoding it is several times
cheaper than an RGB image, and Pillow draws text on palette images without anti-aliasing, which
costs less and looks the same at this size. `/stats` is answered within 50 ms with this inside.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from babel.numbers import format_decimal
from PIL import Image, ImageDraw

from bot.render.kit.fonts import FontType, latin_font
from bot.texts.i18n import DEFAULT

WIDTH, HEIGHT = 480, 200
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 44, 12, 26, 14
BACKGROUND = (47, 49, 54)
GRID = (80, 83, 90)
TEXT = (220, 221, 222)
COLOURS = [(241, 196, 15), (52, 152, 219), (46, 204, 113), (231, 76, 60), (155, 89, 182)]


def _font() -> FontType:
    """The pictures' DejaVu: titles in Italian and French have accents, and French numbers a narrow
    no-break space between thousands (Pillow's default font draws both as empty boxes)."""
    return latin_font(12)


@lru_cache(maxsize=1024)
def _text_mask(text: str) -> Image.Image:
    """The text as a 1-bit mask, rendered once: titles, game names and most axis values repeat, and
    rendering the glyphs was the chart's biggest cost after encoding."""
    _left, _top, right, bottom = _font().getbbox(text)
    # Glyphs drawn without anti-aliasing can reach a little past the anti-aliased box: draw on a
    # roomier canvas, then keep up to the last lit column.
    mask = Image.new("1", (int(right) + 8, int(bottom) + 4), 0)
    ImageDraw.Draw(mask).text((0, 0), text, fill=1, font=_font())
    lit = mask.getbbox()
    return mask.crop((0, 0, lit[2] if lit else 1, mask.height))


def _put_text(image: Image.Image, x: float, y: float, text: str, ink: int) -> int:
    """Write text at (x, y) (its top left) in palette colour `ink`; its width."""
    mask = _text_mask(text)
    image.paste(ink, (int(x), int(y)), mask)
    return mask.width


@dataclass(frozen=True, slots=True)
class Series:
    label: str
    values: Sequence[float]  # the rating after each game, oldest first


# Palette indices: the background first (index 0 fills a new image), then the grid, the text, the lines.
_BACKGROUND, _GRID, _TEXT, _FIRST_LINE = 0, 1, 2, 3
_PALETTE = [*BACKGROUND, *GRID, *TEXT, *(c for colour in COLOURS for c in colour)]
LEGEND_ROW = 16  # height of one row of title/legend


def axis_label(value: float, lang: str) -> str:
    """A rating on the chart's axis: one decimal, as `lang` writes numbers."""
    return format_decimal(value, format="#,##0.0", locale=lang)


def rating_chart(series: Sequence[Series], title: str, lang: str = DEFAULT) -> bytes:
    """The chart as PNG bytes. Each series is spread over the full width (games, not dates).

    The title sits top left and the legend top right; when they do not fit on one row (three long
    game names), the legend takes a second row and the plot starts lower. The axis labels are numbers
    with one decimal as `lang` writes them ("1,234.5", "1.234,5", "1 234,5")."""
    shown = [s for s in series if s.values][: len(COLOURS)]
    left, right = MARGIN_LEFT, WIDTH - MARGIN_RIGHT
    widths = [_text_mask(line.label).width + 22 for line in shown]
    title_width = _text_mask(title).width
    legend_row = 0 if left + title_width + 12 + sum(widths) <= right else 1
    image = Image.new("P", (WIDTH, HEIGHT), _BACKGROUND)
    image.putpalette(_PALETTE)
    draw = ImageDraw.Draw(image)
    values = [v for s in shown for v in s.values] or [0.0]
    low, high = min(values), max(values)
    if high - low < 1.0:  # a flat line sits in the middle of a 1-point band
        low, high = low - 0.5, high + 0.5
    top, bottom = MARGIN_TOP + legend_row * LEGEND_ROW, HEIGHT - MARGIN_BOTTOM

    def y_of(value: float) -> float:
        return bottom - (value - low) / (high - low) * (bottom - top)

    for value in (low, (low + high) / 2, high):
        y = y_of(value)
        draw.line([(left, y), (right, y)], fill=_GRID)
        _put_text(image, 4, y - 7, axis_label(value, lang), _TEXT)
    _put_text(image, left, 4, title, _TEXT)
    legend_x: float = right
    legend_y = 4 + legend_row * LEGEND_ROW
    for index, line, width in reversed(
        list(zip(range(_FIRST_LINE, _FIRST_LINE + len(shown)), shown, widths, strict=True))
    ):
        legend_x -= width
        draw.rectangle([legend_x, legend_y + 4, legend_x + 10, legend_y + 12], fill=index)
        _put_text(image, legend_x + 14, legend_y, line.label, _TEXT)
    for index, line in zip(range(_FIRST_LINE, _FIRST_LINE + len(shown)), shown, strict=True):
        count = len(line.values)
        step = (right - left) / max(1, count - 1)
        points = [(left + i * step if count > 1 else (left + right) / 2, y_of(v)) for i, v in enumerate(line.values)]
        if len(points) > 1:
            draw.line(points, fill=index, width=2)
        for x, y in points[-1:]:
            draw.ellipse([x - 3, y - 3, x + 3, y + 3], fill=index)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False, compress_level=1)
    return out.getvalue()
