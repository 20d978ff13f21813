"""The table service's shared state and the small helpers every part of it uses.

`TableCore` holds what the service keeps between calls (locks, the engine states of recent games,
which prompt each seat was last shown, the games waiting for the database) and reads games, seats and
states from storage. The parts of the service (lobby, decisions, timers, resumption) are mixins over
it, put together in `table.service.TableService`.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import games
from games.core import Game, Prompt
from storage import Database, GameRow, Move, SeatRow, Shards
from table import messages
from table.delivery import DeliveryLog
from table.errors import TableError
from table.thinking import InlineThinker, Thinker
from table.updates import Event, Notifier, NullNotifier, NullObserver, SeatNotice, TableObserver, TableUpdate

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]

DEFAULT_TURN_SECONDS = 180
# The longest turn timer accepted: 72 hours, for turn-based play over days (a forged bigger one is refused, so a
# deadline can never overflow). The reminder comes at half of it, so 36 hours in.
MAX_TURN_SECONDS = 259_200
AFK_TURNS_BEFORE_AI = 2
# A game whose follow-up work (AI turns, finishing, deadline, notifications) failed because the database
# could not be reached is resumed in the background: first after this many seconds, then doubling.
RESUME_FIRST_DELAY = 0.5
RESUME_MAX_DELAY = 8.0
# An engine state kept in memory and not used for this long (between IDLE_STATE and twice it) is dropped
# by the timer's tick, and read from the database again when the game next moves: a game waiting on a player
# who went away for hours keeps no more than its rows (issue 37: an engine state is 8-40 KB, most of what a
# game costs the bot; reading one again costs ~1 ms).
IDLE_STATE = timedelta(minutes=10)


@dataclass(frozen=True)
class WatchTimes:
    """When the watchdog (table.watchdog) steps in. `grace`: how long a game may stay past its deadline
    with the timer making no progress on it (a tick moves a due game's deadline on, or ends the game,
    within one `TIMER_INTERVAL`). `idle`: how long a game without a turn timer may go unchanged before
    it is re-armed and its awaited players reminded (again every `idle`). `end_after`: from the game's
    last decision, when that reminder offers the host a button that ends the game."""

    grace: timedelta = timedelta(seconds=60)
    idle: timedelta = timedelta(hours=24)
    end_after: timedelta = timedelta(hours=72)


def stand_in_level(game: Game[Any]) -> str:
    """The AI level that plays for an absent player: the heuristic where the game has one (strong and
    cheap), else the best level it declares (`ai_levels` lists them from weakest to strongest)."""
    return "heuristic" if "heuristic" in game.ai_levels else game.ai_levels[-1]


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


SHOW_AGAIN = -1  # in TableCore._shown: the seat is shown its view again with the next update (no digest is -1)


def prompt_digest(prompt: Prompt | None, offered: int) -> int:
    """A digest of the prompt a seat is shown (what it asks, which choices, when it was offered), stored
    with the seat's window as delivered (a signed 64-bit column): 0 for no prompt."""
    if prompt is None:
        return 0
    digest = hashlib.blake2b(_prompt_key(prompt, offered).encode(), digest_size=8).digest()
    return (int.from_bytes(digest) >> 1) or 1


