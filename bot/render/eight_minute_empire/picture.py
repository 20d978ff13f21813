"""The Eight-Minute Empire: Legends map as a picture, made to be read on a phone (shown 400 px wide).

Drawn 800 px wide, so that its smallest text (20 px) reads 10 px on a phone. Boards are square: four
as a 2x2 block with the players' panel below it, three as an L with the panel in the free corner, three
in a row turned into a column with the panel beside it (the same map mirrored along its diagonal:
every region keeps its name and its neighbours). Regions are circles on their islands (continents):
the region's name at the top, then its pieces; land links solid, sea links dotted.

Players are told apart by colour (a palette deuteranopes and protanopes tell apart: DISTINCT_COLOURS)
and by shape: the same shape marks a player's armies (filled), cities (hollow), the regions they
control (a badge by the name) and the islands they control (a badge before the island's name). A
party with one or two armies in a region shows one or two markers; with more, one marker and the
number beside it, so a region holds any stack. The start region has a gold ring.

A seat's picture (its private message, while it decides) is framed in the seat's colour, marks the seat
in the panel, and rings the regions the current prompt lets it choose (place, move to, build, destroy),
fading the others; a move in progress also rings the region the army leaves.

A picture is drawn in its palette's indexes (bot.render.eight_minute_empire.canvas), so encoding it
maps no colours; what every moment of a game shares (sea, boards, islands, links, island labels, the
empty regions, the start) is drawn once and copied (`_base`), and a moment draws only what it adds:
pieces, control, tokens, a seat's highlights, the panel's contents. Where things go is worked out once
per layout (bot.render.eight_minute_empire.layout).

Over 500 lines: the parts of one picture (base, regions, pieces, control badges, island names, the
players' panel, a seat's highlights, the palette) share the layout's coordinates and the colour and
shape of each player; the layouts themselves are computed in eight_minute_empire_layout.py.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from PIL import Image, ImageDraw

from bot.render.eight_minute_empire.canvas import Box, Canvas, blank
from bot.render.eight_minute_empire.layout import PANEL_ROW, RADIUS, SMALL, TEXT, UNIT, WIDTH, Layout, Point, layout_of
from bot.render.kit.fonts import FontType, latin_font
from bot.render.kit.palette import UPLOAD_LEVEL, fixed_palette
from bot.render.kit.paletted import Colours
from bot.render.kit.paletted import encode as encode_paletted
from bot.texts import i18n
from bot.texts.i18n import N_, NP_

__all__ = ["DISTINCT_COLOURS", "WIDTH", "draw_map", "encode"]

RGB = tuple[int, int, int]

MARKER = 18  # an army marker's size

SEA = (96, 152, 196)
BOARD_SEA = (132, 182, 220)
BOARD_EDGE = (84, 128, 170)
LAND = (226, 214, 168)
LAND_EDGE = (150, 130, 84)
LAND_LINK = (120, 92, 52)
WATER_LINK = (250, 250, 255)
INK = (28, 28, 34)
GOLD = (236, 178, 20)
REGION_FILL = (250, 247, 236)
FADED = (206, 204, 196)
PANEL = (245, 242, 232)
WHITE = (255, 255, 255)
TOKEN_FILL = (255, 240, 150)
CITADEL = (90, 60, 30)
# Okabe & Ito's colours for colour-blind readers: vermillion, blue, bluish green, yellow. Their closest
# pair for a deuteranope or protanope differs by 19.5 (CIEDE2000; tests/harness/picture_checks.py).
PLAYER_COLOURS: list[RGB] = [(213, 94, 0), (0, 114, 178), (0, 158, 115), (240, 228, 66)]
PLAYER_SHAPES = ("square", "circle", "triangle", "diamond")
NEUTRAL = (128, 128, 128)
NEUTRAL_SHAPE = "hexagon"
DISTINCT_COLOURS = {"players": PLAYER_COLOURS}

TOKEN_SHORT = {  # two letters on the map, the key in the panel (only for tokens on the board)
    "Magic Spring": NP_("token-short", "MS"),
    "Cottage": NP_("token-short", "Co"),
    "Hidden Treasure": NP_("token-short", "HT"),
    "Magic Book": NP_("token-short", "MB"),
    "Stable": NP_("token-short", "St"),
    "Citadel": NP_("token-short", "Ci"),
}


def _tint(rgb: RGB, amount: float) -> RGB:
    r, g, b = rgb
    return (int(r + (255 - r) * amount), int(g + (255 - g) * amount), int(b + (255 - b) * amount))


FADE = 150  # how much of FADED covers a region the seat's prompt does not offer (of 255)


def faded(rgb: RGB) -> RGB:
    """`rgb` under the fade of a region the prompt does not offer."""
    return tuple(round(c + (f - c) * FADE / 255) for c, f in zip(rgb, FADED, strict=True))  # type: ignore[return-value]


def _ink_on(rgb: RGB) -> RGB:
    """Text colour readable on `rgb`."""
    r, g, b = rgb
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 140 else WHITE


# --- the parts shared by every moment of a game, drawn once and copied ------------------------------
# The base of a picture: sea, boards, islands, links, the panel's frame, every island's label and
# every region as it is with nothing on it (its disc and name tab). It depends only on the layout (no
# word on it is translated: board letters, island and region names are proper names of our map), so a
# picture copies it and draws only what the moment changes.
KEPT_BASES = 6  # ~0.8 MB each (one byte a pixel); five layouts exist (2-3 players as an L or a row, 4)
_bases: OrderedDict[int, Image.Image] = OrderedDict()
_bases_lock = threading.Lock()


def _base(layout: Layout) -> Image.Image:
    """A new copy of the base of `layout` (a copy: ~0.05 ms)."""
    key = id(layout)
    with _bases_lock:
        found = _bases.get(key)
        if found is not None:
            _bases.move_to_end(key)
            return found.copy()
    drawn = _draw_base(layout)
    with _bases_lock:
        _bases[key] = drawn
        while len(_bases) > KEPT_BASES:
            _bases.popitem(last=False)
    return drawn.copy()


def _draw_base(layout: Layout) -> Image.Image:
    canvas = Canvas(blank((layout.width, layout.height), _palette(), SEA), _palette())
    draw = canvas.draw
    for letter, box in layout.boards:
        draw.rectangle(box, fill=canvas.ink(BOARD_SEA), outline=canvas.ink(BOARD_EDGE), width=2)
        canvas.text((box[0] + 8, box[1] + 4), letter, latin_font(TEXT), BOARD_EDGE, BOARD_SEA)
    centre = layout.centre
    land = [(a, b) for a, b, water in layout.links if not water]
    blob = RADIUS + 8
    for fill, grow in ((LAND_EDGE, 3), (LAND, 0)):  # islands: fat circles and links, outlined
        for a, b in land:
            draw.line((centre[a], centre[b]), fill=canvas.ink(fill), width=int(2 * (blob + grow)))
        for x, y in centre.values():
            r = blob + grow
            draw.ellipse((x - r, y - r, x + r, y + r), fill=canvas.ink(fill))
    for a, b, water in layout.links:
        if water:
            _dotted(canvas, centre[a], centre[b])
        else:
            draw.line((centre[a], centre[b]), fill=canvas.ink(LAND_LINK), width=6)
    draw.rectangle(layout.panel, fill=canvas.ink(PANEL), outline=canvas.ink(BOARD_EDGE), width=2)
    for name, _, box in layout.islands:
        _island_label(canvas, name, box, None)
    for rid, (x, y) in centre.items():
        _disc(canvas, x, y, None)
        _name_tab(canvas, rid, None, False, x, y - RADIUS)
    return canvas.image


def _start_ring(canvas: Canvas, x: float, y: float) -> None:
    g = RADIUS + 7
    canvas.draw.ellipse((x - g, y - g, x + g, y + g), outline=canvas.ink(GOLD), width=6)


def _dotted(canvas: Canvas, a: Point, b: Point) -> None:
    """A sea crossing: dots from rim to rim."""
    length = math.dist(a, b)
    if length <= 2 * RADIUS:
        return
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    start, end = RADIUS + 4, length - RADIUS - 4
    steps = max(1, int((end - start) // 14))
    for i in range(steps + 1):
        d = start + (end - start) * i / steps
        x, y = a[0] + ux * d, a[1] + uy * d
        canvas.draw.ellipse((x - 3.5, y - 3.5, x + 3.5, y + 3.5), fill=canvas.ink(WATER_LINK))


# --- shapes -------------------------------------------------------------------------------------------
def shape(canvas: Canvas, kind: str, x: float, y: float, size: float, fill: RGB, outline: RGB) -> None:
    """One marker of `size` pixels centred on (x, y): a player's shape or the neutral hexagon (kept:
    Pillow's outlined polygon costs a mask the size of the whole picture)."""
    reach = math.ceil(0.7 * size) + 3
    canvas.stamp(
        ("shape", kind, size, fill, outline),
        (x, y),
        (reach, reach),
        lambda on, cx, cy: _shape(on, kind, cx, cy, size, fill, outline),
    )


