"""Moving a game on: committing decisions with the AI turns they set off, and catching up after the
database was unavailable.

Every accepted decision is committed with `storage.commit_actions` before anybody is told about it,
together with the AI moves it sets off and the turn's new deadline (one transaction); AI seats (and AFK
stand-ins) decide through the same path so the action log replays.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta
from typing import Any

import games
from games.core import Prompt
from storage import UNCHANGED, DatabaseUnavailable, GameRow, SeatRow, Unchanged, VersionConflict
from table import messages
from table.core import (
    RESUME_FIRST_DELAY,
    RESUME_MAX_DELAY,
    SHOW_AGAIN,
    TableCore,
    _Stalled,
    _Turn,
    prompt_digest,
    stand_in_level,
)
from table.errors import Stale, Unavailable
from table.updates import Event, SeatNotice, TableUpdate

log = logging.getLogger(__name__)


class Advancing(TableCore):
    async def _commit(
        self, row: GameRow, version: int, turn: _Turn, state: Any, *, deadline: datetime | Unchanged | None = UNCHANGED
    ) -> int:
        """Commit the turn's moves, seat changes and deadline at once; the new version. Stale if the game
        moved on meanwhile, Unavailable if the database could not be reached: nothing was written then."""
        assert row.id is not None
        game = games.get(row.game_key)
        try:
            new_version = await self.db.commit_actions(
                row.id, version, turn.moves, game.to_json_to_write(state), deadline=deadline, seats=turn.seats
            )
        except VersionConflict:
            self._forget(row.id)  # our copy was mutated by apply(); reload next time
            raise Stale(messages.ALREADY_DECIDED) from None
        except DatabaseUnavailable as error:
            self._forget(row.id)  # not committed (or not known to be): the mutated copy must not be reused
            log.warning("database unavailable for a commit of game %s: %s", row.id, error)
            raise Unavailable(messages.TRY_AGAIN_SOON) from error
        except BaseException:
            self._forget(row.id)
            raise
        self._keep_state(row.id, new_version, state)
        acted = await self._acted(row.id)
        for seq, (move, kind) in enumerate(zip(turn.moves, turn.kinds, strict=True), start=version + 1):
            acted[move.seat] = seq
            self.observer.decided(row.game_key, kind)
            # Ids, seat and kind only: the choice itself may be a secret (a card played face down).
            log.info(
                "decision accepted",
                extra={
                    "event": "decision",
                    "game_id": row.id,
                    "guild_id": row.guild_id,
                    "game": row.game_key,
                    "seat": move.seat,
                    "kind": kind,
                    "version": seq,
                },
            )
        return new_version

    async def _advance(
        self,
        game_id: int,
        version: int,
        state: Any,
        events: list[Event],
        afk: list[int],
        *,
        turn: _Turn | None = None,
        row: GameRow | None = None,
        seats: list[SeatRow] | None = None,
        moved: bool = True,
    ) -> TableUpdate:
        """Let AI seats decide until a human must, set the deadline, finish a game that ended.

        `turn`: decisions already applied to `state` (at `version`) but not committed; the AI's join them
        and one commit writes them all with the new deadline. If that commit fails nothing of it was
        written (Stale, Unavailable). `events` and `afk` are extended in place once it is committed (with
        what an earlier, stalled run left unshown first), so a caller whose run fails later (finishing the
        game) knows what is committed but unshown. A caller that holds the game's lock and has just read
        its row and seats passes them, so they are not read again. `moved=False` (start-up resumption):
        no decision precedes this call, so the turn keeps its deadline unless an AI seat decides here."""
        stalled = self._stalled.pop(game_id, None)
        if stalled is not None:
            events[:0] = stalled.events
            afk[:0] = stalled.afk
        started = stalled is not None and stalled.started
        try:
            update = await self._advance_committed(
                game_id, version, state, events, afk, turn=turn or _Turn(), row=row, seats=seats, moved=moved
            )
        except (Unavailable, Stale):
            # Nothing of this turn was written: what an earlier run committed but never showed still waits.
            if stalled is not None:
                self._stall(game_id, stalled.events, stalled.afk, started=stalled.started)
            raise
        except DatabaseUnavailable:
            if started:
                self._stall(game_id, [], [], started=True)
            raise
        except BaseException:
            self._forget(game_id)  # the state may hold decisions that were never committed
            raise
        update.started = started
        return update

    async def _advance_committed(
        self,
        game_id: int,
        version: int,
        state: Any,
        events: list[Event],
        afk: list[int],
        *,
        turn: _Turn,
        row: GameRow | None,
        seats: list[SeatRow] | None,
        moved: bool,
    ) -> TableUpdate:
        row = row or await self._game(game_id)
        game = games.get(row.game_key)
        seats = seats or await self.db.seats(game_id)
        committed = version  # the version in the database; the turn's moves follow it
        version += len(turn.moves)
        while True:
            prompts = game.prompts(state)
            robots = [p for p in prompts if seats[p.seat].user_id is None or seats[p.seat].ai_controlled]
            if not robots:
                break
            for prompt in robots:
                level = seats[prompt.seat].ai_level or stand_in_level(game)
                # awaited: the thinker may decide in another process while the loop serves other games
                choice = await self.thinker.choose(game, level, self._ai_seed(row, version, prompt.seat), state, prompt)
                kind = "ai" if seats[prompt.seat].user_id is None else "afk"
                # A seat the AI plays for its absent player is logged as AFK, as the timer's stand-in moves
                # are: the log must not show the player deciding (issue 20's model found it did).
                turn.add(prompt.seat, choice, kind, game.apply(state, prompt.seat, choice), afk=kind == "afk")
                version += 1
                moved = True
        outcome = game.outcome(state)
        told = [*events, *turn.events]  # committed but unshown first, then this turn's
        # Which humans must see something new privately: a prompt they have not been shown yet.
        notices: dict[int, SeatNotice] = {}
        dms: list[SeatNotice] = []
        shown: dict[tuple[int, int], int] = {}  # recorded once the turn is committed
        acted = dict(await self._acted(game_id))
        for seq, move in enumerate(turn.moves, start=committed + 1):
            acted[move.seat] = seq
        by_seat = {p.seat: p for p in prompts}
        humans = [seat for seat in seats if seat.user_id is not None]
        # All of one moment, before anything else can change the state: a game may share work between them.
        views = game.views(state, [None, *(seat.seat for seat in humans)])
        for seat in humans:
            own_prompt = by_seat.get(seat.seat)
            notice = SeatNotice(
                seat, views[seat.seat], own_prompt, version, [e for e in told if e.get("to") == seat.seat]
            )
            notice.prompt_digest = key = prompt_digest(own_prompt, acted.get(seat.seat, 1))
            notices[seat.seat] = notice
            # Shown by this process, or else (as recorded) delivered by an earlier one.
            if self._shown.get((game_id, seat.seat), seat.dm_prompt) != key or outcome is not None:
                dms.append(notice)
            shown[(game_id, seat.seat)] = key  # (from now on this process's own record holds for the seat)
        wake: datetime | None = row.deadline
        new_deadline: datetime | Unchanged = UNCHANGED
        if outcome is None and row.turn_seconds:
            # A fresh deadline when some human got a new prompt; the others keep the turn's deadline.
            # A prompt only re-sent (after a restart) is not new: its deadline, maybe past, stands,
            # so that the timer fires it once, and does not remind again.
            fresh = moved and any(n.prompt is not None and not n.seat.ai_controlled for n in dms)
            if fresh or wake is None:
                wake = new_deadline = self.clock() + timedelta(seconds=row.turn_seconds / 2)
        if outcome is not None and turn.moves:
            # Due at once: should this process die before it finishes the game below, the game's own
            # process finishes it at its next tick. (This one may not be it: shard 0's process commits
            # the DM clicks of every guild's games, and another process's timers and start-up never
            # looked at an active game whose deadline was in the future, or that had none: issue 20.)
            new_deadline = self.clock()
        if turn.moves:
            await self._commit(row, committed, turn, state, deadline=new_deadline)
            events += turn.events
            afk += turn.afk
        elif new_deadline is not UNCHANGED:
            await self.db.update_game(game_id, deadline=new_deadline, reminded=False)
        if new_deadline is not UNCHANGED:
            row.deadline, row.reminded = new_deadline, False
        self._shown.update(shown)
        narrated = self._narrated(game_id, turn, prompts, outcome, [e for e in events if "to" not in e])
        if outcome is not None:
            await self.db.finish_game(game_id, "finished", _results(seats, outcome))  # idempotent
            self._forget(game_id)
            self._ended(row, "finished")
            wake = None
            row = await self._game(game_id)  # closed: its status and end time as stored
        else:
            row.version = version  # our commits moved it on; nothing else writes it under the lock
        deadline = None
        if wake is not None and row.turn_seconds:
            deadline = wake if row.reminded else wake + timedelta(seconds=row.turn_seconds / 2)
        update = TableUpdate(
            row,
            seats,
            version,
            views[None],
            prompts if outcome is None else [],
            narrated,
            afk,
            dms,
            outcome,
            deadline=deadline,
        )
        update.notices = notices
        return update

    def _narrated(
        self, game_id: int, turn: _Turn, prompts: list[Prompt], outcome: dict[str, Any] | None, public: list[Event]
    ) -> list[Event]:
        """The public events to show now: one log post per turn (issue 21.3). While a player's turn goes on
        (only they moved, and only they are asked again: the next step of a turn of several steps) its
        events are held, and they come with those of the step that ends it and of the AI turns that
        follow. A simultaneous phase asks everybody at once, so it is never held. Held events live in
        memory only: after a restart they are replayed from the action log (no post marked them announced)."""
        movers = {move.seat for move in turn.moves}
        held = self._held.pop(game_id, [])
        if outcome is None and len(movers) == 1 and len(prompts) == 1 and prompts[0].seat in movers:
            self._held[game_id] = held + public
            return []
        return held + public

    def _stall(self, game_id: int, events: list[Event], afk: list[int], *, started: bool = False) -> None:
        """Keep committed but unshown work of a game and resume it in the background."""
        if game_id not in self._stalled:
            self.stalls += 1
        stalled = self._stalled.setdefault(game_id, _Stalled())
        stalled.events += events
        stalled.afk += afk
        stalled.started = stalled.started or started
        self._forget(game_id)
        for key in [k for k in self._shown if k[0] == game_id]:
            self._shown[key] = SHOW_AGAIN  # what was being shown may not have been: show every seat again
        log.warning("game %s waits for the database (%d events unshown)", game_id, len(stalled.events))
        task = self._resumers.get(game_id)
        if task is None or task.done():
            task = self._resumers[game_id] = asyncio.get_running_loop().create_task(self._catch_up_until_done(game_id))
            task.set_name(f"table-resume-{game_id}")

    async def _catch_up_until_done(self, game_id: int) -> None:
        delay = RESUME_FIRST_DELAY
        while game_id in self._stalled:
            await asyncio.sleep(delay)
            try:
                await self.catch_up(game_id)
            except (DatabaseUnavailable, Unavailable):
                delay = min(delay * 2, RESUME_MAX_DELAY)
            except Exception:  # not the database: do not spin on a broken game
                log.exception("resuming game %s failed", game_id)
                self._stalled.pop(game_id, None)
        self._resumers.pop(game_id, None)

    async def catch_up(self, game_id: int) -> None:
        """Run what a stalled game still owes: AI turns, finishing, its deadline, the notifications."""
        async with self.lock(game_id):
            if game_id not in self._stalled:
                return
            row = await self._game(game_id)
            if row.status not in ("active", "finished"):
                self._stalled.pop(game_id, None)
                return
            version, state = await self._state(row)
            events: list[Event] = []
            afk: list[int] = []
            try:
                update = await self._advance(game_id, version, state, events, afk)
            except DatabaseUnavailable:
                self._stall(game_id, events, afk)
                raise
        log.info("game %s resumed after the database came back", game_id)
        await self.notifier.publish(update)

    @property
    def stalled(self) -> list[int]:
        """Games whose follow-up waits for the database."""
        return sorted(self._stalled)

    async def idle(self) -> None:
        """Wait until no game waits to be resumed (tests and benchmarks)."""
        while tasks := [t for t in self._resumers.values() if not t.done()]:
            await asyncio.wait(tasks)

    async def close(self) -> None:
        """Stop resuming (on shutdown); committed work is picked up by the timers after a restart, and what
        the background repair had not shown yet by the next start-up's repair."""
        if self._repair_task is not None:
            self._repair_task.cancel()
            await asyncio.gather(self._repair_task, return_exceptions=True)
        for task in self._resumers.values():
            task.cancel()
        await asyncio.gather(*self._resumers.values(), return_exceptions=True)
        self._resumers.clear()
        await self.delivery.close()  # what was shown is recorded: after a clean stop nothing shown is owed


def _results(seats: list[SeatRow], outcome: dict[str, Any]) -> list[dict[str, Any]]:
    ranks = outcome.get("ranking") or outcome.get("ranks") or [None] * len(seats)
    scores = outcome.get("scores") or [None] * len(seats)
    breakdown = outcome.get("breakdown") or [{}] * len(seats)
    return [
        {
            "seat": s.seat,
            "user_id": s.user_id,
            "ai_level": s.ai_level,
            "rank": ranks[s.seat],
            "score": scores[s.seat],
            "breakdown": breakdown[s.seat],
        }
        for s in seats
    ]
