"""Each player's private window on a game: their DM prompt, or their ephemeral hand when DMs are closed.

One notification per awaited decision (the table-experience issue, point 1): when a player becomes
awaited because of someone else's action or a new turn (a prompt is shown to them while none they
were told about is left unanswered: `bot.delivery.delivered`), exactly one thing Discord notifies about, as
they chose (`bot.delivery.preferences`):
- `dm`: a NEW direct message with the prompt; the previous prompt message is deleted afterwards, so
  the DM holds one live prompt;
- `mention`: the DM prompt edited in place (edits never notify) and a mention in the game's thread
  linking to it;
- `off`: the DM prompt edited in place, nothing else;
and for a player whose DMs are closed: their ephemeral hand refreshed through the token of their
latest click while it lives (15 minutes), and a mention in the thread with a link to the table and
the "Show my hand" button (under `dm` and `mention`; the first time, the message saying their DMs are
closed is that mention). Anything else a player is shown (a fresher view of a prompt they were told
about, a view without a prompt, the end of the game) is an edit in place, which never notifies; and
nothing at all after their own click, whose answer shows what comes next. A view without a prompt
changes the words only: the picture shown stays until the next prompt brings its own (issue 37.3).

Routes (bot.delivery.reach): whatever can go through the token of the player's latest click does (the
follow-up with the new prompt, the edit, the deletion of the old prompt): Discord does not count
those against the bot's global limit. Otherwise the bot's own routes, paced (bot.transport.pacing): prompts
first, deleting an old prompt last (it is clean-up, sent in the background).

Over 500 lines: the three ways of telling a player (and closed DMs), the routes of each and a prompt's
picture that follows its words share one record per seat (what it shows, through which message); split,
each part would reach into the others'.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import discord

from bot.delivery.attachments import ShownPictures
from bot.delivery.delivered import Delivered, SeatShown
from bot.delivery.preferences import DM, MENTION, OFF
from bot.delivery.reach import Reach, Reaches, dead_token
from bot.messages import present
from bot.render.kit.pool import Superseded, picture_priority
from bot.texts import i18n
from bot.transport import refusals
from bot.transport.pacing import Priority, priority
from storage import GameRow, SeatRow
from table import SeatNotice, TableUpdate

if TYPE_CHECKING:
    from bot.app.client import TableBot

log = logging.getLogger(__name__)

# Seconds a prompt waits for its picture before its words and buttons go without it (the picture follows
# in an edit of the same message): a queue of pictures never holds up whose turn it is.
PROMPT_PICTURE_WAIT = 0.1
# Seconds an answer waits at most for a prompt's picture already on its way (its request may wait for the
# global bucket: the answer, deferred meanwhile, must land after it, or the old prompt would show again).
FOLLOWING_HOLD = 10.0
T = TypeVar("T")


def nonce(*parts: object) -> int:
    """A message nonce that is the same every time the same post is attempted (fits Discord's 64 bits)."""
    digest = hashlib.blake2b(repr(parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest) >> 1


@dataclass
class _PictureToFollow:
    """A prompt shown without its picture: `sending` is set while the edit that adds it is on its way."""

    sending: asyncio.Future[None] | None = None


def words_of(message: present.Outgoing) -> present.Outgoing:
    """`message`'s words, embeds and buttons without its picture, which is still being drawn."""
    return present.Outgoing(content=message.content, embeds=[e.copy() for e in message.embeds], view=message.view)


def jump_link(guild_id: int | None, channel_id: int | None, message_id: int | None) -> str | None:
    """Discord's link to a message (`@me` for a DM), or None when it is not known."""
    if channel_id is None or message_id is None:
        return None
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message_id}"


class PrivateWindows:
    """Shows each seat its private window, and tells players it is their turn (see the module)."""

    def __init__(self, bot: TableBot, delivered: Delivered, reaches: Reaches, pictures: ShownPictures) -> None:
        self.bot = bot
        self.delivered = delivered
        self.reaches = reaches
        self.pictures = pictures
        self.closed: set[tuple[int, int]] = set()  # seats whose DM failed with 50007 (this process saw it)
        self._told_closed: set[tuple[int, int]] = set()  # ... and who were told so in the thread
        self._cleanups: set[asyncio.Task[None]] = set()  # old prompts being deleted, pictures following
        # Each seat's latest turn mention in the thread (channel, message): deleted when the next is posted.
        self._mentions: dict[tuple[int, int], tuple[int, int]] = {}
        self._to_follow: dict[tuple[int, int], _PictureToFollow] = {}  # seat -> its prompt's picture to follow
        self._following: Counter[int] = Counter()  # game -> its pictures to follow; `followed` when none is
        self.followed: Callable[[int], None] = lambda game_id: None

    @property
    def db(self) -> Any:
        return self.bot.table.db

    # --- what the answers to a player's own clicks showed ---------------------------------------------
    def answered(
        self,
        interaction: discord.Interaction[Any],
        game_id: int,
        seat: SeatRow,
        notice: SeatNotice,
        original: int | None,
    ) -> None:
        """A click of this seat was answered with `notice`, shown on `original` (the clicked message, or
        the answer): the player has seen it, and their interaction reaches them from now on. Only for
        their own window (a click in their DM, or anywhere for a player whose DMs are closed)."""
        closed = seat.dm_failed or (game_id, seat.seat) in self.closed
        if interaction.guild_id is not None and not closed:
            return  # e.g. "Show my hand" in the thread by a player whose DM is their window
        self.reaches.remember(game_id, seat.seat, interaction, original)
        window = self.delivered.seat(game_id, seat)
        if original is not None:
            if not closed:
                window.channel_id = interaction.channel_id
            window.message_id = original
        window.live = notice.prompt is not None and not seat.ai_controlled
        if notice.version >= window.version:
            window.version, window.prompt = notice.version, notice.prompt_digest
        self._record(game_id, seat.seat, window)

    def stood_in(self, game_id: int, seats: list[int]) -> None:
        """The AI decided for these seats (their players were away): their prompts are answered."""
        known = self.delivered.known(game_id)
        for seat in seats:
            window = known.seats.get(seat) if known is not None else None
            if window is not None:
                window.live = False
                self._record(game_id, seat, window)

    def _record(self, game_id: int, seat: int, window: SeatShown, picture_owed: bool = False) -> None:
        """What the window shows now, as Discord confirmed it, recorded for a restart (table.delivery).
        `picture_owed`: the prompt's picture is to follow, so a restart meanwhile must show it again."""
        prompt = -window.prompt if picture_owed else window.prompt  # (real digests are positive)
        self.bot.table.delivery.window(game_id, seat, window.version, prompt, bool(window.live))

    # --- showing a seat its view -----------------------------------------------------------------------
    async def show(
        self,
        game: GameRow,
        notice: SeatNotice,
        update: TableUpdate,
        server_lang: str,
        still_wanted: Callable[[], bool],
        again: bool = False,
        shown: Callable[[str], None] | None = None,
    ) -> None:
        """Show `notice` in the seat's window, telling the player once if it makes them awaited.
        `shown("dm")` is called once Discord shows its words and buttons, `shown("dm_picture")` once it
        shows its picture too: a prompt whose picture is not drawn within `PROMPT_PICTURE_WAIT` goes
        without it, and the picture follows in an edit, in the background (`_follow`)."""
        assert game.id is not None
        seat = notice.seat
        if seat.user_id is None:
            return
        key = (game.id, seat.seat)
        await self.no_picture_to_follow(game.id, seat.seat)
        window = self.delivered.seat(game.id, seat)
        awaited = notice.prompt is not None and not seat.ai_controlled and window.live is False
        mode = await self.bot.preferences.of(seat.user_id) if awaited else OFF
        if seat.dm_failed or key in self.closed:
            await self._closed(game, notice, update, server_lang, window, awaited, mode, still_wanted, again)
            return
        message = present.seat_message(game, notice, update, lang=i18n.language(seat.locale))
        waiting = notice.prompt is None and game.status == "active" and message.picture is not None
        if waiting and self.pictures.shows(window.message_id):
            # Nothing to decide: the words say what changed, the picture shown stays; the seat's next prompt
            # brings its new picture (issue 37.3: a picture goes where a player needs one).
            message = words_of(message)
        wanted = [still_wanted]  # once the picture follows on its own: while nothing newer replaced it
        drawing = asyncio.ensure_future(
            message.render(
                still_wanted=lambda: wanted[0](), priority=picture_priority(notice.prompt is not None, again)
            )
        )
        following = False
        try:
            # A prompt whose picture is still being drawn goes without it, the picture following in an edit:
            # under load pictures queue for the workers, and a player waits for their buttons, not for art.
            words_first = False
            if notice.prompt is not None and message.picture is not None:
                await asyncio.wait({drawing}, timeout=PROMPT_PICTURE_WAIT)
                words_first = not drawing.done()
            if not words_first:
                await drawing
            if not still_wanted():
                return
            notify = awaited and mode == DM
            sent = words_of(message) if words_first else message
            try:
                if window.message_id is None or notify or not await self._edit(game, seat, window, sent):
                    await self._post(game, seat, window, sent, notice.version, notify=notify)
            except discord.Forbidden as exc:
                if exc.code != refusals.CANNOT_DM:
                    raise
                self.closed.add(key)
                await self._closed(game, notice, update, server_lang, window, awaited, mode, still_wanted, again)
                return
            window.live = notice.prompt is not None and not seat.ai_controlled
            window.version, window.prompt = notice.version, notice.prompt_digest
            self._record(game.id, seat.seat, window, picture_owed=words_first)
            if shown is not None:
                shown("dm")
                if not words_first:
                    shown("dm_picture")
            if words_first:
                follow = self._to_follow[key] = _PictureToFollow()
                wanted[0] = lambda: self._to_follow.get(key) is follow
                self._following[game.id] += 1
                self._in_background(self._follow(key, follow, game, seat, window, message, drawing, shown))
                following = True
            if awaited and mode == MENTION:
                link = jump_link(None, window.channel_id, window.message_id)
                await self._mention(game, seat, server_lang, link, hand=False)
        except Superseded:
            return  # a newer view of this seat is pending and goes next
        finally:
            if not following:
                drawing.cancel()  # (done already, unless sending failed: then nobody wants the picture)

    async def _follow(
        self,
        key: tuple[int, int],
        follow: _PictureToFollow,
        game: GameRow,
        seat: SeatRow,
        window: SeatShown,
        message: present.Outgoing,
        drawing: asyncio.Future[present.Outgoing],
        shown: Callable[[str], None] | None,
    ) -> None:
        """A prompt's picture, added to its message once drawn, in the background. Not once a click on its
        buttons is being answered or a newer view shown (`no_picture_to_follow`): either brings its own."""
        done = False  # shown, or given up for something newer (not failed, nor cut off by a stop)
        try:
            await drawing
            if self._to_follow.get(key) is follow:
                follow.sending = asyncio.get_running_loop().create_future()
                if await self._edit(game, seat, window, message):
                    self._record(*key, window)
                    if shown is not None:
                        shown("dm_picture")
            done = True
        except Superseded:
            done = True
        except Exception as error:
            if not self.bot.is_closed():
                log.warning("the picture of a prompt of game %s did not follow: %r", key[0], error)
        finally:
            drawing.cancel()
            if follow.sending is not None:
                follow.sending.set_result(None)
            if self._to_follow.get(key) is follow:
                del self._to_follow[key]
            self._following[key[0]] -= 1
            if not self._following[key[0]]:
                del self._following[key[0]]
                if done:  # else the game stays owed: a restart shows the prompt again, with its picture
                    self.followed(key[0])

    def owes_pictures(self, game_id: int) -> bool:
        """Some prompt of the game went without its picture, and the picture is still to follow."""
        return game_id in self._following

    async def no_picture_to_follow(self, game_id: int, seat: int) -> None:
        """Something newer is about to be shown in the seat's window (the answer to their click, or a newer
        view): a picture still to follow its prompt is not sent any more, and one on its way is waited for
        (briefly), so that it cannot land after the newer one and show the old prompt again."""
        following = self._to_follow.pop((game_id, seat), None)
        if following is not None and following.sending is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(following.sending), FOLLOWING_HOLD)

    async def _through(
        self, reach: Reach, game_id: int, seat: int, call: Callable[[discord.Webhook], Awaitable[T]]
    ) -> tuple[bool, T | None]:
        """`call` on the webhook of the seat's latest interaction: (True, its result), or (False, None)
        when Discord refused the token (expired, revoked): it is forgotten, the caller goes its own way."""
        try:
            return True, await call(reach.webhook(self.bot._connection))
        except discord.HTTPException as error:
            if not dead_token(error):
                raise
            self.reaches.drop(game_id, seat, reach)
            return False, None

    async def _edit(self, game: GameRow, seat: SeatRow, window: SeatShown, message: present.Outgoing) -> bool:
        """The window's message edited in place (through the player's latest interaction when it may);
        False if the message is gone (the player deleted it). A message whose picture is still being
        drawn (`words_of`) keeps the picture shown until its own follows."""
        assert game.id is not None and window.message_id is not None
        reach = self.reaches.of(game.id, seat.seat)
        target = reach.target(window.message_id) if reach is not None else None
        words = message.picture is None and not message.pictured
        if words:
            kwargs = self.pictures.keep_kwargs(message, window.message_id)
        else:
            kwargs = self.pictures.edit_kwargs(message, window.message_id)
        try:
            if reach is not None and target is not None:
                done, edited = await self._through(
                    reach,
                    game.id,
                    seat.seat,
                    lambda hook: hook.edit_message(target, **kwargs),  # type: ignore[arg-type]
                )
                if done:
                    if not words:  # (words alone leave the picture shown, as recorded)
                        self.pictures.record(edited, message)
                    return True
            if window.channel_id is None:
                return False
            dm = self.bot.get_partial_messageable(window.channel_id, type=discord.ChannelType.private)
            shown = await dm.get_partial_message(window.message_id).edit(**kwargs)
            if not words:
                self.pictures.record(shown, message)
            return True
        except discord.NotFound:
            return False

    async def _post(
        self, game: GameRow, seat: SeatRow, window: SeatShown, message: present.Outgoing, version: int, *, notify: bool
    ) -> None:
        """A new message in the seat's DM (notifying, or silent), which becomes its window; the previous
        one is deleted in the background."""
        assert game.id is not None and seat.user_id is not None
        old = window.message_id
        reach = self.reaches.of(game.id, seat.seat)
        sent: discord.Message | discord.WebhookMessage | None = None
        channel_id = window.channel_id
        if reach is not None and channel_id is not None and reach.channel_id == channel_id:
            _done, sent = await self._through(
                reach, game.id, seat.seat, lambda hook: hook.send(wait=True, silent=not notify, **message.send_kwargs())
            )
            if sent is not None:
                reach.followed_up(sent.id)
        if sent is None:
            if channel_id is None:
                channel_id = (await self.bot.create_dm(discord.Object(seat.user_id))).id
            dm = self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)
            sent = await dm.send(**message.send_kwargs(), nonce=nonce(game.id, seat.seat, version), silent=not notify)
        assert channel_id is not None
        self.pictures.record(sent, message)
        window.channel_id, window.message_id = channel_id, sent.id
        await self.db.update_seat(game.id, seat.seat, dm_channel_id=channel_id, dm_message_id=sent.id)
        if old is not None and old != sent.id:
            self.pictures.forget(old)
            self._delete_later(game.id, seat.seat, channel_id, old)

    def _delete_later(self, game_id: int, seat: int, channel_id: int, message_id: int) -> None:
        self._in_background(self._delete(game_id, seat, channel_id, message_id), f"bot-notify-cleanup-{game_id}-{seat}")

    def _in_background(self, work: Coroutine[Any, Any, None], name: str = "bot-notify-picture") -> None:
        """`work` in a task of its own, held until done (`idle` waits for them)."""
        task = asyncio.get_running_loop().create_task(work)
        task.set_name(name)
        self._cleanups.add(task)
        task.add_done_callback(self._cleanups.discard)

    async def _delete(self, game_id: int, seat: int, channel_id: int, message_id: int) -> None:
        """A superseded prompt message deleted (clean-up: last in line; a failure leaves it, harmless:
        its buttons are refused as no longer available)."""
        with priority(Priority.LOG):
            try:
                reach = self.reaches.of(game_id, seat)
                target = reach.target(message_id) if reach is not None else None
                if reach is not None and target is not None:
                    done, _ = await self._through(reach, game_id, seat, lambda hook: hook.delete_message(target))  # type: ignore[arg-type]
                    if done:
                        return
                dm = self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)
                await dm.get_partial_message(message_id).delete()
            except discord.NotFound:
                pass
            except Exception as error:
                if self.bot.is_closed():
                    return
                log.warning("could not delete an old prompt of game %s: %r", game_id, error)

    # --- players whose DMs are closed ------------------------------------------------------------------
    async def _closed(
        self,
        game: GameRow,
        notice: SeatNotice,
        update: TableUpdate,
        server_lang: str,
        window: SeatShown,
        awaited: bool,
        mode: str,
        still_wanted: Callable[[], bool],
        again: bool,
    ) -> None:
        """A player whose DMs are closed: their ephemeral hand refreshed through their latest click while
        it lives; told in the thread when they become awaited (the first time: that their DMs are closed)."""
        assert game.id is not None
        seat = notice.seat
        key = (game.id, seat.seat)
        if key in self.closed and not seat.dm_failed:
            await self.db.update_seat(game.id, seat.seat, dm_failed=True)
            seat.dm_failed = True
        reach = self.reaches.of(game.id, seat.seat)
        target = reach.target(window.message_id) if reach is not None else None
        if reach is not None and target is not None:
            try:
                message = await present.seat_message(game, notice, update, lang=i18n.language(seat.locale)).render(
                    still_wanted=still_wanted, priority=picture_priority(notice.prompt is not None, again)
                )
            except Superseded:
                return
            kwargs = self.pictures.edit_kwargs(message, window.message_id)
            with contextlib.suppress(discord.NotFound):  # the player dismissed it
                _done, edited = await self._through(
                    reach,
                    game.id,
                    seat.seat,
                    lambda hook: hook.edit_message(target, **kwargs),  # type: ignore[arg-type]
                )
                self.pictures.record(edited, message)
        prompted = notice.prompt is not None and not seat.ai_controlled
        if prompted and key not in self._told_closed:
            await self._ping(game, seat, server_lang)
            self._told_closed.add(key)
        elif awaited and mode != OFF:
            shown = self.delivered.game(game)
            link = jump_link(game.guild_id, shown.thread_id or game.channel_id, shown.table_message_id)
            await self._mention(game, seat, server_lang, link, hand=True, reach=reach)
        window.live = prompted
        window.version, window.prompt = max(window.version, notice.version), notice.prompt_digest
        self._record(game.id, seat.seat, window)

    async def _ping(self, game: GameRow, seat: SeatRow, lang: str) -> None:
        """The player is told in the thread that their DMs are closed (with the "Show my hand" button)."""
        assert game.id is not None and seat.user_id is not None
        ping = present.dm_closed_ping(game.id, seat.user_id, lang)
        with priority(Priority.PROMPT):
            await self._public(game).send(
                **ping.send_kwargs(),
                nonce=nonce(game.id, seat.seat, "dm-closed"),
                allowed_mentions=discord.AllowedMentions(users=True),
            )

    async def _mention(
        self, game: GameRow, seat: SeatRow, lang: str, link: str | None, *, hand: bool, reach: Reach | None = None
    ) -> None:
        """A mention in the game's thread telling the player it is their turn, with a link to what they
        must see; through their latest interaction when it happened in the thread (not counted)."""
        assert game.id is not None and seat.user_id is not None
        ping = present.turn_mention(game.id, seat.user_id, link, lang, hand=hand)
        mentions = discord.AllowedMentions(users=True)
        thread = self._public(game)
        posted: int | None = None
        with priority(Priority.PROMPT):
            if reach is not None and reach.channel_id == thread.id:
                done, sent = await self._through(
                    reach,
                    game.id,
                    seat.seat,
                    lambda hook: hook.send(wait=True, allowed_mentions=mentions, **ping.send_kwargs()),
                )
                if done and sent is not None:
                    reach.followed_up(sent.id)
                    posted = sent.id
                if not done:
                    posted = (await thread.send(**ping.send_kwargs(), allowed_mentions=mentions)).id
            else:
                posted = (await thread.send(**ping.send_kwargs(), allowed_mentions=mentions)).id
        self._superseded_mention(game.id, seat.seat, thread.id, posted)

    def _superseded_mention(self, game_id: int, seat: int, thread_id: int, posted: int | None) -> None:
        """The seat's previous turn mention deleted, now that `posted` tells them again (clean-up)."""
        key = (game_id, seat)
        old = self._mentions.pop(key, None)
        if posted is not None:
            self._mentions[key] = (thread_id, posted)
        if old is not None and old[1] != posted:
            self._delete_later(game_id, seat, *old)

    def _public(self, game: GameRow) -> discord.PartialMessageable:
        shown = self.delivered.game(game)
        return self.bot.get_partial_messageable(shown.thread_id or game.thread_id or game.channel_id)

    # --- bookkeeping -----------------------------------------------------------------------------------
    async def idle(self) -> None:
        """Wait until the old prompts being deleted are (tests and benchmarks)."""
        while tasks := [t for t in self._cleanups if not t.done()]:
            await asyncio.wait(tasks)

    def forget(self, game_id: int) -> None:
        self.reaches.forget(game_id)
        self.closed = {k for k in self.closed if k[0] != game_id}
        self._told_closed = {k for k in self._told_closed if k[0] != game_id}
        self._mentions = {k: v for k, v in self._mentions.items() if k[0] != game_id}
