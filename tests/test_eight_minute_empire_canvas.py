"""Drawing in a palette's indexes (bot.render.eight_minute_empire.canvas) gives the pixels an RGB drawing
gets once mapped onto the palette; and the map's kept base serves every moment without leaking one
moment's pieces into another's picture."""

from __future__ import annotations

import copy
import io
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from bot.render.eight_minute_empire import canvas as canvas_module
from bot.render.eight_minute_empire import map_part, render_map, seat_part
from bot.render.eight_minute_empire import picture as eme_map
from bot.render.eight_minute_empire.canvas import Canvas, blank
from bot.render.kit.fonts import font
from bot.render.kit.palette import fixed_palette
from bot.render.kit.paletted import Colours
from bot.texts import i18n
from games.eight_minute_empire import GAME
from tests.test_eight_minute_empire_render import NAMES, moment, played

INK = (28, 28, 34)
PAPER = (250, 247, 236)
TINT = (230, 180, 120)
FADED = (206, 204, 196)
PALETTE = Colours(fixed_palette([INK, PAPER, TINT, FADED, (255, 255, 255)], [(INK, PAPER)]))


def mapped(image: Image.Image) -> bytes:
    """An RGB drawing as the encoder maps it onto PALETTE."""
    return image.quantize(palette=PALETTE.palette, dither=Image.Dither.NONE).tobytes()


@settings(max_examples=60, deadline=None)
@given(
    st.text(alphabet="AB3 Cairn7éx", min_size=1, max_size=9),
    st.floats(0, 120),
    st.floats(0, 40),
    st.sampled_from(["la", "mm", "lm", "rm"]),
    st.sampled_from([20, 22]),
    st.sampled_from([PAPER, TINT]),
)
def test_text_is_written_as_pillow_writes_it_in_rgb(
    text: str, x: float, y: float, anchor: str, size: int, paper: tuple[int, int, int]
) -> None:
    """A kept sprite lands at Pillow's sub-pixel place with Pillow's anti-aliased edges: the very indexes
    the RGB drawing maps to (on a flat paper, as every text of the map is written)."""
    rgb = Image.new("RGB", (200, 70), paper)
    ImageDraw.Draw(rgb).text((x + 40, y + 15), text, font=font(size), fill=INK, anchor=anchor)
    drawn = Canvas(blank((200, 70), PALETTE, paper), PALETTE)
    drawn.text((x + 40, y + 15), text, font(size), INK, paper, anchor)
    assert drawn.image.tobytes() == mapped(rgb)


def test_stroked_text_is_written_as_pillow_writes_it_in_rgb() -> None:
    rgb = Image.new("RGB", (90, 60), PAPER)
    ImageDraw.Draw(rgb).text(
        (45.5, 30.25), "12", font=font(20), fill=INK, anchor="mm", stroke_width=3, stroke_fill=TINT
    )
    drawn = Canvas(blank((90, 60), PALETTE, PAPER), PALETTE)
    drawn.text((45.5, 30.25), "12", font(20), INK, PAPER, "mm", (3, TINT))
    assert drawn.image.tobytes() == mapped(rgb)
    assert len(set(drawn.image.tobytes())) > 3, "the stroke and the letters are both there"


def test_a_fade_is_the_rgb_fade_mapped_onto_the_palette() -> None:
    rgb = Image.new("RGB", (60, 40), PAPER)
    ImageDraw.Draw(rgb).rectangle((10, 5, 40, 30), fill=TINT, outline=INK, width=3)
    shape = Image.new("1", (30, 30), 0)
    ImageDraw.Draw(shape).ellipse((0, 0, 29, 29), fill=1)
    drawn = Canvas(Image.frombytes("P", rgb.size, mapped(rgb)), PALETTE)
    drawn.fade((20, 5, 50, 35), shape, FADED, 150)
    rgb.paste(FADED, (20, 5), shape.convert("L").point(lambda v: 150 if v else 0))
    assert drawn.image.tobytes() == mapped(rgb)
    assert drawn.image.getpixel((5, 5)) == PALETTE.nearest([PAPER])[0], "outside the shape: untouched"


def pixels(png: bytes) -> bytes:
    image = Image.open(io.BytesIO(png))
    return image.convert("RGB").tobytes()


def cold(part: dict[str, Any], names: list[str], lang: str = "en") -> bytes:
    """The picture drawn with nothing kept: no base, no text sprite, no stamp."""
    eme_map._bases.clear()
    canvas_module._sprites.clear()
    canvas_module._stamps.clear()
    with i18n.picture_language(lang):
        return render_map(part, names)


def test_a_kept_base_shows_only_the_moment_drawn() -> None:
    """Pictures drawn one after another from the kept bases (other layouts, other moments of the same
    game, another language between them) are those drawn with nothing kept: no piece, control, token,
    highlight or word of one picture stays in the next."""
    early = GAME.view(played(4, {"explore": True, "citadels": True}, 12), None)
    late_view, prompt = moment(4)
    row_view, row_prompt = moment(3)
    moments = [
        (seat_part(late_view, prompt), NAMES, "en"),
        (map_part(early), NAMES, "en"),
        (seat_part(row_view, row_prompt), NAMES[:3], "fr"),
        (map_part(late_view), NAMES, "it"),
        (map_part(early), NAMES, "fr"),
    ]
    fresh = [cold(part, names, lang) for part, names, lang in moments]
    eme_map._bases.clear()
    for (part, names, lang), expected in zip(moments, fresh, strict=True):
        with i18n.picture_language(lang):
            assert pixels(render_map(part, names)) == pixels(expected)
    assert len({pixels(p) for p in fresh}) == len(fresh)


def test_a_new_start_gets_its_own_base() -> None:
    """The start's gold ring is in the base: a moment with another start (the next game of a full game)
    shows the ring there, and not at the former start."""
    view = map_part(GAME.view(played(4, {}, 20), None))
    layout = eme_map.layout_of(view)
    former = view["start"]
    other = next(r for r in view["regions"] if not r["start"] and not eme_map._occupied(r))
    moved = copy.deepcopy(view)
    for region in moved["regions"]:
        region["start"] = region["id"] == other["id"]
    for part in (view, moved):
        image = Image.open(io.BytesIO(render_map(part, NAMES))).convert("RGB")
        for rid in (former, other["id"]):
            x, y = layout.centre[rid]
            ringed = image.getpixel((int(x - eme_map.RADIUS - 4), int(y))) == eme_map.GOLD
            starts = [r["id"] for r in part["regions"] if r["start"]]
            assert ringed == (rid in starts), (rid, starts)
