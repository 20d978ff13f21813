"""The crash proof, short: the real bot in a subprocess, SIGKILLed while people play, restarted each time.

The long run is `python -m bench crash --kills 100`; this one kills twice, with short gaps so the
kills land while decisions are in flight, and checks the same invariants.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import games
from bench.crash import crash
from storage import Database
from table import TableService, TableUpdate
from tests.test_table import KEY, Recorder, first_choice, lobby_of


@pytest.mark.slow
async def test_sigkill_loses_no_acknowledged_decision_and_every_game_finishes(tmp_path: Path) -> None:
    figures = await crash(2, tables=1, seed=7, workdir=tmp_path, max_gap=1.5)
    assert figures.problems == []
    assert figures.kills == figures.kills_survived == 2
    assert figures.decisions_acknowledged > 10
    assert figures.decisions_lost == 0
    assert figures.games_started >= 1 and figures.games_finished == figures.games_started
    assert figures.unanswered == 0
    assert figures.old_buttons_clicked > 0 and figures.old_buttons_dead == 0
    assert figures.bot_errors == 0, (tmp_path / "bot.log").read_text()[-3000:]


# --- start-up after a kill between a commit and what follows it (found by the crash proof) ------------
class Died(Exception):
    """The process stops here (as SIGKILL would): nothing after this point happens."""


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(f"sqlite+aiosqlite:///{tmp_path / 'crash.sqlite3'}")
    try:
        yield database
    finally:
        await database.close()


async def _started_game(db: Database) -> tuple[TableService, int]:
    table = TableService(db, Recorder())
    game_id = await lobby_of(table, 2)
    await table.start(game_id, 100)
    await db.update_game(game_id, table_message_id=1)  # the table message was posted
    return table, game_id


async def test_start_up_sends_the_new_prompts_a_killed_process_never_sent(db: Database) -> None:
    table, game_id = await _started_game(db)
    assert await first_choice(table, game_id, 101)  # seat 1 decides; the turn waits for seat 0

    async def die(update: TableUpdate) -> None:
        raise Died

    table.notifier.publish = die  # type: ignore[method-assign]
    with pytest.raises(Died):  # seat 0's decision resolves the turn, and the process dies before the DMs
        await first_choice(table, game_id, 100)
    version = (await db.get_game(game_id)).version  # type: ignore[union-attr]

    recorder = Recorder(db)
    restarted = TableService(db, recorder)
    assert await restarted.resume() == 1
    [update] = recorder.updates
    assert update.events, "the turn the killed process never posted is posted now"
    assert sorted(n.seat.seat for n in update.dms) == [0, 1]  # both must decide again: both get their DM
    assert all(n.prompt is not None and n.version == version for n in update.dms)
    assert len(await db.actions(game_id)) == version - 1  # nothing decided on their behalf
    assert await restarted.resume() == 0  # shown once: a second pass sends nothing


async def test_start_up_finishes_a_game_whose_last_decision_was_committed(db: Database) -> None:
    table, game_id = await _started_game(db)

    async def die(*args: Any, **kwargs: Any) -> None:
        raise Died

    db_finish = db.finish_game
    db.finish_game = die  # type: ignore[method-assign]

    async def play_to_the_end() -> None:
        for _ in range(500):
            for user in (100, 101):
                await first_choice(table, game_id, user)

    with pytest.raises(Died):  # the last decision is committed, the process dies before finishing
        await play_to_the_end()
    db.finish_game = db_finish  # type: ignore[method-assign]
    row = await db.get_game(game_id)
    assert row is not None and row.status == "active"
    assert games.get(KEY).outcome(games.get(KEY).from_json(row.state)) is not None  # over, but not finished

    recorder = Recorder()
    assert await TableService(db, recorder).resume() == 1
    row = await db.get_game(game_id)
    assert row is not None and row.status == "finished"
    assert len(await db.results(game_id)) == 2
    assert recorder.updates[-1].outcome is not None  # the final table and DMs go out
