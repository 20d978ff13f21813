"""Per-server settings (the language of channel messages, the caps on lobbies and games) and per-user ones
(how a player is told it is their turn)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from sqlalchemy import Table, select

from storage.engine import dialect_insert
from storage.repositories.base import DatabaseCore
from storage.rows import _bot_state, _guild_settings, _user_settings
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

    async def get_bot_state(self, key: str) -> str | None:
        """A value the bot kept between starts (`set_bot_state`), or None."""
        async with self._reading() as conn:
            return (await conn.execute(select(_bot_state.c.value).where(_bot_state.c.key == key))).scalar_one_or_none()

    async def set_bot_state(self, key: str, value: str) -> None:
        statement = dialect_insert(self.engine.dialect.name)(_bot_state)
        statement = statement.on_conflict_do_update(index_elements=["key"], set_={"value": statement.excluded.value})
        async with self._writing() as conn:
            await conn.execute(statement, [{"key": key, "value": value}])

    async def _setting(self, column: Any, key: Any, value: int) -> str | None:
        async with self._reading() as conn:
            return (await conn.execute(select(column).where(key == value))).scalar_one_or_none()

    async def _set(self, table: Table, values: dict[str, Any]) -> None:
        """Upsert one row of a settings table (its first column is the key)."""
        row = {**values, "updated_at": utcnow()}
        statement = dialect_insert(self.engine.dialect.name)(table)
        key = next(iter(values))
        statement = statement.on_conflict_do_update(
            index_elements=[key], set_={name: statement.excluded[name] for name in row if name != key}
        )
        async with self._writing() as conn:
            await conn.execute(statement, [row])

    async def get_guild_limits(self, guild_id: int) -> dict[str, int]:
        """The caps this server's admins changed (`/game settings`), by name; {} when none was."""
        async with self._reading() as conn:
            query = select(_guild_settings.c.limits).where(_guild_settings.c.guild_id == guild_id)
            raw = (await conn.execute(query)).scalar_one_or_none()
        try:
            found = json.loads(raw) if raw else {}
        except ValueError:
            return {}
        return {str(k): int(v) for k, v in found.items()} if isinstance(found, dict) else {}

    async def set_guild_limits(self, guild_id: int, limits: Mapping[str, int]) -> None:
        """Replace the server's changed caps (the caller validates names and values)."""
        row = {"guild_id": guild_id, "limits": json.dumps(dict(limits), sort_keys=True), "updated_at": utcnow()}
        statement = dialect_insert(self.engine.dialect.name)(_guild_settings)
        statement = statement.on_conflict_do_update(
            index_elements=["guild_id"], set_={name: statement.excluded[name] for name in ("limits", "updated_at")}
        )
        async with self._writing() as conn:
            await conn.execute(statement, [row])