def _shape(canvas: Canvas, kind: str, x: float, y: float, size: float, fill: RGB, outline: RGB) -> None:
    r = size / 2
    draw, inside, rim = canvas.draw, canvas.ink(fill), canvas.ink(outline)
    if kind == "square":
        draw.rectangle((x - r * 0.9, y - r * 0.9, x + r * 0.9, y + r * 0.9), fill=inside, outline=rim, width=2)
    elif kind == "circle":
        draw.ellipse((x - r, y - r, x + r, y + r), fill=inside, outline=rim, width=2)
    elif kind == "triangle":
        draw.regular_polygon((x, y + r * 0.15, r * 1.15), 3, fill=inside, outline=rim, width=2)
    elif kind == "diamond":
        draw.regular_polygon((x, y, r * 1.1), 4, rotation=45, fill=inside, outline=rim, width=2)
    else:
        draw.regular_polygon((x, y, r), 6, fill=inside, outline=rim, width=2)


def _party(seat: int | None) -> tuple[str, RGB]:
    if seat is None:
        return NEUTRAL_SHAPE, NEUTRAL
    return PLAYER_SHAPES[seat], PLAYER_COLOURS[seat]


def army_marker(canvas: Canvas, seat: int | None, x: float, y: float, size: float = MARKER) -> None:
    kind, colour = _party(seat)
    shape(canvas, kind, x, y, size, colour, INK)


