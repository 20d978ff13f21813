"""The repository API (docs/storage-api.md) on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Connection, text
from sqlalchemy.ext.asyncio import create_async_engine

from storage import (
    BrokenGame,
    Database,
    GameNotActive,
    GameNotFound,
    GameRow,
    Move,
    RatingRow,
    SchemaTooNew,
    VersionConflict,
)
from storage import rows as database_module
from storage.migrate import head_revision
from storage.models import SQLModel

NOW = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)


async def new_game(db: Database, channel_id: int = 500, *, users: tuple[int, ...] = (11, 12), **extra: Any) -> int:
    row = await db.create_game(
        guild_id=1,
        channel_id=channel_id,
        game_key="eggs-empires",
        options={"scoring": "conpub"},
        host_id=users[0],
        seed=1234,
        turn_seconds=300,
        **extra,
    )
    assert row.id is not None
    await db.set_seats(row.id, [{"seat": i, "user_id": u, "name": f"user{u}"} for i, u in enumerate(users)])
    return row.id


async def active_game(
    db: Database,
    channel_id: int = 500,
    state: dict[str, Any] | None = None,
    users: tuple[int, ...] = (11, 12),
) -> int:
    game_id = await new_game(db, channel_id, users=users)
    assert await db.start_game(game_id, state or {"turn": 0}, NOW) == 1
    return game_id


async def raw(db: Database, sql: str, **params: Any) -> list[Any]:
    async with db.engine.begin() as conn:
        result = await conn.execute(text(sql), params)
        return list(result.all()) if result.returns_rows else []


# --- schema --------------------------------------------------------------------------------------------
async def test_empty_database_is_created_and_reopening_an_up_to_date_one_is_clean(db_url: str) -> None:
    db = await Database.open(db_url)
    await active_game(db)
    await db.close()
    db = await Database.open(db_url)  # second start: nothing to migrate, data intact
    try:
        assert [r[0] for r in await raw(db, "SELECT version_num FROM alembic_version")] == [head_revision()]
        assert await db.count_games() == 1
    finally:
        await db.close()


async def test_migrations_build_exactly_the_models(db: Database) -> None:
    def differences(conn: Connection) -> list[Any]:
        return list(compare_metadata(MigrationContext.configure(conn), SQLModel.metadata))

    async with db.engine.connect() as conn:
        assert await conn.run_sync(differences) == []


async def test_a_database_newer_than_the_code_is_refused_and_left_alone(db_url: str) -> None:
    db = await Database.open(db_url)
    await raw(db, "UPDATE alembic_version SET version_num = 'from_the_future'")
    await db.close()
    with pytest.raises(SchemaTooNew, match=r"'from_the_future'.*newer version of the bot"):
        await Database.open(db_url)
    engine = create_async_engine(db_url)
    async with engine.connect() as conn:
        assert (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalar_one() == "from_the_future"
    await engine.dispose()


# --- lobby and lifecycle -----------------------------------------------------------------------------------
async def test_lobby_queries_find_the_right_games(db: Database) -> None:
    lobby = await new_game(db, 500, users=(11, 12))
    other = await active_game(db, 600, users=(21, 11))
    done = await new_game(db, 700, users=(11,))
    await db.finish_game(done, "abandoned", [])
    await db.update_game(lobby, thread_id=9001, lobby_message_id=42, options={"scoring": "standard"})

    row = await db.channel_game(500)
    assert row is not None and row.id == lobby and row.status == "lobby" and row.thread_id == 9001
    assert row.options == {"scoring": "standard"} and row.lobby_message_id == 42
    assert row.created_at.tzinfo is not None and row.updated_at >= row.created_at
    assert await db.channel_game(700) is None  # abandoned games are not "running in the channel"
    thread = await db.thread_game(9001)
    assert thread is not None and thread.id == lobby
    assert [g.id for g in await db.user_games(11)] == [lobby, other]  # not the abandoned one
    assert [g.id for g in await db.user_games(12)] == [lobby]
    assert [g.id for g in await db.user_games(21)] == [other]
    assert await db.user_games(999) == []
    assert await db.get_game(123456) is None


async def test_seats_are_replaced_ordered_and_updated(db: Database) -> None:
    game_id = await new_game(db)
    await db.set_seats(
        game_id,
        [
            {"seat": 1, "user_id": None, "ai_level": "heuristic", "name": "Bot"},
            {"seat": 0, "user_id": 7, "name": "Ann"},
        ],
    )
    await db.update_seat(game_id, 0, dm_channel_id=77, dm_message_id=78, afk_count=2, locale="fr")
    seats = await db.seats(game_id)
    assert [(s.seat, s.user_id, s.ai_level, s.name) for s in seats] == [
        (0, 7, None, "Ann"),
        (1, None, "heuristic", "Bot"),
    ]
    assert (seats[0].dm_channel_id, seats[0].dm_message_id, seats[0].afk_count, seats[0].locale) == (
        77,
        78,
        2,
        "fr",
    )
    assert seats[1].dm_failed is False and seats[1].ai_controlled is False
    with pytest.raises(ValueError, match="cannot set colour"):
        await db.update_seat(game_id, 0, colour="red")
    with pytest.raises(LookupError, match="no seat 5"):
        await db.update_seat(game_id, 5, afk_count=1)
    with pytest.raises(GameNotFound):
        await db.set_seats(424242, [])


async def test_update_game_refuses_unknown_fields_bad_status_and_missing_games(db: Database) -> None:
    game_id = await new_game(db)
    with pytest.raises(ValueError, match="cannot set state, version"):
        await db.update_game(game_id, state={}, version=9)
    with pytest.raises(ValueError, match="status 'paused'"):
        await db.update_game(game_id, status="paused")
    with pytest.raises(GameNotFound):
        await db.update_game(999_999, status="active")
    row = await db.get_game(game_id)
    assert row is not None and row.status == "lobby" and row.state is None and row.version == 0


async def test_updates_store_what_sqlalchemy_stores_and_wait_out_a_held_write_lock(db: Database) -> None:
    """update_game and update_seat skip SQLAlchemy on SQLite (a statement through the stdlib driver):
    the stored text must be what the SQLAlchemy statement stores, and a held write lock is waited out
    (through the async engine) rather than refused."""
    quick, slow = await new_game(db, 1), await new_game(db, 2)
    fields = {
        "options": {"b": [1, "é"], "a": None},
        "deadline": NOW + timedelta(seconds=1.5),
        "reminded": True,
        "thread_id": 2**62,
        "status": "active",
    }
    seat = {"dm_failed": True, "locale": "fr", "afk_count": 3}
    await db.update_game(quick, **fields)
    await db.update_seat(quick, 1, **seat)
    await db._write(database_module._update_where, database_module._games, {"id": slow}, {**fields, "updated_at": NOW})
    await db._write(database_module._update_where, database_module._seats, {"game_id": slow, "seat": 1}, seat)
    columns = "options, deadline, reminded, thread_id, status"
    [stored_quick, stored_slow] = await raw(
        db, f"SELECT {columns} FROM games WHERE id IN (:a, :b) ORDER BY id", a=quick, b=slow
    )
    assert tuple(stored_quick) == tuple(stored_slow)
    [seat_quick, seat_slow] = await raw(
        db,
        "SELECT dm_failed, locale, afk_count FROM seats WHERE seat = 1 AND game_id IN (:a, :b) ORDER BY game_id",
        a=quick,
        b=slow,
    )
    assert tuple(seat_quick) == tuple(seat_slow)
    row = await db.get_game(quick)
    assert row is not None
    assert (row.options, row.deadline, row.reminded) == (fields["options"], fields["deadline"], True)
    if db.engine.dialect.name != "sqlite":
        return
    path = db.url.database
    assert path

    def hold_the_lock() -> None:
        with sqlite3.connect(path, isolation_level=None) as other:
            other.execute("BEGIN IMMEDIATE")
            time.sleep(0.3)
            other.execute("COMMIT")
        other.close()

    holder = asyncio.get_running_loop().run_in_executor(None, hold_the_lock)
    await asyncio.sleep(0.1)
    await db.update_game(quick, announced=7)  # waits for the lock instead of failing
    await holder
    row = await db.get_game(quick)
    assert row is not None and row.announced == 7


async def test_idle_games_are_those_without_deadline_unchanged_since(db: Database) -> None:
    """The watchdog's look at games without a turn timer: no deadline, updated_at at or before `before`."""
    quiet = await active_game(db, 1)
    timed = await active_game(db, 2)
    busy = await active_game(db, 3)
    await db.update_game(quiet, deadline=None, updated_at=NOW - timedelta(days=2))
    await db.update_game(timed, deadline=NOW - timedelta(days=1), updated_at=NOW - timedelta(days=3))
    await db.update_game(busy, deadline=None, updated_at=NOW)
    assert [g.id for g in await db.idle_games(NOW - timedelta(days=1))] == [quiet]
    assert [g.id for g in await db.idle_games(NOW - timedelta(days=3))] == []
    assert [g.id for g in await db.idle_games(NOW)] == [quiet, busy]
    row = await db.get_game(quiet)
    assert row is not None and row.updated_at == NOW - timedelta(days=2)
    await db.finish_game(quiet, "abandoned", [])
    assert [g.id for g in await db.idle_games(NOW)] == [busy]


