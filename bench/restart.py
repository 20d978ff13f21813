"""A restart with many games in progress (issue 23): how soon the bot is connected, what it sends, how soon
every owed game is repaired.

    python -m bench restart [--games N ...] [--owed FRACTION] [--window S] [--database-url URL] [--no-save]

For each N: a fresh database holding N active games of Eggs and Empires (two players each, at their
first prompt), built directly through storage as a running bot would have left it (`table.delivery`'s
records: each table, each player's window and the game as delivered). Two starts of the real bot
(`python -m harness.run_bot`, a subprocess talking to the loopback fake Discord) on it:
- `clean`: after a clean stop, every game delivered: nothing is owed;
- `killed`: as after a SIGKILL during play: a fraction `--owed` of the games (5% by default) had a
  decision committed that was never shown (their table and both players' windows show the version
  before it).
Each prints the seconds from the process start to the gateway session (IDENTIFY), wall and CPU (the
bot process's own user + system time then: the machine is shared, and CPU time hardly depends on what
else runs), the REST calls with the bot's token in the first `--window` seconds (60) beside those of its
start-up (command sync, application, gateway), any 429, and the seconds until no game is owed anything
(`storage.owed_games`). Then `--repeat` more clean starts, watched only until connected: the medians of
the connect times (`connect_median_s`, `connect_cpu_median_s`).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import games
from bench import results
from table.core import prompt_digest

KEY = "eggs-empires"
LOG = Path(tempfile.gettempdir()) / "bench-restart-bot.log"  # the bot's output, kept for a look afterwards
START_UP = ("/gateway", "/applications", "/oauth2", "/users/@me")  # what every start-up asks, owed or not


async def build(database_url: str, n: int, owed: float, loopback: Any, seed: int) -> int:
    """N active games as a bot leaves them; `owed` of them with their last version never shown. Returns
    how many are owed."""
    from fakediscord.fake_discord import GUILD_ID
    from storage import Database

    fake = loopback.fake
    rng = random.Random(seed)
    game = games.get(KEY)
    options = game.resolve_options({})
    users = [fake.add_user(f"player-{i}") for i in range(200)]
    db = await Database.open(database_url)
    owed_count = 0
    try:
        for _ in range(n):
            host, guest = rng.sample(users, 2)
            row = await db.create_game(
                guild_id=GUILD_ID,
                channel_id=loopback.channel,
                game_key=KEY,
                options=options,
                host_id=host,
                seed=rng.randrange(2**62),
                turn_seconds=None,
            )
            assert row.id is not None
            await db.set_seats(
                row.id,
                [{"seat": 0, "user_id": host, "name": "Host"}, {"seat": 1, "user_id": guest, "name": "Guest"}],
            )
            state = game.new(2, row.seed, row.options)
            await db.start_game(row.id, game.to_json(state), None)
            broken = rng.random() < owed
            thread_id, table_id = _thread(fake, loopback.channel, broken)
            await db.update_game(row.id, thread_id=thread_id, table_message_id=table_id)
            windows: dict[tuple[int, int], tuple[int, int, bool]] = {}
            for seat, user in enumerate((host, guest)):
                channel_id, message_id = _dm(fake, user, broken)
                await db.update_seat(row.id, seat, dm_channel_id=channel_id, dm_message_id=message_id)
                prompt = next(p for p in game.prompts(state) if p.seat == seat)
                # Killed: the window shows a prompt of the version before (a digest that is not this one).
                windows[(row.id, seat)] = (1, prompt_digest(prompt, 1) if not broken else 12345, True)
            if broken:
                owed_count += 1
                await db.record_delivered({}, {}, windows)  # the table and the game: never confirmed
            else:
                await db.record_delivered({row.id: 1}, {row.id: (1, False)}, windows)
    finally:
        await db.close()
    return owed_count


def _thread(fake: Any, parent: int, real: bool) -> tuple[int, int]:
    """A game's thread and table message: made in the fake when the bot will edit them."""
    if not real:
        return fake.snowflake(), fake.snowflake()
    from fakediscord.fake_discord import Call

    thread_id = int(
        fake._thread(Call("POST", f"/channels/{parent}/threads", {"name": "game", "type": 11}), parent)["id"]
    )
    return thread_id, int(fake._message(thread_id, {"content": "table"}, [])["id"])


def _dm(fake: Any, user: int, real: bool) -> tuple[int, int]:
    if not real:
        return fake.snowflake(), fake.snowflake()
    channel_id = int(fake._open_dm(user)["id"])
    return channel_id, int(fake._message(channel_id, {"content": "prompt"}, [])["id"])


