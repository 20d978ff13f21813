"""The pictures' fixed palette: named colours come out exact, text edges close, and it is a palette PNG."""

from __future__ import annotations

import io

from hypothesis import given
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from bot.render.kit.fonts import font
from bot.render.kit.palette import PALETTE_SIZE, encode_png, fixed_palette, png_at

INK = (34, 30, 40)
PAPER = (250, 246, 236)
ODD = (123, 45, 67)  # named: must come out exact although no cube or blend entry is near it


def test_named_colours_are_exact_and_text_edges_are_close() -> None:
    image = Image.new("RGB", (200, 60), PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((150, 10, 190, 50), fill=ODD)
    draw.text((8, 10), "Reggverse 123", fill=INK, font=font(22))  # anti-aliased: blends of ink on paper
    png = encode_png(image, fixed_palette([INK, PAPER, ODD], [(INK, PAPER)]))
    decoded = Image.open(io.BytesIO(png))
    assert decoded.mode == "P"
    rgb = decoded.convert("RGB")
    assert rgb.getpixel((0, 0)) == PAPER and rgb.getpixel((170, 30)) == ODD
    worst = max(
        max(abs(a - b) for a, b in zip(image.getpixel((x, y)), rgb.getpixel((x, y)), strict=True))  # type: ignore[arg-type]
        for x in range(140)
        for y in range(60)
    )
    assert worst <= 40, "an anti-aliased edge went to a far colour"


def test_the_palette_holds_at_most_256_colours_named_ones_first() -> None:
    named = [(i, 255 - i, 7) for i in range(300)]  # more than fit: cut, never an error
    palette = fixed_palette(named, [(INK, PAPER)]).getpalette() or []
    assert len(palette) == 3 * PALETTE_SIZE
    assert tuple(palette[:3]) == named[0] and tuple(palette[-3:]) == named[PALETTE_SIZE - 1]


@given(
    st.integers(1, 40),
    st.integers(1, 30),
    st.binary(min_size=1, max_size=1200),
    st.binary(min_size=768, max_size=768),  # 256 entries, as fixed_palette gives
    st.integers(0, 9),  # zlib's levels: ISA-L's below ZLIB_FROM, zlib's own from it
)
def test_the_png_decodes_to_the_pixels_and_colours_pillows_own_png_gives(
    width: int, height: int, noise: bytes, colours: bytes, level: int
) -> None:
    mapped = Image.frombytes("P", (width, height), (noise * (width * height))[: width * height])
    mapped.putpalette(list(colours))
    ours = Image.open(io.BytesIO(png_at(mapped, level)))
    out = io.BytesIO()
    mapped.save(out, format="PNG")
    pillows = Image.open(io.BytesIO(out.getvalue()))
    assert ours.mode == pillows.mode == "P" and ours.size == (width, height)
    assert ours.tobytes() == pillows.tobytes()
    assert ours.convert("RGB").tobytes() == pillows.convert("RGB").tobytes()
