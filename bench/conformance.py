"""Conformance run: whole games of every game in English, Italian and French, with the bot SIGKILLed every N
clicks, and every request it sends judged by Discord's own API description (issue 33).

    python -m bench conformance [--kill-every 15] [--seed 1] [--workdir DIR]

The real bot runs in a subprocess against the loopback fake Discord (fakediscord/loopback.py), which
validates every request (fakediscord.contract: the route, its parameters, the body against Discord's
OpenAPI description, and the documented limits). One server per language (its preferred locale), one
channel in each, where players with that client locale play each game in turn to the end, by clicking what
the bot sent them; the bot is killed (SIGKILL) every `--kill-every` interactions and restarted on the same
database, so start-up (migrations, the command sync, resumption) is judged again after every kill.

Reported: requests judged and refused (400 Invalid Form Body, 404 and 405: must be 0), ERROR lines and
tracebacks in the bot's log (must be 0), and the crash proof's own figures (bench/crash.py: no decision
lost, every game finished, every interaction to a live bot answered).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, Any

import games
from bench._crash_run import CrashRun, Figures, count_errors, refused_by_discord
from fakediscord.loopback import Loopback
from harness.keep import keep_run
from harness.languages import LOCALES, PEOPLE

KILL_EVERY = 15  # interactions between two kills


@dataclass
class Conformance:
    requests: int = 0  # requests the fake judged (every call to REST, webhooks and interaction callbacks)
    refused: int = 0  # of those, refused by Discord's description or limits (400 50035, 404, 405): must be 0
    refusals: list[str] = field(default_factory=list)
    games: Counter[str] = field(default_factory=Counter)  # "game key/language" -> whole games played
    crash: Figures = field(default_factory=Figures)

    def ok(self) -> bool:
        return self.refused == 0 and self.crash.ok() and self.crash.bot_errors == 0


class ConformanceRun(CrashRun):
    """The crash proof's players, one table per language, each game played once there, kills every N clicks."""

    def __init__(self, loopback: Loopback, database_url: str, *, kill_every: int, seed: int, log: IO[bytes]) -> None:
        super().__init__(loopback, database_url, kills=0, tables=0, seed=seed, log=log)
        self.kill_every = kill_every
        self.languages = list(LOCALES)
        self.channels = []
        self.language_of: dict[int, str] = {}
        for lang in self.languages:
            guild = self.lb.fake.add_guild(f"board games ({lang})")
            self.lb.fake.guild_locales[guild] = LOCALES[lang]
            channel = self.lb.fake.add_text_channel(f"tables-{lang}", guild)
            self.channels.append(channel)
            self.language_of[channel] = lang
        self.played: Counter[str] = Counter()
        self.tables_left = len(self.channels)

    async def killer(self) -> None:
        """Kill the bot every `kill_every` interactions until every table has played its games."""
        while self.tables_left:
            await self.lb.wait_until(self._clicked(self.figures.interactions + self.kill_every), 600)
            if not self.tables_left:
                break
            await asyncio.sleep(self.rng.uniform(0.0, 0.3))  # sometimes mid-answer, sometimes between clicks
            await self.kill_and_restart()
        self.killing = False

    def _clicked(self, mark: int) -> Callable[[], bool]:
        """`mark` interactions sent, or every table done."""
        return lambda: self.figures.interactions >= mark or not self.tables_left

    async def table(self, channel: int) -> None:
        """Every game, in turn, played to the end in this channel's language."""
        lang = self.language_of[channel]
        try:
            for key in games.keys():
                engine = games.get(key)
                seats = min(max(engine.min_players, 3), engine.max_players)
                humans_count = self.rng.randint(2, seats)
                humans = []
                for i in range(humans_count):
                    name = f"{PEOPLE[lang][i % len(PEOPLE[lang])]}{len(self.players) + i}"
                    humans.append(self.lb.user(name))
                    self.lb.fake.locales[humans[-1]] = LOCALES[lang]
                for user in humans:
                    self.players[user] = 0
                game_id = await self.open_game(channel, key, humans, seats - humans_count)
                self._channels[game_id] = channel
                self.game_ids.append(game_id)
                self.figures.games_started += 1
                for user in humans:
                    self.players[user] = game_id
                finished = await self.play(game_id, humans)
                for user in humans:
                    del self.players[user]
                if not finished:
                    return
                self.played[f"{key}/{lang}"] += 1
        finally:
            self.tables_left -= 1


async def conformance(*, kill_every: int = KILL_EVERY, seed: int = 1, workdir: Path) -> Conformance:
    url = f"sqlite+aiosqlite:///{workdir / 'conformance.sqlite3'}"
    loopback = await Loopback.start()
    log_path = workdir / "bot.log"
    result = Conformance()
    try:
        with open(log_path, "wb") as log:  # noqa: ASYNC230 - opened once, before anything runs
            run = ConformanceRun(loopback, url, kill_every=kill_every, seed=seed, log=log)
            result.crash = await run.run()
        result.crash.bot_errors = count_errors(log_path)
        result.games = run.played
        judged = refused_by_discord(loopback)
        result.requests = len(loopback.fake.calls)
        result.refused = len(judged)
        result.refusals = [f"{c.method} {c.path}: {c.refused}" for c in judged[:20]]
        result.refusals += [f"invalid: {i}" for i in loopback.fake.invalid[:20]]
        if loopback.unknown:
            result.crash.problems += [f"the fake does not know {u}" for u in loopback.unknown]
        if not result.ok():
            await keep_run(workdir, fake=loopback.fake, database_url=url, logs=[])
    finally:
        await loopback.close()
    return result


def figures_of(result: Conformance) -> dict[str, Any]:
    crash = {k: v for k, v in asdict(result.crash).items() if k != "problems"}
    return {
        "requests_judged": result.requests,
        "requests_refused": result.refused,
        "bot_errors": result.crash.bot_errors,
        "whole_games": dict(sorted(result.games.items())),
        **{k: crash[k] for k in ("kills", "decisions_acknowledged", "decisions_lost", "games_finished")},
        **{k: crash[k] for k in ("games_unfinished", "unanswered", "old_buttons_dead", "in_flight_at_kill")},
        "duration_s": crash["duration_s"],
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench conformance", description=__doc__.split("\n")[0])
    parser.add_argument("--kill-every", type=int, default=KILL_EVERY, help="interactions between two SIGKILLs")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workdir", default=None, help="keep the bot's log (and the SQLite file) here")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="conformance-") as tmp:
        workdir = Path(args.workdir or tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        result = asyncio.run(conformance(kill_every=args.kill_every, seed=args.seed, workdir=workdir))
        if result.crash.bot_errors:
            print(Path(workdir, "bot.log").read_text(encoding="utf-8", errors="replace")[-4000:], file=sys.stderr)
    figures = figures_of(result)
    for name, value in figures.items():
        print(f"{name:>24}: {value}")
    for problem in result.refusals + result.crash.problems[:20]:
        print("PROBLEM:", problem)
    from bench.results import command, save

    save(
        "conformance",
        command("conformance", argv),
        figures,
        title="Conformance: every request judged by Discord's API description, whole games in en/it/fr, SIGKILLs",
        targets={"requests_refused": "0", "bot_errors": "0", "decisions_lost": "0", "games_unfinished": "0"},
        notes="Every game of the project played whole in each language (one server per language, players with "
        "that client locale), the bot SIGKILLed every --kill-every interactions and restarted on the same database "
        "(each start-up syncs the command tree again, judged too).",
    )
    return 0 if result.ok() else 1
