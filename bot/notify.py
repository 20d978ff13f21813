"""The Discord side of `bot.table.Notifier`: threads, the table message, the log, DMs.

REST budget per update: one table edit, one log post when the turn resolved, and one DM edit per
seat whose prompt changed (the deciding player's DM is answered by the interaction response itself).
Messages are edited through partial objects built from stored ids, so nothing is fetched first.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime
from typing import TYPE_CHECKING

import discord

from bot import i18n, present, text
from bot.render.generic import relative_time
from bot.table import SeatNotice, TableUpdate
from storage import GameRow, SeatRow

if TYPE_CHECKING:
    from bot.client import TableBot

log = logging.getLogger(__name__)

CANNOT_DM = 50007


class DiscordNotifier:
    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @property
    def db(self):  # type: ignore[no-untyped-def]
        return self.bot.table.db

    async def _server_language(self, game: GameRow) -> str:
        """Thread and channel messages speak the server's language."""
        return await self.bot.languages.server(game.guild_id)

    def _public_channel(self, game: GameRow) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(game.thread_id or game.channel_id)

    async def publish(self, update: TableUpdate) -> None:
        game = update.game
        assert game.id is not None
        try:
            lang = await self._server_language(game)
            if update.started:
                game = await self._open_table(update, lang)
            else:
                await self._edit_table(update, lang)
                line = present.log_line(update, lang)
                if line:
                    await self._public_channel(game).send(line, allowed_mentions=discord.AllowedMentions.none())
            if update.dms:
                await asyncio.gather(*(self._send_private(game, notice, update, lang) for notice in update.dms))
        except discord.HTTPException:
            # The decision is committed; a failed notification is retried by the next update.
            log.exception("publishing game %s failed", game.id)

    async def _open_table(self, update: TableUpdate, lang: str) -> GameRow:
        game = update.game
        assert game.id is not None
        if game.thread_id is None:  # a process that stopped after opening the thread reuses it
            thread_id = await self._create_thread(game, lang)
            if thread_id is not None:
                await self.db.update_game(game.id, thread_id=thread_id)
                game.thread_id = thread_id
        message = await present.table(update, lang).render()
        sent = await self._public_channel(game).send(**message.send_kwargs())
        await self.db.update_game(game.id, table_message_id=sent.id)
        game.table_message_id = sent.id
        return game

    async def _create_thread(self, game: GameRow, lang: str) -> int | None:
        from games import get

        channel = self.bot.get_channel(game.channel_id)
        if not isinstance(channel, discord.TextChannel):
            return None  # a DM or an uncached channel: play in the channel itself
        name = i18n.t(lang, text.THREAD_NAME, title=get(game.game_key).title, game_id=game.id)
        try:
            thread = await channel.create_thread(name=name, type=discord.ChannelType.public_thread,
                                                 auto_archive_duration=1440)
        except discord.HTTPException:
            log.info("cannot open a thread in %s; the game plays in the channel", game.channel_id)
            return None
        return thread.id

    async def _edit_table(self, update: TableUpdate, lang: str) -> None:
        game = update.game
        if game.table_message_id is None:
            return
        message = await present.table(update, lang).render()
        partial = self._public_channel(game).get_partial_message(game.table_message_id)
        await partial.edit(**message.edit_kwargs())

    async def _send_private(self, game: GameRow, notice: SeatNotice, update: TableUpdate, server_lang: str) -> None:
        assert game.id is not None
        seat = notice.seat
        if seat.user_id is None:
            return
        # The DM speaks the player's language (their Discord locale, remembered on the seat).
        if seat.dm_failed:
            if notice.prompt is not None and not seat.ai_controlled:
                await self._ping(game, seat, server_lang)
            return
        message = await present.seat_message(game, notice, update, lang=i18n.language(seat.locale)).render()
        try:
            if seat.dm_channel_id is not None and seat.dm_message_id is not None:
                dm = self.bot.get_partial_messageable(seat.dm_channel_id, type=discord.ChannelType.private)
                try:
                    await dm.get_partial_message(seat.dm_message_id).edit(**message.edit_kwargs())
                    return
                except discord.NotFound:
                    pass  # the player deleted it: send a new one
            channel = await self.bot.create_dm(discord.Object(seat.user_id))
            sent = await channel.send(**message.send_kwargs())
            await self.db.update_seat(game.id, seat.seat, dm_channel_id=channel.id, dm_message_id=sent.id)
        except discord.Forbidden as exc:
            if exc.code != CANNOT_DM:
                raise
            await self.db.update_seat(game.id, seat.seat, dm_failed=True)
            if notice.prompt is not None:
                await self._ping(game, seat, server_lang)

    async def _ping(self, game: GameRow, seat: SeatRow, lang: str) -> None:
        assert game.id is not None and seat.user_id is not None
        ping = present.dm_closed_ping(game.id, seat.user_id, lang)
        await self._public_channel(game).send(**ping.send_kwargs(),
                                              allowed_mentions=discord.AllowedMentions(users=True))

    async def remind(self, game: GameRow, seats: list[SeatRow], deadline: datetime) -> None:
        mentions = " ".join(f"<@{s.user_id}>" for s in seats if s.user_id is not None)
        if not mentions:
            return
        try:
            lang = await self._server_language(game)
            await self._public_channel(game).send(
                i18n.t(lang, text.REMINDER, mentions=mentions, when=relative_time(deadline)),
                allowed_mentions=discord.AllowedMentions(users=True))
        except discord.HTTPException:
            log.exception("reminder for game %s failed", game.id)
