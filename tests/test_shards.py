"""Sharding: shard settings, which process owns which games, and two processes on one database.

The in-process tests here run two `TableService`s, each with its own `Database` on the same file or
PostgreSQL database, as two bot processes would. The real two-process test (bot subprocesses on the
loopback fake Discord, one killed and restarted) is further down.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

import bot.__main__ as entry
import games as engines
from bench import _crash_run as crash_bench
from bench._crash_run import count_errors
from bench._sharding import TWO, ShardedRun, guilds_on_every_shard, spawn
from bot.app.client import TableBot
from bot.ops.settings import Settings
from fakediscord.loopback import Loopback
from harness.run_bot import BotProcess
from storage import Database, Shards, shard_of
from storage.types import utcnow
from table import Stale, TableService
from table.stalls import stall_report
from tests.conftest import Keeper
from tests.storage.conftest import BACKENDS, PG_URL, create_pg_database, drop_pg_database
from tests.test_table import KEY, Clock, Recorder, lobby_of


def guild_on(shard: int, count: int, n: int = 1) -> int:
    """A guild id (snowflake) that Discord puts on `shard` of `count`."""
    return ((n * count + shard) << 22) | 0x2A


# --- settings and the command line ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "ids"), [("0-3", [0, 1, 2, 3]), ("0,2,5-7", [0, 2, 5, 6, 7]), (" 4 ", [4]), ("6, 0-1", [0, 1, 6])]
)
def test_shard_ids_accept_ranges_and_lists(text: str, ids: list[int]) -> None:
    assert Settings(shard_ids=text, shard_count=8).shard_ids == ids


@pytest.mark.parametrize(
    ("fields", "complaint"),
    [
        ({"shard_ids": "0-3"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"shard_ids": "6-9", "shard_count": 8}, "[8, 9] are outside 0-7"),
        ({"shard_ids": "3-1", "shard_count": 8}, "runs backwards"),
        ({"shard_ids": "0-2,2", "shard_count": 8}, "names a shard twice"),
        ({"shard_ids": "one", "shard_count": 8}, "not a shard id"),
        ({"shard_count": 0}, "at least 1"),
    ],
)
def test_bad_shard_settings_are_refused(fields: dict[str, Any], complaint: str) -> None:
    with pytest.raises(ValueError, match=complaint.replace("[", r"\[")):
        Settings(**fields)


def test_command_line_overrides_the_environment(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    seen: list[Settings] = []

    async def run(settings: Settings) -> int:
        seen.append(settings)
        return 0

    monkeypatch.setattr(entry, "run", run)
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("SHARD_IDS", "0-1")
    monkeypatch.setenv("SHARD_COUNT", "4")
    assert entry.main([]) == 0
    assert entry.main(["--shard-ids", "2-3"]) == 0
    assert entry.main(["--shard-ids", "4-7", "--shard-count", "8"]) == 0
    assert [(s.shard_ids, s.shard_count) for s in seen] == [([0, 1], 4), ([2, 3], 4), ([4, 5, 6, 7], 8)]
    # Bad values end with exit code 2 and one clear line, before anything connects.
    assert entry.main(["--shard-ids", "0-5"]) == 2
    assert "shard ids [4, 5] are outside 0-3 (SHARD_COUNT=4)" in capsys.readouterr().err
    with pytest.raises(SystemExit) as ended:
        entry.main(["--shard-count", "many"])
    assert ended.value.code == 2 and "--shard-count: invalid int value" in capsys.readouterr().err
    assert len(seen) == 3


@pytest.mark.parametrize(
    ("fields", "syncs"),
    [
        ({}, True),
        ({"shard_count": 4}, True),
        ({"shard_ids": "0-1", "shard_count": 4}, True),
        ({"shard_ids": "2-3", "shard_count": 4}, False),
        ({"sync_commands": False}, False),
    ],
)
def test_only_the_process_with_shard_zero_syncs_commands(fields: dict[str, Any], syncs: bool) -> None:
    bot = TableBot(Settings(discord_token="x", **fields))
    assert bot.syncs_commands is syncs
    assert bot.shard_ids == (Settings(**fields).shard_ids)


def test_shard_of_is_discords_rule() -> None:
    import discord

    for guild_id in (0, 1 << 22, 81384788765712384, 2**63 - 1, guild_on(5, 8)):
        guild = discord.Object(guild_id)
        for count in (1, 2, 3, 8, 16):
            assert shard_of(guild.id, count) == (guild.id >> 22) % count
    assert shard_of(None, 8) == 0  # DMs come on shard 0


# --- two processes on one database ---------------------------------------------------------------
@pytest.fixture(params=BACKENDS)
async def url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'shared.sqlite3'}"
        return
    created = await create_pg_database()
    try:
        yield created
    finally:
        await drop_pg_database(created)


@pytest.fixture
async def two(url: str) -> AsyncIterator[tuple[Database, Database]]:
    first = await Database.open(url)
    second = await Database.open(url)
    try:
        yield first, second
    finally:
        await first.close()
        await second.close()


async def test_owned_games_are_filtered_in_sql_by_discords_rule(two: tuple[Database, Database]) -> None:
    db, _ = two
    clock = Clock()
    table = TableService(db, clock=clock)
    guilds: list[int | None] = [None, *(guild_on(s, 8, n) for s in range(8) for n in (1, 7)), 2**62 + 12345]
    owner: dict[int, int | None] = {}
    for channel, guild in enumerate(guilds):
        row = await table.create_lobby(
            guild_id=guild, channel_id=1000 + channel, game_key=KEY, host_id=1, host_name="H", turn_seconds=60
        )
        assert row.id is not None
        await table.join(row.id, 2, "J")
        await table.start(row.id, 1)
        owner[row.id] = guild
    later = clock.now + timedelta(hours=1)
    everything = {g.id for g in await db.due_games(later)}
    assert everything == set(owner)
    for count, splits in ((8, [{0, 1, 2, 3}, {4, 5, 6, 7}]), (3, [{0}, {1, 2}]), (8, [{s} for s in range(8)])):
        parts = []
        for ids in splits:
            shards = Shards.of(ids, count)
            due = {g.id for g in await db.due_games(later, shards)}
            active = {g.id for g in await db.active_games(shards)}
            expected = {game for game, guild in owner.items() if shard_of(guild, count) in ids}
            assert due == active == expected
            parts.append(due)
        assert set().union(*parts) == everything and sum(map(len, parts)) == len(everything)  # a partition


async def _card_phase(table: TableService, game_id: int) -> None:
    """Past the mulligan: both players keep their hands."""
    for user in (100, 101):
        notice = await table.private_view(game_id, user)
        assert notice.prompt is not None and notice.prompt.kind == "mulligan"
        await table.decide(game_id, user, notice.seat.seat, notice.version, ["keep"])


async def test_a_dm_click_on_shard_zero_for_another_process_game_is_safe(two: tuple[Database, Database]) -> None:
    """DMs reach the process of shard 0; the game's own process runs its timers. Neither's caches may
    let an old button decide in a later turn, and a lost race changes nothing."""
    clock = Clock()
    count = 2
    dm_side = TableService(two[0], Recorder(), clock=clock, shards=Shards.of([0], count))
    owner = TableService(two[1], Recorder(), clock=clock, shards=Shards.of([1], count))
    row = await owner.create_lobby(
        guild_id=guild_on(1, count), channel_id=10, game_key=KEY, host_id=100, host_name="Alice", turn_seconds=60
    )
    assert row.id is not None
    game_id = row.id
    await owner.join(game_id, 101, "Bob")
    await owner.start(game_id, 100)
    await _card_phase(dm_side, game_id)
    bob_old = await dm_side.private_view(game_id, 101)
    alice = await dm_side.private_view(game_id, 100)
    assert bob_old.prompt is not None and alice.prompt is not None
    pick = bob_old.prompt.pick
    # Alice answers her DM (shard 0's process); Bob does not, and his turn times out in the owner.
    await dm_side.decide(game_id, 100, 0, alice.version, [c.id for c in alice.prompt.choices[:pick]])
    assert await dm_side.tick() == 0  # not its game, even when due
    clock.now += timedelta(minutes=1)
    assert await dm_side.tick() == 0
    assert await owner.tick() == 1  # the reminder
    clock.now += timedelta(minutes=1)
    assert await owner.tick() == 1  # the AI plays for Bob
    log = [(a.seat, a.afk) for a in await two[0].actions(game_id)]
    assert log[-1] == (1, True)
    # Bob's old DM button, clicked a turn later: that offer was answered by the AI. The DM process
    # must see that, though its own caches predate it.
    bob_new = await owner.private_view(game_id, 101)
    while bob_new.prompt is None or bob_new.prompt.kind != bob_old.prompt.kind:  # collecting comes first
        for user in (100, 101):
            notice = await owner.private_view(game_id, user)
            if notice.prompt is not None:
                choice = [c.id for c in notice.prompt.choices[: notice.prompt.pick]]
                await owner.decide(game_id, user, notice.seat.seat, notice.version, choice)
        bob_new = await owner.private_view(game_id, 101)
    log = [(a.seat, a.afk) for a in await two[0].actions(game_id)]
    # Worst case for the old button: what it names is legal now (an old card still in hand).
    still_legal = [c.id for c in bob_new.prompt.choices[:pick]]
    with pytest.raises(Stale):
        await dm_side.decide(game_id, 101, 1, bob_old.version, still_legal)
    assert [(a.seat, a.afk) for a in await two[0].actions(game_id)] == log
    # The fresh button works from the DM process.
    await dm_side.decide(game_id, 101, 1, bob_new.version, [c.id for c in bob_new.prompt.choices[:pick]])
    assert len(await two[0].actions(game_id)) == len(log) + 1


class Killed(BaseException):
    """The process died here (a SIGKILL): nothing after this point ran."""


@pytest.mark.parametrize("turn_seconds", [60, None])
async def test_a_game_ended_from_a_dm_is_finished_by_its_owner_when_the_dm_process_dies(
    two: tuple[Database, Database], monkeypatch: pytest.MonkeyPatch, turn_seconds: int | None
) -> None:
    """The stall of issue 20. Shard 0's process answers every DM, so it commits the click that ends a
    game of another process's guild; if it dies between that commit and finishing the game, the game
    stays "active" with nobody to move (its prompts are over) and its own process, which is running,
    never looks at it again: not at start-up (it did not restart), not by its timer (the deadline was
    set for a turn that is over, or there is no timer). The ending commit makes the game due at once,
    so the owner's next tick finishes it."""
    clock = Clock()
    dm_side = TableService(two[0], Recorder(), clock=clock, shards=Shards.of([0], 2))
    owner_recorder = Recorder()
    owner = TableService(two[1], owner_recorder, clock=clock, shards=Shards.of([1], 2))
    row = await owner.create_lobby(
        guild_id=guild_on(1, 2), channel_id=10, game_key=KEY, host_id=100, host_name="Alice", turn_seconds=turn_seconds
    )
    assert row.id is not None
    game_id = row.id
    await owner.add_ai(game_id, 100)
    await owner.start(game_id, 100)

    async def killed_before_finishing(*_args: object) -> None:
        raise Killed

    async def play_from_dms() -> None:
        for _ in range(2000):
            notice = await dm_side.private_view(game_id, 100)
            assert notice.prompt is not None
            choice = [c.id for c in notice.prompt.choices[: notice.prompt.pick]]
            await dm_side.decide(game_id, 100, 0, notice.version, choice)

    monkeypatch.setattr(two[0], "finish_game", killed_before_finishing)
    with pytest.raises(Killed):  # Alice plays from her DMs until her click ends the game
        await play_from_dms()
    monkeypatch.undo()
    data, _version = await two[1].load_state(game_id)
    game = engines.get(KEY)
    assert game.outcome(game.from_json(data)) is not None and game.prompts(game.from_json(data)) == []
    stuck = await two[1].get_game(game_id)
    assert stuck is not None and stuck.status == "active"  # over, and nobody can move
    report = await stall_report(two[1], game_id)  # what the crash bench prints when a game stalls
    assert report.over and report.awaited == [] and report.why == "the game is over but was never finished"
    assert str(report).startswith(f"game {game_id} (eggs-empires) active at v{stuck.version}: the game is over")
    # Shard 0's process comes back: not its game. The owner never stopped: its next tick finishes it.
    assert await TableService(two[0], Recorder(), clock=clock, shards=Shards.of([0], 2)).resume() == 0
    assert await owner.tick() == 1
    finished = await two[1].get_game(game_id)
    assert finished is not None and finished.status == "finished" and finished.deadline is None
    assert len(await two[1].results(game_id)) == 2
    assert owner_recorder.reminders == []  # nobody is asked to decide in a game that is over
    assert owner_recorder.updates[-1].outcome is not None  # the table shows the end
    assert await owner.tick() == 0


