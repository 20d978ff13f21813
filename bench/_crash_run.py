"""The crash proof's players and checks: scripted players who open games and click what the bot sent
them while the bot is SIGKILLed and restarted (`CrashRun`), and what a run found (`Figures`). `bench.crash`
runs it; `bench.shards` (two processes on one database) and `bench.conformance` (every request judged)
build on it."""

from __future__ import annotations

import asyncio
import copy
import json
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import games
from bot.texts import i18n, text
from fakediscord.loopback import Loopback
from harness.run_bot import BotProcess
from storage import Database
from table import messages as table_messages
from table.stalls import stall_report

# What a button that is no longer valid must answer, and how a decision is acknowledged, in each language
# (the start of each sentence, before its first placeholder or colon).
STALE_MESSAGES = (
    table_messages.STALE,
    table_messages.ALREADY_DECIDED,
    table_messages.NOTHING_TO_DECIDE,
    table_messages.GAME_OVER,
)


def _opening(lang: str, message: str) -> str:
    return i18n.t(lang, message).split("{")[0].split(":")[0].rstrip(" .\u00a0\u202f")


def stale_answers(lang: str) -> tuple[str, ...]:
    return tuple(_opening(lang, m) for m in STALE_MESSAGES)


def acknowledged(lang: str) -> str:
    """How "You chose: ..." begins in `lang`."""
    return _opening(lang, text.YOU_CHOSE)


STALE_ANSWERS = stale_answers(i18n.DEFAULT)
IDLE_BEFORE_HAND = 3.0  # seconds nobody could move before a prompted player without buttons asks for their hand
STALLED = 60.0  # seconds nobody could move, even after "/game hand": the game is stuck
MOST_SEATS = 6  # a game that allows more is played with at most this many (a crash run wants many games)
# (game key, fewest seats, most seats) the players choose from: every registered game unless set (bench.shards
# plays 2-seat Eggs and Empires only).
ONLY: tuple[str, int, int] | None = None


def seat_choices() -> list[tuple[str, int, int]]:
    if ONLY is not None:
        return [ONLY]
    return [(k, games.get(k).min_players, min(games.get(k).max_players, MOST_SEATS)) for k in games.keys()]


# The bots run their timers as in production. The games keep the default turn timer (180 s), which
# does not run out while the players click; the timers finish what a killed process left (issue 20).
TIMER_INTERVAL = "1"


@dataclass
class Figures:
    kills: int = 0
    kills_survived: int = 0  # restarts after which the bot came back and played on
    kills_mid_interaction: int = 0  # kills with at least one interaction awaiting its answer
    decisions_acknowledged: int = 0
    decisions_lost: int = 0
    decisions_doubled: int = 0  # a click applied twice (checked with two processes): must be 0
    games_started: int = 0
    games_finished: int = 0
    games_unfinished: int = 0  # started, never finished: must be 0
    games_stalled: int = 0  # nobody could move for STALLED seconds (each with its stall report in problems)
    interactions: int = 0
    unanswered: int = 0  # delivered to a live bot that was not killed, and never answered: must be 0
    in_flight_at_kill: int = 0  # delivered, then the bot was killed before answering
    sent_while_down: int = 0  # no bot connected: Discord shows "interaction failed"
    old_buttons_clicked: int = 0
    old_buttons_dead: int = 0  # an old button answered with anything but a decision or a stale refusal
    lobbies_abandoned: int = 0  # a kill before the lobby message was posted: the host opens a new one
    hand_recoveries: int = 0  # "/game hand" used because a crash left a player's DM behind
    restart_median_s: float = 0.0
    duration_s: float = 0.0
    bot_errors: int = 0  # ERROR lines and tracebacks in the bot's log
    problems: list[str] = field(default_factory=list)

    def ok(self) -> bool:
        return (
            self.decisions_lost == 0
            and self.decisions_doubled == 0
            and self.games_stalled == 0
            and self.unanswered == 0
            and self.old_buttons_dead == 0
            and self.games_finished == self.games_started
            and self.kills_survived == self.kills
            and not self.problems
        )


