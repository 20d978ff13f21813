"""A small rating-history chart (PNG) for `/stats`: one line per game, the rating after each game.

Drawn on a palette image (one byte a pixel, a handful of colours): encoding it is several times
cheaper than an RGB image, and Pillow draws text on palette images without anti-aliasing, which
costs less and looks the same at this size. `/stats` is answered within 50 ms with this inside.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 480, 200
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 44, 12, 26, 14
BACKGROUND = (47, 49, 54)
GRID = (80, 83, 90)
TEXT = (220, 221, 222)
COLOURS = [(241, 196, 15), (52, 152, 219), (46, 204, 113), (231, 76, 60), (155, 89, 182)]


@cache
def _font() -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=12)


@dataclass(frozen=True, slots=True)
class Series:
    label: str
    values: Sequence[float]  # the rating after each game, oldest first


def rating_chart(series: Sequence[Series], title: str) -> bytes:
    """The chart as PNG bytes. Each series is spread over the full width (games, not dates)."""
    image = Image.new("P", (WIDTH, HEIGHT), 0)
    image.putpalette([*BACKGROUND, *GRID, *TEXT, *(c for colour in COLOURS for c in colour)])
    draw = ImageDraw.Draw(image)
    font = _font()
    shown = [s for s in series if s.values][: len(COLOURS)]
    values = [v for s in shown for v in s.values] or [0.0]
    low, high = min(values), max(values)
    if high - low < 1.0:  # a flat line sits in the middle of a 1-point band
        low, high = low - 0.5, high + 0.5
    top, bottom = MARGIN_TOP, HEIGHT - MARGIN_BOTTOM
    left, right = MARGIN_LEFT, WIDTH - MARGIN_RIGHT

    def y_of(value: float) -> float:
        return bottom - (value - low) / (high - low) * (bottom - top)

    for value in (low, (low + high) / 2, high):
        y = y_of(value)
        draw.line([(left, y), (right, y)], fill=GRID)
        draw.text((4, y - 7), f"{value:.1f}", fill=TEXT, font=font)
    draw.text((left, 4), title, fill=TEXT, font=font)
    legend_x: float = right
    for colour, line in reversed(list(zip(COLOURS, shown, strict=False))):
        width = draw.textlength(line.label, font=font)
        legend_x -= width + 22
        draw.rectangle([legend_x, 8, legend_x + 10, 16], fill=colour)
        draw.text((legend_x + 14, 4), line.label, fill=TEXT, font=font)
    for colour, line in zip(COLOURS, shown, strict=False):
        count = len(line.values)
        step = (right - left) / max(1, count - 1)
        points = [(left + i * step if count > 1 else (left + right) / 2, y_of(v)) for i, v in enumerate(line.values)]
        if len(points) > 1:
            draw.line(points, fill=colour, width=2)
        for x, y in points[-1:]:
            draw.ellipse([x - 3, y - 3, x + 3, y + 3], fill=colour)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False, compress_level=1)
    return out.getvalue()
