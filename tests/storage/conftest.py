"""Fixtures for the storage tests: the same test runs on SQLite and on PostgreSQL.

PostgreSQL runs when TEST_POSTGRES_URL names a server database (`.ci/run` sets it); each test gets a
fresh database of its own there, created and dropped around it, so tests can run in parallel.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from storage import Database

PG_URL = os.environ.get("TEST_POSTGRES_URL")
PG_SKIP = (
    "PostgreSQL tests need TEST_POSTGRES_URL=postgresql+asyncpg://user@host:port/db (a server database the "
    "tests may CREATE DATABASE beside); .ci/run starts a server and sets it"
)
BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgres", id="postgres", marks=pytest.mark.skipif(not PG_URL, reason=PG_SKIP)),
]


def _admin_dsn() -> str:
    assert PG_URL
    return make_url(PG_URL).set(drivername="postgresql").render_as_string(hide_password=False)


async def create_pg_database() -> str:
    """A new empty database on the test server; its asyncpg URL."""
    import asyncpg

    assert PG_URL
    name = f"storage_{uuid.uuid4().hex[:16]}"
    admin = await asyncpg.connect(_admin_dsn())
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    return make_url(PG_URL).set(database=name).render_as_string(hide_password=False)


async def drop_pg_database(url: str) -> None:
    import asyncpg

    name = make_url(url).database
    admin = await asyncpg.connect(_admin_dsn())
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()


@pytest.fixture(params=BACKENDS)
async def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """An empty database of each kind."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path}/nested/dir/test.sqlite3"
        return
    url = await create_pg_database()
    try:
        yield url
    finally:
        await drop_pg_database(url)


@pytest.fixture
async def db(db_url: str) -> AsyncIterator[Database]:
    database = await Database.open(db_url)
    try:
        yield database
    finally:
        await database.close()


@pytest.fixture
def pg_only(db_url: str) -> Iterator[None]:
    if not db_url.startswith("postgresql"):
        pytest.skip("this test is about several processes on PostgreSQL")
    return
