"""`.env.example` documents every setting, and secrets never live in the repository."""

from __future__ import annotations

import subprocess
from pathlib import Path

from bot.ops.settings import Settings

ROOT = Path(__file__).resolve().parents[1]


def example_keys() -> set[str]:
    lines = (ROOT / ".env.example").read_text().splitlines()
    return {line.split("=", 1)[0].strip() for line in lines if "=" in line and not line.lstrip().startswith("#")}


def test_env_example_lists_every_setting() -> None:
    assert example_keys() == {name.upper() for name in Settings.model_fields}


def test_env_example_holds_no_token_and_env_is_ignored() -> None:
    text = (ROOT / ".env.example").read_text()
    assert "DISCORD_TOKEN=\n" in text
    ignored = subprocess.run(["git", "check-ignore", "-q", ".env"], cwd=ROOT)
    assert ignored.returncode == 0
