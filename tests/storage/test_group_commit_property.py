"""Property: whatever mix of right, stale and future versions arrives at once, the group-commit writer
answers exactly as if the actions had been applied one by one in arrival order."""

from __future__ import annotations

import asyncio

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage import Database, VersionConflict

GAMES = 3
# One wave = actions submitted together: (game index, version offset from the wave's start).
waves = st.lists(
    st.lists(st.tuples(st.integers(0, GAMES - 1), st.integers(-1, 2)), min_size=1, max_size=8),
    min_size=1,
    max_size=4,
)


async def run_plan(url: str, plan: list[list[tuple[int, int]]]) -> None:
    async with await Database.open(url) as db:
        ids = []
        for _ in range(GAMES):
            row = await db.create_game(
                guild_id=None, channel_id=1, game_key="k", options={}, host_id=1, seed=1, turn_seconds=None
            )
            assert row.id is not None
            await db.start_game(row.id, {"log": []}, None)
            ids.append(row.id)
        model_version = dict.fromkeys(ids, 1)
        model_log: dict[int, list[str]] = {g: [] for g in ids}
        serial = 0
        for wave in plan:
            at_start = dict(model_version)
            calls, expected_results = [], []
            for index, offset in wave:
                game_id = ids[index]
                expected_version = at_start[game_id] + offset
                serial += 1
                label = f"a{serial}"
                calls.append(db.commit_action(game_id, expected_version, 0, [label], {"last": label}))
                if expected_version == model_version[game_id]:  # the model: one by one, in order
                    model_version[game_id] += 1
                    model_log[game_id].append(label)
                    expected_results.append(model_version[game_id])
                else:
                    expected_results.append(None)
            results = await asyncio.gather(*calls, return_exceptions=True)
            for got, want in zip(results, expected_results, strict=True):
                if want is None:
                    assert isinstance(got, VersionConflict), got
                else:
                    assert got == want
        for game_id in ids:
            state, version = await db.load_state(game_id)
            assert version == model_version[game_id]
            log = await db.actions(game_id)
            assert [a.action[0] for a in log] == model_log[game_id]
            assert [a.seq for a in log] == list(range(2, version + 1))
            assert state == ({"last": model_log[game_id][-1]} if model_log[game_id] else {"log": []})


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(plan=waves)
def test_group_commit_answers_like_serial_application(db_url: str, plan: list[list[tuple[int, int]]]) -> None:
    asyncio.run(run_plan(db_url, plan))