async def test_start_game_stores_the_initial_state_once(db: Database) -> None:
    game_id = await new_game(db)
    assert await db.start_game(game_id, {"turn": 0, "hands": [[1, 2], [3]]}, NOW) == 1
    assert await db.load_state(game_id) == ({"turn": 0, "hands": [[1, 2], [3]]}, 1)
    with pytest.raises(GameNotActive):
        await db.start_game(game_id, {"turn": 99}, NOW)
    assert await db.load_state(game_id) == ({"turn": 0, "hands": [[1, 2], [3]]}, 1)
    with pytest.raises(GameNotFound):
        await db.start_game(777_777, {}, None)


async def test_due_games_and_reminders(db: Database) -> None:
    early = await active_game(db, 1)
    late = await active_game(db, 2)
    await db.update_game(early, deadline=NOW - timedelta(minutes=5), reminded=True)
    await db.update_game(late, deadline=NOW + timedelta(minutes=5))
    assert [g.id for g in await db.due_games(NOW)] == [early]
    assert [g.id for g in await db.due_games(NOW + timedelta(hours=1))] == [early, late]
    row = await db.get_game(early)
    assert row is not None and row.reminded is True and row.deadline == NOW - timedelta(minutes=5)
    # a new deadline from an action starts un-reminded
    await db.commit_action(early, 1, 0, ["x"], {"turn": 1}, deadline=NOW + timedelta(hours=2))
    row = await db.get_game(early)
    assert row is not None and row.reminded is False and row.deadline == NOW + timedelta(hours=2)
    # an action that leaves the deadline alone keeps it; None clears it
    await db.commit_action(early, 2, 0, ["x"], {"turn": 2})
    assert (await db.get_game(early)).deadline == NOW + timedelta(hours=2)  # type: ignore[union-attr]
    await db.commit_action(early, 3, 0, ["x"], {"turn": 3}, deadline=None)
    assert [g.id for g in await db.due_games(NOW + timedelta(days=9))] == [late]
    with pytest.raises(ValueError, match="timezone-aware"):
        await db.commit_action(late, 1, 0, ["x"], {}, deadline=datetime(2030, 1, 1))


