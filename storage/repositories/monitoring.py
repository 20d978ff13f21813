"""What the operators' metrics and the health check ask of the database."""

from __future__ import annotations

from sqlalchemy import (
    func,
    select,
)

from storage.repositories.base import DatabaseCore
from storage.rows import _games
from storage.shards import Shards


class MonitoringRepository(DatabaseCore):
    """What the operators' metrics and health check read."""

    async def count_games(self) -> int:
        async with self._reading() as conn:
            return int((await conn.execute(select(func.count()).select_from(_games))).scalar_one())

    async def active_games_by_key(self, shards: Shards | None = None) -> dict[str, int]:
        """How many games are running (status active) per game key, of `shards`' guilds when given:
        each process of a sharded bot reports its own, so the operators' sum is the whole bot's."""
        owned = [] if shards is None else [shards.where(_games.c.guild_id)]
        query = (
            select(_games.c.game_key, func.count())
            .where(_games.c.status == "active", *owned)
            .group_by(_games.c.game_key)
        )
        async with self._reading() as conn:
            return {str(key): int(count) for key, count in (await conn.execute(query)).all()}

    async def ping(self) -> None:
        """Raise unless the database answers a trivial query and the writer can still commit."""
        if not self.writer.running:
            raise RuntimeError("the database writer is not running")
        async with self._reading() as conn:
            await conn.execute(select(1))
