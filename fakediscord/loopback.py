"""A fake Discord on 127.0.0.1 (REST + gateway websocket) for bots running in other processes.

The in-process `Harness` replaces discord.py's network doors; this server instead lets a real bot
process (its own aiohttp sessions, rate limiter, gateway keep-alive, reconnects) talk HTTP to a fake
Discord, so it can be killed with SIGKILL, restarted, or run as several shard processes at once.
REST is answered by the same `FakeDiscord` the Harness uses; the test drives users with the same
`Driver` methods (slash, click, select, dms, messages_in, find_button, ...).

    lb = await Loopback.start()                      # an ephemeral port; lb.url = "http://127.0.0.1:PORT"
    bot = await BotProcess.spawn(lb, database_url)   # harness/run_bot.py: the real `python -m bot`
    await lb.wait_ready()                            # IDENTIFY done, READY + GUILD_CREATEs sent
    alice = lb.user("Alice")
    await lb.slash(alice, "game new", game="eggs-empires")    # INTERACTION_CREATE over the gateway,
    await lb.click(alice, lb.find_button(lb.channel, "Join"))  # returns the responses once answered
    await lb.quiet()                                 # the bot's follow-up REST calls (DMs...) are done
    bot.kill(); await bot.wait()                     # SIGKILL; then spawn again on the same database
    await lb.close()

Interactions: `send(payload, token)` only delivers (False when no shard owning it is connected, as
when the bot is down: Discord would show "interaction failed"); `answered(token)` waits for the
answer; `_feed` (behind slash/click/select) does both. `responses_for(token)` reads them later.

Shards: IDENTIFY's shard [id, count] is honoured; each connection gets READY and GUILD_CREATE for
the guilds it owns ((guild_id >> 22) % count == id; `fake.add_guild()` spaces guild ids so that
successive guilds land on successive shards), and each INTERACTION_CREATE goes to the connection
owning its guild (DMs to shard 0). `GET /gateway/bot` answers `recommended_shards` (default 1). Two
processes with one shard each, on one database:
    far = lb.fake.add_text_channel("far", lb.fake.add_guild("second"))     # a guild on shard 1 of 2
    zero = await BotProcess.spawn(lb, url, shard_count="2", shard_ids="0")
    one = await BotProcess.spawn(lb, url, shard_count="2", shard_ids="1")
    await lb.wait_ready({0, 1})
    await lb.slash(alice, "game new", game="eggs-empires", channel=far)    # answered by process `one`

Gateway drops, as Discord makes them (`await lb.drop_gateway(kind, shard=0)`): `1000`, `1006` (the TCP
connection cut, no close frame), `4000` close the shard's websocket and keep its session resumable;
`4009` (session timed out) closes it and forgets the session; `"invalid_session"` sends INVALID_SESSION
(op 9, not resumable) on the live connection. The gateway then stays shut (new connections wait before
their HELLO) until `lb.reopen_gateway()`, so a test can click meanwhile. Events for a dropped shard
(interactions included) are kept in its session while it is resumable: discord.py RESUMEs with the last
sequence number it saw, the events after it are replayed, then RESUMED (`lb.resumed` counts them). A
RESUME of a forgotten session is answered INVALID_SESSION and discord.py IDENTIFYs afresh: the events
kept for that session are lost, as on Discord (their interactions' tokens are in `lb.lost`; Discord
shows those players "This interaction failed"). A session whose bot closed it itself is forgotten too.

REST faults: `fail_next(n, status=429, retry_after=0.2)`
(with Discord's "Via" header, so discord.py sleeps `retry_after` and retries), `fail_next(n,
status=503)` (discord.py retries 5xx a few times), `hang_next(n, seconds=30)` (the request
never answers in time; the client times out), `lose_answer_next(n)` (the call is carried out, then
the connection drops before the answer: a retry must not do it twice), `drop_next(n)` (the connection
drops before the call is carried out). `match="/channels/"` limits
a fault to paths that contain it. Faulted calls are in `fake.calls` with their status (-1: answer lost).

Rate limits (fakediscord/rate_limits.py): `Loopback.start(limits=RateLimits())` applies Discord's per-channel
message bucket (5 per 5 s, with the headers discord.py paces itself by), `RateLimits.discord(global_limit=True)`
adds the global 50 per second; off (None) by default. `lb.limiter.rejected` counts the 429s it answered
(by scope), `lb.limiter.exhausted` the windows used up; rejected calls are in `fake.calls` with status 429.
Every call records when it arrived (`Call.at`, this loop's clock).

Over 500 lines: the REST side, the gateway with its sessions and drops, and the driver's transport are
one server sharing its state (connections, faults, the activity that `quiet` and `wait_until` watch).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import discord
from aiohttp import BodyPartReader, WSMsgType, web

from fakediscord.driver import Driver, Response
from fakediscord.fake_discord import APP_ID, BOT_ID, GUILD_ID, Call, FakeDiscord, Upload
from fakediscord.rate_limits import Limiter, RateLimits

log = logging.getLogger(__name__)

TOKEN = "fake-token"  # what BotProcess passes as DISCORD_TOKEN; anything else is refused (401 / 4004)
API = "/api/v10"
HEARTBEAT_MS = 41_250
# Gateway intents (Discord's bit flags): IDENTIFY with a bit past the highest is refused (4013), and so
# is a privileged one (4014: GUILD_MEMBERS, GUILD_PRESENCES, MESSAGE_CONTENT) the application was not granted.
ALL_INTENTS = 1 << 26
PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | (1 << 15)
# Responses that finish an interaction (a deferral only promises one).
FINAL_KINDS = (4, 7, "followup", "edit")


@dataclass
class Fault:
    status: int  # 429, 5xx, or 0 for a hang
    remaining: int
    match: str | None = None
    retry_after: float = 0.2
    seconds: float = 30.0
    answer_lost: bool = False  # the request is carried out, then the connection drops unanswered
    carried_out: bool = True  # with answer_lost: False drops the connection before Discord acts on it
    is_global: bool = False  # a 429 for the whole bot, not one route
    method: str | None = None  # only calls of this HTTP method


# Gateway drops (`Loopback.drop_gateway`): close codes that keep the session resumable, and those that do not.
RESUMABLE_CLOSES = (1000, 1006, 4000)
DROP_KINDS: tuple[int | str, ...] = (1000, 1006, 4000, 4009, "invalid_session")
KEPT_EVENTS = 1000  # events a session keeps for a RESUME


@dataclass
class Connection:
    """One gateway session (one shard of one bot process), and the websocket it is on now."""

    ws: web.WebSocketResponse
    shard_id: int
    shard_count: int
    session_id: str
    number: int  # the n-th IDENTIFY this server saw
    seq: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    transport: Any = None  # the TCP transport under `ws` (a 1006 drop cuts it)
    # What was dispatched, for a RESUME: (seq, frame, the interaction's token if it is one).
    kept: list[tuple[int, str, str | None]] = field(default_factory=list)
    intents: int = 0  # what IDENTIFY asked for (Discord sends only the events these cover)
    dropped: int | str | None = None  # how it was dropped, while it is
    held: list[str] = field(default_factory=list)  # tokens of the interactions kept while dropped

    def owns(self, guild_id: int | None) -> bool:
        if guild_id is None:
            return self.shard_id == 0
        return (guild_id >> 22) % self.shard_count == self.shard_id

    async def dispatch(self, event: str, data: Any, token: str | None = None) -> None:
        """Send an event, or only keep it (for a RESUME) while the session is dropped."""
        async with self.lock:
            self.seq += 1
            frame = json.dumps({"op": 0, "t": event, "s": self.seq, "d": data})
            self.kept = [*self.kept[-KEPT_EVENTS + 1 :], (self.seq, frame, token)]
            if self.dropped is None:
                await self.ws.send_str(frame)
            elif token is not None:
                self.held.append(token)


HELD_POLL = 0.1  # how often a held call looks whether its client is still there


class Loopback(Driver):
    def __init__(
        self,
        fake: FakeDiscord | None = None,
        *,
        recommended_shards: int = 1,
        answer_timeout: float = 20.0,
        limits: RateLimits | None = None,
    ) -> None:
        self.fake = fake or FakeDiscord()
        self.limiter = Limiter(limits) if limits is not None else None
        self.channel = self.fake.add_text_channel("general")
        self.other_channel = self.fake.add_text_channel("second")
        self.admins: set[int] = set()
        self.recommended_shards = recommended_shards
        self.answer_timeout = answer_timeout
        self.connections: list[Connection] = []  # the sessions connected now
        self.sessions: dict[str, Connection] = {}  # dropped sessions that may still be resumed
        self.identified = 0  # IDENTIFYs so far (wait_ready(since=...) waits for newer ones)
        self.resumed = 0  # RESUMEs accepted so far
        self.lost: list[str] = []  # tokens of interactions kept for a session that was never resumed
        self._open = asyncio.Event()  # the gateway takes connections (shut by drop_gateway)
        self._open.set()
        self.unknown: list[str] = []  # REST calls the fake does not know (a test should assert it empty)
        # The bytes of every file uploaded, by digest, while a recorder wants them (`bench load --record`).
        self.blobs: dict[str, bytes] | None = None
        self.faults: list[Fault] = []
        self.undelivered: list[str] = []  # tokens of interactions no connected shard could take
        self._sessions = itertools.count(1)
        self._changed = asyncio.Condition()
        self._inflight = 0
        self._last_activity = 0.0
        self._runner: web.AppRunner | None = None
        self.port = 0

    # --- lifecycle ---------------------------------------------------------------------------
    @classmethod
    async def start(cls, fake: FakeDiscord | None = None, **kwargs: Any) -> Loopback:
        loopback = cls(fake, **kwargs)
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway-ws", loopback._gateway)
        app.router.add_get("/gateway-ws/", loopback._gateway)
        app.router.add_route("*", API + "/{tail:.*}", loopback._rest)
        loopback._runner = web.AppRunner(app, access_log=None)
        await loopback._runner.setup()
        site = web.TCPSite(loopback._runner, "127.0.0.1", 0)
        await site.start()
        loopback.port = int(loopback._runner.addresses[0][1])
        return loopback

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway-ws/"

    async def close(self) -> None:
        self._open.set()  # connections waiting at a shut gateway go on, to be closed with the rest
        for connection in list(self.connections):
            with contextlib.suppress(Exception):
                await connection.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def poke(self) -> None:
        """Wake everything waiting in `wait_until` (call it when what a predicate reads changed)."""
        await self._notify()

    async def _notify(self) -> None:
        self._last_activity = asyncio.get_running_loop().time()
        async with self._changed:
            self._changed.notify_all()

    async def wait_until(self, predicate: Callable[[], bool], within: float) -> bool:
        """Wait until `predicate()` holds, re-checked at each REST call, response and (dis)connection."""
        async with self._changed:
            try:
                await asyncio.wait_for(self._changed.wait_for(predicate), within)
            except TimeoutError:
                return bool(predicate())
        return True

    # --- REST ----------------------------------------------------------------------------------
    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        self._inflight += 1
        await self._notify()
        try:
            return await self._answer(request, path)
        finally:
            self._inflight -= 1
            await self._notify()

    async def _answer(self, request: web.Request, path: str) -> web.StreamResponse:
        if path in ("/gateway", "/gateway/bot"):
            return _json(
                {
                    "url": self.gateway_url,
                    "shards": self.recommended_shards,
                    "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1},
                }
            )
        auth = request.headers.get("Authorization")
        if auth is not None and auth != f"Bot {TOKEN}":
            return _json({"code": 0, "message": "401: Unauthorized"}, status=401)
        via = "webhook" if path.startswith(("/interactions/", "/webhooks/")) else "http"
        arrived = asyncio.get_running_loop().time()
        limit_headers: dict[str, str] = {}  # X-RateLimit-* of the answer, when a bucket counts this call
        if self.limiter is not None:
            rejection, limit_headers = self.limiter.check(request.method, path, interaction=via == "webhook")
            if rejection is not None:
                self.fake.calls.append(Call(request.method, path, via=via, status=429, at=arrived))
                return _json(rejection.body, status=429, headers=rejection.headers)
        try:
            body, uploads = await _read_body(request, self.blobs)
        except ConnectionResetError:  # the client died while sending (a bot SIGKILLed mid-upload): nothing arrived
            return web.Response(status=400)
        call = Call(request.method, path, body, [u.filename for u in uploads], via, at=arrived, uploads=uploads)
        call.query = dict(request.query) or None
        fault = self._take_fault(path, request.method)
        if fault is not None and fault.answer_lost:
            if fault.carried_out:
                with contextlib.suppress(discord.HTTPException, AssertionError, KeyError, ValueError):
                    self.fake._handle(call)  # done, as far as Discord is concerned...
            else:
                self.fake.calls.append(call)
            call.status = -1
            if request.transport is not None:
                request.transport.close()  # ...but the client never hears so (as after a timeout)
            return web.Response(status=500)
        if fault is not None:
            self.fake.calls.append(call)
            call.status = fault.status or 504
            if fault.status == 0:
                # Held, until the time is up or the client is gone (a bot killed meanwhile): a call whose
                # client died is not in progress any more (`quiet` would wait on it for the whole hold).
                loop = asyncio.get_running_loop()
                until = loop.time() + fault.seconds
                while loop.time() < until and request.transport is not None and not request.transport.is_closing():  # noqa: ASYNC110 (aiohttp gives a handler no event for its client going away)
                    await asyncio.sleep(min(HELD_POLL, until - loop.time()))
                return _json({"code": 0, "message": "timed out"}, status=504)
            if fault.status == 429:
                scope = {"X-RateLimit-Global": "true"} if fault.is_global else {}
                return _json(
                    {
                        "code": 0,
                        "message": "You are being rate limited.",
                        "retry_after": fault.retry_after,
                        "global": fault.is_global,
                    },
                    status=429,
                    headers={"Via": "1.1 google", **scope},
                )
            return _json({"code": 0, "message": "Server error"}, status=fault.status)
        try:
            result = self.fake._handle(call)
        except discord.HTTPException as exc:
            answer = call.refused or {"code": exc.code, "message": exc.text}
            return _json(answer, status=exc.status, headers=limit_headers)
        except (AssertionError, KeyError, ValueError) as exc:
            self.unknown.append(f"{request.method} {path}: {exc!r}")
            call.status = 404
            log.warning("the loopback does not know %s %s: %r", request.method, path, exc)
            return _json({"code": 0, "message": "404: Not Found"}, status=404)
        if result is None and request.method == "DELETE":
            return web.Response(status=204, headers=limit_headers)  # Discord's answer to a deletion
        return _json(result, headers=limit_headers)

    # --- faults --------------------------------------------------------------------------------
    def fail_next(
        self,
        count: int = 1,
        *,
        status: int = 429,
        retry_after: float = 0.2,
        match: str | None = None,
        is_global: bool = False,
    ) -> None:
        """Answer the next `count` REST calls (whose path contains `match`) with `status` (a 429 for the
        whole bot with `is_global`)."""
        self.faults.append(Fault(status, count, match, retry_after=retry_after, is_global=is_global))

    def hang_next(
        self, count: int = 1, *, seconds: float = 30.0, match: str | None = None, method: str | None = None
    ) -> None:
        """Let the next `count` REST calls (of `method`, if given) wait `seconds` before a 504 (a client
        timeout comes first)."""
        self.faults.append(Fault(0, count, match, seconds=seconds, method=method))

    def lose_answer_next(self, count: int = 1, *, match: str | None = None, method: str | None = None) -> None:
        """Carry out the next `count` REST calls (of `method`, if given) but drop the connection before
        answering: the client sees a failure although the call took effect (a retry must not redo it)."""
        self.faults.append(Fault(0, count, match, answer_lost=True, method=method))

    def drop_next(self, count: int = 1, *, match: str | None = None, method: str | None = None) -> None:
        """Drop the connection of the next `count` REST calls before they are carried out (a reset on
        the way): the client sees the same failure as with `lose_answer_next`, but nothing was done."""
        self.faults.append(Fault(0, count, match, answer_lost=True, carried_out=False, method=method))

    def _take_fault(self, path: str, method: str = "") -> Fault | None:
        for fault in self.faults:
            if (
                fault.remaining > 0
                and (fault.match is None or fault.match in path)
                and (fault.method is None or fault.method == method)
            ):
                fault.remaining -= 1
                return fault
        return None

    # --- gateway -------------------------------------------------------------------------------
    async def drop_gateway(self, kind: int | str, shard: int = 0) -> Connection:
        """Drop `shard`'s gateway session as Discord would (`kind`: one of DROP_KINDS; the module's
        docstring says what each does) and shut the gateway until `reopen_gateway()`."""
        if kind not in DROP_KINDS:
            raise ValueError(f"unknown gateway drop {kind!r}; known: {DROP_KINDS}")
        [connection] = [c for c in self.connections if c.shard_id == shard]
        self._open.clear()
        connection.dropped = kind
        self.connections.remove(connection)
        if kind in RESUMABLE_CLOSES:
            self.sessions[connection.session_id] = connection
        if kind == "invalid_session":
            await connection.ws.send_str(json.dumps({"op": 9, "d": False}))
        elif kind == 1006:
            connection.transport.abort()  # no close frame: the client sees the connection lost
        else:
            await connection.ws.close(code=int(kind), message=b"dropped by the test")
        await self._notify()
        return connection

    def reopen_gateway(self) -> None:
        """Let the bot connect again after `drop_gateway`."""
        self._open.set()

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        connection: Connection | None = None
        await self._open.wait()  # a shut gateway keeps the client waiting for its HELLO
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": HEARTBEAT_MS}}))
        try:
            async for message in ws:
                if message.type is not WSMsgType.TEXT:
                    break
                frame = json.loads(message.data)
                op = frame.get("op")
                if op == 1:  # HEARTBEAT
                    await ws.send_str(json.dumps({"op": 11}))
                elif op == 2:  # IDENTIFY
                    connection = await self._identify(ws, frame.get("d") or {}, request.transport)
                    if connection is None:
                        break
                elif op == 6:  # RESUME
                    connection = await self._resume(ws, frame.get("d") or {}, request.transport)
        finally:
            if connection is not None and connection in self.connections and connection.ws is ws:
                self.connections.remove(connection)  # closed by the bot (or killed): not resumable
                await self._notify()
        return ws

    async def _resume(self, ws: web.WebSocketResponse, data: dict[str, Any], transport: Any) -> Connection | None:
        """Replay what the session kept after the client's last sequence number, then RESUMED; a session
        that cannot be resumed is answered INVALID_SESSION (the client then IDENTIFYs)."""
        session = self.sessions.pop(str(data.get("session_id")), None)
        if session is None or data.get("token") != TOKEN:
            await ws.send_str(json.dumps({"op": 9, "d": False}))
            return None
        async with session.lock:
            session.ws, session.transport, session.dropped, session.held = ws, transport, None, []
            for seq, frame, _token in session.kept:
                if seq > int(data.get("seq") or 0):
                    await ws.send_str(frame)
        await session.dispatch("RESUMED", {})
        self.resumed += 1
        self.connections.append(session)
        await self._notify()
        return session

    def _forget_sessions(self, shard_id: int) -> None:
        """The shard identified afresh: its dropped sessions will never be resumed, and the interactions
        they kept meanwhile are lost (Discord showed those players "This interaction failed")."""
        for session_id, session in list(self.sessions.items()):
            if session.shard_id == shard_id:
                del self.sessions[session_id]
                self.lost += session.held

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any], transport: Any) -> Connection | None:
        if data.get("token") != TOKEN:
            await ws.close(code=4004, message=b"Authentication failed.")
            return None
        intents = data.get("intents")
        if not isinstance(intents, int) or isinstance(intents, bool) or not 0 <= intents < ALL_INTENTS:
            await ws.close(code=4013, message=b"Invalid intent(s).")
            return None
        if intents & PRIVILEGED_INTENTS:  # this application has none of them enabled in its portal
            await ws.close(code=4014, message=b"Disallowed intent(s).")
            return None
        shard_id, shard_count = (data.get("shard") or [0, 1])[:2]
        self.identified += 1
        self._forget_sessions(int(shard_id))
        connection = Connection(ws, int(shard_id), int(shard_count), f"session-{next(self._sessions)}", self.identified)
        connection.transport = transport
        connection.intents = intents
        owned = [g for g in self.fake.guilds if connection.owns(g)]
        await connection.dispatch(
            "READY",
            {
                "v": 10,
                "user": self.fake.users[BOT_ID],
                "session_id": connection.session_id,
                "resume_gateway_url": self.gateway_url,
                "shard": [connection.shard_id, connection.shard_count],
                "guilds": [{"id": str(g), "unavailable": True} for g in owned],
                "application": {"id": str(APP_ID), "flags": 0},
                "private_channels": [],
            },
        )
        for guild_id in owned:
            await connection.dispatch("GUILD_CREATE", self.fake.guild_json(guild_id))
        self.connections.append(connection)
        await self._notify()
        return connection

    def ready_shards(self) -> set[int]:
        return {c.shard_id for c in self.connections}

    async def wait_ready(self, shards: Iterable[int] = (0,), *, since: int = 0, within: float = 60.0) -> None:
        """Wait until each of `shards` has a session identified after the `since`-th IDENTIFY."""
        wanted = set(shards)

        def ready() -> bool:
            return wanted <= {c.shard_id for c in self.connections if c.number > since}

        if not await self.wait_until(ready, within):
            raise TimeoutError(f"shards {sorted(wanted)} not ready (connected: {sorted(self.ready_shards())})")

    def _owner(self, guild_id: int | None) -> Connection | None:
        """The session that gets the guild's events: a connected one (the newest, if a dead one is not
        yet noticed), else a dropped one that may still be resumed (it keeps them for its RESUME)."""
        owners = [c for c in self.connections if c.owns(guild_id) and not c.ws.closed]
        if owners:
            return owners[-1]
        dropped = [c for c in self.sessions.values() if c.owns(guild_id)]
        return dropped[-1] if dropped else None

    # --- the driver's transport ------------------------------------------------------------------
    async def send(self, payload: dict[str, Any], token: str) -> bool:
        """Deliver an INTERACTION_CREATE to the shard owning its guild; False if none is connected."""
        guild = payload.get("guild_id")
        connection = self._owner(int(guild) if guild is not None else None)
        if connection is None:
            self.undelivered.append(token)
            return False
        try:
            await connection.dispatch("INTERACTION_CREATE", payload, token)
        except (ConnectionError, RuntimeError):
            self.undelivered.append(token)
            return False
        return True

    def responses_for(self, token: str) -> list[Response]:
        return [r for r in self.fake.responses if r["token"] == token]

    def is_answered(self, token: str) -> bool:
        return any(r["type"] in FINAL_KINDS for r in self.responses_for(token))

    async def answered(self, token: str, within: float | None = None) -> list[Response]:
        """The responses to an interaction once it is answered (or whatever came `within` seconds)."""
        await self.wait_until(lambda: self.is_answered(token), self.answer_timeout if within is None else within)
        return self.responses_for(token)

    async def _feed(self, payload: dict[str, Any], token: str) -> list[Response]:
        if not await self.send(payload, token):
            return []
        return await self.answered(token)

    def _option_types(self, group: str, sub: str) -> dict[str, int]:
        for command in self.fake.commands:
            if command.get("name") != group:
                continue
            options = command.get("options") or []
            if sub:
                options = next((o.get("options") or [] for o in options if o.get("name") == sub), None)
                assert options is not None, f"no command {group} {sub}"
            return {o["name"]: int(o["type"]) for o in options}
        raise AssertionError(f"no command {group} (synced: {[c.get('name') for c in self.fake.commands]})")

    async def quiet(self, idle: float = 0.15, within: float = 30.0) -> None:
        """Wait until no REST call is in progress and none came for `idle` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within
        while loop.time() < deadline:
            wait = self._last_activity + idle - loop.time()
            if self._inflight == 0 and wait <= 0:
                return
            await asyncio.sleep(max(wait, 0.01))
        raise TimeoutError(f"the bot never went quiet ({self._inflight} calls in progress)")


def _json(data: Any, *, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    # discord.py parses a body as JSON only when Content-Type is exactly "application/json".
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json", **(headers or {})}
    )


async def _read_body(request: web.Request, blobs: dict[str, bytes] | None = None) -> tuple[Any, list[Upload]]:
    """The JSON body (or multipart payload_json) and the files attached (their bytes into `blobs`, if given)."""
    if not request.body_exists:
        return None, []
    if request.content_type.startswith("multipart/"):
        body: Any = None
        uploads: list[Upload] = []
        reader = await request.multipart()
        async for part in reader:
            if not isinstance(part, BodyPartReader):
                continue
            raw = await part.read()
            if part.name == "payload_json":
                body = json.loads(bytes(raw))
            elif part.filename:
                uploads.append(Upload.of(part.filename, bytes(raw)))
                if blobs is not None:
                    blobs[uploads[-1].digest] = bytes(raw)
        return body, uploads
    text = await request.text()
    return (json.loads(text) if text else None), []


__all__ = ["GUILD_ID", "TOKEN", "Connection", "Loopback"]
