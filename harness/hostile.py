"""Hostile interactions against the real bot: forged clicks, bad selects, bad commands, damaged payloads.

An `Arena` is a harness with games of every kind and in every state (lobby, active, finished, in
several guilds), built once and then hit by many generated interactions (`strategies.hostile`).
`Arena.hit` delivers one and checks the invariants the issue asks for:
- nothing unhandled: no error logged by the bot or discord.py;
- every delivered interaction is answered exactly once (one initial response), a refusal ephemerally
  with a short readable sentence;
- nothing changes (games, seats, the action log, the table's cached states) unless the input was a
  legitimate decision or lobby move, which the oracle here recognises from the rules of the table
  (the owner's seat, a version not older than the seat's last action, a choice the engine accepts).
Payloads discord.py itself rejects while parsing are counted apart: the bot never sees them.
"""

from __future__ import annotations

import asyncio
import copy
import json
import sqlite3
from collections import Counter
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import games
from bot.messages.components import MAX_ID
from fakediscord.driver import components_of
from harness import EPHEMERAL, Harness
from harness.play import decide_from_message, play_to_end

INITIAL = {4, 5, 6, 7}  # interaction callback types: message, deferred message, deferred update, update
STRANGER_LOCALES = ("en-US", "it", "fr", "de")


@dataclass
class Outcome:
    kind: str  # "click", "select", "slash", "damaged"
    delivered: bool
    legit: bool
    changed: bool
    answer: str