async def test_a_click_racing_the_owners_afk_timer_is_decided_once(two: tuple[Database, Database]) -> None:
    clock = Clock()
    dm_side = TableService(two[0], Recorder(), clock=clock, shards=Shards.of([0], 2))
    owner_recorder = Recorder()
    owner = TableService(two[1], owner_recorder, clock=clock, shards=Shards.of([1], 2))
    outcomes = []
    for round_ in range(6):
        row = await owner.create_lobby(
            guild_id=guild_on(1, 2, round_ + 1),
            channel_id=20 + round_,
            game_key=KEY,
            host_id=100,
            host_name="Alice",
            turn_seconds=60,
        )
        assert row.id is not None
        await owner.join(row.id, 101, "Bob")
        await owner.start(row.id, 100)
        await _card_phase(owner, row.id)
        clock.now += timedelta(seconds=31)
        await owner.tick()  # reminded
        clock.now += timedelta(seconds=31)
        notice = await dm_side.private_view(row.id, 101)
        assert notice.prompt is not None
        before = len(await two[0].actions(row.id))
        pick = [c.id for c in notice.prompt.choices[: notice.prompt.pick]]
        click = dm_side.decide(row.id, 101, 1, notice.version, pick)
        results = await asyncio.gather(click, owner.tick(), return_exceptions=True)
        actions = await two[0].actions(row.id)
        bobs = [a for a in actions[before:] if a.seat == 1]
        assert len(bobs) == 1  # Bob's turn was decided exactly once, by him or by the AI
        clicked = not isinstance(results[0], BaseException)
        assert clicked != bobs[0].afk, (results, bobs)
        if not clicked:
            assert isinstance(results[0], Stale)
        outcomes.append(clicked)
        # The version chain has no gap and no repeat: every commit built on the one before.
        assert [a.seq for a in actions] == list(range(2, 2 + len(actions)))
    assert owner_recorder.reminders  # the owner ran the timers


