"""The repository's queries behind the operators' endpoint: active games per key (per shard), ping."""

from __future__ import annotations

import pytest

from storage import Database, Shards, shard_of

GUILDS = [(n + 1) << 22 for n in range(4)]  # one guild on each shard of four


async def _game(db: Database, guild_id: int, key: str, *, start: bool) -> int:
    row = await db.create_game(
        guild_id=guild_id, channel_id=guild_id + 1, game_key=key, options={}, host_id=1, seed=2, turn_seconds=None
    )
    assert row.id is not None
    if start:
        await db.start_game(row.id, {"n": 1}, None)
    return row.id


async def test_active_games_by_key_counts_running_games_of_the_given_shards(db: Database) -> None:
    assert await db.active_games_by_key() == {}
    await _game(db, GUILDS[0], "eggs-empires", start=True)
    await _game(db, GUILDS[1], "eggs-empires", start=True)
    await _game(db, GUILDS[1], "reggverse-riddles", start=True)
    await _game(db, GUILDS[2], "reggverse-riddles", start=False)  # a lobby is not running
    finished = await _game(db, GUILDS[3], "eggs-empires", start=True)
    await db.finish_game(finished, "finished", [])
    assert await db.active_games_by_key() == {"eggs-empires": 2, "reggverse-riddles": 1}
    assert [shard_of(g, 4) for g in GUILDS] == [1, 2, 3, 0]
    assert await db.active_games_by_key(Shards.of([1], 4)) == {"eggs-empires": 1}
    assert await db.active_games_by_key(Shards.of([2], 4)) == {"eggs-empires": 1, "reggverse-riddles": 1}
    assert await db.active_games_by_key(Shards.of([0, 3], 4)) == {}


async def test_ping_answers_until_the_writer_stops(db: Database) -> None:
    await db.ping()
    await db.writer.stop()
    with pytest.raises(RuntimeError, match="writer is not running"):
        await db.ping()
