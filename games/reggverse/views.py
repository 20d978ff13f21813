"""What each audience of a Reggverse Riddles game sees (views) and the final result (outcome).

The shapes are documented in `games.reggverse.shapes` (`View`, `Outcome`). A seat's view adds its own
hand and secret objective; nothing else is private. Rule texts and action texts in the view are the
engine's English, for the terminal and the logs; renderers read the rules' data (template, sense,
placeholders) and the action kinds instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.reggverse import board as rules
from games.reggverse.board import geometry, side_of
from games.reggverse.objectives import neighbours, objective_points
from games.reggverse.state import State

# Step fields that stay in the engine: who still has to guess (secret until the end).
PRIVATE_STEP_FIELDS = frozenset({"pending"})


def public_tile(state: State, tile_id: int) -> dict[str, Any]:
    """A tile as its holder (or, once played, everybody) sees it, its rule's text added."""
    tile = dict(state.tiles[tile_id])
    if tile["kind"] == "regular":
        tile["rule"] = {**tile["rule"], "text": rules.rule_text(tile["rule"])}
    return tile


def view(state: State, seat: int | None, key: str) -> dict[str, Any]:
    return build_views(state, [seat], key)[seat]


def build_views(state: State, audiences: Sequence[int | None], key: str) -> dict[int | None, dict[str, Any]]:
    """Each audience's view. Only a seat's hand and secret objective are private, so the public part is
    built once and each audience's view is a shallow copy of it with its own keys added: the views share
    their nested lists and dicts, which is why views are read-only (games.core.Game.views)."""
    public = _public_part(state)
    ended = outcome(state) if state.finished else None
    out: dict[int | None, dict[str, Any]] = {}
    for seat in audiences:
        # (In the order the keys always had: the views' JSON text is the same as before they were shared.)
        own: dict[str, Any] = {"game": key, "seat": seat, "side": side_of(seat if seat is not None else 0), **public}
        if seat is not None:
            own["hand"] = [public_tile(state, t) for t in state.hands[seat]]
            secret = state.secret[seat]
            if state.options["objectives"] and secret is not None:
                own["objective"] = dict(state.objective_tiles[secret])
        if ended is not None:
            own["outcome"] = ended
        out[seat] = own
    return out


def _public_part(state: State) -> dict[str, Any]:
    """What every audience sees, but for the game's key and the outcome (all of a view but "game",
    "seat", "side", "hand", "objective" and "outcome")."""
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
    step = {k: v for k, v in state.step.items() if k not in PRIVATE_STEP_FIELDS}
    if step.get("tile") is not None:
        step["tile_data"] = public_tile(state, step["tile"])
    result: dict[str, Any] = {
        "players": state.players,
        "sides": [side_of(s) for s in range(state.players)],
        "neighbours": [list(neighbours(s, state.players)) for s in range(state.players)],
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
        result["objective_list"] = [t["text"] for t in state.objective_tiles]
        result["objective_tiles"] = [
            {"id": t["id"], "kind": t["kind"], "eggs": t["eggs"]} for t in state.objective_tiles
        ]
        if state.finished:
            result["objectives"] = [state.objective_tiles[t]["text"] if t is not None else None for t in state.secret]
            result["secret_objectives"] = [
                dict(state.objective_tiles[t]) if t is not None else None for t in state.secret
            ]
    return result


def outcome(state: State) -> dict[str, Any] | None:
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