async def test_start_up_resumes_only_owned_games_left_mid_way(two: tuple[Database, Database]) -> None:
    """A process died after committing a human's decision, before the AI seats moved: whoever owns the
    guild moves them at start-up; a game that never got its table message gets one."""
    db = two[0]
    first = TableService(db)
    games_by_shard: dict[int, int] = {}
    for shard in (0, 1):
        row = await first.create_lobby(
            guild_id=guild_on(shard, 2),
            channel_id=30 + shard,
            game_key=KEY,
            host_id=100,
            host_name="Alice",
            turn_seconds=None,
        )
        assert row.id is not None
        await first.add_ai(row.id, 100)
        await first.start(row.id, 100)
        games_by_shard[shard] = row.id
    for game_id in games_by_shard.values():
        # The human decides; the "process" stops before the AI seat answers.
        data, version = await db.load_state(game_id)
        game = engines.get(KEY)
        state = game.from_json(data)
        prompt = next(p for p in game.prompts(state) if p.seat == 0)
        game.apply(state, 0, [prompt.choices[0].id])
        await db.commit_action(game_id, version, 0, [prompt.choices[0].id], game.to_json(state))
        assert any(p.seat == 1 for p in game.prompts(state))  # the AI's turn, nobody to play it
    await db.update_game(games_by_shard[1], table_message_id=555)  # posted; game 0's never was
    logs = {g: len(await db.actions(g)) for g in games_by_shard.values()}

    recorder = Recorder(two[1])
    process_one = TableService(two[1], recorder, shards=Shards.of([1], 2))
    assert await process_one.resume() == 1
    assert len(await db.actions(games_by_shard[0])) == logs[games_by_shard[0]]  # not its game
    moved = await db.actions(games_by_shard[1])
    assert len(moved) > logs[games_by_shard[1]] and moved[logs[games_by_shard[1]]].seat == 1
    assert [u.game.id for u in recorder.updates] == [games_by_shard[1]] and not recorder.updates[0].started
    assert await process_one.resume() == 0  # nothing left to do: a second start-up changes nothing

    recorder = Recorder()
    process_zero = TableService(two[0], recorder, shards=Shards.of([0], 2))
    assert await process_zero.resume() == 1
    assert len(await db.actions(games_by_shard[0])) > logs[games_by_shard[0]]
    assert recorder.updates[0].started  # its table message is posted now


