"""Backup and restore of the SQLite database (`python -m storage backup|restore PATH`).

Both go through SQLite's online backup API (the stdlib `sqlite3.Connection.backup`), never a file
copy: a running bot's database is in WAL mode, and its latest commits may live only in the `-wal`
file until a checkpoint, so copying `bot.sqlite3` alone can miss them or catch a page mid-write.
The backup API reads one consistent snapshot through SQLite itself, WAL included.

PostgreSQL has its own tools (pg_dump / pg_restore); these commands say so instead.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy.engine import URL

from storage.migrate import head_revision, known_revision

__all__ = ["BackupError", "Snapshot", "backup", "restore"]

PG_HELP = (
    "{what} works on the SQLite file only; this DATABASE_URL is PostgreSQL. Use PostgreSQL's own tools: "
    "`pg_dump --format=custom --file=bot.dump DBNAME` for a consistent backup while the bots run, and "
    "`pg_restore --clean --if-exists --dbname=DBNAME bot.dump` with every bot process stopped "
    "(docs/deployment.md)."
)


class BackupError(Exception):
    """Nothing was changed; the message says why and what to do."""


@dataclass(frozen=True)
class Snapshot:
    path: Path
    revision: str
    games: int


def sqlite_path(url: URL, what: str) -> Path:
    if not url.drivername.startswith("sqlite"):
        raise BackupError(PG_HELP.format(what=what))
    assert url.database
    return Path(url.database).expanduser()


def backup(url: URL, destination: Path, *, force: bool = False) -> Snapshot:
    """Copy the database (live or not) to `destination`, consistently, and check the copy."""
    source_path = sqlite_path(url, "backup")
    if not source_path.exists():
        raise BackupError(f"there is no database at {source_path} to back up")
    if destination.exists() and not force:
        raise BackupError(f"{destination} exists already; pick another name or pass --force to replace it")
    describe(source_path)  # refuse to back up something that is not a bot database
    partial = destination.with_name(destination.name + ".partial")
    partial.unlink(missing_ok=True)
    with _connect(source_path, read_only=True) as source, _connect(partial) as copy:
        source.backup(copy)  # one snapshot, WAL included; a running bot keeps writing meanwhile
        copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
    snapshot = describe(partial)
    os.replace(partial, destination)
    return Snapshot(destination, snapshot.revision, snapshot.games)


def restore(url: URL, source: Path, *, force: bool = False) -> tuple[Snapshot, Path | None]:
    """Replace the database with the backup at `source`; the replaced file is kept aside (returned).

    Refuses while another process (a bot) has the database open, unless `force`; refuses a file that
    is not an intact database of this bot, or one from a newer version of the bot.
    """
    target_path = sqlite_path(url, "restore")
    if not source.exists():
        raise BackupError(f"there is no backup at {source}")
    if target_path.exists() and target_path.resolve() == source.resolve():
        raise BackupError(f"{source} is the database itself")
    describe(source)  # refuse a damaged, foreign or newer file before touching anything
    kept: Path | None = None
    target_path.parent.mkdir(parents=True, exist_ok=True)
    with _connect(target_path) as target:
        if not force:
            _claim(target, target_path)
        if _has_tables(target):
            kept = target_path.with_name(f"{target_path.stem}.replaced-{_stamp()}{target_path.suffix}")
            with _connect(kept) as aside:
                target.backup(aside)
                aside.execute("PRAGMA journal_mode=DELETE")
        with _connect(source, read_only=True) as backup_file:
            backup_file.backup(target)  # page by page, in one transaction on the target
    restored = describe(target_path)
    return Snapshot(target_path, restored.revision, restored.games), kept


def describe(path: Path) -> Snapshot:
    """Check that `path` is an intact database of this bot that this code can run; what it holds."""
    try:
        with _connect(path, read_only=True) as db:
            problems = [row[0] for row in db.execute("PRAGMA integrity_check")]
            if problems != ["ok"]:
                raise BackupError(f"{path} is damaged ({'; '.join(problems[:3])}); nothing was changed")
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if not {"alembic_version", "games", "actions"} <= tables:
                raise BackupError(
                    f"{path} is an SQLite database, but not one of this bot (no games, actions "
                    "and alembic_version tables); nothing was changed"
                )
            revisions = [row[0] for row in db.execute("SELECT version_num FROM alembic_version")]
            games = int(db.execute("SELECT count(*) FROM games").fetchone()[0])
    except sqlite3.DatabaseError as error:
        raise BackupError(f"{path} is not a readable SQLite database ({error}); nothing was changed") from None
    if len(revisions) != 1:
        raise BackupError(f"{path} has schema revisions {revisions}, expected one; nothing was changed")
    if not known_revision(revisions[0]):
        raise BackupError(
            f"{path} is at schema revision {revisions[0]!r}, which this code does not know (newest "
            f"known: {head_revision()!r}): it comes from a newer version of the bot. Restore it "
            "with that version; nothing was changed"
        )
    return Snapshot(path, revisions[0], games)


def _claim(target: sqlite3.Connection, path: Path) -> None:
    """Say so if another connection (a bot) has the database open. Leaving WAL mode needs every
    other connection closed, so it fails at once while a bot runs on the file, even an idle one."""
    target.execute("PRAGMA busy_timeout=0")
    try:
        mode = target.execute("PRAGMA journal_mode=DELETE").fetchone()[0]
    except sqlite3.OperationalError as error:
        if "locked" not in str(error) and "busy" not in str(error):
            raise
        mode = "busy"
    if mode != "delete":
        raise BackupError(
            f"{path} is in use (a bot is running on it?). Stop every bot process first, then "
            "restore; or pass --force to replace it under the running bot, which must then be "
            "restarted. Nothing was changed"
        )


def _has_tables(db: sqlite3.Connection) -> bool:
    return bool(db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0])


def _stamp() -> str:
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")


@contextlib.contextmanager
def _connect(path: Path, *, read_only: bool = False) -> Iterator[sqlite3.Connection]:
    if read_only:
        connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)
    else:
        connection = sqlite3.connect(path, isolation_level=None)
    try:
        yield connection
    finally:
        connection.close()
