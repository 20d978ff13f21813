"""The people of `bench load`: lobbies opened, and every human seat clicking its DM in a closed loop."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import pickle
import random
import statistics
import sys
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bench.load.record import Recorder
    from fakediscord.driver import Driver
    from fakediscord.fake_discord import Call
    from fakediscord.loopback import Loopback
    from harness import Harness

from bench._figures import percentile
from bench.load.measure import Ledger, _refusal_prefixes, choice_components, refusal_reason, rest_figures
from bench.load.plan import (
    ANSWER_WITHIN,
    EPHEMERAL,
    FAKE_RECORDS,
    FINISHED_POLL,
    LOBBY_ATTEMPTS,
    LOBBY_WITHIN,
    RETRY_AFTER,
    STALL_SECONDS,
    TRY_AGAIN,
    Pending,
    Table,
    ThinkTime,
)


class LoadRun:
    """Drives the games of one run through a driver (in-process Harness or Loopback) and records what
    happened, by watching every REST call the fake Discord serves."""

    ai_level = "heuristic"  # the level of the AI seats the lobbies get

    def __init__(self, driver: Driver, think: float | ThinkTime, rng: random.Random) -> None:
        self.driver = driver
        self.think = think if isinstance(think, ThinkTime) else ThinkTime(think)
        self.rng = rng
        self.prefixes = _refusal_prefixes()
        self.tables: list[Table] = []
        self.by_channel: dict[int, Table] = {}
        self.by_thread: dict[int, Table] = {}
        self.dm_of: dict[int, int] = {}  # user -> DM channel
        self.user_of_dm: dict[int, int] = {}
        self.changed: dict[int, asyncio.Event] = {}  # user -> "their DM changed"
        self.pending: dict[str, Pending] = {}  # token -> the interaction waiting for its answer
        self.latencies: list[float] = []  # arrival -> first callback (a deferral counts), clicks only
        self.answers: list[float] = []  # arrival -> the answer itself (the first message or edit)
        self.lobby_latencies: dict[str, list[float]] = {}  # lobby step -> arrival -> its answer
        self.lobby_retries: Counter[str] = Counter()  # "step: reason" -> lobby interactions tried again
        self.clicks = 0
        self.outcomes: Counter[str] = Counter()  # "accepted", "refused", "unanswered", "undelivered"
        self.refusals: Counter[str] = Counter()  # reason -> clicks refused for it
        self.late_answers: Counter[str] = Counter()  # "accepted" or reason -> unanswered clicks answered later
        self.bot_calls: Counter[str] = Counter()  # REST calls the bot made with its own token, by kind
        # Calls through interaction tokens (Discord does not count them against the global limit): "answer"
        # (a click's callback, and the edit or follow-up that answers a deferred one) and the notifier's
        # ("followup", "edit", "delete": players reached through their latest click).
        self.exempt_calls: Counter[str] = Counter()
        # Pictures uploaded: "files", "bytes"; "reuploads" (what the message shows already), "returns" (what it
        # showed before), "repeated" (what another message was given: a new one).
        self.uploaded: Counter[str] = Counter()
        self._digests: set[str] = set()  # of the files uploaded while recording
        self.turns: Counter[int] = Counter()  # game id -> resolved turns (log posts)
        self.last_progress = time.perf_counter()
        self.recording = False
        self.closing = False  # the window is over: players stop clicking
        self.closed = asyncio.Event()  # set with `closing`: wakes the players who are thinking
        self.keep_records = True  # the in-process driver's own helpers read fake.calls / fake.responses
        self.recorder: Recorder | None = None  # `bench load --record`: what the bot sends while playing
        self.players: list[asyncio.Task[None]] = []  # one per human seat playing
        fake = driver.fake
        self._original_handle = fake._handle
        fake._handle = self._observe  # type: ignore[method-assign]

    # --- the transport (one per mode) -------------------------------------------------------
    async def deliver(self, payload: dict[str, Any], token: str) -> bool:
        raise NotImplementedError

    # --- watching the fake Discord -----------------------------------------------------------
    def _observe(self, call: Call) -> Any:
        """Every REST call the fake serves: note answers, wake the player whose DM changed, and
        (while recording) count the call and drop the fake's copy so a long run does not pile up."""
        recorder = self.recorder
        if recorder is None:
            result = self._original_handle(call)
        else:
            recorder.handling()
            try:
                result = self._original_handle(call)
            finally:
                recorder.request(call)
        self._after(call, result)
        return result

    def _after(self, call: Call, result: Any) -> None:
        from harness.play import classify

        fake = self.driver.fake
        parts = call.path.strip("/").split("/")
        body = call.json or {}
        channel: int | None = None
        answering = False
        if parts[0] == "interactions":  # /interactions/{id}/{token}/callback
            kind = int(body.get("type", 0))
            data = body.get("data") or {}
            self._answered(
                parts[2],
                final=kind in (4, 7),
                content=data.get("content"),
                ephemeral=bool(int(data.get("flags") or 0) & EPHEMERAL),
            )
            channel = fake.interaction_sources.get(parts[2], {}).get("channel_id")
        elif parts[0] == "webhooks" and len(parts) > 2:  # a followup or an edit after a deferral, or the notifier's
            answering = parts[2] in self.pending
            refusal = call.method == "POST" and bool(int(body.get("flags") or 0) & EPHEMERAL)
            self._answered(parts[2], final=True, content=body.get("content"), ephemeral=refusal)
            channel = fake.interaction_sources.get(parts[2], {}).get("channel_id")
        elif parts[:3] == ["users", "@me", "channels"] and isinstance(result, dict):
            user, dm = int(body["recipient_id"]), int(result["id"])
            self.dm_of[user], self.user_of_dm[dm] = dm, user
        elif parts[0] == "channels" and len(parts) >= 3:
            channel = int(parts[1])
            if parts[2] == "threads" and call.method == "POST" and channel in self.by_channel:
                table = self.by_channel[channel]
                table.thread = int(result["id"])
                self.by_thread[table.thread] = table
        watcher = self.user_of_dm.get(channel) if channel is not None else None
        if watcher is not None and watcher in self.changed:
            self.changed[watcher].set()
        if not self.recording:
            if not self.keep_records:
                fake.calls.clear()
                fake.responses.clear()
            return
        for upload in call.uploads:
            self.uploaded.update(files=1, bytes=upload.size, repeated=upload.digest in self._digests)
            self._digests.add(upload.digest)
        self.uploaded.update(reuploads=call.reuploads, returns=call.returns)
        if parts[0] == "interactions" or (parts[0] == "webhooks" and answering):
            self.exempt_calls["answer"] += 1
        elif call.via != "http":
            self.exempt_calls[{"POST": "followup", "PATCH": "edit", "DELETE": "delete"}.get(call.method, "other")] += 1
        else:
            self.bot_calls[classify(self.driver, call.method, call.path)] += 1  # type: ignore[arg-type]
            if channel is not None and call.method == "POST" and channel in self.by_thread:
                table = self.by_thread[channel]
                self.turns[table.game_id] += 1
                posted = fake.messages.get(channel, {})
                if len(posted) > 1:  # keep the table message (edited each turn), drop the log line
                    posted.pop(max(posted))
        fake.calls.clear()
        fake.responses.clear()

    def _answered(self, token: str, *, final: bool, content: str | None, ephemeral: bool) -> None:
        pending = self.pending.get(token)
        if pending is None:
            return
        now = time.perf_counter()
        if pending.first is None:
            pending.first = now
            if pending.kind == "click":
                self.latencies.append(now - pending.arrival)
        if not final:
            return
        del self.pending[token]
        if pending.late:  # a click already counted unanswered: what it got in the end
            self.late_answers[(refusal_reason(content or "", self.prefixes) if ephemeral else "accepted")] += 1
            return
        if pending.kind == "click":
            self.answers.append(now - pending.arrival)
        else:
            self.lobby_latencies.setdefault(pending.kind, []).append(now - pending.arrival)
        if not pending.answer.done():
            pending.answer.set_result(refusal_reason(content or "", self.prefixes) if ephemeral else None)

    async def interact(self, kind: str, payload: dict[str, Any], token: str, within: float) -> str | None:
        """Hand an interaction to the bot and wait for its answer: None (accepted) or the refusal's reason.
        Raises TimeoutError when it is not answered `within` seconds."""
        answer: asyncio.Future[str | None] = asyncio.get_running_loop().create_future()
        self.pending[token] = Pending(kind, time.perf_counter(), answer)
        if self.recorder is not None and kind == "click":
            self.recorder.interaction(payload, token, self.driver.fake.interaction_sources.get(token))
        if not await self.deliver(payload, token):
            del self.pending[token]
            raise ConnectionError("no bot connection took the interaction")
        try:
            return await asyncio.wait_for(asyncio.shield(answer), within)
        except TimeoutError:
            pending = self.pending.get(token)
            if pending is None:  # answered just as the wait ran out (the 1000-game run met it): take it
                return answer.result()
            pending.late = True
            raise

    # --- opening the games -------------------------------------------------------------------
    async def open_game(self, index: int, key: str, variants: str, humans: int, ais: int, channel: int) -> Table:
        """/game new, Join clicks, Add AI, Start: one interaction after the other, as the host and players would."""
        driver = self.driver
        users = [driver.user(f"P{index}-{i}") for i in range(humans)]
        table = Table(key, variants, users, ais, channel)
        self.by_channel[channel] = table
        for user in users:
            self.changed[user] = asyncio.Event()
        extra: dict[str, Any] = {"variants": variants} if variants else {}
        await self._lobby_step(
            table,
            "game new",
            lambda: driver.slash_payload(users[0], "game new", channel=channel, game=key, timer=0, **extra),
        )
        for user in users[1:]:
            await self._lobby_click(table, user, "Join")
        for _ in range(ais):
            await self._add_ai(table, users[0])
        custom_id, _message = self._lobby_button(table, "Start")
        table.game_id = int(custom_id.split(":")[1])
        await self._lobby_click(table, users[0], "Start")
        await self._opened(table)
        self.tables.append(table)
        return table

    def _has_dm(self, user: int) -> bool:
        dm = self.dm_of.get(user)
        return dm is not None and bool(self.driver.fake.messages.get(dm))

    async def _opened(self, table: Table) -> None:
        """Wait until every player of a started game has their DM: Start is answered first, its thread,
        table and DMs follow. (Counting a game open at its answer would let the next lobbies pile up on
        the bot's unsent openings, which is not how hosts wait for their game.)"""
        deadline = time.perf_counter() + LOBBY_WITHIN
        for user in table.humans:
            while not self._has_dm(user):
                changed = self.changed[user]
                changed.clear()
                if self._has_dm(user):
                    break
                if time.perf_counter() > deadline:
                    raise AssertionError(f"no DM for a player of a {table.key} game {LOBBY_WITHIN:g} s after Start")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(changed.wait(), 1.0)

    async def _lobby_step(self, table: Table, kind: str, interaction: Callable[[], tuple[dict[str, Any], str]]) -> None:
        """One lobby interaction (made afresh by `interaction()` for each try, as Discord gives each click its
        own); tried again a moment later when the bot says it changed nothing and to try again."""
        for _attempt in range(LOBBY_ATTEMPTS):
            payload, token = interaction()
            refused = await self.interact(kind, payload, token, LOBBY_WITHIN)
            if refused is None:
                return
            if refused not in TRY_AGAIN:
                raise AssertionError(f"{kind} refused in the lobby of a {table.key} game: {refused}")
            self.lobby_retries[f"{kind}: {refused}"] += 1
            await asyncio.sleep(RETRY_AFTER)
        raise AssertionError(f"{kind} refused {LOBBY_ATTEMPTS} times in the lobby of a {table.key} game")

    def _lobby_button(self, table: Table, label: str) -> tuple[str, dict[str, Any]]:
        for message in reversed(self.driver.messages_in(table.channel)):
            for component in self.driver.components(message):
                if component.get("label") == label:
                    return str(component["custom_id"]), message
        raise AssertionError(f"no {label!r} button in the lobby of a {table.key} game")

    async def _add_ai(self, table: Table, user: int) -> None:
        """Add AI (the easy level), or an AI of `ai_level` picked in the lobby's AI select."""
        if self.ai_level == "heuristic":
            await self._lobby_click(table, user, "Add AI")
            return

        def pick() -> tuple[dict[str, Any], str]:
            for message in reversed(self.driver.messages_in(table.channel)):
                for component in self.driver.components(message):
                    if str(component.get("custom_id", "")).endswith(":add_ai"):
                        custom_id = str(component["custom_id"])
                        return self.driver.click_payload(
                            user, custom_id, message=message, channel=table.channel, values=[self.ai_level]
                        )
            raise AssertionError(f"no AI level select in the lobby of a {table.key} game")

        await self._lobby_step(table, "Add AI", pick)

    async def _lobby_click(self, table: Table, user: int, label: str) -> None:
        def click() -> tuple[dict[str, Any], str]:
            custom_id, message = self._lobby_button(table, label)
            return self.driver.click_payload(user, custom_id, message=message, channel=table.channel)

        await self._lobby_step(table, label, click)

    async def open_all(
        self,
        planned: Sequence[tuple[str, str, int, int]],
        channels: Sequence[int],
        *,
        concurrency: int,
        first_index: int = 0,
        progress: bool = False,
    ) -> float:
        """Open these games, `concurrency` lobbies at a time; the wall time it took."""
        gate = asyncio.Semaphore(concurrency)
        started = time.perf_counter()
        opened = 0

        async def one(index: int, game: tuple[str, str, int, int], channel: int) -> None:
            nonlocal opened
            async with gate:
                await self.open_game(index, *game, channel)
            opened += 1
            if progress and opened % 100 == 0:
                print(f"{opened} games open after {time.perf_counter() - started:.0f} s", file=sys.stderr)

        async with asyncio.TaskGroup() as group:
            for index, (game, channel) in enumerate(zip(planned, channels, strict=False)):
                group.create_task(one(first_index + index, game, channel))
        return time.perf_counter() - started

    def forget(self) -> None:
        """Drop the games opened so far from the run (the warm-up game)."""
        for table in self.tables:
            table.finished = True
            for user in table.humans:
                self.changed.pop(user, None)
        self.tables.clear()
        self.by_thread.clear()
        self.by_channel.clear()
        self.lobby_latencies.clear()
        self.lobby_retries.clear()

    # --- playing -----------------------------------------------------------------------------
    def _offer(self, user: int) -> tuple[dict[str, Any] | None, list[dict[str, Any]], str]:
        """The user's DM message as it is now, its choices, and their custom ids as one version string."""
        dm = self.dm_of.get(user)
        messages = self.driver.fake.messages.get(dm, {}) if dm is not None else {}
        message = messages[max(messages)] if messages else None
        choices = choice_components(message) if message is not None else []
        return message, choices, ":".join(str(c["custom_id"]) for c in choices)

    async def _click(self, user: int, message: dict[str, Any], choices: list[dict[str, Any]]) -> str | None:
        """Click one of `choices` on `message` (a random button, or a random pick on its select); the
        refusal's reason, if it was refused."""
        component = self.rng.choice(choices)
        data: dict[str, Any] = {"custom_id": component["custom_id"], "component_type": component["type"]}
        if component["type"] == 3:
            data["values"] = self.rng.sample([o["value"] for o in component["options"]], component["min_values"])
        payload, token = self.driver._payload(user, 3, data, self.dm_of[user], message)
        self.clicks += 1
        try:
            refused = await self.interact("click", payload, token, ANSWER_WITHIN)
        except TimeoutError:
            self.outcomes["unanswered"] += 1
            return None
        except ConnectionError:
            self.outcomes["undelivered"] += 1
            return None
        self.last_progress = time.perf_counter()
        if refused is None:
            self.outcomes["accepted"] += 1
        else:
            self.outcomes["refused"] += 1
            self.refusals[refused] += 1
        return refused

    async def player(self, table: Table, user: int) -> None:
        """One human: waits for a prompt in their DM, thinks, looks again and clicks what the DM shows
        then; until the game is over (or the run's window closes: a click already sent is still waited for)."""
        changed = self.changed[user]
        answered: str | None = None  # the version of the choices last clicked
        while not table.finished and not self.closing:
            changed.clear()
            _message, choices, version = self._offer(user)
            if not choices or version == answered:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(changed.wait(), timeout=5)
                continue
            # Thinking ends early when the window closes: a log-normal think time can last minutes.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.closed.wait(), self.think.draw(self.rng))
            if table.finished or self.closing:
                return
            # The fake edits messages in place: what was read before thinking may be gone. A person
            # clicks what the screen shows now, so read it again (a click can still cross an edit in flight).
            message, choices, version = self._offer(user)
            if message is None or not choices or version == answered:
                continue
            answered = version
            if await self._click(user, message, choices) in TRY_AGAIN:
                answered = None  # nothing changed: the same buttons are clicked again after a moment

    async def watch_ends(self, ledger: Ledger) -> None:
        """Mark games over as the database says they ended, waking their players."""
        while True:
            running = [t.game_id for t in self.tables if not t.finished]
            for game_id in await ledger.ended(running):
                table = next(t for t in self.tables if t.game_id == game_id)
                table.finished = True
                for user in table.humans:
                    self.changed[user].set()
            await asyncio.sleep(FINISHED_POLL)

    def start_players(self, table: Table) -> None:
        """Every human of this game starts playing (a task each, kept in `players`)."""
        self.players += [
            asyncio.create_task(self.player(table, user), name=f"player-{table.game_id}-{user}")
            for user in table.humans
        ]

    def check(self, watcher: asyncio.Task[None]) -> None:
        """Raise if the run cannot go on: the database could not be read, or no click was answered for
        STALL_SECONDS while games were running."""
        if watcher.done():
            watcher.result()  # the database could not be read: say why
        if time.perf_counter() - self.last_progress > STALL_SECONDS:
            waiting = [t.game_id for t in self.tables if not t.finished][:10]
            raise AssertionError(f"no progress for {STALL_SECONDS:.0f} s; unfinished games {waiting}")

    async def stop_players(self) -> None:
        """The window is over: players stop clicking; the clicks already sent are waited for."""
        self.closing = True
        self.closed.set()
        for event in self.changed.values():
            event.set()
        await asyncio.gather(*self.players)

    async def cancel_players(self, *others: asyncio.Task[Any]) -> None:
        """Whatever still runs (after a failure) is cancelled and waited for, with `others`."""
        for task in [*self.players, *others]:
            task.cancel()
        await asyncio.gather(*self.players, *others, return_exceptions=True)

    async def play(self, duration: float | None, ledger: Ledger) -> float:
        """Every human of every game plays at once, until every game ended or `duration` seconds
        passed; returns the wall time from the first click to the last answer."""
        self.recording = True
        if self.recorder is not None:
            self.recorder.start(self.driver.fake)
        for table in self.tables:
            self.start_players(table)
        watcher = asyncio.create_task(self.watch_ends(ledger))
        self.last_progress = started = time.perf_counter()
        try:
            while not all(t.finished for t in self.tables):
                await asyncio.sleep(0.2)
                if duration is not None and time.perf_counter() - started >= duration:
                    break
                self.check(watcher)
            await self.stop_players()
            return time.perf_counter() - started
        finally:
            await self.cancel_players(watcher)

    def restart_counts(self) -> None:
        """Forget what was counted while playing so far (clicks and their latencies, outcomes, requests,
        uploads, turns): a new measuring window opens (`bench load --capacity`, one per level)."""
        for values in (self.latencies, self.answers):
            values.clear()
        for counts in (
            self.outcomes,
            self.refusals,
            self.late_answers,
            self.bot_calls,
            self.exempt_calls,
            self.uploaded,
            self.turns,
            self.lobby_retries,
        ):
            counts.clear()
        self.lobby_latencies.clear()
        self.clicks = 0

    def figures(self, asked: Counter[str] | None = None) -> dict[str, Any]:
        """What was recorded during play, as report fields. `asked`: what the table service asked the
        bot's notifier to show meanwhile, by kind (its metrics), for the REST figures."""
        # A resolved turn: a log line the table service handed over (several may share a post), or a post.
        turns = asked["log"] if asked is not None and "log" in asked else sum(self.turns.values())
        ms = [latency * 1000 for latency in self.latencies]
        answer_ms = [latency * 1000 for latency in self.answers]
        kinds = Counter(f"{t.key}{' (' + t.variants + ')' if t.variants else ''}" for t in self.tables)
        return {
            "games": len(self.tables),
            "finished": sum(t.finished for t in self.tables),
            "games_by_kind": dict(sorted(kinds.items())),
            "human_seats": sum(len(t.humans) for t in self.tables),
            "ai_seats": sum(t.ais for t in self.tables),
            "clicks": self.clicks,
            "accepted_clicks": self.outcomes["accepted"],
            "refused_clicks": self.outcomes["refused"],
            "unanswered": self.outcomes["unanswered"],
            "undelivered": self.outcomes["undelivered"],
            "refusals_by_reason": dict(self.refusals.most_common()),
            "unanswered_then_answered": dict(self.late_answers.most_common()),
            "unanswered_never_answered": sum(1 for p in self.pending.values() if p.late and p.kind == "click"),
            "latency_p50_ms": round(percentile(ms, 0.50), 1),
            "latency_p99_ms": round(percentile(ms, 0.99), 1),
            "latency_max_ms": round(max(ms, default=0.0), 1),
            "latency_mean_ms": round(statistics.fmean(ms), 1) if ms else 0.0,
            "answer_p50_ms": round(percentile(answer_ms, 0.50), 1),
            "answer_p99_ms": round(percentile(answer_ms, 0.99), 1),
            "answer_max_ms": round(max(answer_ms, default=0.0), 1),
            **rest_figures(self.bot_calls, self.exempt_calls, turns, asked),
            **self.upload_figures(),
            "lobby_steps": self.lobby_figures(),
            "lobby_retries": dict(self.lobby_retries.most_common()),
        }

    def upload_figures(self) -> dict[str, Any]:
        """The pictures uploaded while recording: bytes in all and per game; re-uploads of the picture a message
        shows already (an unchanged picture keeps its attachment: 0); uploads of a picture a message showed
        earlier (it changed back: Discord dropped the attachment when it changed); the same bytes to
        another message (a new DM prompt needs its own copy)."""
        games = max(1, len(self.tables))
        return {
            "uploads": self.uploaded["files"],
            "upload_bytes": self.uploaded["bytes"],
            "upload_kb_per_game": round(self.uploaded["bytes"] / games / 1024, 1),
            "reuploads": self.uploaded["reuploads"],
            "uploads_of_an_earlier_picture": self.uploaded["returns"],
            "uploads_repeated_to_other_messages": self.uploaded["repeated"],
        }

    def lobby_figures(self) -> dict[str, Any]:
        """Arrival -> answer of each lobby step while opening: p50 / p99 / max in ms (each try counts)."""
        return {
            kind: {
                "count": len(values),
                "p50_ms": round(percentile(values, 0.5) * 1000, 1),
                "p99_ms": round(percentile(values, 0.99) * 1000, 1),
                "max_ms": round(max(values) * 1000, 1),
            }
            for kind, values in sorted(self.lobby_latencies.items())
        }


