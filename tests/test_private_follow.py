"""A prompt's picture that follows its words (bot/delivery/private.py `_follow`): its game is marked delivered once the
picture is shown or given up for something newer, never when the picture was cut off by a stop or failed,
so that a restart shows that prompt again with its picture (bot/delivery/notify.py keeps the game owed meanwhile)."""

from __future__ import annotations

import asyncio
from collections import Counter
from types import SimpleNamespace
from typing import Any

from bot.delivery.private import PrivateWindows, _PictureToFollow

GAME, SEAT = 7, 1


def _windows(edited: bool) -> tuple[PrivateWindows, list[int]]:
    """PrivateWindows with only what `_follow` touches: an edit that succeeds (`edited`) or fails."""
    windows = PrivateWindows.__new__(PrivateWindows)
    windows._to_follow = {}
    windows._following = Counter()
    followed: list[int] = []
    windows.followed = followed.append
    windows.bot = SimpleNamespace(
        is_closed=lambda: False, table=SimpleNamespace(delivery=SimpleNamespace(window=lambda *a: None))
    )

    async def edit(*_args: Any) -> bool:
        if not edited:
            raise OSError("the edit failed")
        return True

    windows._edit = edit  # type: ignore[method-assign]
    return windows, followed


async def _following(windows: PrivateWindows, drawing: asyncio.Future[Any]) -> asyncio.Task[None]:
    follow = windows._to_follow[(GAME, SEAT)] = _PictureToFollow()
    windows._following[GAME] += 1
    window = SimpleNamespace(version=3, prompt=11, live=True)
    task = asyncio.ensure_future(windows._follow((GAME, SEAT), follow, Any, Any, window, Any, drawing, None))  # type: ignore[arg-type]
    await asyncio.sleep(0)
    assert windows.owes_pictures(GAME)
    return task


async def test_a_picture_shown_marks_its_game_delivered() -> None:
    windows, followed = _windows(edited=True)
    drawing: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
    task = await _following(windows, drawing)
    drawing.set_result("the message with its picture")
    await task
    assert followed == [GAME] and not windows.owes_pictures(GAME)


async def test_a_picture_cut_off_by_a_stop_or_failed_leaves_its_game_owed() -> None:
    for cut_off in (True, False):
        windows, followed = _windows(edited=False)
        drawing: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        task = await _following(windows, drawing)
        if cut_off:
            task.cancel()  # the bot stops while the picture is being drawn
        else:
            drawing.set_result("the message with its picture")  # ... or its edit fails
        await asyncio.gather(task, return_exceptions=True)
        assert followed == [], "not marked delivered: a restart owes the prompt its picture"
        assert not windows.owes_pictures(GAME), "and nothing holds back the game's next delivered mark"