def city_marker(canvas: Canvas, seat: int, x: float, y: float, size: float) -> None:
    """A city: the owner's shape, hollow: a thick rim in their colour around white."""
    kind, colour = _party(seat)

    def paint(on: Canvas, cx: float, cy: float) -> None:
        _shape(on, kind, cx, cy, size + 5, INK, INK)
        _shape(on, kind, cx, cy, size + 1, colour, colour)
        _shape(on, kind, cx, cy, size * 0.45, WHITE, WHITE)

    reach = math.ceil(0.7 * (size + 5)) + 3
    canvas.stamp(("city", seat, size), (x, y), (reach, reach), paint)


# --- one region -------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Entry:
    """One party's armies in a region: one or two markers, or one marker and the number beside it."""

    seat: int | None
    count: int

    def width(self, count_font: FontType) -> float:
        if self.count <= 2:
            return self.count * MARKER + (self.count - 1) * 3
        return MARKER + 2 + count_font.getlength(str(self.count))


# Two rows of two entries hold any region: at most four parties share one (four seats; or two seats and
# the neutral armies), and two 2-digit entries (44 px) fit each row's chord of the circle. Cities sit on
# the bottom of the rim, one hollow marker each.
ROWS_AT = (-10.0, 13.0)  # the rows' centres, from the region's centre
ROW_GAP = 4.0
CITY = 17.0  # a city marker's size
CITY_STEP = 22.0  # degrees between cities along the rim
MAX_RIM_CITIES = 5  # more cities in one region are shown one marker per owner, with their number


