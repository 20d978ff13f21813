"""Rebuild a game from its seed and action log and compare it with the stored state."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import games
from games.core import Game
from storage.database import Database
from storage.errors import GameNotFound

__all__ = ["ReplayReport", "first_difference", "replay"]

Lookup = Callable[[str], Game[Any]]


@dataclass(frozen=True, slots=True)
class ReplayReport:
    game_id: int
    game_key: str
    actions: int
    version: int
    equal: bool
    detail: str

    def __str__(self) -> str:
        verdict = "EQUAL to" if self.equal else "DIFFERENT from"
        text = (
            f"game {self.game_id} ({self.game_key}): replayed {self.actions} actions; the result is "
            f"{verdict} the stored state (version {self.version})"
        )
        return text if self.equal else f"{text}: {self.detail}"


async def replay(db: Database, game_id: int, lookup: Lookup = games.get) -> ReplayReport:
    """games.get(key).new(len(seats), seed, options), then apply every logged action in seq order."""
    row = await db.get_game(game_id)
    if row is None:
        raise GameNotFound(game_id)
    seats = await db.seats(game_id)
    log = await db.actions(game_id)

    def report(equal: bool, detail: str) -> ReplayReport:
        return ReplayReport(game_id, row.game_key, len(log), row.version, equal, detail)

    if row.state is None:
        return report(False, "the stored state is missing or unreadable")
    expected_seqs = list(range(2, 2 + len(log)))
    if [a.seq for a in log] != expected_seqs or row.version != 1 + len(log):
        return report(False, f"the log holds seqs {_span([a.seq for a in log])} but the game is at {row.version}")
    game = lookup(row.game_key)
    state = game.new(len(seats), row.seed, row.options)
    for entry in log:
        try:
            game.apply(state, entry.seat, list(entry.action))
        except Exception as error:
            return report(False, f"action seq {entry.seq} (seat {entry.seat}, {entry.action}) failed: {error}")
    rebuilt = json.loads(json.dumps(game.to_json(state)))
    difference = first_difference(rebuilt, row.state)
    return report(difference is None, difference or "")


def first_difference(rebuilt: Any, stored: Any, path: str = "state") -> str | None:
    """Where two JSON values first differ, for a readable report; None when equal."""
    if isinstance(rebuilt, dict) and isinstance(stored, dict):
        for key in sorted(set(rebuilt) | set(stored), key=str):
            if key not in stored:
                return f"{path}.{key} is only in the replayed state"
            if key not in rebuilt:
                return f"{path}.{key} is only in the stored state"
            found = first_difference(rebuilt[key], stored[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(rebuilt, list) and isinstance(stored, list):
        if len(rebuilt) != len(stored):
            return f"{path} has {len(rebuilt)} items replayed but {len(stored)} stored"
        for index, (a, b) in enumerate(zip(rebuilt, stored, strict=True)):
            found = first_difference(a, b, f"{path}[{index}]")
            if found:
                return found
        return None
    if rebuilt != stored or type(rebuilt) is not type(stored):
        return f"{path} is {rebuilt!r} replayed but {stored!r} stored"
    return None


def _span(seqs: list[int]) -> str:
    return f"{seqs[0]}..{seqs[-1]} ({len(seqs)} entries)" if seqs else "nothing"
