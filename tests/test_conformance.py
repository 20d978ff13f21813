"""The conformance run (issue 33.5): every game played whole in English, Italian and French by the real bot
process, SIGKILLed every 15 interactions and restarted, every request judged by Discord's own API
description. `python -m bench conformance` is the same run with its figures saved."""

from __future__ import annotations

from pathlib import Path

import pytest

import games
from bench.conformance import conformance


@pytest.mark.slow
async def test_whole_games_in_three_languages_with_kills_send_nothing_discord_refuses(tmp_path: Path) -> None:
    result = await conformance(kill_every=15, seed=3, workdir=tmp_path)
    assert result.refused == 0, result.refusals
    assert result.crash.bot_errors == 0, (tmp_path / "bot.log").read_text()[-3000:]
    assert result.crash.problems == []
    assert result.crash.kills >= 9 and result.crash.kills == result.crash.kills_survived
    assert dict(result.games) == {f"{key}/{lang}": 1 for key in games.keys() for lang in ("en", "it", "fr")}
    assert result.crash.decisions_lost == 0 and result.crash.games_unfinished == 0
    assert result.requests > 1000, "the judge saw the whole run"