# --- two real bot processes on one PostgreSQL ------------------------------------------------------
async def test_start_up_resumption_keeps_each_turns_deadline(two: tuple[Database, Database]) -> None:
    """A restart re-sends the waiting players' DMs but does not move their deadline: a reminder
    already posted is not posted again, and a deadline that passed meanwhile fires at the next tick."""
    db = two[0]
    clock = Clock()
    before = TableService(db, Recorder(), clock=clock)
    game_id = await lobby_of(before, 2, turn_seconds=60)
    await before.start(game_id, 100)
    clock.now += timedelta(seconds=31)
    assert await before.tick() == 1  # the reminder
    reminded = await db.get_game(game_id)
    assert reminded is not None and reminded.reminded
    clock.now += timedelta(seconds=60)  # the process is down while the deadline passes
    recorder = Recorder()
    after = TableService(two[1], recorder, clock=clock)
    assert await after.resume() == 1  # both players get their DM again
    assert {n.seat.seat for n in recorder.updates[0].dms} == {0, 1}
    row = await db.get_game(game_id)
    assert row is not None and (row.deadline, row.reminded) == (reminded.deadline, True)
    assert await after.tick() == 1
    assert recorder.reminders == []  # not reminded twice
    assert [(a.seat, a.afk) for a in await db.actions(game_id)] == [(0, True), (1, True)]


