"""The table service: lobby -> start -> prompt -> apply -> persist -> notify, with no Discord in sight.

The Discord layer (cogs and views) calls these methods and implements `Notifier`; tests drive the
service directly. Every accepted decision is committed with `storage.commit_actions` before anybody is
told about it, together with the AI moves it sets off and the turn's new deadline (one transaction); AI
seats (and AFK stand-ins) decide through the same path so the action log replays.

Staleness: a button carries the game version at which its prompt was offered. A click is accepted
while that seat has not acted since (the engine contract keeps simultaneous prompts independent, so
other seats' decisions do not invalidate it); the engine then validates the choice itself.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import random
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from types import EllipsisType
from typing import Any, ParamSpec, Protocol, TypeVar

import games
from bot import i18n, text
from games.core import Game, IllegalAction, Prompt
from storage import (
    Database,
    DatabaseUnavailable,
    GameNotActive,
    GameRow,
    Move,
    SeatRow,
    Shards,
    StorageError,
    VersionConflict,
)

log = logging.getLogger(__name__)

Event = dict[str, Any]
Clock = Callable[[], datetime]

DEFAULT_TURN_SECONDS = 180
MAX_TURN_SECONDS = 86_400  # the longest turn timer accepted (a forged bigger one would overflow the deadline)
AFK_TURNS_BEFORE_AI = 2
AFK_LEVEL = "heuristic"
AI_LEVELS = ("heuristic", "random")
# A game whose follow-up work (AI turns, finishing, deadline, notifications) failed because the database
# could not be reached is resumed in the background: first after this many seconds, then doubling.
RESUME_FIRST_DELAY = 0.5
RESUME_MAX_DELAY = 8.0

P = ParamSpec("P")
R = TypeVar("R")


ECHO_LIMIT = 30  # characters of a user's own input quoted back in a refusal


def echo(value: Any) -> str:
    """User input quoted back in a refusal, cut short: a refusal stays one readable sentence."""
    shown = str(value)
    return shown if len(shown) <= ECHO_LIMIT else shown[: ECHO_LIMIT - 1] + "…"


class TableError(Exception):
    """A request the table refuses; the message is meant for the user who made it.

    It carries a catalog msgid (or an `NN_` plural pair, counted by `count`) and its parameters,
    so the transport can say it in the reader's language (`localized`); str() is the English.
    `from_rules` marks a message written by a game engine or option parser (English only): other
    languages get it inside a translated sentence.
    """

    def __init__(self, message: str | tuple[str, str], /, *, from_rules: bool = False, **params: Any) -> None:
        self.message = message
        self.params = params
        self.from_rules = from_rules
        super().__init__(self.localized(i18n.DEFAULT))

    def localized(self, lang: str) -> str:
        if isinstance(self.message, tuple):
            params = dict(self.params)
            return i18n.tn(lang, self.message, int(params.pop("count")), **params)
        if self.from_rules:
            if lang == i18n.DEFAULT:
                return self.message
            return i18n.t(lang, text.REFUSED_BY_RULES, reason=self.message)
        return i18n.t(lang, self.message, **self.params)


class Stale(TableError):
    """A button from an older state of the game: nothing was changed."""


class Unavailable(TableError):
    """The database could not be reached: nothing was changed, the user may try again in a moment."""


class CatchingUp(TableError):
    """The request was committed but what follows (AI turns, the table) waits for the database;
    the table service resumes it by itself."""


def _storage_errors_said(method: Callable[P, Coroutine[Any, Any, R]]) -> Callable[P, Coroutine[Any, Any, R]]:
    """A public table method: a database that cannot be reached becomes a polite `Unavailable`."""

    @functools.wraps(method)
    async def guarded(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return await method(*args, **kwargs)
        except DatabaseUnavailable as error:
            log.warning("database unavailable in %s: %s", method.__name__, error)
            raise Unavailable(text.TRY_AGAIN_SOON) from error

    return guarded


@dataclass
class SeatNotice:
    """What one human seat should now see privately: its view and the prompt it must answer."""

    seat: SeatRow
    view: dict[str, Any]
    prompt: Prompt | None
    version: int
    private_events: list[Event] = field(default_factory=list)


@dataclass
class TableUpdate:
    """Everything the transport needs to show a game after a batch of committed decisions."""

    game: GameRow
    seats: list[SeatRow]
    version: int
    public_view: dict[str, Any]
    prompts: list[Prompt]
    events: list[Event]  # public events of this batch, in order
    afk_seats: list[int]  # seats the AI decided for because their player was AFK
    dms: list[SeatNotice]  # human seats whose private message must be refreshed
    outcome: dict[str, Any] | None
    started: bool = False
    deadline: datetime | None = None  # when the AI decides for AFK seats (None: no timer)
    notices: dict[int, SeatNotice] = field(default_factory=dict)  # every human seat's fresh view

    @property
    def resolved(self) -> bool:
        """Something happened that is worth a log line (not just "X has decided")."""
        return any(e.get("type") not in PROGRESS_EVENTS for e in self.events) or self.outcome is not None


PROGRESS_EVENTS = frozenset({"decided"})


@dataclass
class _Stalled:
    """Committed work of a game that nobody has been shown yet, kept until the database is back."""

    events: list[Event] = field(default_factory=list)  # public and private events, in order
    afk: list[int] = field(default_factory=list)
    started: bool = False  # the table message was never opened


@dataclass
class _Turn:
    """Decisions applied to the engine state but not committed yet. One commit writes them all, with
    the turn's new deadline and seat changes, before anybody is told about any of them: a click and the
    AI turns it sets off are one transaction, and a failed commit leaves nothing half-applied."""

    moves: list[Move] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)  # per move: "human", "ai" or "afk" (for the observer)
    events: list[Event] = field(default_factory=list)
    afk: list[int] = field(default_factory=list)  # seats the AI decided for because their player was AFK
    seats: dict[int, dict[str, Any]] = field(default_factory=dict)  # seat number -> columns to set

    def add(self, seat: int, choice: list[str], kind: str, events: list[Event], *, afk: bool = False) -> None:
        self.moves.append(Move(seat, choice, afk))
        self.kinds.append(kind)
        self.events += events


@dataclass
class Decided:
    """The answer to a player's decision, given to the acknowledgement callback after the commit."""

    update: TableUpdate
    own: SeatNotice  # the deciding seat's fresh private view (to answer the interaction with)
    labels: list[str]  # the engine's labels of what was chosen, for "you chose ..."
    prompt: Prompt | None = None  # the prompt answered (renderers translate its labels)
    choice: list[str] = field(default_factory=list)  # the choice ids


