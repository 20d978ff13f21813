"""A whole Swiss tournament played through the real bot process while it is SIGKILLed (issue 35).

    python -m bench tournament_crash [--game reggverse-riddles] [--entrants 8] [--table 2] [--rounds N]
                                     [--kill-every 12] [--seed 1] [--workdir DIR]

The bot runs in a subprocess against the loopback fake Discord (every request judged by Discord's API
description, as in every run). Scripted entrants open the tournament with /tournament new, sign up (the
sign-up message's Join button or /tournament join), the host starts it, and every round's tables are played
by the entrants from their DMs (bench._crash_run.CrashRun's players: they click what the bot sent them, ask
for their hand when a crash left their DM behind, and click old buttons after each restart). One entrant
withdraws once the first round is under way; one never shows: their seat is played by the AI after their
turn timer, which runs out while the bot is down (the run ages the deadline of a game that waits only on
them, in the database, before it restarts the bot: an outage longer than the turn timer). The bot is
SIGKILLed every `--kill-every` interactions (at a random moment after that) and whenever every running game
waits on the no-show, and restarted on the same database each time; kills land in sign-up, in pairing, while
a round opens its tables, in play and at a round's end.

Checked at the end, each counted in the figures: the tournament finished with a champion; every round
opened as many games as its pairing has tables (no table opened twice, none lost); every tournament game
finished; in the tournament's thread each round's opening, each round's result and the podium posted once;
the withdrawn entrant not paired after withdrawing, the no-show's every round played by the AI; no
acknowledged decision lost; 0 ERROR lines or tracebacks in the bot's log; 0 requests Discord would refuse.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import IO, Any

import games
from bench._crash_run import CrashRun, Figures, count_errors, refused_by_discord
from fakediscord.loopback import Loopback
from storage.types import utcnow
from table.tournaments.records import status_of

KILL_EVERY = 12


@dataclass
class TournamentFigures:
    rounds: int = 0
    tables: int = 0  # tables the pairings reserved
    games_opened: int = 0  # tournament games the bot created: must equal the tables that needed a game
    tables_doubled: int = 0  # a (round, table) with two games: must be 0
    round_posts: dict[str, int] = field(default_factory=dict)  # "opened"/"over" -> posts in the thread
    podium_posts: int = 0  # must be 1
    champion: int | None = None
    withdrawn_paired_later: int = 0  # tables after the withdrawal with the withdrawn entrant: must be 0
    no_show_missed_rounds: int = 0  # must equal the rounds they sat at a table (a bye is no game to miss)
    no_show_seated_rounds: int = 0
    refused_requests: int = 0  # requests Discord's description or limits refuse: must be 0
    crash: Figures = field(default_factory=Figures)
    problems: list[str] = field(default_factory=list)

    def ok(self) -> bool:
        return (
            not self.problems
            and self.crash.ok()
            and self.crash.bot_errors == 0
            and self.champion is not None
            and self.tables_doubled == 0
            and self.podium_posts == 1
            and self.withdrawn_paired_later == 0
            and self.no_show_missed_rounds == self.no_show_seated_rounds
            and self.refused_requests == 0
        )


class TournamentCrashRun(CrashRun):
    def __init__(
        self,
        loopback: Loopback,
        database_url: str,
        *,
        game: str,
        entrants: int,
        table: int,
        rounds: int | None,
        kill_every: int,
        seed: int,
        log: IO[bytes],
    ) -> None:
        super().__init__(loopback, database_url, kills=0, tables=0, seed=seed, log=log)
        self.game, self.table_size, self.rounds = game, table, rounds
        self.kill_every = kill_every
        self.channel = self.lb.fake.add_text_channel("tournaments")
        self.entrants = [self.lb.user(f"Player{i + 1}") for i in range(entrants)]
        self.host, self.quitter, self.no_show = self.entrants[0], self.entrants[1], self.entrants[-1]
        self.tournament_id = 0
        self.done = False
        self.waiting_on_no_show: set[int] = set()  # games where nobody but the no-show is awaited
        self.withdrew_in_round = 0
        self.figures_t = TournamentFigures()
        self.channels = [self.channel]
        self._threads: dict[int, int] = {}
        self.playing: dict[int, asyncio.Task[None]] = {}
        self.unplayed: list[int] = []  # games with nobody at them who plays (the no-show and the quitter)

    # --- the killer ---------------------------------------------------------------------------
    async def killer(self) -> None:
        """Kill every `kill_every` interactions, and whenever every running game waits on the no-show."""
        while not self.done:
            mark = self.figures.interactions + self.kill_every
            await self.lb.wait_until(self._kill_due(mark), 900)
            if self.done:
                break
            if not self.waiting_on_no_show:
                await asyncio.sleep(self.rng.uniform(0.0, 0.3))  # mid-answer sometimes, between clicks others
            await self.kill_and_restart()
        self.killing = False

    def _kill_due(self, mark: int) -> Callable[[], bool]:
        def due() -> bool:
            running = {g for g, _ in self.playing.items()}
            stuck = bool(running) and running <= self.waiting_on_no_show
            return self.done or self.figures.interactions >= mark or stuck

        return due

    async def while_down(self) -> None:
        """The bot was down longer than the turn timer of the games waiting on the no-show: their deadline
        passed (a restarted bot reads every row afresh, so it sees it)."""
        for game_id in sorted(self.waiting_on_no_show):
            # Read again with the bot down (nothing moves now): only a game that still waits on the no-show
            # alone, or the outage would run out somebody else's timer too.
            if await self.awaits_only_the_no_show(game_id):
                assert self.db is not None
                await self.db.update_game(game_id, deadline=utcnow() - timedelta(seconds=1), reminded=True)
        self.waiting_on_no_show.clear()

    async def awaits_only_the_no_show(self, game_id: int) -> bool:
        """The game waits on the no-show's own seat (not yet the AI's), and on no other human."""
        assert self.db is not None
        row = await self.db.get_game(game_id)
        if row is None or row.status != "active":
            return False
        seats = await self.db.seats(game_id)
        state, _version = await self.db.load_state(game_id)
        engine = games.get(row.game_key)
        awaited = [seats[p.seat] for p in engine.prompts(engine.from_json(state))]
        humans = [s for s in awaited if s.user_id is not None and not s.ai_controlled]
        return bool(humans) and all(s.user_id == self.no_show for s in humans)

    async def idle(self, game_id: int, humans: list[int]) -> None:
        if game_id not in self.waiting_on_no_show and await self.awaits_only_the_no_show(game_id):
            self.waiting_on_no_show.add(game_id)
            await self.lb.poke()  # the killer may be waiting for every game to wait on the no-show

    # --- the entrants -------------------------------------------------------------------------
    async def tournament(self) -> None:
        assert self.db is not None
        try:
            await self.create()
            await self.sign_up()
            await self.start()
            await self.play_rounds()
        finally:
            self.done = True
            await self.lb.poke()  # the killer waits for this

    async def _row(self) -> Any:
        assert self.db is not None
        rows = await self.db.tournaments(statuses=("signup", "running", "finished", "cancelled"))
        return rows[0] if rows else None

    async def create(self) -> None:
        options: dict[str, Any] = {"game": self.game, "format": "swiss", "players": self.table_size, "timer": 60}
        if self.rounds:
            options["rounds"] = self.rounds
        for _ in range(50):
            row = await self._row()
            if row is not None:
                self.tournament_id = row.id
                return
            await self.slash(self.host, "tournament new", self.channel, **options)
        raise AssertionError("the tournament could not be opened")

    def _signup_message(self) -> dict[str, Any] | None:
        try:
            return self.lb.find_message(f"tn:{self.tournament_id}:join")[1]
        except AssertionError:
            return None

    async def sign_up(self) -> None:
        assert self.db is not None
        for _ in range(50 * len(self.entrants)):
            joined = {e.user_id for e in await self.db.entrants(self.tournament_id)}
            missing = [u for u in self.entrants if u not in joined]
            if not missing:
                return
            user = missing[0]
            signup = self._signup_message()
            if signup is not None and self.rng.random() < 0.5:
                payload, token = self.lb.click_payload(user, f"tn:{self.tournament_id}:join", message=signup)
                await self.interact(payload, token)
            else:
                await self.slash(user, "tournament join", self.channel)
        raise AssertionError("the entrants could not all sign up")

    async def start(self) -> None:
        for _ in range(50):
            row = await self._row()
            if row.status != "signup":
                return
            await self.slash(self.host, "tournament start", self.channel)
        raise AssertionError("the tournament could not be started")

    async def play_rounds(self) -> None:
        """Each tournament game, as the bot opens it, played by its seated entrants until the tournament ends."""
        assert self.db is not None
        async with asyncio.TaskGroup() as group:
            while True:
                row = await self._row()
                if row.status in ("finished", "cancelled"):
                    break
                if row.current_round >= 1 and not self.withdrew_in_round:
                    await self.withdraw(row.current_round)
                for game in await self.db.active_games():
                    assert game.id is not None
                    if game.tournament_id == self.tournament_id and game.id not in self.playing:
                        self.playing[game.id] = group.create_task(self.play_table(game.id))
                await asyncio.sleep(0.3)
            for task in self.playing.values():
                task.cancel()  # (finished already: the tournament is over only when its games are)

    async def withdraw(self, round_number: int) -> None:
        assert self.db is not None
        await self.slash(self.quitter, "tournament withdraw", self.channel)
        entrant = next(e for e in await self.db.entrants(self.tournament_id) if e.user_id == self.quitter)
        if entrant.status == "withdrawn":
            self.withdrew_in_round = round_number

    async def play_table(self, game_id: int) -> None:
        assert self.db is not None
        seats = await self.db.seats(game_id)
        humans = [s.user_id for s in seats if s.user_id is not None and s.user_id not in (self.no_show, self.quitter)]
        if not humans:  # nobody here plays: the timer hands the no-show's seat to the AI, and the game
            self.unplayed.append(game_id)  # is abandoned once every seat is (a loss for both: checked)
            await self.until_over(game_id)
            del self.playing[game_id]
            return
        self.game_ids.append(game_id)
        self.figures.games_started += 1
        for user in humans:
            self.players[user] = game_id
        try:
            await self.play(game_id, humans)
        finally:
            for user in humans:
                self.players.pop(user, None)
            self.waiting_on_no_show.discard(game_id)
            del self.playing[game_id]

    async def until_over(self, game_id: int) -> None:
        assert self.db is not None
        while (row := await self.db.get_game(game_id)) is not None and row.status == "active":
            await asyncio.sleep(0.3)
            await self.idle(game_id, [])

    def channel_of(self, game_id: int) -> int:
        return self._threads.get(game_id, self.channel)

    async def play(self, game_id: int, humans: list[int]) -> bool:
        assert self.db is not None
        row = await self.db.get_game(game_id)
        self._threads[game_id] = (row.thread_id if row else None) or self.channel
        return await super().play(game_id, humans)

    # --- the run ------------------------------------------------------------------------------
    async def table(self, channel: int) -> None:
        """The crash run's one table is the tournament (its games are in threads of their own)."""
        await self.tournament()

    async def run_tournament(self) -> TournamentFigures:
        self.figures_t.crash = await self.run()
        return self.figures_t

    async def check(self) -> None:
        await super().check()
        assert self.db is not None
        t = self.figures_t
        row = await self._row()
        status = row.status if row else "missing"
        if status != "finished":
            t.problems.append(f"the tournament ended {status}")
        rounds = await self.db.rounds(self.tournament_id)
        t.rounds = len(rounds)
        tables = await self.db.round_tables(self.tournament_id)
        t.tables = len(tables)
        games_of = await self._tournament_games()
        t.games_opened = len(games_of)
        seen: dict[tuple[int, int], int] = {}
        for table in tables:
            if table.game_id is not None:
                seen[(table.round, table.table_index)] = table.game_id
        for game_id in self.unplayed:
            row_of = await self.db.get_game(game_id)
            if row_of is None or row_of.status not in ("finished", "abandoned"):
                t.problems.append(f"game {game_id} of nobody who plays ended {row_of.status if row_of else None}")
        recorded = set(seen.values())
        strays = [g for g in games_of if g not in recorded]
        t.tables_doubled = len(strays)
        if strays:
            t.problems.append(f"games opened for the tournament outside its tables: {strays}")
        for table in tables:
            if table.round > self.withdrew_in_round and self.quitter in (table.seats or []):
                t.withdrawn_paired_later += 1
        t.no_show_seated_rounds = len({table.round for table in tables if self.no_show in (table.seats or [])})
        entrant = next(e for e in await self.db.entrants(self.tournament_id) if e.user_id == self.no_show)
        t.no_show_missed_rounds = entrant.missed_rounds
        home = row.thread_id if row else None
        posts = self.lb.messages_in(home) if home else []
        said = [str(m.get("content") or "") for m in posts]
        t.round_posts = {
            "opened": sum(s.startswith("**Round ") and "the tables are open" in s for s in said),
            "over": sum(s.startswith("**Round ") and s.splitlines()[0].endswith("is over.") for s in said),
        }
        t.podium_posts = sum("🏆" in s for s in said)
        for kind, count in t.round_posts.items():
            if count != t.rounds:
                t.problems.append(f"{count} round-{kind} posts for {t.rounds} rounds")
        snapshot = await self.db.tournament_snapshot(self.tournament_id)
        t.champion = _champion(snapshot)

    async def _tournament_games(self) -> list[int]:
        assert self.db is not None
        found = []
        for game_id in range(1, 10_000):
            row = await self.db.get_game(game_id)
            if row is None:
                break
            if row.tournament_id == self.tournament_id:
                found.append(game_id)
        return found