@dataclass
class Arena:
    h: Harness
    users: dict[str, int]  # name -> user id
    fuzzers: list[int]  # the users hostile interactions come from (never a host)
    games: dict[str, int]  # label -> game id
    channels: list[int]  # guild channels and threads where the games live
    busy_channels: list[int] = field(default_factory=list)  # channels whose game never ends while fuzzing
    pool: list[dict[str, Any]] = field(default_factory=list)  # copies of messages with components, old and new
    tally: Counter[str] = field(default_factory=Counter)
    tried: int = 0  # interactions generated and fed, whatever happened to them

    # --- the world ----------------------------------------------------------------------------
    def harvest(self) -> None:
        """Remember a copy of every message with components as it is now (old copies stay: replays)."""
        seen = {(m["id"], json.dumps(m.get("components"), sort_keys=True)) for m in self.pool}
        everything = [m for msgs in self.h.fake.messages.values() for m in msgs.values()]
        everything += list(self.h.fake.ephemeral_messages.values())
        for message in everything:
            if not message.get("components"):
                continue
            key = (message["id"], json.dumps(message.get("components"), sort_keys=True))
            if key not in seen:
                seen.add(key)
                self.pool.append(copy.deepcopy(message))

    def custom_ids(self) -> list[str]:
        return sorted({str(c["custom_id"]) for m in self.pool for c in components_of(m) if c.get("custom_id")})

    def dm_of(self, user: int) -> int:
        existing = self.h.fake.dm_channel_of(user)
        return existing if existing is not None else int(self.h.fake._open_dm(user)["id"])

    # --- what must not change -----------------------------------------------------------------
    def _read(self, query: str, *args: Any) -> list[tuple[Any, ...]]:
        """Read the bot's database directly (sqlite3, committed data only): fast enough for every example."""
        with closing(sqlite3.connect(f"file:{self.h.database}?mode=ro", uri=True)) as conn:
            return conn.execute(query, args).fetchall()

    async def snapshot(self) -> tuple[Any, ...]:
        games_ = self._read(
            "SELECT id, status, version, state, options, turn_seconds, host_id, deadline, channel_id "
            "FROM games ORDER BY id"
        )
        seats = self._read(
            "SELECT game_id, seat, user_id, ai_level, name, dm_failed, afk_count, ai_controlled "
            "FROM seats ORDER BY game_id, seat"
        )
        actions = self._read("SELECT game_id, count(*), max(seq) FROM actions GROUP BY game_id ORDER BY game_id")
        return tuple(games_), tuple(seats), tuple(actions)

    async def cache_agrees(self) -> None:
        """The table's in-memory states equal the stored ones (a refused apply() must not leave a trace)."""
        assert self.h.bot is not None
        table = self.h.bot.table
        for game_id, (version, state) in list(table._cache.items()):
            [(stored_version, stored, key)] = self._read(
                "SELECT version, state, game_key FROM games WHERE id = ?", game_id
            )
            if stored_version == version:
                cached = json.loads(json.dumps(games.get(key).to_json(state)))
                assert cached == json.loads(stored), f"game {game_id}: the cached state differs from the stored one"

    # --- the oracle ---------------------------------------------------------------------------
    async def legit_decision(self, user: int, custom_id: str, values: list[str] | None) -> bool:
        """Whether the table's rules accept this click as a decision (then the game may move on)."""
        prefix, _, rest = custom_id.partition(":")
        if prefix == "g" and values is None:
            parts = rest.split(":", 3)
            if len(parts) != 4 or not parts[3]:
                return False
            numbers, choice = parts[:3], [parts[3]]
        elif prefix == "gs" and values is not None:
            numbers, choice = rest.split(":"), list(values)
        else:
            return False
        if len(numbers) != 3 or not all(p.isascii() and p.isdigit() and 0 < len(p) <= 19 for p in numbers):
            return False
        game_id, seat, offered = (int(p) for p in numbers)
        if max(game_id, seat, offered) > MAX_ID:
            return False
        assert self.h.bot is not None
        db = self.h.bot.table.db
        row = await db.get_game(game_id)
        if row is None or row.status != "active" or row.state is None:
            return False
        seats = await db.seats(game_id)
        if not 0 <= seat < len(seats) or seats[seat].user_id != user:
            return False
        acted = self._read("SELECT coalesce(max(seq), 0) FROM actions WHERE game_id = ? AND seat = ?", game_id, seat)[
            0
        ][0]
        if not acted <= offered <= row.version:
            return False
        engine = games.get(row.game_key)
        state = engine.from_json(copy.deepcopy(row.state))
        if not any(p.seat == seat for p in engine.prompts(state)):
            return False
        try:
            engine.apply(state, seat, choice)
        except games.core.IllegalAction:
            return False
        return True

    async def legit_lobby(self, user: int, channel: int, custom_id: str) -> bool:
        """Join/leave/add-AI on an open lobby, from the lobby's own channel, by whoever may do it."""
        prefix, _, rest = custom_id.partition(":")
        head, _, action = rest.rpartition(":")
        if prefix != "lb" or not (head.isascii() and head.isdigit()) or len(head) > 19:
            return False
        assert self.h.bot is not None
        row = await self.h.bot.table.db.get_game(int(head)) if int(head) <= MAX_ID else None
        if row is None or row.status != "lobby" or row.channel_id != channel:
            return False
        seats = await self.h.bot.table.db.seats(int(head))
        seated = any(s.user_id == user for s in seats)
        room = len(seats) < games.get(row.game_key).max_players
        return (
            (action == "join" and not seated and room)
            or (action == "ai" and seated and room)
            or (action == "leave" and seated)
        )

    async def legit_command(self, user: int, channel: int, command: str, data: dict[str, Any]) -> bool:
        """`/game join` and `/game leave` on an open lobby (the fuzzing users are never hosts nor admins)."""
        if command not in ("game join", "game leave"):
            return False
        assert self.h.bot is not None
        db = self.h.bot.table.db
        row = await db.channel_game(channel)
        if row is None or row.id is None or row.status != "lobby":
            return False
        seats = await db.seats(row.id)
        seated = any(s.user_id == user for s in seats)
        return (command == "game join" and not seated and len(seats) < games.get(row.game_key).max_players) or (
            command == "game leave" and seated
        )

    def command_channels(self) -> list[int]:
        """Guild channels that hold a lobby or a running game (so "/game new" there is refused)."""
        return list(self.busy_channels)

    async def refresh_busy_channels(self) -> None:
        assert self.h.bot is not None
        db = self.h.bot.table.db
        self.busy_channels = [c for c in self.channels if await db.channel_game(c) is not None]

    # --- one hostile interaction --------------------------------------------------------------
    async def hit(self, example: dict[str, Any]) -> Outcome:
        """Deliver one generated interaction and check every invariant; the outcome says what happened."""
        h = self.h
        assert h.bot is not None
        self.tried += 1
        kind = example["kind"]
        user = example["user"]
        channel = example["channel"]
        message = example.get("message")
        data = example["data"]
        legit = False
        if example.get("damage"):
            legit = False  # a damaged payload may still be routed; it is never a legitimate move
        elif kind in ("click", "select") and _carries(message, data):
            values = data.get("values") if kind == "select" else None
            legit = await self.legit_decision(user, str(data.get("custom_id")), values) or (
                kind == "click" and await self.legit_lobby(user, channel, str(data.get("custom_id")))
            )
        elif kind == "slash":
            legit = await self.legit_command(user, channel, example["command"], data)
        before = await self.snapshot()
        errors_before = len(h.errors)
        payload, token = h.fake.interaction_payload(
            user, 2 if kind == "slash" else 3, data, channel, message, admin=False
        )
        payload["locale"] = example.get("locale", "en-US")
        for damage in example.get("damage", []):
            damage(payload)
        try:
            h.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        except Exception:  # discord.py refused to parse it: the bot never sees it
            await h.settle()
            self.tally[f"{kind} refused by discord.py"] += 1
            _check(await self.snapshot() == before, "state changes by refused input", example, "")
            return Outcome(kind, False, False, False, "")
        await h.settle()
        responses = [r for r in h.fake.responses if r["token"] == token]
        new_errors = h.errors[errors_before:]
        _check(not new_errors, "unhandled exceptions", example, new_errors)
        initial = [r for r in responses if r["type"] in INITIAL]
        _check(bool(initial), "unanswered", example, responses)
        _check(len(initial) == 1, "answered twice", example, responses)
        answer = _answer_text(responses)
        after = await self.snapshot()
        changed = after != before
        _check(legit or not changed, "state changes by refused input", example, _diff(before, after))
        first = initial[0]
        if first["type"] == 4 and first["data"].get("flags", 0) & EPHEMERAL and not first["data"].get("embeds"):
            _assert_clear(answer, example)  # a refusal or a notice: one readable sentence
        _check(bool(answer.strip()) or first["type"] in (6, 7), "unclear answers", example, "an empty answer")
        self.tally[f"{kind} answered"] += 1
        if self.tried % 10 == 0:  # a corrupted cached state stays until the game moves: checked often enough
            await self.cache_agrees()
        if legit and changed:
            # The pool and the busy channels stay as built, so that generation never depends on earlier
            # examples (hypothesis requires it); no game can end here, since no host is among the fuzzers.
            self.tally[f"{kind} accepted"] += 1
        return Outcome(kind, True, legit, changed, answer)


