"""Reggverse Riddles: the Action Tiles expansion (the engine's `ReggverseRiddles` mixes this in).

An action tile replaces the move, the drop and the rule of a regular tile with its action. Actions that
need decisions ask them as small prompts (step kinds below); every choice offered keeps the none/all rule
of `games.reggverse.balance`, and an action with nothing it may do has no effect (an event says so).

    cleanup                 which egg's rules are cleared
    collect, collect_from   which egg type to collect, then from its pile or from which square
    teleport                which free square to move to
    to_pile_from/_egg       a square, then which of its eggs goes back to its pile (3 times)
    switch, switch_with     two eggs whose rule rows switch places, one after the other
    steal_from/_egg         whose collected egg to take, then which type
    shift_from/_to/_egg     "move at most 3 eggs from one tile to another": the square, the other square,
                            then each egg (up to 3, "done" after the first)
    spawn_egg, spawn_to     "move 3 eggs from a pile to any tiles": the pile, then a square per egg
    trade_give/_get         the type given (3 eggs, back to their pile) and the type got (from its pile)
    swap, swap_with         two map tiles that swap places with their eggs and pawns
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.core import Choice
from games.reggverse.balance import Balance
from games.reggverse.board import side_of
from games.reggverse.data import HAND_SIZE, LOCKS
from games.reggverse.state import State

Event = dict[str, Any]

# What each lock forbids, for everybody (the holder too) until the holder's next turn: moving a pawn
# (the tile's movement, Teleport, Swap), changing rule rows (the tile's rule, Cleanup, Switch rules),
# playing action tiles.
LOCKED_ACTIONS: dict[str, frozenset[str]] = {
    "move": frozenset({"teleport", "swap"}),
    "rules": frozenset({"cleanup", "switch"}),
}
FIRST_STEP = {
    "to_pile": "to_pile_from",
    "steal": "steal_from",
    "shift": "shift_from",
    "spawn": "spawn_egg",
    "trade": "trade_give",
}
ACTION_EGGS = 3  # Back to pile, Move eggs, Move eggs from a pile, Trade: three eggs each


class ActionTiles:
    """The action tiles' steps. The engine provides the shared helpers declared at the end."""

    # --- what an action may do now (each list holds only choices that keep the rows balanced) ---------
    def _cleanup_eggs(self, state: State) -> list[str]:
        bal = Balance(state)
        rows = state.board["rows"]
        return [e for e in self._in_play(state) if rows[e] and bal.rows({**rows, e: []}, [e])]

    def _collect_eggs(self, state: State, seat: int) -> list[str]:
        return [e for e in self._in_play(state) if self._collect_sources(state, seat, e, None)]

    def _teleports(self, state: State, seat: int) -> list[int]:
        bal = Balance(state)
        pawns = state.board["pawns"]
        return [c for c in range(len(state.board["types"])) if c not in pawns and bal.pawn(seat, c)]

    def _to_pile_eggs(self, state: State, cell: int) -> list[str]:
        """The eggs on `cell` that may go back to their piles (piles still in play)."""
        bal = Balance(state)
        lying = state.board["eggs"][cell]
        return [e for e in state.eggs if lying.get(e) and state.piles[e] > 0 and bal.eggs([(cell, e, -1)])]

    def _to_pile_cells(self, state: State) -> list[int]:
        return [c for c, lying in enumerate(state.board["eggs"]) if lying and self._to_pile_eggs(state, c)]

    def _switch_partners(self, state: State, first: str) -> list[str]:
        bal = Balance(state)
        rows = state.board["rows"]
        return [
            e
            for e in self._in_play(state)
            if e != first and bal.rows({**rows, first: rows[e], e: rows[first]}, [first, e])
        ]

    def _switch_firsts(self, state: State) -> list[str]:
        return [e for e in self._in_play(state) if self._switch_partners(state, e)]

    def _steal_targets(self, state: State, seat: int) -> list[int]:
        return [s for s in range(state.players) if s != seat and any(state.collected[s].values())]

    def _shift_eggs(self, state: State, source: int, target: int, bal: Balance | None = None) -> list[str]:
        bal = bal or Balance(state)
        lying = state.board["eggs"][source]
        return [e for e in state.eggs if lying.get(e) and bal.eggs([(source, e, -1), (target, e, 1)])]

    def _shift_targets(self, state: State, source: int) -> list[int]:
        bal = Balance(state)
        cells = range(len(state.board["types"]))
        return [c for c in cells if c != source and self._shift_eggs(state, source, c, bal)]

    def _shift_sources(self, state: State) -> list[int]:
        bal = Balance(state)
        cells = range(len(state.board["types"]))
        return [
            c
            for c, lying in enumerate(state.board["eggs"])
            if lying and any(d != c and self._shift_eggs(state, c, d, bal) for d in cells)
        ]

    def _spawn_targets(self, state: State, egg: str) -> list[int]:
        bal = Balance(state)
        emptied = egg if state.piles[egg] == 1 else None
        return [c for c in range(len(state.board["types"])) if bal.eggs([(c, egg, 1)], emptied)]

    def _spawn_eggs(self, state: State) -> list[str]:
        return [e for e in self._in_play(state) if self._spawn_targets(state, e)]

    def _trade_gets(self, state: State, give: str) -> list[str]:
        bal = Balance(state)
        return [e for e in self._in_play(state) if e != give and (state.piles[e] > 1 or bal.emptied(e))]

    def _trade_gives(self, state: State, seat: int) -> list[str]:
        mine = state.collected[seat]
        return [e for e in state.eggs if mine.get(e, 0) >= ACTION_EGGS and self._trade_gets(state, e)]

    def _swap_partners(self, state: State, first: int) -> list[int]:
        bal = Balance(state)
        return [c for c in range(len(state.board["types"])) if c != first and bal.swapped(first, c)]

    def _swap_firsts(self, state: State) -> list[int]:
        """The squares that may swap with some other one (a check per pair is a board indexed anew:
        each square stops at its first partner)."""
        bal = Balance(state)
        cells = range(len(state.board["types"]))
        return [c for c in cells if any(d != c and bal.swapped(c, d) for d in cells)]

    # --- playing one -------------------------------------------------------------------------------
    def _begin_action(self, state: State, seat: int, tile: dict[str, Any], events: list[Event]) -> None:
        kind = tile["action"]
        state.discard.append(tile["id"])
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
            possible: dict[str, Callable[[], Any]] = {
                "cleanup": lambda: self._cleanup_eggs(state),
                "collect": lambda: self._collect_eggs(state, seat),
                "teleport": lambda: self._teleports(state, seat),
                "to_pile": lambda: self._to_pile_cells(state),
                "switch": lambda: self._switch_firsts(state),
                "steal": lambda: self._steal_targets(state, seat),
                "shift": lambda: self._shift_sources(state),
                "spawn": lambda: self._spawn_eggs(state),
                "trade": lambda: self._trade_gives(state, seat),
                "swap": lambda: self._swap_firsts(state),
            }
            if not possible[kind]():
                events.append({"type": "no_effect", "seat": seat, "action": kind})
            else:
                state.step["kind"] = FIRST_STEP.get(kind, kind)
                state.step["left"] = ACTION_EGGS
                return
        self._finish_tile(state, seat, events)

    def _action_choices(self, state: State, seat: int, kind: str) -> tuple[list[Choice], int, str, dict[str, Any]]:
        """(choices, pick, English question, extra info) of an action step."""
        step = state.step
        labels = state.labels or state.choice_labels()
        side = side_of(seat)
        cells = lambda ids: [labels.cell_choice(side, c) for c in ids]  # noqa: E731
        eggs = lambda es: [labels.egg_choice(e, state.piles[e]) for e in es]  # noqa: E731
        if kind == "cleanup":
            return eggs(self._cleanup_eggs(state)), 1, "Clear the rules of which egg?", {}
        if kind == "collect":
            return eggs(self._collect_eggs(state, seat)), 1, "Collect which egg?", {}
        if kind == "teleport":
            return cells(self._teleports(state, seat)), 1, "Teleport to which tile?", {}
        if kind == "to_pile_from":
            left = step["left"]
            text = f"Send an egg back to its pile from which tile? ({left} left)"
            return cells(self._to_pile_cells(state)), 1, text, {"left": left}
        if kind == "to_pile_egg":
            cell = int(step["source"][1:])
            return [labels.plain_egg(e) for e in self._to_pile_eggs(state, cell)], 1, "Which egg?", {"cell": cell}
        if kind == "switch":
            return eggs(self._switch_firsts(state)), 1, "Which egg's rule row switches places?", {}
        if kind == "switch_with":
            first = step["egg"]
            text = f"Switch the {first} row with which egg's row?"
            return eggs(self._switch_partners(state, first)), 1, text, {"egg": first}
        if kind == "steal_from":
            victims = self._steal_targets(state, seat)
            choices = [labels.seat_choice(s, sum(state.collected[s].values())) for s in victims]
            return choices, 1, "Steal an egg from whom?", {}
        if kind == "steal_egg":
            victim = int(step["source"][1:])
            held = state.collected[victim]
            return [labels.plain_egg(e) for e in state.eggs if held.get(e)], 1, "Which egg?", {"seat": victim}
        if kind == "shift_from":
            return cells(self._shift_sources(state)), 1, "Move eggs from which tile?", {}
        if kind == "shift_to":
            source = step["from"]
            return cells(self._shift_targets(state, source)), 1, "Move them to which tile?", {"from": source}
        if kind == "shift_egg":
            source, target, left = step["from"], step["to"], step["left"]
            choices = [labels.plain_egg(e) for e in self._shift_eggs(state, source, target)]
            if left < ACTION_EGGS:
                choices.append(labels.done_choice())
            text = f"Which egg moves? ({left} left)"
            return choices, 1, text, {"from": source, "to": target, "left": left}
        if kind == "spawn_egg":
            return eggs(self._spawn_eggs(state)), 1, "Take 3 eggs from which pile?", {}
        if kind == "spawn_to":
            egg, left = step["egg"], step["left"]
            text = f"Put the {egg} egg on which tile? ({left} left)"
            return cells(self._spawn_targets(state, egg)), 1, text, {"egg": egg, "left": left}
        if kind == "trade_give":
            choices = [labels.plain_egg(e) for e in self._trade_gives(state, seat)]
            return choices, 1, "Trade 3 eggs of which type?", {}
        if kind == "trade_get":
            give = step["give"]
            return eggs(self._trade_gets(state, give)), 1, "Get one egg of which type?", {"egg": give}
        if kind == "swap":
            return cells(self._swap_firsts(state)), 1, "Which map tile swaps places?", {}
        if kind == "swap_with":
            first = step["cell"]
            return cells(self._swap_partners(state, first)), 1, "Swap it with which map tile?", {"cell": first}
        raise AssertionError(f"unknown step {kind!r}")  # pragma: no cover - every step kind is listed above

    # --- answers ----------------------------------------------------------------------------------
    def _on_cleanup(self, state: State, seat: int, choice: list[str], events: list[Event]) -> None:
        egg = choice[0]
        removed = state.board["rows"][egg]
        state.discard += [r["id"] for r in removed if r["id"] >= 0]
        state.board["rows"][egg] = []
        events.append({"type": "rules_cleared", "seat": seat, "egg": egg})
        self._finish_tile(state, seat, events)

    def _on_collect(self, state: State, seat: int, choice: list[str], events: list[Event]) -> None:
        egg = choice[0]
        sources = self._collect_sources(state, seat, egg, None)
        if len(sources) > 1:
            state.step.update(kind="collect_from", egg=egg, queue=[], taken=[], then="tile", cell=None)
            return
        source = sources[0]
        self._collect_one(state, seat, egg, source, events)
        square = self._name(state, int(source[1:])) if source.startswith("c") else None
        events.append(
            {
                "type": "collected",
                "seat": seat,
                "eggs": [egg],
                "sources": [source],
                "source_squares": [square],
                "cell": None,
            }
        )
        self._finish_tile(state, seat, events)

    def _on_teleport(self, state: State, seat: int, choice: list[str], events: list[Event]) -> None:
        self._move_pawn(state, seat, int(choice[0][1:]), events, teleport=True)
        self._finish_tile(state, seat, events)

    def _on_to_pile_from(self, state: State, seat: int, choice: list[str], events: list[Event]) -> None:
        eggs = self._to_pile_eggs(state, int(choice[0][1:]))
        if len(eggs) == 1:
            self._to_pile(state, seat, choice[0], eggs[0], events)
        else:
            state.step.update(kind="to_pile_egg", source=choice[0])

    def _on_to_pile_egg(self, state: State, seat: int, choice: list[str], events: list[Event]) -> None:
        self._to_pile(state, seat, state.step.pop("source"), choice[0], events)

    def _to_pile(self, state: State, seat: int, source: str, egg: str, events: list[Event]) -> None:
        self._take(state, seat, source, egg, events)
        state.piles[egg] += 1
        cell = int(source[1:])
        events.append({"type": "to_pile", "seat": seat, "egg": egg, "cell": cell, "square": self._name(state, cell)})
        state.step["left"] -= 1
        if state.step["left"] > 0 and self._to_pile_cells(state):
            state.step["kind"] = "to_pile_from"
        else:
            self._finish_tile(state, seat, events)

    def _on_switch(self, state: State, seat: int, choice: list[str], events: list[Event]) -> None:
        state.step.update(kind="switch_with", egg=choice[0])

    def _on_switch_with(self, state: State, seat: int, choice: list[str], events: list[Event]) -> None:
        a, b = state.step.pop("egg"), choice[0]
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
        state.step.update(kind="shift_to", **{"from": int(choice[0][1:])})

    def _on_shift_to(self, state: State, seat: int, choice: list[str], events: list[Event]) -> None:
        state.step.update(kind="shift_egg", to=int(choice[0][1:]))
        self._next_shift(state, seat, events)

    def _on_shift_egg(self, state: State, seat: int, choice: list[str], events: list[Event]) -> None:
        if choice[0] == "done":
            self._finish_tile(state, seat, events)
            return
        step = state.step
        source, target, egg = step["from"], step["to"], choice[0]
        self._take(state, seat, f"c{source}", egg, events)
        self._put(state, target, egg)
        events.append(
            {
                "type": "egg_moved",
                "seat": seat,
                "egg": egg,
                "from": source,
                "to": target,
                "from_square": self._name(state, source),
                "square": self._name(state, target),
            }
        )
        step["left"] -= 1
        self._next_shift(state, seat, events)

    def _next_shift(self, state: State, seat: int, events: list[Event]) -> None:
        """Ask for the next egg to move, or end the action when none may move (or three have)."""
        step = state.step
        if step["left"] == 0 or not self._shift_eggs(state, step["from"], step["to"]):
            self._finish_tile(state, seat, events)

    def _on_spawn_egg(self, state: State, seat: int, choice: list[str], events: list[Event]) -> None:
        state.step.update(kind="spawn_to", egg=choice[0])

    def _on_spawn_to(self, state: State, seat: int, choice: list[str], events: list[Event]) -> None:
        egg = state.step["egg"]
        cell = int(choice[0][1:])
        self._from_pile(state, egg, events)
        self._put(state, cell, egg)
        events.append({"type": "egg_placed", "seat": seat, "egg": egg, "cell": cell, "square": self._name(state, cell)})
        state.step["left"] -= 1
        if state.step["left"] == 0 or state.piles[egg] == 0 or not self._spawn_targets(state, egg):
            self._finish_tile(state, seat, events)

    def _on_trade_give(self, state: State, seat: int, choice: list[str], events: list[Event]) -> None:
        state.step.update(kind="trade_get", give=choice[0])

    def _on_trade_get(self, state: State, seat: int, choice: list[str], events: list[Event]) -> None:
        give = state.step.pop("give")
        get = choice[0]
        for _ in range(ACTION_EGGS):
            self._take(state, seat, "mine", give, events)
        # The traded eggs go back to their pile; a pile that has run out is gone, and they leave the game.
        returned = state.piles[give] > 0
        if returned:
            state.piles[give] += ACTION_EGGS
        else:
            state.boxed += ACTION_EGGS
        state.collected[seat][get] = state.collected[seat].get(get, 0) + 1
        events.append({"type": "traded", "seat": seat, "gave": give, "got": get, "returned": returned})
        self._from_pile(state, get, events)
        self._finish_tile(state, seat, events)

    def _on_swap(self, state: State, seat: int, choice: list[str], events: list[Event]) -> None:
        state.step.update(kind="swap_with", cell=int(choice[0][1:]))

    def _on_swap_with(self, state: State, seat: int, choice: list[str], events: list[Event]) -> None:
        a, b = state.step.pop("cell"), int(choice[0][1:])
        board = state.board
        board["types"][a], board["types"][b] = board["types"][b], board["types"][a]
        board["eggs"][a], board["eggs"][b] = board["eggs"][b], board["eggs"][a]
        board["pawns"] = [b if p == a else a if p == b else p for p in board["pawns"]]
        state.board_changed()
        events.append(
            {
                "type": "tiles_swapped",
                "seat": seat,
                "cells": [a, b],
                "squares": [self._name(state, a), self._name(state, b)],
            }
        )
        self._finish_tile(state, seat, events)

    # --- provided by the engine --------------------------------------------------------------------
    @staticmethod
    def _name(state: State, cell: int) -> str:
        raise NotImplementedError

    def _in_play(self, state: State) -> list[str]:
        raise NotImplementedError

    def _collect_sources(self, state: State, seat: int, egg: str, here: int | None) -> list[str]:
        raise NotImplementedError

    def _collect_one(self, state: State, seat: int, egg: str, source: str, events: list[Event]) -> None:
        raise NotImplementedError

    def _finish_tile(self, state: State, seat: int, events: list[Event]) -> None:
        raise NotImplementedError

    def _move_pawn(self, state: State, seat: int, cell: int, events: list[Event], teleport: bool = False) -> None:
        raise NotImplementedError

    def _draw(self, state: State, seat: int, count: int, events: list[Event]) -> None:
        raise NotImplementedError

    def _take(self, state: State, seat: int, source: str, egg: str, events: list[Event]) -> None:
        raise NotImplementedError

    def _put(self, state: State, cell: int, egg: str) -> None:
        raise NotImplementedError

    def _from_pile(self, state: State, egg: str, events: list[Event]) -> None:
        raise NotImplementedError
