"""Players' decisions, what a seat may see privately, the public view, and "I'm back".

Staleness: a button carries the game version at which its prompt was offered. A click is accepted
while that seat has not acted since (the engine contract keeps simultaneous prompts independent, so
other seats' decisions do not invalidate it); the engine then validates the choice itself.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import games
from games.core import IllegalAction, Prompt
from storage import DatabaseUnavailable, GameRow, SeatRow
from table import messages
from table.core import _Turn, prompt_digest
from table.errors import CatchingUp, Stale, TableError, Unacknowledged, storage_errors_said
from table.resume import Resuming
from table.updates import Decided, Event, SeatNotice

log = logging.getLogger(__name__)


class Decisions(Resuming):
    @storage_errors_said
    async def seat_of(self, game_id: int, user_id: int) -> SeatRow:
        for seat in await self.db.seats(game_id):
            if seat.user_id == user_id:
                return seat
        raise TableError(messages.NOT_YOUR_SEAT)

    @storage_errors_said
    async def decide(
        self,
        game_id: int,
        user_id: int,
        seat: int,
        offered: int,
        choice: list[str],
        ack: Callable[[Decided], Awaitable[None]] | None = None,
        locale: str | None = None,
    ) -> Decided:
        """A player's decision: validate, commit, acknowledge (`ack`), then notify everybody else."""
        await self.repair_first(game_id)
        async with self.lock(game_id):
            row, seats = await self._game_and_seats(game_id)
            if row.status != "active":
                raise TableError(messages.GAME_OVER if row.status != "lobby" else messages.NOT_STARTED)
            if not 0 <= seat < len(seats) or seats[seat].user_id != user_id:
                raise TableError(messages.NOT_YOUR_SEAT)
            version, state = await self._state(row)
            acted = (await self._acted(game_id)).get(seat, 0)
            if offered > version or offered < acted:
                raise Stale(messages.ALREADY_DECIDED if acted > offered else messages.STALE)
            game = games.get(row.game_key)
            prompt = next((p for p in game.prompts(state) if p.seat == seat), None)
            if prompt is None:
                raise Stale(messages.NOTHING_TO_DECIDE)
            labels = {c.id: c.label for c in prompt.choices}
            await self._remember_locale(game_id, seats[seat], locale)
            if seats[seat].afk_count:
                # Before the commit: the click shows the player is present whether or not it commits.
                await self.db.update_seat(game_id, seat, afk_count=0)
                seats[seat].afk_count = 0
            try:
                turn = _Turn()
                turn.add(seat, list(choice), "human", game.apply(state, seat, list(choice)))
            except IllegalAction as exc:
                raise TableError(str(exc), from_rules=True) from None
            events: list[Event] = []
            try:
                # Committed with the AI turns it sets off and the new deadline (Unavailable: nothing was).
                update = await self._advance(game_id, version, state, events, [], turn=turn, row=row, seats=seats)
            except DatabaseUnavailable:
                # The decision is committed; finishing the game and notifications follow when the database is back.
                self._stall(game_id, events, [])
                raise CatchingUp(messages.RECORDED_CATCHING_UP) from None
            own = update.notices[seat]
            update.dms = [n for n in update.dms if n.seat.seat != seat]
            decided = Decided(update, own, [labels.get(c, c) for c in choice], prompt, list(choice))
            if ack is not None:
                try:
                    await ack(decided)
                except Unacknowledged as reason:  # committed already: the player's message is refreshed instead
                    log.warning(
                        "a decision in game %s was not answered (%s); its player's message follows", game_id, reason
                    )
                    update.dms.append(own)
                except Exception:  # committed already: the others must still hear about it
                    log.exception("acknowledging a decision in game %s failed", game_id)
                    update.dms.append(own)  # and the player's own message is refreshed by the notifier
        await self.notifier.publish(update)
        return decided

    @storage_errors_said
    async def private_view(self, game_id: int, user_id: int, locale: str | None = None) -> SeatNotice:
        """The caller's seat view and prompt (for "Show my hand" and /game hand)."""
        row = await self._game(game_id)
        if row.status != "active":
            raise TableError(messages.GAME_OVER if row.status != "lobby" else messages.NOT_STARTED)
        try:
            seat = await self.seat_of(game_id, user_id)
        except TableError:
            raise TableError(messages.NOT_PLAYING) from None  # a spectator: nothing here is theirs
        await self._remember_locale(game_id, seat, locale)
        version, state = await self._state(row)
        game = games.get(row.game_key)
        prompt = next((p for p in game.prompts(state) if p.seat == seat.seat), None)
        digest = self._shown[(game_id, seat.seat)] = prompt_digest(prompt, version)
        return SeatNotice(seat, game.view(state, seat.seat), prompt, version, prompt_digest=digest)

    @storage_errors_said
    async def public(self, game_id: int) -> tuple[GameRow, dict[str, Any], list[Prompt]]:
        row = await self.db.get_game(game_id)  # with its state: None if unreadable
        if row is None:
            raise TableError(messages.NO_SUCH_GAME)
        if row.status == "lobby" or row.state is None:
            raise TableError(messages.NOT_STARTED)
        _version, state = await self._state(row)
        game = games.get(row.game_key)
        return row, game.view(state, None), game.prompts(state)

    async def _left_tournament(self, tournament_id: int, user_id: int) -> bool:
        """A withdrawn or dropped entrant: their game goes on with the AI in their seat to its end."""
        return any(e.user_id == user_id and e.status != "active" for e in await self.db.entrants(tournament_id))

    @storage_errors_said
    async def back(self, game_id: int, user_id: int) -> None:
        """ "I'm back": the player takes their seat back from the AI."""
        async with self.lock(game_id):
            row = await self._game(game_id)
            if row.status != "active":
                raise TableError(messages.GAME_OVER)
            seat = await self.seat_of(game_id, user_id)
            if row.tournament_id is not None and await self._left_tournament(row.tournament_id, user_id):
                raise TableError(messages.LEFT_TOURNAMENT)
            await self.db.update_seat(game_id, seat.seat, ai_controlled=False, afk_count=0)
