"""Turn timers: the reminder at half the timer, then the AI decides for those who did not (AFK).

Deadlines live in the database (`games.deadline`), so they survive restarts; `tick` runs the due ones.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

import games
from storage import DatabaseUnavailable, GameRow, SeatRow
from table.core import AFK_TURNS_BEFORE_AI, _Turn, stand_in_level
from table.resume import Resuming
from table.updates import Event, TableUpdate
from table.watchdog import Watching

log = logging.getLogger(__name__)

DUE_PER_TICK = 50  # deadlines the bot's timer handles per tick at most


class Timers(Watching, Resuming):
    async def tick(self, limit: int | None = None) -> int:
        """Run due reminders and AFK deadlines, the most overdue first, at most `limit` games (the bot's
        timer: DUE_PER_TICK, so that after a long stop the deadlines that passed meanwhile are worked off
        over a few ticks rather than in one burst of AI moves and requests), then the watchdog over those
        (table.watchdog), and drops the engine states of the games idle for a while (`drop_idle_states`); returns
        how many games the timer handled."""
        handled = 0
        due = (await self.db.due_games(self.clock(), self.shards))[:limit]
        for row in due:
            assert row.id is not None
            try:
                await self._timer(row.id)
            except Exception:  # one broken game must not stop the others' timers
                log.exception("timer failed for game %s", row.id, extra={"event": "timer_failed", "game_id": row.id})
            handled += 1
        self.observer.ticked(handled)
        await self.watch(due)
        self.drop_idle_states()
        return handled

    async def _timer(self, game_id: int) -> None:
        update: TableUpdate | None = None
        remind: tuple[GameRow, list[SeatRow], datetime] | None = None
        await self.repair_first(game_id)
        async with self.lock(game_id):
            row = await self._game(game_id)
            if row.status != "active" or row.deadline is None or row.deadline > self.clock():
                return
            version, state = await self._state(row)
            game = games.get(row.game_key)
            seats = await self.db.seats(game_id)
            waiting = [
                seats[p.seat]
                for p in game.prompts(state)
                if seats[p.seat].user_id is not None and not seats[p.seat].ai_controlled
            ]
            # Nobody human awaited: the game is over or AI seats must move, because the process that
            # committed its last decision died before what follows (finishing it, the AI turns).
            # _afk_turn then makes no AFK move and carries on from there; there is nobody to remind.
            if waiting and not row.reminded and row.turn_seconds:
                deadline = row.deadline + timedelta(seconds=row.turn_seconds / 2)
                await self.db.update_game(game_id, reminded=True, deadline=deadline)
                remind = (row, waiting, deadline)
            else:
                events: list[Event] = []
                afk: list[int] = []
                try:
                    update = await self._afk_turn(row, version, state, seats, waiting, events, afk)
                except DatabaseUnavailable:
                    if events or afk:  # something was committed: its follow-up must not be lost
                        self._stall(game_id, events, afk)
                    raise
        if remind is not None:
            await self.notifier.remind(*remind)
        if update is not None:
            await self.notifier.publish(update)

    async def _afk_turn(
        self,
        row: GameRow,
        version: int,
        state: Any,
        seats: list[SeatRow],
        waiting: list[SeatRow],
        events: list[Event],
        afk: list[int],
    ) -> TableUpdate:
        """The AI decides for the waiting seats; their moves, AFK counts and the AI turns that follow are
        one commit. `events` and `afk` are filled once it is committed."""
        assert row.id is not None
        game = games.get(row.game_key)
        turn = _Turn()
        for prompt in game.prompts(state):
            seat = seats[prompt.seat]
            if seat not in waiting:
                continue
            ai = game.ai(stand_in_level(game), self._ai_seed(row, version + len(turn.moves), prompt.seat))
            choice = ai.choose(game, state, prompt)
            turn.add(prompt.seat, choice, "afk", game.apply(state, prompt.seat, choice), afk=True)
            turn.afk.append(prompt.seat)
            seat.afk_count += 1
            seat.ai_controlled = seat.afk_count >= AFK_TURNS_BEFORE_AI
            turn.seats[prompt.seat] = {"afk_count": seat.afk_count, "ai_controlled": seat.ai_controlled}
        humans = [s for s in seats if s.user_id is not None]
        if humans and all(s.ai_controlled for s in humans):
            if turn.moves:
                await self._commit(row, version, turn, state)
                events += turn.events
                afk += turn.afk
            await self.db.finish_game(row.id, "abandoned", [])
            self._forget(row.id)
            self._ended(row, "all_afk")
            update = await self._closing_update(await self._game(row.id), {"type": "abandoned_afk"})
            update.events = [*[e for e in events if "to" not in e], *update.events]
            update.afk_seats = afk
            return update
        return await self._advance(row.id, version, state, events, afk, turn=turn, row=row, seats=seats)
