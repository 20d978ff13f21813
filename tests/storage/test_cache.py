"""The storage cache (`Database.open(cache=True)`): whatever writes go through the Database, one at a
time or several at once, what it answers from its copy equals what the database holds."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from storage import UNCHANGED, Database, GameRow, Move, SeatRow, StorageError

BASE = datetime(2031, 5, 1, tzinfo=UTC)

# One write: its kind and a small integer that picks its arguments.
writes = st.tuples(
    st.sampled_from(["seats", "game", "seat", "start", "commit", "turn", "stale", "broken", "finish"]),
    st.integers(0, 5),
)
# Waves of writes sent at once (one wave of one write: one at a time), each wave with reads in between.
plans = st.lists(st.lists(writes, min_size=1, max_size=4), min_size=1, max_size=8)


def seen(found: tuple[GameRow, list[SeatRow]] | None) -> Any:
    if found is None:
        return None
    row, seats = found
    return row.model_dump(), [s.model_dump() for s in seats]


async def write(db: Database, game_id: int, kind: str, n: int) -> None:
    if kind == "seats":
        await db.set_seats(
            game_id,
            [
                {
                    "seat": i,
                    "user_id": 100 + i if i % 2 == 0 else None,
                    "ai_level": None if i % 2 == 0 else "random",
                    "name": f"p{i}",
                }
                for i in range(n % 4 + 1)
            ],
        )
    elif kind == "game":
        fields: list[dict[str, Any]] = [
            {"deadline": BASE + timedelta(seconds=n)},
            {"deadline": None},
            {"thread_id": 500 + n},
            {"options": {"n": n}},
            {"reminded": True},
            {"table_message_id": 900 + n, "host_id": 7},
        ]
        await db.update_game(game_id, **fields[n])
    elif kind == "seat":
        await db.update_seat(game_id, n % 3, afk_count=n, ai_controlled=n > 2, locale=f"l{n}", dm_message_id=800 + n)
    elif kind == "start":
        await db.start_game(game_id, {"n": n}, BASE if n % 2 else None)
    elif kind in ("commit", "stale"):
        version = (await db.load_state(game_id))[1] - (kind == "stale")
        deadline: Any = [UNCHANGED, None, BASE + timedelta(minutes=n)][n % 3]
        await db.commit_action(game_id, version, 0, [f"a{n}"], {"n": n}, deadline=deadline)
    elif kind == "turn":  # several moves, a deadline and seat changes in one commit
        version = (await db.load_state(game_id))[1]
        seat = n % 3
        await db.commit_actions(
            game_id,
            version,
            [Move(0, [f"a{n}"]), Move(seat, ["b"], afk=True)],
            {"n": n},
            deadline=BASE + timedelta(hours=n),
            seats={seat: {"afk_count": n, "dm_failed": True}},
        )
    elif kind == "broken":
        await db.mark_broken(game_id, f"test {n}")
    else:
        await db.finish_game(game_id, "abandoned", [])


async def run_plan(url: str, plan: list[list[tuple[str, int]]]) -> None:
    async with await Database.open(url, cache=True) as cached, await Database.open(url) as fresh:
        row = await cached.create_game(
            guild_id=1, channel_id=2, game_key="k", options={}, host_id=1, seed=3, turn_seconds=60
        )
        assert row.id is not None
        game_id = row.id
        for wave in plan:
            reads = [cached.game_and_seats(game_id)]  # a read racing the writes
            outcomes = await asyncio.gather(
                *(write(cached, game_id, k, n) for k, n in wave), *reads, return_exceptions=True
            )
            for outcome in outcomes:  # refusals are expected (a stale commit, a game not active...)
                assert not isinstance(outcome, BaseException) or isinstance(outcome, StorageError | LookupError), (
                    outcome
                )
            truth = seen(await fresh.game_and_seats(game_id))
            assert seen(await cached.game_and_seats(game_id)) == truth, wave
            assert (await cached.game_row(game_id)).model_dump() == truth[0]  # type: ignore[union-attr]
            assert [s.model_dump() for s in await cached.seats(game_id)] == truth[1]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(plan=plans)
@example(plan=[[("seats", 2)], [("seat", 1)], [("start", 0)], [("commit", 1)], [("game", 0)], [("finish", 0)]])
@example(plan=[[("seats", 3)], [("start", 1)], [("commit", 0), ("seat", 1), ("game", 2), ("stale", 2)]])
@example(plan=[[("seats", 3)], [("start", 0)], [("turn", 1), ("seat", 2), ("turn", 5)], [("turn", 2)]])
def test_the_cached_copy_follows_every_write(db_url: str, plan: list[list[tuple[str, int]]]) -> None:
    asyncio.run(run_plan(db_url, plan))


async def test_rows_handed_out_are_copies(db: Database) -> None:
    async with await Database.open(db.url.render_as_string(hide_password=False), cache=True) as cached:
        row = await cached.create_game(
            guild_id=1, channel_id=2, game_key="k", options={"a": 1}, host_id=1, seed=3, turn_seconds=None
        )
        assert row.id is not None
        await cached.set_seats(row.id, [{"seat": 0, "user_id": 5, "name": "x"}])
        found = await cached.game_and_seats(row.id)
        assert found is not None
        found[0].options["a"] = 2
        found[0].version = 99
        found[1][0].afk_count = 7
        again = await cached.game_and_seats(row.id)
        assert again is not None
        assert (again[0].options, again[0].version, again[1][0].afk_count) == ({"a": 1}, 0, 0)


async def test_a_commit_refused_because_another_database_moved_on_drops_the_copy(db: Database) -> None:
    """Not a supported set-up (the cache is for a process alone on its database), but it heals: the
    refusal drops the copy, and the next read sees the other's write."""
    async with await Database.open(db.url.render_as_string(hide_password=False), cache=True) as cached:
        row = await cached.create_game(
            guild_id=1, channel_id=2, game_key="k", options={}, host_id=1, seed=3, turn_seconds=None
        )
        assert row.id is not None
        await cached.start_game(row.id, {}, None)
        assert (await cached.game_row(row.id)).version == 1  # type: ignore[union-attr]
        await db.commit_action(row.id, 1, 0, ["x"], {})
        assert (await cached.game_row(row.id)).version == 1  # type: ignore[union-attr]  # not seen yet
        try:
            await cached.commit_action(row.id, 1, 0, ["y"], {})
        except StorageError:
            pass
        else:
            raise AssertionError("a stale commit was accepted")
        assert (await cached.game_row(row.id)).version == 2  # type: ignore[union-attr]
