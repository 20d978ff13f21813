"""`python -m storage upgrade` migrates the database; `python -m storage replay GAME_ID` checks a game;
`python -m storage rerate` recomputes every rating and the rating history from the results table.

The database is DATABASE_URL (or --url), by default sqlite+aiosqlite:///data/bot.sqlite3.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

import games
from storage.database import Database
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
    return parser


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
        return asyncio.run(_run(args, lookup))
    except (StorageError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
