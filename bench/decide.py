"""What one decision costs the table service and storage, with no Discord in the way.

    python -m bench decide [--games N] [--batch N] [--seed N] [--no-cache] [--database-url URL] [--no-delivery]
                           [--no-save]

Drives `table.TableService` directly (a notifier that only records the updates) on a fresh SQLite
file (with `--database-url postgresql+asyncpg://...`: on that PostgreSQL database) through whole
games of all three games at several seat counts, every game with its turn timer on (as a lobby opens
by default), and the storage cache on as the bot opens it when it runs every
shard (`--no-cache`: without it, as one of several processes). Human seats answer every prompt with
the random AI's choice, one decision at a time; AI seats decide inside the table service as they do
in the bot. For each table it prints, over the human decisions (`TableService.decide`, including the
AI turns and the game end each one sets off; and the bookkeeping of what was delivered, as the Discord
notifier records it once Discord confirms: `table.delivery`'s marks, whose batched writes run between
decisions and are shared out over them; `--no-delivery` leaves it out, for a before/after in one sitting):
  - CPU ms per decision: process CPU time (every thread), the median over batches of `--batch`
    decisions (so one slow batch, a garbage collection, does not move it);
  - SQL statements per decision (a SQLAlchemy `before_cursor_execute` event on every engine, plus the
    group writer's own statements; an executemany counts once), and how many of them are reads;
  - the split of that CPU time: the read path (Database reads: get_game, seats, load_state,
    actions...), the commit path (commit_actions, update_game, update_seat, finish_game...) and the rest
    (the engines, the AI, the table service itself).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# Database methods by path. A call inside another (mark_broken -> update_game) counts for the outer one.
READS = (
    "game_row",
    "game_and_seats",
    "get_game",
    "seats",
    "load_state",
    "actions",
    "channel_game",
    "thread_game",
    "user_games",
    "results",
    "ratings",
)
COMMITS = (
    "commit_action",
    "commit_actions",
    "update_game",
    "update_seat",
    "set_seats",
    "start_game",
    "finish_game",
    "mark_broken",
)
# (game key, humans, AI seats): all three games, small and large tables.
TABLES = (
    ("eggs-empires", 2, 0),
    ("eggs-empires", 3, 1),
    ("eggs-empires", 4, 2),
    ("eight-minute-empire", 2, 0),
    ("eight-minute-empire", 3, 1),
    ("reggverse-riddles", 2, 1),
    ("reggverse-riddles", 4, 2),
)
MAX_STEPS = 20_000  # human decisions in one game before the benchmark gives up on it


@dataclass
class Meter:
    """CPU time and statements by path, while a decision runs."""

    path: str = "other"
    depth: int = 0
    cpu: dict[str, float] = field(default_factory=lambda: {"read": 0.0, "commit": 0.0})
    statements: Counter[str] = field(default_factory=Counter)  # by path
    reads: int = 0  # SELECTs outside the group writer's transaction

    def seen(self, statement: str) -> None:
        self.statements[self.path] += 1
        if self.path == "read" or (self.path != "commit" and statement.lstrip()[:6].upper() == "SELECT"):
            self.reads += 1

    def wrap(self, owner: Any, name: str, path: str) -> None:
        original: Callable[..., Awaitable[Any]] = getattr(owner, name)

        async def timed(*args: Any, **kwargs: Any) -> Any:
            if self.depth:
                return await original(*args, **kwargs)
            self.depth += 1
            self.path = path
            began = time.process_time()
            try:
                return await original(*args, **kwargs)
            finally:
                self.cpu[path] += time.process_time() - began
                self.path = "other"
                self.depth -= 1

        setattr(owner, name, timed)


@dataclass
class Sample:
    """One human decision."""

    cpu: float
    statements: float
    reads: int
    read_cpu: float
    commit_cpu: float
    # The delivery marks' flushes (table.delivery), shared out over the decisions: apart from `statements`
    # because they are timed (one flush per FLUSH_SECONDS with marks pending), so their share per decision
    # grows when decisions are slow (a loaded machine), while a decision's own statements do not.
    delivery_statements: float = 0.0


class Recorder:
    """The notifier: keeps nothing but a count (the transport is not what is measured here), and records
    what it was handed as delivered, as the Discord notifier does once Discord confirms it
    (`table.delivery`: that bookkeeping is measured; `--no-delivery` leaves it out)."""

    def __init__(self) -> None:
        self.published = 0
        self.delivery: Any = None

    async def publish(self, update: Any) -> None:
        self.published += 1
        if self.delivery is not None:
            game_id = update.game.id
            self.delivery.table(game_id, update.version)
            for notice in update.dms:
                live = notice.prompt is not None
                self.delivery.window(game_id, notice.seat.seat, notice.version, notice.prompt_digest, live)
            self.delivery.drained(game_id, update.version, ending=update.game.status != "active")

    async def remind(self, game: Any, seats: Any, deadline: Any) -> None:
        return None

    async def remind_idle(self, game: Any, seats: Any, since: Any, can_end: Any) -> None:
        return None


async def play_table(
    directory: Path,
    key: str,
    humans: int,
    ais: int,
    games_count: int,
    seed: int,
    cache: bool = True,
    database_url: str | None = None,
    delivery: bool = True,
) -> tuple[list[Sample], int]:
    """Play `games_count` games of one table; the samples of every human decision, and refusals."""
    import games
    from games.ai import RandomPlayer
    from storage import Database
    from table import TableError, TableService

    game = games.get(key)
    url = database_url or f"sqlite+aiosqlite:///{directory / f'{key}-{humans}-{ais}.sqlite3'}"
    db = await Database.open(url, cache=cache)
    meter = Meter()
    for name in READS:
        meter.wrap(db, name, "read")
    for name in COMMITS:
        meter.wrap(db, name, "commit")
    stop = db.on_statement(meter.seen)
    recorder = Recorder()
    table = TableService(db, recorder, seeds=random.Random(seed))
    flushes = _timed_flushes(table) if delivery else None
    if delivery:
        recorder.delivery = table.delivery
    rng = random.Random(seed)
    samples: list[Sample] = []
    refused = 0
    try:
        for index in range(games_count):
            host = 1000 * (index + 1)
            row = await table.create_lobby(
                guild_id=1, channel_id=10 + index, game_key=key, host_id=host, host_name="P0"
            )
            assert row.id is not None
            for i in range(1, humans):
                await table.join(row.id, host + i, f"P{i}")
            for _ in range(ais):
                await table.add_ai(row.id, host, level="random")
            update = await table.start(row.id, host)
            users = {s.seat: s.user_id for s in update.seats if s.user_id is not None}
            for _step in range(MAX_STEPS):
                if update.outcome is not None:
                    break
                waiting = [p for p in update.prompts if p.seat in users]
                assert waiting, f"{key}: no outcome and no human to decide"
                prompt = rng.choice(waiting)
                choice = RandomPlayer(rng.getrandbits(32)).choose(game, None, prompt)
                meter.cpu = {"read": 0.0, "commit": 0.0}
                meter.statements.clear()
                meter.reads = 0
                began = time.process_time()
                try:
                    decided = await table.decide(row.id, users[prompt.seat], prompt.seat, update.version, choice)
                except TableError:
                    refused += 1
                    continue
                cpu = time.process_time() - began
                samples.append(
                    Sample(cpu, sum(meter.statements.values()), meter.reads, meter.cpu["read"], meter.cpu["commit"])
                )
                update = decided.update
            else:
                raise RuntimeError(f"{key}: a game did not end within {MAX_STEPS} human decisions")
    finally:
        await table.close()  # (its last marks flushed)
        stop()
        await db.close()
    if flushes is not None and samples:
        # The delivery marks' writes run in their own task, between decisions: shared out over them.
        for sample in samples:
            sample.cpu += flushes[0] / len(samples)
            sample.commit_cpu += flushes[0] / len(samples)
            sample.delivery_statements += flushes[1] / len(samples)
    return samples, refused


def _timed_flushes(table: Any) -> list[float]:
    """[CPU seconds, SQL statements] of the delivery marks' flushes (table.delivery), counted as they run: a
    flush is one transaction (BEGIN, COMMIT) of up to four executemany UPDATEs (tables, running and ended
    games, seats), each counted once as the meter counts an executemany. (Their statements also reach the
    meter when a flush runs while a decision awaits: counted twice then, a slight overestimate.)"""
    totals = [0.0, 0.0]
    flush = table.delivery.flush
    record = table.db.record_delivered

    async def counted(tables: Any, delivered: Any, windows: Any) -> None:
        ended = sum(1 for _v, ending in delivered.values() if ending)
        groups = [tables, len(delivered) - ended, ended, windows]
        totals[1] += 2 + sum(1 for group in groups if group)
        await record(tables, delivered, windows)

    async def timed() -> None:
        began = time.process_time()
        try:
            await flush()
        finally:
            totals[0] += time.process_time() - began

    table.db.record_delivered = counted
    table.delivery.flush = timed
    return totals


def summary(samples: list[Sample], batch: int) -> dict[str, float]:
    """Medians over batches of consecutive decisions (CPU), means (statements)."""
    batches = [samples[i : i + batch] for i in range(0, len(samples), batch)]
    if len(batches) > 1 and len(batches[-1]) < batch // 2:
        batches.pop()  # a short last batch is mostly one game's end

    def median_ms(value: Callable[[Sample], float]) -> float:
        return statistics.median(1000 * sum(value(s) for s in b) / len(b) for b in batches)

    count = len(samples)
    return {
        "decisions": count,
        "cpu_ms": round(median_ms(lambda s: s.cpu), 3),
        "read_ms": round(median_ms(lambda s: s.read_cpu), 3),
        "commit_ms": round(median_ms(lambda s: s.commit_cpu), 3),
        "other_ms": round(median_ms(lambda s: s.cpu - s.read_cpu - s.commit_cpu), 3),
        "statements": round(sum(s.statements for s in samples) / count, 2),
        "delivery_statements": round(sum(s.delivery_statements for s in samples) / count, 2),
        "reads": round(sum(s.reads for s in samples) / count, 2),
    }


def measure(
    games_count: int,
    batch: int,
    seed: int,
    tables: tuple[tuple[str, int, int], ...] = TABLES,
    cache: bool = True,
    database_url: str | None = None,
    delivery: bool = True,
) -> tuple[dict[str, dict[str, float]], dict[str, float]]:
    """Figures per table and over all of them."""
    per_table: dict[str, dict[str, float]] = {}
    everything: list[Sample] = []
    with tempfile.TemporaryDirectory() as directory:
        for key, humans, ais in tables:
            samples, refused = asyncio.run(
                play_table(Path(directory), key, humans, ais, games_count, seed, cache, database_url, delivery)
            )
            figures = summary(samples, batch)
            figures["refused"] = refused
            per_table[f"{key} {humans}h+{ais}ai"] = figures
            everything += samples
    return per_table, summary(everything, batch)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench decide", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=3, help="games per table (default 3)")
    parser.add_argument("--batch", type=int, default=50, help="decisions per batch for the CPU median")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-cache", action="store_true", help="storage without its cache of rows and seats")
    parser.add_argument(
        "--database-url",
        default=None,
        help="postgresql+asyncpg://... to measure on PostgreSQL (default: a fresh SQLite file)",
    )
    parser.add_argument(
        "--no-delivery", action="store_true", help="without recording what was delivered (table.delivery)"
    )
    parser.add_argument("--no-save", action="store_true", help="do not write bench/results/decide.json")
    args = parser.parse_args(argv)
    root = Path(__file__).resolve().parents[1]
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    per_table, overall = measure(
        args.games,
        args.batch,
        args.seed,
        cache=not args.no_cache,
        database_url=args.database_url,
        delivery=not args.no_delivery,
    )
    backend = "SQLite" if args.database_url is None else "PostgreSQL"
    print(
        f"TableService.decide on {backend} ({'no cache' if args.no_cache else 'cache'}), "
        f"{args.games} games per table, human decisions only"
        f"{', without delivery records' if args.no_delivery else ', with delivery records (table.delivery)'} "
        f"(CPU ms: median over batches of {args.batch})"
    )
    header = (
        f"  {'table':32s} {'decisions':>9s} {'CPU ms':>7s} {'read':>6s} {'commit':>7s} {'other':>6s} "
        f"{'SQL/dec':>8s} {'reads':>6s} {'marks':>6s}"
    )
    print(header)
    for name, f in [*per_table.items(), ("all", overall)]:
        print(
            f"  {name:32s} {f['decisions']:9.0f} {f['cpu_ms']:7.3f} {f['read_ms']:6.3f} {f['commit_ms']:7.3f} "
            f"{f['other_ms']:6.3f} {f['statements']:8.2f} {f['reads']:6.2f} {f['delivery_statements']:6.2f}"
        )
    if not args.no_save:
        from bench import results

        name = "decide-no-cache" if args.no_cache else "decide"
        if args.database_url is not None:
            name += "-postgresql"
        results.save(
            name,
            results.command("decide", argv),
            {"all": overall, "tables": per_table},
            title="Storage and table-service cost per decision"
            + ("" if args.database_url is None else " (PostgreSQL)"),
            notes="CPU ms per human decision (median over batches), SQL statements and reads per "
            "decision; the read/commit split is CPU inside Database reads and writes. A decision is "
            "one commit_actions transaction holding the AI moves it sets off and the turn's new "
            "deadline: on SQLite BEGIN, SELECT, INSERT, UPDATE, COMMIT; on PostgreSQL one statement "
            "on the asyncpg connection (storage/pg_direct.py), its BEGIN/COMMIT implicit. "
            "delivery_statements (marks): the delivery records' flushes (table.delivery), per decision, apart: "
            "they are timed, so their share grows when decisions are slow.",
        )
    return 0
