"""Property: two Databases (two processes) committing to the same games at once, with right, stale and
future versions and seat changes mixed, never break a game: each accepted commit took the version after
the one it expected, the log holds exactly the accepted moves in version order with no gap, the state
and the seat are the last accepted commit's, every refusal is a VersionConflict that wrote nothing, and
a wave in which some commit expected a game's current version moves that game on.

On PostgreSQL this drives both of the group commit's paths: the one statement (storage.pg_direct) and
the locked transaction that takes the games it left (moved by the other writer, or with seat changes)."""

from __future__ import annotations

import asyncio

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage import Database, Move, VersionConflict

GAMES = 2
# One wave = commits submitted together: (writer 0 or 1, game index, version offset, changes a seat).
waves = st.lists(
    st.lists(
        st.tuples(st.integers(0, 1), st.integers(0, GAMES - 1), st.integers(-1, 2), st.booleans()),
        min_size=1,
        max_size=8,
    ),
    min_size=1,
    max_size=4,
)


async def run_plan(url: str, plan: list[list[tuple[int, int, int, bool]]]) -> None:
    async with await Database.open(url) as first, await Database.open(url) as second:
        writers = (first, second)
        ids = []
        for _ in range(GAMES):
            row = await first.create_game(
                guild_id=None, channel_id=1, game_key="k", options={}, host_id=1, seed=1, turn_seconds=None
            )
            assert row.id is not None
            await first.set_seats(row.id, [{"seat": 0, "user_id": 1}, {"seat": 1, "user_id": 2}])
            await first.start_game(row.id, {"last": None}, None)
            ids.append(row.id)
        version = dict.fromkeys(ids, 1)
        log: dict[int, list[str]] = {g: [] for g in ids}
        afk: dict[int, int] = dict.fromkeys(ids, 0)
        serial = 0
        for wave in plan:
            calls, commits = [], []
            for writer, index, offset, seat_change in wave:
                game_id = ids[index]
                serial += 1
                expected = version[game_id] + offset
                seats = {1: {"afk_count": serial}} if seat_change else None
                calls.append(
                    writers[writer].commit_actions(
                        game_id, expected, [Move(0, [f"a{serial}"])], {"last": f"a{serial}"}, seats=seats
                    )
                )
                commits.append((game_id, expected, serial, seat_change))
            results = await asyncio.gather(*calls, return_exceptions=True)
            accepted: dict[int, dict[int, tuple[int, bool]]] = {g: {} for g in ids}  # new version -> commit
            for result, (game_id, expected, label, seat_change) in zip(results, commits, strict=True):
                if isinstance(result, VersionConflict):
                    continue
                assert result == expected + 1, (result, expected)  # one move: the version after the expected
                assert result not in accepted[game_id]  # no version taken twice
                accepted[game_id][result] = (label, seat_change)
            for game_id in ids:
                taken = sorted(accepted[game_id])
                assert taken == list(range(version[game_id] + 1, version[game_id] + 1 + len(taken)))  # no gap
                if any(g == game_id and e == version[game_id] for g, e, _l, _s in commits):
                    assert taken  # someone expected the current version: the game moved on
                for new in taken:
                    label, seat_change = accepted[game_id][new]
                    log[game_id].append(f"a{label}")
                    if seat_change:
                        afk[game_id] = label
                version[game_id] += len(taken)
        for game_id in ids:
            state, stored = await first.load_state(game_id)
            assert stored == version[game_id]
            assert state == {"last": log[game_id][-1] if log[game_id] else None}
            actions = await second.actions(game_id)
            assert [a.action[0] for a in actions] == log[game_id]
            assert [a.seq for a in actions] == list(range(2, stored + 1))
            assert [s.afk_count for s in await second.seats(game_id)] == [0, afk[game_id]]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(plan=waves)
def test_two_writers_never_break_a_game(db_url: str, plan: list[list[tuple[int, int, int, bool]]]) -> None:
    asyncio.run(run_plan(db_url, plan))
