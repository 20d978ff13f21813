"""PostgreSQL's statement timeout (DATABASE_STATEMENT_TIMEOUT, issue 20 point 5): a statement stuck on a
row lock another process holds is cancelled after the timeout and reported as the database being
unavailable, having written nothing; migrations run without it."""

from __future__ import annotations

import asyncio
import time

import asyncpg
import pytest
from sqlalchemy.engine import make_url

from storage import Database, DatabaseUnavailable
from tests.storage.test_repository import active_game


def _asyncpg_dsn(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


async def test_a_statement_waiting_on_a_lock_is_cancelled_after_the_timeout(db_url: str, pg_only: None) -> None:
    db = await Database.open(db_url, statement_timeout=0.3)
    other = await asyncpg.connect(_asyncpg_dsn(db_url))  # another process, stuck mid-transaction
    try:
        game_id = await active_game(db)
        async with db.engine.connect() as conn:
            shown = (await conn.exec_driver_sql("SHOW statement_timeout")).scalar()
        assert shown == "300ms"
        holding = other.transaction()
        await holding.start()
        await other.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", game_id)
        began = time.monotonic()
        with pytest.raises(DatabaseUnavailable, match=r"QueryCanceled|statement timeout"):
            await db.update_game(game_id, announced=5)
        waited = time.monotonic() - began
        assert waited < 5.0  # cancelled, not waiting for the lock's holder (which never lets go here)
        await holding.rollback()
        row = await db.get_game(game_id)
        assert row is not None and row.announced != 5  # the cancelled statement wrote nothing
        await db.update_game(game_id, announced=6)  # the lock gone, the same write goes through
        row = await db.get_game(game_id)
        assert row is not None and row.announced == 6
    finally:
        await other.close()
        await db.close()


async def test_no_timeout_when_it_is_zero_and_migrations_wait_for_each_other(db_url: str, pg_only: None) -> None:
    """0 turns it off; a second process starting while the first migrates waits for its advisory lock
    longer than the timeout, rather than failing to start."""
    first = await Database.open(db_url, statement_timeout=0)
    try:
        async with first.engine.connect() as conn:
            assert (await conn.exec_driver_sql("SHOW statement_timeout")).scalar() == "0"
    finally:
        await first.close()
    other = await asyncpg.connect(_asyncpg_dsn(db_url))
    try:
        from storage.migrate import _PG_MIGRATION_LOCK

        holding = other.transaction()
        await holding.start()
        await other.execute("SELECT pg_advisory_xact_lock($1)", _PG_MIGRATION_LOCK)
        opening = asyncio.create_task(Database.open(db_url, statement_timeout=0.2))
        await asyncio.sleep(0.6)  # three timeouts' worth of waiting for the lock
        assert not opening.done()
        await holding.rollback()
        second = await asyncio.wait_for(opening, 30)
        await second.close()
    finally:
        await other.close()
