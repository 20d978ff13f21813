"""The tournaments' tables and repository (docs/storage-api.md, "Tournaments") on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from storage import (
    Database,
    EntryRefused,
    TournamentConflict,
    TournamentNotFound,
)

NOW = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
PAIRING: dict[str, Any] = {"tables": [[11, 12], [13, 14]], "byes": [15], "table_size": 2}


async def raw(db: Database, sql: str, **params: Any) -> list[Any]:
    async with db.engine.begin() as conn:
        result = await conn.execute(text(sql), params)
        return list(result.all()) if result.returns_rows else []


async def new_tournament(db: Database, *, cap: int | None = None, users: tuple[int, ...] = ()) -> int:
    row = await db.create_tournament(
        guild_id=7,
        channel_id=70,
        host_id=1,
        game_key="reggverse-riddles",
        format="swiss",
        options={"table_size": 2, "variants": {"shape": "4x4"}, "rounds": None},
        seed=2**40 + 3,
        max_entrants=cap,
        starts_at=NOW,
    )
    assert row.id is not None
    for user in users:
        await db.add_entrant(row.id, user, f"user{user}")
    return row.id


async def open_one(db: Database, tid: int, number: int, index: int, users: list[int]) -> tuple[int, bool]:
    return await db.open_table(
        tid,
        number,
        index,
        guild_id=7,
        channel_id=70,
        game_key="reggverse-riddles",
        options={"shape": "4x4"},
        host_id=1,
        seed=99,
        turn_seconds=120,
        seats=[{"seat": i, "user_id": u, "ai_level": None, "name": f"user{u}"} for i, u in enumerate(users)],
        seat_map=list(users),
    )


async def test_every_table_round_trips(db: Database) -> None:
    tid = await new_tournament(db, cap=8, users=(11, 12, 13, 14, 15))
    row = await db.tournament(tid)
    assert row is not None
    assert (row.guild_id, row.channel_id, row.host_id, row.game_key, row.format) == (
        7,
        70,
        1,
        "reggverse-riddles",
        "swiss",
    )
    assert row.options == {"table_size": 2, "variants": {"shape": "4x4"}, "rounds": None}
    assert (row.status, row.max_entrants, row.starts_at, row.seed, row.current_round) == (
        "signup",
        8,
        NOW,
        2**40 + 3,
        0,
    )
    assert row.version == 6  # created at 1, one more per entry
    assert row.created_at.tzinfo is not None and row.thread_id is None and row.message_id is None

    # The bot records its thread and sign-up message; the version moves, whatever it was.
    version = await db.update_tournament(tid, None, thread_id=2**62, message_id=2**61)
    assert version == 7
    assert await db.thread_tournament(2**62) == await db.tournament(tid)

    entrants = await db.entrants(tid)
    assert [(e.user_id, e.name, e.seed, e.status, e.missed_rounds) for e in entrants] == [
        (u, f"user{u}", i, "active", 0) for i, u in enumerate((11, 12, 13, 14, 15))
    ]
    assert all(e.joined_at.tzinfo is not None for e in entrants)
    assert await db.update_entrant(tid, 15, name="Fifteen") is True
    assert await db.update_entrant(tid, 99, name="nobody") is False

    # The start: seeds, options and the rounds known in advance, in one transaction.
    schedule = [PAIRING, {"tables": [[12, 11]], "byes": [13, 14, 15], "table_size": 2}]
    seeds = {15: 0, 14: 1, 13: 2, 12: 3, 11: 4}
    version = await db.start_tournament(
        tid, (await db.tournament(tid)).version, seeds=seeds, schedule=schedule, options={"rounds": 2}
    )  # type: ignore[union-attr]
    row = await db.tournament(tid)
    assert row is not None and row.status == "running" and row.version == version and row.options == {"rounds": 2}
    assert row.started_at is not None
    assert [e.user_id for e in await db.entrants(tid)] == [15, 14, 13, 12, 11]  # seed order
    rounds = await db.rounds(tid)
    assert [(r.number, r.pairing, r.status, r.deadline) for r in rounds] == [
        (1, PAIRING, "pairing", None),
        (2, schedule[1], "pairing", None),
    ]
    tables = await db.round_tables(tid)
    assert [(t.round, t.table_index, t.game_id, t.seats, t.result, t.outcome) for t in tables] == [
        (1, 0, None, None, None, None),
        (1, 1, None, None, None, None),
        (2, 0, None, None, None, None),
    ]

    version = await db.begin_round(tid, version, 1)  # scheduled already: only the current round moves
    assert (await db.tournament(tid)).current_round == 1  # type: ignore[union-attr]
    deadline = NOW + timedelta(hours=1)
    assert await db.set_round_status(tid, 1, "open", expected="pairing", deadline=deadline, at=NOW)
    assert not await db.set_round_status(tid, 1, "open", expected="pairing")  # moved on already
    (first, *_rest) = await db.rounds(tid)
    assert (first.status, first.deadline, first.opened_at) == ("open", deadline, NOW)

    game_id, created = await open_one(db, tid, 1, 0, [11, 12])
    assert created
    game = await db.game_row(game_id)
    assert game is not None
    assert (game.status, game.tournament_id, game.tournament_round, game.host_id, game.seed) == (
        "lobby",
        tid,
        1,
        1,
        99,
    )
    assert (game.options, game.turn_seconds, game.guild_id, game.channel_id) == ({"shape": "4x4"}, 120, 7, 70)
    assert [(s.seat, s.user_id, s.name) for s in await db.seats(game_id)] == [(0, 11, "user11"), (1, 12, "user12")]
    assert await open_one(db, tid, 1, 0, [11, 12]) == (game_id, False)  # opened once, whatever asks again
    table = await db.table_of_game(game_id)
    assert table is not None and (table.tournament_id, table.round, table.table_index) == (tid, 1, 0)
    assert table.seats == [11, 12]
    assert await db.table_of_game(game_id + 1000) is None

    # Results: recorded once; missed rounds counted with them, and the drop rule applied.
    result = {"ranks": {"11": 1, "12": 2}, "scores": {"11": 9.5, "12": 3.0}}
    assert await db.resolve_table(tid, 1, 0, result, "game", missed=[12], drop_after=2)
    assert not await db.resolve_table(tid, 1, 0, {"ranks": {"11": 2, "12": 1}}, "scores", missed=[12], drop_after=2)
    assert await db.resolve_table(tid, 1, 1, {"ranks": {"13": 1, "14": 1}, "scores": None}, "walkover", missed=[12])
    by_user = {e.user_id: e for e in await db.entrants(tid)}
    assert (by_user[12].missed_rounds, by_user[12].status) == (2, "active")  # the second counted without a rule
    await db.resolve_table(tid, 2, 0, {"ranks": {"12": 1, "11": 2}}, "game", missed=[12], drop_after=3)
    by_user = {e.user_id: e for e in await db.entrants(tid)}
    assert (by_user[12].missed_rounds, by_user[12].status) == (3, "dropped")
    tables = await db.round_tables(tid, 1)
    assert [(t.table_index, t.result, t.outcome) for t in tables] == [
        (0, result, "game"),
        (1, {"ranks": {"13": 1, "14": 1}, "scores": None}, "walkover"),
    ]

    snapshot = await db.tournament_snapshot(tid)
    assert snapshot is not None and snapshot.tournament == await db.tournament(tid)
    assert snapshot.games == {game_id: "lobby"}
    assert [t.table_index for t in snapshot.round_tables(2)] == [0]
    assert await db.set_round_status(tid, 1, "finished", at=NOW + timedelta(minutes=5))
    assert (await db.rounds(tid))[0].finished_at == NOW + timedelta(minutes=5)

    # Listings.
    assert [t.id for t in await db.tournaments()] == [tid]
    assert await db.tournaments(statuses=("signup",)) == []
    assert [t.id for t in await db.tournaments(guild_id=7, channel_id=70)] == [tid]
    assert await db.tournaments(guild_id=8) == []
    assert [t.id for t in await db.due_tournaments(NOW)] == [tid]  # running
    await db.update_tournament(tid, None, status="finished", finished_at=NOW)
    assert await db.due_tournaments(NOW) == []
    assert await db.count_tournaments() == 1 and await db.count_tournaments(("running",)) == 0


async def test_sign_up_refusals_and_start_times(db: Database) -> None:
    tid = await new_tournament(db, cap=2, users=(11, 12))
    with pytest.raises(EntryRefused) as refused:
        await db.add_entrant(tid, 13, "three")
    assert refused.value.reason == "full"
    assert await db.remove_entrant(tid, 12) is True
    assert await db.remove_entrant(tid, 12) is False
    with pytest.raises(EntryRefused) as refused:
        await db.add_entrant(tid, 11, "again")
    assert refused.value.reason == "entered"
    await db.add_entrant(tid, 13, "three")
    assert [(e.user_id, e.seed) for e in await db.entrants(tid)] == [(11, 0), (13, 1)]
    with pytest.raises(TournamentNotFound):
        await db.add_entrant(tid + 1, 11, "x")

    later = await db.create_tournament(
        guild_id=7,
        channel_id=70,
        host_id=1,
        game_key="reggverse-riddles",
        format="knockout",
        options={},
        seed=1,
        starts_at=NOW + timedelta(hours=1),
    )
    assert [t.id for t in await db.due_tournaments(NOW)] == [tid]  # sign-up whose start time has come
    assert [t.id for t in await db.due_tournaments(NOW + timedelta(hours=1))] == [tid, later.id]

    version = (await db.tournament(tid)).version  # type: ignore[union-attr]
    await db.start_tournament(tid, version, seeds={11: 0, 13: 1})
    for closed in (db.add_entrant(tid, 14, "late"), db.remove_entrant(tid, 11)):
        with pytest.raises(EntryRefused) as refused:
            await closed
        assert refused.value.reason == "closed"
    with pytest.raises(TournamentConflict):  # started once
        await db.start_tournament(tid, (await db.tournament(tid)).version, seeds={})  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="format"):
        await db.create_tournament(
            guild_id=7, channel_id=70, host_id=1, game_key="x", format="ladder", options={}, seed=1
        )


async def test_a_stale_version_is_refused_and_writes_nothing(db: Database) -> None:
    tid = await new_tournament(db, users=(11, 12))
    row = await db.tournament(tid)
    assert row is not None
    stale = row.version
    await db.add_entrant(tid, 13, "three")  # an entry moves the version on: a start from before is refused
    with pytest.raises(TournamentConflict) as conflict:
        await db.start_tournament(tid, stale, seeds={11: 0, 12: 1}, schedule=[PAIRING])
    assert (conflict.value.expected, conflict.value.actual) == (stale, stale + 1)
    after = await db.tournament(tid)
    assert after is not None and after.status == "signup" and after.version == stale + 1
    assert await db.rounds(tid) == [] and await db.round_tables(tid) == []

    version = await db.start_tournament(tid, after.version, seeds={11: 0, 12: 1, 13: 2})
    with pytest.raises(TournamentConflict):
        await db.update_tournament(tid, version - 1, current_round=5)
    with pytest.raises(TournamentConflict):
        await db.begin_round(tid, version - 1, 1, PAIRING)
    assert await db.rounds(tid) == []
    assert (await db.tournament(tid)).current_round == 0  # type: ignore[union-attr]
    assert await db.update_tournament(tid, version, current_round=0) == version + 1
    with pytest.raises(TournamentNotFound):
        await db.update_tournament(tid + 5, None, status="cancelled")
    with pytest.raises(ValueError, match="cannot set"):
        await db.update_tournament(tid, None, version=3)
    with pytest.raises(ValueError, match="status"):
        await db.update_tournament(tid, None, status="paused")
    with pytest.raises(ValueError, match="cannot set"):
        await db.update_entrant(tid, 11, joined_at=NOW)


async def test_a_round_and_its_tables_are_stored_once(db: Database) -> None:
    tid = await new_tournament(db, users=(11, 12, 13, 14, 15))
    version = await db.start_tournament(tid, (await db.tournament(tid)).version, seeds={})  # type: ignore[union-attr]
    version = await db.begin_round(tid, version, 1, PAIRING)
    # The same round again, even at the right version, is refused and changes nothing.
    with pytest.raises(TournamentConflict, match="round 1 is stored already"):
        await db.begin_round(tid, version, 1, {"tables": [[15, 11]], "byes": [], "table_size": 2})
    assert (await db.tournament(tid)).version == version  # type: ignore[union-attr]
    assert [r.pairing for r in await db.rounds(tid)] == [PAIRING]
    assert len(await db.round_tables(tid, 1)) == 2
    # The primary key (tournament, round, table index) refuses a second row for a table, whoever writes it.
    with pytest.raises(IntegrityError):
        await raw(
            db,
            "INSERT INTO tournament_tables (tournament_id, round, table_index, created_at, updated_at) "
            "VALUES (:t, 1, 0, :at, :at)",
            t=tid,
            at=NOW.replace(tzinfo=None),
        )
    # A game belongs to one table at most.
    game_id, _ = await open_one(db, tid, 1, 0, [11, 12])
    with pytest.raises(IntegrityError):
        await raw(db, "UPDATE tournament_tables SET game_id = :g WHERE table_index = 1", g=game_id)
    with pytest.raises(LookupError):
        await open_one(db, tid, 1, 5, [11, 12])  # never reserved
    await db.resolve_table(tid, 1, 1, {"ranks": {"13": 1, "14": 2}}, "walkover")
    with pytest.raises(ValueError, match="resolved already"):
        await open_one(db, tid, 1, 1, [13, 14])


async def test_two_databases_racing_to_open_a_table_open_one_game(db_url: str) -> None:
    first = await Database.open(db_url)
    second = await Database.open(db_url)
    try:
        tid = await new_tournament(first, users=(11, 12, 13, 14, 15))
        version = await first.start_tournament(tid, (await first.tournament(tid)).version, seeds={})  # type: ignore[union-attr]
        await first.begin_round(tid, version, 1, PAIRING)
        opened = await asyncio.gather(
            *(open_one(db, tid, 1, index, [11, 12]) for index in (0, 1) for db in (first, second, first, second))
        )
        for index in (0, 1):
            mine = opened[4 * index : 4 * index + 4]
            assert len({game for game, _created in mine}) == 1
            assert sum(created for _game, created in mine) == 1
        counted = await raw(first, "SELECT COUNT(*) FROM games WHERE tournament_id = :t", t=tid)
        assert counted[0][0] == 2
    finally:
        await second.close()
        await first.close()
