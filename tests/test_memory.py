"""Memory per active game (issue 37): what the bot keeps for each game, and how its process allocates."""

from __future__ import annotations

import sys

import pytest

from bot.ops import memory


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt: Linux only")
def test_the_bot_limits_its_malloc_arenas_unless_the_operator_chose(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MALLOC_ARENA_MAX", raising=False)
    assert memory.limit_malloc_arenas() is True
    monkeypatch.setenv("MALLOC_ARENA_MAX", "4")
    assert memory.limit_malloc_arenas() is False, "MALLOC_ARENA_MAX set: glibc applies the operator's own"


def test_the_entry_point_limits_the_arenas_before_the_loop_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    import bot.__main__ as entry

    calls: list[str] = []

    def limit() -> bool:
        calls.append("arenas")
        return True

    async def run(settings: object) -> int:
        calls.append("run")
        return 0

    monkeypatch.setattr(entry, "configure_logging", lambda settings: None)  # the tests' own handlers stay
    monkeypatch.setattr(entry, "limit_malloc_arenas", limit)
    monkeypatch.setattr(entry, "run", run)
    monkeypatch.setenv("DISCORD_TOKEN", "x.y.z")
    assert entry.main([]) == 0
    assert calls == ["arenas", "run"]
