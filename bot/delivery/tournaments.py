"""A tournament's life on Discord: the tournament service's `TournamentNotifier`, told after each change is
stored (at least once: after a crash it may be told again, so every post carries a nonce that makes Discord
return the first copy instead of posting a second).

The tournament plays in a thread of its own, started from its sign-up message when the first round opens
(in the channel itself where threads cannot be made); each round's opening is posted there with its tables
and their players mentioned (each table is an ordinary game with its own thread, DMs and timers), each
round's end with its results and the standings in words and as a picture, and the end with the podium,
its winners mentioned. The sign-up message in the channel is kept up to date all along. Everything is in
the server's language, paced like every other request (bot.transport.pacing).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

import games
from bot.delivery.private import nonce
from bot.messages import tournaments as shown
from bot.texts import i18n
from bot.texts import text_tournaments as tt
from bot.transport import refusals
from table.tournaments.records import TournamentStatus

if TYPE_CHECKING:
    from bot.app.client import TableBot

log = logging.getLogger(__name__)

THREAD_EXISTS = 160004  # Discord's code for a second thread started from one message
GIVE_UP_ON = (discord.HTTPException, RuntimeError)


class TournamentDelivery:
    """The Discord side of tournaments: implements table.tournaments.records.TournamentNotifier."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    async def round_opened(self, status: TournamentStatus, number: int) -> None:
        lang = await self._lang(status)
        channel = await self._thread(status, lang)
        threads = {}
        for round_ in status.rounds:
            for table in round_.tables if round_.number == number else ():
                if table.game_id is not None:
                    game = await self.bot.table.db.get_game(table.game_id)
                    threads[table.game_id] = game.thread_id if game is not None else None
        content = shown.round_opened(status, number, threads, lang)
        await self._post(channel, status, ("round", number, "opened"), content=content)
        await self.refresh(status)

    async def round_finished(self, status: TournamentStatus, number: int) -> None:
        lang = await self._lang(status)
        channel = await self._thread(status, lang)
        message = await shown.round_finished(status, number, lang).render()
        await self._post(channel, status, ("round", number, "finished"), mention=False, **message.send_kwargs())

    async def finished(self, status: TournamentStatus) -> None:
        lang = await self._lang(status)
        channel = await self._thread(status, lang)
        message = await shown.podium(status, lang).render()
        await self._post(channel, status, ("finished",), **message.send_kwargs())
        await self.refresh(status)

    async def cancelled(self, status: TournamentStatus) -> None:
        await self.refresh(status)

    # --- the sign-up message, the thread, a post ---------------------------------------------------------------
    async def refresh(self, status: TournamentStatus) -> None:
        """The sign-up message edited to show the tournament as it is now (its buttons go once it started)."""
        row = status.tournament
        if row.message_id is None:
            return
        lang = await self._lang(status)
        message = shown.signup(status, lang)
        partial = self.bot.get_partial_messageable(row.channel_id).get_partial_message(row.message_id)
        try:
            await partial.edit(**message.edit_kwargs(), allowed_mentions=discord.AllowedMentions.none())
        except GIVE_UP_ON as error:
            log.warning("the sign-up message of tournament %s could not be updated: %r", row.id, error)

    async def _thread(self, status: TournamentStatus, lang: str) -> discord.abc.Messageable:
        """The tournament's thread, started from its sign-up message the first time it is needed (a thread
        started from a message has the message's id: a second attempt finds it); the channel where none can be."""
        row = status.tournament
        assert row.id is not None
        if row.thread_id is not None:
            return self.bot.get_partial_messageable(row.thread_id)
        channel = self.bot.get_partial_messageable(row.channel_id)
        if row.message_id is None:
            return channel
        name = i18n.t(lang, tt.THREAD_NAME, title=games.get(row.game_key).title, id=row.id)
        try:
            made = await self.bot.http.start_thread_with_message(
                row.channel_id, row.message_id, name=name[:100], auto_archive_duration=10080
            )
            thread_id = int(made["id"])
        except discord.HTTPException as error:
            if error.code != THREAD_EXISTS:
                log.warning("tournament %s plays in its channel: no thread (%s)", row.id, refusals.described(error))
                return channel
            thread_id = row.message_id
        await self.bot.tournaments.attach(row.id, thread_id=thread_id)
        row.thread_id = thread_id
        return self.bot.get_partial_messageable(thread_id)

    async def _post(
        self,
        channel: discord.abc.Messageable,
        status: TournamentStatus,
        key: tuple[object, ...],
        *,
        mention: bool = True,
        **kwargs: Any,
    ) -> None:
        row = status.tournament
        mentions = discord.AllowedMentions(users=True) if mention else discord.AllowedMentions.none()
        try:
            await channel.send(nonce=nonce("tournament", row.id, *key), allowed_mentions=mentions, **kwargs)
        except GIVE_UP_ON as error:
            log.warning("tournament %s: a post could not be made (%r)", row.id, error)

    async def _lang(self, status: TournamentStatus) -> str:
        return await self.bot.languages.server(status.tournament.guild_id)
