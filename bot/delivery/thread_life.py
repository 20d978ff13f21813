"""A game's thread from its opening to its end: the table pinned and the players added when it opens;
the result posted, the lobby message closed and the thread archived when it ends (bot.messages.endings says
what). Each request is tried once and a refusal logged: the table message itself already shows the
game, so a missed part is not worth a retry. Split from bot.delivery.notify, which owns the queues."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TypeVar

import aiohttp
import discord

from bot.delivery.delivered import Delivered
from bot.delivery.private import nonce
from bot.messages import endings
from bot.transport import refusals
from storage import GameRow
from table import TableUpdate

if TYPE_CHECKING:
    from bot.app.client import TableBot

log = logging.getLogger(__name__)
T = TypeVar("T")

# What a request tried once may fail with and be left at that (logged): Discord's refusal, the HTTP
# session closed under it (RuntimeError: the bot stopping), the connection lost or timed out.
GIVE_UP_ON = (discord.HTTPException, RuntimeError, aiohttp.ClientError, asyncio.TimeoutError)


class ThreadLife:
    def __init__(
        self, bot: TableBot, delivered: Delivered, public_channel: Callable[[GameRow], discord.PartialMessageable]
    ) -> None:
        self.bot = bot
        self.delivered = delivered
        self._public_channel = public_channel
        self._opened: set[int] = set()  # games whose table was pinned and players added
        self._ended: set[int] = set()  # games whose result was posted
        self._archiving: set[asyncio.Task[None]] = set()  # threads waiting to be archived

    async def reopening(self, game: GameRow, request: Callable[[], Awaitable[T]]) -> T:
        """Send `request` to the game's thread; if Discord archived the thread meanwhile (a game idle past
        the thread's auto-archive: 50083), reopen it and send once more. A locked thread (a moderator's, or
        ours at the end) stays shut: the refusal goes to the caller."""
        try:
            return await request()
        except discord.HTTPException as error:
            shown = self.delivered.known(game.id) if game.id is not None else None
            thread_id = (shown.thread_id if shown is not None else None) or game.thread_id
            if error.code != refusals.THREAD_ARCHIVED or thread_id is None:
                raise
        log.info("the thread of game %s was archived meanwhile; reopening it", game.id)
        await self.bot.http.edit_channel(thread_id, archived=False)
        return await request()

    async def opened(self, update: TableUpdate) -> None:
        """Once per game, when its thread and table exist: the table message pinned (it stays in reach
        however long the thread grows) and the human players added to the thread (it shows in their
        sidebar). Each request is tried once; a refusal (a missing permission) is logged."""
        game = update.game
        assert game.id is not None
        shown = self.delivered.game(game)
        thread_id, table_id = shown.thread_id, shown.table_message_id
        if thread_id is None or table_id is None or game.id in self._opened:
            return
        self._opened.add(game.id)
        requests = [self.bot.http.pin_message(thread_id, table_id)]
        requests += [self.bot.http.add_user_to_thread(thread_id, s.user_id) for s in update.seats if s.user_id]
        for request in requests:
            try:
                await request
            except GIVE_UP_ON as error:
                log.warning("the thread of game %s could not be set up in full: %r", game.id, error)

    async def ended(self, update: TableUpdate, lang: str) -> bool:
        """Once per finished game: the result message in the thread, the lobby message's summary, and
        the thread archived and locked `THREAD_ARCHIVE_SECONDS` later. Each part is tried once (a missed
        part is logged): the table message already shows the final scores. False when the result could
        not be posted for a passing reason (the bot stopping, Discord unavailable): a restart posts it."""

        game = update.game
        assert game.id is not None and update.outcome is not None
        if game.id in self._ended:
            return True
        self._ended.add(game.id)
        posted = True
        try:
            changes = await self.bot.table.db.rating_changes(game.id, game.guild_id or 0)
            content, embed, view = endings.result_message(game, update.seats, update.outcome, changes, lang)
            channel = self._public_channel(game)
            await self.reopening(
                game,
                lambda: channel.send(
                    content,
                    embed=embed,
                    view=view,
                    nonce=nonce(game.id, "result"),
                    allowed_mentions=discord.AllowedMentions(users=True),
                ),
            )
        except Exception as error:  # (the bot may be stopping: its HTTP session closed under the request)
            log.warning("the result of game %s could not be posted: %r", game.id, error)
            posted = not (self.bot.is_closed() or refusals.transient(error) or isinstance(error, RuntimeError))
        if game.lobby_message_id is not None:
            closed = endings.closed_lobby(game, update.seats, update.outcome, lang)
            partial = self.bot.get_partial_messageable(game.channel_id).get_partial_message(game.lobby_message_id)
            try:
                await partial.edit(
                    content=closed, embeds=[], view=None, allowed_mentions=discord.AllowedMentions.none()
                )
            except GIVE_UP_ON as error:
                log.warning("the lobby of game %s could not show its result: %r", game.id, error)
        shown = self.delivered.known(game.id)
        thread_id = (shown.thread_id if shown is not None else None) or game.thread_id
        delay = self.bot.settings.thread_archive_seconds
        if thread_id is not None and delay > 0:
            task = asyncio.get_running_loop().create_task(self._archive_later(thread_id, delay))
            task.set_name(f"bot-archive-{game.id}")
            self._archiving.add(task)
            task.add_done_callback(self._archiving.discard)
        return posted

    async def stop_archiving(self) -> None:
        """On shutdown: the threads still waiting to be archived are left to Discord's auto-archive."""
        for task in list(self._archiving):
            task.cancel()
        await asyncio.gather(*self._archiving, return_exceptions=True)

    async def _archive_later(self, thread_id: int, delay: float) -> None:
        """Archive and lock a finished game's thread (a restart meanwhile leaves it to Discord's own
        auto-archive, a day without messages)."""
        await asyncio.sleep(delay)
        try:
            try:
                await self.bot.http.edit_channel(thread_id, archived=True, locked=True)
            except discord.Forbidden as error:
                # Locking needs Manage Threads; the thread's creator may archive it without: the players'
                # sidebar is tidied all the same, and only a moderator could have reopened it anyway.
                log.warning(
                    "thread %s could not be locked (%s); archiving it only", thread_id, refusals.described(error)
                )
                await self.bot.http.edit_channel(thread_id, archived=True)
        except GIVE_UP_ON as error:
            log.warning("thread %s could not be archived: %r", thread_id, error)
