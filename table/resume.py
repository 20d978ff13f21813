"""After a restart: show the players what a stopped process committed but never showed them (issue 23).

What was shown is recorded as Discord confirms it (table.delivery: the version each table message and
each seat's window shows, and the version up to which everything of a game went out), so start-up
looks only at the games owed something (`storage.owed_games`: a committed version newer than what
was delivered; finished and abandoned games until their ending was shown), a page at a time, and sends
each only what it is owed: the table if it shows an older version, the log lines never posted, a DM to
each player whose window does not show the prompt they must answer now, and for a game that ended, its
result, final table and DMs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

import games
from storage import GameNotActive, GameRow, StorageError
from table.advance import Advancing
from table.core import SHOW_AGAIN, prompt_digest
from table.errors import Stale, TableError
from table.updates import Event, SeatNotice, TableUpdate, started

log = logging.getLogger(__name__)

PAGE = 100  # owed games read at a time
# Games the background repair shows at once: enough that the owed games' requests wait in the global bucket
# together, where every player's prompt goes before any table and the tables before the log (bot.transport.pacing),
# so the repair's prompts go first across the owed games, not one game's table before the next one's prompt.
REPAIRING_AT_ONCE = 500
PREPARING_AT_ONCE = 4  # of those, reading their game and working out what is owed (the database, the CPU)


class Resuming(Advancing):
    def start_repair(self, first: Callable[[], Awaitable[object]] | None = None) -> None:
        """Repair the owed games in the background (`resume`, a few games at once), after `first` (the
        bot: until the gateway is connected). Meanwhile a click or a timer on a game not repaired yet
        repairs that game first (`repair_first`)."""
        self._repairing = True

        async def run() -> None:
            try:
                if first is not None:
                    await first()
                resumed = await self.resume(REPAIRING_AT_ONCE, background=True)
                if resumed:
                    log.info("repaired %d games", resumed)
            except Exception:
                log.exception("the repair after start-up stopped")
            finally:
                self._repairing = False

        self._repair_task = asyncio.get_running_loop().create_task(run())
        self._repair_task.set_name("table-repair")

    async def repaired(self) -> None:
        """Wait until the background repair is done (tests and benchmarks)."""
        if self._repair_task is not None:
            await asyncio.gather(self._repair_task, return_exceptions=True)

    async def resume(self, at_once: int = 1, *, background: bool = False) -> int:
        """Repair every game of ours owed something (see the module), `at_once` games at a time; returns
        how many were sent something. `background`: games a click repaired first meanwhile are skipped.

        AI seats (and AFK stand-ins) whose turn came while the process was down decide now, and a game
        whose last decision ended it is finished. Deadlines that passed meanwhile are the timer's job."""
        sent: list[int] = []
        after = 0
        places = asyncio.Semaphore(at_once)
        preparing = asyncio.Semaphore(min(at_once, PREPARING_AT_ONCE))
        running: set[asyncio.Task[None]] = set()

        async def one(game_id: int) -> None:
            try:
                if await self.repair(game_id, preparing):
                    sent.append(game_id)
            except Exception:
                if not background:
                    raise
                log.exception("repairing game %s failed", game_id)  # the others' repair goes on
            finally:
                places.release()

        while page := await self.db.owed_games(self.shards, after=after, limit=PAGE):
            for row in page:
                assert row.id is not None
                after = row.id
                if background and row.id in self._repaired:
                    continue
                await places.acquire()
                if at_once == 1:  # one after the other, in this task
                    await one(row.id)
                    continue
                task = asyncio.get_running_loop().create_task(one(row.id))
                task.set_name(f"table-repair-{row.id}")
                running.add(task)
                task.add_done_callback(running.discard)
        await asyncio.gather(*running)
        return len(sent)

    async def repair_first(self, game_id: int) -> None:
        """While the background repair runs: a game about to be moved on (a click, a timer) is repaired
        first, so what its players missed is shown before what comes next."""
        if self._repairing and game_id not in self._repaired:
            await self.repair(game_id)

    async def repair(self, game_id: int, preparing: asyncio.Semaphore | None = None) -> bool:
        """Show one game's players what they are owed (nothing if they were shown it all); True if sent.
        `preparing`: what bounds how many games are read and worked out at once (not their sending)."""
        self._repaired.add(game_id)
        try:
            async with preparing or contextlib.nullcontext():
                update = await self._resume(game_id)
        except (Stale, GameNotActive):
            return False  # another process moved it on first, or it ended meanwhile
        except (StorageError, TableError):
            log.exception("repairing game %s failed", game_id)
            return False
        except ValueError as error:  # its stored state does not read as its game's (a game's row built by hand)
            log.warning("game %s cannot be repaired: %s", game_id, error)
            return False
        if update is None:
            return False
        await self.notifier.publish(update)
        return True

    async def _resume(self, game_id: int) -> TableUpdate | None:
        async with self.lock(game_id):
            row = await self._game(game_id)
            if row.status in ("finished", "abandoned"):
                return await self._ending(row)
            if row.status != "active":
                return None
            version, state = await self._state(row)
            game = games.get(row.game_key)
            seats = await self.db.seats(game_id)
            prompts = game.prompts(state)
            robots = any(seats[p.seat].user_id is None or seats[p.seat].ai_controlled for p in prompts)
            acted = await self._acted(game_id)
            # Shown to a seat already: by this process, or (as recorded) by an earlier one.
            before = {s.seat: {self._shown.get((game_id, s.seat)), s.dm_prompt} for s in seats}
            # The process may have died between a commit and what follows it: the last decision ended the
            # game but it was never finished, a player who must decide now never got their DM, the table
            # shows an older version, or the public log line of its last turns was never posted.
            over = game.outcome(state) is not None
            unseen = any(
                prompt_digest(p, acted.get(p.seat, 1)) not in before[p.seat]
                for p in prompts
                if seats[p.seat].user_id is not None
            )
            unannounced = await self._unannounced(row, len(seats), version)
            table_behind = row.table_message_id is None or (row.table_version or 0) < version
            if not robots and not over and not unseen and not unannounced and not table_behind:
                return None  # all was shown (only its record was lost): its next delivery records it
            update = await self._advance(game_id, version, state, unannounced, [], moved=False)
            if update.outcome is None:
                # Only those who must decide and were not shown it get their DM; the others' comes with
                # their next prompt.
                for notice in update.dms:
                    if notice.prompt is None:
                        self._shown[(game_id, notice.seat.seat)] = SHOW_AGAIN
                update.dms = [
                    n for n in update.dms if n.prompt is not None and n.prompt_digest not in before[n.seat.seat]
                ]
                update.show_table = table_behind or update.version > version
            return started(update) if row.table_message_id is None else update

    async def _ending(self, row: GameRow) -> TableUpdate:
        """A game that ended without its ending shown: its final table, each player's last DM and (when it
        finished) its result. The log's last lines too, if they were never posted."""
        assert row.id is not None
        version, state = await self._state(row)
        self._forget(row.id)
        game = games.get(row.game_key)
        seats = await self.db.seats(row.id)
        events = await self._unannounced(row, len(seats), version)
        if row.status == "finished":
            humans = [s for s in seats if s.user_id is not None]
            views = game.views(state, [None, *(s.seat for s in humans)])
            notices = {s.seat: SeatNotice(s, views[s.seat], None, version) for s in humans}
            update = TableUpdate(row, seats, version, views[None], [], events, [], [], game.outcome(state))
            update.notices = notices
            # The final version's table and DMs carry the outcome: those that show it need nothing.
            update.show_table = (row.table_version or 0) < version
            update.dms = [n for n in notices.values() if (n.seat.dm_version or 0) < version]
        else:
            # Abandoning changes no version: what shows the game closed cannot be told apart; all of it goes.
            # Every player left to the AI: the turn timer abandoned it (table.timers), and says why.
            humans = [s for s in seats if s.user_id is not None]
            away = bool(humans) and all(s.ai_controlled for s in humans)
            update = await self._closing_update(row, {"type": "abandoned_afk" if away else "abandoned"})
            update.events = [*events, *update.events]  # the lines never posted, then the abandonment's own
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
