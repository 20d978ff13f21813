"""The server language is stored per guild (migration 0002_guild_settings) and survives a reopen."""

from __future__ import annotations

from pathlib import Path

from storage import Database


async def test_guild_language_is_unset_then_set_replaced_cleared_and_kept_per_guild(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'settings.sqlite3'}"
    db = await Database.open(url)
    try:
        assert await db.get_guild_language(1) is None
        await db.set_guild_language(1, "it")
        await db.set_guild_language(2, "fr")
        await db.set_guild_language(1, "fr")  # an upsert, not a second row
        assert (await db.get_guild_language(1), await db.get_guild_language(2)) == ("fr", "fr")
        await db.set_guild_language(2, None)
        assert await db.get_guild_language(2) is None
    finally:
        await db.close()
    db = await Database.open(url)
    try:
        assert await db.get_guild_language(1) == "fr"
    finally:
        await db.close()
