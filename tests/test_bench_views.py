"""`python -m bench views` in its shortest form: a figure for every game, and nothing saved with --no-save."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import games
from bench import results
from bench import views as bench_views


def test_views_bench_prints_a_figure_per_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(results, "RESULTS", tmp_path)
    assert bench_views.main(["--positions", "4", "--repeats", "1", "--no-save"]) == 0
    out = capsys.readouterr().out
    for key in games.keys():
        assert re.search(rf"^{re.escape(key)}: .* median \d+ us CPU per update", out, re.MULTILINE), out
    assert "as before" in out  # Eight-Minute Empire against its former view, same run
    assert not list(tmp_path.iterdir())
