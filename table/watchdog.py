"""The watchdog: every timer tick, games that should have moved and did not are moved on (issue 20).

Two kinds of game are looked at, only those of this process's shards:
- **overdue**: a game the timer found due (deadline passed) and, `WatchTimes.grace` later, still finds
  due at the same version, deadline and reminder: the timer made no progress on it (each tick it
  handles a due game moves its deadline on or ends it), because its turn keeps failing, or nobody is
  prompted. Logged as an error;
- **idle**: a game without a turn timer (no deadline) that nothing changed for `WatchTimes.idle`
  (`updated_at`). Players of such a game may take days, so this is logged as a warning only; looked for
  at most once per `grace`, since idleness is counted in hours. Its awaited players are reminded
  (`Notifier.remind_idle`), and from `WatchTimes.end_after` after its last decision the reminder offers the
  host to end the game.

Either way it re-arms what should have moved the game: it finishes a game whose state is over, lets
the AI seats that are awaited move, sends the awaited humans their prompt again (a process that died
after committing the turn may never have sent it) and, for a game with a turn timer, gives them a
fresh deadline. It logs the game's id, what it re-armed and the stall report (table.stalls), and tells
the observer (the bot counts `tablebot_games_stalled_total`). An idle game's `updated_at` is then set to
now, so it is looked at again one `idle` later.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

import games
from storage import GameNotActive, GameRow, StorageError
from table.advance import Advancing
from table.errors import Stale, TableError
from table.stalls import stall_report

log = logging.getLogger(__name__)


class Watching(Advancing):
    async def watch(self, due: list[GameRow]) -> int:
        """After the timer's run over `due` (the games it found due this tick): re-arm those it made no
        progress on for `grace`, and the idle games without a timer. Returns how many were re-armed."""
        now = self.clock()
        grace = self.watch_times.grace
        stalled: list[tuple[int, str]] = []
        seen: dict[int, tuple[tuple[int, datetime | None, bool], datetime]] = {}
        for row in due:
            assert row.id is not None
            key = (row.version, row.deadline, row.reminded)
            before = self._overdue.get(row.id)
            if before is not None and before[0] == key:
                if now - before[1] >= grace:
                    stalled.append((row.id, "overdue"))
                    continue  # looked at afresh once re-armed
                seen[row.id] = before
            else:
                seen[row.id] = (key, now)
        self._overdue = seen
        if self._idle_looked is None or now - self._idle_looked >= grace:
            self._idle_looked = now
            for row in await self.db.idle_games(now - self.watch_times.idle, self.shards):
                assert row.id is not None
                stalled.append((row.id, "idle"))
        rearmed = 0
        for game_id, cause in stalled:
            try:
                rearmed += await self._rearm(game_id, cause)
            except (Stale, GameNotActive):
                continue  # it moved on, or ended, meanwhile
            except (StorageError, TableError):
                log.exception("the watchdog could not re-arm game %s", game_id)
        return rearmed

    async def _rearm(self, game_id: int, cause: str) -> bool:
        """Re-arm what should have moved the game (see the module's docstring); False if it had moved on."""
        report = await stall_report(self.db, game_id, self.clock())
        async with self.lock(game_id):
            row = await self._game(game_id)
            if row.status != "active":
                return False
            version, state = await self._state(row)
            if version != report.version:
                return False  # moved on since the report: not stalled
            game = games.get(row.game_key)
            seats = await self.db.seats(game_id)
            prompts = game.prompts(state)
            rearmed: list[str] = []
            if game.outcome(state) is not None:
                rearmed.append("finish")
            if any(seats[p.seat].user_id is None or seats[p.seat].ai_controlled for p in prompts):
                rearmed.append("ai")
            humans = [p.seat for p in prompts if seats[p.seat].user_id is not None and not seats[p.seat].ai_controlled]
            for seat in humans:
                self._shown.pop((game_id, seat), None)  # shown again: it may never have reached them
            if humans:
                rearmed.append("prompt")
            now = self.clock()
            if row.turn_seconds and "finish" not in rearmed:
                row.deadline = now + timedelta(seconds=row.turn_seconds / 2)
                row.reminded = False
                await self.db.update_game(game_id, deadline=row.deadline, reminded=False)
                rearmed.append("timer")
            elif cause == "idle":
                await self.db.update_game(game_id, updated_at=now)  # looked at again one `idle` later
            update = await self._advance(game_id, version, state, [], [], row=row, seats=seats, moved=False)
            if update.outcome is None:
                update.dms = [n for n in update.dms if n.prompt is not None]
            since: datetime | None = None  # an idle game's last decision (or start): its players are reminded
            awaited = [seats[seat] for seat in humans]
            if cause == "idle" and awaited and update.outcome is None:
                actions = await self.db.actions(game_id)
                since = actions[-1].at if actions else row.created_at
        self.observer.stalled(row.game_key, cause, game_id)
        # A game idle with only humans awaited is players taking their time; anything else is a fault.
        level = logging.WARNING if cause == "idle" and rearmed == ["prompt"] else logging.ERROR
        log.log(
            level,
            "game %s stalled (%s): re-armed %s; %s",
            game_id,
            cause,
            ", ".join(rearmed) or "nothing",
            report,
            extra={"event": "game_stalled", "game_id": game_id, "cause": cause, "rearmed": ",".join(rearmed)},
        )
        await self.notifier.publish(update)
        if since is not None:
            await self.notifier.remind_idle(row, awaited, since, now - since >= self.watch_times.end_after)
        return True
