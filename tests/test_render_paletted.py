"""Pictures drawn on their palette (bot.render.kit.paletted) are the pictures drawn in RGB and then mapped onto
the palette, pixel for pixel: shapes, anti-aliased text on one colour or across several, parts pasted on
different papers (each paper's mapping kept apart), colours missing from the palette."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from bot.render.kit import paletted
from bot.render.kit.palette import fixed_palette
from bot.render.kit.phone import font

INK = (34, 30, 40)
PAPER = (250, 246, 236)
GREEN = (0, 158, 115)
GOLD = (240, 228, 66)
WHITE = (255, 255, 255)
PALETTE = fixed_palette([INK, PAPER, GREEN, GOLD, WHITE], [(INK, PAPER), (INK, GOLD), (WHITE, GREEN), (INK, GREEN)])
SIZE = (160, 70)


def both_ways(drawing: Callable[[Image.Image, ImageDraw.ImageDraw], None]) -> tuple[bytes, bytes]:
    """`drawing` done on a palette canvas, and done in RGB then mapped onto the palette: their indexes."""
    image, draw = paletted.canvas(SIZE, PALETTE, PAPER)
    drawing(image, draw)
    rgb = Image.new("RGB", SIZE, PAPER)
    drawing(rgb, ImageDraw.Draw(rgb))
    return image.tobytes(), rgb.quantize(palette=PALETTE, dither=Image.Dither.NONE).tobytes()


@settings(max_examples=25, deadline=None)
@given(
    words=st.text(alphabet="aéT3 gqW", min_size=1, max_size=8),
    x=st.floats(-10, 150),
    y=st.floats(-10, 60),
    size=st.sampled_from([11, 16, 23]),
    ink=st.sampled_from([INK, WHITE, GOLD]),
)
def test_text_is_the_rgb_text_mapped(words: str, x: float, y: float, size: int, ink: Any) -> None:
    """On paper, on a shape, and across a shape's edge (where several colours are under the letters). (One
    text: where letters overlap letters, RGB blended the second over the first's exact blends, which the
    palette picture has already mapped; the pictures do not overlap their texts.)"""

    def drawing(image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
        draw.rounded_rectangle((40, 20, 110, 60), radius=8, fill=GREEN, outline=INK, width=2)
        draw.ellipse((120, 5, 150, 35), fill=GOLD)
        draw.text((x, y), words, fill=ink, font=font(size, bold=size > 11), anchor="lm")

    drawn, mapped = both_ways(drawing)
    assert drawn == mapped


def test_text_on_a_shape_is_the_rgb_text_mapped() -> None:
    def drawing(image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
        draw.rounded_rectangle((20, 10, 150, 60), radius=8, fill=GREEN, outline=INK, width=2)
        draw.text((30, 35), "Tile 3", fill=WHITE, font=font(16, bold=True), anchor="lm")
        draw.text((100, 35), "gé", fill=INK, font=font(12), anchor="lm")

    drawn, mapped = both_ways(drawing)
    assert drawn == mapped


def test_a_kept_part_is_mapped_for_each_paper_it_is_pasted_on() -> None:
    """A part with see-through corners and anti-aliased text on nothing (as the Eggs and Empires bonus
    chips), pasted on paper, then on gold, then on paper again: each time what RGB pasting gave, never the
    mapping kept for the other paper."""
    part = Image.new("RGBA", (40, 30), (0, 0, 0, 0))
    part_draw = ImageDraw.Draw(part)
    part_draw.ellipse((0, 0, 29, 29), fill=GREEN, outline=INK)
    part_draw.text((28, 15), "+6", fill=INK, font=font(12, bold=True), anchor="lm")

    def drawing(image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
        draw.rectangle((80, 0, 159, 69), fill=GOLD)
        for xy in ((5, 5), (90, 5), (5, 35), (90, 35)):
            if image.mode == "P":
                paletted.paste(image, part, xy, PALETTE)
            else:
                image.paste(part, xy, part)
        if image.mode == "P":  # and across the gold's edge: two papers under one part
            paletted.paste(image, part, (60, 20), PALETTE)
        else:
            image.paste(part, (60, 20), part)

    drawn, mapped = both_ways(drawing)
    assert drawn == mapped
    mappings = [key for key in paletted._kept_with(part) if key != paletted.OPAQUE]
    assert len(mappings) == 2  # one per paper it lay wholly on


def test_a_copy_of_a_part_drawn_on_since_is_mapped_anew() -> None:
    """`Image.copy` copies what is kept with a part: the copy (faded squares are the plain ones copied, then
    faded) must not be pasted as the original was."""
    plain = Image.new("RGB", (20, 20), GREEN)
    image, _ = paletted.canvas(SIZE, PALETTE, PAPER)
    paletted.paste(image, plain, (0, 0), PALETTE)
    faded = plain.copy()
    ImageDraw.Draw(faded).rectangle((0, 0, 19, 19), fill=GOLD)
    paletted.paste(image, faded, (30, 0), PALETTE)
    assert image.convert("RGB").getpixel((5, 5)) == GREEN
    assert image.convert("RGB").getpixel((35, 5)) == GOLD


def test_colours_missing_from_the_palette_go_where_mapping_took_them() -> None:
    """Shapes only: text is blended from its ink's palette colour (the renderers' inks are named colours)."""
    odd = (123, 45, 67)

    def drawing(image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
        draw.rectangle((10, 10, 50, 50), fill=odd, outline=(200, 10, 10))
        draw.ellipse((60, 10, 100, 50), fill=(3, 200, 90))

    drawn, mapped = both_ways(drawing)
    assert drawn == mapped


def test_encoded_pictures_are_palette_pngs_with_the_canvas_pixels() -> None:
    import io

    image, draw = paletted.canvas(SIZE, PALETTE, PAPER)
    draw.text((5, 30), "Ciao", fill=INK, font=font(20), anchor="lm")
    decoded = Image.open(io.BytesIO(paletted.encode(image, 4)))
    assert decoded.mode == "P" and decoded.size == SIZE
    assert decoded.convert("RGB").tobytes() == image.convert("RGB").tobytes()


def test_kept_pieces_stay_within_their_budget_and_a_worker_keeps_its_share_of_its_memory(monkeypatch: Any) -> None:
    """The least recently used piece goes first past the budget; in a picture worker (`memory` set) each
    renderer keeps its share of the worker's memory instead, never less than its own budget."""
    palette = fixed_palette([(255, 255, 255), (0, 0, 0)])
    drawn: list[int] = []

    def piece(number: int) -> Callable[[Image.Image, ImageDraw.ImageDraw], None]:
        return lambda image, draw: drawn.append(number)

    monkeypatch.setattr(paletted.KeptPieces, "_budgets", 0)
    kept = paletted.KeptPieces(300)  # three 10x10 pieces
    paletted.KeptPieces(900)  # another renderer's: 1,200 pixels of budgets in all
    for number in range(4):
        kept.piece(number, (10, 10), palette, (255, 255, 255), piece(number))
    kept.piece(1, (10, 10), palette, (255, 255, 255), piece(1))
    assert drawn == [0, 1, 2, 3], "1 was kept: pasted, not drawn again"
    kept.piece(0, (10, 10), palette, (255, 255, 255), piece(0))
    assert drawn == [0, 1, 2, 3, 0], "0 went first, the least recently used"

    monkeypatch.setattr(paletted.KeptPieces, "memory", 4_800)  # a worker: 4x the budgets together
    assert kept.limit() == 1_200, "a quarter of the memory, as its budget is a quarter of all"
    for number in range(10, 22):
        kept.piece(number, (10, 10), palette, (255, 255, 255), piece(number))
    drawn.clear()
    for number in range(10, 22):
        kept.piece(number, (10, 10), palette, (255, 255, 255), piece(number))
    assert drawn == [], "twelve pieces fit in the worker's share"
    assert kept._pixels == 1_200
    monkeypatch.setattr(paletted.KeptPieces, "memory", 100)
    assert kept.limit() == 300, "never less than the renderer's own budget"
