"""The floor that does the same work (`python -m bench floor --same-work RUN_DIR`, issue 37).

`bench load --record RUN_DIR` (bench/load/record.py) keeps what the bot sent while its players clicked.
Here a bot with no game, no database and no drawing behind it (`serve`, in its own process, discord.py
and the event loop the real bot uses) receives the same clicks at the same times, from a fresh loopback
fake Discord holding what the recorded one held when the window opened and applying the same rate
limits, and sends exactly the recorded requests (method, route, body, files' bytes) at the same times
through discord.py's HTTP client: bot-token ones through `HTTPClient.request` (discord.py's rate limiter,
by bucket), those through an interaction's token through discord.py's webhook adapter, with the session
of the interaction it received when the request answers or follows one of the window's clicks.
A request waits for the message, thread or DM its path names when a recorded request made it, as the bot
waited for its answer; a click waits for the message it clicks.

The fake hands each request the ids the recorded one got (matched by method, path, body and files: see
`call_key`), so every path and body names the same objects as in the recording. What the floor sent is
checked against the recording: requests by route, and the same bodies (a request recorded but not
replayed, or replayed but not recorded, is counted).

The figure: the floor process's CPU from the first click to its last request answered, per decision of the
recorded run, against the bot's CPU per decision over its window, the expert's searches set apart (they
run in the bot's AI workers, within their budget; the recording says how much they took).
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import itertools
import json
import os
import pickle
import sys
import time
from collections import Counter, deque
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from bench._figures import cpu_seconds

# What a fake keeps that a recording does not need (or cannot pickle): its calls and answers, its clock.
SKIPPED = ("calls", "responses")  # and whatever is callable: its clock, hooks on its methods

START = "floor:start"  # the custom id of the click that starts the replay's clock (answered by nothing)

# The path segment before an id -> the name discord.py's routes give it (channel, guild and webhook ids are
# their rate limits' major parameters).
PARAMETERS = {
    "channels": "channel_id",
    "guilds": "guild_id",
    "messages": "message_id",
    "webhooks": "webhook_id",
    "interactions": "webhook_id",
}


def call_key(method: str, path: str, body: Any, digests: list[str]) -> str:
    """What identifies a request in a replay: method, path, body and files (a digest of them)."""
    text = json.dumps([method, unquote(path), body, digests], sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def token_of(path: str) -> str | None:
    """The interaction token a webhook or callback path carries."""
    parts = unquote(path).strip("/").split("/")
    if parts[0] in ("interactions", "webhooks") and len(parts) > 2:
        return parts[2]
    return None


def route_of(path: str) -> tuple[str, dict[str, str]]:
    """A path as discord.py's routes write it: its template and parameters
    (`/channels/1/messages/2` -> `/channels/{channel_id}/messages/{message_id}`)."""
    parts = unquote(path).strip("/").split("/")
    template: list[str] = []
    parameters: dict[str, str] = {}
    for index, part in enumerate(parts):
        before = parts[index - 1] if index else ""
        token = index == 2 and parts[0] in ("webhooks", "interactions")
        if not (part.isdigit() or part == "@original" or token):
            template.append(part)
            continue
        name = "webhook_token" if token else PARAMETERS.get(before, f"{before.replace('-', '_')}_id")
        while name in parameters:
            name += "_"
        parameters[name] = part
        template.append("{" + name + "}")
    return "/" + "/".join(template), parameters


def load_run(directory: Path) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """meta, interactions, requests of a recorded run (bench/load/record.py)."""
    meta = json.loads((directory / "meta.json").read_text(encoding="utf-8"))

    def lines(name: str) -> list[dict[str, Any]]:
        with open(directory / name, encoding="utf-8") as source:
            return [json.loads(line) for line in source if line.strip()]

    return meta, lines("interactions.jsonl"), lines("requests.jsonl")


def made_by(requests: list[dict[str, Any]]) -> dict[str, int]:
    """id -> the index of the recorded request whose answer gave it out (a message, thread, DM, attachment)."""
    made: dict[str, int] = {}
    for index, request in enumerate(requests):
        for given in request["ids"]:
            made.setdefault(str(given), index)
    return made


def preceding(requests: list[dict[str, Any]]) -> list[list[int]]:
    """For each recorded request, the earlier ones naming the same message (its path's last id; `@original`
    with its token) and, through an interaction's token, its callback: the replay keeps their order, as the
    bot did (an edit never overtakes a deletion, nor a deferral's edit its deferral)."""
    last: dict[str, int] = {}
    found: list[list[int]] = []
    for index, request in enumerate(requests):
        parts = request["path"].strip("/").split("/")
        named = [f"{request['token']}/{p}" if p == "@original" else p for p in parts if p.isdigit() or p == "@original"]
        target = named[-1:] if "messages" in parts else []
        if parts[0] == "interactions":  # the callback: what goes through its token afterwards follows it
            target = [f"{request['token']}/callback"]
        after = [last[t] for t in target if t in last]
        callback = last.get(f"{request['token']}/callback")
        if parts[0] == "webhooks" and callback is not None:
            after.append(callback)
        found.append(sorted(set(after)))
        for t in target:
            last[t] = index
    return found


# --- the floor bot (a process of its own) ---------------------------------------------------------
def serve(directory: Path, out: Path) -> None:
    """Replay the recorded requests (`python -m bench.floor` with FLOOR_SAME_WORK set); when the last is
    answered, write what happened to `out`."""
    import discord
    from discord.http import Route
    from discord.webhook.async_ import async_context

    from bot.__main__ import loop_factory

    _meta, interactions, requests = load_run(directory)
    blobs = {digest: (directory / "blobs" / digest).read_bytes() for r in requests for _n, digest in r["files"]}
    made = made_by(requests)
    clicked = {i["token"] for i in interactions}
    before = preceding(requests)

    class Replaying(discord.Client):
        def __init__(self) -> None:
            super().__init__(intents=discord.Intents.none())
            self.started: float | None = None
            self.received: dict[str, asyncio.Future[discord.Interaction[Any]]] = {}
            self.sent: dict[str, asyncio.Future[None]] = {}
            self.failures: Counter[str] = Counter()
            self.done: list[asyncio.Future[None]] = [asyncio.get_running_loop().create_future() for _ in requests]

        @staticmethod
        def future(table: dict[str, asyncio.Future[Any]], key: str) -> asyncio.Future[Any]:
            if key not in table:
                table[key] = asyncio.get_running_loop().create_future()
            return table[key]

        async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
            data: dict[str, Any] = dict(interaction.data or {})
            if data.get("custom_id") == START:
                if self.started is None:
                    self.started = asyncio.get_running_loop().time()
                    asyncio.get_running_loop().create_task(self.replay())
                return
            future = self.future(self.received, interaction.token)
            if not future.done():
                future.set_result(interaction)

        async def replay(self) -> None:
            loop = asyncio.get_running_loop()
            assert self.started is not None
            tasks = []
            for index, request in enumerate(requests):
                delay = self.started + request["at"] - loop.time()
                if delay > 0:
                    await asyncio.sleep(delay)
                tasks.append(loop.create_task(self.send(index, request)))
            await asyncio.gather(*tasks)
            written = out.with_suffix(".part")  # renamed when whole: the bench reads it once it exists
            written.write_text(
                json.dumps({"seconds": round(loop.time() - self.started, 2), "failures": dict(self.failures)}),
                encoding="utf-8",
            )
            written.replace(out)

        async def send(self, index: int, request: dict[str, Any]) -> None:
            try:
                for part in request["path"].split("/"):
                    if made.get(part, index) < index:  # made by an earlier request: wait for its answer
                        await self.future(self.sent, part)
                for earlier in before[index]:  # the same message's earlier requests go first, as recorded
                    await self.done[earlier]
                token = request["token"]
                interaction = await self.future(self.received, token) if token in clicked else None
                await self.request(request, interaction)
            except discord.HTTPException as error:
                self.failures[f"{request['method']} {route_of(request['path'])[0]}: {error.status}"] += 1
            finally:
                self.done[index].set_result(None)
                for given in request["ids"]:
                    future = self.future(self.sent, str(given))
                    if not future.done():
                        future.set_result(None)

        async def request(self, request: dict[str, Any], interaction: discord.Interaction[Any] | None) -> None:
            template, parameters = route_of(request["path"])
            route = Route(request["method"], template, **parameters)
            body, query = request["body"], request["query"]
            files = [discord.File(io.BytesIO(blobs[digest]), filename=name) for name, digest in request["files"]]
            form: list[dict[str, Any]] | None = None
            if files:  # as discord.py's handle_message_parameters builds a multipart body
                form = [{"name": "payload_json", "value": discord.utils._to_json(body)}]
                form += [
                    {
                        "name": f"files[{n}]",
                        "value": f.fp,
                        "filename": f.filename,
                        "content_type": "application/octet-stream",
                    }
                    for n, f in enumerate(files)
                ]
            if request["via"] == "webhook":
                session = interaction._session if interaction is not None else self.http._HTTPClient__session  # type: ignore[attr-defined]
                await async_context.get().request(
                    route,
                    session,
                    payload=None if files else body,
                    multipart=form,
                    files=files or None,
                    params=query,
                )
            elif files:
                await self.http.request(route, files=files, form=form, params=query)
            elif body is not None:
                await self.http.request(route, json=body, params=query)
            else:
                await self.http.request(route, params=query)

    async def run() -> None:
        async with Replaying() as client:
            await client.start(os.environ["DISCORD_TOKEN"])

    with asyncio.Runner(loop_factory=loop_factory("auto")) as runner:
        runner.run(run())


# --- the clicks and the fake Discord (the bench's process) ----------------------------------------
async def measure(directory: Path, *, within: float = 300.0) -> dict[str, Any]:
    """Replay a recorded run through the floor bot; the figures (bench floor --same-work)."""
    from fakediscord.fake_discord import BOT_ID, FakeDiscord
    from fakediscord.loopback import TOKEN, Loopback
    from fakediscord.rate_limits import DISCORD_GLOBAL, DISCORD_MESSAGES, RateLimits

    meta, interactions, requests = load_run(directory)
    fake = FakeDiscord()
    with open(directory / "state.pickle", "rb") as source:  # noqa: ASYNC230 - before anything runs
        vars(fake).update(pickle.load(source))
    given = [int(x) for r in requests for x in r["ids"]] + [int(i["payload"]["id"]) for i in interactions]
    fake._ids = itertools.count(max(given, default=0) + 1_000_000)
    limits = meta.get("limits") or {}
    per_channel, global_limit = bool(limits.get("per_channel")), bool(limits.get("global"))
    rate_limits = (
        RateLimits(DISCORD_MESSAGES if per_channel else None, DISCORD_GLOBAL if global_limit else None)
        if per_channel or global_limit
        else None
    )
    lb = await Loopback.start(fake, limits=rate_limits, answer_timeout=within)
    ids: dict[str, deque[list[int]]] = {}
    for request in requests:
        ids.setdefault(request["key"], deque()).append(request["ids"])
    recorded = Counter(r["key"] for r in requests)
    routes_recorded = Counter(f"{r['method']} {route_of(r['path'])[0]}" for r in requests)
    replayed: Counter[str] = Counter()
    routes_replayed: Counter[str] = Counter()
    refused: Counter[str] = Counter()
    made = made_by(requests)
    present: dict[str, asyncio.Event] = {}
    handing: list[int] = []
    replaying = [False]  # the floor's own start-up requests (GET /users/@me, ...) are not the replay's
    counter = fake.snowflake
    original = fake._handle

    def snowflake() -> int:
        return handing.pop(0) if handing else counter()

    def handle(call: Any) -> Any:
        if not replaying[0]:
            return original(call)
        key = call_key(call.method, call.path, call.json, [u.digest for u in call.uploads])
        queue = ids.get(key)
        handing[:] = list(queue.popleft()) if queue else []
        taken = list(handing)
        try:
            return original(call)
        finally:
            handing.clear()
            route = f"{call.method} {route_of(call.path)[0]}"
            replayed[key] += 1
            routes_replayed[route] += 1
            if call.status >= 400:
                refused[f"{route}: {call.status}"] += 1
            for value in taken:
                present.setdefault(str(value), asyncio.Event()).set()
            fake.calls.clear()
            fake.responses.clear()

    fake.snowflake = snowflake  # type: ignore[method-assign]
    fake._handle = handle  # type: ignore[method-assign]
    out = directory / "floor-out.json"
    out.unlink(missing_ok=True)
    env = {
        **os.environ,
        "LOOPBACK_URL": lb.url,
        "DISCORD_TOKEN": TOKEN,
        "FLOOR_SAME_WORK": str(directory),
        "FLOOR_OUT": str(out),
        "PYTHONUNBUFFERED": "1",
    }
    floor = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bench.floor", env=env, stdin=asyncio.subprocess.DEVNULL
    )
    undelivered = 0
    try:
        await lb.wait_ready(within=120)
        await _idle(floor.pid)
        user = next(u for u in fake.users if u != BOT_ID)
        payload, token = fake.interaction_payload(user, 3, {"custom_id": START, "component_type": 2}, lb.channel, None)
        loop = asyncio.get_running_loop()
        cpu_before = cpu_seconds(floor.pid)
        started = loop.time()
        replaying[0] = True
        await lb.send(payload, token)

        async def click(record: dict[str, Any]) -> bool:
            payload = record["payload"]
            for needed in (str((payload.get("message") or {}).get("id")), str(payload.get("channel_id"))):
                if needed in made:
                    await present.setdefault(needed, asyncio.Event()).wait()
            fake.interaction_sources[record["token"]] = record["source"]
            fake.token_born[record["token"]] = fake.clock()
            return await lb.send(payload, record["token"])

        sending = []
        for record in interactions:
            delay = started + record["at"] - loop.time()
            if delay > 0:
                await asyncio.sleep(delay)
            sending.append(asyncio.create_task(click(record)))
        undelivered = sum(not delivered for delivered in await asyncio.gather(*sending))
        while not out.exists():
            if loop.time() - started > within + float(meta.get("window_seconds", 0)):
                raise TimeoutError(f"the floor had not sent every recorded request after {within:g} s")
            await asyncio.sleep(0.05)
        cpu = cpu_seconds(floor.pid) - cpu_before
        replay_seconds = loop.time() - started
        result = json.loads(out.read_text(encoding="utf-8"))
    finally:
        floor.kill()
        await floor.wait()
        rejected = Counter(lb.limiter.rejected) if lb.limiter is not None else Counter()
        await lb.close()
        out.unlink(missing_ok=True)
    decisions = max(1, int(meta["decisions"]))
    search = meta.get("ai_search") or {}
    bot_cpu = float(meta["bot_cpu_seconds"]) - float(search.get("cpu_seconds", 0.0))
    floor_ms = 1000 * cpu / decisions
    bot_ms = 1000 * bot_cpu / decisions
    routes = sorted(set(routes_recorded) | set(routes_replayed))
    return {
        "recorded": {
            "command": meta.get("command"),
            "window_seconds": meta.get("window_seconds"),
            "decisions": int(meta["decisions"]),
            "clicks": len(interactions),
            "requests": len(requests),
            "attachments": sum(len(r["files"]) for r in requests),
            "attachment_mb": round(
                sum((directory / "blobs" / d).stat().st_size for r in requests for _n, d in r["files"]) / 1e6, 2
            ),
            "bot_cpu_seconds": meta["bot_cpu_seconds"],
            "bot_main_process_cpu_seconds": meta.get("bot_main_process_cpu_seconds"),
            "machine_load": meta.get("machine_load"),
            "uptime": meta.get("uptime"),
        },
        "ai_search": search,
        "bot_cpu_ms_per_decision": round(bot_ms, 3),
        "floor_cpu_seconds": round(cpu, 3),
        "floor_cpu_ms_per_decision": round(floor_ms, 3),
        "cpu_ratio_to_same_work_floor": round(bot_ms / max(floor_ms, 1e-9), 2),
        "replay_seconds": round(replay_seconds, 2),
        "floor_seconds_to_last_answer": result["seconds"],
        "requests_replayed": sum(replayed.values()),
        "requests_not_replayed": sum((recorded - replayed).values()),
        "requests_not_recorded": sum((replayed - recorded).values()),
        "requests_by_route": {r: [routes_recorded[r], routes_replayed[r]] for r in routes},
        "refused_recorded": sum(1 for r in requests if int(r["status"]) >= 400),
        "refused_replayed": dict(refused),
        "floor_failures": result["failures"],
        "clicks_undelivered": undelivered,
        "rate_limited": dict(rejected),
        "uptime_after": _uptime(),
    }


