"""Keep what explains a failed run: the bot logs, the database rows and the fake Discord's record.

A test that runs real bot processes calls `keep_run` when it fails (the `kept_on_failure` fixture of
tests/conftest.py does it when `KEEP_FAILED_RUN` names a directory). `python -m harness.repeat`
runs a test N times and gives each run its own directory, so a failure that shows once in a hundred
runs leaves everything needed to explain it:

    DIR/fake.json      every REST call the bots made (method, path, body, status, time), every
                       interaction answer, and every message as it last stood (channels, DMs, ephemerals)
    DIR/database.json  every row of games, seats, actions and results (the state as stored)
    DIR/*.log          the bot processes' logs, copied
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from fakediscord.fake_discord import FakeDiscord

TABLES = ("games", "seats", "actions", "results")


def fake_record(fake: FakeDiscord) -> dict[str, Any]:
    """The fake Discord's record, as JSON-ready data."""
    return {
        "calls": [asdict(c) for c in fake.calls],
        "responses": fake.responses,
        "messages": {str(channel): list(messages.values()) for channel, messages in fake.messages.items()},
        "ephemeral_messages": list(fake.ephemeral_messages.values()),
        "interaction_sources": fake.interaction_sources,
        "channels": fake.channels,
        "guilds": {str(g): name for g, name in fake.guilds.items()},
    }


async def database_rows(database_url: str) -> dict[str, list[dict[str, Any]]]:
    """Every row of the game tables, by table (read with SQLAlchemy: either backend)."""
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    engine = create_async_engine(database_url)
    try:
        async with engine.connect() as conn:
            tables = {}
            for name in TABLES:
                result = await conn.execute(text(f"SELECT * FROM {name} ORDER BY 1"))
                tables[name] = [dict(row._mapping) for row in result]
            return tables
    finally:
        await engine.dispose()


async def keep_run(destination: Path, *, fake: FakeDiscord, database_url: str, logs: Iterable[Path]) -> None:
    """Write the record of a run into `destination` (created); each part is kept even if another fails."""
    try:
        rows: Any = await database_rows(database_url)
    except Exception as error:  # the database is what may have failed: keep the rest anyway
        rows = {"error": repr(error)}
    _write(destination, fake_record(fake), rows, list(logs))


def _write(destination: Path, record: dict[str, Any], rows: Any, logs: list[Path]) -> None:
    destination.mkdir(parents=True, exist_ok=True)
    for log in logs:
        if log.exists():
            shutil.copy(log, destination / log.name)
    (destination / "fake.json").write_text(json.dumps(record, default=str, indent=1))
    (destination / "database.json").write_text(json.dumps(rows, default=str, indent=1))
