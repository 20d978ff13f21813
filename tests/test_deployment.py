"""The deployment files say what the code does: the worker command, the image's contents, the health
check path, and a clean exit on SIGTERM (what systemd, docker stop and platforms send)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from fakediscord.loopback import Loopback
from harness.run_bot import BotProcess

ROOT = Path(__file__).resolve().parents[1]


def test_procfile_and_units_run_the_bot() -> None:
    assert (ROOT / "Procfile").read_text().strip() == "worker: python -m bot"
    for unit in (ROOT / "deploy").glob("*.service"):
        text = unit.read_text()
        assert re.search(r"^ExecStart=\S+/python -m bot$", text, re.M), unit
        assert "RestartPreventExitStatus=2" in text  # a configuration error is not retried
    assert "Environment=SHARD_IDS=%i" in (ROOT / "deploy" / "boardgame-table@.service").read_text()


def _imported_top_level(package: Path) -> set[str]:
    names: set[str] = set()
    for source in package.rglob("*.py"):
        for node in ast.walk(ast.parse(source.read_text())):
            if isinstance(node, ast.Import):
                names |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module.split(".")[0])
    return names


def test_the_image_holds_every_package_the_bot_imports() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    copied = set(re.findall(r"^COPY (\w+) \1$", dockerfile, re.M))
    ours = {p.name for p in ROOT.iterdir() if (p / "__init__.py").exists()}
    needed = set().union(*(_imported_top_level(ROOT / name) for name in copied)) & ours
    assert needed <= copied, f"the image lacks {needed - copied}"
    assert {"bot", "games", "storage"} <= copied
    assert re.search(r'^CMD \["python", "-m", "bot"\]$', dockerfile, re.M)
    assert re.search(r"^USER (?!root)\w+$", dockerfile, re.M)
    assert 'VOLUME ["/data"]' in dockerfile and "sqlite+aiosqlite:////data/" in dockerfile
    # The health check calls an endpoint the bot serves.
    assert "/healthz" in dockerfile
    assert 'add_get("/healthz"' in (ROOT / "bot" / "app" / "metrics.py").read_text()
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {".env", ".git", "data", "tests"} <= set(ignored)


@pytest.mark.slow
async def test_sigterm_closes_the_bot_cleanly(loopback: Loopback, tmp_path: Path) -> None:
    with open(tmp_path / "bot.log", "wb") as log:  # noqa: ASYNC230 - opened once, before anything runs
        bot = await BotProcess.spawn(loopback, f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}", log=log)
        try:
            await loopback.wait_ready(within=120)
        finally:
            code = await bot.stop(within=30)
    assert code == 0, (tmp_path / "bot.log").read_text()[-2000:]
