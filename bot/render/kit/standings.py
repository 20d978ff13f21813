"""A tournament's standings as a picture: rank, name, points and Buchholz in a table, the leaders marked,
legible on a phone (PHONE width, the Latin font so that every name's letters show)."""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.render.kit.fonts import latin_font

WIDTH = 600
ROW = 34  # pixels per line
TOP = 92  # the title's band and the columns' names
MOST_ROWS = 32  # a bigger field is cut (the words beside it say so)
PAPER, INK, LINE, MUTED = (250, 246, 238), (30, 30, 30), (215, 205, 190), (130, 130, 130)
MEDALS = {1: (212, 160, 23), 2: (168, 169, 173), 3: (176, 112, 58)}

Row = tuple[int, str, str, str, bool]  # rank, name, points, Buchholz (as shown), gone (withdrawn or dropped)


class StandingsPicture:
    """Draws standings; sent to a picture worker as it is (`portable`: no game's renderer to look up)."""

    key = "standings"
    portable = True

    def draw(self, title: str, headers: tuple[str, str], rows: Sequence[Row]) -> bytes:
        """`headers`: the points' and the tie-break's column names, in the reader's language."""
        shown = list(rows[:MOST_ROWS])
        image = Image.new("RGB", (WIDTH, TOP + ROW * len(shown) + 12), PAPER)
        draw = ImageDraw.Draw(image)
        draw.text((16, 30), title, fill=INK, font=latin_font(26, bold=True), anchor="lm")
        name_font, number_font = latin_font(20), latin_font(20, bold=True)
        small = latin_font(16)
        draw.text((500, TOP - 14), headers[0], fill=MUTED, font=small, anchor="rm")
        draw.text((WIDTH - 16, TOP - 14), headers[1], fill=MUTED, font=small, anchor="rm")
        for i, (rank, name, points, buchholz, gone) in enumerate(shown):
            y = TOP + ROW * i
            if i % 2 == 0:
                draw.rectangle((0, y, WIDTH, y + ROW), fill=(243, 237, 226))
            centre = y + ROW // 2
            medal = MEDALS.get(rank)
            if medal is not None and not gone:
                draw.ellipse((14, centre - 12, 38, centre + 12), fill=medal)
            draw.text((26, centre), str(rank), fill=INK, font=number_font, anchor="mm")
            ink = MUTED if gone else INK
            draw.text((52, centre), _fit(draw, name, name_font, 360), fill=ink, font=name_font, anchor="lm")
            draw.text((500, centre), points, fill=ink, font=number_font, anchor="rm")
            draw.text((WIDTH - 16, centre), buchholz, fill=MUTED, font=name_font, anchor="rm")
            draw.line((0, y + ROW, WIDTH, y + ROW), fill=LINE)
        out = io.BytesIO()
        image.save(out, "PNG", optimize=True)
        return out.getvalue()


def _fit(draw: ImageDraw.ImageDraw, words: str, font: object, room: int) -> str:
    if draw.textlength(words, font=font) <= room:  # type: ignore[arg-type]
        return words
    while words and draw.textlength(words + "…", font=font) > room:  # type: ignore[arg-type]
        words = words[:-1]
    return words + "…"
