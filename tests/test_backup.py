"""`python -m storage backup|restore PATH`: consistent copies of a running bot's SQLite database, and
restores that refuse what would lose or break something."""

from __future__ import annotations

import asyncio
import hashlib
import sqlite3
from pathlib import Path

import pytest

from storage import Database
from storage.__main__ import main as storage_main
from storage.replay import replay
from table import TableService
from tests.test_table import first_choice, lobby_of


def url_of(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path}"


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def kept_aside(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.replaced-*"))


async def play_some(table: TableService, games: int, turns: int) -> list[int]:
    ids = []
    for _ in range(games):
        game_id = await lobby_of(table, 2)
        await table.start(game_id, 100)
        for _ in range(turns):
            for user in (100, 101):
                await first_choice(table, game_id, user)
        ids.append(game_id)
        await table.db.update_game(game_id, channel_id=10_000 + game_id)  # the next lobby may use channel 10
    return ids


async def test_backup_of_a_running_bot_is_one_consistent_snapshot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    live = tmp_path / "bot.sqlite3"
    db = await Database.open(url_of(live))
    try:
        table = TableService(db)
        await play_some(table, 3, 2)
        assert (tmp_path / "bot.sqlite3-wal").stat().st_size > 0  # recent commits live in the WAL
        # Back up while the bot keeps playing: the copy is one moment of the database.
        copy = tmp_path / "backups" / "copy.sqlite3"
        copy.parent.mkdir()
        playing = asyncio.create_task(play_some(table, 4, 3))
        code = await asyncio.to_thread(storage_main, ["--url", url_of(live), "backup", str(copy)])
        await playing
        total = await db.count_games()
    finally:
        await db.close()
    assert code == 0
    out = capsys.readouterr().out
    assert f"to {copy}" in out
    assert not copy.with_name("copy.sqlite3.partial").exists()
    with sqlite3.connect(copy) as check:
        assert check.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # one self-contained file
    saved = await Database.open(url_of(copy))
    try:
        count = await saved.count_games()
        assert 3 <= count <= total
        assert f"backed up {count} games" in out
        for game_id in range(1, count + 1):
            row = await saved.get_game(game_id)
            assert row is not None
            if row.status == "lobby":
                continue  # caught between its lobby and its start
            report = await replay(saved, game_id)
            assert report.equal, report  # each game's state matches its action log: nothing torn
    finally:
        await saved.close()
    # An existing file is not overwritten unless asked.
    assert storage_main(["--url", url_of(live), "backup", str(copy)]) == 2
    assert "exists already" in capsys.readouterr().err
    assert storage_main(["--url", url_of(live), "backup", str(copy), "--force"]) == 0


async def test_restore_refuses_while_a_bot_runs_then_restores_and_keeps_the_old_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    live, backup = tmp_path / "bot.sqlite3", tmp_path / "monday.sqlite3"
    db = await Database.open(url_of(live))
    table = TableService(db)
    await play_some(table, 2, 1)
    await db.close()
    assert storage_main(["--url", url_of(live), "backup", str(backup)]) == 0
    db = await Database.open(url_of(live))
    try:
        table = TableService(db)
        await play_some(table, 3, 1)  # after the backup: 5 games now
        before = digest(live)
        assert storage_main(["--url", url_of(live), "restore", str(backup)]) == 2
        assert "is in use" in capsys.readouterr().err
        assert digest(live) == before and not kept_aside(tmp_path)
    finally:
        await db.close()

    assert storage_main(["--url", url_of(live), "restore", str(backup)]) == 0
    out = capsys.readouterr().out
    assert "restored 2 games" in out
    kept = kept_aside(tmp_path)
    assert len(kept) == 1 and kept[0].name.startswith("bot.replaced-") and str(kept[0]) in out
    for path, games in ((live, 2), (kept[0], 5)):
        reopened = await Database.open(url_of(path))
        try:
            assert await reopened.count_games() == games
        finally:
            await reopened.close()


def _sqlite_file(path: Path, *statements: str) -> Path:
    with sqlite3.connect(path) as db:
        for statement in statements:
            db.execute(statement)
    return path


@pytest.mark.parametrize(
    ("make", "complaint"),
    [
        (lambda p: p.write_bytes(b"not a database at all, " * 400) and p, "not a readable SQLite database"),
        (lambda p: _sqlite_file(p, "CREATE TABLE notes (x)"), "not one of this bot"),
        (
            lambda p: _sqlite_file(
                p,
                "CREATE TABLE games (id)",
                "CREATE TABLE actions (id)",
                "CREATE TABLE alembic_version (version_num)",
                "INSERT INTO alembic_version VALUES ('0099_from_the_future')",
            ),
            "comes from a newer version of the bot",
        ),
    ],
)
async def test_restore_refuses_what_is_not_this_bots_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], make: object, complaint: str
) -> None:
    live = tmp_path / "bot.sqlite3"
    db = await Database.open(url_of(live))
    await play_some(TableService(db), 1, 1)
    await db.close()
    before = digest(live)
    bad = make(tmp_path / "bad.sqlite3")  # type: ignore[operator]
    assert storage_main(["--url", url_of(live), "restore", str(bad), "--force"]) == 2
    assert complaint in capsys.readouterr().err
    assert digest(live) == before and not kept_aside(tmp_path)


def test_postgresql_is_pointed_to_pg_dump(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    url = "postgresql+asyncpg://bot@db.example/bot"
    assert storage_main(["--url", url, "backup", str(tmp_path / "x")]) == 2
    assert "pg_dump" in capsys.readouterr().err
    assert storage_main(["--url", url, "restore", str(tmp_path / "x")]) == 2
    assert "pg_restore" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()
