"""Reggverse Riddles picture panels: the players with their collected eggs, and a seat's tiles and secret
objective; with the sheet every part of the picture is laid out on (bot.render.reggverse.picture draws the
rest and puts the parts together).

Each part is a (height, drawing) pair: its height in layout pixels, measured before the picture is made,
and the function that draws it from a layout y.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PIL import Image, ImageDraw

from bot.render.kit.paletted import Piece
from bot.render.kit.phone import INK, SCALE, UNIT, WHITE, fit, font, u
from bot.render.reggverse.parts import (
    FADED,
    HIGHLIGHT,
    KEPT,
    LOCKED,
    MARGIN,
    MUTED,
    OBJECTIVE,
    PAPER,
    RULE_LINE,
    egg_mark,
    move_grid,
    pawn,
    picture_palette,
    wrap,
)
from bot.render.reggverse.words import Words
from bot.texts.i18n import N_
from games.reggverse.board import geometry
from games.reggverse.data import EGG_COLOURS as ALL_EGGS

EGG_ORDER = {colour: i for i, colour in enumerate(ALL_EGGS)}
WIDTH = u(UNIT)
TARGETS = "_targets"  # what a seat's picture marks, added to its view by `reggverse_picture.with_prompt`

ACTION = N_("ACTION")
EGGS_OF = N_("{name}: {eggs} eggs")
EGGS_AND_POINTS = N_("{name}: {eggs} eggs, {points} pts")
YOU = N_("{name} (you)")
OBJECTIVE_OF = N_("{name}'s objective: {objective}")
YOUR_TILES = N_("Your tiles (movement as you see the map)")
TILE = N_("Tile {number}")
SECRET = N_("Secret objective: {objective}")

Drawing = Callable[[Image.Image, ImageDraw.ImageDraw, float], None]
Part = tuple[float, Drawing]  # (height in layout pixels, function drawing it at a layout y)


def nothing(image: Image.Image, draw: ImageDraw.ImageDraw, y: float) -> None:
    del image, draw, y


def in_egg_order(eggs: dict[str, int]) -> list[tuple[str, int]]:
    """Egg counts in the game's own egg order: a view's dicts may come in any order (a state reloaded from
    JSON has its own), and the same moment must always give the same picture."""
    return sorted(((e, n) for e, n in eggs.items() if n), key=lambda item: EGG_ORDER.get(item[0], len(EGG_ORDER)))


class Sheet:
    """The picture being laid out: parts are measured first (their heights), then drawn top to bottom."""

    def __init__(self, view: dict[str, Any], names: Sequence[str]) -> None:
        self.view = view
        self.words = Words(None, names)
        self.seat: int | None = view.get("seat")
        self.side: str = view["side"] if self.seat is not None else "south"
        self.targets: dict[str, list[Any]] = view.get(TARGETS) or {}
        board = view["board"]
        self.geo = geometry(board["shape"])
        lw, lh = self.geo.local_size[self.side]
        self.cell = min(90, (UNIT - 2 * MARGIN) // lw)  # layout pixels per square
        self.board_size = (lw, lh)
        self.text_width = UNIT - 2 * MARGIN


def _marks_width(collected: dict[str, int]) -> float:
    """The width, in layout pixels, of a player's collected eggs drawn by `_marks`."""
    count_font = font(10, True)
    return sum(17 + (count_font.getlength(str(n)) / SCALE if n > 1 else 0) for _, n in in_egg_order(collected))


def _marks(draw: ImageDraw.ImageDraw, collected: dict[str, int], x: float, cy: float) -> None:
    """A player's collected eggs from layout x: each type's mark and, past one, its count."""
    count_font = font(10, True)
    ex: float = u(x)
    for egg, count in in_egg_order(collected):
        egg_mark(draw, egg, ex + u(6), u(cy), u(12))
        ex += u(13)
        if count > 1:
            draw.text((ex, u(cy)), str(count), fill=INK, font=count_font, anchor="lm")
            ex += count_font.getlength(str(count))
        ex += u(4)


