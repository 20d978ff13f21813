"""The crash proof, short: the real bot in a subprocess, SIGKILLed while people play, restarted each time.

The long run is `python -m bench crash --kills 100`; this one kills twice, with short gaps so the
kills land while decisions are in flight, and checks the same invariants.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.crash import crash


@pytest.mark.slow
async def test_sigkill_loses_no_acknowledged_decision_and_every_game_finishes(tmp_path: Path) -> None:
    figures = await crash(2, tables=2, seed=7, workdir=tmp_path, max_gap=1.5)
    assert figures.problems == []
    assert figures.kills == figures.kills_survived == 2
    assert figures.decisions_acknowledged > 10
    assert figures.decisions_lost == 0
    assert figures.games_started >= 2 and figures.games_finished == figures.games_started
    assert figures.unanswered == 0
    assert figures.old_buttons_clicked > 0 and figures.old_buttons_dead == 0
    assert figures.bot_errors == 0, (tmp_path / "bot.log").read_text()[-3000:]
