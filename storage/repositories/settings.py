"""Per-server settings (the language of channel messages) and per-user ones (how a player is told it is their turn)."""

from __future__ import annotations

from sqlalchemy import (
    select,
)
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from storage.repositories.base import DatabaseCore
from storage.rows import _guild_settings, _user_settings
from storage.types import utcnow


class SettingsRepository(DatabaseCore):
    """Per-server and per-user settings."""

    async def get_guild_language(self, guild_id: int) -> str | None:
        """The language set with `/game settings language` for this server, or None if never set."""
        async with self._reading() as conn:
            query = select(_guild_settings.c.language).where(_guild_settings.c.guild_id == guild_id)
            return (await conn.execute(query)).scalar_one_or_none()

    async def set_guild_language(self, guild_id: int, language: str | None) -> None:
        """Set (or with None clear) the server's language; the caller validates the code."""
        row = {"guild_id": guild_id, "language": language, "updated_at": utcnow()}
        dialect_insert = pg_insert if self.engine.dialect.name == "postgresql" else sqlite_insert
        statement = dialect_insert(_guild_settings)
        statement = statement.on_conflict_do_update(
            index_elements=["guild_id"],
            set_={name: statement.excluded[name] for name in ("language", "updated_at")},
        )
        async with self._writing() as conn:
            await conn.execute(statement, [row])

    async def get_user_notifications(self, user_id: int) -> str | None:
        """How the user chose to be told it is their turn (`/game settings notifications`), or None."""
        async with self._reading() as conn:
            query = select(_user_settings.c.notifications).where(_user_settings.c.user_id == user_id)
            return (await conn.execute(query)).scalar_one_or_none()

    async def set_user_notifications(self, user_id: int, notifications: str | None) -> None:
        """Set (or with None clear) the user's choice; the caller validates it."""
        row = {"user_id": user_id, "notifications": notifications, "updated_at": utcnow()}
        dialect_insert = pg_insert if self.engine.dialect.name == "postgresql" else sqlite_insert
        statement = dialect_insert(_user_settings)
        statement = statement.on_conflict_do_update(
            index_elements=["user_id"],
            set_={name: statement.excluded[name] for name in ("notifications", "updated_at")},
        )
        async with self._writing() as conn:
            await conn.execute(statement, [row])