def _pieces(canvas: Canvas, region: dict[str, Any], x: float, y: float, paper: RGB) -> None:
    count_font = latin_font(SMALL)
    entries = [_Entry(s, n) for s, n in enumerate(region["armies"]) if n]
    if region["neutral"]:
        entries.append(_Entry(None, region["neutral"]))
    rows = [entries[:2], entries[2:4]] if len(entries) > 2 else [entries]
    for row, dy in zip(rows, ROWS_AT if len(rows) == 2 else (0.0,), strict=False):
        widths = [e.width(count_font) for e in row]
        left = x - (sum(widths) + ROW_GAP * (len(row) - 1)) / 2
        cy = y + dy
        for entry, w in zip(row, widths, strict=True):
            if entry.count <= 2:
                for i in range(entry.count):
                    army_marker(canvas, entry.seat, left + MARKER / 2 + i * (MARKER + 3), cy)
            else:
                army_marker(canvas, entry.seat, left + MARKER / 2, cy)
                canvas.text((left + MARKER + 2, cy), str(entry.count), count_font, INK, paper, "lm")
            left += w + ROW_GAP
    _cities(canvas, [(s, n) for s, n in enumerate(region["cities"]) if n], x, y)


def _cities(canvas: Canvas, owners: list[tuple[int, int]], x: float, y: float) -> None:
    """Cities along the bottom of the rim: one marker each, or, when more than fit, one per owner with
    the number beside it, outside the rim."""
    total = sum(n for _, n in owners)
    one_each = total <= MAX_RIM_CITIES
    markers = [(s, 1) for s, n in owners for _ in range(n)] if one_each else owners
    first = 90 - CITY_STEP * (len(markers) - 1) / 2  # centred on the bottom of the rim (y points down)
    for i, (seat, n) in enumerate(markers):
        angle = math.radians(first + i * CITY_STEP)
        cos, sin = math.cos(angle), math.sin(angle)
        city_marker(canvas, seat, x + RADIUS * cos, y + RADIUS * sin, CITY)
        if n > 1:
            reach = RADIUS + CITY + 2
            canvas.text((x + reach * cos, y + reach * sin), str(n), latin_font(SMALL), INK, WHITE, "mm", (3, WHITE))


def _occupied(region: dict[str, Any]) -> bool:
    """Whether the region differs from the base's empty one (its token aside: drawn on any region)."""
    return region["control"] is not None or region["neutral"] or any(region["armies"]) or any(region["cities"])


def _disc(canvas: Canvas, x: float, y: float, control: int | str | None) -> RGB:
    """The region's disc, ringed in its controller's colour; returns its fill (what its pieces sit on)."""
    if control is None:
        ring, fill, width = INK, REGION_FILL, 2
    elif control == "neutral":
        ring, fill, width = NEUTRAL, _tint(NEUTRAL, 0.7), 5
    else:
        ring, fill, width = PLAYER_COLOURS[int(control)], _tint(PLAYER_COLOURS[int(control)], 0.75), 5
    r = RADIUS
    canvas.draw.ellipse((x - r, y - r, x + r, y + r), fill=canvas.ink(fill), outline=canvas.ink(ring), width=width)
    return fill


def _region(canvas: Canvas, region: dict[str, Any], x: float, y: float) -> None:
    """An occupied region over the base's empty one: its disc, pieces, cities and name tab (the start's
    gold ring, outside the disc, is the base's)."""
    control = region["control"]
    seat = control if isinstance(control, int) else None
    paper = _disc(canvas, x, y, control)
    _pieces(canvas, region, x, y, paper)
    _name_tab(canvas, region["id"], None if control is None else seat, control is not None, x, y - RADIUS)


def _name_tab(canvas: Canvas, name: str, seat: int | None, controlled: bool, x: float, y: float) -> None:
    """The region's name on a tab across the top of its rim; who controls it, by shape, on the tab."""
    f = latin_font(SMALL)
    width = f.getlength(name) + 12 + (20 if controlled else 0)

    def paint(on: Canvas, x: float, y: float) -> None:
        box = (x - width / 2, y - 13, x + width / 2, y + 13)
        on.draw.rounded_rectangle(box, 8, fill=on.ink(WHITE), outline=on.ink(INK), width=2)
        if controlled:
            army_marker(on, seat, box[0] + 14, y, 14)
            on.text((box[0] + 26, y), name, f, INK, WHITE, "lm")
        else:
            on.text((x, y), name, f, INK, WHITE, "mm")

    canvas.stamp(("tab", name, seat, controlled), (x, y), (math.ceil(width / 2) + 2, 15), paint)


