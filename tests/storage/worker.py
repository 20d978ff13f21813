"""A process that plays random games through storage, for the crash and multi-process tests.

    python -m tests.storage.worker URL SEED SLOTS MODE [SECONDS]

MODE "crash": keeps SLOTS games going (slot i is channel i; a finished game is replaced by a new one)
and prints "ack GAME_ID VERSION" after each commit returns, until killed.
MODE "race": for SECONDS, every slot's game gets a random legal decision from this process, based
on the version it read; prints "ack GAME_ID VERSION" for each commit it won and "lost GAME_ID" for
each VersionConflict. Two such processes race on the same games: each prints "ready" once it has
found them and starts only when a line arrives on its stdin, so both race over the same seconds however
long each took to start.
"""

from __future__ import annotations

import asyncio
import random
import sys
import time
from typing import Any

import games
from games.ai import RandomPlayer
from storage import Database, GameRow, VersionConflict

KEYS = games.keys()


async def open_slot(db: Database, slot: int, rng: random.Random) -> GameRow:
    """The running game of this slot, or a new started one."""
    row = await db.channel_game(slot)
    if row is not None and row.status == "active":
        return row
    key = KEYS[slot % len(KEYS)]
    game = games.get(key)
    players = rng.randint(game.min_players, game.max_players)
    seed = rng.randrange(1 << 40)
    row = await db.create_game(
        guild_id=1, channel_id=slot, game_key=key, options={}, host_id=100, seed=seed, turn_seconds=None
    )
    assert row.id is not None
    await db.set_seats(row.id, [{"seat": s, "user_id": 100 + s, "name": f"p{s}"} for s in range(players)])
    await db.start_game(row.id, game.to_json(game.new(players, seed, {})), None)
    return row


async def step(db: Database, game_id: int, rng: random.Random) -> tuple[str, int]:
    """One random legal decision on the game as read now: ("ack", version), ("lost", 0) or ("over", 0)."""
    row = await db.get_game(game_id)
    assert row is not None
    if row.status != "active":
        return "over", 0
    data, version = await db.load_state(game_id)
    game = games.get(row.game_key)
    state: Any = game.from_json(data)
    prompts = game.prompts(state)
    if not prompts:
        return "over", 0
    prompt = rng.choice(prompts)
    choice = RandomPlayer(rng.randrange(1 << 30)).choose(game, state, prompt)
    game.apply(state, prompt.seat, choice)
    over = game.outcome(state) is not None
    try:
        new_version = await db.commit_action(
            game_id, version, prompt.seat, choice, game.to_json(state), status="finished" if over else None
        )
    except VersionConflict:
        return "lost", 0
    return "ack", new_version


async def crash_slot(db: Database, slot: int, rng: random.Random) -> None:
    while True:
        row = await open_slot(db, slot, rng)
        assert row.id is not None
        while True:
            outcome, version = await step(db, row.id, rng)
            if outcome == "over":
                break
            print(f"ack {row.id} {version}", flush=True)


async def race_slot(db: Database, game_id: int, rng: random.Random, until: float) -> None:
    while time.monotonic() < until:
        outcome, version = await step(db, game_id, rng)
        if outcome == "over":
            return
        print(f"ack {game_id} {version}" if outcome == "ack" else f"lost {game_id}", flush=True)
        await asyncio.sleep(0)


async def main(url: str, seed: int, slots: int, mode: str, seconds: float) -> None:
    rng = random.Random(seed)
    db = await Database.open(url)
    try:
        if mode == "crash":
            await asyncio.gather(*(crash_slot(db, s, random.Random(rng.random())) for s in range(slots)))
        else:
            ids = []
            for slot in range(slots):
                row = await db.channel_game(slot)
                assert row is not None and row.id is not None, "the test creates the games to race on"
                ids.append(row.id)
            print("ready", flush=True)
            await asyncio.to_thread(sys.stdin.readline)  # the starting gun
            until = time.monotonic() + seconds
            await asyncio.gather(*(race_slot(db, i, random.Random(rng.random()), until) for i in ids))
    finally:
        await db.close()


if __name__ == "__main__":
    url, seed, slots, mode = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    asyncio.run(main(url, seed, slots, mode, float(sys.argv[5]) if len(sys.argv) > 5 else 0.0))
