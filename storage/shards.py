"""Which games a bot process owns when the bot runs as several processes on one database.

Discord puts a guild on shard `(guild_id >> 22) % shard_count` (the formula discord.py's
`Guild.shard_id` uses) and direct messages on shard 0. A process that runs some of the shards owns
the games of those shards' guilds: only it runs their timers and resumes them at start-up. The same
rule is written twice here, once in Python and once as SQL, so the database can do the filtering.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, Integer, false, literal, or_

__all__ = ["Shards", "shard_of"]

SNOWFLAKE_TIMESTAMP_SHIFT = 22


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard that receives a guild's events (None, a DM, goes to shard 0)."""
    if guild_id is None:
        return 0
    return (guild_id >> SNOWFLAKE_TIMESTAMP_SHIFT) % shard_count


@dataclass(frozen=True)
class Shards:
    """The shards one process runs, out of `count` in all."""

    ids: frozenset[int]
    count: int

    @classmethod
    def of(cls, ids: Iterable[int], count: int) -> Shards:
        return cls(frozenset(ids), count)

    @property
    def everything(self) -> bool:
        return self.ids >= set(range(self.count))

    def owns(self, guild_id: int | None) -> bool:
        return shard_of(guild_id, self.count) in self.ids

    def where(self, guild_id: Any) -> ColumnElement[bool]:
        """SQL condition on a guild id column: the rows this process owns (same rule as `owns`)."""
        if self.everything:
            return literal(True)
        if not self.ids:
            return false()
        # PostgreSQL shifts a BIGINT by an INTEGER only (there is no bigint >> bigint).
        shard = guild_id.bitwise_rshift(literal(SNOWFLAKE_TIMESTAMP_SHIFT, Integer)) % self.count
        owned = shard.in_(sorted(self.ids))
        return or_(owned, guild_id.is_(None)) if 0 in self.ids else owned
