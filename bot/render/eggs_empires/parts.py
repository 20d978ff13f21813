"""Eggs and Empires picture parts: the colours, the Adventurer cards, egg cards and chips, players' discs.

Each part is drawn once per content (and language, through its words) and kept: a picture pastes them.
Sizes are layout pixels of a picture laid out for a phone 400 px wide (UNIT), drawn SCALE times larger so
text stays sharp on phone screens; `u` turns layout pixels into picture pixels (bot.render.kit.phone). No text
is drawn under MIN_TEXT layout pixels. Nothing is told by colour alone: Exploding Eggs are red, jagged and negative;
face-down eggs are patterned card backs with "?"; each player has a colour and an initial; an ability's
timing has a colour and a word. The font is DejaVu Sans Condensed (bot.render.kit.fonts.latin_font): every
letter Italian and French need.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.render.kit import paletted
from bot.render.kit.palette import UPLOAD_LEVEL, encode_png, fixed_palette
from bot.render.kit.phone import INK, WHITE, fit, font, ink_on, u
from bot.render.kit.phone import SCALE as SCALE  # the sizes of bot.render.kit.phone, for the picture and tests
from bot.render.kit.phone import UNIT as UNIT
from bot.texts import i18n
from bot.texts.i18n import N_, NP_
from games.eggs_empires.rules import BLACKSMITH_PENALTY, MERCHANT_BONUS

RGB = tuple[int, int, int]

MARGIN = 10
GAP = 6
CHIP_STEP = 30  # layout pixels from one collected egg to the next
MERCHANT_VP, BLACKSMITH_VP = MERCHANT_BONUS, BLACKSMITH_PENALTY

PAPER: RGB = (246, 241, 230)
CLEAR = (0, 0, 0, 0)  # the transparent surroundings of kept parts
MUTED: RGB = (104, 98, 110)
CARD: RGB = (255, 252, 244)
RULE: RGB = (214, 206, 190)
GOOD_EGG: RGB = (245, 215, 110)
EXPLODING: RGB = (204, 40, 40)
BACK: RGB = (40, 60, 110)
BACK_PATTERN: RGB = (70, 92, 146)
MARKER: RGB = (176, 132, 32)  # the Tie-Breaker Marker
CHOOSE: RGB = (0, 0, 0)  # the outline of what the prompt lets the reader choose
# Okabe & Ito's palette for colour-blind readers; every disc also carries its player's initial.
PLAYER_RGB: list[RGB] = [(0, 114, 178), (213, 94, 0), (0, 158, 115), (240, 228, 66), (86, 180, 233), (40, 40, 40)]
# An Adventurer's band: no ability, "Collect Eggs" ability, "Turn End" ability (each also says so in words).
NO_ABILITY, COLLECT, TURN_END = "none", "collect", "turn_end"
TIMING_RGB: dict[str, RGB] = {NO_ABILITY: (120, 125, 135), COLLECT: (0, 114, 178), TURN_END: (230, 159, 0)}
TIMING_OF = {1: NO_ABILITY, 2: TURN_END, 3: COLLECT, 4: TURN_END, 5: TURN_END}
TIMING_OF |= {6: TURN_END, 7: COLLECT, 8: TURN_END, 9: COLLECT, 10: NO_ABILITY}

# Colour groups that must stay apart for colour-blind readers (tests/test_pictures_phone.py).
DISTINCT_COLOURS: dict[str, Sequence[RGB]] = {
    "players": PLAYER_RGB,
    "eggs": [GOOD_EGG, EXPLODING, BACK],
    "ability timings": list(TIMING_RGB.values()),
}

NAMES = {
    1: NP_("adventurer", "Bard"),
    2: NP_("adventurer", "Scout"),
    3: NP_("adventurer", "Shepherd"),
    4: NP_("adventurer", "Courier"),
    5: NP_("adventurer", "Merchant"),
    6: NP_("adventurer", "Priest"),
    7: NP_("adventurer", "Mage"),
    8: NP_("adventurer", "Blacksmith"),
    9: NP_("adventurer", "Dark Priestess"),
    10: NP_("adventurer", "Hero"),
}
TIMINGS = {NO_ABILITY: N_("No ability"), COLLECT: N_("Collect Eggs"), TURN_END: N_("Turn End")}
ABILITIES = {
    2: N_("Puts the top Egg face down for the next turn"),
    3: N_("Collects before every Blacksmith"),
    4: N_("May give the Egg it took to another player"),
    5: N_("Took no Egg: +6 VP at round end"),
    6: N_("Took an Egg: may discard one of your Eggs"),
    7: N_("Never takes a face-up Exploding Egg; may refuse a face-down one"),
    8: N_("Took no Egg: -4 VP at round end"),
    9: N_("If two or more are played, none collects"),
}


def signed(value: int) -> str:
    return f"{value:+d}"


@lru_cache(maxsize=2048)
def wrap(text: str, size: int, width: float, bold: bool = False) -> tuple[str, ...]:
    """Lines of `text` no wider than `width` layout pixels (a word longer than that is cut)."""
    face = font(size, bold)
    average = max(face.getlength("abcdefghij") / 10, 1)
    columns = max(int(u(width) / average), 1)
    while True:
        lines = textwrap.wrap(text, columns) or [""]
        if columns == 1 or all(face.getlength(line) <= u(width) for line in lines):
            return tuple(lines)
        columns -= 1


def text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], words: str, size: int, **kwargs: Any) -> None:
    """Words at layout position `xy` (anchor "la" unless given)."""
    bold = kwargs.pop("bold", False)
    kwargs.setdefault("fill", INK)
    draw.text((u(xy[0]), u(xy[1])), words, font=font(size, bold), **kwargs)


# --- kept parts ----------------------------------------------------------------------------------------
def rounded(size: tuple[int, int], fill: RGB, outline: RGB | None, radius: float, width: float = 1) -> Image.Image:
    """A rounded rectangle of `size` picture pixels (transparent outside)."""
    image = Image.new("RGBA", size, CLEAR)
    ImageDraw.Draw(image).rounded_rectangle(
        (0, 0, size[0] - 1, size[1] - 1), u(radius), fill=fill, outline=outline, width=u(width)
    )
    return image


def egg_outline(box: tuple[float, float, float, float], exploding: bool) -> list[tuple[float, float]]:
    """An egg (narrower at the top) inside `box`, in picture pixels; with a jagged rim when exploding."""
    left, top, right, bottom = box
    cx, cy = (left + right) / 2, (top + bottom) / 2
    rx, ry = (right - left) / 2, (bottom - top) / 2
    points = []
    steps = 36
    for i in range(steps):
        angle = 2 * math.pi * i / steps
        narrow = 1 - 0.18 * max(0.0, -math.sin(angle))  # the top half is narrower
        reach = 1.0 if not exploding or i % 2 == 0 else 0.8
        points.append((cx + rx * math.cos(angle) * narrow * reach, cy + ry * math.sin(angle) * reach))
    return points


@lru_cache(maxsize=256)
def egg_chip(value: int, width: int, height: int, size: int, plus: bool = True) -> Image.Image:
    """An egg of `value` in a `width` x `height` layout-pixel box: gold and smooth, or red and jagged (and
    negative). Without `plus`, a good egg's value has no "+" (small eggs: the digits get the room)."""
    image = Image.new("RGBA", (u(width), u(height)), CLEAR)
    draw = ImageDraw.Draw(image)
    exploding = value < 0
    fill = EXPLODING if exploding else GOOD_EGG
    draw.polygon(egg_outline((u(1), u(1), u(width) - u(1), u(height) - u(1)), exploding), fill=fill, outline=INK)
    words = signed(value) if plus else str(value)
    draw.text((u(width) / 2, u(height) * 0.56), words, font=font(size, True), fill=ink_on(fill), anchor="mm")
    return image


