"""Reggverse Riddles: the rules engine.

A turn is a chain of small prompts to the seat whose turn it is:
    play          which tile of the hand to play
    move          where to move (only squares the tile's green squares reach, from the seat's side, on
                  the map and free of other pawns; with none the pawn stays, announced by an event)
    drop          which egg to drop on your square and where it comes from: "<source>:<egg>" with source
                  "pile", "mine" (your collected eggs) or "c<square>" (a square with eggs) (when more
                  than 25 such choices exist: drop_from, then drop_egg unless the source holds one type)
    rule          where the tile's rule goes: "<egg>:next" (next to that egg's rules, at most 3 unique
                  rules) or "<egg>:on<tile>" (on top of one of its rules); if there is no placement,
                  the tile is discarded with an event (more than 25 placements: rule_egg, then rule_spot)
    collect_from  at the end of the turn, for each egg whose row points at the seat's square (except
                  types lying there): from its pile or from a square holding that type ("pile" or
                  "c<square>"), asked only when there is more than one way
Then piles that run out lose their rules and the hand is refilled. Action tiles replace move, drop and
rule by their action (`games.reggverse.actions`). The game ends when every pile has run out; with
secret objectives, holders of the guessing objective then answer a secret "guess" prompt per
neighbour before the scores are final.

Every choice offered keeps every egg's rule row pointing at some square and not at all of them, from
every side a player sits on (`games.reggverse.balance`); `apply` accepts only offered choices, so an
answer that would break it is refused. The choices carry their data in the shapes of
`games.reggverse.shapes`. Views and the outcome are built in `games.reggverse.views`.

Over 500 lines: the regular turn's steps, from the play to the collection, share their helpers and the
prompt cache, and read best as one sequence; action tiles, checks, labels and views live apart.

Over 500 lines: the chain of prompts of a turn and their resolution, one state machine that reads best
in one place; the board's pure functions are in board.py, the state in state.py, the views in
views.py, the action tiles in actions.py and the objectives in objectives.py.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from operator import attrgetter
from typing import Any

from games.core import Choice, Game, Option, Player, Prompt, Rng, check_choice
from games.reggverse import board as rules
from games.reggverse import views
from games.reggverse.actions import LOCKED_ACTIONS, ActionTiles
from games.reggverse.balance import EGGS, PAWNS, Balance, has_template_11, row_balanced, sides_in_play
from games.reggverse.board import SIDES, geometry, side_of
from games.reggverse.data import (
    DEFAULT_EGG_TYPES,
    DEFAULT_SHAPE,
    DEFAULT_TOKENS,
    EGG_COLOURS,
    HAND_SIZE,
    MAP_TILES_PER_TYPE,
    SHAPES,
    TILE_TYPES,
)
from games.reggverse.material import action_tiles, objective_tiles, regular_tiles
from games.reggverse.objectives import neighbours
from games.reggverse.state import State

Event = dict[str, Any]

# A digital safeguard the box does not need: if the piles never empty (players keep recycling
# eggs), the game ends after this many rounds. Real games end far sooner (see the report).
ROUND_LIMIT = 100
_choice_id = attrgetter("id")
MAX_SELECT = 25  # options in one Discord select menu


class ReggverseRiddles(ActionTiles, Game[State]):
    key = "reggverse-riddles"
    title = "Reggverse Riddles"
    # Which side of a tile was used (move or rule) and which action tiles: named by prompt kind.
    # ai_levels: handed in by the package (games/reggverse/__init__.py), which wires the AIs to the engine
    sample_options = ({}, {"action_tiles": True, "objectives": True})
    play_kinds = frozenset(
        {
            "move",
            "rule",
            "rule_egg",
            "teleport",
            "switch",
            "swap",
            "steal_from",
            "shift_from",
            "trade_give",
            "to_pile_from",
        }
    )

    def play_names(self, prompt: Prompt, chosen: Sequence[Choice]) -> list[str]:
        return [prompt.kind]

    min_players = 2
    max_players = 8  # the box says 2-6; the game page allows up to 8, so the lobby allows 8.
    options = (
        Option(
            "shape",
            tuple(SHAPES),
            DEFAULT_SHAPE,
            "4×4 grid, 5×4 grid, cross: 5×5 without its corners, or ring: the border of 5×5",
        ),
        Option("egg_types", (2, 3, 4, 5, 6, 7, 8), DEFAULT_EGG_TYPES, "how many egg types, each with its pile"),
        Option("tokens", (3, 4, 5, 6, 7, 8, 9, 10, 12, 15), DEFAULT_TOKENS, "egg tokens per type"),
        Option("action_tiles", (False, True), False, "Action Tiles expansion: 20 action tiles in the deck"),
        Option("objectives", (False, True), False, "Secret Objectives expansion: one secret objective each"),
    )

    def __init__(
        self, ai: Mapping[str, Callable[[int], Player]] | None = None, languages: Sequence[str] | None = None
    ) -> None:
        super().__init__(ai, languages)
        self._handlers: dict[str, Callable[[State, int, list[str], list[Event]], None]] = {}

    # --- setup ---------------------------------------------------------------------------------
    def new(self, players: int, seed: int, options: dict[str, Any] | None = None) -> State:
        self.check_players(players)
        opts = self.resolve_options(options)
        rng = Rng(seed)
        shape = opts["shape"]
        geo = geometry(shape)
        if len(geo.cells) < players + 1:
            raise ValueError(f"the {shape} map is too small for {players} players")
        eggs = list(EGG_COLOURS[: opts["egg_types"]])
        box = [t for t in TILE_TYPES for _ in range(MAP_TILES_PER_TYPE)]
        rng.shuffle(box)
        spots = list(range(len(geo.cells)))
        rng.shuffle(spots)
        board: dict[str, Any] = {
            "shape": shape,
            "types": box[: len(geo.cells)],
            "eggs": [{} for _ in geo.cells],
            "pawns": spots[:players],
            "rows": {e: [] for e in eggs},
        }
        tiles = regular_tiles(rng, eggs)
        if opts["action_tiles"]:
            tiles += action_tiles(len(tiles))
        deck = [t["id"] for t in tiles]
        rng.shuffle(deck)
        state = State(
            players=players,
            options=opts,
            rng=rng,
            board=board,
            eggs=eggs,
            piles={e: opts["tokens"] for e in eggs},
            out_order=[],
            collected=[{} for _ in range(players)],
            boxed=0,
            tiles=tiles,
            hands=[[] for _ in range(players)],
            deck=deck,
            discard=[],
            guesses=[[] for _ in range(players)],
            secret=[None] * players,
        )
        for seat in range(players):
            state.hands[seat] = [state.deck.pop() for _ in range(HAND_SIZE)]
        self._starting_rules(state)
        if opts["objectives"]:
            state.objective_tiles = objective_tiles(rng, eggs)
            dealt = [t["id"] for t in state.objective_tiles]
            rng.shuffle(dealt)
            state.secret = [dealt[s] for s in range(players)]
        state.step = {"kind": "play"}
        return state

    def _starting_rules(self, state: State) -> None:
        """One random rule per egg from the deck that points at some square and not all, from every side
        in play. "Matches the rules of all other eggs" does not start a row: the rows it reads are not
        all there yet."""
        set_aside: list[int] = []
        sides = sides_in_play(state.players)
        ix = state.board_index()
        rows = state.board["rows"]
        for egg in state.eggs:
            while True:
                if not state.deck:
                    # Practically unreachable: no tile in the deck fits. The left half always does.
                    rows[egg] = [{"id": -1 - state.eggs.index(egg), "t": 4, "neg": False, "side": "left"}]
                    break
                tile = state.tiles[state.deck.pop()]
                rule = tile["rule"] if tile["kind"] == "regular" else None
                if rule is not None and rule["t"] != 11 and row_balanced(egg, [rule], rows, state.board, ix, sides):
                    rows[egg] = [dict(rule)]
                    break
                set_aside.append(tile["id"])
        state.deck.extend(set_aside)
        state.rng.shuffle(state.deck)

    def players(self, state: State) -> int:
        return state.players

    # --- small helpers ---------------------------------------------------------------------------
    @staticmethod
    def _name(state: State, cell: int) -> str:
        """A square's one name for everybody (events carry it: the log names squares as the pictures do)."""
        return geometry(state.board["shape"]).names["south"][cell]

    def _in_play(self, state: State) -> list[str]:
        return list(filter(state.piles.__getitem__, state.eggs))  # piles never go below 0

    def _playable(self, state: State, seat: int) -> list[int]:
        """The tiles of the hand the locks allow (a lock binds everybody, its holder too)."""
        hand = state.hands[seat]
        locks = state.locks
        if not locks:
            return list(hand)
        tiles = state.tiles
        if "actions" in locks:
            return [t for t in hand if tiles[t]["kind"] != "action"]
        barred = frozenset().union(*(LOCKED_ACTIONS.get(lock, frozenset()) for lock in locks))
        return [t for t in hand if tiles[t]["kind"] != "action" or tiles[t]["action"] not in barred]

    def _destinations(self, state: State, seat: int, tile_id: int) -> list[int]:
        geo = geometry(state.board["shape"])
        pawns = state.board["pawns"]
        side = SIDES[seat % 4]
        x, y = geo.local[side][pawns[seat]]
        at = geo.at_local[side].get  # rules.destination, inline
        found: list[int] = []
        for dx, dy in state.tiles[tile_id]["moves"]:
            cell = at((x + dx, y + dy))
            if cell is not None and cell not in pawns and cell not in found:
                found.append(cell)
        if found:
            bal = Balance(state)
            if bal.any_reads(PAWNS):
                found = [c for c in found if bal.pawn(seat, c)]
        return found

    def _drop_choices(self, state: State, seat: int) -> list[Choice]:
        """Every (source, egg) the seat may drop, as "<source>:<egg>" choices: piles, then its own
        eggs, then squares (not its own) in order, each in the game's egg order; only those that keep
        the rows balanced."""
        labels = state.labels or state.choice_labels()
        found = labels.pile_drops(self._in_play(state))
        mine = state.collected[seat]
        if mine:
            found += labels.mine_drops(list(filter(mine.get, state.eggs)))  # counts are never below 0
        here = state.board["pawns"][seat]
        found += labels.square_drops(SIDES[seat % 4], here)
        bal = Balance(state)
        if not bal.any_reads(EGGS):  # no row reads eggs, nor the other rows: every drop keeps them
            return found
        piles = state.piles
        verdicts: dict[tuple[str, str], bool] = {}
        kept = []
        for choice in found:
            source, egg = choice.id.split(":")
            emptied = source == "pile" and piles[egg] == 1  # the pile runs out: its row goes
            effect = (source if source.startswith("c") else "emptied" if emptied else "", egg)
            ok = verdicts.get(effect)
            if ok is None:
                changes = [(here, egg, 1)]
                if source.startswith("c"):
                    changes.insert(0, (int(source[1:]), egg, -1))
                ok = verdicts[effect] = bal.eggs(changes, egg if emptied else None)
            if ok:
                kept.append(choice)
        return kept

    def _placements(
        self, state: State, seat: int, rule: dict[str, Any], eggs: list[str] | None = None, first: bool = False
    ) -> list[tuple[str, int | None]]:
        """Every legal placement of `rule` as (egg, None) next to its rules or (egg, id of the rule it
        covers), eggs in play in order (or only those of `eggs` in play; with `first`, at most one per
        egg): at most 3 unique rules, and the row points at some square and not all from every side in
        play, as do the rows with "matches the rules of all other eggs", which read it."""
        live = self._in_play(state) if eggs is None else [e for e in eggs if state.piles[e] > 0]
        ix = state.index or state.board_index()
        own = SIDES[seat % 4]
        found = ix.placements(live, rule, own)
        for side in sides_in_play(state.players):
            if side != own and found:
                allowed = set(ix.placements(live, rule, side))
                found = [p for p in found if p in allowed]
        rows = state.board["rows"]
        if found and any(has_template_11(row) for row in rows.values()):
            bal = Balance(state)
            kept = []
            for egg, covered in found:
                row = rows[egg]
                new = [*row, rule] if covered is None else [rule if r["id"] == covered else r for r in row]
                if bal.rows({**rows, egg: new}, [egg]):
                    kept.append((egg, covered))
            found = kept
        if first:
            firsts: dict[str, tuple[str, int | None]] = {}
            for placement in found:
                firsts.setdefault(placement[0], placement)
            found = list(firsts.values())
        return found

    def _spots(self, state: State, seat: int, egg: str, rule: dict[str, Any]) -> list[int | None]:
        return [covered for _, covered in self._placements(state, seat, rule, [egg])]

    def _collect_sources(self, state: State, seat: int, egg: str, here: int | None) -> list[str]:
        """Where a collected `egg` may come from, keeping the rows balanced: "pile" (its pile runs out if
        it holds one) and "c<square>" for each square holding that type (not `here`)."""
        bal = Balance(state)
        found = []
        if state.piles[egg] > 1 or bal.emptied(egg):
            found.append("pile")
        for cell, lying in enumerate(state.board["eggs"]):
            if lying.get(egg) and cell != here and bal.eggs([(cell, egg, -1)]):
                found.append(f"c{cell}")
        return found

    # --- prompts -------------------------------------------------------------------------------
    def prompts(self, state: State) -> list[Prompt]:
        if state.cache is None:
            state.cache = self._compute_prompts(state)
        return state.cache

    def _compute_prompts(self, state: State) -> list[Prompt]:
        if state.finished:
            return []
        step = state.step
        kind = step["kind"]
        if kind == "guess":
            return self._guess_prompts(state)
        seat = state.current
        labels = state.labels or state.choice_labels()
        if kind == "play":  # the most frequent prompts first, without the general set-up below
            return [
                Prompt(
                    seat=seat,
                    kind=kind,
                    choices=labels.tile_choices(self._playable(state, seat)),
                    text="Which tile do you play?",
                    info={"step": kind, "tile": step.get("tile")},
                )
            ]
        if kind == "move":
            return [self._move_prompt(state, seat, self._destinations(state, seat, step["tile"]))]
        if kind == "drop":
            return [self._drop_prompt(state, seat, self._drop_choices(state, seat))]
        info: dict[str, Any] = {"step": kind, "tile": step.get("tile")}
        pick = 1
        if kind == "drop_from":
            sources = list(dict.fromkeys(c.id.split(":")[0] for c in self._drop_choices(state, seat)))
            choices = [labels.source_choice(side_of(seat), src) for src in sources]
            text = "Take the egg to drop on your tile from where?"
        elif kind == "drop_egg":
            source = step["source"]
            choices = [
                labels.plain_egg(c.id.split(":")[1])
                for c in self._drop_choices(state, seat)
                if c.id.split(":")[0] == source
            ]
            text = "Which egg?"
            info["source"] = source
        elif kind == "rule":
            rule = state.tiles[step["tile"]]["rule"]
            choices = labels.spot_choices(self._placements(state, seat, rule))
            text = labels.rule_question(rule)
            info["rule"] = rule
        elif kind == "rule_egg":
            rule = state.tiles[step["tile"]]["rule"]
            placed = self._placements(state, seat, rule, first=True)
            choices = [labels.egg_choice(e, state.piles[e]) for e, _ in placed]
            text = f'Which egg gets the rule "{rules.rule_text(rule)}"?'
            info["rule"] = rule
        elif kind == "rule_spot":
            rule = state.tiles[step["tile"]]["rule"]
            egg = step["egg"]
            choices = labels.spot_only_choices(egg, self._spots(state, seat, egg, rule))
            text = f"Where in the {egg} row?"
            info.update(egg=egg, rule=rule)
        elif kind == "collect_from":
            egg = step["egg"]
            here = step.get("cell")
            choices = [
                labels.source_choice(side_of(seat), src) for src in self._collect_sources(state, seat, egg, here)
            ]
            text = f"Collect the {egg} egg from where?"
            info["egg"] = egg
        else:
            choices, pick, text, extra = self._action_choices(state, seat, kind)
            info.update(extra)
        return [Prompt(seat=seat, kind=kind, choices=choices, pick=pick, text=text, info=info)]

    def _guess_prompts(self, state: State) -> list[Prompt]:
        found = []
        labels = state.labels or state.choice_labels()
        for seat, targets in enumerate(state.step["pending"]):
            if not targets:
                continue
            target = targets[0]
            own = state.secret[seat]
            choices = [labels.objective_choice(t) for t in state.objective_tiles if t["id"] != own]
            left, _ = neighbours(seat, state.players)
            which = "left" if target == left else "right"
            found.append(
                Prompt(
                    seat=seat,
                    kind="guess",
                    choices=choices,
                    secret=True,
                    text=f"Guess the secret objective of seat {target + 1} ({which} neighbour)",
                    info={"step": "guess", "target": target, "which": which},
                )
            )
        return found

    # --- apply ---------------------------------------------------------------------------------
    def apply(self, state: State, seat: int, choice: list[str]) -> list[Event]:
        prompts = state.cache or self.prompts(state)  # usually left ready by the previous decision
        prompt = prompts[0] if len(prompts) == 1 else None
        # The usual answer (one id, of the one prompt, by its seat) is checked here directly; anything
        # else goes through check_choice, which also words the refusal.
        if (
            prompt is not None
            and type(seat) is int
            and prompt.seat == seat
            and prompt.pick == 1
            and type(choice) is list
            and len(choice) == 1
        ):
            if choice[0] not in map(_choice_id, prompt.choices):
                prompt = check_choice(prompts, seat, choice)
        else:
            prompt = check_choice(prompts, seat, choice)
        events: list[Event] = []
        state.cache = None
        handler = self._handlers.get(prompt.kind)
        if handler is None:
            handler = self._handlers[prompt.kind] = getattr(self, f"_on_{prompt.kind}")
        handler(state, seat, choice, events)  # may leave the next prompt it already computed in cache
        return events

    # regular turn ---------------------------------------------------------------------------------
    def _on_play(self, state: State, seat: int, choice: list[str], events: list[Event]) -> None:
        tile_id = int(choice[0][1:])
        state.hands[seat].remove(tile_id)
        tile = state.tiles[tile_id]
        events.append({"type": "played", "seat": seat, "tile": tile})
        state.step = {"kind": "play", "tile": tile_id}
        if tile["kind"] == "action":
            self._begin_action(state, seat, tile, events)
        else:
            self._begin_move(state, seat, events)

    def _begin_move(self, state: State, seat: int, events: list[Event]) -> None:
        if "move" in state.locks:
            events.append({"type": "move_locked", "seat": seat, "by": state.locks["move"]})
            self._begin_drop(state, seat, events)
            return
        destinations = self._destinations(state, seat, state.step["tile"])
        if not destinations:
            here = state.board["pawns"][seat]
            events.append({"type": "stayed", "seat": seat, "cell": here, "square": self._name(state, here)})
            self._begin_drop(state, seat, events)
            return
        state.step["kind"] = "move"
        state.cache = [self._move_prompt(state, seat, destinations)]

    @staticmethod
    def _move_prompt(state: State, seat: int, destinations: list[int]) -> Prompt:
        labels = state.labels or state.choice_labels()
        side = SIDES[seat % 4]
        return Prompt(
            seat=seat,
            kind="move",
            text="Where does your pawn move?",
            choices=[labels.cell_choice(side, c) for c in destinations],
            info={"step": "move", "tile": state.step.get("tile")},
        )

    def _on_move(self, state: State, seat: int, choice: list[str], events: list[Event]) -> None:
        self._move_pawn(state, seat, int(choice[0][1:]), events)
        self._begin_drop(state, seat, events)

    def _move_pawn(self, state: State, seat: int, cell: int, events: list[Event], teleport: bool = False) -> None:
        event = {"type": "moved", "seat": seat, "from": state.board["pawns"][seat], "to": cell}
        event["square"] = self._name(state, cell)
        if teleport:
            event["teleport"] = True
        events.append(event)
        state.board["pawns"][seat] = cell
        state.pawns_changed()

    def _begin_drop(self, state: State, seat: int, events: list[Event]) -> None:
        options = self._drop_choices(state, seat)
        if not options:
            events.append({"type": "no_drop", "seat": seat})
            self._begin_rule(state, seat, events)
            return
        # One select when every (source, egg) fits in it; two steps otherwise.
        if len(options) <= MAX_SELECT:
            state.step["kind"] = "drop"
            state.cache = [self._drop_prompt(state, seat, options)]
        else:
            state.step["kind"] = "drop_from"

    @staticmethod
    def _drop_prompt(state: State, seat: int, choices: list[Choice]) -> Prompt:
        return Prompt(
            seat=seat,
            kind="drop",
            text="Which egg do you drop on your tile?",
            choices=choices,
            info={"step": "drop", "tile": state.step.get("tile")},
        )

    def _on_drop(self, state: State, seat: int, choice: list[str], events: list[Event]) -> None:
        source, egg = choice[0].split(":")
        self._drop(state, seat, source, egg, events)

    def _on_drop_from(self, state: State, seat: int, choice: list[str], events: list[Event]) -> None:
        source = choice[0]
        eggs = [c.id.split(":")[1] for c in self._drop_choices(state, seat) if c.id.split(":")[0] == source]
        if len(eggs) == 1:
            self._drop(state, seat, source, eggs[0], events)
        else:
            state.step["kind"] = "drop_egg"
            state.step["source"] = source

    def _on_drop_egg(self, state: State, seat: int, choice: list[str], events: list[Event]) -> None:
        self._drop(state, seat, state.step.pop("source"), choice[0], events)

    def _drop(self, state: State, seat: int, source: str, egg: str, events: list[Event]) -> None:
        here = state.board["pawns"][seat]
        self._take(state, seat, source, egg, events)
        self._put(state, here, egg)
        events.append(
            {
                "type": "dropped",
                "seat": seat,
                "egg": egg,
                "source": source,
                "cell": here,
                "square": self._name(state, here),
                "source_square": self._name(state, int(source[1:])) if source.startswith("c") else None,
            }
        )
        self._begin_rule(state, seat, events)

    def _take(self, state: State, seat: int, source: str, egg: str, events: list[Event]) -> None:
        if source == "pile":
            self._from_pile(state, egg, events)
        elif source == "mine":
            state.collected[seat][egg] -= 1
            if not state.collected[seat][egg]:
                del state.collected[seat][egg]
        else:
            cell = int(source[1:])
            cell_eggs = state.board["eggs"][cell]
            cell_eggs[egg] -= 1
            if not cell_eggs[egg]:
                del cell_eggs[egg]
            state.eggs_changed(cell, egg, -1)

    def _put(self, state: State, cell: int, egg: str) -> None:
        cell_eggs = state.board["eggs"][cell]
        cell_eggs[egg] = cell_eggs.get(egg, 0) + 1
        state.eggs_changed(cell, egg, 1)

    def _from_pile(self, state: State, egg: str, events: list[Event]) -> None:
        state.piles[egg] -= 1
        if state.piles[egg] == 0:
            state.out_order.append(egg)
            removed = state.board["rows"][egg]
            state.discard += [r["id"] for r in removed if r["id"] >= 0]
            del state.board["rows"][egg]
            events.append({"type": "pile_out", "egg": egg, "rules_removed": len(removed)})
            self._clear_pointless_rows(state, egg, events)

    def _clear_pointless_rows(self, state: State, emptied: str, events: list[Event]) -> None:
        """A pile that ran out took its row away, and the rows with "matches the rules of all other eggs"
        read it. Choices never lead here when another way exists; when the rules force it (the last egg
        collected from its pile), a row that now points nowhere or everywhere is cleared like a row whose
        pile ran out: an egg may never have such a ruleset."""
        rows = state.board["rows"]
        if not any(has_template_11(row) for row in rows.values()):
            return
        ix = state.index or state.board_index()
        sides = sides_in_play(state.players)
        for egg, row in list(rows.items()):
            if row and has_template_11(row) and not row_balanced(egg, row, rows, state.board, ix, sides):
                state.discard += [r["id"] for r in row if r["id"] >= 0]
                rows[egg] = []
                events.append({"type": "row_cleared", "egg": egg, "because": emptied})

    def _begin_rule(self, state: State, seat: int, events: list[Event]) -> None:
        tile_id = state.step["tile"]
        if "rules" in state.locks:
            state.discard.append(tile_id)
            events.append({"type": "rule_locked", "seat": seat, "tile": tile_id, "by": state.locks["rules"]})
            self._finish_tile(state, seat, events)
            return
        rule = state.tiles[tile_id]["rule"]
        placements = self._placements(state, seat, rule)
        if not placements:
            state.discard.append(tile_id)
            events.append(
                {"type": "rule_discarded", "seat": seat, "tile": tile_id, "reason": "its rule fits in no egg's row"}
            )
            self._finish_tile(state, seat, events)
            return
        # One select listing every legal placement when they fit; egg then spot otherwise.
        if len(placements) <= MAX_SELECT:
            state.step["kind"] = "rule"
            labels = state.labels or state.choice_labels()
            state.cache = [
                Prompt(
                    seat=seat,
                    kind="rule",
                    pick=1,
                    choices=labels.spot_choices(placements),
                    text=labels.rule_question(rule),
                    info={"step": "rule", "tile": tile_id, "rule": rule},
                )
            ]
        else:
            state.step["kind"] = "rule_egg"

    def _on_rule(self, state: State, seat: int, choice: list[str], events: list[Event]) -> None:
        egg, spot = choice[0].split(":")
        self._place(state, seat, egg, spot, events)

    def _on_rule_egg(self, state: State, seat: int, choice: list[str], events: list[Event]) -> None:
        state.step["kind"] = "rule_spot"
        state.step["egg"] = choice[0]

    def _on_rule_spot(self, state: State, seat: int, choice: list[str], events: list[Event]) -> None:
        self._place(state, seat, state.step.pop("egg"), choice[0], events)

    def _place(self, state: State, seat: int, egg: str, spot: str, events: list[Event]) -> None:
        tile_id = state.step["tile"]
        rule = dict(state.tiles[tile_id]["rule"])
        row = state.board["rows"][egg]
        covered = None
        if spot == "next":
            row.append(rule)
        else:
            covered = int(spot[2:])
            for i, r in enumerate(row):
                if r["id"] == covered:
                    row[i] = rule
                    break
            if covered >= 0:
                state.discard.append(covered)
        events.append(
            {
                "type": "rule_placed",
                "seat": seat,
                "egg": egg,
                "tile": tile_id,
                "rule": {k: v for k, v in rule.items() if k != "id"},
                "covered": covered,
                "text": (state.labels or state.choice_labels()).rule_text(rule),
            }
        )
        self._finish_tile(state, seat, events)

    def _finish_tile(self, state: State, seat: int, events: list[Event]) -> None:
        state.plays_left -= 1
        if state.plays_left > 0 and self._in_play(state) and self._playable(state, seat):
            state.step = {"kind": "play"}
            return
        self._end_turn(state, seat, events)

    # end of the turn ---------------------------------------------------------------------------------
    def _end_turn(self, state: State, seat: int, events: list[Event], collected: bool = False) -> None:
        """Collect, refill the hand, then pass to the next seat that can play (or end the game); stops
        where the seat must say where a collected egg comes from."""
        while True:
            if not collected and not self._collect_turn(state, seat, events):
                return
            collected = False
            seat_without_tiles = self._pass_turn(state, seat, events)
            if seat_without_tiles is None:
                return
            seat = seat_without_tiles

    def _collect_turn(self, state: State, seat: int, events: list[Event]) -> bool:
        """Start collecting at the end of `seat`'s turn: one egg of each type whose row points at its
        square (types lying there excepted). False if a prompt now asks where one comes from."""
        here = state.board["pawns"][seat]
        ix = state.index or state.board_index()
        found = ix.pointing_at(self._in_play(state), SIDES[seat % 4], here, state.board["eggs"][here])
        state.step = {"kind": "collect_from", "queue": found, "taken": [], "then": "turn", "cell": here}
        return self._collect_queue(state, seat, events)

    def _collect_queue(self, state: State, seat: int, events: list[Event]) -> bool:
        """Collect the step's queued eggs in order, asking where one comes from when there is a choice.
        True when done (a "collected" event made), False when a prompt asks."""
        step = state.step
        queue: list[str] = step["queue"]
        taken: list[list[str]] = step["taken"]
        while queue:
            egg = queue[0]
            sources = self._collect_sources(state, seat, egg, step["cell"])
            if len(sources) > 1:
                step["egg"] = egg
                step["queue"] = queue[1:]
                return False
            source = sources[0] if sources else "pile"  # forced: the rules collect it anyway
            self._collect_one(state, seat, egg, source, events)
            taken.append([egg, source])
            queue.pop(0)
        if taken:
            events.append(
                {
                    "type": "collected",
                    "seat": seat,
                    "eggs": [e for e, _ in taken],
                    "sources": [s for _, s in taken],
                    "source_squares": [self._name(state, int(s[1:])) if s.startswith("c") else None for _, s in taken],
                    "cell": step["cell"],
                }
            )
        return True

    def _collect_one(self, state: State, seat: int, egg: str, source: str, events: list[Event]) -> None:
        state.collected[seat][egg] = state.collected[seat].get(egg, 0) + 1
        self._take(state, seat, source, egg, events)

    def _on_collect_from(self, state: State, seat: int, choice: list[str], events: list[Event]) -> None:
        step = state.step
        egg = step.pop("egg")
        self._collect_one(state, seat, egg, choice[0], events)
        step["taken"].append([egg, choice[0]])
        if not self._collect_queue(state, seat, events):
            return
        if step["then"] == "tile":  # Collect any, an action tile
            self._finish_tile(state, seat, events)
        else:
            self._end_turn(state, seat, events, collected=True)

    def _pass_turn(self, state: State, seat: int, events: list[Event]) -> int | None:
        """Refill `seat`'s hand and give the turn to the next seat. Returns that seat when it has no
        tile it may play (its turn ends at once, collection included); None otherwise."""
        self._draw(state, seat, HAND_SIZE - len(state.hands[seat]), events)
        if not self._in_play(state) or state.turn >= ROUND_LIMIT * state.players:
            self._end_game(state, events)
            return None
        seat = (seat + 1) % state.players
        state.current = seat
        state.turn += 1
        if state.locks:
            for lock, holder in list(state.locks.items()):
                if holder == seat:  # a lock lasts until its player's next turn
                    del state.locks[lock]
                    events.append({"type": "lock_ended", "lock": lock, "seat": seat})
        state.plays_left = 1
        state.step = {"kind": "play"}
        if self._playable(state, seat):
            return None
        events.append({"type": "no_tile", "seat": seat})
        return seat

    def _draw(self, state: State, seat: int, count: int, events: list[Event]) -> None:
        drawn: list[int] = []
        for _ in range(max(0, count)):
            if not state.deck:
                if not state.discard:
                    break
                state.deck = state.discard
                state.discard = []
                state.rng.shuffle(state.deck)
                events.append({"type": "reshuffled", "tiles": len(state.deck)})
            drawn.append(state.deck.pop())
        state.hands[seat] += drawn
        if drawn:
            events.append({"type": "drew", "seat": seat, "count": len(drawn)})
            events.append({"type": "drew_tiles", "to": seat, "tiles": drawn})

    def _end_game(self, state: State, events: list[Event]) -> None:
        pending: list[list[int]] = [[] for _ in range(state.players)]
        if state.options["objectives"]:
            for seat, tile_id in enumerate(state.secret):
                if tile_id is not None and state.objective_tiles[tile_id]["kind"] == "guess":
                    left, right = neighbours(seat, state.players)
                    pending[seat] = sorted({left, right})
        if any(pending):
            state.step = {"kind": "guess", "pending": pending}
            events.append({"type": "guessing", "seats": [s for s, p in enumerate(pending) if p]})
            return
        self._finish(state, events)

    def _finish(self, state: State, events: list[Event]) -> None:
        state.finished = True
        state.step = {"kind": "over"}
        result = self.outcome(state)
        assert result is not None
        events.append({"type": "game_over", "scores": result["scores"], "winners": result["winners"]})

    def _on_guess(self, state: State, seat: int, choice: list[str], events: list[Event]) -> None:
        target = state.step["pending"][seat].pop(0)
        state.guesses[seat].append([target, int(choice[0][1:])])
        events.append({"type": "guessed", "seat": seat})
        if not any(state.step["pending"]):
            self._finish(state, events)

    # --- views and outcome -----------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return views.view(state, seat, self.key)

    def views(self, state: State, seats: Sequence[int | None]) -> dict[int | None, dict[str, Any]]:
        return views.build_views(state, seats, self.key)

    def outcome(self, state: State) -> dict[str, Any] | None:
        return views.outcome(state)

    def to_json(self, state: State) -> dict[str, Any]:
        return state.to_json()

    def to_json_to_write(self, state: State) -> dict[str, Any]:
        return state.to_json(copy=False)

    def from_json(self, data: dict[str, Any]) -> State:
        return State.from_json(data)

    def describe(self, view: dict[str, Any]) -> str:
        from games.reggverse.text import summary

        return summary(view)
