"""Reggverse Riddles pictures, made for a phone: the map, the eggs' rule rows, the players and, in a seat's
picture, that seat's hand and what its prompt lets it choose.

`render_board(view, names)` takes a view from `games.reggverse` (a seat's view may carry what its prompt
offers: `with_prompt`) and the players' names, and returns PNG bytes; every word is phrased from the view's
data through the catalogs (`bot.render.reggverse.words`), never from the engine's English.

Laid out for 400 px wide and tall rather than wide (bot.render.reggverse.parts has the sizes, colours and
marks): a header saying whose turn it is and what they are doing, the tile being played while it is
(its movement grid turned to the picture's side), the map, each egg type's rule row, the players, and in
a seat's picture its tiles and secret objective. Every egg type lying on a square is shown, with its
count. The public picture is drawn from the south (seat 1's side); a seat's picture is turned to that
seat's side, so "left half", "row" and the movement grids on its tiles read exactly as they do for that
player, and squares keep the one name everybody uses. A seat's picture also shows, beside each rule row, a
small map of the squares where that row hides its egg for that seat (rules are read from each player's
side), and says when the egg is hidden on its own square, and whether it would collect it there (not when
such an egg lies there already). Only what is in the view is drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.render.kit.paletted import Piece, canvas, mapped, paste
from bot.render.kit.phone import INK, UNIT, WHITE, fit, font, u
from bot.render.reggverse.panels import ACTION, TARGETS, Part, Sheet, hand, in_egg_order, nothing, players
from bot.render.reggverse.parts import (
    EGG_RGB,
    GOOD,
    HIGHLIGHT,
    KEPT,
    LOCKED,
    MARGIN,
    MUTED,
    PAPER,
    RGB,
    RULE_LINE,
    egg_mark,
    encode,
    move_grid,
    pawn,
    picture_palette,
    player_rgb,
    square_image,
    wrap,
)
from bot.texts.i18n import N_
from games.core import Prompt
from games.reggverse.board import geometry, matching_tiles

__all__ = ["draw_view", "encode", "render_board", "square_names", "with_prompt"]

WIDTH = u(UNIT)

STATUS = N_("Turn {turn}: {name} to play")
OVER = N_("Game over. Winner: {winners}")
SEAT_VIEW = N_("{name}'s view, from the {side}")
TABLE_VIEW = N_("Table view, from the south")
LOCK_NAMES = {
    "move": N_("movement locked by {name}"),
    "rules": N_("rules locked by {name}"),
    "actions": N_("actions locked by {name}"),
}
# What the current player is doing, by step kind (the engine's step ids are never shown).
DOING = {
    "play": N_("{name} chooses a tile to play"),
    "move": N_("{name} moves their pawn"),
    "teleport": N_("{name} moves their pawn"),
    "drop": N_("{name} drops an egg on their tile"),
    "drop_from": N_("{name} drops an egg on their tile"),
    "drop_egg": N_("{name} drops an egg on their tile"),
    "rule": N_("{name} places a rule"),
    "rule_egg": N_("{name} places a rule"),
    "rule_spot": N_("{name} places a rule"),
    "collect_from": N_("{name} collects eggs"),
    "guess": N_("Guessing their neighbours' objectives"),
}
ACTING = N_("{name} plays an action")
IN_PLAY = N_("Being played: tile {number}")
PILE = N_("{eggs}: {count} in the pile")
PILE_OUT = N_("{eggs}: pile out, no rules")
NO_RULES = N_(" (no rules: hidden nowhere)")
YOU_COLLECT = N_("Hidden on your tile: you would collect one")
LIES_THERE = N_("Hidden on your tile, but one lies there: not collected")
YOU_SIT = N_("you sit on this edge")
SOUTH_EDGE = N_("the south edge")


def render_board(view: dict[str, Any], names: Sequence[str] = ()) -> bytes:
    return encode(draw_view(view, names))


def square_names(shape: str) -> tuple[str, ...]:
    """Per square its one name for everybody (column letter and row number, from the south)."""
    return geometry(shape).names["south"]


def with_prompt(view: dict[str, Any], prompt: Prompt | None) -> dict[str, Any]:
    """A seat's view with what its picture marks for the prompt it must answer, read from the choices'
    data: the squares offered, the egg types (their rule rows), the rules a placement would cover, the
    players and the tiles of the hand offered."""
    if prompt is None or not prompt.choices:
        return view
    squares: set[int] = set()
    eggs: set[str] = set()
    covered: set[int] = set()
    seats: set[int] = set()
    tiles: set[int] = set()
    for choice in prompt.choices:
        data = choice.data
        what = data.get("what")
        if "cell" in data and what in ("square", "drop", "source"):
            squares.add(int(data["cell"]))
        elif what == "placement":
            if data.get("covered") is None:
                eggs.add(str(data["egg"]))
            else:
                covered.add(int(data["covered"]["id"]))
        elif what in ("egg", "drop") and "egg" in data:
            eggs.add(str(data["egg"]))
        elif what == "seat":
            seats.add(int(data["seat"]))
        elif what == "tile":
            tiles.add(int(data["tile"]["id"]))
    marks: dict[str, list[Any]] = {
        "squares": sorted(squares),
        "eggs": sorted(eggs),
        "covered": sorted(covered),
        "seats": sorted(seats),
        "tiles": sorted(tiles),
    }
    return {**view, TARGETS: marks}


def _turned(move: Sequence[int], holder: str, reader: str) -> tuple[int, int]:
    """A movement-grid offset read from `holder`'s side, as seen from `reader`'s side."""
    dx, dy = int(move[0]), int(move[1])
    to_south = {"south": (dx, dy), "north": (-dx, -dy), "west": (-dy, dx), "east": (dy, -dx)}[holder]
    sx, sy = to_south
    return {"south": (sx, sy), "north": (-sx, -sy), "west": (sy, -sx), "east": (-sy, sx)}[reader]


# --- the picture -----------------------------------------------------------------------------------------
def draw_view(view: dict[str, Any], names: Sequence[str] = ()) -> Image.Image:
    sheet = Sheet(view, names)
    parts = [_header(sheet), _playing(sheet), _board(sheet), _rows(sheet), players(sheet), hand(sheet)]
    height = MARGIN + sum(h for h, _ in parts) + MARGIN
    image, draw = canvas((WIDTH, u(height)), picture_palette(), PAPER)
    y: float = MARGIN
    for part_height, drawing in parts:
        drawing(image, draw, y)
        y += part_height
    if sheet.seat is not None:
        colour = player_rgb(sheet.seat)
        draw.rectangle((0, 0, image.width - 1, image.height - 1), outline=colour, width=u(4))
        draw.rectangle((u(4), u(4), image.width - 1 - u(4), image.height - 1 - u(4)), outline=INK, width=1)
    return image


def _header(sheet: Sheet) -> Part:
    view, words = sheet.view, sheet.words
    if view.get("finished"):
        winners = words.listing([words.player(s) for s in (view.get("outcome") or {}).get("winners", [])])
        status = words.t(OVER, winners=winners)
        doing = ""
    else:
        name = words.player(view["current"])
        status = words.t(STATUS, turn=words.number(view["turn"]), name=name)
        step = view.get("step") or {}
        kind = step.get("kind", "")
        if kind in DOING:
            doing = words.t(DOING[kind], name=name)
        else:
            doing = words.t(ACTING, name=name) if kind != "over" else ""
    if sheet.seat is not None:
        side = words.side(sheet.side).lower()
        who = words.t(SEAT_VIEW, name=words.player(sheet.seat), side=side)
    else:
        who = words.t(TABLE_VIEW)
    locks = view.get("locks") or {}
    held = words.in_turn([words.t(LOCK_NAMES[k], name=words.player(v)) for k, v in locks.items() if k in LOCK_NAMES])
    lock_lines = wrap(held, 11, sheet.text_width) if held else ()
    status_lines = wrap(status, 15, sheet.text_width - (0 if view.get("finished") else 26), True)
    lines: list[tuple[str, int, bool, Any]] = [(line, 15, True, INK) for line in status_lines]
    if doing:
        lines.append((doing, 12, False, INK))
    lines.append((who, 11, False, MUTED))
    lines += [(line, 11, False, LOCKED) for line in lock_lines]
    heights = [size * 1.45 for _, size, _, _ in lines]

    def drawing(image: Image.Image, draw: ImageDraw.ImageDraw, y: float) -> None:
        if not view.get("finished"):
            pawn(draw, view["current"], u(MARGIN + 10), u(y + 10), u(22))
        ty = y
        for (text, size, bold, colour), h in zip(lines, heights, strict=True):
            x = MARGIN + 26 if size == 15 and not view.get("finished") else MARGIN
            draw.text((u(x), u(ty)), fit(text, size, UNIT - MARGIN - x, bold), fill=colour, font=font(size, bold))
            ty += h

    return sum(heights) + 6, drawing


def _playing(sheet: Sheet) -> Part:
    """The tile being played, while its steps last: its movement grid turned to the picture's side (the
    green squares point where the pawn goes on this map) and its rule, or its action."""
    view, words = sheet.view, sheet.words
    tile = (view.get("step") or {}).get("tile_data")
    if not tile or view.get("finished"):
        return 0, nothing
    holder = view["sides"][view["current"]] if view.get("sides") else "south"
    grid = 13
    text_x = MARGIN + 8 + (3 * grid + 10 if tile["kind"] != "action" else 0)
    room = UNIT - MARGIN - 8 - text_x
    if tile["kind"] == "action":
        body = [
            (words.t(ACTION), True, LOCKED),
            *((line, False, INK) for line in wrap(words.action(tile["action"]), 12, room)),
        ]
    else:
        body = [(line, False, INK) for line in wrap(words.rule(tile["rule"]), 12, room)]
    title = words.t(IN_PLAY, number=words.number(tile["id"]))
    inner = max(3 * grid if tile["kind"] != "action" else 0, 17 * len(body))
    height = 8 + 16 + inner + 8

    def drawing(image: Image.Image, draw: ImageDraw.ImageDraw, y: float) -> None:
        box = (u(MARGIN), u(y), u(UNIT - MARGIN), u(y + height - 4))
        draw.rounded_rectangle(box, radius=u(6), fill=WHITE, outline=player_rgb(view["current"]), width=u(2.5))
        draw.text(
            (u(MARGIN + 8), u(y + 5)), fit(title, 11, UNIT - 2 * MARGIN - 16, True), fill=MUTED, font=font(11, True)
        )
        top = y + 5 + 17
        if tile["kind"] != "action":
            moves = [_turned(m, holder, sheet.side) for m in tile["moves"]]
            move_grid(draw, moves, u(MARGIN + 8), u(top), u(grid))
        for i, (line, bold, colour) in enumerate(body):
            draw.text((u(text_x), u(top + 17 * i)), line, fill=colour, font=font(12, bold))

    return height + 4, drawing


def _board(sheet: Sheet) -> Part:
    view, words, geo = sheet.view, sheet.words, sheet.geo
    board = view["board"]
    lw, lh = sheet.board_size
    cell = u(sheet.cell)
    x0 = (WIDTH - lw * cell) // 2
    targets = set(sheet.targets.get("squares", ()))

    labels = [words.tile_type(k) for k in board["types"]]
    local = geo.local[sheet.side]
    names = geo.names["south"]
    pawns: list[int] = board["pawns"]

    def square(c: int, faded: bool, owner: int | None) -> Piece:
        """Square `c` as it is (its type, name, eggs and pawn), under the fade when the prompt does not offer it."""

        def drawing(image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
            drawn, _ = mapped(square_image(board["types"][c], labels[c], names[c], cell, faded), picture_palette())
            image.paste(drawn, (0, 0))
            pawn_height = _square_eggs(draw, board["eggs"][c], 0, 0, cell, owner is not None)
            if owner is not None:
                corner = u(pawn_height * 0.62 + 1)  # the pawn's disc, when it is the reader's, fits the square
                pawn(draw, owner, cell - corner, cell - corner, u(pawn_height), mine=owner == sheet.seat)

        return drawing

    def drawing(image: Image.Image, draw: ImageDraw.ImageDraw, y: float) -> None:
        y0 = u(y)
        for c, (lx, ly) in enumerate(local):
            owner = pawns.index(c) if c in pawns else None
            faded = bool(targets) and c not in targets
            eggs = tuple(in_egg_order(board["eggs"][c]))
            key = ("square", board["types"][c], labels[c], names[c], cell, faded, eggs, owner, sheet.seat)
            piece = KEPT.piece(key, (cell, cell), picture_palette(), PAPER, square(c, faded, owner))
            image.paste(piece, (x0 + lx * cell, y0 + ly * cell))
        for c in sorted(targets):
            lx, ly = local[c]
            x, top = x0 + lx * cell, y0 + ly * cell
            draw.rounded_rectangle(
                (x - 1, top - 1, x + cell + 1, top + cell + 1), radius=u(7), outline=WHITE, width=u(2.5)
            )
            draw.rounded_rectangle(
                (x + u(2), top + u(2), x + cell - u(2), top + cell - u(2)), radius=u(6), outline=INK, width=u(2)
            )
        label = words.t(YOU_SIT) if sheet.seat is not None else words.t(SOUTH_EDGE)
        draw.text((WIDTH // 2, y0 + lh * cell + u(3)), label, fill=MUTED, font=font(10), anchor="ma")

    return sheet.cell * lh + 20, drawing


EGG_SIZE = {True: 14, False: 11}  # layout pixels: an egg mark on a square, on a big square (4 across) or not
EGG_ROW = {True: 17, False: 13}
PAWN_HEIGHTS = (30, 20)  # layout pixels: a pawn on a square, and on a square crowded with eggs


def _square_eggs(draw: ImageDraw.ImageDraw, eggs: dict[str, int], x: int, top: int, cell: int, pawn_here: bool) -> int:
    """Every egg type lying on a square, in the game's egg order: its mark, and its count beside it when
    more than one; rows fill the square under its name, leaving the pawn's corner free (a smaller pawn's
    when the eggs need the room). Returns the height of the pawn to draw there, in layout pixels."""
    count_font = font(10, True)
    big = cell >= u(86)
    size, step = EGG_SIZE[big], EGG_ROW[big]
    entries = [(egg, str(count) if count > 1 else "") for egg, count in in_egg_order(eggs)]
    widths = [u(size + 1) + (count_font.getlength(text) + u(2) if text else u(2)) for _, text in entries]
    rows = int((cell - u(16)) // u(step))
    places: list[tuple[float, int]] = []
    for pawn_height in PAWN_HEIGHTS if pawn_here else (0,):
        places = _flow(widths, x + u(5), x + cell - u(3), u(pawn_height * 1.24 + 2) if pawn_height else 0)
        if not places or places[-1][1] < rows:
            break
    for (egg, text), (ex, row) in zip(entries, places, strict=True):
        cy = top + u(16 + size / 2 + step * row)
        egg_mark(draw, egg, ex + u(size) / 2, cy, u(size))
        if text:
            draw.text((ex + u(size + 1), cy), text, fill=INK, font=count_font, anchor="lm")
    return pawn_height


def _flow(widths: Sequence[float], left: float, right: float, corner: float) -> list[tuple[float, int]]:
    """Where entries of `widths` go, in rows from `left` to `right` (`corner` less from the second row on:
    the pawn's corner): per entry its x and its row."""
    places: list[tuple[float, int]] = []
    ex, row = left, 0
    for width in widths:
        if ex + width > right - (corner if row >= 1 else 0) and ex > left:
            row += 1
            ex = left
        places.append((ex, row))
        ex += width
    return places


MINI = 8  # layout pixels per square of a rule row's small map


def collect_hint(view: dict[str, Any], egg: str, spots: Sequence[int]) -> str | None:
    """What a seat's picture says of `egg` whose row hides it on `spots` (for that seat): YOU_COLLECT when
    its own square is one of them and no such egg lies there (the rules let it collect one there),
    LIES_THERE when one does (the rules forbid it), None otherwise."""
    seat = view.get("seat")
    if seat is None:
        return None
    here = view["board"]["pawns"][seat]
    if here not in spots:
        return None
    return LIES_THERE if view["board"]["eggs"][here].get(egg, 0) else YOU_COLLECT


def _rows(sheet: Sheet) -> Part:
    """Each egg type's rule row: its mark, name and pile, and its rules; in a seat's picture, on the left,
    the small map of where the row hides it for that seat, and whether it is hidden on the seat's own square."""
    view, words = sheet.view, sheet.words
    board = view["board"]
    seat = sheet.seat
    here = board["pawns"][seat] if seat is not None else None
    lw, lh = sheet.board_size
    # Marked only when the prompt offers some and not all: a mark on everything tells nothing.
    in_play = [egg for egg in view["eggs"] if egg in board["rows"]]
    marked_eggs = set(sheet.targets.get("eggs", ()))
    if set(in_play) <= marked_eggs:
        marked_eggs = set()
    covered = set(sheet.targets.get("covered", ()))
    if {rule.get("id") for egg in in_play for rule in board["rows"][egg]} <= covered:
        covered = set()
    column = lw * MINI + 10 if seat is not None else 0  # a seat's picture: the rows' small maps on the left
    blocks = []
    for egg in view["eggs"]:
        row = board["rows"].get(egg)
        if row is None:
            head = words.t(PILE_OUT, eggs=words.egg_type(egg))
        else:
            head = words.t(PILE, eggs=words.egg_type(egg), count=words.number(view["piles"][egg]))
            if not row:
                head += words.t(NO_RULES)
        spots: list[int] = matching_tiles(board, egg, seat) if seat is not None and row else []
        hint = collect_hint(view, egg, spots)
        hint_colour = GOOD if hint == YOU_COLLECT else LOCKED
        room = sheet.text_width - column
        rule_lines = [(rule.get("id"), wrap(words.rule(rule), 11, room - 10)) for rule in row or []]
        hint_lines = wrap(words.t(hint), 11, room - 4) if hint else ()
        text_h = sum(15 * len(lines) + 2 for _, lines in rule_lines)
        height = max(20 + 15 * len(hint_lines) + text_h, lh * MINI + 8 if spots else 0) + 6
        blocks.append((egg, head, hint_lines, hint_colour, spots, rule_lines, height))

    def block(
        egg: str,
        head: str,
        hint_lines: tuple[str, ...],
        hint_colour: RGB,
        spots: list[int],
        rule_lines: list[tuple[Any, tuple[str, ...]]],
        height: float,
    ) -> Piece:
        def drawing(image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
            x, y = MARGIN + column, 0
            draw.line((u(MARGIN), u(y), u(UNIT - MARGIN), u(y)), fill=RULE_LINE, width=1)
            if egg in marked_eggs:
                box = (u(MARGIN - 4), u(y + 1), u(UNIT - MARGIN + 4), u(y + height - 2))
                draw.rounded_rectangle(box, radius=u(5), fill=HIGHLIGHT, outline=INK, width=u(1.5))
            if spots:
                _mini_map(image, sheet, egg, spots, here, MARGIN, y + 4)
            egg_mark(draw, egg, u(x + 7), u(y + 11), u(13))
            draw.text((u(x + 18), u(y + 3)), fit(head, 12, room - 20, True), fill=INK, font=font(12, True))
            ty = y + 20
            for line in hint_lines:
                draw.text((u(x + 4), u(ty)), line, fill=hint_colour, font=font(11, True))
                ty += 15
            for rule_id, lines in rule_lines:
                if rule_id in covered:
                    box = (u(x + 2), u(ty), u(UNIT - MARGIN), u(ty + 15 * len(lines) + 2))
                    draw.rounded_rectangle(box, radius=u(3), fill=HIGHLIGHT, outline=INK, width=u(1.5))
                for i, line in enumerate(lines):
                    draw.text((u(x + 4), u(ty + 1)), ("• " if i == 0 else "  ") + line, fill=INK, font=font(11))
                    ty += 15
                ty += 2

        return drawing

    def drawing(image: Image.Image, draw: ImageDraw.ImageDraw, y: float) -> None:
        for egg, head, hint_lines, hint_colour, spots, rule_lines, height in blocks:
            key = (  # everything the block is drawn from (its words are in the picture's language)
                "rule_row",
                egg,
                head,
                hint_lines,
                hint_colour,
                tuple(spots),
                here if spots else None,
                board["shape"] if spots else None,
                sheet.side if spots else None,
                tuple((rule_id, lines, rule_id in covered) for rule_id, lines in rule_lines),
                egg in marked_eggs,
                height,
                column,
                room,
            )
            piece = KEPT.piece(
                key, (WIDTH, u(height)), picture_palette(), PAPER, block(*key[1:5], spots, rule_lines, height)
            )
            image.paste(piece, (0, u(y)))
            y += height

    return sum(b[-1] for b in blocks) + 4, drawing


def _mini_map(
    image: Image.Image, sheet: Sheet, egg: str, spots: list[int], here: int | None, x: float, y: float
) -> None:
    """The map in small, turned like the big one: the squares where the row hides `egg` in its colour, the
    reader's own square ringed."""
    local = sheet.geo.local[sheet.side]
    mini = _mini(tuple(local), sheet.board_size, EGG_RGB.get(egg, MUTED), tuple(spots), here)
    paste(image, mini, (u(x), u(y)), picture_palette())


@lru_cache(maxsize=256)
def _mini(
    local: tuple[tuple[int, int], ...], size: tuple[int, int], colour: RGB, spots: tuple[int, ...], here: int | None
) -> Image.Image:
    """A rule row's small map, kept: it changes only when the board or the row does."""
    m = u(MINI)
    image = Image.new("RGB", (size[0] * m + 2, size[1] * m + 2), PAPER)
    draw = ImageDraw.Draw(image)
    for c, (lx, ly) in enumerate(local):
        bx, by = 1 + lx * m, 1 + ly * m
        draw.rectangle((bx, by, bx + m - 1, by + m - 1), fill=colour if c in spots else WHITE, outline=MUTED)
    if here is not None:
        lx, ly = local[here]
        bx, by = 1 + lx * m, 1 + ly * m
        draw.rectangle((bx - 1, by - 1, bx + m, by + m), outline=INK, width=3)
    return image