def _token(canvas: Canvas, token: str, citadel: bool, x: float, y: float) -> None:
    text = i18n.ptp("token-short", TOKEN_SHORT[token]) if token in TOKEN_SHORT else token[:2]
    f = latin_font(SMALL)
    w = f.getlength(text) / 2 + 6

    def paint(on: Canvas, x: float, y: float) -> None:
        box = (x - w, y - 13, x + w, y + 13)
        if citadel:
            on.draw.rectangle(box, fill=on.ink(CITADEL), outline=on.ink(INK), width=2)
            on.text((x, y), text, f, WHITE, CITADEL, "mm")
        else:
            on.draw.rounded_rectangle(box, 8, fill=on.ink(TOKEN_FILL), outline=on.ink(INK), width=2)
            on.text((x, y), text, f, INK, TOKEN_FILL, "mm")

    canvas.stamp(("token", text, citadel), (x, y), (math.ceil(w) + 2, 15), paint)


def _island_label(canvas: Canvas, name: str, box: Box, owner: int | None) -> None:
    """An island's name in a label beside it; a controlled island's label in its controller's colour,
    with their shape (the base has every label uncontrolled: a picture draws only the controlled ones)."""
    f = latin_font(TEXT)
    half_width, half_height = (box[2] - box[0]) / 2, (box[3] - box[1]) / 2

    def paint(on: Canvas, x: float, y: float) -> None:
        x0, y0, x1, y1 = x - half_width, y - half_height, x + half_width, y + half_height
        if owner is None:
            label = _tint(BOARD_SEA, 0.55)
            on.draw.rounded_rectangle((x0, y0, x1, y1), 10, fill=on.ink(label), outline=on.ink(BOARD_EDGE), width=1)
            on.text((x, y), name, f, INK, label, "mm")
        else:
            colour = PLAYER_COLOURS[owner]
            on.draw.rounded_rectangle((x0, y0, x1, y1), 10, fill=on.ink(colour), outline=on.ink(INK), width=2)
            army_marker(on, owner, x0 + TEXT * 0.75, y, 16)
            on.text((x + TEXT * 0.5, y), name, f, _ink_on(colour), colour, "mm")

    reach = (math.ceil(half_width) + 2, math.ceil(half_height) + 2)
    canvas.stamp(
        ("label", name, owner, half_width, half_height), ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), reach, paint
    )


# --- the panel ---------------------------------------------------------------------------------------
def _player_name(seat: int, names: Sequence[str]) -> str:
    return names[seat] if seat < len(names) else i18n.pt(N_("Player {number}"), number=seat + 1)


def _fit(text: str, f: FontType, width: float) -> str:
    if f.getlength(text) <= width:
        return text
    while text and f.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"


