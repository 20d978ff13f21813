"""A whole game as one animated picture: the public table's picture of each turn, in order, with the turn
written above it, ending on the result (held longer). Animated WebP, which Discord shows inline.

Frames are padded to the largest (a table's picture grows with its log or hands) and scaled to WIDTH,
legible at a phone's width, and encoded lossy: a normal game of 30-90 turns is 0.2-1 MB (bench pictures,
`animation_*` figures), well under Discord's 8 MB for a bot's upload. Seconds of CPU for a long game, so it
is made only on request and in its own worker (bot.render.kit.pool: `Pictures.animate`), never in the way of
a prompt's picture.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.render.kit.fonts import latin_font

WIDTH = 480  # pixels: a phone shows it whole, its text still readable
BAND = 30  # pixels of the band above each frame that says which turn it is
FRAME_MS = 900  # milliseconds a turn is shown
LAST_MS = 5000  # ... and the result
QUALITY, METHOD = 70, 2  # WebP: text stays sharp at 480 px; METHOD 2 of 6: a fifth of the time of 4, 10% larger
INK, PAPER = (30, 30, 30), (255, 255, 255)


def encode(frames: Sequence[bytes], labels: Sequence[str]) -> bytes:
    """The animation of `frames` (PNG bytes, in order, at least one), each under its label."""
    pictures = [Image.open(io.BytesIO(frame)).convert("RGB") for frame in frames]
    width = max(p.width for p in pictures)
    height = max(p.height for p in pictures)
    scale = WIDTH / width
    size = (WIDTH, BAND + round(height * scale))
    font = latin_font(18, bold=True)
    shown = []
    for picture, label in zip(pictures, labels, strict=True):
        canvas = Image.new("RGB", size, PAPER)
        canvas.paste(picture.resize((round(picture.width * scale), round(picture.height * scale))), (0, BAND))
        ImageDraw.Draw(canvas).text((8, BAND // 2), label, fill=INK, font=font, anchor="lm")
        shown.append(canvas)
    durations = [FRAME_MS] * (len(shown) - 1) + [LAST_MS]
    out = io.BytesIO()
    shown[0].save(
        out,
        "WEBP",
        save_all=True,
        append_images=shown[1:],
        duration=durations,
        loop=0,
        quality=QUALITY,
        method=METHOD,
    )
    return out.getvalue()