needs_postgres = pytest.mark.skipif(not PG_URL, reason="the two-process tests need TEST_POSTGRES_URL")


async def eventually(check: Callable[[], Awaitable[bool]], within: float = 60.0, what: str = "") -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while not await check():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.1)


@pytest.fixture
async def pg_url() -> AsyncIterator[str]:
    created = await create_pg_database()
    try:
        yield created
    finally:
        await drop_pg_database(created)


@pytest.fixture
def lb(loopback: Loopback) -> Loopback:
    return loopback


@needs_postgres
@pytest.mark.slow
async def test_two_processes_run_each_timer_once_across_a_kill(lb: Loopback, pg_url: str, tmp_path: Path) -> None:
    """Four guilds on four shards, two processes; every player is away, so each game's timers do all
    the work: a reminder, then the AI for both seats, twice, then the game is abandoned. One process
    is SIGKILLed while its games' deadlines pass; it fires them once when it is back, and the other
    process never fires them."""
    owner = {g: 0 if shard < 2 else 1 for shard, g in enumerate(guilds_on_every_shard(lb))}
    channels = {g: lb.fake.add_text_channel(f"timers-{i}", g) for i, g in enumerate(owner)}
    db = await Database.open(pg_url)
    processes: list[BotProcess] = []
    with open(tmp_path / "bots.log", "wb") as log:  # noqa: ASYNC230 - opened once, before anything runs
        try:
            processes = [await spawn(lb, pg_url, shards, log, timer_interval="0.3") for shards in TWO]
            syncs = [c for c in lb.fake.calls if c.path.endswith("/commands") and c.method == "PUT"]
            assert len(syncs) == 1 and lb.fake.commands  # only shard 0's process pushed the commands
            game_of: dict[int, int] = {}
            for guild, channel in channels.items():
                alice, bob = lb.user(f"Alice{guild % 97}"), lb.user(f"Bob{guild % 97}")
                await lb.slash(alice, "game new", channel=channel, game="eggs-empires", timer=600)
                await lb.slash(bob, "game join", channel=channel)
                await lb.slash(alice, "game start", channel=channel)
                row = await db.channel_game(channel)
                assert row is not None and row.id is not None and row.status == "active"
                game_of[guild] = row.id
            await lb.quiet()

            # The test moves each deadline into the past itself (a 600 s timer never runs out alone).
            async def due_now(guilds: Iterable[int]) -> None:
                for guild in guilds:
                    row = await db.get_game(game_of[guild])
                    assert row is not None
                    if row.status == "active":
                        await db.update_game(
                            row.id or 0, deadline=utcnow() - timedelta(seconds=1), reminded=row.reminded
                        )

            def reminders(guild: int) -> int:
                return sum(
                    1
                    for c in (channels[guild], *thread_of[guild])
                    for m in lb.messages_in(c)
                    if "please decide" in str(m.get("content"))
                )

            async def afk_turns(guild: int) -> int:
                return sum(1 for a in await db.actions(game_of[guild]) if a.afk) // 2

            thread_of: dict[int, tuple[int, ...]] = {}
            for guild, game_id in game_of.items():
                row = await db.get_game(game_id)
                assert row is not None
                thread_of[guild] = (row.thread_id,) if row.thread_id else ()

            async def each_has(
                count: Callable[[int], Awaitable[int]], guilds: Iterable[int], wanted: int, what: str
            ) -> None:
                async def done() -> bool:
                    return all([await count(g) == wanted for g in guilds])

                await eventually(done, what=what)

            async def reminded(guild: int) -> int:
                return reminders(guild)

            everyone = list(owner)
            first, second = [g for g in owner if owner[g] == 0], [g for g in owner if owner[g] == 1]
            # Turn 1: the reminders, from each guild's own process.
            await due_now(everyone)
            await each_has(reminded, everyone, 1, "the first reminders")
            # Process 1 dies; every deadline passes. Process 0 runs its own games' AI, not process 1's.
            processes[1].kill()
            assert await processes[1].wait() == -9
            await due_now(everyone)
            await each_has(afk_turns, first, 1, "process 0's AFK turns")
            await asyncio.sleep(1.5)  # five ticks of process 0
            assert [await afk_turns(g) for g in second] == [0, 0]
            processes[1] = await spawn(lb, pg_url, TWO[1], log, timer_interval="0.3")
            await each_has(afk_turns, second, 1, "process 1's AFK turns after its restart")
            # Turn 2: reminder, then AI again; both seats are then played by the AI: abandoned.
            await due_now(everyone)
            await each_has(reminded, everyone, 2, "the second reminders")
            await due_now(everyone)
            await each_has(afk_turns, everyone, 2, "the second AFK turns")
            await asyncio.sleep(1.0)
            await lb.quiet()
            for guild, game_id in game_of.items():
                row = await db.get_game(game_id)
                assert row is not None and row.status == "abandoned"
                assert reminders(guild) == 2, guild  # each reminder posted once
                log_pairs = [(a.seat, a.afk) for a in await db.actions(game_id)]
                assert log_pairs == [(0, True), (1, True)] * 2, log_pairs  # each AFK deadline acted on once
        finally:
            codes = [await process.stop() for process in processes]
            await db.close()
    assert codes == [0, 0]  # SIGTERM closes each process cleanly
    text = (tmp_path / "bots.log").read_text(errors="replace")
    assert "Traceback" not in text and " ERROR " not in text, text[-3000:]
    assert lb.unknown == []


