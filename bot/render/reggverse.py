"""Reggverse Riddles pictures: the map, the eggs' rule rows and, in a seat's view, that seat's hand.

`render_board(view)` takes a view from `games.reggverse` and returns PNG bytes. The public view is
drawn from the south (seat 1's side); a seat's view is drawn turned to that seat's side, so "left
half", "row" and the movement grids on its tiles read exactly as they do for that player. Only what
is in the view is drawn: the hand and the secret objective are there only in their owner's view.
"""

from __future__ import annotations

import re
import textwrap
import threading
from collections import OrderedDict
from collections.abc import Sequence
from functools import cache, lru_cache
from itertools import permutations, product
from typing import Any

from PIL import Image, ImageDraw

from bot import i18n
from bot.i18n import N_, NP_
from bot.render.fonts import font
from bot.render.generic import EMBED_DESCRIPTION_LIMIT, GuidePage, Renderer, TableContext, clip
from bot.render.palette import encode_png, fixed_palette
from games.core import Choice, Prompt
from games.reggverse.board import geometry, matching_tiles
from games.reggverse.board import rule_text as engine_rule_text
from games.reggverse.data import ACTION_TEXT, HALF_SIDES, NUMBERS, OBJECTIVE_EGGS, OBJECTIVES, TEMPLATE_PARAMS
from games.reggverse.data import EGG_COLOURS as ALL_EGGS
from games.reggverse.data import LINES as LINE_KEYS
from games.reggverse.data import TILE_TYPES as TILE_TYPE_KEYS
from games.reggverse.material import objective_text
from games.reggverse.text import event_text, summary

RGB = tuple[int, int, int]

WIDTH = 1000
MARGIN = 16
CELL = 104
INK: RGB = (34, 30, 40)
PAPER: RGB = (250, 246, 236)
MUTED: RGB = (110, 104, 116)
TYPE_COLOURS: dict[str, RGB] = {
    "empty": (236, 232, 220),
    "tree": (150, 200, 120),
    "cave": (170, 150, 130),
    "dragon": (230, 130, 110),
    "well": (140, 190, 230),
    "witch": (190, 150, 220),
    "statue": (200, 200, 200),
    "tower": (235, 200, 120),
}
EGG_ORDER = {colour: i for i, colour in enumerate(ALL_EGGS)}
EGG_RGB: dict[str, RGB] = {
    "red": (220, 40, 50),
    "green": (40, 160, 70),
    "yellow": (245, 205, 30),
    "blue": (40, 90, 220),
    "orange": (245, 140, 30),
    "cyan": (40, 200, 210),
    "purple": (140, 60, 180),
    "pink": (240, 120, 180),
}
PAWN_RGB: list[RGB] = [
    (20, 20, 20),
    (255, 255, 255),
    (120, 60, 20),
    (90, 90, 200),
    (200, 30, 120),
    (0, 120, 120),
    (160, 120, 0),
    (90, 90, 90),
]
WHITE: RGB = (255, 255, 255)
MINE: RGB = (230, 40, 40)  # the ring of the reader's own pawn
LOCKED: RGB = (180, 40, 40)
OBJECTIVE: RGB = (150, 30, 90)
GRID_RGB: list[RGB] = [(150, 100, 60), (60, 180, 80), (235, 235, 235)]  # a tile's grid: centre, moves, others
UNKNOWN_EGG: RGB = (128, 128, 128)
UNKNOWN_TILE: RGB = (220, 220, 220)
SIDE_NAMES = {"south": N_("South"), "north": N_("North"), "west": N_("West"), "east": N_("East")}


def _on(rgb: RGB) -> RGB:
    """Ink that reads on a background colour."""
    return INK if sum(rgb) > 380 else WHITE


def _egg(draw: ImageDraw.ImageDraw, x: int, y: int, colour: str, count: int, size: int = 26) -> None:
    rgb = EGG_RGB.get(colour, UNKNOWN_EGG)
    draw.ellipse((x, y, x + size * 0.78, y + size), fill=rgb, outline=INK, width=2)
    if count > 1:
        draw.text((x + size * 0.39, y + size * 0.55), str(count), fill=_on(rgb), font=font(16), anchor="mm")


@lru_cache(maxsize=4096)
def _wrap(text: str, width: int) -> tuple[str, ...]:
    """Lines of at most `width` characters; kept, since the same rules are drawn picture after picture."""
    return tuple(textwrap.wrap(text, width=width)) or ("",)


def _in_egg_order(eggs: dict[str, int]) -> list[tuple[str, int]]:
    """Egg counts in the game's own egg order: a view's dicts may come in any order (a state reloaded from
    JSON has its own), and the same moment must always give the same picture."""
    return sorted(eggs.items(), key=lambda item: EGG_ORDER.get(item[0], len(EGG_ORDER)))


def render_board(view: dict[str, Any]) -> bytes:
    return encode(draw_view(view))


@cache
def _palette() -> Image.Image:
    backgrounds = [PAPER, WHITE, *TYPE_COLOURS.values()]
    named = [
        INK,
        PAPER,
        MUTED,
        WHITE,
        MINE,
        LOCKED,
        OBJECTIVE,
        *TYPE_COLOURS.values(),
        *EGG_RGB.values(),
        *PAWN_RGB,
        *GRID_RGB,
        UNKNOWN_EGG,
        UNKNOWN_TILE,
    ]
    on = [
        *((ink, paper) for ink in (INK, MUTED) for paper in backgrounds),
        (LOCKED, PAPER),
        (LOCKED, WHITE),
        (OBJECTIVE, PAPER),
        *((_on(c), c) for c in EGG_RGB.values()),
        *((_on(c), c) for c in PAWN_RGB),
    ]
    return fixed_palette(named, on)


