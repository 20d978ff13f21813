"""Per-server settings (the language of channel messages) and per-user ones (how a player is told it is their turn)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Table, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from storage.repositories.base import DatabaseCore
from storage.rows import _guild_settings, _user_settings
from storage.types import utcnow


class SettingsRepository(DatabaseCore):
    """Per-server and per-user settings: one row per server or user, a column per setting."""

    async def get_guild_language(self, guild_id: int) -> str | None:
        """The language set with `/game settings language` for this server, or None if never set."""
        return await self._setting(_guild_settings.c.language, _guild_settings.c.guild_id, guild_id)

    async def set_guild_language(self, guild_id: int, language: str | None) -> None:
        """Set (or with None clear) the server's language; the caller validates the code."""
        await self._set(_guild_settings, {"guild_id": guild_id, "language": language})

    async def get_user_notifications(self, user_id: int) -> str | None:
        """How the user chose to be told it is their turn (`/game settings notifications`), or None."""
        return await self._setting(_user_settings.c.notifications, _user_settings.c.user_id, user_id)

    async def set_user_notifications(self, user_id: int, notifications: str | None) -> None:
        """Set (or with None clear) the user's choice; the caller validates it."""
        await self._set(_user_settings, {"user_id": user_id, "notifications": notifications})

    async def _setting(self, column: Any, key: Any, value: int) -> str | None:
        async with self._reading() as conn:
            return (await conn.execute(select(column).where(key == value))).scalar_one_or_none()

    async def _set(self, table: Table, values: dict[str, Any]) -> None:
        """Upsert one row of a settings table (its first column is the key)."""
        row = {**values, "updated_at": utcnow()}
        dialect_insert = pg_insert if self.engine.dialect.name == "postgresql" else sqlite_insert
        statement = dialect_insert(table)
        key = next(iter(values))
        statement = statement.on_conflict_do_update(
            index_elements=[key], set_={name: statement.excluded[name] for name in row if name != key}
        )
        async with self._writing() as conn:
            await conn.execute(statement, [row])