async def test_finish_game_stores_results_and_stops_play(db: Database) -> None:
    game_id = await active_game(db)
    results = [
        {
            "seat": 0,
            "user_id": 11,
            "ai_level": None,
            "rank": 1,
            "score": 31,
            "breakdown": {"eggs": 20, "vp": 11},
        },
        {"seat": 1, "user_id": 12, "ai_level": None, "rank": 2, "score": 18.5, "breakdown": {}},
    ]
    await db.finish_game(game_id, "finished", results)
    await db.finish_game(game_id, "finished", results)  # idempotent: a retry does not duplicate results
    stored = await db.results(game_id)
    assert [(r.seat, r.user_id, r.rank, r.score, r.breakdown) for r in stored] == [
        (0, 11, 1, 31.0, {"eggs": 20, "vp": 11}),
        (1, 12, 2, 18.5, {}),
    ]
    row = await db.get_game(game_id)
    assert row is not None and row.status == "finished" and row.deadline is None
    with pytest.raises(GameNotActive, match="finished"):
        await db.commit_action(game_id, 1, 0, ["x"], {"turn": 1})
    with pytest.raises(ValueError, match="finished' or 'abandoned"):
        await db.finish_game(game_id, "won", [])
    assert await db.actions(game_id) == []


# --- the hot path ----------------------------------------------------------------------------------------
async def test_commit_action_appends_the_log_and_bumps_the_version(db: Database) -> None:
    game_id = await active_game(db)
    assert await db.commit_action(game_id, 1, 0, ["card-3"], {"turn": 1}) == 2
    assert await db.commit_action(game_id, 2, 1, ["a", "b"], {"turn": 2}, afk=True, status="finished") == 3
    log = await db.actions(game_id)
    assert [(a.seq, a.seat, a.action, a.afk) for a in log] == [
        (2, 0, ["card-3"], False),
        (3, 1, ["a", "b"], True),
    ]
    assert log[0].at.tzinfo is not None and log[0].at <= log[1].at
    assert await db.load_state(game_id) == ({"turn": 2}, 3)
    row = await db.get_game(game_id)
    assert row is not None and row.status == "finished"