def _carries(message: dict[str, Any] | None, data: dict[str, Any]) -> bool:
    """Whether discord.py can route this click: the message has a component with its custom_id and type."""
    return message is not None and any(
        c.get("custom_id") == data.get("custom_id") and c.get("type") == data.get("component_type")
        for c in components_of(message)
    )


def _answer_text(responses: list[dict[str, Any]]) -> str:
    parts: list[str] = []
    for response in responses:
        data = response.get("data") or {}
        parts.append(str(data.get("content") or ""))
        parts += [str(e.get("title") or "") + str(e.get("description") or "") for e in data.get("embeds") or []]
    return "\n".join(p for p in parts if p)


def _assert_clear(answer: str, example: dict[str, Any]) -> None:
    """A refusal is a short sentence for people, not a traceback or a Python repr of a long input."""
    _check(bool(answer.strip()), "unclear answers", example, "an empty refusal")
    _check(len(answer) <= 600, "unclear answers", example, f"a refusal that long is not clear: {answer[:200]!r}")
    for marker in ("Traceback", "Exception", "Error(", "<class ", "object at 0x"):
        _check(marker not in answer, "unclear answers", example, answer)


class Broken(AssertionError):
    """An invariant that did not hold; `kind` names which (for the benchmark's counts)."""

    def __init__(self, kind: str, example: dict[str, Any], detail: Any) -> None:
        self.kind = kind
        super().__init__(f"{kind}: {str(detail)[:600]}\n  example: {example_text(example)}")


def _check(holds: bool, kind: str, example: dict[str, Any], detail: Any) -> None:
    if not holds:
        raise Broken(kind, example, detail)


def _diff(before: tuple[Any, ...], after: tuple[Any, ...]) -> str:
    changed = [sorted(set(a) ^ set(b))[:4] for a, b in zip(before, after, strict=True)]
    return f"rows changed (games, seats, actions): {changed}"


def example_text(example: dict[str, Any]) -> str:
    shown = {k: v for k, v in example.items() if k not in ("message", "damage")}
    shown["damage"] = [getattr(d, "__name__", repr(d)) for d in example.get("damage", [])]
    return repr(shown)[:800]