@lru_cache(maxsize=64)
def egg_card(value: int) -> Image.Image:
    """A face-up Egg Card of the offer."""
    image = rounded((u(60), u(76)), CARD, INK, 6, 1)
    egg = egg_chip(value, 44, 58, 17)
    image.paste(egg, (u(8), u(9)), egg)
    return image


@lru_cache(maxsize=64)
def egg_back(seen: int | None, seen_words: str) -> Image.Image:
    """A face-down Egg Card: its back, with the value only for the seat that scouted it."""
    shape = rounded((u(60), u(76)), BACK, INK, 6, 1)
    image = Image.new("RGBA", shape.size, (*BACK, 255))
    draw = ImageDraw.Draw(image)
    for k in range(-8, 7):  # a diagonal pattern, so a back is told from a face by more than its colour
        x = u(k * 10)
        draw.line((x, u(76), x + u(76), 0), fill=BACK_PATTERN, width=u(2))
    image.putalpha(shape.getchannel("A"))  # the card's rounded corners
    draw.rounded_rectangle((0, 0, shape.width - 1, shape.height - 1), u(6), outline=INK, width=u(1))
    draw.ellipse((u(14), u(14), u(46), u(46)), fill=BACK, outline=WHITE, width=u(1.5))
    draw.text((u(30), u(31)), "?", font=font(22, True), fill=WHITE, anchor="mm")
    if seen is not None:
        draw.rounded_rectangle((u(6), u(50), u(54), u(72)), u(4), fill=WHITE)
        draw.text((u(30), u(56)), signed(seen), font=font(12, True), fill=INK, anchor="mm")
        draw.text((u(30), u(67)), fit(seen_words, 10, 46), font=font(10), fill=INK, anchor="mm")
    return image