@needs_postgres
@pytest.mark.slow
async def test_two_processes_play_through_kills_of_either(
    lb: Loopback, pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kept_on_failure: Keeper
) -> None:
    """Games in guilds of both processes, players clicking their DMs (shard 0's process answers
    those for every guild); each process is SIGKILLed once mid-game and restarted. Every game
    finishes, no acknowledged decision is lost, and no decision is applied twice.

    Two-player Eggs and Empires only, to keep it short."""
    monkeypatch.setattr(crash_bench, "ONLY", ("eggs-empires", 2, 2))
    kept_on_failure.watch(fake=lb.fake, database_url=pg_url, logs=[tmp_path / "bots.log"])
    with open(tmp_path / "bots.log", "wb") as log:  # noqa: ASYNC230 - opened once, before anything runs
        run = ShardedRun(lb, pg_url, split=TWO, kills=2, tables=2, seed=11, log=log, max_gap=1.5)
        try:
            figures = await run.run()
            run.db = await Database.open(pg_url)
            doubled = await run.doubled()
            await run.db.close()
        finally:
            await run.stop()
    assert figures.problems == []
    assert figures.kills == figures.kills_survived == 2
    assert figures.decisions_lost == 0 and doubled == []
    assert figures.decisions_acknowledged > 10
    assert figures.games_started >= 2 and figures.games_finished == figures.games_started
    assert figures.unanswered == 0
    assert figures.old_buttons_clicked > 0 and figures.old_buttons_dead == 0
    assert count_errors(tmp_path / "bots.log") == 0, (tmp_path / "bots.log").read_text()[-3000:]
    assert lb.unknown == []
