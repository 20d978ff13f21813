"""At start-up: carry on with the active games that a stopped process left mid-way."""

from __future__ import annotations

import logging

import games
from storage import GameNotActive, GameRow, StorageError
from table.advance import Advancing
from table.errors import Stale, TableError
from table.updates import Event, TableUpdate, started

log = logging.getLogger(__name__)


class Resuming(Advancing):
    async def resume(self) -> int:
        """At start-up: carry on with our active games that a stopped process left mid-way.

        AI seats (and AFK stand-ins) whose turn came while the process was down decide now, a game
        whose last decision ended it is finished, a game whose table message was never posted gets
        it, and every player who must decide gets their DM again (a killed process may never have
        sent it: the cost is one DM edit per waiting player and one table edit per game). Deadlines
        that passed meanwhile are the timer's job (its next tick). Returns how many games were moved on.
        """
        resumed = 0
        for row in await self.db.active_games(self.shards):
            assert row.id is not None
            try:
                update = await self._resume(row.id)
            except (Stale, GameNotActive):
                continue  # another process moved it on first, or it ended meanwhile
            except (StorageError, TableError):
                log.exception("resuming game %s failed", row.id)
                continue
            if update is not None:
                await self.notifier.publish(update)
                resumed += 1
        return resumed

    async def _resume(self, game_id: int) -> TableUpdate | None:
        async with self.lock(game_id):
            row = await self._game(game_id)
            if row.status != "active":
                return None
            version, state = await self._state(row)
            game = games.get(row.game_key)
            seats = await self.db.seats(game_id)
            prompts = game.prompts(state)
            robots = any(seats[p.seat].user_id is None or seats[p.seat].ai_controlled for p in prompts)
            # The process may have died between a commit and what follows it: the last decision
            # ended the game but it was never finished, or the players who must decide now never got
            # their DM. (A process that already showed them their prompt has nothing to do.)
            over = game.outcome(state) is not None
            unseen = any((game_id, p.seat) not in self._shown for p in prompts if seats[p.seat].user_id is not None)
            # ... or the public log line of its last turns was never posted.
            unannounced = await self._unannounced(row, len(seats), version)
            if not robots and not over and not unseen and not unannounced and row.table_message_id is not None:
                return None
            update = await self._advance(game_id, version, state, unannounced, [], moved=False)
            if update.outcome is None:
                # Only those who must decide get their DM again; the others' comes with their next prompt.
                for notice in update.dms:
                    if notice.prompt is None:
                        self._shown.pop((game_id, notice.seat.seat), None)
                update.dms = [n for n in update.dms if n.prompt is not None]
            return started(update) if row.table_message_id is None else update

    async def _unannounced(self, row: GameRow, players: int, version: int) -> list[Event]:
        """The public events of the versions after the last one whose log line was posted, replayed
        from the action log (same seed, same decisions, same game): empty when nothing is missing."""
        if row.announced is None or row.announced >= version or row.id is None:
            return []
        game = games.get(row.game_key)
        state = game.new(players, row.seed, row.options)
        events: list[Event] = []
        for action in await self.db.actions(row.id):
            happened = game.apply(state, action.seat, list(action.action))
            if action.seq > row.announced:
                events += [e for e in happened if "to" not in e]
        return events
