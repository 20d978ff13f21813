"""`python -m bot` without a token and the `python -m games` tools."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import games

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str, env: dict[str, str] | None = None, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        input=stdin,
        env=env,
        timeout=120,
    )


def test_bot_without_token_explains_and_exits_2(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    result = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**env, "PYTHONPATH": str(ROOT)},
        timeout=60,
    )
    assert result.returncode == 2
    assert "DISCORD_TOKEN" in result.stderr and "developers/applications" in result.stderr
    assert "Traceback" not in result.stderr


def test_list_names_every_game() -> None:
    result = run("-m", "games", "list")
    assert result.returncode == 0
    for key in games.keys():
        assert key in result.stdout


def test_unknown_game_is_a_clear_error() -> None:
    result = run("-m", "games", "simulate", "nope", "--players", "2")
    assert result.returncode == 2 and "known games" in result.stderr


@pytest.mark.parametrize("key", games.keys())
def test_simulate_json(key: str) -> None:
    game = games.get(key)
    result = run(
        "-m", "games", "simulate", key, "--players", str(game.min_players), "--games", "3", "--seed", "5", "--json"
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["games"] == 3 and report["games_per_second"] > 0
    assert abs(sum(report["win_rate"]) - 1.0) < 1e-6


def test_terminal_play_reasks_bad_input_and_finishes(capsys: pytest.CaptureFixture[str]) -> None:
    from games.__main__ import play

    # after the bad answers, alternate one and two picks: one of them always fits the prompt
    answers = iter(["", "banana", "99 98"] + ["1", "1 2"] * 10_000)
    game = games.get("eggs-empires")
    status = play(game, 2, 0, "random", 5, {}, read=lambda _: next(answers))
    out = capsys.readouterr().out
    assert status == 0
    # Answers are numbers in the list only: a word, a number past the list, the wrong count are asked again.
    assert "Answer with 1 different number(s) from 1 to" in out
    assert "Game over. Scores:" in out
    assert "Your hand:" in out


def test_terminal_play_stops_cleanly_at_end_of_input(capsys: pytest.CaptureFixture[str]) -> None:
    result = run("-m", "games", "play", "eggs-empires", "--players", "3", stdin="1\n")
    assert result.returncode == 1 and "Bye." in result.stdout and "Traceback" not in result.stderr


def test_event_loop_setting_picks_uvloop_where_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncio

    from bot.__main__ import loop_factory

    assert loop_factory("asyncio") is None
    try:
        import uvloop
    except ImportError:
        assert loop_factory("auto") is None
    else:
        assert loop_factory("auto") is uvloop.new_event_loop and loop_factory("uvloop") is uvloop.new_event_loop
        loop = uvloop.new_event_loop()
        assert isinstance(loop, asyncio.AbstractEventLoop)
        loop.close()
    monkeypatch.setitem(sys.modules, "uvloop", None)  # as on Windows: not installed
    assert loop_factory("auto") is None
    with pytest.raises(ImportError):
        loop_factory("uvloop")


def test_the_bot_collects_less_garbage_and_never_what_start_up_made() -> None:
    import gc

    from bot.__main__ import GC_THRESHOLDS, collect_less_garbage

    before = gc.get_threshold()
    made_at_start_up = object.__new__(type("MadeAtStartUp", (), {}))
    try:
        collect_less_garbage()
        assert gc.get_threshold() == GC_THRESHOLDS and GC_THRESHOLDS[0] > before[0]
        assert gc.get_freeze_count() > 0
        gc.collect()
        # Frozen: the collector no longer tracks it in any generation it goes through.
        assert not any(o is made_at_start_up for o in gc.get_objects())
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


@pytest.mark.parametrize(("value", "said"), [("uvloop", "uvloop is not installed"), ("trio", "EVENT_LOOP")])
def test_bot_refuses_an_event_loop_it_cannot_run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, value: str, said: str
) -> None:
    from bot.__main__ import main

    monkeypatch.chdir(tmp_path)  # no .env
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("EVENT_LOOP", value)
    monkeypatch.setitem(sys.modules, "uvloop", None)
    assert main([]) == 2
    error = capsys.readouterr().err
    assert said in error and "Traceback" not in error
