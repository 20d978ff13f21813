"""Shared fixtures: a harness running the real bot on a fresh SQLite file."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.harness import Harness


@pytest.fixture
async def harness(tmp_path: Path) -> AsyncIterator[Harness]:
    h = await Harness.start(tmp_path / "bot.sqlite3")
    try:
        yield h
    finally:
        errors = h.errors
        await h.close()
    assert not errors, errors
