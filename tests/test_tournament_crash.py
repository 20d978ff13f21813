"""A whole Swiss tournament through the real bot process, SIGKILLed every 15 interactions and whenever every
running game waits on the no-show (issue 35): sign-up, pairing, tables opening, play and round ends all
survive kills, no table is opened twice, each round's posts and the podium are shown once.
`python -m bench tournament_crash` is the same run (its default: 8 entrants of Reggverse Riddles)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.tournament_crash import tournament_crash


@pytest.mark.slow
async def test_a_swiss_tournament_reaches_its_podium_through_sigkills(tmp_path: Path) -> None:
    result = await tournament_crash(
        game="eight-minute-empire", entrants=4, table=2, rounds=2, kill_every=15, seed=2, workdir=tmp_path
    )
    assert result.crash.bot_errors == 0, (tmp_path / "bot.log").read_text()[-3000:]
    assert result.problems == [] and result.crash.problems == []
    assert result.crash.kills >= 4 and result.crash.kills == result.crash.kills_survived
    assert result.rounds == 2 and result.tables_doubled == 0
    assert result.games_opened == result.tables, "every table got exactly one game"
    assert result.round_posts == {"opened": 2, "over": 2} and result.podium_posts == 1
    assert result.champion is not None
    assert result.withdrawn_paired_later == 0 and result.no_show_missed_rounds == result.no_show_seated_rounds >= 1
    assert result.crash.decisions_lost == 0 and result.crash.games_unfinished == 0
    assert result.refused_requests == 0
    assert result.ok()
