"""Shared fixtures: a harness running the real bot on a fresh SQLite file, and the loopback fake Discord."""

from __future__ import annotations

import os
import re
from collections.abc import AsyncIterator, Generator, Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

from fakediscord.fake_discord import FakeDiscord
from fakediscord.loopback import Loopback
from harness import Harness
from harness.keep import keep_run
from harness.languages import LocaleHarness

CALL_REPORT = pytest.StashKey[pytest.TestReport]()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, Any]:
    """Keep the report of each test's call phase, for fixtures that act on failure in their teardown."""
    report = yield
    if report.when == "call":
        item.stash[CALL_REPORT] = report
    return report


class Keeper:
    """What `kept_on_failure` keeps: the test names its fake Discord, database and log files."""

    def __init__(self) -> None:
        self.parts: tuple[FakeDiscord, str, list[Path]] | None = None

    def watch(self, *, fake: FakeDiscord, database_url: str, logs: Iterable[Path]) -> None:
        self.parts = (fake, database_url, list(logs))


@pytest.fixture(autouse=True)
def every_request_valid(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every request any fake Discord of the test received is one Discord's API description accepts
    (fakediscord.contract): a test that sends a refused one on purpose says so with
    `@pytest.mark.refused_requests`."""
    fakes: list[FakeDiscord] = []
    made = FakeDiscord.__init__

    def record(self: FakeDiscord) -> None:
        made(self)
        fakes.append(self)

    monkeypatch.setattr(FakeDiscord, "__init__", record)
    yield
    if request.node.get_closest_marker("refused_requests") is None:
        refused = [found for fake in fakes for found in fake.invalid]
        assert refused == [], f"requests Discord would refuse (400, 50035): {refused[:5]}"


@pytest.fixture
async def kept_on_failure(request: pytest.FixtureRequest) -> AsyncIterator[Keeper]:
    """When the test fails and KEEP_FAILED_RUN names a directory, its bot logs, database rows and fake
    Discord record are written there (harness/keep.py; `python -m harness.repeat` sets it).
    Request it after the fixtures that own the database and the fake: it runs before they go."""
    keeper = Keeper()
    yield keeper
    target = os.environ.get("KEEP_FAILED_RUN")
    report = request.node.stash.get(CALL_REPORT, None)
    if target and keeper.parts is not None and report is not None and report.failed:
        fake, database_url, logs = keeper.parts
        name = re.sub(r"[^\w.-]+", "_", request.node.name)
        await keep_run(Path(target) / name, fake=fake, database_url=database_url, logs=logs)


@pytest.fixture
async def harness(tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[Harness]:
    """The bot on a fresh SQLite file; a test may change settings with
    `@pytest.mark.parametrize("harness", [{"name": value}], indirect=True)`."""
    h = await Harness.start(tmp_path / "bot.sqlite3", **getattr(request, "param", {}))
    try:
        yield h
    finally:
        errors = h.errors
        await h.close()
    assert not errors, errors


@pytest.fixture
async def locale_harness(tmp_path: Path) -> AsyncIterator[LocaleHarness]:
    """The bot on a fresh SQLite file, each user with a Discord client locale (harness.languages)."""
    harness = await LocaleHarness.start(tmp_path / "bot.sqlite3")
    try:
        yield harness
    finally:
        errors = harness.errors
        await harness.close()
    assert not errors, errors


@pytest.fixture
async def loopback() -> AsyncIterator[Loopback]:
    """The fake Discord over real HTTP on 127.0.0.1, for a bot in this process or in a subprocess."""
    lb = await Loopback.start()
    try:
        yield lb
    finally:
        await lb.close()