def _champion(snapshot: Any) -> int | None:
    return None if snapshot is None else status_of(snapshot).champion


async def tournament_crash(
    *, game: str, entrants: int, table: int, rounds: int | None, kill_every: int, seed: int, workdir: Path
) -> TournamentFigures:
    url = f"sqlite+aiosqlite:///{workdir / 'tournament.sqlite3'}"
    loopback = await Loopback.start()
    log_path = workdir / "bot.log"
    try:
        with open(log_path, "wb") as log:  # noqa: ASYNC230 - opened once, before anything runs
            run = TournamentCrashRun(
                loopback,
                url,
                game=game,
                entrants=entrants,
                table=table,
                rounds=rounds,
                kill_every=kill_every,
                seed=seed,
                log=log,
            )
            figures = await run.run_tournament()
        figures.crash.bot_errors = count_errors(log_path)
        figures.refused_requests = len(refused_by_discord(loopback))
    finally:
        await loopback.close()
    return figures


def figures_of(result: TournamentFigures) -> dict[str, Any]:
    crash = asdict(result.crash)
    own = {k: v for k, v in asdict(result).items() if k not in ("crash", "problems")}
    kept = ["kills", "kills_mid_interaction", "decisions_acknowledged", "decisions_lost", "games_finished"]
    kept += ["games_unfinished", "unanswered", "old_buttons_dead", "hand_recoveries", "bot_errors", "duration_s"]
    return {**own, **{k: crash[k] for k in kept}}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench tournament_crash", description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="reggverse-riddles", choices=list(games.keys()))
    parser.add_argument("--entrants", type=int, default=8)
    parser.add_argument("--table", type=int, default=2, help="players per table")
    parser.add_argument("--rounds", type=int, default=None, help="Swiss rounds (default: by the entrants)")
    parser.add_argument("--kill-every", type=int, default=KILL_EVERY, help="interactions between two SIGKILLs")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workdir", default=None, help="keep the bot's log (and the SQLite file) here")
    parser.add_argument("--no-save", action="store_true", help="print only; leave bench/results alone")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="tournament-crash-") as tmp:
        workdir = Path(args.workdir or tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        result = asyncio.run(
            tournament_crash(
                game=args.game,
                entrants=args.entrants,
                table=args.table,
                rounds=args.rounds,
                kill_every=args.kill_every,
                seed=args.seed,
                workdir=workdir,
            )
        )
        if result.crash.bot_errors:
            print(Path(workdir, "bot.log").read_text(encoding="utf-8", errors="replace")[-4000:], file=sys.stderr)
    figures = figures_of(result)
    for name, value in figures.items():
        print(f"{name:>24}: {value}")
    for problem in result.problems + result.crash.problems[:20]:
        print("PROBLEM:", problem)
    if not args.no_save:
        from bench.results import command, save

        save(
            f"tournament_crash_{args.game}",
            command("tournament_crash", argv),
            figures,
            title="A whole Swiss tournament through the real bot process, SIGKILLed in sign-up, pairing and play",
            targets={"tables_doubled": "0", "podium_posts": "1", "decisions_lost": "0", "bot_errors": "0"},
            notes="Scripted entrants sign up, play every table from their DMs; one withdraws in round 1, one never "
            "shows (the AI plays their seat after their turn timer, which runs out while the bot is down).",
        )
    return 0 if result.ok() else 1
