"""The notifier with updates that arrive while a table edit is on its way: the table ends on the newest
version, an update that is outdated before its picture is drawn is neither drawn nor sent, and a DM
pending anew while the previous one was being sent is sent again."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any
from unittest import mock

from bot.delivery import pending
from bot.delivery.notify import DiscordNotifier
from bot.messages import present


def _update(version: int, dms: list[Any] | None = None) -> Any:
    game = SimpleNamespace(id=7, status="active", guild_id=None)
    notices = {n.seat.seat: n for n in dms or []}
    return SimpleNamespace(game=game, version=version, started=False, dms=dms or [], notices=notices, afk_seats=[])


def _notifier() -> DiscordNotifier:
    notifier = DiscordNotifier(mock.MagicMock())

    async def server_language(game: Any) -> str:
        return "en"

    notifier._server_language = server_language  # type: ignore[method-assign]
    return notifier


async def test_the_table_ends_on_the_newest_update_and_outdated_ones_are_skipped() -> None:
    notifier = _notifier()
    first_on_its_way = asyncio.Event()
    go_on = asyncio.Event()
    shown: list[int] = []
    asked: list[tuple[int, bool]] = []

    async def edit_table(update: Any, lang: str, still_wanted: Any, again: bool, lines: Any = ()) -> None:
        asked.append((update.version, again))
        if not still_wanted():
            return
        if update.version == 1:
            first_on_its_way.set()
            await go_on.wait()  # versions 2 and 3 are published meanwhile
        shown.append(update.version)

    notifier._edit_table = edit_table  # type: ignore[method-assign]
    with mock.patch.object(present, "log_line", return_value=None):
        paying = asyncio.create_task(notifier.publish(_update(1)))
        await first_on_its_way.wait()
        await notifier.publish(_update(2))
        await notifier.publish(_update(3))
        go_on.set()
        await paying
    assert shown == [1, 3], "the newest version is shown last; version 2 was outdated before it was drawn"
    assert asked == [(1, False), (3, True)], "version 3's picture goes before notifications that did not wait"
    assert not notifier._pending


async def test_a_dm_pending_again_while_one_is_sent_is_sent_again() -> None:
    notifier = _notifier()
    sent: list[tuple[int, bool]] = []
    sending = asyncio.Event()
    go_on = asyncio.Event()

    def notice(version: int) -> Any:
        return SimpleNamespace(seat=SimpleNamespace(seat=0), version=version, prompt=None)

    async def send_private(game: Any, n: Any, update: Any, lang: str, still_wanted: Any, again: bool, **_: Any) -> None:
        if n.version == 1:
            sending.set()
            await go_on.wait()
        if still_wanted():
            sent.append((n.version, again))

    async def edit_table(update: Any, lang: str, still_wanted: Any, again: bool, lines: Any = ()) -> None:
        return None

    notifier._send_private = send_private  # type: ignore[method-assign]
    notifier._edit_table = edit_table  # type: ignore[method-assign]
    with mock.patch.object(present, "log_line", return_value=None):
        paying = asyncio.create_task(notifier.publish(_update(1, [notice(1)])))
        await sending.wait()
        await notifier.publish(_update(2, [notice(2)]))
        go_on.set()
        await paying
    assert sent == [(2, True)], "the DM shows the newest view (the older one, outdated once drawn, was not sent)"
    assert not notifier._pending


async def test_table_edits_keep_their_interval_the_newest_wins_and_the_end_goes_at_once() -> None:
    """With a table interval: an update coming within it waits and coalesces with those after it; one that
    only says who has decided waits longer, for the turn's result, and is shown with it; the end of the
    game is shown at once, however long the interval."""
    notifier = _notifier()
    notifier.table_interval = 0.5
    shown: list[tuple[int, float]] = []
    lines = {1: "a", 3: "b", 4: "c", 6: "d", 7: "e", 8: "f"}  # 2 and 5 only say someone decided

    async def edit_table(update: Any, lang: str, still_wanted: Any, again: bool, carried: Any = ()) -> bool:
        shown.append((update.version, asyncio.get_running_loop().time()))
        return True

    def update(version: int, status: str = "active") -> Any:
        made = _update(version)
        made.game.status = status
        return made

    notifier._edit_table = edit_table  # type: ignore[method-assign]
    with mock.patch.object(present, "log_line", side_effect=lambda u, lang: lines.get(u.version)):
        await notifier.publish(update(1))  # the first edit goes at once
        waiting = asyncio.create_task(notifier.publish(update(2)))
        await asyncio.sleep(0)
        await notifier.publish(update(3))
        await notifier.publish(update(4))
        await waiting
        assert [v for v, _ in shown] == [1, 4], "2 and 3 waited within the interval; the newest went"
        assert shown[1][1] - shown[0][1] >= 0.5 * 0.99
        await asyncio.sleep(0.6)  # the interval is over
        with mock.patch.object(pending, "PROGRESS_WAIT", 40):  # 20 s: however slow the machine, it still waits
            waiting = asyncio.create_task(notifier.publish(update(5)))
            await asyncio.sleep(0.1)
            assert [v for v, _ in shown] == [1, 4], "who has decided waits for the turn's result"
            await notifier.publish(update(6))
            await asyncio.wait_for(waiting, 10)
        assert [v for v, _ in shown] == [1, 4, 6]
        notifier.table_interval = 60.0
        waiting = asyncio.create_task(notifier.publish(update(7)))
        await asyncio.sleep(0)
        await notifier.publish(update(8, status="finished"))
        await asyncio.wait_for(waiting, 10)
    assert [v for v, _ in shown] == [1, 4, 6, 8], "the end of the game did not wait for the interval"
