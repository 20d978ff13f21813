"""Reggverse Riddles: the rules engine.

A turn is a chain of small prompts to the seat whose turn it is:
    play        which tile of the hand to play
    move        where to move (only squares the tile's green squares reach, from the seat's side,
                on the map and free of other pawns; with none the pawn stays, announced by an event)
    drop        which egg to drop on your square and where it comes from: "<source>:<egg>" with
                source "pile", "mine" (your collected eggs) or "c<square>" (a square with eggs)
                (when more than 25 such choices exist: drop_from, then drop_egg unless the source
                holds one type only)
    rule        where the tile's rule goes: "<egg>:next" (next to that egg's rules, at most 3
                unique rules) or "<egg>:on<tile>" (on top of one of its rules); only placements that
                leave the row matching some but not all squares are offered; if there is none, the
                tile is discarded with an event (more than 25 placements: rule_egg, then rule_spot)
Then, at the end of the turn, the seat collects one egg of each type whose row points at its square
(except types lying on that square), piles that run out lose their rules, and the hand is refilled.
Action tiles replace move + rule by their action, which may ask its own prompts. The game ends when
every pile has run out; with secret objectives, holders of the guessing objective then answer a
secret "guess" prompt per neighbour before the scores are final.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import Any

from games.core import Choice, Game, Option, Player, Prompt, Rng, check_choice
from games.reggverse import board as rules
from games.reggverse.board import SIDES, geometry, side_of
from games.reggverse.data import (
    DEFAULT_EGG_TYPES,
    DEFAULT_SHAPE,
    DEFAULT_TOKENS,
    EGG_COLOURS,
    HAND_SIZE,
    LOCKS,
    MAP_TILES_PER_TYPE,
    SHAPES,
    TILE_TYPES,
)
from games.reggverse.material import action_tiles, objective_tiles, regular_tiles
from games.reggverse.objectives import neighbours, objective_points
from games.reggverse.state import State

Event = dict[str, Any]

# A digital safeguard the box does not need: if the piles never empty (players keep recycling
# eggs), the game ends after this many rounds. Real games end far sooner (see the report).
ROUND_LIMIT = 100
_choice_id = attrgetter("id")
MAX_SELECT = 25  # options in one Discord select menu


class ReggverseRiddles(Game[State]):
    key = "reggverse-riddles"
    title = "Reggverse Riddles"
    # Which side of a tile was used (move or rule) and which action tiles: named by prompt kind.
    ai_levels = ("random", "heuristic")
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
            "map shape: 4x4 grid, 5x4 grid, cross (5x5 without corners) or ring (the border of 5x5)",
        ),
        Option("egg_types", (2, 3, 4, 5, 6, 7, 8), DEFAULT_EGG_TYPES, "how many egg types (piles)"),
        Option("tokens", (3, 4, 5, 6, 7, 8, 9, 10, 12, 15), DEFAULT_TOKENS, "egg tokens per type"),
        Option("action_tiles", (False, True), False, "Action Tiles expansion: 20 action tiles in the deck"),
        Option("objectives", (False, True), False, "Secret Objectives expansion: one secret objective each"),
    )

    def __init__(self) -> None:
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
        """One random rule per egg that passes the none/all test (read from seat 1's side)."""
        set_aside: list[int] = []
        for egg in state.eggs:
            while True:
                if not state.deck:
                    # Practically unreachable: no tile in the deck fits. The left half always does.
                    state.board["rows"][egg] = [
                        {"id": -1 - state.eggs.index(egg), "t": 4, "neg": False, "side": "left"}
                    ]
                    break
                tile = state.tiles[state.deck.pop()]
                if tile["kind"] == "regular" and self._starts_balanced(state, egg, tile["rule"]):
                    state.board["rows"][egg] = [dict(tile["rule"])]
                    break
                set_aside.append(tile["id"])
        state.deck.extend(set_aside)
        state.rng.shuffle(state.deck)

    @staticmethod
    def _starts_balanced(state: State, egg: str, rule: dict[str, Any]) -> bool:
        """`row_is_balanced(board, egg, 0, [rule])`, reading masks through the state's board index."""
        board = state.board
        ix = state.index or state.board_index()
        if rule["t"] == 11:
            mask = rules.rule_mask(rule, board, "south", egg, {**board["rows"], egg: [rule]}, ix)
        else:
            mask = ix.mask(rule, "south")
        return 0 < mask < ix.full

    def players(self, state: State) -> int:
        return state.players

    # --- small helpers ---------------------------------------------------------------------------
    @staticmethod
    def _in_play(state: State) -> list[str]:
        return list(filter(state.piles.__getitem__, state.eggs))  # piles never go below 0

    @staticmethod
    def _locked(state: State, lock: str, seat: int) -> bool:
        holder = state.locks.get(lock)
        return holder is not None and holder != seat

    def _playable(self, state: State, seat: int) -> list[int]:
        hand = state.hands[seat]
        if not state.locks or not self._locked(state, "actions", seat):
            return list(hand)
        return [t for t in hand if state.tiles[t]["kind"] != "action"]

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
        return found

    def _drop_sources(self, state: State, seat: int) -> list[str]:
        here = state.board["pawns"][seat]
        sources = []
        if any(state.piles[e] > 0 for e in state.eggs):
            sources.append("pile")
        if any(v > 0 for v in state.collected[seat].values()):
            sources.append("mine")
        sources += [f"c{c}" for c, kinds in enumerate(state.board_index().kinds) if kinds and c != here]
        return sources

    def _source_eggs(self, state: State, seat: int, source: str) -> list[str]:
        if source == "pile":
            held: dict[str, int] = state.piles
        elif source == "mine":
            held = state.collected[seat]
        else:
            held = state.board["eggs"][int(source[1:])]
        return [e for e in state.eggs if held.get(e, 0) > 0]

    def _spots(self, state: State, seat: int, egg: str, rule: dict[str, Any], first: bool = False) -> list[str]:
        """Legal placements of `rule` in `egg`'s row: "next" and/or "on<tile id>" (with `first`, stop
        at the first one found)."""
        found = self._placements(state, seat, rule, [egg], first)
        return ["next" if covered is None else f"on{covered}" for _, covered in found]

    def _rule_eggs(self, state: State, seat: int, rule: dict[str, Any]) -> list[str]:
        return [e for e in self._in_play(state) if self._spots(state, seat, e, rule, first=True)]

    def _placements(
        self, state: State, seat: int, rule: dict[str, Any], eggs: list[str] | None = None, first: bool = False
    ) -> list[tuple[str, int | None]]:
        """Every legal placement of `rule` as (egg, None) next to its rules or (egg, id of the rule it
        covers), eggs in play in order (or only those of `eggs` in play; with `first`, at most one per
        egg)."""
        live = self._in_play(state) if eggs is None else [e for e in eggs if state.piles[e] > 0]
        return (state.index or state.board_index()).placements(live, rule, SIDES[seat % 4], first)

    def _drop_choices(self, state: State, seat: int) -> list[Choice]:
        """Every (source, egg) the seat may drop, as "<source>:<egg>" choices: piles, then its own
        eggs, then squares (not its own) in order, each in the game's egg order."""
        labels = state.labels or state.choice_labels()
        found = labels.pile_drops(self._in_play(state))
        mine = state.collected[seat]
        if mine:
            found += labels.mine_drops(list(filter(mine.get, state.eggs)))  # counts are never below 0
        return found + labels.square_drops(SIDES[seat % 4], state.board["pawns"][seat])

    def _spot_label(self, state: State, egg: str, spot: str) -> str:
        return state.choice_labels().spot_label(egg, spot)

    def _egg_label(self, state: State, egg: str) -> str:
        return f"{egg} egg ({state.piles[egg]} in pile)"

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
        side = side_of(seat)
        cells = lambda ids: [labels.cell_choice(side, c) for c in ids]  # noqa: E731
        egg_choices = lambda es: [Choice(e, self._egg_label(state, e)) for e in es]  # noqa: E731
        info: dict[str, Any] = {"step": kind, "tile": step.get("tile")}
        text: str
        pick = 1
        if kind == "drop":
            return [self._drop_prompt(state, seat, self._drop_choices(state, seat))]
        elif kind == "drop_from":
            choices = [labels.source_choice(side, src) for src in self._drop_sources(state, seat)]
            text = "Take the egg to drop on your tile from where?"
        elif kind in ("drop_egg", "to_pile_egg", "shift_egg", "steal_egg"):
            source = step["source"]
            if kind == "steal_egg":
                held = state.collected[int(source[1:])]
                es = [e for e in state.eggs if held.get(e, 0) > 0]
            elif kind == "to_pile_egg":
                es = [e for e in self._source_eggs(state, seat, source) if state.piles[e] > 0]
            else:
                es = self._source_eggs(state, seat, source)
            choices = [Choice(e, f"{e} egg") for e in es]
            text = "Which egg?"
        elif kind == "rule":
            rule = state.tiles[step["tile"]]["rule"]
            choices = labels.spot_choices(self._placements(state, seat, rule))
            text = labels.rule_question(rule)
        elif kind == "rule_egg":
            rule = state.tiles[step["tile"]]["rule"]
            choices = egg_choices(self._rule_eggs(state, seat, rule))
            text = f'Which egg gets the rule "{rules.rule_text(rule)}"?'
        elif kind == "rule_spot":
            rule = state.tiles[step["tile"]]["rule"]
            choices = [
                Choice(spot, self._spot_label(state, step["egg"], spot))
                for spot in self._spots(state, seat, step["egg"], rule)
            ]
            text = f"Where in the {step['egg']} row?"
            info["egg"] = step["egg"]
        elif kind == "cleanup":
            choices = egg_choices([e for e in self._in_play(state) if state.board["rows"][e]])
            text = "Clear the rules of which egg?"
        elif kind in ("collect", "spawn_egg"):
            choices = egg_choices(self._in_play(state))
            text = "Take an egg from which pile?"
        elif kind == "teleport":
            pawns = state.board["pawns"]
            choices = cells([c for c in range(len(state.board["types"])) if c not in pawns])
            text = "Teleport to which tile?"
        elif kind == "to_pile_from":
            choices = cells(self._to_pile_cells(state))
            text = f"Send an egg back to its pile from which tile? ({step['left']} left)"
            info["left"] = step["left"]
        elif kind == "switch":
            choices = egg_choices(self._in_play(state))
            pick = 2
            text = "Which two eggs swap their rule rows?"
        elif kind == "steal_from":
            choices = [
                Choice(f"s{s}", f"Seat {s + 1} ({sum(state.collected[s].values())} eggs)")
                for s in self._steal_targets(state, seat)
            ]
            text = "Steal an egg from whom?"
        elif kind == "shift_from":
            choices = [*cells(self._egg_cells(state)), Choice("done", "Done moving eggs")]
            text = f"Move an egg from which tile? ({step['left']} left)"
            info["left"] = step["left"]
        elif kind in ("shift_to", "spawn_to"):
            skip = int(step["source"][1:]) if kind == "shift_to" else -1
            choices = cells([c for c in range(len(state.board["types"])) if c != skip])
            text = f"Put the {step['egg']} egg on which tile?"
            info["egg"] = step["egg"]
        elif kind == "trade_give":
            choices = [Choice(e, f"Give 3 {e}") for e in self._trade_gives(state, seat)]
            text = "Trade 3 eggs of which type?"
        elif kind == "trade_get":
            choices = [Choice(e, f"Get 1 {e}") for e in self._in_play(state) if e != step["give"]]
            text = "Get one egg of which type?"
        elif kind == "swap":
            choices = cells(range(len(state.board["types"])))
            pick = 2
            text = "Which two map tiles swap places?"
        else:  # pragma: no cover - every step kind is listed above
            raise AssertionError(f"unknown step {kind!r}")
        return [Prompt(seat=seat, kind=kind, choices=choices, pick=pick, text=text, info=info)]

    def _guess_prompts(self, state: State) -> list[Prompt]:
        found = []
        for seat, targets in enumerate(state.step["pending"]):
            if not targets:
                continue
            target = targets[0]
            own = state.secret[seat]
            choices = [Choice(f"o{t['id']}", t["text"][:100]) for t in state.objective_tiles if t["id"] != own]
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

    def _to_pile_cells(self, state: State) -> list[int]:
        return [
            c
            for c, eggs in enumerate(state.board["eggs"])
            if any(v > 0 and state.piles.get(e, 0) > 0 for e, v in eggs.items())
        ]

    def _egg_cells(self, state: State) -> list[int]:
        return [c for c, eggs in enumerate(state.board["eggs"]) if any(v > 0 for v in eggs.values())]

    def _steal_targets(self, state: State, seat: int) -> list[int]:
        return [s for s in range(state.players) if s != seat and any(state.collected[s].values())]

    def _trade_gives(self, state: State, seat: int) -> list[str]:
        live = self._in_play(state)
        return [e for e, v in state.collected[seat].items() if v >= 3 and any(g != e for g in live)]

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
        if state.locks and self._locked(state, "move", seat):
            events.append({"type": "move_locked", "seat": seat, "by": state.locks["move"]})
            self._begin_drop(state, seat, events)
            return
        destinations = self._destinations(state, seat, state.step["tile"])
        if not destinations:
            events.append({"type": "stayed", "seat": seat, "cell": state.board["pawns"][seat]})
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
        cell = int(choice[0][1:])
        events.append({"type": "moved", "seat": seat, "from": state.board["pawns"][seat], "to": cell})
        state.board["pawns"][seat] = cell
        state.pawns_changed()
        self._begin_drop(state, seat, events)

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
        eggs = self._source_eggs(state, seat, source)
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
        events.append({"type": "dropped", "seat": seat, "egg": egg, "source": source, "cell": here})
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

    @staticmethod
    def _put(state: State, cell: int, egg: str) -> None:
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

    def _begin_rule(self, state: State, seat: int, events: list[Event]) -> None:
        tile_id = state.step["tile"]
        if state.locks and self._locked(state, "rules", seat):
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
                    info={"step": "rule", "tile": tile_id},
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

    def _end_turn(self, state: State, seat: int, events: list[Event]) -> None:
        """Collect, refill the hand, then pass to the next seat that can play (or end the game)."""
        while True:
            self._collect(state, seat, events)
            self._draw(state, seat, HAND_SIZE - len(state.hands[seat]), events)
            if not self._in_play(state) or state.turn >= ROUND_LIMIT * state.players:
                self._end_game(state, events)
                return
            seat = (seat + 1) % state.players
            state.current = seat
            state.turn += 1
            if state.locks:
                for lock, holder in list(state.locks.items()):
                    if holder == seat:  # a lock lasts until its player's next turn
                        del state.locks[lock]
                        events.append({"type": "lock_ended", "lock": lock, "seat": seat})
            state.plays_left = 1
            if self._playable(state, seat):
                state.step = {"kind": "play"}
                return
            events.append({"type": "no_tile", "seat": seat})

    def _collect(self, state: State, seat: int, events: list[Event]) -> None:
        here = state.board["pawns"][seat]
        # types lying on the square are not collected
        ix = state.index or state.board_index()
        found = ix.pointing_at(self._in_play(state), SIDES[seat % 4], here, state.board["eggs"][here])
        for egg in found:
            state.collected[seat][egg] = state.collected[seat].get(egg, 0) + 1
            self._from_pile(state, egg, events)
        if found:
            events.append({"type": "collected", "seat": seat, "eggs": found, "cell": here})

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

    # action tiles -------------------------------------------------------------------------------
    def _begin_action(self, state: State, seat: int, tile: dict[str, Any], events: list[Event]) -> None:
        kind = tile["action"]
        state.discard.append(tile["id"])
        step = state.step
        if kind in LOCKS:
            state.locks[LOCKS[kind]] = seat
            events.append({"type": "locked", "lock": LOCKS[kind], "seat": seat})
        elif kind == "double":
            state.plays_left += 2
            events.append({"type": "double_turn", "seat": seat})
        elif kind == "refresh":
            state.discard += state.hands[seat]
            events.append({"type": "hand_discarded", "seat": seat, "count": len(state.hands[seat])})
            state.hands[seat] = []
            self._draw(state, seat, HAND_SIZE, events)
        elif kind == "draw3":
            self._draw(state, seat, 3, events)
        else:
            needs = {
                "cleanup": lambda: any(state.board["rows"][e] for e in self._in_play(state)),
                "collect": lambda: bool(self._in_play(state)),
                "teleport": lambda: len(state.board["pawns"]) < len(state.board["types"]),
                "to_pile": lambda: bool(self._to_pile_cells(state)),
                "switch": lambda: len(self._in_play(state)) >= 2,
                "steal": lambda: bool(self._steal_targets(state, seat)),
                "shift": lambda: bool(self._egg_cells(state)),
                "spawn": lambda: bool(self._in_play(state)),
                "trade": lambda: bool(self._trade_gives(state, seat)),
                "swap": lambda: True,
            }
            if not needs[kind]():
                events.append({"type": "no_effect", "seat": seat, "action": kind})
            else:
                first = {
                    "to_pile": "to_pile_from",
                    "steal": "steal_from",
                    "shift": "shift_from",
                    "spawn": "spawn_egg",
                    "trade": "trade_give",
                }.get(kind, kind)
                step["kind"] = first
                step["left"] = 3
                return
        self._finish_tile(state, seat, events)

    def _on_cleanup(self, state: State, seat: int, choice: list[str], events: list[Event]) -> None:
        egg = choice[0]
        removed = state.board["rows"][egg]
        state.discard += [r["id"] for r in removed if r["id"] >= 0]
        state.board["rows"][egg] = []
        events.append({"type": "rules_cleared", "seat": seat, "egg": egg})
        self._finish_tile(state, seat, events)

    def _on_collect(self, state: State, seat: int, choice: list[str], events: list[Event]) -> None:
        egg = choice[0]
        state.collected[seat][egg] = state.collected[seat].get(egg, 0) + 1
        events.append({"type": "collected", "seat": seat, "eggs": [egg], "cell": None})
        self._from_pile(state, egg, events)
        self._finish_tile(state, seat, events)

    def _on_teleport(self, state: State, seat: int, choice: list[str], events: list[Event]) -> None:
        cell = int(choice[0][1:])
        events.append({"type": "moved", "seat": seat, "from": state.board["pawns"][seat], "to": cell, "teleport": True})
        state.board["pawns"][seat] = cell
        state.pawns_changed()
        self._finish_tile(state, seat, events)

    def _on_to_pile_from(self, state: State, seat: int, choice: list[str], events: list[Event]) -> None:
        source = choice[0]
        eggs = [e for e in self._source_eggs(state, seat, source) if state.piles[e] > 0]
        if len(eggs) == 1:
            self._to_pile(state, seat, source, eggs[0], events)
        else:
            state.step.update(kind="to_pile_egg", source=source)

    def _on_to_pile_egg(self, state: State, seat: int, choice: list[str], events: list[Event]) -> None:
        self._to_pile(state, seat, state.step.pop("source"), choice[0], events)

    def _to_pile(self, state: State, seat: int, source: str, egg: str, events: list[Event]) -> None:
        self._take(state, seat, source, egg, events)
        state.piles[egg] += 1
        events.append({"type": "to_pile", "seat": seat, "egg": egg, "cell": int(source[1:])})
        state.step["left"] -= 1
        if state.step["left"] > 0 and self._to_pile_cells(state):
            state.step["kind"] = "to_pile_from"
        else:
            self._finish_tile(state, seat, events)

    def _on_switch(self, state: State, seat: int, choice: list[str], events: list[Event]) -> None:
        a, b = choice
        rows = state.board["rows"]
        rows[a], rows[b] = rows[b], rows[a]
        events.append({"type": "rules_switched", "seat": seat, "eggs": [a, b]})
        self._finish_tile(state, seat, events)

    def _on_steal_from(self, state: State, seat: int, choice: list[str], events: list[Event]) -> None:
        victim = int(choice[0][1:])
        eggs = [e for e in state.eggs if state.collected[victim].get(e, 0) > 0]
        if len(eggs) == 1:
            self._steal(state, seat, victim, eggs[0], events)
        else:
            state.step.update(kind="steal_egg", source=choice[0])

    def _on_steal_egg(self, state: State, seat: int, choice: list[str], events: list[Event]) -> None:
        self._steal(state, seat, int(state.step.pop("source")[1:]), choice[0], events)

    def _steal(self, state: State, seat: int, victim: int, egg: str, events: list[Event]) -> None:
        self._take(state, victim, "mine", egg, events)
        state.collected[seat][egg] = state.collected[seat].get(egg, 0) + 1
        events.append({"type": "stole", "seat": seat, "from": victim, "egg": egg})
        self._finish_tile(state, seat, events)

    def _on_shift_from(self, state: State, seat: int, choice: list[str], events: list[Event]) -> None:
        if choice[0] == "done":
            self._finish_tile(state, seat, events)
            return
        eggs = self._source_eggs(state, seat, choice[0])
        state.step["source"] = choice[0]
        if len(eggs) == 1:
            state.step.update(kind="shift_to", egg=eggs[0])
        else:
            state.step["kind"] = "shift_egg"

    def _on_shift_egg(self, state: State, seat: int, choice: list[str], events: list[Event]) -> None:
        state.step.update(kind="shift_to", egg=choice[0])

    def _on_shift_to(self, state: State, seat: int, choice: list[str], events: list[Event]) -> None:
        source, egg = state.step.pop("source"), state.step.pop("egg")
        cell = int(choice[0][1:])
        self._take(state, seat, source, egg, events)
        self._put(state, cell, egg)
        events.append({"type": "egg_moved", "seat": seat, "egg": egg, "from": int(source[1:]), "to": cell})
        state.step["left"] -= 1
        if state.step["left"] > 0 and self._egg_cells(state):
            state.step["kind"] = "shift_from"
        else:
            self._finish_tile(state, seat, events)

    def _on_spawn_egg(self, state: State, seat: int, choice: list[str], events: list[Event]) -> None:
        state.step.update(kind="spawn_to", egg=choice[0])

    def _on_spawn_to(self, state: State, seat: int, choice: list[str], events: list[Event]) -> None:
        egg = state.step.pop("egg")
        cell = int(choice[0][1:])
        self._from_pile(state, egg, events)
        self._put(state, cell, egg)
        events.append({"type": "egg_placed", "seat": seat, "egg": egg, "cell": cell})
        state.step["left"] -= 1
        if state.step["left"] > 0 and self._in_play(state):
            state.step["kind"] = "spawn_egg"
        else:
            self._finish_tile(state, seat, events)

    def _on_trade_give(self, state: State, seat: int, choice: list[str], events: list[Event]) -> None:
        state.step.update(kind="trade_get", give=choice[0])

    def _on_trade_get(self, state: State, seat: int, choice: list[str], events: list[Event]) -> None:
        give = state.step.pop("give")
        get = choice[0]
        for _ in range(3):
            self._take(state, seat, "mine", give, events)
        state.boxed += 3  # traded eggs leave the game
        state.collected[seat][get] = state.collected[seat].get(get, 0) + 1
        events.append({"type": "traded", "seat": seat, "gave": give, "got": get})
        self._from_pile(state, get, events)
        self._finish_tile(state, seat, events)

    def _on_swap(self, state: State, seat: int, choice: list[str], events: list[Event]) -> None:
        a, b = (int(c[1:]) for c in choice)
        b_ = state.board
        b_["types"][a], b_["types"][b] = b_["types"][b], b_["types"][a]
        b_["eggs"][a], b_["eggs"][b] = b_["eggs"][b], b_["eggs"][a]
        b_["pawns"] = [b if p == a else a if p == b else p for p in b_["pawns"]]
        state.board_changed()
        events.append({"type": "tiles_swapped", "seat": seat, "cells": [a, b]})
        self._finish_tile(state, seat, events)

    # --- views and outcome -----------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        geo = geometry(state.board["shape"])
        board = {
            "shape": state.board["shape"],
            "width": geo.width,
            "height": geo.height,
            "cells": [list(c) for c in geo.cells],
            "types": list(state.board["types"]),
            "eggs": [dict(e) for e in state.board["eggs"]],
            "pawns": list(state.board["pawns"]),
            "rows": {e: [{**r, "text": rules.rule_text(r)} for r in row] for e, row in state.board["rows"].items()},
        }
        step = {k: v for k, v in state.step.items() if k != "pending"}
        if "tile" in step and step["tile"] is not None:
            step["tile_data"] = self._public_tile(state, step["tile"])
        view: dict[str, Any] = {
            "game": self.key,
            "seat": seat,
            "side": side_of(seat if seat is not None else 0),
            "players": state.players,
            "sides": [side_of(s) for s in range(state.players)],
            "board": board,
            "eggs": list(state.eggs),
            "piles": dict(state.piles),
            "out_order": list(state.out_order),
            "collected": [dict(c) for c in state.collected],
            "scores": [sum(c.values()) for c in state.collected],
            "hand_sizes": [len(h) for h in state.hands],
            "deck": len(state.deck),
            "discard": len(state.discard),
            "current": state.current,
            "turn": state.turn,
            "step": step,
            "locks": dict(state.locks),
            "plays_left": state.plays_left,
            "finished": state.finished,
            "options": dict(state.options),
        }
        if state.options["objectives"]:
            view["objective_list"] = [t["text"] for t in state.objective_tiles]
            if state.finished:
                view["objectives"] = [state.objective_tiles[t]["text"] if t is not None else None for t in state.secret]
        if seat is not None:
            view["hand"] = [self._public_tile(state, t) for t in state.hands[seat]]
            own = state.secret[seat]
            if state.options["objectives"] and own is not None:
                view["objective"] = dict(state.objective_tiles[own])
        if state.finished:
            view["outcome"] = self.outcome(state)
        return view

    @staticmethod
    def _public_tile(state: State, tile_id: int) -> dict[str, Any]:
        tile = dict(state.tiles[tile_id])
        if tile["kind"] == "regular":
            tile["rule"] = {**tile["rule"], "text": rules.rule_text(tile["rule"])}
        return tile

    def outcome(self, state: State) -> dict[str, Any] | None:
        if not state.finished:
            return None
        scores: list[int] = []
        breakdown: list[dict[str, Any]] = []
        for seat in range(state.players):
            eggs = sum(state.collected[seat].values())
            points = 0
            text = None
            own = state.secret[seat]
            if state.options["objectives"] and own is not None:
                tile = state.objective_tiles[own]
                text = tile["text"]
                points = objective_points(
                    tile,
                    seat,
                    state.collected,
                    state.eggs,
                    state.out_order,
                    state.guesses[seat],
                    state.secret,
                    state.objective_tiles,
                )
            scores.append(eggs + points)
            breakdown.append(
                {
                    "eggs": eggs,
                    "by_type": dict(state.collected[seat]),
                    "objective": text,
                    "objective_points": points,
                    "total": eggs + points,
                }
            )
        best = max(scores)
        ranking = [1 + sum(1 for other in scores if other > v) for v in scores]  # equal scores share a rank
        return {
            "scores": scores,
            "winners": [s for s, v in enumerate(scores) if v == best],
            "ranking": ranking,
            "breakdown": breakdown,
            "out_order": list(state.out_order),
            "turns": state.turn,
        }

    def to_json(self, state: State) -> dict[str, Any]:
        return state.to_json()

    def from_json(self, data: dict[str, Any]) -> State:
        return State.from_json(data)

    def describe(self, view: dict[str, Any]) -> str:
        from games.reggverse.text import summary

        return summary(view)

    # --- AI ------------------------------------------------------------------------------------
    def ai(self, level: str, seed: int) -> Player:
        if level == "heuristic":
            from games.reggverse.ai import HeuristicPlayer

            return HeuristicPlayer(seed)
        return super().ai(level, seed)