class Notifier(Protocol):
    """Implemented by the transport (Discord); the service calls it after commits."""

    async def publish(self, update: TableUpdate) -> None: ...

    async def remind(self, game: GameRow, seats: list[SeatRow], deadline: datetime) -> None: ...


class NullNotifier:
    async def publish(self, update: TableUpdate) -> None:
        return None

    async def remind(self, game: GameRow, seats: list[SeatRow], deadline: datetime) -> None:
        return None


class TableObserver(Protocol):
    """Told what the service did, as it happens (the bot counts it for the operators' metrics).

    Decision kinds: "human" (a player's click), "ai" (an AI seat), "afk" (the AI standing in for an
    absent player). Ends: "finished", "abandoned" (by the host or an admin), "all_afk".
    """

    def decided(self, game_key: str, kind: str) -> None: ...

    def game_started(self, game_key: str) -> None: ...

    def game_ended(self, game_key: str, end: str) -> None: ...

    def ticked(self, handled: int) -> None: ...


class NullObserver:
    def decided(self, game_key: str, kind: str) -> None:
        return None

    def game_started(self, game_key: str) -> None:
        return None

    def game_ended(self, game_key: str, end: str) -> None:
        return None

    def ticked(self, handled: int) -> None:
        return None


def _utcnow() -> datetime:
    return datetime.now(UTC)


def _prompt_key(prompt: Prompt | None, offered: int) -> str:
    if prompt is None:
        return ""
    return json.dumps(
        [prompt.kind, prompt.text, prompt.pick, prompt.choice_ids(), dict(prompt.info), offered],
        sort_keys=True,
        default=str,
    )