async def owed_now(database_url: str) -> int:
    from storage import Database

    db = await Database.open(database_url)
    try:
        owed = 0
        after = 0
        while page := await db.owed_games(after=after, limit=1000):
            owed += len(page)
            after = page[-1].id or 0
        return owed
    finally:
        await db.close()


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a running process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def start_once(loopback: Any, database_url: str, window: float, owed: int, log: Path) -> dict[str, Any]:
    """Start the bot on the database; what it did in its first `window` seconds (0: until connected)."""
    from harness.run_bot import BotProcess

    mark = len(loopback.fake.calls)
    since = loopback.identified
    started = time.monotonic()
    with log.open("ab") as out:
        bot = await BotProcess.spawn(loopback, database_url, log=out, global_rate_limit="50")
        try:
            await loopback.wait_ready(since=since, within=300)
            connected = time.monotonic() - started
            connect_cpu = cpu_seconds(bot.pid)
            repaired: float | None = 0.0 if owed == 0 else None
            while time.monotonic() - started < window:
                await asyncio.sleep(0.5)
                if repaired is None and await owed_now(database_url) == 0:
                    repaired = time.monotonic() - started
            calls = [c for c in loopback.fake.calls[mark:] if c.via == "http"]
        finally:
            await bot.stop()
    at_start = [c for c in calls if c.path.startswith(START_UP)]
    return {
        "connected_s": round(connected, 2),
        "connect_cpu_s": round(connect_cpu, 2),
        "rest_calls_first_window": len(calls),
        "start_up_calls": len(at_start),
        "calls_beyond_start_up": len(calls) - len(at_start),
        "responses_429": sum(1 for c in calls if c.status == 429),
        "owed_games": owed,
        "repaired_s": None if repaired is None else round(repaired, 2),
    }


async def run(
    sizes: list[int], owed: float, window: float, database_url: str | None, seed: int, repeat: int
) -> dict[str, Any]:
    from fakediscord.loopback import Loopback

    figures: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="bench-restart-") as tmp:
        for n in sizes:
            loopback = await Loopback.start()
            try:
                url = database_url or f"sqlite+aiosqlite:///{tmp}/restart-{n}.sqlite3"
                if database_url is not None:
                    await _empty(database_url)
                built = time.monotonic()
                owed_count = await build(url, n, owed, loopback, seed)
                print(f"{n} games built in {time.monotonic() - built:.0f} s ({owed_count} owed)", flush=True)
                # A clean stop first: the killed start comes second, so the clean one finds none owed.
                owed_games = await owed_now(url)
                killed = await start_once(loopback, url, window, owed_games, LOG)
                clean = await start_once(loopback, url, window, await owed_now(url), LOG)
                again = [clean] + [await start_once(loopback, url, 0, 0, LOG) for _ in range(repeat)]
            finally:
                await loopback.close()
            figures[str(n)] = {
                "killed": killed,
                "clean": clean,
                "connect_median_s": round(statistics.median(a["connected_s"] for a in again), 2),
                "connect_cpu_median_s": round(statistics.median(a["connect_cpu_s"] for a in again), 2),
                "clean_starts": len(again),
            }
            for name, found in (("after a SIGKILL", killed), ("after a clean stop", clean)):
                print(
                    f"{n:>6} games, {name}: connected in {found['connected_s']} s ({found['connect_cpu_s']} s CPU); "
                    f"{found['rest_calls_first_window']} REST calls in {window:.0f} s "
                    f"({found['start_up_calls']} start-up, {found['calls_beyond_start_up']} beyond; "
                    f"{found['responses_429']} 429s); {found['owed_games']} owed, all repaired at "
                    f"{found['repaired_s']} s",
                    flush=True,
                )
            print(
                f"{n:>6} games: median of {len(again)} clean starts {figures[str(n)]['connect_median_s']} s to "
                f"connect, {figures[str(n)]['connect_cpu_median_s']} s CPU",
                flush=True,
            )
    return figures


async def _empty(database_url: str) -> None:
    """Drop every table of the PostgreSQL database given, so each size starts from nothing."""
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    engine = create_async_engine(database_url)
    async with engine.begin() as conn:
        await conn.execute(text("DROP SCHEMA public CASCADE"))
        await conn.execute(text("CREATE SCHEMA public"))
    await engine.dispose()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench restart", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[100, 1000])
    parser.add_argument("--owed", type=float, default=0.05, help="fraction of the games owed (killed start)")
    parser.add_argument("--window", type=float, default=60.0, help="seconds each start is watched")
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--repeat", type=int, default=4, help="more clean starts, for the medians")
    parser.add_argument("--no-save", action="store_true")
    args = parser.parse_args(argv)
    load_before = list(os.getloadavg())
    figures = asyncio.run(run(args.games, args.owed, args.window, args.database_url, args.seed, args.repeat))
    figures["load_average"] = {"before": load_before, "after": list(os.getloadavg())}
    targets: dict[str, str] = {}
    for n in args.games:
        targets[f"{n}.connect_median_s"] = "<= 2 s"
        targets[f"{n}.clean.calls_beyond_start_up"] = "0"
        for start in ("killed", "clean"):
            targets[f"{n}.{start}.responses_429"] = "0"
    if not args.no_save:
        results.save(
            "restart",
            results.command("restart", argv),
            figures,
            title="Restart with many games in progress (issue 23)",
            targets=targets,
            notes=(
                "Each size: a start after a SIGKILL (a fraction of the games owed), then one after a clean stop, "
                "then more clean starts watched until connected (the medians). The bot runs as "
                "`python -m harness.run_bot` (the production entry plus the fake's address: its import adds "
                "~0.05 s CPU). connect_cpu_s: the bot process's CPU time when it sent IDENTIFY."
            ),
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
