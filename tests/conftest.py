"""Shared fixtures: a harness running the real bot on a fresh SQLite file, and the loopback fake Discord."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from fakediscord.loopback import Loopback
from harness import Harness


@pytest.fixture
async def harness(tmp_path: Path) -> AsyncIterator[Harness]:
    h = await Harness.start(tmp_path / "bot.sqlite3")
    try:
        yield h
    finally:
        errors = h.errors
        await h.close()
    assert not errors, errors


@pytest.fixture
async def loopback() -> AsyncIterator[Loopback]:
    """The fake Discord over real HTTP on 127.0.0.1, for a bot in this process or in a subprocess."""
    lb = await Loopback.start()
    try:
        yield lb
    finally:
        await lb.close()
