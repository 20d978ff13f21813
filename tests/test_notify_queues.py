"""The notifier's per-channel queues (a game's thread, each seat's DM) under any interleaving of updates, slow requests
and passing failures: every log line is shown once and in order, by the table (the log is folded into it; several
may share an edit) or, those it has no room for, by posts (never over 2,000 characters), the table and every DM end
on the newest view, no DM goes before a new game's table, and nothing is left pending or held."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any
from unittest import mock

import aiohttp
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.delivery import notify
from bot.delivery.notify import DiscordNotifier
from bot.delivery.pending import MESSAGE_LIMIT
from bot.messages import present
from harness.offline import offline_notifier

SEATS = 3


@dataclass
class World:
    """Discord as the notifier sees it: requests that take a few loop turns, and fail as scripted."""

    faults: list[str]  # per request, in order: "ok", "fail" (not done), "lost" (done, answer lost)
    delays: list[int]
    posts: dict[int, str] = field(default_factory=dict)  # nonce -> content (Discord keeps one per nonce)
    table: int | None = None  # the version the table message shows
    shown_lines: list[str] = field(default_factory=list)  # the log lines shown (table or post), each once, in order
    dms: dict[int, int] = field(default_factory=dict)  # seat -> version its DM shows
    events: list[str] = field(default_factory=list)
    requests: int = 0

    async def request(self, done: Any) -> None:
        n = self.requests
        self.requests += 1
        for _ in range(self.delays[n % len(self.delays)] if self.delays else 0):
            await asyncio.sleep(0)
        fault = self.faults[n] if n < len(self.faults) else "ok"
        if fault == "fail":
            raise aiohttp.ClientConnectionError("connection reset")
        done()
        if fault == "lost":
            raise TimeoutError


def _notifier(world: World) -> DiscordNotifier:
    notifier = offline_notifier()

    class Thread:
        async def send(self, content: str, *, nonce: int, **_: Any) -> None:
            def post() -> None:
                if nonce not in world.posts:
                    world.shown_lines += content.split("\n")
                world.posts.setdefault(nonce, content)
                world.events.append("post")

            await world.request(post)

    async def open_table(update: Any, lang: str) -> bool:
        def opened() -> None:
            world.table = update.version
            world.events.append("open")

        await world.request(opened)
        return True

    async def edit_table(update: Any, lang: str, still_wanted: Any, again: bool, lines: list[str]) -> bool:
        if not still_wanted():
            return False

        def edited() -> None:
            world.table = max(world.table or 0, update.version)
            # An edit repeated after a lost answer shows the same lines again (and maybe newer ones).
            world.shown_lines += [line for line in lines if line not in world.shown_lines]

        await world.request(edited)
        return True

    async def send_private(
        game: Any, notice: Any, update: Any, lang: str, still_wanted: Any, again: bool, **_: Any
    ) -> None:
        if not still_wanted():
            return

        def sent() -> None:
            world.dms[notice.seat.seat] = max(world.dms.get(notice.seat.seat, 0), notice.version)
            world.events.append("dm")

        await world.request(sent)

    notifier._public_channel = lambda game: Thread()  # type: ignore[assignment,method-assign,return-value]
    notifier._open_table = open_table  # type: ignore[method-assign]
    notifier._edit_table = edit_table  # type: ignore[method-assign]
    notifier._send_private = send_private  # type: ignore[method-assign]
    return notifier


updates = st.lists(
    st.tuples(st.sets(st.integers(0, SEATS - 1)), st.integers(0, 100), st.integers(0, 4)), min_size=1, max_size=25
)


@settings(max_examples=150, deadline=None)
@given(
    updates,
    st.lists(st.sampled_from(["ok", "ok", "ok", "fail", "lost"]), max_size=40),
    st.lists(st.integers(0, 6), max_size=20),
)
def test_no_interleaving_loses_reorders_or_doubles_what_players_are_shown(
    script: list[tuple[set[int], int, int]], faults: list[str], delays: list[int]
) -> None:
    asyncio.run(_play(script, faults, delays))


async def _play(script: list[tuple[set[int], int, int]], faults: list[str], delays: list[int]) -> None:
    world = World(faults, delays)
    notifier = _notifier(world)
    game = SimpleNamespace(id=9, status="active", guild_id=None, thread_id=None, table_message_id=None)
    lines: list[str] = []
    last_dm: dict[int, int] = {}
    publishing = []
    with (
        mock.patch.object(notify, "RETRY_FIRST_DELAY", 0.001),
        mock.patch.object(notify, "RETRY_MAX_DELAY", 0.002),
        mock.patch.object(present, "log_line", side_effect=lambda update, lang: update.line),
    ):
        for version, (seats, length, pause) in enumerate([({0, 1, 2}, 0, 0), *script], start=1):
            # A turn's log line (None: this update resolved nothing), of one or two events (bot.messages.present clips
            # a turn's line to 1,900 characters).
            line = "\n".join(f"v{version}.{i}:" + "x" * (length * 9) for i in range(1 + length % 2)) if length else None
            if version > 1 and line:
                lines += line.split("\n")
            notices = {
                s: SimpleNamespace(seat=SimpleNamespace(seat=s), version=version, prompt=None) for s in range(SEATS)
            }
            for seat in seats:
                last_dm[seat] = version
            update = SimpleNamespace(
                game=game,
                version=version,
                started=version == 1,
                line=line,
                dms=[notices[s] for s in sorted(seats)],
                notices=notices,
                afk_seats=[],
            )
            publishing.append(asyncio.create_task(notifier.publish(update)))  # each from its own handler
            for _ in range(pause):
                await asyncio.sleep(0)
        await asyncio.gather(*publishing)
        await notifier.idle()
    last = len(script) + 1
    assert [part for line in world.shown_lines for part in line.split("\n")] == lines, "every line once, in order"
    assert all(len(post) <= MESSAGE_LIMIT for post in world.posts.values())
    assert world.table == last, "the table ends on the newest version"
    assert all(world.dms.get(seat, 0) >= version for seat, version in last_dm.items()), (world.dms, last_dm)
    assert "dm" not in world.events[: world.events.index("open")], "a new game's DMs wait for its table"
    assert not notifier._pending and not notifier._busy and not notifier._retries, "nothing left pending or held"
    if lines:
        notifier.bot.table.db.update_game.assert_awaited_with(
            9, announced=max(v for v, (_s, length, _p) in enumerate(script, start=2) if length)
        )
