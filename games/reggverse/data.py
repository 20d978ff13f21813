"""The material of Reggverse Riddles: map tiles, eggs, rule templates, action tiles, secret objectives.

Numbers come from the game's public material generator (see design/GAME_DATA.md). Everything that is
random per game (which placeholders a tile gets, which movement squares are green) is generated from
the game seed in `games.reggverse.material`.
"""

from __future__ import annotations

# Map tiles: 8 types, 4 of each in the box.
TILE_TYPES: tuple[str, ...] = ("empty", "tree", "cave", "dragon", "well", "witch", "statue", "tower")
MAP_TILES_PER_TYPE = 4

# Egg colours: the first 6 are the default game; 8 exist.
EGG_COLOURS: tuple[str, ...] = ("red", "green", "yellow", "blue", "orange", "cyan", "purple", "pink")
DEFAULT_EGG_TYPES = 6
DEFAULT_TOKENS = 10

HAND_SIZE = 4
REGULAR_TILES = 45

# Map shapes offered as an option. Each is a set of (x, y) squares, x to the east, y to the south,
# as seen from seat 1's (south) side. Every shape stays at or under 21 squares so that any prompt
# listing squares (+2 extra choices) fits in a Discord select (25 options).
SHAPES: dict[str, tuple[tuple[int, int], ...]] = {
    "4x4": tuple((x, y) for y in range(4) for x in range(4)),
    "5x4": tuple((x, y) for y in range(4) for x in range(5)),
    "cross": tuple((x, y) for y in range(5) for x in range(5) if (x, y) not in {(0, 0), (4, 0), (0, 4), (4, 4)}),
    "ring": tuple((x, y) for y in range(5) for x in range(5) if x in (0, 4) or y in (0, 4)),
}
DEFAULT_SHAPE = "4x4"

# Rule templates: number -> the publisher's `prob` for each of its entries, in hundredths (1 unless the
# material says otherwise; integers keep the draw exact). The publisher's generator expands every template
# into one entry per filled-in placeholder and per wording, and draws each rule tile among those ENTRIES
# with weight `prob`: a template's share of the deck is `prob` x its number of entries (see
# `material.template_weights`). A template without placeholders is one entry, printed in its first wording.
TEMPLATE_WEIGHTS: dict[int, int] = {
    1: 100,
    2: 100,
    3: 100,
    4: 100,
    5: 250,
    6: 100,
    7: 100,
    8: 100,
    9: 150,
    10: 125,
    11: 20,
    12: 33,
    13: 33,
    14: 100,
    15: 100,
}
NO_OPPOSITE: frozenset[int] = frozenset({11})
# Which placeholders each template uses.
TEMPLATE_PARAMS: dict[int, tuple[str, ...]] = {
    1: ("tile",),
    2: ("egg",),
    3: ("n",),
    4: ("side",),
    5: (),
    6: ("tile",),
    7: ("egg",),
    8: (),
    9: (),
    10: (),
    11: (),
    12: ("tile", "line"),
    13: ("egg", "line"),
    14: ("n", "line"),
    15: ("n", "line"),
}
HALF_SIDES: tuple[str, ...] = ("left", "right", "top", "bottom")
LINES: tuple[str, ...] = ("row", "column")
NUMBERS: tuple[int, ...] = (2, 3)

# Action tiles (expansion): kind -> copies. 20 tiles, 16 kinds.
ACTIONS: dict[str, int] = {
    "cleanup": 2,
    "double": 1,
    "collect": 1,
    "refresh": 1,
    "teleport": 2,
    "to_pile": 2,
    "switch": 1,
    "steal": 1,
    "shift": 1,
    "spawn": 1,
    "lock_move": 1,
    "lock_rules": 1,
    "lock_actions": 1,
    "trade": 1,
    "draw3": 1,
    "swap": 2,
}
ACTION_TEXT: dict[str, str] = {
    "cleanup": "Cleanup: remove all rules of one egg",
    "double": "Double turn: play 2 more tiles",
    "collect": "Collect any: take 1 egg from a pile or a tile",
    "refresh": "Hand refresh: discard your hand, draw 4",
    "teleport": "Teleport: move to any free tile",
    "to_pile": "Back to pile: 3 eggs from the board to their piles",
    "switch": "Switch rules: two eggs swap rule rows",
    "steal": "Steal: take 1 egg another player collected",
    "shift": "Move up to 3 eggs from one tile to another",
    "spawn": "Move 3 eggs from a pile onto tiles",
    "lock_move": "Movement lock: nobody moves until your next turn",
    "lock_rules": "Rules lock: nobody changes rules until your next turn",
    "lock_actions": "Actions lock: nobody plays actions until your next turn",
    "trade": "Trade 3 eggs of one type for 1 of another",
    "draw3": "Draw 3 more tiles",
    "swap": "Swap two map tiles with their contents",
}
LOCKS: dict[str, str] = {"lock_move": "move", "lock_rules": "rules", "lock_actions": "actions"}

# Secret objectives (expansion): template -> copies (22 tiles from 13 templates). The material lists
# the templates, not the copies; templates with egg placeholders get the extra copies so that the 22
# tiles stay distinct.
OBJECTIVES: dict[str, int] = {
    "five_of_two": 3,
    "four_of_one": 1,
    "one_each": 1,
    "two_of_three": 2,
    "beat_left": 1,
    "fewest": 1,
    "most_of": 2,
    "fewest_of": 2,
    "out_first": 2,
    "out_last": 2,
    "guess": 1,
    "double_but": 2,
    "max_two": 2,
}
OBJECTIVE_EGGS: dict[str, int] = {
    "five_of_two": 2,
    "two_of_three": 3,
    "most_of": 1,
    "fewest_of": 1,
    "out_first": 1,
    "out_last": 1,
    "double_but": 2,
}