async def test_a_stale_version_conflicts_and_writes_nothing(db: Database) -> None:
    game_id = await active_game(db)
    await db.commit_action(game_id, 1, 0, ["a"], {"turn": 1})
    with pytest.raises(VersionConflict, match="already decided") as caught:
        await db.commit_action(game_id, 1, 1, ["b"], {"turn": 666})
    assert (caught.value.expected, caught.value.actual) == (1, 2)
    assert await db.load_state(game_id) == ({"turn": 1}, 2)
    assert [a.action for a in await db.actions(game_id)] == [["a"]]
    with pytest.raises(GameNotFound):
        await db.commit_action(31337, 1, 0, ["a"], {})
    with pytest.raises(TypeError, match="list of choice ids"):
        await db.commit_action(game_id, 2, 0, "a", {})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="JSON object"):
        await db.commit_action(game_id, 2, 0, ["a"], [1, 2])  # type: ignore[arg-type]
    assert await db.load_state(game_id) == ({"turn": 1}, 2)


async def test_commit_actions_writes_a_whole_turn_in_one_transaction(db: Database) -> None:
    game_id = await active_game(db)
    batches = db.writer.batches
    version = await db.commit_actions(
        game_id,
        1,
        [Move(0, ["card-3"]), Move(1, ["ai-pick"]), Move(1, ["x", "y"], afk=True)],
        {"turn": 3},
        deadline=NOW + timedelta(minutes=5),
        seats={1: {"afk_count": 2, "ai_controlled": True}},
    )
    assert version == 4
    assert db.writer.batches == batches + 1  # one transaction, not one per move
    log = await db.actions(game_id)
    assert [(a.seq, a.seat, a.action, a.afk) for a in log] == [
        (2, 0, ["card-3"], False),
        (3, 1, ["ai-pick"], False),
        (4, 1, ["x", "y"], True),
    ]
    assert await db.load_state(game_id) == ({"turn": 3}, 4)
    row = await db.get_game(game_id)
    assert row is not None and row.deadline == NOW + timedelta(minutes=5) and not row.reminded
    assert [(s.afk_count, s.ai_controlled) for s in await db.seats(game_id)] == [(0, False), (2, True)]


async def test_commit_actions_refused_or_failing_writes_none_of_its_moves(db: Database) -> None:
    game_id = await active_game(db)
    with pytest.raises(VersionConflict):
        await db.commit_actions(
            game_id, 2, [Move(0, ["a"]), Move(1, ["b"])], {"turn": 666}, seats={0: {"afk_count": 5}}
        )
    with pytest.raises(LookupError, match="seat"):  # no seat 7: the moves with it are not written either
        await db.commit_actions(
            game_id, 1, [Move(0, ["a"]), Move(1, ["b"])], {"turn": 666}, seats={7: {"afk_count": 1}}
        )
    with pytest.raises(ValueError, match="cannot set"):
        await db.commit_actions(game_id, 1, [Move(0, ["a"])], {}, seats={0: {"version": 9}})
    with pytest.raises(ValueError, match="at least one move"):
        await db.commit_actions(game_id, 1, [], {})
    assert await db.load_state(game_id) == ({"turn": 0}, 1)
    assert await db.actions(game_id) == []
    assert [s.afk_count for s in await db.seats(game_id)] == [0, 0]