@lru_cache(maxsize=64)
def disc(seat: int, letter: str, diameter: int = 18) -> Image.Image:
    """A player's disc: their colour and initial."""
    colour = PLAYER_RGB[seat % len(PLAYER_RGB)]
    image = Image.new("RGBA", (u(diameter), u(diameter)), CLEAR)
    draw = ImageDraw.Draw(image)
    draw.ellipse((0, 0, u(diameter) - 1, u(diameter) - 1), fill=colour, outline=INK, width=u(1))
    draw.text(
        (u(diameter) / 2, u(diameter) / 2 + u(0.5)), letter, font=font(11, True), fill=ink_on(colour), anchor="mm"
    )
    return image


@cache
def marker(diameter: int = 18) -> Image.Image:
    """The Tie-Breaker Marker: a gold token with a star."""
    image = Image.new("RGBA", (u(diameter), u(diameter)), CLEAR)
    draw = ImageDraw.Draw(image)
    draw.ellipse((0, 0, u(diameter) - 1, u(diameter) - 1), fill=MARKER, outline=INK, width=u(1))
    draw.text((u(diameter) / 2, u(diameter) / 2 + u(0.5)), "★", font=font(12, True), fill=WHITE, anchor="mm")
    return image


@lru_cache(maxsize=8)
def bonus_chip(card: int) -> Image.Image:
    """A Merchant or Blacksmith kept for scoring: the card's number and what it is worth at round end."""
    image = Image.new("RGBA", (u(2 * CHIP_STEP - 3), u(32)), CLEAR)
    card_part = mini_card(card)
    image.paste(card_part, (0, u(1)), card_part)
    value = MERCHANT_VP if card == 5 else BLACKSMITH_VP
    ImageDraw.Draw(image).text((u(29), u(16)), signed(value), font=font(12, True), fill=INK, anchor="lm")
    return image


