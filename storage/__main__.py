"""`python -m storage upgrade` migrates the database; `python -m storage replay GAME_ID` checks a game;
`python -m storage rerate` recomputes every rating and the rating history from the results table;
`python -m storage backup PATH` copies the SQLite database consistently, even while the bot runs;
`python -m storage restore PATH` puts a backup in its place (bots stopped; the old file is kept aside).

The database is DATABASE_URL (or --url), by default sqlite+aiosqlite:///data/bot.sqlite3.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

import games
from storage import backup as backups
from storage.database import Database
from storage.engine import resolve_url
from storage.errors import GameNotFound, StorageError
from storage.migrate import head_revision
from storage.replay import Lookup, replay


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m storage", description=__doc__)
    parser.add_argument("--url", help="database URL (default: DATABASE_URL, else the SQLite file)")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("upgrade", help="apply the migrations (also done at every start-up)")
    check = commands.add_parser("replay", help="rebuild a game from seed + log and compare with the stored state")
    check.add_argument("game_id", type=int)
    commands.add_parser("rerate", help="recompute every rating from the results, in game-finish order")
    save = commands.add_parser("backup", help="copy the SQLite database to PATH (safe while the bot runs)")
    save.add_argument("path", type=Path)
    save.add_argument("--force", action="store_true", help="replace PATH if it exists")
    load = commands.add_parser(
        "restore",
        help="replace the SQLite database with the backup at PATH "
        "(stop the bot first; the replaced file is kept aside)",
    )
    load.add_argument("path", type=Path)
    load.add_argument("--force", action="store_true", help="restore even while a bot has the database open")
    return parser


def _copy(args: argparse.Namespace) -> int:
    """backup and restore: plain files through sqlite3, without opening (and migrating) the database."""
    url = resolve_url(args.url)
    try:
        if args.command == "backup":
            saved = backups.backup(url, args.path, force=args.force)
            print(f"backed up {saved.games} games (schema {saved.revision}) to {saved.path}")
            return 0
        restored, kept = backups.restore(url, args.path, force=args.force)
    except backups.BackupError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(
        f"restored {restored.games} games (schema {restored.revision}) into {restored.path}"
        + (f"; the replaced database is kept at {kept}" if kept else "")
    )
    if restored.revision != head_revision():
        print(f"the bot migrates it to schema {head_revision()} at its next start", file=sys.stderr)
    return 0


async def _run(args: argparse.Namespace, lookup: Lookup) -> int:
    db = await Database.open(args.url)
    try:
        if args.command == "upgrade":
            print(f"database {db.url.render_as_string(hide_password=True)} is at schema {head_revision()}")
            return 0
        if args.command == "rerate":
            rated = await db.rerate()
            print(f"rated {rated} finished games again from their results")
            return 0
        try:
            report = await replay(db, args.game_id, lookup)
        except GameNotFound as error:
            print(error, file=sys.stderr)
            return 2
        print(report)
        return 0 if report.equal else 1
    finally:
        await db.close()


def main(argv: list[str] | None = None, lookup: Lookup = games.get) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command in ("backup", "restore"):
            return _copy(args)
        return asyncio.run(_run(args, lookup))
    except (StorageError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