def _uptime() -> str:
    import subprocess

    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, timeout=5).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


async def _idle(pid: int, *, below: float = 0.05, within: float = 120.0) -> None:
    """Wait until process `pid` uses less than `below` of a core over half a second (started up)."""
    started = time.perf_counter()
    while time.perf_counter() - started < within:
        before = cpu_seconds(pid)
        await asyncio.sleep(0.5)
        if cpu_seconds(pid) - before < below / 2:
            return


def report(f: dict[str, Any]) -> str:
    r = f["recorded"]
    search = f["ai_search"]
    lines = [
        f"a floor that does the same work: {r['clicks']} clicks and {r['requests']} requests "
        f"({r['attachments']} files, {r['attachment_mb']} MB) of a {r['window_seconds']} s window, "
        f"{r['decisions']} decisions (recorded by: {r['command']})",
        f"  bot CPU per decision: {f['bot_cpu_ms_per_decision']} ms ({r['bot_cpu_seconds']} s with its workers"
        + (
            f"; the expert's searches set apart: {search['searches']} searches, {search['cpu_seconds']} s, "
            f"{search['cpu_ms_per_search']} ms each, budget {search['budget_ms']:g} ms"
            if search.get("searches")
            else "; no expert searches"
        )
        + ")",
        f"  floor CPU per decision: {f['floor_cpu_ms_per_decision']} ms ({f['floor_cpu_seconds']} s; its last "
        f"request answered {f['floor_seconds_to_last_answer']} s after the first click)",
        f"  ratio: {f['cpu_ratio_to_same_work_floor']}  [target <= 1.5]",
        f"  replayed {f['requests_replayed']} requests: {f['requests_not_replayed']} recorded but not replayed, "
        f"{f['requests_not_recorded']} replayed but not recorded (by method, path, body and files); "
        f"refused: {f['refused_recorded']} recorded, {sum(f['refused_replayed'].values())} replayed; "
        f"429s {sum(f['rate_limited'].values())}; clicks undelivered {f['clicks_undelivered']}",
    ]
    lines += [f"    {route:58s} {a:6d} {b:6d}" for route, (a, b) in f["requests_by_route"].items()]
    return "\n".join(lines)
