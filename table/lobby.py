"""Lobbies: open, join, leave, add AI seats, kick, set variants, cancel, start; and abandoning a game."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

import games
from storage import DatabaseUnavailable, GameRow, SeatRow
from table import messages
from table.advance import Advancing
from table.core import DEFAULT_TURN_SECONDS, MAX_TURN_SECONDS, stand_in_level
from table.errors import CatchingUp, TableError, Unacknowledged, Unavailable, echo, storage_errors_said
from table.updates import Event, TableUpdate, started

log = logging.getLogger(__name__)


def default_ai_name(number: int, level: str) -> str:
    """An AI seat's name when the caller gives none ("AI 1 (heuristic)"); the bot names them in the
    lobby's language."""
    return messages.AI_NAME.format(n=number, level=level)


# The caps a server's admins can change with `/game settings` (storage keeps only the changed ones).
DEFAULT_LIMITS = {"lobbies_per_user": 2, "games_per_user": 10, "lobbies_per_server": 25, "games_per_server": 200}
LOBBY_EXPIRY_SECONDS = 3600  # a lobby nobody starts is closed after this long


class Lobbies(Advancing):
    async def limits(self, guild_id: int | None) -> dict[str, int]:
        """The caps in force on a server: the defaults, overlaid with what its admins set."""
        changed = await self.db.get_guild_limits(guild_id) if guild_id is not None else {}
        return {**DEFAULT_LIMITS, **{k: v for k, v in changed.items() if k in DEFAULT_LIMITS}}

    @storage_errors_said
    async def within_limits(self, guild_id: int | None, user_id: int) -> None:
        """Refuse a new lobby over any cap of the server (`/game settings`), saying which and how to free
        a place. The bot asks before it opens a lobby for someone; `create_lobby` itself does not, so
        benchmarks and tools open as many as they need."""
        limits = await self.limits(guild_id)
        lobbies, playing, server_lobbies, server_games = await self.db.running_counts(guild_id, user_id)
        for used, name, message in (
            (lobbies, "lobbies_per_user", messages.CAP_USER_LOBBIES),
            (playing, "games_per_user", messages.CAP_USER_GAMES),
            (server_lobbies, "lobbies_per_server", messages.CAP_SERVER_LOBBIES),
            (server_games, "games_per_server", messages.CAP_SERVER_GAMES),
        ):
            if used >= limits[name]:
                raise TableError(message, count=limits[name])

    @storage_errors_said
    async def expire_lobbies(self, after: float = LOBBY_EXPIRY_SECONDS) -> list[GameRow]:
        """Close the lobbies nobody started within `after` seconds; returns them (their message is the
        transport's to update)."""
        closed = []
        for row in await self.db.stale_lobbies(self.clock() - timedelta(seconds=after), self.shards):
            assert row.id is not None
            async with self.lock(row.id):
                fresh = await self._game(row.id)
                if fresh.status != "lobby":
                    continue
                await self.db.finish_game(row.id, "abandoned", [])
                closed.append(fresh)
        return closed

    @storage_errors_said
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
            raise TableError(messages.UNKNOWN_GAME, key=echo(game_key), known=", ".join(games.keys())) from None
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

    @storage_errors_said
    async def rematch(self, game_id: int, user_id: int, name: str, locale: str | None = None) -> tuple[GameRow, bool]:
        """A finished game's rematch: a new lobby in the same channel with the same game, variants, timer
        and AI seats, opened by the first of its players to ask (its host). The others asking join that
        lobby. Returns the lobby and whether it was opened now."""
        old, seats = await self._game_and_seats(game_id)
        if old.status != "finished":
            raise TableError(messages.NOT_FINISHED)
        if not any(s.user_id == user_id for s in seats):
            raise TableError(messages.REMATCH_NOT_PLAYER)
        async with self.lock(game_id):  # two players asking at once get one lobby
            known = self._rematches.get(game_id)
            if known is None:
                await self.within_limits(old.guild_id, user_id)
            found = await self.db.game_row(known) if known is not None else None
            if found is not None and found.status == "lobby":
                assert found.id is not None
                _row, here = await self._game_and_seats(found.id)
                if not any(s.user_id == user_id for s in here):
                    await self.join(found.id, user_id, name, locale)
                return found, False
            lobby = await self.create_lobby(
                guild_id=old.guild_id,
                channel_id=old.channel_id,
                game_key=old.game_key,
                host_id=user_id,
                host_name=name,
                options=dict(old.options),
                turn_seconds=old.turn_seconds,
                host_locale=locale,
            )
            assert lobby.id is not None
            for seat in seats:
                if seat.user_id is None and seat.ai_level is not None:
                    await self.add_ai(lobby.id, user_id, seat.ai_level, name=_same_name(seat.name))
            self._rematches[game_id] = lobby.id
            return lobby, True

    @storage_errors_said
    async def lobby(self, game_id: int) -> tuple[GameRow, list[SeatRow]]:
        return await self._game_and_seats(game_id)

    @storage_errors_said
    async def join(self, game_id: int, user_id: int, name: str, locale: str | None = None) -> None:
        async with self.lock(game_id):
            _row, game, seats = await self._open_lobby(game_id)
            if any(s.user_id == user_id for s in seats):
                raise TableError(messages.ALREADY_SEATED)
            if len(seats) >= game.max_players:
                raise TableError(messages.LOBBY_FULL, count=game.max_players)
            entries = self._seat_dicts(seats)
            entries.append({"seat": len(entries), "user_id": user_id, "ai_level": None, "name": name, "locale": locale})
            await self.db.set_seats(game_id, entries)

    @storage_errors_said
    async def add_ai(
        self,
        game_id: int,
        by_user: int,
        level: str | None = None,
        name: Callable[[int, str], str] = default_ai_name,
    ) -> None:
        """Seat an AI of `level` (None: the game's stand-in level), named by `name(number, level)`."""
        async with self.lock(game_id):
            _row, game, seats = await self._open_lobby(game_id)
            level = level or stand_in_level(game)
            if not any(s.user_id == by_user for s in seats):
                raise TableError(messages.JOIN_FIRST)
            if level not in game.ai_levels:
                raise TableError(messages.UNKNOWN_AI, levels=", ".join(game.ai_levels))
            if len(seats) >= game.max_players:
                raise TableError(messages.LOBBY_FULL, count=game.max_players)
            entries = self._seat_dicts(seats)
            number = sum(1 for s in seats if s.user_id is None) + 1
            entries.append(
                {
                    "seat": len(entries),
                    "user_id": None,
                    "ai_level": level,
                    "name": name(number, level),
                }
            )
            await self.db.set_seats(game_id, entries)

    @storage_errors_said
    async def leave(self, game_id: int, user_id: int) -> bool:
        """Leave a lobby; returns True when the lobby closed because nobody human is left."""
        async with self.lock(game_id):
            row, _game, seats = await self._open_lobby(game_id)
            if not any(s.user_id == user_id for s in seats):
                raise TableError(messages.NOT_SEATED)
            rest = [s for s in seats if s.user_id != user_id]
            humans = [s for s in rest if s.user_id is not None]
            if not humans:
                await self.db.finish_game(game_id, "abandoned", [])
                return True
            await self.db.set_seats(game_id, self._seat_dicts(rest))
            if row.host_id == user_id:
                await self.db.update_game(game_id, host_id=humans[0].user_id)
            return False

    @storage_errors_said
    async def kick(self, game_id: int, by_user: int, seat: int) -> str:
        async with self.lock(game_id):
            row, _game, seats = await self._open_lobby(game_id)
            if row.host_id != by_user:
                raise TableError(messages.HOST_ONLY)
            if not 0 <= seat < len(seats) or seats[seat].user_id == by_user:
                raise TableError(messages.BAD_SEAT)
            name = seats[seat].name
            await self.db.set_seats(game_id, self._seat_dicts([s for i, s in enumerate(seats) if i != seat]))
            return name

    @storage_errors_said
    async def set_option(self, game_id: int, by_user: int, name: str, value: Any) -> None:
        async with self.lock(game_id):
            row, game, _seats = await self._open_lobby(game_id)
            if row.host_id != by_user:
                raise TableError(messages.HOST_ONLY)
            if name == "turn_seconds":
                await self.db.update_game(game_id, turn_seconds=_turn_seconds(value))
                return
            try:
                options = game.resolve_options({**row.options, name: value})
            except ValueError as exc:
                raise TableError(str(exc), from_rules=True) from None
            await self.db.update_game(game_id, options=options)

    @storage_errors_said
    async def cancel(self, game_id: int, by_user: int) -> None:
        async with self.lock(game_id):
            row, _game, _seats = await self._open_lobby(game_id)
            if row.host_id != by_user:
                raise TableError(messages.HOST_ONLY)
            await self.db.finish_game(game_id, "abandoned", [])

    @storage_errors_said
    async def abandon(self, game_id: int, by_user: int, *, is_admin: bool = False) -> GameRow:
        update: TableUpdate | None = None
        async with self.lock(game_id):
            row = await self._game(game_id)
            if row.status not in ("lobby", "active"):
                raise TableError(messages.GAME_OVER)
            if row.host_id != by_user and not is_admin:
                raise TableError(messages.HOST_OR_ADMIN)
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

    @storage_errors_said
    async def start(
        self, game_id: int, by_user: int, ack: Callable[[TableUpdate], Awaitable[None]] | None = None
    ) -> TableUpdate:
        """Start a lobby: commit the new game (and the AI moves that open it), tell the host (`ack`, only
        once all of that is committed), then publish the thread, the table and the DMs."""
        async with self.lock(game_id):
            row, game, seats = await self._open_lobby(game_id)
            if row.host_id != by_user:
                raise TableError(messages.HOST_ONLY)
            if not game.min_players <= len(seats) <= game.max_players:
                raise TableError(
                    messages.PLAYER_COUNT, title=game.title, low=game.min_players, high=game.max_players, n=len(seats)
                )
            state = game.new(len(seats), row.seed, row.options)
            version = await self.db.start_game(game_id, game.to_json(state), None)
            self._keep_state(game_id, version, state)
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
                raise CatchingUp(messages.RECORDED_CATCHING_UP) from None
        started(update)
        if ack is not None:
            try:
                await ack(update)
            except Unacknowledged as reason:  # committed already: the table and DMs say it was started
                log.warning("the start of game %s was not answered (%s)", game_id, reason)
            except Exception:  # committed already: the players must still get their table and DMs
                log.exception("acknowledging the start of game %s failed", game_id)
        await self.notifier.publish(update)
        return update


def _same_name(name: str) -> Callable[[int, str], str]:
    """An AI seat's namer that keeps the name it had (a rematch's AI seats)."""
    return lambda _number, _level: name


def _turn_seconds(value: Any) -> int | None:
    """A turn timer from a command option or a select value: None (off) for 0 or less, else the seconds."""
    if value is None:
        return None
    try:
        seconds = int(str(value).strip())
    except ValueError:
        raise TableError(messages.BAD_TIMER, high=MAX_TURN_SECONDS) from None
    if seconds > MAX_TURN_SECONDS:
        raise TableError(messages.BAD_TIMER, high=MAX_TURN_SECONDS)
    return seconds if seconds > 0 else None