@lru_cache(maxsize=64)
def mini_card(card: int) -> Image.Image:
    """An Adventurer's number on its timing colour: the card in the reveal rows."""
    colour = TIMING_RGB[TIMING_OF[card]]
    image = rounded((u(26), u(30)), colour, INK, 4, 1)
    ImageDraw.Draw(image).text((u(13), u(15.5)), str(card), font=font(15, True), fill=ink_on(colour), anchor="mm")
    return image


CardWords = tuple[str, str, str]  # an Adventurer's name, its ability's timing, its ability


def card_words(card: int) -> CardWords:
    """An Adventurer's words in the language of the picture being drawn."""
    ability = i18n.pt(ABILITIES[card]) if card in ABILITIES else ""
    return i18n.ptp("adventurer", NAMES[card]), i18n.pt(TIMINGS[TIMING_OF[card]]), ability


def card_lines(words: CardWords, width: int) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    name, timing, ability = words
    inner = width - 12
    return wrap(name, 13, inner, True)[:2], wrap(timing, 10, inner, True), wrap(ability, 11, inner) if ability else ()


def card_height(words: CardWords, width: int) -> int:
    """The layout height an Adventurer card of `width` needs for its words."""
    name, timing, ability = card_lines(words, width)
    return 36 + 16 * len(name) + 14 * len(timing) + 13 * len(ability) + 8


@lru_cache(maxsize=256)
def adventurer_card(card: int, width: int, height: int, words: CardWords, chosen: bool) -> Image.Image:
    """An Adventurer card of `width` x `height` layout pixels: its number on a band of its timing colour,
    its name, when its ability acts and what it does (`words`, in the picture's language); outlined thick
    when the prompt lets the reader choose it."""
    colour = TIMING_RGB[TIMING_OF[card]]
    image = rounded((u(width), u(height)), CARD, CHOOSE if chosen else INK, 7, 3 if chosen else 1)
    draw = ImageDraw.Draw(image)
    inset = 3 if chosen else 1
    draw.rounded_rectangle((u(inset), u(inset), u(width - inset) - 1, u(30)), u(6), fill=colour)
    draw.rectangle((u(inset), u(20), u(width - inset) - 1, u(30)), fill=colour)
    draw.text((u(8), u(16)), str(card), font=font(20, True), fill=ink_on(colour), anchor="lm")
    name, timing, ability = card_lines(words, width)
    y = 36
    for line in name:
        text(draw, (6, y), line, 13, bold=True)
        y += 16
    for line in timing:
        text(draw, (6, y), line, 10, bold=True, fill=MUTED)
        y += 14
    for line in ability:
        text(draw, (6, y), line, 11)
        y += 13
    return image


# Players' blocks, drawn once (bot.render.kit.paletted.KeptPieces): full-width pieces of ~50-100 thousand pixels
# (a byte each), the last hundred or so.
KEPT = paletted.KeptPieces(8_000_000)


@cache
def picture_palette() -> Image.Image:
    named = [PAPER, INK, MUTED, WHITE, CARD, RULE, GOOD_EGG, EXPLODING, BACK, BACK_PATTERN, MARKER]
    named += [*PLAYER_RGB, *TIMING_RGB.values()]
    backgrounds = [PAPER, CARD, WHITE, GOOD_EGG, EXPLODING, BACK, MARKER, *PLAYER_RGB, *TIMING_RGB.values()]
    on = [(ink, paper) for ink in (INK, WHITE, MUTED) for paper in backgrounds]
    return fixed_palette(named, on)


def encode(image: Image.Image) -> bytes:
    """A palette PNG (bot.render.kit.palette): the pictures' few flat colours exactly, letters' edges blended."""
    if image.mode == "P":  # drawn on the palette (bot.render.kit.paletted)
        return paletted.encode(image, COMPRESS_LEVEL)
    return encode_png(image, picture_palette(), compress_level=COMPRESS_LEVEL)


# zlib's level, what the bot uploads (issue 37.3): smaller files than ISA-L's best for ~4 ms more
COMPRESS_LEVEL = UPLOAD_LEVEL
