"""Replay equality for random complete games of every registered game, and the storage CLI."""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import games
from games.ai import RandomPlayer
from storage import Database
from storage.__main__ import main as storage_main
from storage.migrate import head_revision
from storage.replay import first_difference, replay

ROOT = Path(__file__).resolve().parents[2]
KEYS = games.keys()
needs_games = pytest.mark.skipif(not KEYS, reason="no game is registered yet")


def _dealt_by_seed(key: str) -> bool:
    game = games.get(key)
    return game.to_json(game.new(game.min_players, 1)) != game.to_json(game.new(game.min_players, 2))


# The CLI test changes a stored game's seed and expects another game: the last game whose deal depends on
# its seed (a game may draw nothing at random).
SEEDED = next((k for k in reversed(KEYS) if _dealt_by_seed(k)), KEYS[-1] if KEYS else "")


async def play_random_game(db: Database, key: str, seed: int) -> int:
    """Create, seat, start and play a complete game with random players, committing every decision
    separately (simultaneous secret submissions included, as the table service does)."""
    game = games.get(key)
    rng = random.Random(seed)
    players = rng.randint(game.min_players, game.max_players)
    row = await db.create_game(
        guild_id=5, channel_id=seed, game_key=key, options={}, host_id=1, seed=seed, turn_seconds=None
    )
    assert row.id is not None
    await db.set_seats(row.id, [{"seat": s, "user_id": 1 + s, "name": f"p{s}"} for s in range(players)])
    state: Any = game.new(players, seed, {})
    version = await db.start_game(row.id, game.to_json(state), None)
    ais = [RandomPlayer(seed * 10 + s) for s in range(players)]
    while prompts := game.prompts(state):
        for prompt in prompts:
            choice = ais[prompt.seat].choose(game, state, prompt)
            game.apply(state, prompt.seat, choice)
            over = game.outcome(state) is not None
            version = await db.commit_action(
                row.id, version, prompt.seat, choice, game.to_json(state), status="finished" if over else None
            )
    outcome = game.outcome(state)
    assert outcome is not None
    return row.id


@needs_games
@pytest.mark.parametrize("key", KEYS)
async def test_replaying_random_complete_games_gives_the_stored_state(db: Database, key: str) -> None:
    for seed in (1, 2):
        game_id = await play_random_game(db, key, seed)
        report = await replay(db, game_id)
        assert report.equal, str(report)
        assert report.actions == report.version - 1 > 0
        row = await db.get_game(game_id)
        assert row is not None and row.status == "finished"


@needs_games
async def test_replay_notices_a_tampered_state_or_log(db: Database) -> None:
    game_id = await play_random_game(db, KEYS[0], 3)
    row = await db.get_game(game_id)
    assert row is not None and row.state is not None
    state, _ = await db.load_state(game_id)
    async with db.engine.begin() as conn:
        from sqlalchemy import text

        from storage.types import dump_json

        state["tampered"] = 1
        await conn.execute(text("UPDATE games SET state = :s WHERE id = :id"), {"s": dump_json(state), "id": game_id})
    report = await replay(db, game_id)
    assert not report.equal and "state.tampered is only in the stored state" in report.detail
    async with db.engine.begin() as conn:
        await conn.execute(text("DELETE FROM actions WHERE game_id = :id AND seq = 3"), {"id": game_id})
    report = await replay(db, game_id)
    assert not report.equal and "the log holds seqs" in report.detail


def test_first_difference_points_at_the_first_change() -> None:
    assert first_difference({"a": [1, {"b": 2}]}, {"a": [1, {"b": 2}]}) is None
    assert first_difference({"a": [1, {"b": 2}]}, {"a": [1, {"b": 3}]}) == "state.a[1].b is 2 replayed but 3 stored"
    assert first_difference({"a": [1]}, {"a": [1, 2]}) == "state.a has 1 items replayed but 2 stored"
    assert first_difference({"a": 1}, {"a": 1.0}) == "state.a is 1 replayed but 1.0 stored"


@needs_games
async def test_cli_replay_exit_codes(db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    async def cli(*args: str) -> int:  # the CLI runs its own event loop
        return await asyncio.to_thread(storage_main, ["--url", db_url, *args])

    async with await Database.open(db_url) as db:
        game_id = await play_random_game(db, SEEDED, 4)
    assert await cli("replay", str(game_id)) == 0
    assert "EQUAL to the stored state" in capsys.readouterr().out
    assert await cli("replay", "987654") == 2
    assert "no game with id 987654" in capsys.readouterr().err
    async with await Database.open(db_url) as db:
        await db.update_game(game_id, seed=99999)  # a different seed rebuilds a different game
    assert await cli("replay", str(game_id)) == 1
    assert "DIFFERENT from the stored state" in capsys.readouterr().out


def test_python_m_storage_upgrade_and_replay_work_from_any_directory(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/a/b.sqlite3"}
    done = subprocess.run(
        [sys.executable, "-m", "storage", "upgrade"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert f"is at schema {head_revision()}" in done.stdout and (tmp_path / "a" / "b.sqlite3").exists()
    done = subprocess.run(
        [sys.executable, "-m", "storage", "replay", "1"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and "no game with id 1" in done.stderr and "Traceback" not in done.stderr
