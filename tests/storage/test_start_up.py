"""What start-up asks of storage stays small whatever the database holds (issue 23): no Alembic when the
schema is current, and the games owed something found through their own partial index."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

from alembic.script import ScriptDirectory

from storage import Database
from storage.migrate import alembic_config, head_revision, revisions

ROOT = Path(__file__).resolve().parents[2]


def test_the_revisions_read_from_the_files_are_alembics() -> None:
    script = ScriptDirectory.from_config(alembic_config())
    assert revisions() == {r.revision: r.down_revision for r in script.walk_revisions()}
    assert head_revision() == script.get_current_head()


def test_a_start_on_a_current_schema_never_imports_alembic(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'current.sqlite3'}"
    start = (
        "import asyncio, sys\n"
        "from storage import Database\n"
        "async def main():\n"
        f"    db = await Database.open({url!r})\n"
        "    await db.close()\n"
        "asyncio.run(main())\n"
        "print('alembic' in sys.modules, 'sqlalchemy.dialects.postgresql' in sys.modules)\n"
    )

    def started() -> str:
        done = subprocess.run([sys.executable, "-c", start], cwd=ROOT, capture_output=True, text=True, check=True)
        return done.stdout.strip()

    assert started().startswith("True "), "an empty database is migrated (Alembic)"
    assert started() == "False False", "at head: one query, no Alembic, and no PostgreSQL dialect on SQLite"


async def test_the_owed_games_are_read_through_their_partial_index(tmp_path: Path) -> None:
    path = tmp_path / "owed.sqlite3"
    db = await Database.open(f"sqlite+aiosqlite:///{path}")
    seen: list[str] = []
    stop = db.on_statement(seen.append)
    try:
        assert await db.owed_games(after=0, limit=10) == []
    finally:
        stop()
        await db.close()
    [query] = [s for s in seen if "FROM games" in s]
    with sqlite3.connect(path) as conn:
        plan = conn.execute(f"EXPLAIN QUERY PLAN {query}", [0] * query.count("?")).fetchall()
        indexes = {row[0]: row[1] for row in conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'index'")}
    assert [detail for *_, detail in plan] == ["SEARCH games USING INDEX ix_games_owed (id>?)"]
    assert "WHERE delivered IS NULL OR delivered < version" in indexes["ix_games_owed"], "only the owed games"