@dataclass
class Acked:
    game_id: int
    seat: int
    offered: int
    action: list[str]


def choice_of(component: dict[str, Any], values: list[str] | None) -> tuple[int, int, int, list[str]] | None:
    """(game, seat, offered, action) of a choice button or select, from its custom_id."""
    custom_id = str(component.get("custom_id", ""))
    if custom_id.startswith("g:"):
        parts = custom_id[2:].split(":", 3)
        return int(parts[0]), int(parts[1]), int(parts[2]), [parts[3]]
    if custom_id.startswith("gs:") and values is not None:
        game_id, seat, offered = (int(p) for p in custom_id[3:].split(":"))
        return game_id, seat, offered, list(values)
    return None


class CrashRun:
    def __init__(
        self,
        loopback: Loopback,
        database_url: str,
        *,
        kills: int,
        tables: int,
        seed: int,
        log: IO[bytes],
        max_gap: float = 3.0,
    ) -> None:
        self.lb = loopback
        self.database_url = database_url
        self.kills_wanted = kills
        self.rng = random.Random(seed)
        self.log = log
        self.max_gap = max_gap
        self.figures = Figures()
        self.acked: list[Acked] = []
        self.bot: BotProcess | None = None
        self.generation = 0  # which bot process interactions are delivered to
        self.up = asyncio.Event()
        self.db: Database | None = None
        self.channels = [self.lb.fake.add_text_channel(f"table-{i}") for i in range(tables)]
        self.snapshots: list[tuple[int, dict[str, Any]]] = []  # (user, message) copies taken at kills
        self.clicked: list[tuple[int, dict[str, Any]]] = []  # the latest messages as they were when clicked
        self.game_ids: list[int] = []
        self.restart_times: list[float] = []
        self.killing = True
        self.outcomes: Counter[str] = Counter()

    # --- the bot process -------------------------------------------------------------------------
    async def boot(self) -> None:
        mark = self.lb.identified
        started = time.perf_counter()
        self.bot = await BotProcess.spawn(self.lb, self.database_url, log=self.log, timer_interval=TIMER_INTERVAL)
        await self.lb.wait_ready(since=mark, within=120)
        self.restart_times.append(time.perf_counter() - started)
        self.generation += 1
        self.up.set()

    async def killer(self) -> None:
        """Kill the bot at random moments, `kills_wanted` times, restarting it each time."""
        while self.figures.kills < self.kills_wanted:
            # A few decisions first (none, sometimes: a kill in the lobby), then a random moment.
            await self.lb.wait_until(self._decided(self.figures.decisions_acknowledged + self.rng.randint(0, 8)), 120)
            await asyncio.sleep(self.rng.uniform(0.0, self.max_gap))
            await self.kill_and_restart()
        self.killing = False

    async def kill_and_restart(self) -> None:
        """SIGKILL the bot, restart it on the same database, then click a few old buttons."""
        assert self.bot is not None
        self.snapshot()
        in_flight = [t for t, g in self._pending.items() if g == self.generation]
        self.up.clear()
        self.bot.kill()
        await self.bot.wait()
        self.figures.kills += 1
        if in_flight:
            self.figures.kills_mid_interaction += 1
        await self.while_down()
        await self.lb.poke()
        await self.boot()
        self.figures.kills_survived += 1
        await self.click_old_buttons()

    async def while_down(self) -> None:
        """Between a kill and the restart (bench.tournament_crash: the outage outlasts a turn timer)."""

    def _decided(self, count: int) -> Callable[[], bool]:
        return lambda: self.figures.decisions_acknowledged >= count

    def snapshot(self) -> None:
        """Copies of every player's newest messages with choices: the buttons sent just before a kill."""
        for user in list(self.players):
            for message in self.lb.dms(user)[-1:] + self.lb.ephemerals(user)[-1:]:
                if any(choice_of(c, []) for c in self.lb.components(message)):
                    self.snapshots.append((user, copy.deepcopy(message)))

    async def click_old_buttons(self) -> None:
        """After a restart: a few buttons from older snapshots, each answered by a decision or a stale refusal."""
        older = self.snapshots[:-2] + self.clicked
        picks = self.snapshots[-2:] + self.rng.sample(older, min(2, len(older)))
        for user, message in picks:
            components = [c for c in self.lb.components(message) if choice_of(c, [])]
            if not components:
                continue
            answer = await self.choose(user, message, self.rng.choice(components))
            self.figures.old_buttons_clicked += 1
            if answer in ("lost", "other"):  # nobody kills the bot meanwhile: "lost" is no answer at all
                self.figures.old_buttons_dead += 1

    # --- interactions ----------------------------------------------------------------------------
    _pending: dict[str, int]

    async def interact(self, payload: dict[str, Any], token: str) -> list[dict[str, Any]] | None:
        """Send once the bot is up; the responses, or None when the bot died before answering."""
        await self.up.wait()
        generation = self.generation
        self.figures.interactions += 1
        if not await self.lb.send(payload, token):
            self.figures.sent_while_down += 1
            if self.bot is not None and not self.bot.alive and self.up.is_set():
                raise RuntimeError(f"the bot exited by itself (code {self.bot.process.returncode}): see its log")
            await asyncio.sleep(0.1)  # its gateway is reconnecting
            return None
        self._pending[token] = generation
        await self.lb.wait_until(
            lambda: self.lb.is_answered(token) or self.generation != generation or not self.up.is_set(), 30
        )
        self._pending.pop(token, None)
        if self.lb.is_answered(token):
            return self.lb.responses_for(token)
        if self.generation != generation or not self.up.is_set():
            await asyncio.sleep(0.05)  # the answer may still have raced the kill
            if self.lb.is_answered(token):
                return self.lb.responses_for(token)
            self.figures.in_flight_at_kill += 1
            return None
        self.figures.unanswered += 1
        self.figures.problems.append(f"interaction {payload['data']} got no answer from a live bot")
        return None

    async def choose(self, user: int, message: dict[str, Any], component: dict[str, Any]) -> str:
        """Click a choice (or pick from a select); "acked", "stale", "refused", "lost" or "other"."""
        values = None
        if component["type"] == 3:
            options = [o["value"] for o in component["options"]]
            values = self.rng.sample(options, int(component.get("min_values") or 1))
        before = copy.deepcopy(message)
        payload, token = self.lb.click_payload(user, component["custom_id"], message=message, values=values)
        responses = await self.interact(payload, token)
        if responses is None:
            return "lost"
        final = [r for r in responses if r["type"] in (4, 7, "edit", "followup")]
        said = json.dumps([r["data"] for r in final], ensure_ascii=False)
        lang = i18n.language(self.lb.fake.locales.get(user))
        if any(r["type"] in (7, "edit") for r in final) and acknowledged(lang) in said:
            parsed = choice_of(component, values)
            assert parsed is not None
            self.acked.append(Acked(*parsed))
            self.figures.decisions_acknowledged += 1
            self.clicked = [*self.clicked[-19:], (user, before)]
            outcome = "acked"
        elif any(stale in said for stale in stale_answers(lang)):
            outcome = "stale"
        elif final and all(
            int((r["data"] or {}).get("flags") or 0) & 64 for r in final if r["type"] in (4, "followup")
        ):
            outcome = "refused"  # a rule refusal ("you cannot take that"): pick again
        else:
            outcome = "other"
            self.figures.problems.append(f"unexpected answer to {component['custom_id']}: {said[:300]}")
        self.outcomes[outcome] += 1
        return outcome

    async def slash(self, user: int, command: str, channel: int, **options: Any) -> list[dict[str, Any]] | None:
        payload, token = self.lb.slash_payload(user, command, channel=channel, **options)
        return await self.interact(payload, token)

    # --- the players -----------------------------------------------------------------------------
    players: dict[int, int]  # user -> game id (0 while in the lobby)

    async def open_game(self, channel: int, key: str, humans: list[int], ai: int) -> int:
        """Lobby, joins, AI seats, start: one interaction at a time, re-reading the database after each."""
        assert self.db is not None
        host = humans[0]
        for _ in range(500):
            row = await self.db.channel_game(channel)
            if row is None:
                await self.slash(host, "game new", channel, game=key)
                continue
            assert row.id is not None
            if row.status == "active":
                return row.id
            seats = await self.db.seats(row.id)
            seated = {s.user_id for s in seats}
            missing = [u for u in humans if u not in seated]
            ai_seated = sum(1 for s in seats if s.user_id is None)
            lobby = self._lobby_message(row.id)
            if missing:
                user = missing[0]
                if lobby is not None and self.rng.random() < 0.5:
                    payload, token = self.lb.click_payload(user, f"lb:{row.id}:join", message=lobby)
                    await self.interact(payload, token)
                else:
                    await self.slash(user, "game join", channel)
            elif ai_seated < ai and lobby is not None:
                payload, token = self.lb.click_payload(host, f"lb:{row.id}:ai", message=lobby)
                await self.interact(payload, token)
            elif ai_seated < ai:
                # The bot died before posting the lobby, so there is no "Add AI" button: start over.
                self.figures.lobbies_abandoned += 1
                await self.slash(host, "game abandon", channel)
            elif lobby is not None and self.rng.random() < 0.5:
                payload, token = self.lb.click_payload(host, f"lb:{row.id}:start", message=lobby)
                await self.interact(payload, token)
            else:
                await self.slash(host, "game start", channel)
        last = [r["data"] for r in self.lb.fake.responses[-3:]]
        raise AssertionError(f"could not open a {key} game in channel {channel}: last answers {last}")

    def _lobby_message(self, game_id: int) -> dict[str, Any] | None:
        try:
            return self.lb.find_message(f"lb:{game_id}:start")[1]
        except AssertionError:
            return None

    def live_message(self, user: int, game_id: int, dead: set[tuple[int, str]]) -> dict[str, Any] | None:
        """The user's newest message with choices of this game (DM or "/game hand" answer) not known stale."""
        best: tuple[int, int, dict[str, Any]] | None = None
        for message in self.lb.dms(user) + self.lb.ephemerals(user):
            offered = [choice_of(c, []) for c in self.lb.components(message)]
            mine = [o for o in offered if o is not None and o[0] == game_id]
            if not mine or (int(message["id"]), _fingerprint(message)) in dead:
                continue
            key = (mine[0][2], int(message["id"]))
            if best is None or key > best[:2]:
                best = (*key, message)
        return best[2] if best else None

    async def play(self, game_id: int, humans: list[int]) -> bool:
        """Play to the end; False if the game stalled (reported in problems)."""
        assert self.db is not None
        dead: set[tuple[int, str]] = set()
        loop = asyncio.get_running_loop()
        idle_since = loop.time()
        asked = 0.0  # when the players last asked for their hands
        generation = self.generation
        for _ in range(20_000):
            row = await self.db.get_game(game_id)
            assert row is not None
            if row.status != "active":
                return True
            progressed = False
            for user in humans:
                message = self.live_message(user, game_id, dead)
                if message is None:
                    continue
                components = [c for c in self.lb.components(message) if choice_of(c, [])]
                outcome = await self.choose(user, message, self.rng.choice(components))
                if outcome == "acked":
                    progressed = True
                elif outcome in ("stale", "other"):
                    dead.add((int(message["id"]), _fingerprint(message)))
            if progressed or generation != self.generation:
                # Idle time counts while one bot process runs: a slow restart is no stall.
                idle_since, generation = loop.time(), self.generation
                continue
            await self.up.wait()
            await asyncio.sleep(0.2)
            await self.idle(game_id, humans)
            if loop.time() - idle_since > STALLED and generation == self.generation:
                waiting = await self.prompted(game_id, humans)
                self.figures.games_stalled += 1
                self.figures.problems.append(
                    f"game {game_id} stalled: nobody could move for {STALLED:.0f} s; prompted humans {waiting}, "
                    f"with a live message: {[u for u in waiting if self.live_message(u, game_id, dead)]}; "
                    f"{await stall_report(self.db, game_id)}"
                )
                return False
            if loop.time() - max(idle_since, asked) > IDLE_BEFORE_HAND:
                # Nobody could move: a crash left someone's DM behind. They ask for their hand.
                for user in await self.prompted(game_id, humans):
                    if self.live_message(user, game_id, dead) is None:
                        self.figures.hand_recoveries += 1
                        await self.slash(user, "game hand", self.channel_of(game_id))
                asked = loop.time()
        raise AssertionError(f"game {game_id} never ended")

    async def idle(self, game_id: int, humans: list[int]) -> None:
        """Called while none of `humans` could move in `game_id` (bench.tournament_crash: a no-show's turn)."""

    async def prompted(self, game_id: int, humans: list[int]) -> list[int]:
        assert self.db is not None
        row = await self.db.get_game(game_id)
        if row is None or row.status != "active":
            return []
        state, _version = await self.db.load_state(game_id)
        engine = games.get(row.game_key)
        seats = await self.db.seats(game_id)
        return [u for p in engine.prompts(engine.from_json(state)) if (u := seats[p.seat].user_id) in humans]

    def channel_of(self, game_id: int) -> int:
        return self._channels[game_id]

    async def table(self, channel: int) -> None:
        """One channel: games one after another while the killer runs, of each game in turn."""
        choices = seat_choices()
        while self.killing:
            key, low, high = choices[self.rng.randrange(len(choices))]
            seats = self.rng.randint(low, high)
            humans_count = self.rng.randint(1, seats)
            humans = [self.lb.user(f"p{len(self.players) + i}") for i in range(humans_count)]
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
                return  # the channel stays taken by the stuck game: this table stops

    # --- the run ---------------------------------------------------------------------------------
    async def run(self) -> Figures:
        self._pending = {}
        self.players = {}
        self._channels: dict[int, int] = {}
        started = time.perf_counter()
        await self.boot()
        self.db = await Database.open(self.database_url)
        try:
            if await self.db.count_games():
                raise SystemExit("the crash bench needs an empty database (its ids restart at each run)")
            async with asyncio.TaskGroup() as group:  # a failing table stops the run
                group.create_task(self.killer())
                for channel in self.channels:
                    group.create_task(self.table(channel))
            await self.check()
        finally:
            if self.bot is not None:
                await self.bot.stop()
            await self.db.close()
        self.figures.duration_s = round(time.perf_counter() - started, 1)
        self.figures.restart_median_s = round(statistics.median(self.restart_times), 2)
        return self.figures

    async def check(self) -> None:
        """Every acknowledged decision is in the log; every game finished."""
        assert self.db is not None
        logs = {g: await self.db.actions(g) for g in self.game_ids}
        for acked in self.acked:
            later = [a for a in logs[acked.game_id] if a.seat == acked.seat and a.seq > acked.offered]
            if not later or list(later[0].action) != acked.action:
                self.figures.decisions_lost += 1
                found = list(later[0].action) if later else None
                self.figures.problems.append(f"lost: {acked} (log has {found})")
        for game_id in self.game_ids:
            row = await self.db.get_game(game_id)
            if row is not None and row.status == "finished":
                self.figures.games_finished += 1
            else:
                self.figures.games_unfinished += 1
                self.figures.problems.append(f"game {game_id} ended {row.status if row else 'missing'}")


def _fingerprint(message: dict[str, Any]) -> str:
    return json.dumps([message.get("content"), message.get("components")], sort_keys=True)


def refused_by_discord(loopback: Loopback) -> list[Any]:
    """The requests Discord's description or limits refused: 400 Invalid Form Body, or a route it does not
    have (404 and 405 with code 0; a 404 Unknown Message is Discord's answer about a message, not the request)."""
    return [
        c
        for c in loopback.fake.calls
        if c.refused and (c.refused.get("code") == 50035 or (c.refused.get("code") == 0 and c.status in (404, 405)))
    ]


def count_errors(log_path: Path) -> int:
    text = log_path.read_text(encoding="utf-8", errors="replace")
    return text.count("Traceback") + sum(1 for line in text.splitlines() if " ERROR " in line)
