"""Alembic, configured in code: upgrade to head, and refuse a database newer than this code.

Start-up asks first, with one query, which revision the database is at: when it is this code's head
(every start but the first after an upgrade), Alembic is never imported (with Mako and Pygments behind
it, about half a second of a start-up that should take two). The revisions this code knows are read from
the migration files themselves (`revision = "..."`, `down_revision = ...`); a test keeps that reading
equal to Alembic's own.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Connection, inspect, text

from storage.errors import SchemaTooNew

if TYPE_CHECKING:
    from alembic.config import Config

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
_ASSIGNMENT = re.compile(r"""^(revision|down_revision)\s*=\s*(?:["']([^"']+)["']|None)\s*$""", re.MULTILINE)


def alembic_config(connection: Connection | None = None) -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


@cache
def revisions() -> dict[str, str | None]:
    """Every revision of this code's migrations -> the one it revises (None for the first)."""
    found: dict[str, str | None] = {}
    for path in sorted((MIGRATIONS / "versions").glob("*.py")):
        names = {m.group(1): m.group(2) for m in _ASSIGNMENT.finditer(path.read_text(encoding="utf-8"))}
        if names.get("revision"):
            found[str(names["revision"])] = names.get("down_revision")
    return found


def head_revision() -> str:
    """The newest revision: the one no other revises (the migrations form one line)."""
    known = revisions()
    heads = set(known) - {down for down in known.values() if down is not None}
    assert len(heads) == 1, f"the migrations should have one head, not {sorted(heads)}"
    return heads.pop()


def current_revisions(connection: Connection) -> tuple[str, ...]:
    """The revisions the database is at (none for an empty database)."""
    if not inspect(connection).has_table("alembic_version"):
        return ()
    return tuple(str(r) for r in connection.execute(text("SELECT version_num FROM alembic_version")).scalars())


def known_revision(revision: str) -> bool:
    """Whether this code has the migration `revision` (a database at an unknown one is newer)."""
    return revision in revisions()


def check_not_too_new(connection: Connection) -> tuple[str, ...]:
    """Raise SchemaTooNew when the database carries a revision this code does not know; else its revisions."""
    current = current_revisions(connection)
    for revision in current:
        if not known_revision(revision):
            raise SchemaTooNew(
                f"The database is at schema revision {revision!r}, which this code does not know "
                f"(newest known: {head_revision()!r}). It was migrated by a newer version of the bot. "
                "Run the newer version, or point DATABASE_URL at another database; nothing was changed."
            )
    return current


def upgrade(connection: Connection) -> None:
    """Bring the schema to head inside the caller's transaction (an empty database included). At head
    already, nothing more than the check is done."""
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_MIGRATION_LOCK})
    if check_not_too_new(connection) == (head_revision(),):
        return
    from alembic import command

    command.upgrade(alembic_config(connection), "head")
