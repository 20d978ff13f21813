"""Reggverse Riddles in words: every phrase a player reads, built from the engine's data through the catalogs.

Nothing here reads the engine's English (choice labels, prompt texts, the "text" of rules and tiles):
rules are phrased from their template, sense and placeholders; squares from their names and contents;
action tiles and objectives from their kinds; players by their display names. English is the msgids.

Grammar stays inside the catalog entries (issue 22). An egg colour is inserted bare only right after the
word "egg" in the singular with no article before it ("no {egg} egg", "{egg} egg from its pile",
context "egg", masculine singular in Italian and French); an egg or a tile with its indefinite article is
a whole phrase per colour or tile type ("an orange egg": "un uovo arancione"; "an empty tile": "una
tessera vuota"), since the article depends on the word that follows it in English ("a"/"an") and on the
noun's gender in Italian and French; counted eggs, an egg type's row and its pile are whole phrases per
colour too ("{count} red eggs": "2 uova rosse"; "red row": "riga delle uova rosse"; "red pile": "pile
des œufs rouges"), so templates only add the words that agree with the fixed noun they begin with.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.texts import i18n
from bot.texts.i18n import N_, NN_, NP_

# --- egg colours ---------------------------------------------------------------------------------------
EGG_COLOURS = {  # after "egg", singular: "a red egg"
    "red": NP_("egg", "red"),
    "green": NP_("egg", "green"),
    "yellow": NP_("egg", "yellow"),
    "blue": NP_("egg", "blue"),
    "orange": NP_("egg", "orange"),
    "cyan": NP_("egg", "cyan"),
    "purple": NP_("egg", "purple"),
    "pink": NP_("egg", "pink"),
}
# TRANSLATORS: an egg of this colour with its indefinite article, as in "My tile has an orange egg" or
# "Ada drops an orange egg on b3".
AN_EGGS = {  # "{an_egg}": the article goes with the colour word ("a red egg", "an orange egg")
    "red": NP_("an-egg", "a red egg"),
    "green": NP_("an-egg", "a green egg"),
    "yellow": NP_("an-egg", "a yellow egg"),
    "blue": NP_("an-egg", "a blue egg"),
    "orange": NP_("an-egg", "an orange egg"),
    "cyan": NP_("an-egg", "a cyan egg"),
    "purple": NP_("an-egg", "a purple egg"),
    "pink": NP_("an-egg", "a pink egg"),
}
EGG_COUNTS = {
    "red": NN_("{count} red egg", "{count} red eggs"),
    "green": NN_("{count} green egg", "{count} green eggs"),
    "yellow": NN_("{count} yellow egg", "{count} yellow eggs"),
    "blue": NN_("{count} blue egg", "{count} blue eggs"),
    "orange": NN_("{count} orange egg", "{count} orange eggs"),
    "cyan": NN_("{count} cyan egg", "{count} cyan eggs"),
    "purple": NN_("{count} purple egg", "{count} purple eggs"),
    "pink": NN_("{count} pink egg", "{count} pink eggs"),
}
EGG_TYPES = {  # an egg type as a heading: "Red eggs: 10 in the pile"
    "red": NP_("eggs", "Red eggs"),
    "green": NP_("eggs", "Green eggs"),
    "yellow": NP_("eggs", "Yellow eggs"),
    "blue": NP_("eggs", "Blue eggs"),
    "orange": NP_("eggs", "Orange eggs"),
    "cyan": NP_("eggs", "Cyan eggs"),
    "purple": NP_("eggs", "Purple eggs"),
    "pink": NP_("eggs", "Pink eggs"),
}
EGGS_OF = {  # eggs of a colour, in a sentence: "more green eggs", "plus d'œufs verts" (the colour agrees)
    "red": NP_("eggs-of", "red eggs"),
    "green": NP_("eggs-of", "green eggs"),
    "yellow": NP_("eggs-of", "yellow eggs"),
    "blue": NP_("eggs-of", "blue eggs"),
    "orange": NP_("eggs-of", "orange eggs"),
    "cyan": NP_("eggs-of", "cyan eggs"),
    "purple": NP_("eggs-of", "purple eggs"),
    "pink": NP_("eggs-of", "pink eggs"),
}
EGG_ROWS = {  # "the {row}", "to the {row}": the row noun fixes the article
    "red": NP_("row", "red row"),
    "green": NP_("row", "green row"),
    "yellow": NP_("row", "yellow row"),
    "blue": NP_("row", "blue row"),
    "orange": NP_("row", "orange row"),
    "cyan": NP_("row", "cyan row"),
    "purple": NP_("row", "purple row"),
    "pink": NP_("row", "pink row"),
}
EGG_PILES = {  # "the {pile}"
    "red": NP_("pile", "red pile"),
    "green": NP_("pile", "green pile"),
    "yellow": NP_("pile", "yellow pile"),
    "blue": NP_("pile", "blue pile"),
    "orange": NP_("pile", "orange pile"),
    "cyan": NP_("pile", "cyan pile"),
    "purple": NP_("pile", "purple pile"),
    "pink": NP_("pile", "pink pile"),
}

# --- the board -------------------------------------------------------------------------------------------
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
# TRANSLATORS: a map tile of this type with its indefinite article, as in "I'm next to an empty tile".
A_TILES = {  # "{a_tile}": the article goes with the type word ("a tree tile", "an empty tile")
    "empty": NP_("a-tile", "an empty tile"),
    "tree": NP_("a-tile", "a tree tile"),
    "cave": NP_("a-tile", "a cave tile"),
    "dragon": NP_("a-tile", "a dragon tile"),
    "well": NP_("a-tile", "a well tile"),
    "witch": NP_("a-tile", "a witch tile"),
    "statue": NP_("a-tile", "a statue tile"),
    "tower": NP_("a-tile", "a tower tile"),
}
HALVES = {
    "left": NP_("half", "left"),
    "right": NP_("half", "right"),
    "top": NP_("half", "top"),
    "bottom": NP_("half", "bottom"),
}
LINES = {"row": NP_("line", "row"), "column": NP_("line", "column")}
SIDE_NAMES = {"south": N_("South"), "north": N_("North"), "west": N_("West"), "east": N_("East")}
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

# --- rules, action tiles, objectives -------------------------------------------------------------------
RULES: dict[tuple[int, bool], str] = {  # (template, opposite sense) -> text; English is the engine's
    (1, False): N_("My tile is {tile}"),
    (1, True): N_("My tile is not {tile}"),
    (2, False): N_("My tile has {an_egg}"),
    (2, True): N_("My tile has no {egg} egg"),
    (3, False): N_("My tile has at least {n} eggs"),
    (3, True): N_("My tile has at most {n} eggs"),
    (4, False): N_("My tile is in the {side} half"),
    (4, True): N_("My tile is not in the {side} half"),
    (5, False): N_("My tile has no duplicate eggs"),
    (5, True): N_("My tile has only eggs of one type"),
    (6, False): N_("I'm next to {a_tile}"),
    (6, True): N_("I'm not next to {a_tile}"),
    (7, False): N_("I'm next to {an_egg}"),
    (7, True): N_("I'm not next to {an_egg}"),
    (8, False): N_("I'm next to a tile with a pawn"),
    (8, True): N_("I'm not next to a tile with a pawn"),
    (9, False): N_("All my neighbour tiles have different type"),
    (9, True): N_("All my neighbour tiles have the same type"),
    (10, False): N_("All my neighbour tiles have different egg types"),
    (10, True): N_("All my neighbour tiles have the same egg types"),
    (11, False): N_("My tile matches the rules of all other eggs"),
    (12, False): N_("There's {a_tile} in my {line}"),
    (12, True): N_("There's no {tile} tile in my {line}"),
    (13, False): N_("There's {an_egg} in my {line}"),
    (13, True): N_("There's no {egg} egg in my {line}"),
    (14, False): N_("At most {n} eggs in my {line}"),
    (14, True): N_("At least {n} eggs in my {line}"),
    (15, False): N_("At least {n} pawns in my {line}"),
    (15, True): N_("At most {n} pawns in my {line}"),
}
ACTION_TILES = {  # English is the engine's data.ACTION_TEXT
    "cleanup": N_("Cleanup: remove all rules of one egg"),
    "double": N_("Double turn: play 2 more tiles"),
    "collect": N_("Collect any: take 1 egg from a pile or a tile"),
    "refresh": N_("Hand refresh: discard your hand, draw 4"),
    "teleport": N_("Teleport: move to any free tile"),
    "to_pile": N_("Back to pile: 3 eggs from the board to their piles"),
    "switch": N_("Switch rules: two eggs swap rule rows"),
    "steal": N_("Steal: take 1 egg another player collected"),
    "shift": N_("Move up to 3 eggs from one tile to another"),
    "spawn": N_("Move 3 eggs from a pile onto tiles"),
    "lock_move": N_("Movement lock: nobody moves until your next turn"),
    "lock_rules": N_("Rules lock: nobody changes rules until your next turn"),
    "lock_actions": N_("Actions lock: nobody plays actions until your next turn"),
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
    "most_of": N_("+5 if you have more {eggs} than both neighbours"),
    "fewest_of": N_("+7 if you have fewer {eggs} than both neighbours"),
    "out_first": N_("+7 if the {pile} runs out first"),
    "out_last": N_("+10 if the {pile} runs out last"),
    "guess": N_("+10 if you correctly guess both neighbours' objectives"),
    "double_but": N_("Each egg is worth 2, but {eggs} eggs are worth -5"),
    "max_two": N_("+7 if you hold no egg type more than twice"),
}
EITHER = N_("{first} or {second}")

# --- prompts -----------------------------------------------------------------------------------------------
PROMPTS = {
    "play": N_("Which tile do you play?"),
    "move": N_("Where does your pawn move?"),
    "drop": N_("Which egg do you drop on your tile?"),
    "drop_from": N_("Take the egg to drop on your tile from where?"),
    "drop_egg": N_("Which egg?"),
    "to_pile_egg": N_("Which egg?"),
    "steal_egg": N_("Which egg?"),
    "cleanup": N_("Clear the rules of which egg?"),
    "collect": N_("Collect which egg?"),
    "teleport": N_("Teleport to which tile?"),
    "switch": N_("Which egg's rule row switches places?"),
    "steal_from": N_("Steal an egg from whom?"),
    "shift_from": N_("Move eggs from which tile?"),
    "shift_to": N_("Move them to which tile?"),
    "spawn_egg": N_("Take 3 eggs from which pile?"),
    "trade_give": N_("Trade 3 eggs of which type?"),
    "trade_get": N_("Get one egg of which type?"),
    "swap": N_("Which map tile swaps places?"),
    "swap_with": N_("Swap it with which map tile?"),
}
RULE_GOES = N_("Where does the rule “{rule}” go?")
RULE_EGG = N_("Which egg gets the rule “{rule}”?")
RULE_SPOT = N_("Where in the {row}?")
COLLECT_FROM = N_("Collect the {egg} egg from where?")
SWITCH_WITH = N_("Switch the {row} with which egg's row?")
TO_PILE_FROM = NN_(
    "Send an egg back to its pile from which tile? ({left} left)",
    "Send an egg back to its pile from which tile? ({left} left)",
)
SHIFT_EGG = NN_("Which egg moves? ({left} left)", "Which egg moves? ({left} left)")
SPAWN_TO = NN_("Put the {egg} egg on which tile? ({left} left)", "Put the {egg} egg on which tile? ({left} left)")
GUESS = {
    "left": N_("Guess the secret objective of {name}, your left neighbour"),
    "right": N_("Guess the secret objective of {name}, your right neighbour"),
}

# --- choices -----------------------------------------------------------------------------------------------
TILE_CHOICE = N_("Tile {number}: {rule}")
ACTION_CHOICE = N_("Action: {action}")
SQUARE = N_("{name} {type}")
SQUARE_WITH = N_("{name} {type} ({eggs})")
DROP_FROM_PILE = N_("{egg} egg from its pile")
DROP_FROM_MINE = N_("{egg} egg from your collected eggs")
DROP_FROM_SQUARE = N_("{egg} egg from tile {square}")
FROM_PILE = N_("From its pile")
FROM_MINE = N_("From your collected eggs")
FROM_SQUARE = N_("From tile {square}")
EGG = N_("{egg} egg")
EGG_IN_PILE = NN_("{egg} egg ({count} in the pile)", "{egg} egg ({count} in the pile)")
GIVE = N_("Give {eggs}")
NEXT_TO = N_("{eggs}: next to their rules")
ON_TOP = N_("{eggs}: on top of “{rule}”")
PLAYER_EGGS = NN_("{name} ({count} egg)", "{name} ({count} eggs)")
DONE = N_("Done moving eggs")

# --- the log -------------------------------------------------------------------------------------------------
PLAYED = N_("{who} plays tile {tile}: {rule}")
PLAYED_ACTION = N_("{who} plays an action: {action}")
MOVED = N_("{who} moves to {square}")
TELEPORTED = N_("{who} teleports to {square}")
STAYED = N_("{who} cannot move and stays on {square}")
MOVE_LOCKED = N_("{who} cannot move: the movement lock holds")
NO_DROP = N_("{who} has no egg to drop")
DROPPED = {
    "pile": N_("{who} drops {an_egg} on {square}, from its pile"),
    "mine": N_("{who} drops {an_egg} on {square}, from their collected eggs"),
    "square": N_("{who} drops {an_egg} on {square}, taken from {source}"),
}
RULE_NEXT = N_("{who} adds “{rule}” to the {row}")
RULE_ON_TOP = N_("{who} puts “{rule}” on top of a rule of the {row}")
RULE_DISCARDED = N_("{who} plays a rule that fits nowhere: the tile is discarded")
RULE_LOCKED = N_("{who} cannot place a rule: the rules lock holds")
COLLECTED = N_("{who} collects {eggs}")
AN_EGG_FROM = N_("{an_egg} from {square}")
PILE_OUT = N_("The {pile} is empty: its rules are removed")
ROW_CLEARED = N_("The {row} would point nowhere or everywhere: its rules are removed")
NO_TILE = N_("{who} has no tile they may play: the turn passes")
LOCKED = {
    "move": N_("{who} locks movement for everybody until their next turn"),
    "rules": N_("{who} locks the rules for everybody until their next turn"),
    "actions": N_("{who} locks action tiles for everybody until their next turn"),
}
LOCK_ENDED = {
    "move": N_("The movement lock ends"),
    "rules": N_("The rules lock ends"),
    "actions": N_("The actions lock ends"),
}
DOUBLE_TURN = N_("{who} plays 2 more tiles this turn")
HAND_DISCARDED = NN_(
    "{who} discards their hand ({count} tile) and draws again",
    "{who} discards their hand ({count} tiles) and draws again",
)
NO_EFFECT = N_("{who}'s action has no effect")
RULES_CLEARED = N_("{who} clears the {row}")
TO_PILE = N_("{who} sends {an_egg} from {square} back to its pile")
RULES_SWITCHED = N_("{who} switches the {row} with the {other_row}")
STOLE = N_("{who} steals {an_egg} from {other}")
EGG_MOVED = N_("{who} moves {an_egg} from {source} to {square}")
EGG_PLACED = N_("{who} puts {an_egg} from its pile on {square}")
TRADED = {
    True: N_("{who} trades {eggs}, back to their pile, for {an_egg}"),
    False: N_("{who} trades {eggs}, out of the game, for {an_egg}"),
}
TILES_SWAPPED = N_("{who} swaps the map tiles {square} and {other}")
GUESSING = N_("Guessing their neighbours' objectives: {names}")
GAME_OVER = N_("Game over: {scores}")
SCORE = N_("{name} {score}")
PLAYER = N_("Player {number}")  # a seat with no name (never in a real table: the bot names every seat)


class Words:
    """Catalog look-ups for one audience: a reader's language (`Words(lang)`) or the picture being drawn
    (`Words(None)`, whose language travels with `i18n.picture_language`), and the players' names."""

    def __init__(self, lang: str | None, names: Sequence[str] = ()) -> None:
        self.lang = lang
        self.names = names

    # --- catalog access ---------------------------------------------------------------------------
    def t(self, message: str, /, **params: Any) -> str:
        return i18n.t(self.lang, message, **params) if self.lang is not None else i18n.pt(message, **params)

    def tp(self, context: str, message: str) -> str:
        return i18n.tp(self.lang, context, message) if self.lang is not None else i18n.ptp(context, message)

    def tn(self, forms: tuple[str, str], count: int, /, **params: Any) -> str:
        lang = self.lang if self.lang is not None else i18n.picture_lang()
        return i18n.tn(lang, forms, count, **params)

    def number(self, value: int) -> str:
        lang = self.lang if self.lang is not None else i18n.picture_lang()
        return i18n.number(lang, value)

    def listing(self, items: Sequence[str]) -> str:
        lang = self.lang if self.lang is not None else i18n.picture_lang()
        return i18n.listing(lang, items)

    def in_turn(self, items: Sequence[str]) -> str:
        """Items separated by semicolons, spaced as the language wants (`i18n.in_turn`)."""
        lang = self.lang if self.lang is not None else i18n.picture_lang()
        return i18n.in_turn(lang, items)

    # --- names ---------------------------------------------------------------------------------------
    def player(self, seat: int | None) -> str:
        if seat is None:
            return ""
        if 0 <= seat < len(self.names) and self.names[seat]:
            return self.names[seat]
        return self.t(PLAYER, number=seat + 1)

    # --- eggs ------------------------------------------------------------------------------------------
    def egg(self, egg: str) -> str:
        """The colour, to follow the word "egg" in the singular."""
        return self.tp("egg", EGG_COLOURS[egg]) if egg in EGG_COLOURS else egg

    def eggs_counted(self, egg: str, count: int) -> str:
        forms = EGG_COUNTS.get(egg)
        return self.tn(forms, count, count=self.number(count)) if forms else f"{count} {egg}"

    def egg_type(self, egg: str) -> str:
        return self.tp("eggs", EGG_TYPES[egg]) if egg in EGG_TYPES else egg

    def eggs_of(self, egg: str) -> str:
        """Eggs of this colour in a sentence: "green eggs", "œufs verts", "uova verdi"."""
        return self.tp("eggs-of", EGGS_OF[egg]) if egg in EGGS_OF else egg

    def row(self, egg: str) -> str:
        return self.tp("row", EGG_ROWS[egg]) if egg in EGG_ROWS else egg

    def pile(self, egg: str) -> str:
        return self.tp("pile", EGG_PILES[egg]) if egg in EGG_PILES else egg

    def an_egg(self, egg: str) -> str:
        """An egg of this colour with its indefinite article: "an orange egg", "un uovo arancione"."""
        return self.tp("an-egg", AN_EGGS[egg]) if egg in AN_EGGS else egg

    def contents(self, eggs: Sequence[Sequence[Any]] | Mapping[str, int], order: Sequence[str]) -> str:
        """What lies on a square: "1 red egg, 2 blue eggs", in the game's egg order."""
        pairs = list(eggs.items()) if isinstance(eggs, Mapping) else [(e, n) for e, n in eggs]
        rank = {e: i for i, e in enumerate(order)}
        pairs.sort(key=lambda pair: rank.get(pair[0], len(rank)))
        return ", ".join(self.eggs_counted(e, int(n)) for e, n in pairs if n)

    # --- the board -------------------------------------------------------------------------------------
    def tile_type(self, kind: str) -> str:
        return self.tp("tile-type", TILE_TYPES[kind]) if kind in TILE_TYPES else kind

    def a_tile(self, kind: str) -> str:
        """A tile of this type with its indefinite article: "an empty tile", "una tessera vuota"."""
        return self.tp("a-tile", A_TILES[kind]) if kind in A_TILES else kind

    def side(self, side: str) -> str:
        return self.t(SIDE_NAMES[side]) if side in SIDE_NAMES else side

    def square(
        self, name: str, kind: str, eggs: Sequence[Sequence[Any]] | Mapping[str, int], order: Sequence[str]
    ) -> str:
        """ "b3 tree (1 red egg)": a square's name, type and what lies there."""
        lying = self.contents(eggs, order)
        if lying:
            return self.t(SQUARE_WITH, name=name, type=self.tile_type(kind), eggs=lying)
        return self.t(SQUARE, name=name, type=self.tile_type(kind))

    def direction(self, move: Sequence[int]) -> str:
        name = DIRECTIONS.get((int(move[0]), int(move[1])))
        return self.t(name) if name else str(list(move))

    # --- rules, actions, objectives ---------------------------------------------------------------------
    def rule(self, rule: Mapping[str, Any]) -> str:
        """A rule from its template, sense and placeholders."""
        message = RULES.get((int(rule["t"]), bool(rule.get("neg"))))
        if message is None:
            return "?"
        side, line = rule.get("side"), rule.get("line", "row")
        return self.t(
            message,
            tile=self.tile_type(str(rule.get("tile"))),
            a_tile=self.a_tile(str(rule.get("tile"))),
            egg=self.egg(str(rule.get("egg"))),
            an_egg=self.an_egg(str(rule.get("egg"))),
            n=self.number(int(rule.get("n") or 0)),
            side=self.tp("half", HALVES[side]) if side in HALVES else side,
            line=self.tp("line", LINES[line]) if line in LINES else line,
        )

    def action(self, kind: str) -> str:
        return self.t(ACTION_TILES[kind]) if kind in ACTION_TILES else kind

    def tile(self, tile: Mapping[str, Any]) -> str:
        """A tile of a hand: "Tile 12: My tile is tree" or "Action: Teleport: ..."."""
        if tile.get("kind") == "action":
            return self.t(ACTION_CHOICE, action=self.action(str(tile.get("action"))))
        return self.t(TILE_CHOICE, number=tile["id"], rule=self.rule(tile["rule"]))

    def objective(self, tile: Mapping[str, Any]) -> str:
        """An objective from its kind and eggs."""
        kind, colours = str(tile.get("kind")), [str(e) for e in tile.get("eggs", [])]
        # The colour said as the sentence needs it, so that it can agree: a pile ("la pile verte"), eggs of a
        # colour ("des œufs verts"), or the colour alone in a list ("2 de chaque couleur parmi vert, bleu").
        if kind in ("out_first", "out_last"):
            eggs = [self.pile(e) for e in colours]
        elif kind in ("most_of", "fewest_of"):
            eggs = [self.eggs_of(e) for e in colours]
        else:
            eggs = [self.egg(e) for e in colours]
        message = OBJECTIVE_TEXTS.get(kind)
        if message is None:
            return kind
        if kind == "five_of_two":
            named = eggs[0] if eggs else ""
            for other in eggs[1:]:
                named = self.t(EITHER, first=named, second=other)
        else:
            named = self.listing(eggs)
        return self.t(message, eggs=named, pile=named)
