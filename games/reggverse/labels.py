"""The choices and labels the engine offers, built once and kept while what they show stays the same.

A game asks for the same few hundred choices over and over: the tile choices of a hand, a square with
the eggs lying on it as seen from some side, "red egg from its pile", "red: on top of ...". Building
each label and `Choice` again for every prompt was most of the cost of a turn, so they are kept here:
tile and placement choices for the whole game (a rule id always means the same rule), square choices
per square and side until the eggs on that square change (`cell_changed`) or the map tiles move
(`cells_changed`). What lies on a square is copied once per change (`_Square`) and its text made only
when a label is read: simulations and the random AI never read labels. The drop choices of squares
are made afresh per prompt, cheaply (`_DropChoice`). The object lives in the state's `labels` field
and is never saved."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from games.core import Choice
from games.reggverse.board import SIDES, Rule, geometry, rule_text

if TYPE_CHECKING:
    from games.reggverse.state import State

_FROM_PILE = Choice("pile", "From its pile", {"what": "source", "source": "pile"})
_FROM_MINE = Choice("mine", "From your collected eggs", {"what": "source", "source": "mine"})
_DONE = Choice("done", "Done moving eggs", {"what": "done"})


class _Square:
    """What lies at a square at one moment, the same from every side: its number, type and eggs (a copy
    in the game's egg order, so labels made later still say what was there) and the drop choice id and
    egg of each egg there. The text ("tree (1 red, 2 blue)") and the data are made when first read:
    simulations and the random AI never read them, people read a few."""

    __slots__ = ("_cell", "_data", "_eggs", "_name", "_text", "_type", "drops")

    def __init__(
        self, cell: int, name: str, tile_type: str, eggs: tuple[tuple[str, int], ...], drops: list[tuple[str, str]]
    ) -> None:
        self._cell = cell
        self._name = name
        self._type = tile_type
        self._eggs = eggs
        self._text: str | None = None
        self._data: dict[str, Any] | None = None
        self.drops = drops

    @property
    def data(self) -> dict[str, Any]:
        """{"cell", "name", "type", "eggs"} of `shapes.SquareChoice` (the caller adds "what")."""
        if self._data is None:
            self._data = {
                "cell": self._cell,
                "name": self._name,
                "type": self._type,
                "eggs": [list(pair) for pair in self._eggs],
            }
        return self._data

    @property
    def text(self) -> str:
        if self._text is None:
            eggs = self._eggs
            self._text = f"{self._type} ({', '.join(f'{v} {k}' for k, v in eggs)})" if eggs else self._type
        return self._text


class _SquareChoice(Choice):
    """A choice naming a square, labelled `prefix` + what lies there (`_Square.text`), the label made
    when read. Ids are made here from square numbers and egg names, so they are always valid."""

    __slots__ = ("_prefix", "_square")

    def __init__(self, choice_id: str, prefix: str, square: _Square) -> None:
        self.id = choice_id  # no Choice.__init__: these ids are valid by construction, and this is the hot path
        self._prefix = prefix
        self._square = square

    @property
    def label(self) -> str:  # type: ignore[override]  # read-only, as every Choice is by convention
        return self._prefix + self._square.text

    @property
    def data(self) -> Mapping[str, Any]:  # type: ignore[override]  # read-only, as every Choice is by convention
        return {"what": "square", **self._square.data}


class _SourceChoice(_SquareChoice):
    """ "Take the egg from this square": the same label, capitalised as a sentence."""

    __slots__ = ()

    @property
    def label(self) -> str:  # type: ignore[override]  # read-only, as every Choice is by convention
        return (self._prefix + self._square.text).capitalize()

    @property
    def data(self) -> Mapping[str, Any]:  # type: ignore[override]  # read-only, as every Choice is by convention
        return {"what": "source", "source": "square", **self._square.data}


class _DropChoice(Choice):
    """The drop choice "c<square>:<egg>", labelled "<egg> egg from tile <name> <what lies there>"
    when read. Made with `object.__new__` and its slots set directly (see `Labels.square_drops`):
    a dozen of them per turn, and a Python __init__ call costs more than the rest of making one."""

    __slots__ = ("egg", "square", "where")
    egg: str
    where: str
    square: _Square

    @property
    def label(self) -> str:  # type: ignore[override]  # read-only, as every Choice is by convention
        return self.egg + self.where + self.square.text

    @property
    def data(self) -> Mapping[str, Any]:  # type: ignore[override]  # read-only, as every Choice is by convention
        return {"what": "drop", "egg": self.egg, "source": "square", **self.square.data}


class Labels:
    __slots__ = (
        "_board",
        "_cells",
        "_choices",
        "_contents",
        "_froms",
        "_mine",
        "_names",
        "_order",
        "_piles",
        "_plain",
        "_questions",
        "_spots",
        "_texts",
        "_tiles",
        "_wheres",
    )

    def __init__(self, state: State) -> None:
        # The state's board and tiles (the engine changes them in place and never replaces
        # them); not the state itself, which would make a reference cycle through `State.labels`.
        self._board = state.board
        self._tiles = state.tiles
        # One name per square for everybody (the south's frame, as the pictures label them), whatever
        # side a player reads the rules from.
        names = geometry(state.board["shape"]).names["south"]
        self._names = {side: names for side in SIDES}
        # per side and square the middle of a drop label: " egg from tile b3 " (then what lies there)
        self._wheres = {side: [f" egg from tile {name} " for name in names] for side, names in self._names.items()}
        self._texts: dict[int, str] = {}
        self._questions: dict[int, str] = {}
        self._choices: list[Choice | None] = [None] * len(state.tiles)  # per tile id
        # per egg, per id of the rule a placement covers (None: next to the rules)
        self._spots: dict[str, dict[int | None, Choice]] = {e: {} for e in state.eggs}
        self._order = {e: i for i, e in enumerate(state.eggs)}
        self._piles = {
            e: Choice(f"pile:{e}", f"{e} egg from its pile", {"what": "drop", "egg": e, "source": "pile"})
            for e in state.eggs
        }
        self._mine = {
            e: Choice(f"mine:{e}", f"{e} egg from your collected eggs", {"what": "drop", "egg": e, "source": "mine"})
            for e in state.eggs
        }
        self._plain = {e: Choice(e, f"{e} egg", {"what": "egg", "egg": e}) for e in state.eggs}
        cells = len(state.board["types"])
        # Per square what lies there, the same for every side, so worked out once per change (None:
        # not yet).
        self._contents: list[_Square | None] = [None] * cells
        self._cells: list[dict[str, Choice]] = [{} for _ in range(cells)]
        self._froms: list[dict[str, Choice]] = [{} for _ in range(cells)]  # "take from this square", per side

    # --- invalidation ---------------------------------------------------------------------------
    def cell_changed(self, cell: int) -> None:
        self._contents[cell] = None
        self._cells[cell].clear()
        self._froms[cell].clear()

    def cells_changed(self) -> None:
        for cell in range(len(self._cells)):
            self.cell_changed(cell)

    # --- rules ----------------------------------------------------------------------------------
    def rule_text(self, rule: Rule) -> str:
        rule_id = rule.get("id")
        if rule_id is None:
            return rule_text(rule)
        text = self._texts.get(rule_id)
        if text is None:
            text = self._texts[rule_id] = rule_text(rule)
        return text

    def rule_question(self, rule: Rule) -> str:
        """The question of the one-step rule prompt."""
        rule_id = rule.get("id")
        question = None if rule_id is None else self._questions.get(rule_id)
        if question is None:
            question = f'Where does the rule "{self.rule_text(rule)}" go?'
            if rule_id is not None:
                self._questions[rule_id] = question
        return question

    def spot_label(self, egg: str, spot: str) -> str:
        if spot == "next":
            return f"{egg}: next to its rules"
        old = next(r for r in self._board["rows"][egg] if r["id"] == int(spot[2:]))
        return f'{egg}: on top of "{self.rule_text(old)}"'[:100]

    def _covered(self, egg: str, covered: int | None) -> dict[str, Any] | None:
        if covered is None:
            return None
        old = next(r for r in self._board["rows"][egg] if r["id"] == covered)
        return {k: v for k, v in old.items() if k != "text"}

    def spot_choices(self, placements: list[tuple[str, int | None]]) -> list[Choice]:
        """The choices "<egg>:next" and "<egg>:on<id>" of the one-step rule prompt, for placements
        as `BoardIndex.placements` lists them: (egg, None) next to its rules, (egg, id) on top of a
        rule. Kept per egg and covered rule for the whole game (one id is always the same rule)."""
        known = self._spots
        found = []
        for egg, covered in placements:
            per_egg = known[egg]
            choice = per_egg.get(covered)
            if choice is None:
                spot = "next" if covered is None else f"on{covered}"
                data = {"what": "placement", "egg": egg, "covered": self._covered(egg, covered)}
                choice = per_egg[covered] = Choice(f"{egg}:{spot}", self.spot_label(egg, spot), data)
            found.append(choice)
        return found

    def spot_only_choices(self, egg: str, covered: list[int | None]) -> list[Choice]:
        """The choices "next" and "on<id>" of the second step of a rule placed in two steps."""
        found = []
        for c in covered:
            spot = "next" if c is None else f"on{c}"
            data = {"what": "placement", "egg": egg, "covered": self._covered(egg, c)}
            found.append(Choice(spot, self.spot_label(egg, spot), data))
        return found

    # --- eggs, seats, objectives ----------------------------------------------------------------
    def egg_choice(self, egg: str, pile: int) -> Choice:
        """The choice "<egg>" labelled with its pile's count."""
        return Choice(egg, f"{egg} egg ({pile} in pile)", {"what": "egg", "egg": egg, "pile": pile})

    def plain_egg(self, egg: str) -> Choice:
        """The choice "<egg>" labelled with the egg alone."""
        return self._plain[egg]

    @staticmethod
    def seat_choice(seat: int, eggs: int) -> Choice:
        return Choice(f"s{seat}", f"Seat {seat + 1} ({eggs} eggs)", {"what": "seat", "seat": seat, "eggs": eggs})

    @staticmethod
    def done_choice() -> Choice:
        return _DONE

    @staticmethod
    def objective_choice(tile: Mapping[str, Any]) -> Choice:
        data = {"what": "objective", "objective": {"id": tile["id"], "kind": tile["kind"], "eggs": list(tile["eggs"])}}
        return Choice(f"o{tile['id']}", str(tile["text"])[:100], data)

    # --- tiles ----------------------------------------------------------------------------------
    def tile_label(self, tile_id: int) -> str:
        tile = self._tiles[tile_id]
        if tile["kind"] == "action":
            return f"Action: {tile['text']}"[:100]
        return f"Tile {tile_id}: {self.rule_text(tile['rule'])}"[:100]

    def tile_choice(self, tile_id: int) -> Choice:
        choice = self._choices[tile_id]
        if choice is None:
            tile = {k: v for k, v in self._tiles[tile_id].items() if k != "text"}
            choice = self._choices[tile_id] = Choice(
                f"t{tile_id}", self.tile_label(tile_id), {"what": "tile", "tile": tile}
            )
        return choice

    def tile_choices(self, tile_ids: list[int]) -> list[Choice]:
        """`tile_choice` of each tile, in that order."""
        known = self._choices
        return [known[t] or self.tile_choice(t) for t in tile_ids]

    # --- squares --------------------------------------------------------------------------------
    def _content(self, cell: int) -> _Square:
        board = self._board
        eggs = board["eggs"][cell]
        present = [e for e, v in eggs.items() if v > 0]
        if len(present) > 1:
            present.sort(key=self._order.__getitem__)
        content = self._contents[cell] = _Square(
            cell,
            self._names["south"][cell],
            board["types"][cell],
            tuple((e, eggs[e]) for e in present),
            [(f"c{cell}:{e}", e) for e in present],
        )
        return content

    def cell_label(self, side: str, cell: int) -> str:
        """A square's name from `side`, its type and the eggs on it ("b3 tree (1 red)")."""
        return f"{self._names[side][cell]} {(self._contents[cell] or self._content(cell)).text}"

    def cell_choice(self, side: str, cell: int) -> Choice:
        """The choice "c<square>" labelled with `cell_label`."""
        known = self._cells[cell]
        choice = known.get(side)
        if choice is None:
            square = self._contents[cell] or self._content(cell)
            choice = known[side] = _SquareChoice(f"c{cell}", self._names[side][cell] + " ", square)
        return choice

    # --- the egg drop ---------------------------------------------------------------------------
    def source_choice(self, side: str, source: str) -> Choice:
        """The choice of where to take the egg to drop from: "pile", "mine" or "c<square>" (labelled
        from `side`)."""
        if source == "pile":
            return _FROM_PILE
        if source == "mine":
            return _FROM_MINE
        cell = int(source[1:])
        known = self._froms[cell]
        choice = known.get(side)
        if choice is None:
            square = self._contents[cell] or self._content(cell)
            choice = known[side] = _SourceChoice(source, f"from tile {self._names[side][cell]} ", square)
        return choice

    def pile_drops(self, eggs: list[str]) -> list[Choice]:
        """The choices "pile:<egg>" of `eggs`, in that order."""
        return list(map(self._piles.__getitem__, eggs))

    def mine_drops(self, eggs: list[str]) -> list[Choice]:
        """The choices "mine:<egg>" of `eggs`, in that order."""
        return list(map(self._mine.__getitem__, eggs))

    def square_drops(self, side: str, here: int) -> list[Choice]:
        """The drop choices "c<square>:<egg>" of every square but `here`, squares in order and each
        square's eggs in the game's egg order, labelled from `side`. Made afresh for each prompt:
        with a player per side, a square's eggs change about as often as a side asks, so keeping
        them per side cost more than it saved."""
        wheres = self._wheres[side]
        contents = self._contents
        new = object.__new__
        found: list[Choice] = []
        append = found.append
        for cell, eggs in enumerate(self._board["eggs"]):
            if eggs and cell != here:
                square = contents[cell] or self._content(cell)
                where = wheres[cell]
                for choice_id, egg in square.drops:
                    choice = new(_DropChoice)
                    choice.id = choice_id
                    choice.egg = egg
                    choice.where = where
                    choice.square = square
                    append(choice)
        return found
