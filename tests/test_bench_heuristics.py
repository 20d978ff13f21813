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
    assert heuristics.with_heuristic() == [k for k in games.keys() if "heuristic" in games.get(k).ai_levels]
    for key in heuristics.with_heuristic():  # the games whose ai_levels have a heuristic
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
    game = games.get("reggverse-riddles")
    recorded = heuristics.positions("reggverse-riddles", 2, 1)
    # one whole game: every decision from the first to the last (with none recorded, nothing was checked)
    assert len(recorded) > 10
    first, last = game.from_json(recorded[0][0]), game.from_json(recorded[-1][0])
    assert first.rng.words == game.new(2, 2000, {}).rng.words and game.outcome(first) is None
    for data, seat, player_seed in recorded:
        state = game.from_json(data)
        prompt = next(p for p in game.prompts(state) if p.seat == seat)
        game.apply(state, seat, game.ai("heuristic", player_seed).choose(game, state, prompt))
    assert game.outcome(state) is not None, "the last recorded decision ends the game"
    assert game.outcome(last) is None
    assert len({seat for _, seat, _ in recorded}) == 2