async def test_many_games_share_a_transaction_and_a_conflict_fails_only_its_game(db: Database) -> None:
    ids = [await active_game(db, 1000 + i) for i in range(30)]
    batches_before = db.writer.batches
    calls = [db.commit_action(g, 1, 0, ["go"], {"game": g, "turn": 1}) for g in ids]
    calls.append(db.commit_action(ids[7], 5, 0, ["stale"], {"bad": True}))  # wrong version
    results = await asyncio.gather(*calls, return_exceptions=True)
    assert results[:30] == [2] * 30
    assert isinstance(results[30], VersionConflict)
    assert db.writer.batches - batches_before < 5  # grouped, not one transaction per action
    for g in ids:
        assert await db.load_state(g) == ({"game": g, "turn": 1}, 2)
        assert len(await db.actions(g)) == 1


async def test_two_actions_of_one_game_in_one_batch_chain_versions(db: Database) -> None:
    game_id = await active_game(db)
    first, second, stale = await asyncio.gather(
        db.commit_action(game_id, 1, 0, ["a"], {"turn": 1}),
        db.commit_action(game_id, 2, 1, ["b"], {"turn": 2}),  # expects the first one's version: fine
        db.commit_action(game_id, 2, 0, ["c"], {"turn": 99}),  # the same version again: conflict
        return_exceptions=True,
    )
    assert (first, second) == (2, 3)
    assert isinstance(stale, VersionConflict) and stale.actual == 3
    assert await db.load_state(game_id) == ({"turn": 2}, 3)
    assert [(a.seq, a.action) for a in await db.actions(game_id)] == [(2, ["a"]), (3, ["b"])]


async def test_two_tasks_racing_on_one_game_get_exactly_one_winner_per_version(db: Database) -> None:
    game_id = await active_game(db, state={"log": []})
    wins: dict[str, list[int]] = {"A": [], "B": []}

    async def player(name: str) -> None:
        for _ in range(40):
            state, version = await db.load_state(game_id)
            state["log"].append(name)
            with contextlib.suppress(VersionConflict):
                wins[name].append(await db.commit_action(game_id, version, 0, [name], state))
            await asyncio.sleep(0)

    await asyncio.gather(player("A"), player("B"))
    won = sorted(wins["A"] + wins["B"])
    final, version = await db.load_state(game_id)
    assert won == list(range(2, version + 1))  # every version has exactly one winner
    log = await db.actions(game_id)
    assert [a.seq for a in log] == won
    assert final["log"] == [a.action[0] for a in log]  # the state holds each accepted action once
    # They really raced: some submissions lost. (Which task wins is up to the scheduler and the group
    # writer's arrival order, so one task may win every round under load; that is fine.)
    assert 0 < len(won) < 80


# --- broken rows --------------------------------------------------------------------------------------------
async def test_an_unreadable_state_breaks_only_its_game(db: Database) -> None:
    good = await active_game(db, 1)
    bad = await active_game(db, 2)
    await raw(db, "UPDATE games SET state = :junk WHERE id = :id", junk='{"turn": 1, "hand": [tru', id=bad)

    row = await db.get_game(bad)  # listing still works; the state just reads as missing
    assert row is not None and row.state is None
    with pytest.raises(BrokenGame, match="not readable JSON") as caught:
        await db.load_state(bad)
    assert caught.value.game_id == bad
    row = await db.get_game(bad)
    assert row is not None and row.status == "broken" and "not readable JSON" in (row.broken_reason or "")
    with pytest.raises(BrokenGame):  # stays broken, with its reason
        await db.load_state(bad)
    with pytest.raises(GameNotActive, match="broken"):
        await db.commit_action(bad, 1, 0, ["x"], {"turn": 2})
    assert [g.id for g in await db.due_games(NOW + timedelta(days=1))] == [good]  # the broken one is out
    assert await db.commit_action(good, 1, 0, ["x"], {"turn": 1}) == 2
    assert await db.load_state(good) == ({"turn": 1}, 2)