# --- building the arena ----------------------------------------------------------------------------
async def _lobby(h: Harness, host: int, channel: int, game: str, **options: Any) -> int:
    await h.slash(host, "game new", channel=channel, game=game, timer=0, **options)
    assert h.bot is not None
    row = await h.bot.table.db.channel_game(channel)
    assert row is not None and row.id is not None
    return row.id


async def build_arena(database: Path, seed: int = 7) -> Arena:
    """Games of every kind in every state, each in its own guild, with some turns already played."""
    h = await Harness.start(database, seed=seed)
    names = ["alice", "bob", "carol", "dan", "erin", "frank", "gina", "hank", "oscar", "olga", "mallory"]
    users = {n: h.user(n.capitalize()) for n in names}
    channels: dict[str, int] = {"ee": h.channel}
    for label in ("eme", "regg", "lobby", "open", "done"):
        _guild, [channel] = await h.add_guild(1)
        channels[label] = channel
    ids: dict[str, int] = {}
    # Eggs and Empires, two humans (two cards a turn: a select): a few decisions in, old DMs kept.
    ids["ee"] = await _lobby(h, users["alice"], channels["ee"], "eggs-empires")
    await h.click(users["bob"], h.find_button(channels["ee"], "Join"))
    await h.click(users["alice"], h.find_button(channels["ee"], "Start"))
    arena = Arena(h, users, [], ids, [])
    arena.harvest()
    for user in ("alice", "bob", "alice"):
        dms = h.dms(users[user])
        await decide_from_message(h, users[user], dms[-1], index=1)
        arena.harvest()
    # Eight-Minute Empire: two humans and an AI, in the secret bid.
    ids["eme"] = await _lobby(h, users["carol"], channels["eme"], "eight-minute-empire")
    await h.click(users["dan"], h.find_button(channels["eme"], "Join"))
    await h.click(users["carol"], h.find_button(channels["eme"], "Add AI"))
    await h.click(users["carol"], h.find_button(channels["eme"], "Start"))
    # Reggverse Riddles with secret objectives: two humans and an AI.
    ids["regg"] = await _lobby(h, users["erin"], channels["regg"], "reggverse-riddles", variants="objectives=true")
    await h.click(users["frank"], h.find_button(channels["regg"], "Join"))
    await h.click(users["erin"], h.find_button(channels["regg"], "Add AI"))
    await h.click(users["erin"], h.find_button(channels["regg"], "Start"))
    arena.harvest()
    # A full lobby (nobody can join) and an open one in another guild.
    ids["lobby"] = await _lobby(h, users["gina"], channels["lobby"], "eight-minute-empire")
    for _ in range(3):
        await h.click(users["gina"], h.find_button(channels["lobby"], "Add AI"))
    ids["open"] = await _lobby(h, users["oscar"], channels["open"], "eggs-empires")
    # A finished game: its old buttons stay in the pool.
    ids["done"] = await _lobby(h, users["hank"], channels["done"], "eight-minute-empire")
    await h.click(users["hank"], h.find_button(channels["done"], "Add AI"))
    await h.click(users["hank"], h.find_button(channels["done"], "Start"))
    arena.harvest()
    import random

    await play_to_end(h, ids["done"], [users["hank"]], rng=random.Random(seed))
    # Somebody's "Show my hand" answer (ephemeral) is in the pool too.
    await h.click(users["bob"], f"hand:{ids['ee']}", message=_table_message(h, ids["ee"]))
    arena.harvest()
    arena.fuzzers = [users[n] for n in ("bob", "dan", "frank", "olga", "mallory")]
    arena.channels = sorted(set(channels.values()) | set(h.threads()))
    await arena.refresh_busy_channels()
    assert not h.errors, h.errors
    return arena


def _table_message(h: Harness, game_id: int) -> dict[str, Any]:
    for messages in h.fake.messages.values():
        for message in messages.values():
            if any(c.get("custom_id") == f"hand:{game_id}" for c in components_of(message)):
                return message
    raise AssertionError(f"no table message for game {game_id}")


def close_loop(loop: asyncio.AbstractEventLoop) -> None:
    """Close a loop the arena ran on: discord.py's view timeout tasks outlive the bot, cancel them first."""
    pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
    for task in pending:
        task.cancel()
    if pending:
        loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
    loop.close()