class TableCore:
    def __init__(
        self,
        db: Database,
        notifier: Notifier | None = None,
        *,
        clock: Clock = _utcnow,
        seeds: random.Random | None = None,
        shards: Shards | None = None,
        observer: TableObserver | None = None,
        thinker: Thinker | None = None,
        watch: WatchTimes | None = None,
    ) -> None:
        self.db = db
        self.watch_times = watch or WatchTimes()
        # Makes the AI seats' decisions: in this process (the default), or elsewhere (bot.app.thinking).
        self.thinker: Thinker = thinker or InlineThinker()
        # The Discord shards this process runs when the bot is split over several processes: timers
        # and start-up resumption touch only their guilds' games. None: every game is ours.
        self.shards = shards
        self.seeds = seeds or random.Random()  # game seeds; tests pass a seeded Random for repeatability
        self.notifier: Notifier = notifier or NullNotifier()
        self.observer: TableObserver = observer or NullObserver()
        self.clock = clock
        self._locks: dict[int, asyncio.Lock] = {}
        self._cache: dict[int, tuple[int, Any]] = {}  # game id -> (version, engine state)
        # The games whose state was used since the last look for idle ones (`drop_idle_states`), and when that was.
        self._used: set[int] = set()
        self._idle_dropped: datetime | None = None
        self._last_acted: dict[int, dict[int, int]] = {}  # game id -> seat -> version its action made
        # (game, seat) -> digest of the prompt last handed to the notifier for the seat (prompt_digest). A
        # seat this process never showed anything falls back to what its row says was delivered.
        self._shown: dict[tuple[int, int], int] = {}
        # What Discord confirmed the players were shown, recorded by the transport (table.delivery).
        self.delivery = DeliveryLog(db)
        # The repair of what a stopped process never showed (table.resume): running, and games it is done with.
        self._repairing = False
        self._repaired: set[int] = set()
        self._repair_task: asyncio.Task[None] | None = None
        self._stalled: dict[int, _Stalled] = {}  # games whose follow-up waits for the database
        self.stalls = 0  # times a game had to wait for the database after a commit (benchmarks, tests)
        self._resumers: dict[int, asyncio.Task[None]] = {}
        self._rematches: dict[int, int] = {}  # finished game id -> the id of its rematch lobby
        self._held: dict[int, list[Event]] = {}  # game id -> public events of a turn still going on
        # The watchdog's memory (table.watchdog): game id -> (version, deadline, reminded) of a due game as
        # the timer first found it, and when. Still the same `grace` later: the timer made no progress.
        self._overdue: dict[int, tuple[tuple[int, datetime | None, bool], datetime]] = {}
        self._idle_looked: datetime | None = None  # when the watchdog last looked for idle games

    def lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    def busy(self, game_id: int) -> bool:
        return self.lock(game_id).locked()

    def _locked(self, game_id: int) -> bool:
        """`busy`, without making a lock for a game that has none."""
        lock = self._locks.get(game_id)
        return lock is not None and lock.locked()

    async def _game(self, game_id: int) -> GameRow:
        """The game's row without its state (the engine state comes from `_state`)."""
        row = await self.db.game_row(game_id)
        if row is None:
            raise TableError(messages.NO_SUCH_GAME)
        return row

    async def _game_and_seats(self, game_id: int) -> tuple[GameRow, list[SeatRow]]:
        found = await self.db.game_and_seats(game_id)
        if found is None:
            raise TableError(messages.NO_SUCH_GAME)
        return found

    async def _open_lobby(self, game_id: int) -> tuple[GameRow, Game[Any], list[SeatRow]]:
        row, seats = await self._game_and_seats(game_id)
        if row.status != "lobby":
            raise TableError(messages.NOT_A_LOBBY)
        return row, games.get(row.game_key), seats

    @staticmethod
    def _seat_dicts(seats: list[SeatRow]) -> list[dict[str, Any]]:
        return [
            {"seat": i, "user_id": s.user_id, "ai_level": s.ai_level, "name": s.name, "locale": s.locale}
            for i, s in enumerate(seats)
        ]

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

    async def _remember_locale(self, game_id: int, seat: SeatRow, locale: str | None) -> None:
        """Keep the player's Discord locale on the seat, so later DMs speak their language."""
        if locale and seat.locale != locale:
            await self.db.update_seat(game_id, seat.seat, locale=locale)
            seat.locale = locale

    async def _state(self, row: GameRow) -> tuple[int, Any]:
        assert row.id is not None
        cached = self._cache.get(row.id)
        if cached is not None and cached[0] == row.version:
            self._used.add(row.id)
            return cached
        # Someone else (another bot process) moved the game on: who acted when is stale too.
        self._last_acted.pop(row.id, None)
        data, version = await self.db.load_state(row.id)
        state = games.get(row.game_key).from_json(data)
        self._keep_state(row.id, version, state)
        return version, state

    def _keep_state(self, game_id: int, version: int, state: Any) -> None:
        """The game's engine state at `version`, as committed: kept for its next decision."""
        self._cache[game_id] = (version, state)
        self._used.add(game_id)

    def drop_idle_states(self) -> int:
        """Drop the engine states (and who acted when) of the games not moved for IDLE_STATE, when that
        much time has passed since the last look (the timer's tick asks); how many were dropped. A game
        whose lock is held is left alone: its state is in use."""
        now = self.clock()
        if self._idle_dropped is None:  # the first look: games not used from now on are idle
            self._idle_dropped, self._used = now, set()
        if now - self._idle_dropped < IDLE_STATE:
            return 0
        self._idle_dropped = now
        idle = [game_id for game_id in self._cache if game_id not in self._used and not self._locked(game_id)]
        for game_id in idle:
            self._forget(game_id)
        self._used = set()
        return len(idle)

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
        self._used.discard(game_id)

    def held(self, game_id: int) -> list[Event]:
        """The public events of a turn still going on, not handed to the notifier yet (one log post per
        turn: they come with the step that ends it)."""
        return list(self._held.get(game_id, []))

    def _ended(self, row: GameRow, end: str) -> None:
        if row.id is not None:
            self._held.pop(row.id, None)  # a turn's held log events (a game ended mid-turn)
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

    @staticmethod
    def _ai_seed(row: GameRow, version: int, seat: int) -> int:
        return (row.seed * 1_000_003 + version * 101 + seat) & 0xFFFF_FFFF
