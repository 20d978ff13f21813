"""`python -m bench heuristics` in its shortest form: a figure for every game and seat count, nothing saved."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import games
from bench import heuristics, results


def test_heuristics_bench_prints_a_figure_per_game_and_seat_count(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(results, "RESULTS", tmp_path)
    assert heuristics.main(["--games", "1", "--repeats", "1", "--no-save"]) == 0
    out = capsys.readouterr().out
    for key in games.keys():
        for players in heuristics.SEATS:
            line = (
                rf"^{re.escape(key)} {players}p: median (\d+\.\d+) ms CPU per heuristic decision, "
                r"of which the view (\d+\.\d+) ms \((\d+) decisions"
            )
            found = re.search(line, out, re.MULTILINE)
            assert found, out
            decide, view, decisions = float(found[1]), float(found[2]), int(found[3])
            assert decisions > 0 and 0 < view < decide  # a decision reads the view, and then some
    assert not list(tmp_path.iterdir())


def test_positions_replay_to_the_recorded_decisions() -> None:
    recorded = heuristics.positions("reggverse-riddles", 2, 1)
    game = games.get("reggverse-riddles")
    for data, seat, _ in recorded:
        assert any(p.seat == seat for p in game.prompts(game.from_json(data)))
