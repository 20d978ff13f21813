"""The hot writes sent straight to the driver (storage.pg_direct on PostgreSQL, storage.sqlite_writer on
SQLite) keep the repository's guarantees: a game another process moved is refused with its real version
while the rest of the batch is written, a turn is one statement on PostgreSQL, deadlines and reminders
follow the same rules as through SQLAlchemy, and a connection the server dropped costs no decision."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from sqlalchemy import text

from storage import Database, GameNotActive, Move, VersionConflict
from storage.pg_direct import GROUP_COMMIT
from storage.rows import _read_table
from storage.types import utcnow
from tests.storage.test_repository import NOW, active_game, raw


async def test_a_game_moved_by_another_process_is_refused_and_the_rest_of_the_batch_written(db_url: str) -> None:
    async with await Database.open(db_url) as mine, await Database.open(db_url) as other:
        ids = [await active_game(mine, 700 + i) for i in range(4)]
        assert await other.commit_action(ids[1], 1, 0, ["theirs"], {"by": "other"}) == 2
        await other.update_game(ids[2], status="abandoned")
        locked_before = getattr(mine.writer, "locked_batches", 0)
        results = await asyncio.gather(
            *(mine.commit_action(g, 1, 0, ["mine"], {"by": "mine"}) for g in ids),
            mine.commit_action(ids[1], 2, 1, ["after theirs"], {"by": "mine, after"}),  # right after the other's
            return_exceptions=True,
        )
        assert results[0] == 2 and results[3] == 2
        assert isinstance(results[1], VersionConflict) and (results[1].expected, results[1].actual) == (1, 2)
        assert isinstance(results[2], GameNotActive) and results[2].status == "abandoned"
        assert results[4] == 3  # refused as a chain in the one statement, accepted alone by the locked path
        if db_url.startswith("postgresql"):
            assert mine.writer.locked_batches > locked_before  # the games the one statement left
        assert await mine.load_state(ids[1]) == ({"by": "mine, after"}, 3)
        assert [(a.seq, a.action) for a in await mine.actions(ids[1])] == [(2, ["theirs"]), (3, ["after theirs"])]
        assert await mine.actions(ids[2]) == []
        for g in (ids[0], ids[3]):
            assert await mine.load_state(g) == ({"by": "mine"}, 2)


async def test_a_turn_is_one_statement_and_keeps_deadlines_and_reminders(db: Database) -> None:
    game_id = await active_game(db)
    await db.update_game(game_id, reminded=True)
    seen: list[str] = []
    stop = db.on_statement(seen.append)
    try:
        assert await db.commit_actions(game_id, 1, [Move(0, ["a"]), Move(1, ["b"], afk=True)], {"turn": 1}) == 3
    finally:
        stop()
    if db.engine.dialect.name == "postgresql":
        assert seen == [GROUP_COMMIT]
    row = await db.get_game(game_id)
    assert row is not None and row.deadline == NOW and row.reminded  # deadline left as it was: so is reminded
    assert await db.commit_action(game_id, 3, 0, ["c"], {"turn": 2}, deadline=NOW + timedelta(minutes=1)) == 4
    row = await db.get_game(game_id)
    assert row is not None and row.deadline == NOW + timedelta(minutes=1) and not row.reminded
    before = utcnow()
    assert await db.commit_action(game_id, 4, 1, ["d"], {"turn": 3}, deadline=None, status="finished") == 5
    row = await db.get_game(game_id)
    assert row is not None and row.deadline is None and row.status == "finished" and row.updated_at >= before
    assert [(a.seq, a.seat, a.action, a.afk) for a in await db.actions(game_id)] == [
        (2, 0, ["a"], False),
        (3, 1, ["b"], True),
        (4, 0, ["c"], False),
        (5, 1, ["d"], False),
    ]
    with pytest.raises(GameNotActive):
        await db.commit_action(game_id, 5, 0, ["e"], {"turn": 4})


async def test_a_batch_mixing_seat_changes_and_plain_turns_writes_each_once(db: Database) -> None:
    plain, seated = await active_game(db, 801), await active_game(db, 802)
    results = await asyncio.gather(
        db.commit_action(plain, 1, 0, ["a"], {"turn": 1}),
        db.commit_actions(seated, 1, [Move(1, ["ai"], afk=True)], {"turn": 1}, seats={1: {"afk_count": 1}}),
        db.commit_actions(seated, 2, [Move(0, ["x"])], {"turn": 2}, seats={7: {"afk_count": 1}}),  # no seat 7
        db.commit_action(plain, 2, 1, ["b"], {"turn": 2}),
        return_exceptions=True,
    )
    assert results[0] == 2 and results[1] == 2 and results[3] == 3
    assert isinstance(results[2], LookupError)
    assert await db.load_state(plain) == ({"turn": 2}, 3)
    assert await db.load_state(seated) == ({"turn": 1}, 2)
    assert [s.afk_count for s in await db.seats(seated)] == [0, 1]
    assert len(await db.actions(seated)) == 1


async def test_connections_the_server_dropped_cost_no_decision(db_url: str) -> None:
    if not db_url.startswith("postgresql"):
        pytest.skip("PostgreSQL's connections")
    async with await Database.open(db_url) as db:
        game_id = await active_game(db)
        assert await db.commit_action(game_id, 1, 0, ["a"], {"turn": 1}) == 2
        await db.update_seat(game_id, 0, afk_count=1)  # both held connections are open and idle now
        killed = await raw(
            db,
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()",
        )
        assert len(killed) >= 2
        await asyncio.sleep(0.2)  # the server's goodbye reaches the idle connections
        assert await db.commit_action(game_id, 2, 1, ["b"], {"turn": 2}) == 3
        await db.update_seat(game_id, 0, afk_count=2)
        await db.update_game(game_id, reminded=True)
        assert await db.load_state(game_id) == ({"turn": 2}, 3)
        assert [s.afk_count for s in await db.seats(game_id)] == [2, 0]


async def test_a_write_waiting_on_a_locked_row_holds_up_no_other_write(db_url: str) -> None:
    async with await Database.open(db_url) as db:
        locked_game, other_game = await active_game(db, 901), await active_game(db, 902)
        if db.engine.dialect.name != "postgresql":
            pytest.skip("PostgreSQL's row locks")
        async with db.engine.connect() as other_process:  # holds the first game's row, as a writer elsewhere
            await other_process.execute(text("SELECT id FROM games WHERE id = :id FOR UPDATE"), {"id": locked_game})
            waiting = asyncio.ensure_future(db.update_game(locked_game, turn_seconds=60))
            await asyncio.sleep(0.1)
            assert not waiting.done()
            # Not queued behind it: the other writes go through the pool while the held connection waits.
            await asyncio.wait_for(
                asyncio.gather(db.update_game(other_game, turn_seconds=90), db.update_seat(other_game, 1, afk_count=3)),
                5,
            )
            assert not waiting.done()
            await other_process.commit()
        await asyncio.wait_for(waiting, 5)
        rows = {g.id: g.turn_seconds for g in await db.active_games()}
        assert rows == {locked_game: 60, other_game: 90}
        assert [s.afk_count for s in await db.seats(other_game)] == [0, 3]


async def test_the_table_read_in_one_statement_reads_what_sqlalchemy_reads(db: Database) -> None:
    lobby = (
        await db.create_game(
            guild_id=None,
            channel_id=903,
            game_key="eggs-empires",
            options={"a": [1]},
            host_id=5,
            seed=-7,
            turn_seconds=None,
        )
    ).id
    assert lobby is not None
    playing = await active_game(db, 904, users=(21, 22, 23))
    await db.update_game(playing, deadline=NOW + timedelta(seconds=30), thread_id=2**62, reminded=True)
    await db.update_seat(playing, 2, dm_failed=True, locale="it", dm_message_id=2**60, ai_controlled=True)
    await raw(db, "UPDATE games SET options = 'not json' WHERE id = :id", id=lobby)  # read as {} either way
    for game_id in (lobby, playing, 31337):
        direct = await db._read_table(game_id)
        through_sqlalchemy = await db._read(_read_table, game_id)
        assert direct == through_sqlalchemy
        if direct is not None:
            assert [type(v) for v in direct.row.values()] == [type(v) for v in through_sqlalchemy.row.values()]
    known = await db._read_table(playing)
    assert known is not None and known.row["deadline"] == NOW + timedelta(seconds=30) and known.row["reminded"]
    assert [s["seat"] for s in known.seats] == [0, 1, 2] and known.seats[2]["locale"] == "it"
