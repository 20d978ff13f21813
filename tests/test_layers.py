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
    module.write_text("def f():\n    import discord.ui\n    from bot.texts.text import X\n")
    assert imported(module) >= {"discord", "bot"}


# Issue 17: a module of games/, table/, storage/ or bot/ over this many lines says why in its docstring,
# in a paragraph starting "Over 500 lines:" (a long module is a choice made on purpose, not drift).
MOST_LINES = 500
SIZED = ("games", "table", "storage", "bot")


def long_modules_without_a_reason(root: Path) -> list[str]:
    found = []
    for package in SIZED:
        for path in sorted((root / package).rglob("*.py")):
            source = path.read_text(encoding="utf-8")
            if source.count("\n") <= MOST_LINES:
                continue
            docstring = ast.get_docstring(ast.parse(source)) or ""
            if "Over 500 lines:" not in docstring:
                found.append(str(path.relative_to(root)))
    return found


def test_a_long_module_says_why_it_is_long() -> None:
    assert long_modules_without_a_reason(ROOT) == []


def test_the_size_check_sees_a_long_module_without_a_reason(tmp_path: Path) -> None:
    (tmp_path / "bot").mkdir()
    body = "x = 1\n" * (MOST_LINES + 1)
    (tmp_path / "bot" / "long.py").write_text('"""A module."""\n' + body)
    (tmp_path / "bot" / "why.py").write_text('"""A module.\n\nOver 500 lines: one table of data."""\n' + body)
    (tmp_path / "bot" / "short.py").write_text('"""A module."""\nx = 1\n')
    assert long_modules_without_a_reason(tmp_path) == ["bot/long.py"]
