"""The import contracts ([tool.importlinter] in pyproject.toml, run by `make lint`) hold, and fail on a wrong
import: a room of bot/ importing one above it, a game's renderer importing another's, and a cycle."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "table", "games", "storage", "bench", "harness", "fakediscord")
LINT = Path(sys.executable).with_name("lint-imports")


def lint(root: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run(
        [str(LINT), "--no-cache", str(root / "pyproject.toml")],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project's packages and configuration, to break on purpose."""
    root = tmp_path_factory.mktemp("project")
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.json", "*.po", "*.pot", "*.ttf", "*.png")
    for package in PACKAGES:
        shutil.copytree(ROOT / package, root / package, ignore=ignore)
    shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
    return root


def test_the_project_keeps_its_contracts() -> None:
    result = lint(ROOT)
    assert result.returncode == 0, result.stdout[-3000:]
    assert "0 broken" in result.stdout


@pytest.mark.parametrize(
    ("module", "line", "contract"),
    [
        ("bot/ops/wrong.py", "from bot.app import client\n", "The Discord side's rooms"),
        ("bot/render/reggverse/wrong.py", "from bot.render.eggs_empires import parts\n", "renderer stands alone"),
        ("games/wrong.py", "import discord\n", "The rules engines need nothing but Python"),
        ("table/wrong.py", "from bot.messages import present\n", "The project's layers"),
        ("bot/texts/wrong.py", "from bot.texts import languages\n", None),  # a sibling import: allowed
    ],
)
def test_a_wrong_import_breaks_its_contract(copy: Path, module: str, line: str, contract: str | None) -> None:
    path = copy / module
    path.write_text(f'"""A deliberate mistake."""\n\n{line}')
    try:
        result = lint(copy)
    finally:
        path.unlink()
    if contract is None:
        assert result.returncode == 0, result.stdout[-3000:]
    else:
        assert result.returncode != 0, result.stdout[-3000:]
        broken = result.stdout.split("Broken contracts", 1)[1]
        assert contract in broken


def test_an_import_cycle_breaks_the_acyclic_contract(copy: Path) -> None:
    path = copy / "bot" / "texts" / "text_stats.py"
    original = path.read_text()
    path.write_text(original + "\n\ndef _later() -> None:\n    from bot.texts import languages  # noqa: F401\n")
    cycle = copy / "bot" / "texts" / "languages.py"
    kept = cycle.read_text()
    cycle.write_text(kept + "\n\ndef _back() -> None:\n    from bot.texts import text_stats  # noqa: F401\n")
    try:
        result = lint(copy)
    finally:
        path.write_text(original)
        cycle.write_text(kept)
    assert result.returncode != 0
    assert "No import cycles" in result.stdout.split("Broken contracts", 1)[1]
