"""The shapes of what the Reggverse Riddles engine hands out: choice data per prompt kind, views, events.

Renderers and the bot's texts read these fields (and `Prompt.kind` and `Prompt.info`) and phrase them
through the message catalogs; the English labels, prompt texts and "text" fields are for the terminal
and the logs only. Squares are numbers (index into the board's lists); a square's name is the
renderer's business (one name per square for everybody). Egg types, tile types, half sides and lines
are the keys of `games.reggverse.data`. Every egg list is in the game's egg order.

These are documentation that mypy checks where the engine builds them; at run time they are plain
dicts (JSON-serialisable), as every view and event must be.
"""

# No `from __future__ import annotations`: TypedDict reads NotRequired from evaluated annotations only,
# and the tests check views and choices against __required_keys__.
from typing import Literal, NotRequired, TypedDict

# --- rules and tiles -------------------------------------------------------------------------------


class Rule(TypedDict):
    """One rule: template 1..15 (see `board.rule_text`), its sense, its placeholders. `id` is its tile's
    id (negative for the stand-in starting rule), `text` the engine's English (views only)."""

    t: int
    neg: bool
    id: NotRequired[int]
    tile: NotRequired[str]  # a map tile type (templates 1, 6, 12)
    egg: NotRequired[str]  # an egg type (2, 7, 13)
    n: NotRequired[int]  # a count, 2 or 3 (3, 14, 15)
    side: NotRequired[str]  # left, right, top, bottom (4)
    line: NotRequired[str]  # row or column (12-15)
    text: NotRequired[str]


class Tile(TypedDict):
    """A tile of a hand, or the one being played. Regular: movement grid offsets [dx, dy] (dy < 0 is
    forward, from its holder's side) and a rule. Action: its kind (`data.ACTIONS`)."""

    id: int
    kind: Literal["regular", "action"]
    moves: NotRequired[list[list[int]]]
    rule: NotRequired[Rule]
    action: NotRequired[str]
    text: NotRequired[str]


class Objective(TypedDict):
    """A secret objective tile: its kind (`data.OBJECTIVES`) and the egg types it names."""

    id: int
    kind: str
    eggs: list[str]
    text: NotRequired[str]


# --- choice data, by prompt kind ------------------------------------------------------------------


class TileChoice(TypedDict):
    """play: a tile of the hand."""

    what: Literal["tile"]
    tile: Tile


class SquareChoice(TypedDict):
    """move, teleport, to_pile_from, shift_from, shift_to, spawn_to, swap, swap_with: a square, with what
    lies there when offered ([egg, count] pairs)."""

    what: Literal["square"]
    cell: int
    name: str  # the square's one name for everybody ("b3": column letter, row number, from the south)
    type: str
    eggs: list[tuple[str, int]]


class DropChoice(TypedDict):
    """drop: one egg and where it comes from (a square: with what lies there)."""

    what: Literal["drop"]
    egg: str
    source: Literal["pile", "mine", "square"]
    cell: NotRequired[int]
    name: NotRequired[str]
    type: NotRequired[str]
    eggs: NotRequired[list[tuple[str, int]]]


class SourceChoice(TypedDict):
    """drop_from, collect_from: where an egg comes from."""

    what: Literal["source"]
    source: Literal["pile", "mine", "square"]
    cell: NotRequired[int]
    name: NotRequired[str]
    type: NotRequired[str]
    eggs: NotRequired[list[tuple[str, int]]]


class EggChoice(TypedDict):
    """drop_egg, to_pile_egg, steal_egg, shift_egg, trade_give (no pile); rule_egg, cleanup, collect,
    switch, switch_with, spawn_egg, trade_get (with its pile's count): an egg type."""

    what: Literal["egg"]
    egg: str
    pile: NotRequired[int]


class PlacementChoice(TypedDict):
    """rule, rule_spot: next to an egg's rules (`covered` None) or on top of the rule `covered`."""

    what: Literal["placement"]
    egg: str
    covered: Rule | None


class SeatChoice(TypedDict):
    """steal_from: a player and how many eggs they have collected."""

    what: Literal["seat"]
    seat: int
    eggs: int


class DoneChoice(TypedDict):
    """shift_egg: stop moving eggs."""

    what: Literal["done"]


class ObjectiveChoice(TypedDict):
    """guess: an objective tile."""

    what: Literal["objective"]
    objective: Objective


ChoiceData = (
    TileChoice
    | SquareChoice
    | DropChoice
    | SourceChoice
    | EggChoice
    | PlacementChoice
    | SeatChoice
    | DoneChoice
    | ObjectiveChoice
)

# Prompt kind -> the `what` of its choices; Prompt.info carries "step", "tile" (id of the tile being
# played, or None) and per kind: rule/rule_egg/rule_spot "rule" (and rule_spot "egg"), drop_egg
# "source", collect_from "egg", to_pile_from/shift_egg/spawn_to "left", to_pile_egg "cell", steal_egg
# "seat", switch_with "egg", shift_to "from", shift_egg "from" and "to", spawn_to "egg", trade_get "egg"
# (the type given), swap_with "cell", guess "target" (a seat) and "which" (left/right).
CHOICES: dict[str, tuple[str, ...]] = {
    "play": ("tile",),
    "move": ("square",),
    "drop": ("drop",),
    "drop_from": ("source",),
    "drop_egg": ("egg",),
    "rule": ("placement",),
    "rule_egg": ("egg",),
    "rule_spot": ("placement",),
    "collect_from": ("source",),
    "cleanup": ("egg",),
    "collect": ("egg",),
    "teleport": ("square",),
    "to_pile_from": ("square",),
    "to_pile_egg": ("egg",),
    "switch": ("egg",),
    "switch_with": ("egg",),
    "steal_from": ("seat",),
    "steal_egg": ("egg",),
    "shift_from": ("square",),
    "shift_to": ("square",),
    "shift_egg": ("egg", "done"),
    "spawn_egg": ("egg",),
    "spawn_to": ("square",),
    "trade_give": ("egg",),
    "trade_get": ("egg",),
    "swap": ("square",),
    "swap_with": ("square",),
    "guess": ("objective",),
}