class TableService:
    def __init__(
        self,
        db: Database,
        notifier: Notifier | None = None,
        *,
        clock: Clock = _utcnow,
        seeds: random.Random | None = None,
        shards: Shards | None = None,
        observer: TableObserver | None = None,
    ) -> None:
        self.db = db
        # The Discord shards this process runs when the bot is split over several processes: timers
        # and start-up resumption touch only their guilds' games. None: every game is ours.
        self.shards = shards
        self.seeds = seeds or random.Random()  # game seeds; tests pass a seeded Random for repeatability
        self.notifier: Notifier = notifier or NullNotifier()
        self.observer: TableObserver = observer or NullObserver()
        self.clock = clock
        self._locks: dict[int, asyncio.Lock] = {}
        self._cache: dict[int, tuple[int, Any]] = {}  # game id -> (version, engine state)
        self._last_acted: dict[int, dict[int, int]] = {}  # game id -> seat -> version its action made
        self._shown: dict[tuple[int, int], str] = {}  # (game, seat) -> key of the prompt last shown
        self._stalled: dict[int, _Stalled] = {}  # games whose follow-up waits for the database
        self.stalls = 0  # times a game had to wait for the database after a commit (benchmarks, tests)
        self._resumers: dict[int, asyncio.Task[None]] = {}

    def lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    def busy(self, game_id: int) -> bool:
        return self.lock(game_id).locked()

    # --- lobby -------------------------------------------------------------------------------
    @_storage_errors_said
    async def create_lobby(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game_key: str,
        host_id: int,
        host_name: str,
        options: dict[str, Any] | None = None,
        turn_seconds: int | None = DEFAULT_TURN_SECONDS,
        host_locale: str | None = None,
    ) -> GameRow:
        try:
            game = games.get(game_key)
        except KeyError:
            raise TableError(text.UNKNOWN_GAME, key=echo(game_key), known=", ".join(games.keys())) from None
        if await self.db.channel_game(channel_id) is not None:
            raise TableError(text.CHANNEL_BUSY)
        try:
            resolved = game.resolve_options(options)
        except ValueError as exc:
            raise TableError(str(exc), from_rules=True) from None
        turn_seconds = _turn_seconds(turn_seconds)
        row = await self.db.create_game(
            guild_id=guild_id,
            channel_id=channel_id,
            game_key=game_key,
            options=resolved,
            host_id=host_id,
            seed=self.seeds.getrandbits(48),
            turn_seconds=turn_seconds,
        )
        assert row.id is not None
        await self.db.set_seats(
            row.id, [{"seat": 0, "user_id": host_id, "ai_level": None, "name": host_name, "locale": host_locale}]
        )
        log.info(
            "lobby opened", extra={"event": "game_created", "game_id": row.id, "guild_id": guild_id, "game": game_key}
        )
        return row

    @_storage_errors_said
    async def lobby(self, game_id: int) -> tuple[GameRow, list[SeatRow]]:
        return await self._game_and_seats(game_id)

    async def _game(self, game_id: int) -> GameRow:
        """The game's row without its state (the engine state comes from `_state`)."""
        row = await self.db.game_row(game_id)
        if row is None:
            raise TableError(text.NO_SUCH_GAME)
        return row

    async def _game_and_seats(self, game_id: int) -> tuple[GameRow, list[SeatRow]]:
        found = await self.db.game_and_seats(game_id)
        if found is None:
            raise TableError(text.NO_SUCH_GAME)
        return found

    async def _open_lobby(self, game_id: int) -> tuple[GameRow, Game[Any], list[SeatRow]]:
        row, seats = await self._game_and_seats(game_id)
        if row.status != "lobby":
            raise TableError(text.NOT_A_LOBBY)
        return row, games.get(row.game_key), seats

    @staticmethod
    def _seat_dicts(seats: list[SeatRow]) -> list[dict[str, Any]]:
        return [
            {"seat": i, "user_id": s.user_id, "ai_level": s.ai_level, "name": s.name, "locale": s.locale}
            for i, s in enumerate(seats)
        ]

    @_storage_errors_said
    async def join(self, game_id: int, user_id: int, name: str, locale: str | None = None) -> None:
        async with self.lock(game_id):
            _row, game, seats = await self._open_lobby(game_id)
            if any(s.user_id == user_id for s in seats):
                raise TableError(text.ALREADY_SEATED)
            if len(seats) >= game.max_players:
                raise TableError(text.LOBBY_FULL, count=game.max_players)
            entries = self._seat_dicts(seats)
            entries.append({"seat": len(entries), "user_id": user_id, "ai_level": None, "name": name, "locale": locale})
            await self.db.set_seats(game_id, entries)

    @_storage_errors_said
    async def add_ai(self, game_id: int, by_user: int, level: str = "heuristic", lang: str = i18n.DEFAULT) -> None:
        async with self.lock(game_id):
            _row, game, seats = await self._open_lobby(game_id)
            if not any(s.user_id == by_user for s in seats):
                raise TableError(text.JOIN_FIRST)
            if level not in game.ai_levels:
                raise TableError(text.UNKNOWN_AI, levels=", ".join(game.ai_levels))
            if len(seats) >= game.max_players:
                raise TableError(text.LOBBY_FULL, count=game.max_players)
            entries = self._seat_dicts(seats)
            number = sum(1 for s in seats if s.user_id is None) + 1
            entries.append(
                {
                    "seat": len(entries),
                    "user_id": None,
                    "ai_level": level,
                    "name": i18n.t(lang, text.AI_NAME, n=number, level=level),
                }
            )
            await self.db.set_seats(game_id, entries)

    @_storage_errors_said
    async def leave(self, game_id: int, user_id: int) -> bool:
        """Leave a lobby; returns True when the lobby closed because nobody human is left."""
        async with self.lock(game_id):
            row, _game, seats = await self._open_lobby(game_id)
            if not any(s.user_id == user_id for s in seats):
                raise TableError(text.NOT_SEATED)
            rest = [s for s in seats if s.user_id != user_id]
            humans = [s for s in rest if s.user_id is not None]
            if not humans:
                await self.db.finish_game(game_id, "abandoned", [])
                return True
            await self.db.set_seats(game_id, self._seat_dicts(rest))
            if row.host_id == user_id:
                await self.db.update_game(game_id, host_id=humans[0].user_id)
            return False

    @_storage_errors_said
    async def kick(self, game_id: int, by_user: int, seat: int) -> str:
        async with self.lock(game_id):
            row, _game, seats = await self._open_lobby(game_id)
            if row.host_id != by_user:
                raise TableError(text.HOST_ONLY)
            if not 0 <= seat < len(seats) or seats[seat].user_id == by_user:
                raise TableError(text.BAD_SEAT)
            name = seats[seat].name
            await self.db.set_seats(game_id, self._seat_dicts([s for i, s in enumerate(seats) if i != seat]))
            return name

    @_storage_errors_said
    async def set_option(self, game_id: int, by_user: int, name: str, value: Any) -> None:
        async with self.lock(game_id):
            row, game, _seats = await self._open_lobby(game_id)
            if row.host_id != by_user:
                raise TableError(text.HOST_ONLY)
            if name == "turn_seconds":
                await self.db.update_game(game_id, turn_seconds=_turn_seconds(value))
                return
            try:
                options = game.resolve_options({**row.options, name: value})
            except ValueError as exc:
                raise TableError(str(exc), from_rules=True) from None
            await self.db.update_game(game_id, options=options)

    @_storage_errors_said
    async def cancel(self, game_id: int, by_user: int) -> None:
        async with self.lock(game_id):
            row, _game, _seats = await self._open_lobby(game_id)
            if row.host_id != by_user:
                raise TableError(text.HOST_ONLY)
            await self.db.finish_game(game_id, "abandoned", [])

    @_storage_errors_said
    async def abandon(self, game_id: int, by_user: int, *, is_admin: bool = False) -> GameRow:
        update: TableUpdate | None = None
        async with self.lock(game_id):
            row = await self._game(game_id)
            if row.status not in ("lobby", "active"):
                raise TableError(text.GAME_OVER)
            if row.host_id != by_user and not is_admin:
                raise TableError(text.HOST_OR_ADMIN)
            was_active = row.status == "active"
            await self.db.finish_game(game_id, "abandoned", [])
            self._forget(game_id)
            if was_active:
                self._ended(row, "abandoned")
            row = await self._game(game_id)
            if was_active:
                update = await self._closing_update(row, {"type": "abandoned"})
        if update is not None:
            await self.notifier.publish(update)
        return row

    async def _closing_update(self, row: GameRow, event: Event) -> TableUpdate:
        """The last picture of a game that ended without an outcome: every seat loses its buttons."""
        assert row.id is not None
        game = games.get(row.game_key)
        data, version = await self.db.load_state(row.id)
        state = game.from_json(data)
        seats = await self.db.seats(row.id)
        humans = [s for s in seats if s.user_id is not None]
        views = game.views(state, [None, *(s.seat for s in humans)])
        notices = {s.seat: SeatNotice(s, views[s.seat], None, version) for s in humans}
        update = TableUpdate(row, seats, version, views[None], [], [event], [], list(notices.values()), None)
        update.notices = notices
        return update

    # --- start -------------------------------------------------------------------------------
    @_storage_errors_said
    async def start(
        self, game_id: int, by_user: int, ack: Callable[[TableUpdate], Awaitable[None]] | None = None
    ) -> TableUpdate:
        """Start a lobby: commit the new game (and the AI moves that open it), tell the host (`ack`, only
        once all of that is committed), then publish the thread, the table and the DMs."""
        async with self.lock(game_id):
            row, game, seats = await self._open_lobby(game_id)
            if row.host_id != by_user:
                raise TableError(text.HOST_ONLY)
            if not game.min_players <= len(seats) <= game.max_players:
                raise TableError(
                    text.PLAYER_COUNT, title=game.title, low=game.min_players, high=game.max_players, n=len(seats)
                )
            state = game.new(len(seats), row.seed, row.options)
            version = await self.db.start_game(game_id, game.to_json(state), None)
            self._cache[game_id] = (version, state)
            self._last_acted[game_id] = {}
            self.observer.game_started(row.game_key)
            log.info(
                "game started",
                extra={
                    "event": "game_started",
                    "game_id": game_id,
                    "guild_id": row.guild_id,
                    "game": row.game_key,
                    "seats": len(seats),
                    "humans": sum(1 for s in seats if s.user_id is not None),
                },
            )
            events: list[Event] = []
            try:
                update = await self._advance(game_id, version, state, events, [])
            except (DatabaseUnavailable, Unavailable):  # started: its table and AI turns follow by themselves
                self._stall(game_id, events, [], started=True)
                raise CatchingUp(text.RECORDED_CATCHING_UP) from None
        _started(update)
        if ack is not None:
            try:
                await ack(update)
            except Exception:  # committed already: the players must still get their table and DMs
                log.exception("acknowledging the start of game %s failed", game_id)
        await self.notifier.publish(update)
        return update

    # --- decisions ---------------------------------------------------------------------------
    @_storage_errors_said
    async def seat_of(self, game_id: int, user_id: int) -> SeatRow:
        for seat in await self.db.seats(game_id):
            if seat.user_id == user_id:
                return seat
        raise TableError(text.NOT_YOUR_SEAT)

    @_storage_errors_said
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
        async with self.lock(game_id):
            row, seats = await self._game_and_seats(game_id)
            if row.status != "active":
                raise TableError(text.GAME_OVER if row.status != "lobby" else text.NOT_STARTED)
            if not 0 <= seat < len(seats) or seats[seat].user_id != user_id:
                raise TableError(text.NOT_YOUR_SEAT)
            version, state = await self._state(row)
            acted = (await self._acted(game_id)).get(seat, 0)
            if offered > version or offered < acted:
                raise Stale(text.ALREADY_DECIDED if acted > offered else text.STALE)
            game = games.get(row.game_key)
            prompt = next((p for p in game.prompts(state) if p.seat == seat), None)
            if prompt is None:
                raise Stale(text.NOTHING_TO_DECIDE)
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
                raise CatchingUp(text.RECORDED_CATCHING_UP) from None
            own = update.notices[seat]
            update.dms = [n for n in update.dms if n.seat.seat != seat]
            decided = Decided(update, own, [labels.get(c, c) for c in choice], prompt, list(choice))
            if ack is not None:
                try:
                    await ack(decided)
                except Exception:  # committed already: the others must still hear about it
                    log.exception("acknowledging a decision in game %s failed", game_id)
                    update.dms.append(own)  # and the player's own message is refreshed by the notifier
        await self.notifier.publish(update)
        return decided

    @_storage_errors_said
    async def private_view(self, game_id: int, user_id: int, locale: str | None = None) -> SeatNotice:
        """The caller's seat view and prompt (for "Show my hand" and /game hand)."""
        row = await self._game(game_id)
        if row.status != "active":
            raise TableError(text.GAME_OVER if row.status != "lobby" else text.NOT_STARTED)
        seat = await self.seat_of(game_id, user_id)
        await self._remember_locale(game_id, seat, locale)
        version, state = await self._state(row)
        game = games.get(row.game_key)
        prompt = next((p for p in game.prompts(state) if p.seat == seat.seat), None)
        self._shown[(game_id, seat.seat)] = _prompt_key(prompt, version)
        return SeatNotice(seat, game.view(state, seat.seat), prompt, version)

    @_storage_errors_said
    async def public(self, game_id: int) -> tuple[GameRow, dict[str, Any], list[Prompt]]:
        row = await self.db.get_game(game_id)  # with its state: None if unreadable
        if row is None:
            raise TableError(text.NO_SUCH_GAME)
        if row.status == "lobby" or row.state is None:
            raise TableError(text.NOT_STARTED)
        _version, state = await self._state(row)
        game = games.get(row.game_key)
        return row, game.view(state, None), game.prompts(state)

    @_storage_errors_said
    async def back(self, game_id: int, user_id: int) -> None:
        """ "I'm back": the player takes their seat back from the AI."""
        async with self.lock(game_id):
            row = await self._game(game_id)
            if row.status != "active":
                raise TableError(text.GAME_OVER)
            seat = await self.seat_of(game_id, user_id)
            await self.db.update_seat(game_id, seat.seat, ai_controlled=False, afk_count=0)

    # --- timers ------------------------------------------------------------------------------
    async def tick(self) -> int:
        """Run due reminders and AFK deadlines; returns how many games were handled."""
        handled = 0
        for row in await self.db.due_games(self.clock(), self.shards):
            assert row.id is not None
            try:
                await self._timer(row.id)
            except Exception:  # one broken game must not stop the others' timers
                log.exception("timer failed for game %s", row.id, extra={"event": "timer_failed", "game_id": row.id})
            handled += 1
        self.observer.ticked(handled)
        return handled

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
            return _started(update) if row.table_message_id is None else update

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

    async def _timer(self, game_id: int) -> None:
        update: TableUpdate | None = None
        remind: tuple[GameRow, list[SeatRow], datetime] | None = None
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
            if not row.reminded and row.turn_seconds:
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
            ai = game.ai(AFK_LEVEL, self._ai_seed(row, version + len(turn.moves), prompt.seat))
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

    # --- internals ---------------------------------------------------------------------------
    async def _remember_locale(self, game_id: int, seat: SeatRow, locale: str | None) -> None:
        """Keep the player's Discord locale on the seat, so later DMs speak their language."""
        if locale and seat.locale != locale:
            await self.db.update_seat(game_id, seat.seat, locale=locale)
            seat.locale = locale

    async def _state(self, row: GameRow) -> tuple[int, Any]:
        assert row.id is not None
        cached = self._cache.get(row.id)
        if cached is not None and cached[0] == row.version:
            return cached
        # Someone else (another bot process) moved the game on: who acted when is stale too.
        self._last_acted.pop(row.id, None)
        data, version = await self.db.load_state(row.id)
        state = games.get(row.game_key).from_json(data)
        self._cache[row.id] = (version, state)
        return version, state

    async def _acted(self, game_id: int) -> dict[int, int]:
        acted = self._last_acted.get(game_id)
        if acted is None:
            acted = {}
            for action in await self.db.actions(game_id):
                acted[action.seat] = action.seq
            self._last_acted[game_id] = acted
        return acted

    def _forget(self, game_id: int) -> None:
        self._cache.pop(game_id, None)
        self._last_acted.pop(game_id, None)

    def _ended(self, row: GameRow, end: str) -> None:
        self.observer.game_ended(row.game_key, end)
        log.info(
            "game ended",
            extra={
                "event": "game_ended",
                "game_id": row.id,
                "guild_id": row.guild_id,
                "game": row.game_key,
                "end": end,
            },
        )

    # --- catching up after the database was unavailable ---------------------------------------
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
            del self._shown[key]  # what was being shown may not have been: show every seat again
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
        """Stop resuming (on shutdown); committed work is picked up by the timers after a restart."""
        for task in self._resumers.values():
            task.cancel()
        await asyncio.gather(*self._resumers.values(), return_exceptions=True)
        self._resumers.clear()

    async def _commit(
        self, row: GameRow, version: int, turn: _Turn, state: Any, *, deadline: datetime | EllipsisType | None = ...
    ) -> int:
        """Commit the turn's moves, seat changes and deadline at once; the new version. Stale if the game
        moved on meanwhile, Unavailable if the database could not be reached: nothing was written then."""
        assert row.id is not None
        game = games.get(row.game_key)
        try:
            new_version = await self.db.commit_actions(
                row.id, version, turn.moves, game.to_json(state), deadline=deadline, seats=turn.seats
            )
        except VersionConflict:
            self._forget(row.id)  # our copy was mutated by apply(); reload next time
            raise Stale(text.ALREADY_DECIDED) from None
        except DatabaseUnavailable as error:
            self._forget(row.id)  # not committed (or not known to be): the mutated copy must not be reused
            log.warning("database unavailable for a commit of game %s: %s", row.id, error)
            raise Unavailable(text.TRY_AGAIN_SOON) from error
        except BaseException:
            self._forget(row.id)
            raise
        self._cache[row.id] = (new_version, state)
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

    @staticmethod
    def _ai_seed(row: GameRow, version: int, seat: int) -> int:
        return (row.seed * 1_000_003 + version * 101 + seat) & 0xFFFF_FFFF

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
                level = seats[prompt.seat].ai_level or AFK_LEVEL
                choice = game.ai(level, self._ai_seed(row, version, prompt.seat)).choose(game, state, prompt)
                kind = "ai" if seats[prompt.seat].user_id is None else "afk"
                turn.add(prompt.seat, choice, kind, game.apply(state, prompt.seat, choice))
                version += 1
                moved = True
        outcome = game.outcome(state)
        told = [*events, *turn.events]  # committed but unshown first, then this turn's
        # Which humans must see something new privately: a prompt they have not been shown yet.
        notices: dict[int, SeatNotice] = {}
        dms: list[SeatNotice] = []
        shown: dict[tuple[int, int], str] = {}  # recorded once the turn is committed
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
            notices[seat.seat] = notice
            key = _prompt_key(own_prompt, acted.get(seat.seat, 1))
            if self._shown.get((game_id, seat.seat)) != key or outcome is not None:
                shown[(game_id, seat.seat)] = key
                dms.append(notice)
        wake: datetime | None = row.deadline
        new_deadline: datetime | EllipsisType = ...
        if outcome is None and row.turn_seconds:
            # A fresh deadline when some human got a new prompt; the others keep the turn's deadline.
            # A prompt only re-sent (after a restart) is not new: its deadline, maybe past, stands,
            # so that the timer fires it once, and does not remind again.
            fresh = moved and any(n.prompt is not None and not n.seat.ai_controlled for n in dms)
            if fresh or wake is None:
                wake = new_deadline = self.clock() + timedelta(seconds=row.turn_seconds / 2)
        if turn.moves:
            await self._commit(row, committed, turn, state, deadline=new_deadline)
            events += turn.events
            afk += turn.afk
        elif not isinstance(new_deadline, EllipsisType):
            await self.db.update_game(game_id, deadline=new_deadline, reminded=False)
        if not isinstance(new_deadline, EllipsisType):
            row.deadline, row.reminded = new_deadline, False
        self._shown.update(shown)
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
            [e for e in events if "to" not in e],
            afk,
            dms,
            outcome,
            deadline=deadline,
        )
        update.notices = notices
        return update


def _turn_seconds(value: Any) -> int | None:
    """A turn timer from a command option or a select value: None (off) for 0 or less, else the seconds."""
    if value is None:
        return None
    try:
        seconds = int(str(value).strip())
    except ValueError:
        raise TableError(text.BAD_TIMER, high=MAX_TURN_SECONDS) from None
    if seconds > MAX_TURN_SECONDS:
        raise TableError(text.BAD_TIMER, high=MAX_TURN_SECONDS)
    return seconds if seconds > 0 else None


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


def _started(update: TableUpdate) -> TableUpdate:
    update.started = True
    return update
