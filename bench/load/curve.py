"""The capacity curve of `bench load --capacity` as a picture: concurrent games -> prompt p99, one line for
the answer to a click (the bench's clock) and one for a DM prompt's words (the bot's), the 500 ms line,
and where the search stopped.

Drawn 640 px wide with text of 15 px and more, so that shown at 400 px wide (REPORT.md in a narrow
column, a phone) no word is under 9 px. The p99 axis stops at AXIS_MS: the criterion sits in its middle,
and a level far past it (an unanswered click counts 30 s) is drawn at the top with its value written.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from bench.load.plan import PROMPT_P99_MS
from bot.render.kit.fonts import latin_font

WIDTH, HEIGHT = 640, 400
LEFT, RIGHT, TOP, BOTTOM = 64, 24, 90, 50  # the plot's margins: axis labels left and below, title and legend above
AXIS_MS = 2 * PROMPT_P99_MS
BACKGROUND, GRID, TEXT, LIMIT = (255, 255, 255), (222, 224, 228), (40, 42, 48), (200, 40, 40)
# (figure, legend, colour): the bench's clock first, the bot's second.
SERIES = (
    ("answer_p99_ms", "answer to a click (bench)", (33, 102, 172)),
    ("dm_prompt_p99_ms", "DM prompt's words (bot)", (230, 120, 20)),
)


def _nice_step(span: float, ticks: int = 6) -> float:
    """A round step (1, 2 or 5 times a power of ten) giving at most about `ticks` ticks over `span`."""
    raw = max(span, 1.0) / ticks
    power = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)


def _dashed(draw: ImageDraw.ImageDraw, start: tuple[float, float], end: tuple[float, float], fill: Any) -> None:
    (x0, y0), (x1, y1) = start, end
    length = math.hypot(x1 - x0, y1 - y0)
    for offset in range(0, int(length), 10):
        a, b = offset / length, min(1.0, (offset + 6) / length)
        draw.line([(x0 + (x1 - x0) * a, y0 + (y1 - y0) * a), (x0 + (x1 - x0) * b, y0 + (y1 - y0) * b)], fill, 2)


def capacity_curve(levels: Sequence[dict[str, Any]], *, title: str, capacity: int) -> bytes:
    """The levels measured (their `games` and p99s; a level stopped before its window has none) as a PNG."""
    measured = [x for x in levels if "answer_p99_ms" in x]
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    font, small, bold = latin_font(16), latin_font(15), latin_font(18, bold=True)
    left, right, top, bottom = LEFT, WIDTH - RIGHT, TOP, HEIGHT - BOTTOM
    most = max((x["games"] for x in levels), default=1)
    x_step = _nice_step(most)
    x_top = math.ceil(most / x_step) * x_step

    def x_of(games: float) -> float:
        return left + games / x_top * (right - left)

    def y_of(ms: float) -> float:
        return bottom - min(ms, AXIS_MS) / AXIS_MS * (bottom - top)

    draw.text((left - 56, 8), title, fill=TEXT, font=bold)
    legend_x = float(left - 56)
    for _key, label, colour in SERIES:
        draw.line([(legend_x, 45), (legend_x + 22, 45)], fill=colour, width=3)
        draw.ellipse([legend_x + 7, 41, legend_x + 15, 49], fill=colour)
        draw.text((legend_x + 28, 36), label, fill=TEXT, font=font)
        legend_x += 28 + draw.textlength(label, font=font) + 22
    y_step = _nice_step(AXIS_MS, 5)
    for ms in [y_step * i for i in range(int(AXIS_MS / y_step) + 1)]:
        y = y_of(ms)
        draw.line([(left, y), (right, y)], fill=GRID)
        label = f"{ms:,.0f}"
        draw.text((left - 8 - draw.textlength(label, font=small), y - 9), label, fill=TEXT, font=small)
    for games in [x_step * i for i in range(int(x_top / x_step) + 1)]:
        x = x_of(games)
        draw.line([(x, bottom), (x, bottom + 5)], fill=TEXT)
        label = f"{games:,.0f}"
        draw.text((x - draw.textlength(label, font=small) / 2, bottom + 7), label, fill=TEXT, font=small)
    draw.line([(left, top), (left, bottom), (right, bottom)], fill=TEXT, width=1)
    draw.text(
        (right - draw.textlength("concurrent games", font=font), bottom + 27), "concurrent games", fill=TEXT, font=font
    )
    draw.text((left - 56, top - 30), "p99, ms", fill=TEXT, font=font)
    limit_y = y_of(PROMPT_P99_MS)
    _dashed(draw, (left, limit_y), (right, limit_y), LIMIT)
    draw.text((left + 6, limit_y - 21), f"{PROMPT_P99_MS:g} ms", fill=LIMIT, font=small)
    if capacity:
        x = x_of(capacity)
        _dashed(draw, (x, top), (x, bottom), TEXT)
        # Left of its line: the levels there all passed, so their p99s are below the 500 ms line, far from it.
        label = f"holds {capacity:,}"
        draw.text((max(left + 4, x - 6 - draw.textlength(label, font=font)), top + 2), label, fill=TEXT, font=font)
    for key, _label, colour in SERIES:
        points = [(x_of(x["games"]), y_of(x[key]), x[key]) for x in measured if x.get(key) is not None]
        if len(points) > 1:
            draw.line([(px, py) for px, py, _ in points], fill=colour, width=3)
        for px, py, _ms in points:
            draw.ellipse([px - 5, py - 5, px + 5, py + 5], fill=colour)
    for level in measured:  # values off the axis: written above the plot, where they are drawn at its top
        clipped = [
            (f"{level[key] / 1000:,.1f} s", colour) for key, _label, colour in SERIES if (level.get(key) or 0) > AXIS_MS
        ]
        if clipped:
            texts = "  ".join(text for text, _colour in clipped)
            x = min(x_of(level["games"]) + draw.textlength(texts, font=small) / 2, right) - draw.textlength(
                texts, font=small
            )
            for text, colour in clipped:
                draw.text((x, top - 24), text, fill=colour, font=small)
                x += draw.textlength(text + "  ", font=small)
    for level in levels:  # what failed a level besides the p99s: its 429s, or a run that could not go on
        mark = "429" if level.get("rate_limited") else "stop" if "stopped" in level else ""
        if mark:
            x = x_of(level["games"])
            draw.text((x - draw.textlength(mark, font=small) / 2, bottom - 22), mark, fill=LIMIT, font=small)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