class InProcessRun(LoadRun):
    """The bot in this process: an interaction is handed to discord.py's connection state directly."""

    def __init__(self, h: Harness, think: float | ThinkTime, rng: random.Random) -> None:
        super().__init__(h, think, rng)
        self.h = h

    async def deliver(self, payload: dict[str, Any], token: str) -> bool:
        assert self.h.bot is not None
        self.h.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        return True

    def traced_without_fake(self) -> int:
        """Traced Python memory with the fake Discord's records set aside (pickled; buffer subtracted)."""
        fake = self.h.fake
        saved = pickle.dumps({name: getattr(fake, name) for name in FAKE_RECORDS}, pickle.HIGHEST_PROTOCOL)
        for name in FAKE_RECORDS:
            setattr(fake, name, type(getattr(fake, name))())
        gc.collect()
        traced = tracemalloc.get_traced_memory()[0] - sys.getsizeof(saved)
        for name, value in pickle.loads(saved).items():
            setattr(fake, name, value)
        return traced


class LoopbackRun(LoadRun):
    """The bot in its own process: an interaction is a gateway frame on its websocket."""

    def __init__(self, lb: Loopback, think: float | ThinkTime, rng: random.Random) -> None:
        super().__init__(lb, think, rng)
        self.lb = lb
        self.keep_records = False

    async def deliver(self, payload: dict[str, Any], token: str) -> bool:
        return await self.lb.send(payload, token)