# --- views ----------------------------------------------------------------------------------------


class Board(TypedDict):
    shape: str  # a key of data.SHAPES
    width: int
    height: int
    cells: list[list[int]]  # per square its [x, y] seen from the south (seat 1's side)
    types: list[str]  # per square its map tile type
    eggs: list[dict[str, int]]  # per square the eggs lying there (read them in the game's egg order)
    pawns: list[int]  # per seat the square of its pawn
    rows: dict[str, list[Rule]]  # per egg in play its rule row (an egg whose pile ran out has none)


class Step(TypedDict):
    """What the current seat is doing: `kind` is the prompt kind or "play", "over", "guess"; `tile` the
    tile being played (and `tile_data` that tile), plus the step's own fields (egg, cell, left...)."""

    kind: str
    tile: NotRequired[int | None]
    tile_data: NotRequired[Tile]


class Outcome(TypedDict):
    scores: list[int]
    winners: list[int]
    ranking: list[int]
    breakdown: list[dict[str, object]]  # eggs, by_type, objective (text), objective_points, total
    out_order: list[str]
    turns: int


class View(TypedDict):
    game: str
    seat: int | None  # None: the public view
    side: str  # the side the view is drawn from (south for the public view)
    players: int
    sides: list[str]  # per seat its side
    neighbours: list[list[int]]  # per seat its [left, right] neighbour
    board: Board
    eggs: list[str]  # the egg types of this game, in order
    piles: dict[str, int]
    out_order: list[str]  # piles that ran out, first first
    collected: list[dict[str, int]]  # per seat its collected eggs
    scores: list[int]  # per seat its number of collected eggs
    hand_sizes: list[int]
    deck: int
    discard: int
    current: int
    turn: int
    step: Step
    locks: dict[str, int]  # "move" / "rules" / "actions" -> the seat that played it
    plays_left: int
    finished: bool
    options: dict[str, object]
    objective_list: NotRequired[list[str]]  # the objective tiles' English texts (objectives option)
    objective_tiles: NotRequired[list[Objective]]  # the same as data
    objectives: NotRequired[list[str | None]]  # at the end: each seat's objective (English)
    secret_objectives: NotRequired[list[Objective | None]]  # at the end: each seat's objective (data)
    hand: NotRequired[list[Tile]]  # a seat's view: its hand
    objective: NotRequired[Objective]  # a seat's view: its secret objective
    outcome: NotRequired[Outcome]


# --- events ----------------------------------------------------------------------------------------
# Every event is a dict with "type"; "seat" is the acting seat where there is one; an event with "to" is
# private to that seat. Squares are numbers, and beside each its one name for everybody ("square",
# "from_square", "source_square(s)", "squares"), so that a log line names it without the board. The types
# and their other fields:
EVENTS: dict[str, tuple[str, ...]] = {
    "played": ("seat", "tile"),  # tile: Tile
    "moved": ("seat", "from", "to", "square"),  # square: the name of `to`; "teleport": True for the action
    "stayed": ("seat", "cell", "square"),  # no destination: the pawn stays
    "move_locked": ("seat", "by"),  # the movement lock held by seat `by`
    "no_drop": ("seat",),
    "dropped": ("seat", "egg", "source", "cell", "square", "source_square"),  # source "pile", "mine", "c<square>"
    "rule_placed": ("seat", "egg", "tile", "rule", "covered", "text"),  # rule: Rule; covered: tile id or None
    "rule_discarded": ("seat", "tile", "reason"),
    "rule_locked": ("seat", "tile", "by"),
    # sources per egg: "pile" or "c<square>" (source_squares: their names or None); cell None: an action
    "collected": ("seat", "eggs", "sources", "source_squares", "cell"),
    "pile_out": ("egg", "rules_removed"),
    "row_cleared": ("egg", "because"),  # a row left pointing nowhere or everywhere when `because` ran out
    "drew": ("seat", "count"),
    "drew_tiles": ("to", "tiles"),  # private
    "reshuffled": ("tiles",),
    "no_tile": ("seat",),  # nothing it may play: the turn ends
    "locked": ("seat", "lock"),
    "lock_ended": ("seat", "lock"),
    "double_turn": ("seat",),
    "hand_discarded": ("seat", "count"),
    "no_effect": ("seat", "action"),
    "rules_cleared": ("seat", "egg"),
    "to_pile": ("seat", "egg", "cell", "square"),
    "rules_switched": ("seat", "eggs"),
    "stole": ("seat", "from", "egg"),
    "egg_moved": ("seat", "egg", "from", "to", "from_square", "square"),
    "egg_placed": ("seat", "egg", "cell", "square"),
    "traded": ("seat", "gave", "got", "returned"),  # returned: the 3 eggs went back to their pile
    "tiles_swapped": ("seat", "cells", "squares"),
    "guessing": ("seats",),
    "guessed": ("seat",),
    "game_over": ("scores", "winners"),
}
