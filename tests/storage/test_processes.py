"""Real processes: SIGKILL at random moments loses no acknowledged action, and two processes racing
on the same PostgreSQL games get exactly one winner per version."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import games
from storage import Database
from storage.replay import replay

from .test_replay import play_random_game

ROOT = Path(__file__).resolve().parents[2]
KEYS = games.keys()
pytestmark = [pytest.mark.skipif(not KEYS, reason="no game is registered yet"), pytest.mark.slow]


def start_worker(url: str, seed: int, slots: int, mode: str, seconds: float = 0) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.storage.worker", url, str(seed), str(slots), mode, str(seconds)],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def acks(lines: list[str]) -> list[tuple[int, int]]:
    return [(int(p[1]), int(p[2])) for p in (line.split() for line in lines) if p and p[0] == "ack"]


async def test_sigkill_at_random_moments_loses_no_acknowledged_action(db_url: str) -> None:
    rng = random.Random(20240601)
    acknowledged: dict[int, int] = {}  # game -> highest acknowledged version
    rounds = 6
    for round_no in range(rounds):
        worker = start_worker(db_url, round_no, slots=4, mode="crash")
        assert worker.stdout is not None
        first = worker.stdout.readline()  # wait until it is really writing
        assert first.startswith("ack"), first + (worker.stderr.read() if worker.stderr else "")
        await asyncio.sleep(rng.uniform(0.05, 0.6))
        worker.send_signal(signal.SIGKILL)
        rest, _ = worker.communicate(timeout=30)
        assert worker.returncode == -signal.SIGKILL
        round_acks = acks([first, *rest.splitlines()])
        assert round_acks
        for game_id, version in round_acks:
            acknowledged[game_id] = max(acknowledged.get(game_id, 0), version)

        async with await Database.open(db_url) as db:
            for game_id, version in acknowledged.items():
                row = await db.get_game(game_id)
                assert row is not None and row.version >= version, (game_id, version, row)
                seqs = [a.seq for a in await db.actions(game_id)]
                assert seqs == list(range(2, row.version + 1))  # every acknowledged action is in the log
                report = await replay(db, game_id)  # and the stored state is exactly seed + log
                assert report.equal, str(report)
    # the games went on after restarts: some game was acknowledged in several rounds
    assert len(acknowledged) >= 4


async def test_two_processes_racing_on_postgresql(db_url: str, pg_only: None) -> None:
    slots = 3
    game_ids = []
    async with await Database.open(db_url) as db:
        for slot in range(slots):
            key = KEYS[slot % len(KEYS)]
            game = games.get(key)
            row = await db.create_game(
                guild_id=1, channel_id=slot, game_key=key, options={}, host_id=1, seed=slot, turn_seconds=None
            )
            assert row.id is not None
            game_ids.append(row.id)
            await db.set_seats(row.id, [{"seat": s, "user_id": s + 1, "name": "p"} for s in range(game.max_players)])
            await db.start_game(row.id, game.to_json(game.new(game.max_players, slot, {})), None)
    workers = [start_worker(db_url, seed, slots, "race", seconds=2.5) for seed in (1, 2)]
    for worker in workers:  # both have started and found the games: only then does the race begin
        assert worker.stdout is not None and worker.stdin is not None
        ready = worker.stdout.readline()
        assert ready == "ready\n", ready + (worker.stderr.read() if worker.stderr else "")
    for worker in workers:
        assert worker.stdin is not None
        worker.stdin.write("go\n")
        worker.stdin.flush()
    outputs = [w.communicate(timeout=90) for w in workers]
    for worker, (_, err) in zip(workers, outputs, strict=True):
        assert worker.returncode == 0, err
    won = [acks(out.splitlines()) for out, _ in outputs]
    lost = sum(out.count("lost") for out, _ in outputs)
    everything = won[0] + won[1]
    assert len(everything) == len(set(everything))  # no version was won twice
    assert won[0] and won[1] and lost > 0  # both really competed
    async with await Database.open(db_url) as db:
        for game_id in game_ids:
            row = await db.get_game(game_id)
            assert row is not None
            versions = sorted(v for g, v in everything if g == game_id)
            assert versions == list(range(2, row.version + 1))  # each version won by exactly one process
            report = await replay(db, game_id)  # and no action was applied twice or lost
            assert report.equal, str(report)


async def test_a_restarted_database_continues_a_game(db_url: str) -> None:
    async with await Database.open(db_url) as db:
        game_id = await play_random_game(db, KEYS[0], 11)
        before = await db.actions(game_id)
    async with await Database.open(db_url) as db:
        assert [a.seq for a in await db.actions(game_id)] == [a.seq for a in before]
        assert (await replay(db, game_id)).equal
