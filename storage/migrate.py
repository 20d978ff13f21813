"""Alembic, configured in code: upgrade to head, and refuse a database newer than this code."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util.exc import CommandError
from sqlalchemy import Connection, text

from storage.errors import SchemaTooNew

__all__ = [
    "MIGRATIONS",
    "alembic_config",
    "check_not_too_new",
    "current_revisions",
    "head_revision",
    "known_revision",
    "upgrade",
]

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
# Any constant: several bot processes starting together on one PostgreSQL migrate one at a time.
_PG_MIGRATION_LOCK = 0x6761_6D65


def alembic_config(connection: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def current_revisions(connection: Connection) -> tuple[str, ...]:
    return tuple(MigrationContext.configure(connection).get_current_heads())


def known_revision(revision: str) -> bool:
    """Whether this code has the migration `revision` (a database at an unknown one is newer)."""
    try:
        return ScriptDirectory.from_config(alembic_config()).get_revision(revision) is not None
    except CommandError:
        return False


def check_not_too_new(connection: Connection) -> None:
    """Raise SchemaTooNew when the database carries a revision this code does not know."""
    for revision in current_revisions(connection):
        if not known_revision(revision):
            raise SchemaTooNew(
                f"The database is at schema revision {revision!r}, which this code does not know "
                f"(newest known: {head_revision()!r}). It was migrated by a newer version of the bot. "
                "Run the newer version, or point DATABASE_URL at another database; nothing was changed."
            )


def upgrade(connection: Connection) -> None:
    """Bring the schema to head inside the caller's transaction (an empty database included)."""
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_MIGRATION_LOCK})
    check_not_too_new(connection)
    command.upgrade(alembic_config(connection), "head")
