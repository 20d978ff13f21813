"""What Discord confirmed the players were shown of each game (issue 23), and the games owed more.

The notifier's confirmations come in batches (table.delivery): one transaction of a few executemany
UPDATEs, whatever their number. Start-up reads the games owed something a page at a time.
"""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy import Connection, bindparam, or_, text, update

from storage.models import OWED, GameRow
from storage.repositories.games import GameRepository
from storage.rows import _change_seat, _games, _seats
from storage.shards import Shards

NEVER_OWED = ("lobby", "broken")  # not started, or given up on: nothing to show

_MARK_TABLE = (
    update(_games)
    .where(
        _games.c.id == bindparam("b_id"),
        or_(_games.c.table_version.is_(None), _games.c.table_version < bindparam("b_version")),
    )
    .values(table_version=bindparam("b_version"))
)
_MARK_RUNNING = (
    update(_games)
    .where(
        _games.c.id == bindparam("b_id"),
        _games.c.status == "active",
        or_(_games.c.delivered.is_(None), _games.c.delivered < bindparam("b_version")),
    )
    .values(delivered=bindparam("b_version"))
)
_MARK_ENDED = update(_games).where(_games.c.id == bindparam("b_id")).values(delivered=bindparam("b_version"))
_MARK_WINDOW = (
    update(_seats)
    .where(_seats.c.game_id == bindparam("b_game"), _seats.c.seat == bindparam("b_seat"))
    .values(dm_version=bindparam("b_version"), dm_prompt=bindparam("b_prompt"), dm_live=bindparam("b_live"))
)


def _record_delivered(
    conn: Connection,
    tables: Mapping[int, int],
    delivered: Mapping[int, tuple[int, bool]],
    windows: Mapping[tuple[int, int], tuple[int, int, bool]],
) -> None:
    if tables:
        conn.execute(_MARK_TABLE, [{"b_id": g, "b_version": v} for g, v in tables.items()])
    running = [{"b_id": g, "b_version": v} for g, (v, ending) in delivered.items() if not ending]
    ended = [{"b_id": g, "b_version": v} for g, (v, ending) in delivered.items() if ending]
    for statement, marks in ((_MARK_RUNNING, running), (_MARK_ENDED, ended)):
        if marks:
            conn.execute(statement, marks)
    if windows:
        conn.execute(
            _MARK_WINDOW,
            [
                {"b_game": g, "b_seat": s, "b_version": v, "b_prompt": p, "b_live": live}
                for (g, s), (v, p, live) in windows.items()
            ],
        )


class DeliveryRepository(GameRepository):
    async def owed_games(self, shards: Shards | None = None, *, after: int = 0, limit: int = 100) -> list[GameRow]:
        """Started games (active, finished or abandoned) with something committed that the players were not
        shown yet (`delivered` NULL or behind the version), ids above `after`, by id, at most `limit`: a
        page of what start-up repairs (of `shards`' guilds when given). The partial index ix_games_owed holds
        exactly the games this condition names: the query reads those, not every game."""
        owned = [] if shards is None else [shards.where(_games.c.guild_id)]
        return await self._games_where(
            _games.c.id > after,
            # Not `status IN (the three)`: SQLite would read the games by their status index instead.
            _games.c.status.notin_(NEVER_OWED),
            _games.c.version > 0,
            text(f"({OWED})"),
            *owned,
            limit=limit,
        )

    async def record_delivered(
        self,
        tables: Mapping[int, int],
        delivered: Mapping[int, tuple[int, bool]],
        windows: Mapping[tuple[int, int], tuple[int, int, bool]],
    ) -> None:
        """What Discord confirmed, in one transaction: `tables` game -> the version its table message shows;
        `delivered` game -> (the version up to which everything was shown, whether that includes its ending);
        `windows` (game, seat) -> (version, prompt digest, live) of the seat's private window. A version never
        goes back; a game that ended is marked delivered only by a mark that includes its ending."""
        if not (tables or delivered or windows):
            return
        await self._write(_record_delivered, tables, delivered, windows)
        if self._known is None:
            return
        for game_id, version in tables.items():
            known = self._wrote(game_id)
            if known is not None and (known.row["table_version"] or 0) < version:
                known.row["table_version"] = version
        for game_id, (version, ending) in delivered.items():
            known = self._wrote(game_id)
            if known is not None and (ending or known.row["status"] == "active"):
                known.row["delivered"] = max(version, known.row["delivered"] or 0)
        for (game_id, seat), (version, digest, live) in windows.items():
            known = self._wrote(game_id)
            if known is not None:
                _change_seat(known, seat, {"dm_version": version, "dm_prompt": digest, "dm_live": live})