async def test_a_state_that_is_not_an_object_is_broken_too(db: Database) -> None:
    game_id = await active_game(db)
    await raw(db, "UPDATE games SET state = '[1, 2, 3]' WHERE id = :id", id=game_id)
    with pytest.raises(BrokenGame, match="JSON list, not an object"):
        await db.load_state(game_id)
    await db.mark_broken(game_id, "x" * 2000)  # an over-long reason is cut, not an error
    row = await db.get_game(game_id)
    assert row is not None and row.broken_reason == "x" * 500


# --- ratings ------------------------------------------------------------------------------------------------
async def test_ratings_upsert_and_leaderboard(db: Database) -> None:
    def rating(user: int, mu: float, sigma: float, games: int = 1) -> RatingRow:
        return RatingRow(
            guild_id=1,
            game_key="eggs-empires",
            user_id=user,
            mu=mu,
            sigma=sigma,
            games=games,
            wins=0,
            updated_at=NOW,
        )

    await db.save_ratings([rating(1, 30, 1), rating(2, 40, 8), rating(3, 25, 0.5)])
    await db.save_ratings([rating(3, 35, 0.5, games=2)])  # replaces user 3's row
    board = await db.leaderboard(1, "eggs-empires")
    assert [(r.user_id, r.mu) for r in board] == [(3, 35), (1, 30), (2, 40)]  # by mu - 3 sigma
    assert (await db.ratings(1, "eggs-empires", [3]))[3].games == 2
    assert await db.leaderboard(2, "eggs-empires") == []


def test_game_row_type_is_exported() -> None:
    assert GameRow.__tablename__ == "games"


async def test_sqlite_writer_waits_off_the_loop_while_another_connection_holds_the_lock(db: Database) -> None:
    if db.engine.dialect.name != "sqlite":
        pytest.skip("SQLite's single write lock")
    game_id = await active_game(db)
    async with db.engine.connect() as other:
        await other.execution_options(storage_begin_immediate=True)
        await other.begin()  # BEGIN IMMEDIATE: this connection now holds the write lock
        await other.execute(text("UPDATE games SET turn_seconds = 5 WHERE id = :id"), {"id": game_id})
        pending = asyncio.ensure_future(db.commit_action(game_id, 1, 0, ["a"], {"turn": 1}))
        ticks = 0
        while db.writer.waited_for_lock == 0:  # the loop keeps running while the writer waits
            await asyncio.sleep(0.01)
            ticks += 1
            assert ticks < 500
        assert not pending.done()
        await other.commit()
    assert await pending == 2
    row = await db.get_game(game_id)
    assert row is not None and row.turn_seconds == 5 and row.version == 2


async def test_a_batch_that_fails_in_the_database_is_retried_so_only_the_bad_action_fails(db: Database) -> None:
    # A trigger stands in for any database-level failure of one action (disk, constraint, ...).
    if db.engine.dialect.name == "sqlite":
        await raw(
            db,
            "CREATE TRIGGER refuse_99 BEFORE INSERT ON actions WHEN NEW.seat = 99 "
            "BEGIN SELECT RAISE(ABORT, 'seat 99 refused'); END",
        )
    else:
        await raw(
            db,
            "CREATE FUNCTION refuse_99() RETURNS trigger AS $$ BEGIN "
            "IF NEW.seat = 99 THEN RAISE EXCEPTION 'seat 99 refused'; END IF; RETURN NEW; END $$ "
            "LANGUAGE plpgsql",
        )
        await raw(db, "CREATE TRIGGER refuse_99 BEFORE INSERT ON actions FOR EACH ROW EXECUTE FUNCTION refuse_99()")
    ids = [await active_game(db, 3000 + i) for i in range(4)]
    results = await asyncio.gather(
        *(db.commit_action(g, 1, 99 if g == ids[2] else 0, ["a"], {"g": g}) for g in ids), return_exceptions=True
    )
    assert [r for i, r in enumerate(results) if i != 2] == [2, 2, 2]
    assert isinstance(results[2], Exception) and "seat 99 refused" in str(results[2])
    assert await db.load_state(ids[2]) == ({"turn": 0}, 1)  # nothing of the failed action was written
    assert await db.actions(ids[2]) == []
    for g in (ids[0], ids[1], ids[3]):
        assert await db.load_state(g) == ({"g": g}, 2)
    assert await db.commit_action(ids[2], 1, 0, ["b"], {"g": "again"}) == 2  # the writer carries on