def encode(image: Image.Image) -> bytes:
    """The picture as a palette PNG (see `bot.render.palette`): crisp text, a third of the former
    encoding's CPU (an adaptive palette took longer to find than the PNG took to write)."""
    return encode_png(image, _palette())


def draw_view(view: dict[str, Any]) -> Image.Image:
    board = view["board"]
    geo = geometry(board["shape"])
    seat = view.get("seat")
    side = view["side"] if seat is not None else "south"
    lw, lh = geo.local_size[side]
    board_w, board_h = lw * CELL, lh * CELL
    panel_x = MARGIN * 2 + board_w + 24
    hand = view.get("hand") if seat is not None else None
    rows_h = _rows_height(view)
    top = 64
    body_h = max(board_h + 40, rows_h)
    hand_h = 0
    if hand is not None:
        hand_h = 60 + 190 * ((len(hand) + 3) // 4 or 1) + (40 if view.get("objective") else 0)
    scores_h = _scores_height(view)
    height = top + body_h + 8 + scores_h + hand_h + 10
    img = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(img)
    _header(draw, view, side)
    _board(img, draw, view, geo, side, MARGIN + 12, top + 8)
    _rows(draw, view, panel_x, top)
    y = top + body_h + 8
    _scores(draw, view, y)
    y += scores_h
    if hand is not None:
        _hand(draw, view, hand, y)
    return img


def _header(draw: ImageDraw.ImageDraw, view: dict[str, Any], side: str) -> None:
    seat = view.get("seat")
    step = view.get("step", {})
    if view.get("finished"):
        outcome = view.get("outcome") or {}
        winners = ", ".join(i18n.pt(SEAT, number=w + 1) for w in outcome.get("winners", []))
        status = i18n.pt(N_("Game over. Winner: {winners}"), winners=winners)
    else:
        status = i18n.pt(
            N_("Turn {turn}: Seat {number} ({step})"),
            turn=view["turn"],
            number=view["current"] + 1,
            step=step.get("kind", ""),
        )
    draw.text((MARGIN, 10), i18n.pt(N_("Reggverse Riddles")), fill=INK, font=font(28))
    draw.text((MARGIN + 270, 16), status, fill=INK, font=font(22))
    who = (
        i18n.pt(
            N_("Your view, Seat {number}, from the {side}"),
            number=seat + 1,
            side=i18n.pt(SIDE_NAMES.get(side, side)).lower(),
        )
        if seat is not None
        else i18n.pt(N_("Table view, from the south"))
    )
    draw.text((MARGIN, 44), who, fill=MUTED, font=font(16))
    locks = view.get("locks") or {}
    if locks:
        held = [i18n.pt(N_("{what} by Seat {number}"), what=k, number=v + 1) for k, v in locks.items()]
        text = i18n.pt(N_("Locks: {locks}"), locks=", ".join(held))
        draw.text((WIDTH - MARGIN, 44), text, fill=LOCKED, font=font(16), anchor="ra")


KEPT_SQUARES = 32  # drawn boards (~0.5 MB each): a game's board seen from each side, for a few games


_squares: OrderedDict[tuple[Any, ...], Image.Image] = OrderedDict()
_squares_lock = threading.Lock()


def _squares_of(geo: Any, board: dict[str, Any], side: str) -> Image.Image:
    """The board's squares (colour, type and name) seen from `side`, on paper. They change only when
    squares are swapped, so they are drawn once and pasted into each picture (eggs and pawns go on top)."""
    kinds = tuple(board["types"])
    key = (board["shape"], side, kinds, tuple(PICTURE.tile_type(k) for k in kinds))
    with _squares_lock:
        found = _squares.get(key)
        if found is not None:
            _squares.move_to_end(key)
            return found
    lw, lh = geo.local_size[side]
    image = Image.new("RGB", (lw * CELL, lh * CELL), PAPER)
    draw = ImageDraw.Draw(image)
    for cell, kind in enumerate(kinds):
        lx, ly = geo.local[side][cell]
        x, y = lx * CELL, ly * CELL
        draw.rounded_rectangle(
            (x + 2, y + 2, x + CELL - 2, y + CELL - 2),
            radius=10,
            fill=TYPE_COLOURS.get(kind, UNKNOWN_TILE),
            outline=INK,
            width=2,
        )
        draw.text((x + 8, y + 6), PICTURE.tile_type(kind), fill=INK, font=font(17))
        draw.text((x + CELL - 8, y + 6), geo.names["south"][cell], fill=MUTED, font=font(14), anchor="ra")
    with _squares_lock:
        _squares[key] = image
        while len(_squares) > KEPT_SQUARES:
            _squares.popitem(last=False)
    return image


def _board(
    img: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], geo: Any, side: str, x0: int, y0: int
) -> None:
    board = view["board"]
    seat = view.get("seat")
    pawns: list[int] = board["pawns"]
    img.paste(_squares_of(geo, board, side), (x0, y0))
    for cell in range(len(geo.cells)):
        lx, ly = geo.local[side][cell]
        x, y = x0 + lx * CELL, y0 + ly * CELL
        ex = x + 8
        for colour, count in _in_egg_order(board["eggs"][cell]):
            if count:
                _egg(draw, ex, y + CELL - 36, colour, count)
                ex += 24
                if ex > x + CELL - 26:
                    break
        if cell in pawns:
            owner = pawns.index(cell)
            cx, cy = x + CELL - 28, y + 46
            ring = MINE if owner == seat else INK
            draw.ellipse((cx - 17, cy - 17, cx + 17, cy + 17), fill=PAWN_RGB[owner % 8], outline=ring, width=4)
            draw.text((cx, cy), str(owner + 1), fill=_on(PAWN_RGB[owner % 8]), font=font(20), anchor="mm")
    lw, lh = geo.local_size[side]
    label = i18n.pt(N_("you sit on this edge")) if seat is not None else i18n.pt(N_("seat 1 sits on this edge (south)"))
    draw.text((x0 + lw * CELL // 2, y0 + lh * CELL + 8), label, fill=MUTED, font=font(16), anchor="ma")


def _rows_height(view: dict[str, Any]) -> int:
    rows = view["board"]["rows"]
    height = 0
    for egg in view["eggs"]:
        height += 34 + sum(18 * len(_wrap(PICTURE.rule(r), 44)) + 4 for r in rows.get(egg, []))
    return height + 10


def _rows(draw: ImageDraw.ImageDraw, view: dict[str, Any], x: int, y: int) -> None:
    board = view["board"]
    seat = view.get("seat")
    here = board["pawns"][seat] if seat is not None else None
    for egg in view["eggs"]:
        _egg(draw, x, y + 2, egg, 1, size=24)
        pile = view["piles"][egg]
        row = board["rows"].get(egg)
        if row is None:
            head = i18n.pt(N_("{egg}: pile out, no rules"), egg=_picture_colour(egg))
        else:
            head = i18n.pt(N_("{egg}: {count} in pile"), egg=_picture_colour(egg), count=pile)
            if seat is not None and row:
                spots = matching_tiles(board, egg, seat)
                mark = (
                    i18n.pt(N_(" - points at YOUR tile"))
                    if here in spots
                    else i18n.pt(N_(" - points at {count} tiles"), count=len(spots))
                )
                head += mark
            elif not row:
                head += i18n.pt(N_(" (no rules: hidden nowhere)"))
        draw.text((x + 28, y + 4), head, fill=INK, font=font(18))
        y += 30
        for rule in row or []:
            for i, line in enumerate(_wrap(PICTURE.rule(rule), 44)):
                draw.text((x + 28, y), ("- " if i == 0 else "  ") + line, fill=INK, font=font(16))
                y += 18
            y += 4
        y += 4


SEATS_PER_LINE = 4


def _scores_height(view: dict[str, Any]) -> int:
    lines = (len(view["collected"]) + SEATS_PER_LINE - 1) // SEATS_PER_LINE
    return 12 + 56 * lines + 20 * len(view.get("objectives") or []) + 10


def _scores(draw: ImageDraw.ImageDraw, view: dict[str, Any], y: int) -> None:
    draw.line((MARGIN, y, WIDTH - MARGIN, y), fill=MUTED, width=1)
    y += 8
    totals = (view.get("outcome") or {}).get("scores")
    for s, collected in enumerate(view["collected"]):
        x = MARGIN + (s % SEATS_PER_LINE) * 242
        ty = y + (s // SEATS_PER_LINE) * 56
        side = i18n.pt(SIDE_NAMES[view["sides"][s]])
        text = i18n.pt(N_("Seat {number} ({side}): {eggs} eggs"), number=s + 1, side=side, eggs=view["scores"][s])
        if totals is not None:
            text = i18n.pt(
                N_("Seat {number}: {eggs} eggs, {points} pts"), number=s + 1, eggs=view["scores"][s], points=totals[s]
            )
        draw.text((x, ty), text, fill=INK, font=font(17))
        ex = x
        for colour, count in _in_egg_order(collected):
            if count:
                _egg(draw, ex, ty + 24, colour, count, size=22)
                ex += 22
    y += 56 * ((len(view["collected"]) + SEATS_PER_LINE - 1) // SEATS_PER_LINE)
    for i, objective in enumerate(view.get("objectives") or []):
        draw.text(
            (MARGIN, y + 20 * i),
            i18n.pt(
                N_("Objective of Seat {number}: {objective}"),
                number=i + 1,
                objective=objective_from_text(PICTURE, objective),
            ),
            fill=OBJECTIVE,
            font=font(16),
        )


def _hand(draw: ImageDraw.ImageDraw, view: dict[str, Any], hand: list[dict[str, Any]], y: int) -> None:
    draw.text((MARGIN, y), i18n.pt(N_("Your tiles (movement as you see the map)")), fill=INK, font=font(20))
    y += 32
    objective = view.get("objective")
    for i, tile in enumerate(hand):
        x = MARGIN + (i % 4) * 242
        ty = y + (i // 4) * 190
        draw.rounded_rectangle((x, ty, x + 232, ty + 180), radius=10, fill=WHITE, outline=INK, width=2)
        draw.text((x + 10, ty + 6), i18n.pt(N_("Tile {number}"), number=tile["id"]), fill=MUTED, font=font(14))
        if tile["kind"] == "action":
            draw.text((x + 10, ty + 28), i18n.pt(N_("ACTION")), fill=LOCKED, font=font(18))
            for j, line in enumerate(_wrap(PICTURE.action(tile.get("action", ""), tile["text"]), 22)):
                draw.text((x + 10, ty + 56 + 20 * j), line, fill=INK, font=font(17))
            continue
        moves = {tuple(m) for m in tile["moves"]}
        gx, gy, g = x + 10, ty + 28, 22
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                bx, by = gx + (dx + 1) * g, gy + (dy + 1) * g
                if (dx, dy) == (0, 0):
                    fill: RGB = GRID_RGB[0]
                elif (dx, dy) in moves:
                    fill = GRID_RGB[1]
                else:
                    fill = GRID_RGB[2]
                draw.rectangle((bx, by, bx + g - 2, by + g - 2), fill=fill, outline=MUTED)
        for j, line in enumerate(_wrap(PICTURE.rule(tile["rule"]), 22)):
            draw.text((x + 10, ty + 104 + 19 * j), line, fill=INK, font=font(17))
    if objective:
        rows = (len(hand) + 3) // 4 or 1
        secret = i18n.pt(N_("Secret objective: {objective}"), objective=PICTURE.objective(objective))
        draw.text((MARGIN, y + rows * 190 + 4), secret, fill=OBJECTIVE, font=font(19))


class ReggverseRenderer(Renderer):
    """Compact embed text and log lines; the picture is `render_board`."""

    def describe_public(self, view: dict[str, Any], ctx: TableContext) -> str:
        return clip(summary_text(view, ctx), EMBED_DESCRIPTION_LIMIT)

    def describe_private(self, view: dict[str, Any], ctx: TableContext, seat: int) -> str:
        return clip(summary_text(view, ctx), EMBED_DESCRIPTION_LIMIT)

    def event_line(self, event: dict[str, Any], ctx: TableContext) -> str:
        kind = event["type"]
        line = EVENTS.get(kind)
        who = _seat_name(ctx, event.get("seat"))
        if kind == "played" and event["tile"]["kind"] == "action" and ctx.lang != i18n.DEFAULT:
            tile = event["tile"]
            return ctx.t(PLAYED_ACTION, who=who, action=Words(ctx.lang).action(tile.get("action", ""), tile["text"]))
        if line is None or (kind == "played" and event["tile"]["kind"] == "action"):
            return event_text(event) or ""  # the engine's English: events without a translation
        egg = _colour(ctx, event.get("egg"))
        if kind == "dropped":
            source = {"pile": N_("its pile"), "mine": N_("their own eggs")}.get(event["source"], N_("another tile"))
            return ctx.t(line, who=who, egg=egg, source=ctx.t(source))
        if kind == "rule_placed":
            line = RULE_ON_TOP if event["covered"] is not None else line
            return ctx.t(line, who=who, rule=rule_from_text(Words(ctx.lang), event["text"]), egg=egg)
        if kind == "collected":
            return ctx.t(line, who=who, eggs=ctx.listing([_colour(ctx, e) for e in event["eggs"]]))
        if kind in ("move_locked", "rule_locked"):
            return ctx.t(line, who=who, other=_seat_name(ctx, event["by"]))
        if kind == "game_over":
            return ctx.t(line, scores=", ".join(f"{_seat_name(ctx, s)}: {v}" for s, v in enumerate(event["scores"])))
        if kind == "played":
            return ctx.t(line, who=who, tile=event["tile"]["id"])
        return ctx.t(line, who=who, egg=egg)

    def prompt_text(self, prompt: Prompt, ctx: TableContext) -> str:
        message = PROMPTS.get(prompt.kind)
        if message is not None:
            return ctx.t(message)
        info = prompt.info
        if prompt.kind in PROMPTS_WITH_EGG and "egg" in info:
            return ctx.t(PROMPTS_WITH_EGG[prompt.kind], egg=_colour(ctx, info["egg"]))
        if prompt.kind in PROMPTS_WITH_LEFT and "left" in info:
            return ctx.t(PROMPTS_WITH_LEFT[prompt.kind], left=i18n.number(ctx.lang, info["left"]))
        if prompt.kind == "guess" and "target" in info:
            side = GUESS_SIDES.get(info.get("which", ""), GUESS_SIDES["left"])
            return ctx.t(side, seat=_seat_name(ctx, info["target"]))
        found = re.search(r"\"(.*)\"", prompt.text)
        if prompt.kind == "rule" and found:
            return ctx.t(N_('Where does the rule "{rule}" go?'), rule=rule_from_text(Words(ctx.lang), found.group(1)))
        if prompt.kind == "rule_egg" and found:
            return ctx.t(N_('Which egg gets the rule "{rule}"?'), rule=rule_from_text(Words(ctx.lang), found.group(1)))
        return super().prompt_text(prompt, ctx)

    def choice_label(self, prompt: Prompt, choice: Choice, ctx: TableContext) -> str:
        """Tiles, rules, objectives, squares and eggs rebuilt from the choice id and the game's data;
        the engine's label when it is English or of a shape this does not know."""
        if ctx.lang == i18n.DEFAULT:
            return choice.label
        try:
            return _choice_label(Words(ctx.lang), choice)
        except (KeyError, IndexError, ValueError):
            return choice.label

    def seat_image(
        self, view: dict[str, Any], prompt: Prompt | None, lang: str = i18n.DEFAULT, names: Sequence[str] = ()
    ) -> bytes | None:
        """Always: a seat's picture is its own side of the board with its hand and secret objective,
        worth having while the others play too."""
        return self.image(view, lang, names)

    def seat_pictured(self, prompt: Prompt | None) -> bool:
        return self.pictured()


EGG_COLOURS = {
    "red": NP_("egg", "red"),
    "green": NP_("egg", "green"),
    "yellow": NP_("egg", "yellow"),
    "blue": NP_("egg", "blue"),
    "orange": NP_("egg", "orange"),
    "cyan": NP_("egg", "cyan"),
    "purple": NP_("egg", "purple"),
    "pink": NP_("egg", "pink"),
}
EVENTS = {
    "played": N_("{who} plays tile {tile}"),
    "moved": N_("{who} moves"),
    "stayed": N_("{who} cannot move and stays"),
    "dropped": N_("{who} drops a {egg} egg (from {source})"),
    "rule_placed": N_('{who} adds "{rule}" to {egg} (next to its rules)'),
    "rule_discarded": N_("{who}: the rule fits nowhere and is discarded"),
    "collected": N_("{who} collects {eggs}"),
    "pile_out": N_("The {egg} pile is empty: its rules are removed"),
    "move_locked": N_("{who} is locked by {other}"),
    "rule_locked": N_("{who} is locked by {other}"),
    "game_over": N_("Game over: {scores}"),
}
PLAYED_ACTION = N_("{who} plays action: {action}")
RULE_ON_TOP = N_('{who} adds "{rule}" to {egg} (on top of a rule)')
PROMPTS = {
    "play": N_("Which tile do you play?"),
    "move": N_("Where does your pawn move?"),
    "drop": N_("Which egg do you drop on your tile?"),
    "drop_from": N_("Take the egg to drop on your tile from where?"),
    "drop_egg": N_("Which egg?"),
    "to_pile_egg": N_("Which egg?"),
    "shift_egg": N_("Which egg?"),
    "steal_egg": N_("Which egg?"),
    "cleanup": N_("Clear the rules of which egg?"),
    "collect": N_("Take an egg from which pile?"),
    "spawn_egg": N_("Take an egg from which pile?"),
    "teleport": N_("Teleport to which tile?"),
    "switch": N_("Which two eggs swap their rule rows?"),
    "steal_from": N_("Steal an egg from whom?"),
    "trade_give": N_("Trade 3 eggs of which type?"),
    "trade_get": N_("Get one egg of which type?"),
    "swap": N_("Which two map tiles swap places?"),
}
PROMPTS_WITH_EGG = {
    "rule_spot": N_("Where in the {egg} row?"),
    "shift_to": N_("Put the {egg} egg on which tile?"),
    "spawn_to": N_("Put the {egg} egg on which tile?"),
}
PROMPTS_WITH_LEFT = {
    "to_pile_from": N_("Send an egg back to its pile from which tile? ({left} left)"),
    "shift_from": N_("Move an egg from which tile? ({left} left)"),
}
GUESS_SIDES = {
    "left": N_("Guess the secret objective of {seat} (left neighbour)"),
    "right": N_("Guess the secret objective of {seat} (right neighbour)"),
}
SEAT = N_("Seat {number}")


def _seat_name(ctx: TableContext, seat: int | None) -> str:
    if seat is None:
        return ""
    return ctx.names[seat] if 0 <= seat < len(ctx.names) else ctx.t(SEAT, number=seat + 1)


def _picture_colour(egg: str) -> str:
    return i18n.ptp("egg", EGG_COLOURS[egg]) if egg in EGG_COLOURS else egg


def _colour(ctx: TableContext, egg: str | None) -> str:
    if egg is None:
        return ""
    return i18n.tp(ctx.lang, "egg", EGG_COLOURS[egg]) if egg in EGG_COLOURS else egg


RENDERER = ReggverseRenderer("reggverse-riddles", image=render_board)


# --- game terms from the engine's data, in the reader's language ----------------------------------
# Rules are rebuilt from their template number, sense and placeholders; action tiles from their
# kind; objectives from their kind and eggs; tile types and eggs from their keys. The English msgids
# are exactly the engine's texts (tests/test_i18n_games.py checks it), so English is unchanged.
TILE_TYPES = {
    "empty": NP_("tile-type", "empty"),
    "tree": NP_("tile-type", "tree"),
    "cave": NP_("tile-type", "cave"),
    "dragon": NP_("tile-type", "dragon"),
    "well": NP_("tile-type", "well"),
    "witch": NP_("tile-type", "witch"),
    "statue": NP_("tile-type", "statue"),
    "tower": NP_("tile-type", "tower"),
}
HALVES = {
    "left": NP_("half", "left"),
    "right": NP_("half", "right"),
    "top": NP_("half", "top"),
    "bottom": NP_("half", "bottom"),
}
LINES = {"row": NP_("line", "row"), "column": NP_("line", "column")}
RULES: dict[tuple[int, bool], str] = {  # (template, opposite sense) -> text
    (1, False): N_("My tile is {tile}"),
    (1, True): N_("My tile is not {tile}"),
    (2, False): N_("My tile has a {egg} egg"),
    (2, True): N_("My tile has no {egg} egg"),
    (3, False): N_("My tile has at least {n} eggs"),
    (3, True): N_("My tile has at most {n} eggs"),
    (4, False): N_("My tile is in the {side} half"),
    (4, True): N_("My tile is not in the {side} half"),
    (5, False): N_("My tile has no duplicate eggs"),
    (5, True): N_("My tile has only eggs of one type"),
    (6, False): N_("I'm next to a {tile} tile"),
    (6, True): N_("I'm not next to a {tile} tile"),
    (7, False): N_("I'm next to a {egg} egg"),
    (7, True): N_("I'm not next to a {egg} egg"),
    (8, False): N_("I'm next to a tile with a pawn"),
    (8, True): N_("I'm not next to a tile with a pawn"),
    (9, False): N_("All my neighbour tiles have different type"),
    (9, True): N_("All my neighbour tiles have the same type"),
    (10, False): N_("All my neighbour tiles have different egg types"),
    (10, True): N_("All my neighbour tiles have the same egg types"),
    (11, False): N_("My tile matches the rules of all other eggs"),
    (12, False): N_("There's a {tile} tile in my {line}"),
    (12, True): N_("There's no {tile} tile in my {line}"),
    (13, False): N_("There's a {egg} egg in my {line}"),
    (13, True): N_("There's no {egg} egg in my {line}"),
    (14, False): N_("At most {n} eggs in my {line}"),
    (14, True): N_("At least {n} eggs in my {line}"),
    (15, False): N_("At least {n} pawns in my {line}"),
    (15, True): N_("At most {n} pawns in my {line}"),
}
ACTION_TILES = {
    "cleanup": N_("Cleanup: remove all rules of one egg"),
    "double": N_("Double turn: play 2 more tiles"),
    "collect": N_("Collect any: take 1 egg from a pile"),
    "refresh": N_("Hand refresh: discard your hand, draw 4"),
    "teleport": N_("Teleport: move to any free tile"),
    "to_pile": N_("Back to pile: 3 eggs from the board to their piles"),
    "switch": N_("Switch rules: two eggs swap rule rows"),
    "steal": N_("Steal: take 1 egg another player collected"),
    "shift": N_("Move up to 3 eggs between tiles"),
    "spawn": N_("Move 3 eggs from piles onto tiles"),
    "lock_move": N_("Movement lock: others cannot move until your next turn"),
    "lock_rules": N_("Rules lock: others cannot place rules until your next turn"),
    "lock_actions": N_("Actions lock: others cannot play actions until your next turn"),
    "trade": N_("Trade 3 eggs of one type for 1 of another"),
    "draw3": N_("Draw 3 more tiles"),
    "swap": N_("Swap two map tiles with their contents"),
}
OBJECTIVE_TEXTS = {
    "five_of_two": N_("+10 if you have at least 5 eggs of {eggs}"),
    "four_of_one": N_("+10 if you have at least 4 eggs of one type"),
    "one_each": N_("+10 if you have one egg of every type in the game"),
    "two_of_three": N_("+10 if you have at least 2 each of {eggs}"),
    "beat_left": N_("+5 if you have more eggs than your left neighbour"),
    "fewest": N_("+7 if you have fewer eggs than both neighbours"),
    "most_of": N_("+5 if you have more {eggs} eggs than both neighbours"),
    "fewest_of": N_("+7 if you have fewer {eggs} eggs than both neighbours"),
    "out_first": N_("+7 if the {eggs} pile runs out first"),
    "out_last": N_("+10 if the {eggs} pile runs out last"),
    "guess": N_("+10 if you correctly guess both neighbours' objectives"),
    "double_but": N_("Each egg is worth 2, but {eggs} eggs are worth -5"),
    "max_two": N_("+7 if you hold no egg type more than twice"),
}
EITHER = N_("{first} or {second}")
BOTH = N_("{first} and {second}")


class Words:
    """Catalog look-ups for one audience: a reader's language (`Words(lang)`) or the picture being
    drawn (`Words(None)`, whose language travels with `i18n.picture_language`)."""

    def __init__(self, lang: str | None) -> None:
        self.lang = lang

    def t(self, message: str, /, **params: Any) -> str:
        return i18n.t(self.lang, message, **params) if self.lang is not None else i18n.pt(message, **params)

    def tp(self, context: str, message: str) -> str:
        return i18n.tp(self.lang, context, message) if self.lang is not None else i18n.ptp(context, message)

    @property
    def english(self) -> bool:
        """English (the engine's own joins apply): the catalog leaves the msgids as they are."""
        return self.t(BOTH) == BOTH

    def all_of(self, items: list[str]) -> str:
        """ "a, b and c" in this language."""
        if len(items) < 2:
            return "".join(items)
        return self.t(BOTH, first=", ".join(items[:-1]), second=items[-1])

    def egg(self, egg: str) -> str:
        return self.tp("egg", EGG_COLOURS[egg]) if egg in EGG_COLOURS else egg

    def tile_type(self, kind: str) -> str:
        return self.tp("tile-type", TILE_TYPES[kind]) if kind in TILE_TYPES else kind

    def rule(self, rule: dict[str, Any]) -> str:
        """A rule from its template, sense and placeholders; the view's text if it is unknown."""
        message = RULES.get((int(rule["t"]), bool(rule.get("neg"))))
        if message is None:
            return str(rule.get("text") or engine_rule_text(rule))
        side, line = rule.get("side"), rule.get("line", "row")
        return self.t(
            message,
            tile=self.tile_type(str(rule.get("tile"))),
            egg=self.egg(str(rule.get("egg"))),
            n=rule.get("n"),
            side=self.tp("half", HALVES[side]) if side in HALVES else side,
            line=self.tp("line", LINES[line]) if line in LINES else line,
        )

    def action(self, kind: str, english: str) -> str:
        return self.t(ACTION_TILES[kind]) if kind in ACTION_TILES else english

    def objective(self, tile: dict[str, Any]) -> str:
        """An objective from its kind and eggs."""
        kind, eggs = tile.get("kind"), [self.egg(e) for e in tile.get("eggs", [])]
        message = OBJECTIVE_TEXTS.get(str(kind))
        if message is None:
            return str(tile.get("text", ""))
        if kind == "five_of_two":
            named = eggs[0] if eggs else ""
            for other in eggs[1:]:
                named = self.t(EITHER, first=named, second=other)
        elif kind == "two_of_three":
            named = ", ".join(eggs) if self.english else self.all_of(eggs)
        else:
            named = " and ".join(eggs) if self.english else self.all_of(eggs)
        return self.t(message, eggs=named)


PICTURE = Words(None)  # the words of the picture being drawn


@cache
def _rules_by_text() -> dict[str, dict[str, Any]]:
    """The engine's text of every rule it can make -> that rule (for texts that come without one)."""
    found: dict[str, dict[str, Any]] = {}
    values: dict[str, tuple[Any, ...]] = {
        "tile": TILE_TYPE_KEYS,
        "egg": ALL_EGGS,
        "n": NUMBERS,
        "side": HALF_SIDES,
        "line": LINE_KEYS,
    }
    for template, neg in RULES:
        names = TEMPLATE_PARAMS.get(template, ())
        for combo in product(*(values[name] for name in names)):
            rule = {"t": template, "neg": neg, **dict(zip(names, combo, strict=True))}
            found[engine_rule_text(rule)] = rule
    return found


@cache
def _actions_by_text() -> dict[str, str]:
    return {text: kind for kind, text in ACTION_TEXT.items()}


@cache
def _objectives_by_text() -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for kind in OBJECTIVES:
        need = OBJECTIVE_EGGS.get(kind, 0)
        for size in range(need + 1) if need else (0,):
            for eggs in permutations(ALL_EGGS, size):
                tile = {"kind": kind, "eggs": list(eggs)}
                found.setdefault(objective_text(tile), tile)
    return found


def rule_from_text(words: Words, text: str) -> str:
    rule = _rules_by_text().get(text)
    return words.rule(rule) if rule is not None else text


def objective_from_text(words: Words, text: str) -> str:
    tile = _objectives_by_text().get(text)
    return words.objective(tile) if tile is not None else text


def action_from_text(words: Words, text: str) -> str:
    kind = _actions_by_text().get(text)
    return words.action(kind, text) if kind is not None else text


def summary_text(view: dict[str, Any], ctx: TableContext) -> str:
    """`games.reggverse.text.summary` in the reader's language (the rule and action texts stay the
    engine's); the engine's English summary if the view has a shape this does not know."""
    if ctx.lang == i18n.DEFAULT:
        return summary(view)
    try:
        return _summary_text(view, ctx)
    except (KeyError, IndexError, TypeError):
        return summary(view)


def _summary_text(view: dict[str, Any], ctx: TableContext) -> str:
    t = ctx.t
    words = Words(ctx.lang)
    board = view["board"]
    seat = view.get("seat")
    side = view["side"] if seat is not None else "south"
    names = geometry(board["shape"]).names["south"]  # one name per square for everybody
    head = t(N_("Turn {turn}, seat {number} to play"), turn=view["turn"], number=view["current"] + 1)
    if view.get("finished"):
        head += " " + t(N_("(game over)"))
    if seat is not None:
        head += "; " + t(
            N_("you are seat {number}, looking from the {side}"), number=seat + 1, side=t(SIDE_NAMES[side]).lower()
        )
    lines = [head]
    for egg in view["eggs"]:
        row = board["rows"].get(egg)
        if row is None:
            lines.append(t(N_("{egg}: pile out"), egg=_colour(ctx, egg)))
            continue
        rules = "; ".join(words.rule(r) for r in row) or t(N_("no rules (hidden nowhere)"))
        lines.append(
            t(N_("{egg} ({count} left): {rules}"), egg=_colour(ctx, egg), count=view["piles"][egg], rules=rules)
        )
    where = []
    for s, cell in enumerate(board["pawns"]):
        eggs = ", ".join(f"{v} {_colour(ctx, k)}" for k, v in board["eggs"][cell].items())
        place = t(
            N_("seat {number} on {tile} {kind}"),
            number=s + 1,
            tile=names[cell],
            kind=words.tile_type(board["types"][cell]),
        )
        where.append(place + (f" ({eggs})" if eggs else ""))
    lines.append(t(N_("Pawns: {where}"), where="; ".join(where)))
    lying = [
        f"{names[c]}: " + ", ".join(f"{v} {_colour(ctx, k)}" for k, v in e.items())
        for c, e in enumerate(board["eggs"])
        if e
    ]
    lines.append(t(N_("Eggs on tiles: {eggs}"), eggs="; ".join(lying) if lying else t(N_("none"))))
    scores = ", ".join(t(N_("seat {number}: {eggs}"), number=s + 1, eggs=n) for s, n in enumerate(view["scores"]))
    lines.append(t(N_("Collected: {scores}"), scores=scores))
    for tile in view.get("hand") or []:
        if tile["kind"] == "action":
            lines.append(
                "  "
                + t(
                    N_("tile {number}: ACTION {text}"),
                    number=tile["id"],
                    text=words.action(tile.get("action", ""), tile["text"]),
                )
            )
        else:
            moves = ", ".join(_direction(ctx, m) for m in tile["moves"])
            lines.append(
                "  "
                + t(
                    N_("tile {number}: move {moves} | {rule}"),
                    number=tile["id"],
                    moves=moves,
                    rule=words.rule(tile["rule"]),
                )
            )
    if view.get("objective"):
        lines.append(t(N_("Secret objective: {objective}"), objective=words.objective(view["objective"])))
    return "\n".join(lines)


DIRECTIONS = {
    (0, -1): N_("up"),
    (0, 1): N_("down"),
    (-1, 0): N_("left"),
    (1, 0): N_("right"),
    (-1, -1): N_("up-left"),
    (1, -1): N_("up-right"),
    (-1, 1): N_("down-left"),
    (1, 1): N_("down-right"),
}


def _direction(ctx: TableContext, move: list[int]) -> str:
    name = DIRECTIONS.get((move[0], move[1]))
    return ctx.t(name) if name else str(move)


# Square labels are "<name> <type>" and " (<count> <egg>, ...)" when eggs lie there: names of squares
# stay, the type and the eggs are data words looked up in the catalog.
SQUARE = re.compile(r"(?P<name>\S+) (?P<kind>[a-z]+)(?: \((?P<eggs>[^)]*)\))?")
TILE_CHOICE = re.compile(r"Tile (?P<id>\d+): (?P<rule>.*)")


def _square(words: Words, label: str) -> str:
    found = SQUARE.fullmatch(label)
    if found is None or found["kind"] not in TILE_TYPES:
        return label
    text = f"{found['name']} {words.tile_type(found['kind'])}"
    if found["eggs"]:
        counts = [item.split(" ", 1) for item in found["eggs"].split(", ")]
        text += " (" + ", ".join(f"{n} {words.egg(e)}" for n, e in counts) + ")"
    return text


def _choice_label(words: Words, choice: Choice) -> str:
    cid, label = choice.id, choice.label
    if cid == "done":
        return words.t(N_("Done moving eggs"))
    if re.fullmatch(r"t\d+", cid):  # a tile of the hand
        action = re.fullmatch(r"Action: (.*)", label)
        if action:
            return words.t(N_("Action: {action}"), action=action_from_text(words, action.group(1)))
        tile = TILE_CHOICE.fullmatch(label)
        if tile:
            return words.t(N_("Tile {number}: {rule}"), number=tile["id"], rule=rule_from_text(words, tile["rule"]))
    if re.fullmatch(r"o\d+", cid):  # an objective to guess
        return objective_from_text(words, label)
    if re.fullmatch(r"c\d+", cid):  # a square
        return _square(words, label)
    source, _, egg = cid.partition(":")
    if egg in EGG_COLOURS and source in ("pile", "mine"):
        message = N_("{egg} egg from its pile") if source == "pile" else N_("{egg} egg from your collected eggs")
        return words.t(message, egg=words.egg(egg))
    if egg in EGG_COLOURS and re.fullmatch(r"c\d+", source):
        found = re.fullmatch(r"\w+ egg from tile (.*)", label)
        square = _square(words, found.group(1)) if found else label
        return words.t(N_("{egg} egg from tile {square}"), egg=words.egg(egg), square=square)
    if source in EGG_COLOURS and egg == "next":
        return words.t(N_("{egg}: next to its rules"), egg=words.egg(source))
    if source in EGG_COLOURS and re.fullmatch(r"[a-z]{2}-?\d+", egg):  # "<egg>:<2 letters><rule id>"
        found = re.fullmatch(r"\w+: on top of \"(.*)\"", label)
        if found is None:  # cut at 100 characters by the engine
            return label
        covered = found.group(1)
        return words.t(N_('{egg}: on top of "{rule}"'), egg=words.egg(source), rule=rule_from_text(words, covered))
    if cid in EGG_COLOURS:
        pile = re.search(r"\((\d+) ", label)
        if label.startswith("Give "):
            return words.t(N_("Give 3 {egg}"), egg=words.egg(cid))
        if label.startswith("Get "):
            return words.t(N_("Get 1 {egg}"), egg=words.egg(cid))
        if pile:
            return words.t(N_("{egg} egg ({count} in pile)"), egg=words.egg(cid), count=int(pile.group(1)))
        return words.t(N_("{egg} egg"), egg=words.egg(cid))
    steal = re.fullmatch(r"s(\d+)", cid)
    if steal:
        eggs = re.search(r"\((\d+) ", label)
        return words.t(
            N_("Seat {number} ({count} eggs)"), number=int(steal.group(1)) + 1, count=int(eggs.group(1)) if eggs else 0
        )
    return label


# --- the game's guide (`/game rules`) and what its variants do, in the catalogs ----------------
RENDERER.guide = (
    GuidePage(
        N_("Overview"),
        N_(
            "Move your pawn across the map tiles, drop eggs and add rules that tell where each egg type is "
            "hidden. The game ends when every egg pile has run out: whoever scored the most eggs wins."
        ),
    ),
    GuidePage(
        N_("Your turn"),
        N_(
            "Play one tile from your hand of four.\n"
            "Movement (top side): move your pawn to one of the green spots, seen from your side of the table; "
            "never off the map, never onto another pawn's tile. Then take any one egg (from a tile, a pile or "
            "your own scored eggs) and drop it on your tile.\n"
            "Rule (bottom side): place the tile next to or on top of a rule of one egg type; each egg type has "
            "at most 3 unique rules."
        ),
    ),
    GuidePage(
        N_("Collecting eggs"),
        N_(
            "At the end of your turn, for each egg type whose rules match your tile, collect one egg of that "
            "type (from its pile or a tile), unless an egg of that type lies on your tile. Rules may never match "
            "no tile or every tile. When a pile runs out, its rules are removed. Then draw back up to four tiles."
        ),
    ),
    GuidePage(
        N_("Expansions"),
        N_(
            "Action Tiles: tiles with one unique action instead of a movement and a rule, carried out when "
            "played.\n"
            "Secret Objectives: everybody gets one secret objective that changes what scores them more or "
            "fewer points."
        ),
    ),
)
RENDERER.option_texts = {
    "shape": N_("map shape: 4x4 grid, 5x4 grid, cross (5x5 without corners) or ring (the border of 5x5)"),
    "egg_types": N_("how many egg types (piles)"),
    "tokens": N_("egg tokens per type"),
    "action_tiles": N_("Action Tiles expansion: 20 action tiles in the deck"),
    "objectives": N_("Secret Objectives expansion: one secret objective each"),
}
# The variants' friendly names in the lobby and the guide (bot.guide), by option name and value.
RENDERER.option_names = {
    "shape": N_("Map shape"),
    "egg_types": N_("Egg types"),
    "tokens": N_("Egg tokens per type"),
    "action_tiles": N_("Action Tiles"),
    "objectives": N_("Secret Objectives"),
}
RENDERER.value_names = {
    "shape": {"4x4": N_("4×4 grid"), "5x4": N_("5×4 grid"), "cross": N_("cross"), "ring": N_("ring")},
}
# The result message (bot.endings): the scoring categories of the outcome's breakdown; tied players share.
RENDERER.score_categories = {"eggs": N_("Eggs"), "objective_points": N_("Secret Objective")}
