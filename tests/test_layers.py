"""The walls between the layers (ARCHITECTURE.md: imports point down only).

    bot/  ->  table/  ->  games/, storage/

games/ imports nothing of the project but itself; storage/ imports neither bot/ nor table/; table/
imports no discord and nothing of bot/. Read from the source (every import statement, at any depth,
including those inside functions), so a lazy import cannot slip through.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PROJECT = ("bot", "table", "games", "storage", "bench", "tests")

# package -> top-level names it may not import
WALLS = {
    "games": {"bot", "table", "storage", "bench", "tests", "discord", "sqlalchemy", "sqlmodel", "asyncio", "PIL"},
    "storage": {"bot", "table", "bench", "tests", "discord"},
    "table": {"bot", "bench", "tests", "discord", "PIL"},
}


def imported(path: Path) -> set[str]:
    """The top-level names of every module `path` imports (relative imports resolved to this package)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                names.add(path.relative_to(ROOT).parts[0])
            elif node.module:
                names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("package", sorted(WALLS))
def test_a_layer_imports_only_what_lies_below_it(package: str) -> None:
    crossings = {
        str(path.relative_to(ROOT)): sorted(imported(path) & WALLS[package])
        for path in sorted((ROOT / package).rglob("*.py"))
    }
    assert not {k: v for k, v in crossings.items() if v}


def test_the_check_sees_imports_inside_functions(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("def f():\n    import discord.ui\n    from bot.text import X\n")
    assert imported(module) >= {"discord", "bot"}