def players(sheet: Sheet) -> Part:
    """One line per player: their pawn, name and eggs (and points at the end), their collected eggs on the
    right, or on a line of their own when both do not fit; then the objectives revealed at the end."""
    view, words = sheet.view, sheet.words
    totals = (view.get("outcome") or {}).get("scores")
    marked = set(sheet.targets.get("seats", ()))
    line_h = 24
    entries = []
    for s, collected in enumerate(view["collected"]):
        name = words.player(s)
        if s == sheet.seat:
            name = words.t(YOU, name=name)
        eggs = words.number(view["scores"][s])
        if totals is not None:
            text = words.t(EGGS_AND_POINTS, name=name, eggs=eggs, points=words.number(totals[s]))
        else:
            text = words.t(EGGS_OF, name=name, eggs=eggs)
        marks = _marks_width(collected)
        room = sheet.text_width - 22 - marks - 8
        one_line = font(12).getlength(text) <= u(room)
        entries.append((s, collected, text, marks, one_line, line_h if one_line or not marks else line_h + 18))
    objectives = [(s, o) for s, o in enumerate(view.get("secret_objectives") or []) if o is not None]
    objective_lines = [
        wrap(words.t(OBJECTIVE_OF, name=words.player(s), objective=words.objective(o)), 11, sheet.text_width)
        for s, o in objectives
    ]

    def player_line(s: int, collected: dict[str, int], text: str, marks: float, one_line: bool, height: float) -> Piece:
        def drawing(image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
            if s in marked:
                box = (u(MARGIN - 4), 0, u(UNIT - MARGIN + 4), u(height - 1))
                draw.rounded_rectangle(box, radius=u(5), fill=HIGHLIGHT, outline=INK, width=u(1.5))
            cy = line_h / 2
            pawn(draw, s, u(MARGIN + 8), u(cy), u(19), mine=s == sheet.seat)
            draw.text(
                (u(MARGIN + 22), u(cy)), fit(text, 12, sheet.text_width - 22), fill=INK, font=font(12), anchor="lm"
            )
            if one_line:
                _marks(draw, collected, UNIT - MARGIN - marks, cy)
            else:
                _marks(draw, collected, MARGIN + 22, cy + 19)

        return drawing

    def drawing(image: Image.Image, draw: ImageDraw.ImageDraw, y: float) -> None:
        draw.line((u(MARGIN), u(y), u(UNIT - MARGIN), u(y)), fill=RULE_LINE, width=2)
        y += 4
        for s, collected, text, marks, one_line, height in entries:
            shown = tuple(in_egg_order(collected))
            key = ("player", s, s == sheet.seat, s in marked, text, shown, one_line, height, sheet.text_width)
            piece = player_line(s, collected, text, marks, one_line, height)
            image.paste(KEPT.piece(key, (WIDTH, u(height)), picture_palette(), PAPER, piece), (0, u(y)))
            y += height
        y += 4
        for lines in objective_lines:
            for line in lines:
                draw.text((u(MARGIN), u(y)), line, fill=OBJECTIVE, font=font(11))
                y += 15

    height = 8 + sum(e[-1] for e in entries) + sum(15 * len(lines) for lines in objective_lines) + 4
    return height, drawing


HAND_COLUMNS = 2
GRID = 12  # layout pixels per square of a hand tile's movement grid


def hand(sheet: Sheet) -> Part:
    view, words = sheet.view, sheet.words
    hand = view.get("hand") if sheet.seat is not None else None
    objective = view.get("objective") if sheet.seat is not None else None
    if hand is None and not objective:
        return 0, nothing
    hand = hand or []
    offered = sheet.targets.get("tiles") or None  # a prompt for a tile of the hand: the others are faded
    width = (sheet.text_width - 8 * (HAND_COLUMNS - 1)) / HAND_COLUMNS
    cards = []
    for tile in hand:
        if tile["kind"] == "action":
            lines = [
                (words.t(ACTION), True, LOCKED),
                *((t, False, INK) for t in wrap(words.action(tile["action"]), 11, width - 14)),
            ]
            text_x = 7
        else:
            text_x = 7 + 3 * GRID + 6
            lines = [(t, False, INK) for t in wrap(words.rule(tile["rule"]), 11, width - text_x - 6)]
        inner = max(3 * GRID if tile["kind"] != "action" else 0, 15 * len(lines))
        cards.append((tile, lines, text_x, 20 + inner + 8))
    rows = [cards[i : i + HAND_COLUMNS] for i in range(0, len(cards), HAND_COLUMNS)]
    row_heights = [max(c[-1] for c in row) for row in rows]
    secret = (
        wrap(words.t(SECRET, objective=words.objective(objective)), 12, sheet.text_width, True) if objective else ()
    )
    title_h = 22 if hand else 0
    height = 6 + title_h + sum(h + 8 for h in row_heights) + 16 * len(secret) + 4

    def card(
        label: str,
        moves: tuple[tuple[int, int], ...] | None,
        lines: list[tuple[str, bool, Any]],
        text_x: float,
        width: float,
        row_h: float,
        chosen: bool,
        refused: bool,
    ) -> Piece:
        def drawing(image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
            fill = FADED if refused else WHITE
            draw.rounded_rectangle(
                (0, 0, u(width), u(row_h)), radius=u(6), fill=fill, outline=INK, width=u(2.5) if chosen else 2
            )
            draw.text((u(7), u(4)), label, fill=MUTED, font=font(10))
            if moves is not None:
                move_grid(draw, moves, u(7), u(20), u(GRID))
            for j, (line, bold, colour) in enumerate(lines):
                draw.text((u(text_x), u(20 + 15 * j)), line, fill=colour, font=font(11, bold))

        return drawing

    def drawing(image: Image.Image, draw: ImageDraw.ImageDraw, y: float) -> None:
        draw.line((u(MARGIN), u(y), u(UNIT - MARGIN), u(y)), fill=RULE_LINE, width=2)
        y += 6
        if hand:
            draw.text(
                (u(MARGIN), u(y)), fit(words.t(YOUR_TILES), 12, sheet.text_width, True), fill=INK, font=font(12, True)
            )
            y += title_h
        for row, row_h in zip(rows, row_heights, strict=True):
            for i, (tile, lines, text_x, _) in enumerate(row):
                x = MARGIN + i * (width + 8)
                chosen = offered is not None and tile["id"] in offered
                refused = offered is not None and not chosen
                label = words.t(TILE, number=words.number(tile["id"]))
                moves = tuple((int(m[0]), int(m[1])) for m in tile["moves"]) if tile["kind"] != "action" else None
                key = ("tile", label, moves, tuple(lines), text_x, width, row_h, chosen, refused)
                size = (u(width) + 1, u(row_h) + 1)
                piece = card(label, moves, lines, text_x, width, row_h, chosen, refused)
                image.paste(KEPT.piece(key, size, picture_palette(), PAPER, piece), (u(x), u(y)))
            y += row_h + 8
        for line in secret:
            draw.text((u(MARGIN), u(y)), line, fill=OBJECTIVE, font=font(12, True))
            y += 16

    return height, drawing