def _panel(canvas: Canvas, view: dict[str, Any], layout: Layout, names: Sequence[str], me: int | None) -> None:
    """The players (shape, name, VP; the seat of a seat's picture marked) and the key, in the panel's
    frame (the base's)."""
    x0, y0, x1, y1 = layout.panel
    f = latin_font(TEXT)
    wide = x1 - x0 > 1.5 * UNIT  # the strip under a 2x2 block: players in two columns
    columns = 2 if wide else 1
    column_width = (x1 - x0 - 16) / columns
    entries: list[tuple[int | None, str]] = [(s, _player_name(s, names)) for s in range(view["players"])]
    if view["players"] == 2:
        entries.append((None, i18n.pt(N_("Neutral"))))
    top = y0 + 10
    for i, (seat, name) in enumerate(entries):
        cx = x0 + 10 + (i % columns) * column_width
        cy = top + (i // columns) * PANEL_ROW + PANEL_ROW / 2
        paper = PANEL
        if seat is not None and seat == me:
            paper = _tint(PLAYER_COLOURS[seat], 0.6)
            canvas.draw.rounded_rectangle(
                (cx - 4, cy - PANEL_ROW / 2 + 2, cx + column_width - 8, cy + PANEL_ROW / 2 - 2),
                8,
                fill=canvas.ink(paper),
                outline=canvas.ink(INK),
                width=2,
            )
        army_marker(canvas, seat, cx + 14, cy, 22)
        vp = "" if seat is None else i18n.pt(N_("{count} VP"), count=view["scores"][seat])
        room = column_width - 50 - f.getlength(vp) - 10
        shown = i18n.pt(N_("{name} (you)"), name=name) if seat is not None and seat == me else name
        canvas.text((cx + 34, cy), _fit(shown, f, room), f, INK, paper, "lm")
        canvas.text((cx + column_width - 14, cy), vp, f, INK, paper, "rm")
    top += PANEL_ROW * ((len(entries) + columns - 1) // columns) + 8
    small = latin_font(SMALL)
    for line in _flow(_key_items(view), small, x1 - x0 - 20):
        if top + 28 > y1:
            break
        canvas.text((x0 + 10, top + 14), line, small, INK, PANEL, "lm")
        top += 28


def _flow(items: list[str], f: FontType, width: float) -> list[str]:
    """`items` in lines at most `width` wide: several to a line where they fit, a long one broken
    between words."""
    lines: list[str] = []
    for item in items:
        words = item.split(" ")
        if lines and f.getlength(lines[-1] + "   " + item) <= width:
            lines[-1] += "   " + item
            continue
        line = ""
        for word in words:
            if line and f.getlength(line + " " + word) > width:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        lines.append(line)
    return lines


def _key_items(view: dict[str, Any]) -> list[str]:
    """What the marks mean, only for what is on the board: armies and cities, the start, tokens."""
    items = [i18n.pt(N_("filled: armies, hollow: cities")), i18n.pt(N_("gold ring: start"))]
    if view["games"] > 1:
        items.insert(0, i18n.pt(N_("game {number} of {games}"), number=view["game_no"], games=view["games"]))
    present = sorted({r["token"] for r in view["regions"] if r["token"]})
    items += [
        i18n.pt(N_("{short}: {token}"), short=i18n.ptp("token-short", TOKEN_SHORT[t]), token=i18n.ptp("token", t))
        for t in present
        if t in TOKEN_SHORT
    ]
    return items


# --- the picture ---------------------------------------------------------------------------------------
def draw_map(view: dict[str, Any], names: Sequence[str] = ()) -> Image.Image:
    """The map of `view` (a map part: see bot.render.eight_minute_empire.map_part), with the players
    named by `names`, as a palette image (`encode` makes it a PNG). A part with "me" is that seat's
    picture: framed in its colour, marked in the panel, with the regions of "targets" ringed (and the
    others faded) and "origin" ringed too.

    A copy of the base (`_base`) with what this moment adds, drawn in the order of a whole drawing:
    the controlled islands' labels, the occupied regions (each over its empty self), the tokens, a
    seat's highlights, the panel's contents. So a picture is the one drawn from scratch, but where an
    occupied region would have been covered by a later empty neighbour's name tab (a few pixels)."""
    layout = layout_of(view)
    canvas = Canvas(_base(layout), _palette())
    me = view.get("me")
    targets = sorted(view.get("targets") or ())  # drawn in order: rings of neighbours overlap
    origin = view.get("origin")
    over: list[Box] = []  # what is drawn over the base: an empty region drawn after it goes over it
    for (name, _, box), owner in zip(layout.islands, view["continent_control"], strict=False):
        if owner is not None:
            _island_label(canvas, name, box, owner)
            over.append(box)
    citadel = view.get("citadel_token", "Citadel")
    for region in view["regions"]:
        x, y = layout.centre[region["id"]]
        if region["start"]:
            _start_ring(canvas, x, y)
        if _occupied(region):
            _region(canvas, region, x, y)
        elif over and any(_meets(_reach(x, y), box) for box in over):
            _disc(canvas, x, y, None)
            _name_tab(canvas, region["id"], None, False, x, y - RADIUS)
        if region["start"]:
            over.append(_reach(x, y))
        if region["token"]:
            angle = math.radians(40)
            token = region["token"]
            _token(canvas, token, token == citadel, x + RADIUS * math.cos(angle), y - RADIUS * math.sin(angle))
    if targets:
        _highlight(canvas, layout, targets, origin)
    _panel(canvas, view, layout, names, me)
    if me is not None:
        draw = canvas.draw
        draw.rectangle((0, 0, layout.width - 1, layout.height - 1), outline=canvas.ink(PLAYER_COLOURS[me]), width=8)
        draw.rectangle((8, 8, layout.width - 9, layout.height - 9), outline=canvas.ink(INK), width=1)
    return canvas.image


def _reach(x: float, y: float) -> Box:
    """Around an empty region: its disc, name tab and the start's gold ring."""
    return (x - RADIUS - 7, y - RADIUS - 13, x + RADIUS + 7, y + RADIUS + 7)


def _meets(a: Box, b: Box) -> bool:
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


@cache
def _disc_shape() -> Image.Image:
    """A region's disc and a pixel more (where a region the prompt does not offer is faded), mode "1"."""
    r = RADIUS + 1
    shape = Image.new("1", (2 * r + 1, 2 * r + 1), 0)
    ImageDraw.Draw(shape).ellipse((0, 0, 2 * r, 2 * r), fill=1)
    return shape


def _highlight(canvas: Canvas, layout: Layout, targets: list[str], origin: Any) -> None:
    """Fade the regions the prompt does not offer; ring the ones it does (and the army's origin)."""
    disc = _disc_shape()
    r = RADIUS + 1
    for rid, (x, y) in layout.centre.items():
        if rid not in targets and rid != origin:
            left, top = round(x) - r, round(y) - r
            canvas.fade((left, top, left + disc.width, top + disc.height), disc, FADED, FADE)
    draw = canvas.draw
    for rid in targets:  # outside the gold ring of the start, so that both show
        x, y = layout.centre[rid]
        for r, colour, width in ((RADIUS + 15, WHITE, 5), (RADIUS + 17, INK, 3)):
            draw.ellipse((x - r, y - r, x + r, y + r), outline=canvas.ink(colour), width=width)
    if origin in layout.centre:
        x, y = layout.centre[origin]
        r = RADIUS + 6
        for i in range(0, 360, 30):  # a dashed ring: where the army comes from
            draw.arc((x - r, y - r, x + r, y + r), i, i + 18, fill=canvas.ink(INK), width=5)


@cache
def _palette() -> Colours:
    tints = [_tint(c, 0.75) for c in PLAYER_COLOURS] + [_tint(NEUTRAL, 0.7)]
    highlights = [_tint(c, 0.6) for c in PLAYER_COLOURS]
    named = [
        SEA,
        BOARD_SEA,
        BOARD_EDGE,
        LAND,
        LAND_EDGE,
        LAND_LINK,
        WATER_LINK,
        INK,
        GOLD,
        REGION_FILL,
        FADED,
        PANEL,
        WHITE,
        TOKEN_FILL,
        CITADEL,
        NEUTRAL,
        _tint(BOARD_SEA, 0.55),
        *PLAYER_COLOURS,
        *tints,
        *highlights,
        faded(REGION_FILL),
        *(faded(t) for t in tints),
    ]
    on = [
        (INK, REGION_FILL),
        *((INK, t) for t in tints),
        *((INK, t) for t in highlights),
        *((INK, c) for c in PLAYER_COLOURS),
        (WHITE, PLAYER_COLOURS[1]),
        (INK, PANEL),
        (INK, _tint(BOARD_SEA, 0.55)),
        (BOARD_EDGE, BOARD_SEA),
        (INK, TOKEN_FILL),
        (WHITE, CITADEL),
        (INK, FADED),
        (LAND_LINK, LAND),
        (WATER_LINK, BOARD_SEA),
        (GOLD, LAND),
    ]
    return Colours(fixed_palette(named, on))


# zlib's level 6 (issue 37.3, `python -m bench uploads`): over a whole 4-player game a third fewer bytes
# than ISA-L's best (53 KB a picture on average), for ~4 ms more CPU. Lossless WebP: a quarter smaller
# still, for ~24 ms more.
COMPRESS_LEVEL = UPLOAD_LEVEL


def encode(image: Image.Image) -> bytes:
    """The picture (`draw_map`'s, already in the palette's indexes) as a palette PNG."""
    return encode_paletted(image, COMPRESS_LEVEL)
