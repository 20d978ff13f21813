"""The Discord side of `table.Notifier`: threads, the table message (with the log folded in), DMs.

REST budget per update: one table edit, and for each seat whose prompt changed its private window
(bot.delivery.private: a new DM telling them it is their turn, or an edit; through the token of their latest
click while it lives, which Discord does not count against the global limit). The deciding player's own
window is the answer to their click. Messages are edited through partial objects built from stored ids,
so nothing is fetched first; what was delivered is kept in `delivered` (bot.delivery.delivered).

The log is folded into the table message (issues 19.2, 21.3): a turn's line is shown by the table edit
showing the turn, under "Recently" with the few before it (RECENT_LINES; in memory: after a start-up,
the turns since), not posted: a resolved turn costs one bot-token request, not two; the replay tells
it all at the end. Lines that came while the thread was held and no longer fit are posted, several a post.
The table's picture changes with a turn's result (an edit that shows a log line) and at the end; an edit
between them (who has decided, the step a player is at) changes the words only and keeps the attachment
Discord holds, the picture not even drawn (issue 37.3: a Reggverse game's table pictures 505 -> 130).

Per-channel queues, sent side by side: a game's thread (the table; on Discord its posts and edits share
one rate-limit bucket, 5 messages per 5 s, which discord.py waits on by itself) and each seat's DM (a
channel with a bucket of its own). So in a fast game whose thread is held by its bucket, the next
player's prompt still goes at once. Within a queue, what is pending goes in order, and coalesces while it
waits: only the newest table is drawn and sent (with every log line pending meanwhile), only the newest
view of a seat. A new game's DMs start once its thread exists. A game's table is edited at most once per
TABLE_EDIT_INTERVAL, a table saying only who has decided waits longer for the turn's result
(Pending.table_due), the end at once: a turn costs about one table edit however fast its players click.

Faults: discord.py retries 429s and some 5xx answers itself. What still fails for a passing reason (a
timeout, a 503, a lost connection, the database unreachable while ids are saved) stays pending, and a
background task retries that queue in order: the newest table (with the log lines not yet shown), the
newest private view of each seat that was pending one. Posts carry a nonce derived from what they say
(`enforce_nonce`), and a retried post carries exactly the lines of the attempt it repeats, so a post
retried after a timeout whose request did reach Discord is not doubled.

Over 500 lines: the queues, their coalescing, retries, delivery records and the log folded into the table
all read and write one state per game (`Pending`) in one order; what stands apart already does (bot.delivery.pending,
bot.delivery.private, bot.delivery.thread_life, bot.delivery.delivered).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Literal, TypeVar

import discord

from bot.delivery.attachments import ShownPictures
from bot.delivery.delivered import Delivered
from bot.delivery.pending import RECENT_LINES, THREAD, Pending
from bot.delivery.private import PrivateWindows, nonce
from bot.delivery.reach import Reaches
from bot.delivery.thread_life import ThreadLife
from bot.messages import present
from bot.messages.components import EndGameButton
from bot.messages.outgoing import Outgoing
from bot.render.kit.generic import relative_time
from bot.render.kit.pool import AGAIN, NOTIFICATION, Superseded
from bot.texts import i18n, text
from bot.transport import refusals
from bot.transport.pacing import Priority, priority
from bot.transport.refusals import transient
from storage import DatabaseUnavailable, GameRow, SeatRow
from storage.types import utcnow
from table import TableUpdate

if TYPE_CHECKING:
    from bot.app.client import TableBot

log = logging.getLogger(__name__)

# A game's thread is archived by Discord after this long without a message: a week (the longest Discord
# allows), so that a game with a 72-hour turn timer stays open between turns (bot.delivery.thread_life.reopening
# reopens one archived all the same).
AUTO_ARCHIVE_MINUTES: Literal[10080] = 10080
RETRY_FIRST_DELAY = 0.5  # seconds before the first retry of pending notifications, doubling up to:
RETRY_MAX_DELAY = 8.0
T = TypeVar("T")


class Stopping(Exception):
    """The bot is shutting down: what is still pending is left to start-up resumption (the DMs of those
    who must decide, the table, and the log lines not yet marked announced: shown on the table)."""


async def _unless_refused(request: Awaitable[T], closed: Callable[[], bool]) -> T | None:
    """Send one notification (its result); one Discord refuses for good (a missing permission, a deleted
    channel) is logged and counted as done (None), so that the others (the next player's DM) still go out."""
    try:
        return await request
    except Exception as error:
        if closed():  # the HTTP session is going away under us: not a refusal
            raise Stopping from error
        if transient(error):
            raise
        if refusals.ordinary(error):  # a permission, a deleted message or channel, an archived thread...
            log.warning("a notification was refused (%s); the game goes on without it", refusals.described(error))
        else:
            log.exception("a notification was refused; the game goes on without it")
        return None


class DiscordNotifier:
    """`table_interval`: the least time in seconds between two edits of a game's table (TABLE_EDIT_INTERVAL;
    Pending.table_due): the newest state waits for it and wins, an ending goes at once."""

    def __init__(self, bot: TableBot, table_interval: float = 0.0) -> None:
        self.bot = bot
        self.table_interval = table_interval
        self._table_edited: dict[int, float] = {}  # game -> when its table was last posted or edited (monotonic)
        self._pending: dict[int, Pending] = {}
        self._busy: dict[int, set[int]] = {}  # game -> its queues being sent now, or waiting to be retried
        self._retries: dict[tuple[int, int], asyncio.Task[None]] = {}  # (game, queue) -> its retry
        # Ids of messages sent, kept here too: the database may have been down when they came back.
        self.delivered = Delivered()
        self.reaches = Reaches()
        self.pictures = ShownPictures()
        self.private = PrivateWindows(bot, self.delivered, self.reaches, self.pictures)
        # A seat's private window shown (telling the player once if they became awaited); tests replace it.
        self._send_private = self.private.show
        self.private.followed = self._pictures_followed
        # Games all sent but for pictures following their prompts: (version, ended), marked delivered once
        # those have followed (a restart before that shows the prompts again, with their pictures).
        self._drain_later: dict[int, tuple[int, bool]] = {}
        self._thread_tried: set[int] = set()  # games whose thread creation failed without an answer
        self._words_only: set[int] = set()  # games whose table may not carry a picture (Attach Files refused)
        self.retried = 0  # notification attempts that failed for a passing reason and were retried
        self.threads = ThreadLife(bot, self.delivered, self._public_channel)
        self._endings: set[int] = set()  # finished games whose result is being posted
        self._recent: dict[int, deque[str]] = {}  # game -> the log lines its table shows, oldest first

    @property
    def db(self):  # type: ignore[no-untyped-def]
        return self.bot.table.db

    def shown(self, kind: str, seconds: float) -> None:
        """Something handed over `seconds` ago reached Discord: `table` (an update on the table message),
        `log` (its line posted), `dm` (a seat's prompt: its words and buttons), `dm_picture` (the same with
        its picture, which may follow them) or `dm_view` (a seat's private view without a prompt). For the
        metrics (bot.app.client)."""

    async def _server_language(self, game: GameRow) -> str:
        """Thread and channel messages speak the server's language."""
        return await self.bot.languages.server(game.guild_id)

    def _public_channel(self, game: GameRow) -> discord.PartialMessageable:
        assert game.id is not None
        shown = self.delivered.known(game.id)
        thread = shown.thread_id if shown is not None else None
        return self.bot.get_partial_messageable(thread or game.thread_id or game.channel_id)

    # --- publishing ------------------------------------------------------------------------------
    async def publish(self, update: TableUpdate) -> None:
        game_id = update.game.id
        assert game_id is not None
        try:
            lang = await self._server_language(update.game)
        except DatabaseUnavailable:
            lang = (
                i18n.DEFAULT
                if update.game.guild_id is None
                else i18n.language(self.bot.languages.preferred_locale(update.game.guild_id))
            )
        pending = self._pending.get(game_id)
        if pending is None:
            pending = self._pending[game_id] = Pending(update)
        pending.add(update, lang, time.monotonic())
        ending = getattr(update, "outcome", None) is not None and update.game.status == "finished"
        if ending:
            self._endings.add(game_id)  # the game is delivered once its result is posted too
        if update.afk_seats:
            self.private.stood_in(game_id, update.afk_seats)
        # Whoever is sending a queue of this game already takes this update's part of it too, in order.
        await self._send_queues(game_id, [THREAD, *pending.dms])
        if getattr(update, "started", False):
            await self.threads.opened(update)
        if ending:  # (not an update published meanwhile, without the outcome)
            shown = await self.threads.ended(update, lang)
            self._endings.discard(game_id)
            if not shown:
                pending.lost = True  # the result must be posted after a restart
            elif game_id not in self._pending and not pending.lost:  # the rest went out already
                self.bot.table.delivery.drained(game_id, update.version, ending=True)

    async def _send_queues(self, game_id: int, queues: list[int]) -> None:
        """Send those of these queues that have something pending and nobody sends yet, side by side."""
        claimed = [self._run_queue(game_id, queue) for queue in queues if self._claim(game_id, queue)]
        if len(claimed) == 1:
            await claimed[0]
        elif claimed:
            await asyncio.gather(*claimed)

    def _claim(self, game_id: int, queue: int) -> bool:
        """Take a queue of a game to send it, unless nothing is pending in it or it is being sent (or retried)."""
        if not self._pending[game_id].has_pending(queue):
            return False
        busy = self._busy.setdefault(game_id, set())
        if queue in busy:
            return False
        busy.add(queue)
        return True

    def _release(self, game_id: int, queue: int) -> None:
        busy = self._busy.get(game_id)
        if busy is not None:
            busy.discard(queue)
            if busy:
                return
            del self._busy[game_id]
        pending = self._pending.get(game_id)
        if pending is None or not pending.empty():
            return
        del self._pending[game_id]
        latest = pending.latest
        if not pending.lost and game_id not in self._endings:
            # Everything handed over went out: recorded, so a restart owes this game nothing.
            ended = latest.game.status != "active"
            if self.private.owes_pictures(game_id):
                self._drain_later[game_id] = (latest.version, ended)
            else:
                self._drain_later.pop(game_id, None)
                self.bot.table.delivery.drained(game_id, latest.version, ending=ended)
        if latest.game.status != "active":
            self._forget(game_id)  # the game is over: nothing more will be sent for it

    async def _run_queue(self, game_id: int, queue: int) -> None:
        """Send a claimed queue; after a passing failure a background task retries it (and holds it)."""
        retrying = False
        try:
            if not await self._send_pending(game_id, queue):
                task = self._retries[(game_id, queue)] = asyncio.get_running_loop().create_task(
                    self._retry_later(game_id, queue)
                )
                task.set_name(f"bot-notify-retry-{game_id}-{queue}")
                retrying = True
        finally:
            if not retrying:
                self._release(game_id, queue)

    async def _send_pending(self, game_id: int, queue: int) -> bool:
        """Send what is pending in a queue of the game; True when all is sent (or given up), False after a
        passing failure."""
        pending = self._pending[game_id]
        try:
            if queue == THREAD:
                while pending.has_pending(THREAD):  # (waiting for a new game's DMs may have let more come)
                    await self._send_thread(game_id, pending)
            else:
                while pending.has_pending(queue):
                    await self._send_dm(pending, queue)
            return True
        except Stopping:
            log.info("stopping with notifications of game %s unsent; start-up resumption sends them", game_id)
            self._give_up(game_id, pending, queue)
            return True
        except Exception as error:
            if not transient(error):
                # The decision is committed; what failed for good is left for the next update to show.
                log.exception("publishing game %s failed", game_id)
                self._give_up(game_id, pending, queue)
                return True
            self.retried += 1
            log.warning("publishing game %s failed for now (%r); retrying", game_id, error)
            return False

    def _give_up(self, game_id: int, pending: Pending, queue: int) -> None:
        """Drop what is pending in a queue; the thread's queue also drops the DMs nobody is sending (those of
        a new game wait for its thread), so that nothing is left pending without a queue to send it."""
        pending.drop(queue)
        pending.lost = True
        if queue == THREAD:
            busy = self._busy.get(game_id, set())
            for seat in [s for s in pending.dms if s not in busy]:
                pending.drop(seat)

    def _pictures_followed(self, game_id: int) -> None:
        """The last picture still to follow a prompt of the game has (or was dropped for something newer)."""
        if game_id in self._pending or game_id in self._busy or game_id in self._endings:
            return  # what is being sent now is marked delivered when it has gone, as above
        later = self._drain_later.pop(game_id, None)
        if later is not None:
            self.bot.table.delivery.drained(game_id, later[0], ending=later[1])

    def _forget(self, game_id: int) -> None:
        shown = self.delivered.known(game_id)
        if shown is not None:
            self.pictures.forget(shown.table_message_id, *(window.message_id for window in shown.seats.values()))
        self.delivered.forget(game_id)
        self.private.forget(game_id)
        self._drain_later.pop(game_id, None)
        self._recent.pop(game_id, None)
        self._table_edited.pop(game_id, None)

    async def _retry_later(self, game_id: int, queue: int) -> None:
        delay = RETRY_FIRST_DELAY
        try:
            while True:
                await asyncio.sleep(delay)
                if await self._send_pending(game_id, queue):
                    break
                delay = min(delay * 2, RETRY_MAX_DELAY)
        finally:
            self._retries.pop((game_id, queue), None)
            self._release(game_id, queue)

    async def _send_thread(self, game_id: int, pending: Pending) -> None:
        """The thread's queue: the table (opened, then edited) and the log, one request at a time. Once
        the table is open, the DMs start in their own queues alongside (this call waits for them too)."""
        dms: asyncio.Future[None] | None = None
        try:
            while pending.has_pending(THREAD):
                opening = pending.open_table
                await self._send_thread_step(pending)
                if opening and not pending.open_table:
                    dms = asyncio.ensure_future(self._send_queues(game_id, list(pending.dms)))
        finally:
            if dms is not None:
                await dms

    async def _send_thread_step(self, pending: Pending) -> None:
        """One request's worth of what is pending for the thread, marked sent once it went through (or failed
        for good)."""
        if self.table_interval and not pending.open_table:
            await self._table_pause(pending)
        update = pending.latest
        game = update.game
        assert game.id is not None
        lang = await self._server_language(game)
        # An update published while a request is on its way (another decision of the game) needs its own:
        # what was pending is marked sent only if nothing newer came meanwhile.
        if pending.open_table:
            with priority(Priority.DEFAULT):  # a new game's DMs wait for its thread
                shown = await _unless_refused(self._open_table(update, lang), self.bot.is_closed)
            pending.open_table = False
            if pending.latest is update:
                pending.edit_table = False  # the table was just posted from the newest update
            if shown:
                self._table_edited[game.id] = time.monotonic()
                self._table_shown(pending, update.version)
        elif pending.posting or pending.overflow() > 0:
            # More lines came while the thread was held than the table has room for: the oldest are
            # posted (several a post) before the edit shows the newest, so that no turn is skipped.
            batch = pending.next_post()
            content = "\n".join(line for _version, line, _when in batch)
            channel = self._public_channel(game)
            # The table's own priority: the game's newer table waits behind this post in the thread's queue,
            # so a post held behind every other game's table would hold this table too (issue 37: under a busy
            # global limit such posts waited 13 s on average, their tables with them).
            with priority(Priority.TABLE):
                await _unless_refused(
                    self.threads.reopening(
                        game,
                        lambda: channel.send(
                            content,
                            nonce=nonce(game.id, batch[-1][0], content),
                            allowed_mentions=discord.AllowedMentions.none(),
                        ),
                    ),
                    self.bot.is_closed,
                )
            carried, pending.posting = pending.posting, 0
            await self._lines_shown(game, pending, carried)
        elif pending.edit_table or pending.lines:
            carried = pending.tried = len(pending.lines)  # the lines this edit shows (newer: the next one's)
            # The interval runs from when an edit was asked for, not from when Discord answered it: a busy
            # global limit holds each edit for seconds (200 games at a fast pace: ~2 s), which already spaces a
            # game's edits; counting the interval after it again made the table that much staler (issue 37).
            asked = time.monotonic()
            with priority(Priority.TABLE):
                shown = await _unless_refused(
                    self._edit_table(
                        update,
                        lang,
                        lambda: pending.latest is update,
                        pending.table_again,
                        [line for _version, line, _when in pending.lines[:carried]],
                    ),
                    self.bot.is_closed,
                )
            pending.table_again, pending.tried = pending.latest is not update, 0
            if pending.latest is update:
                pending.edit_table = False
            if shown:
                self._table_edited[game.id] = asked
                self._table_shown(pending, update.version)
            # Shown, refused for good, or with no table to show them on: done with those lines (only a
            # newer table pending, which shows them too, leaves them).
            if shown is not False or pending.latest is update:
                await self._lines_shown(game, pending, carried)

    async def _table_pause(self, pending: Pending) -> None:
        """Wait until the game's next table edit may go (Pending.table_due): the updates that come meanwhile
        coalesce into it (the newest wins); one that ends the game cuts the wait short."""
        game_id = pending.latest.game.id
        assert game_id is not None
        while (due := pending.table_due(self._table_edited.get(game_id), self.table_interval)) > time.monotonic():
            pending.arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(pending.arrived.wait(), due - time.monotonic())

    async def _lines_shown(self, game: GameRow, pending: Pending, carried: int) -> None:
        """The first `carried` pending log lines are shown now (on the table, or posted): kept as the table's
        recent lines, and marked announced (one write for a run of lines: start-up resumption shows what
        it missed)."""
        if not carried:
            return
        assert game.id is not None
        batch = pending.lines[:carried]
        del pending.lines[:carried]
        self._recent.setdefault(game.id, deque(maxlen=RECENT_LINES)).extend(line for _v, line, _w in batch)
        now = time.monotonic()
        for _version, _line, when in batch:
            self.shown("log", now - when)
        if not pending.lines:
            await self.db.update_game(game.id, announced=batch[-1][0])

    def _table_shown(self, pending: Pending, version: int) -> None:
        game_id = pending.latest.game.id
        assert game_id is not None
        self.bot.table.delivery.table(game_id, version)
        now = time.monotonic()
        while pending.table_since and pending.table_since[0][0] <= version:
            self.shown("table", now - pending.table_since.pop(0)[1])

    async def _send_dm(self, pending: Pending, seat: int) -> None:
        """The newest private view of a seat, marked sent unless a newer one became pending meanwhile."""
        update = pending.latest
        game = update.game
        lang = await self._server_language(game)
        newest_pending = pending.dms[seat]
        # The newest view of the seat (a later update may have left this seat out of its DMs).
        notice = update.notices.get(seat) or newest_pending
        since = pending.dm_since.get(seat, time.monotonic())  # the oldest view of the seat that was pending
        told: set[str] = set()

        def shown(kind: str) -> None:  # its words and buttons ("dm"), its picture ("dm_picture"), maybe later
            told.add(kind)
            if notice.prompt is not None:
                self.shown(kind, time.monotonic() - since)
            elif kind == "dm":  # a view without a prompt: what happened, which may wait behind prompts
                self.shown("dm_view", time.monotonic() - since)

        with priority(Priority.PROMPT if notice.prompt is not None else Priority.DEFAULT):
            await _unless_refused(
                self._send_private(
                    game,
                    notice,
                    update,
                    lang,
                    lambda: pending.dms.get(seat) is newest_pending,
                    seat in pending.dms_again,
                    shown=shown,
                ),
                self.bot.is_closed,
            )
        if pending.dms.get(seat) is newest_pending:
            del pending.dms[seat]
            pending.dms_again.discard(seat)
            pending.dm_since.pop(seat, None)
            if "dm" not in told:  # (shown otherwise: an ephemeral hand, or nothing to show)
                self.shown("dm" if notice.prompt is not None else "dm_view", time.monotonic() - since)
        else:
            pending.dms_again.add(seat)

    async def idle(self) -> None:
        """Wait until nothing is pending (tests and benchmarks)."""
        while tasks := [t for t in self._retries.values() if not t.done()]:
            await asyncio.wait(tasks)
        await self.private.idle()

    async def _open_table(self, update: TableUpdate, lang: str) -> bool:
        """The thread and the table message (whichever of them is missing); True if the table was posted now."""
        posted = False
        game = update.game
        assert game.id is not None
        shown = self.delivered.game(game)
        if shown.thread_id is None:
            shown.thread_id = await self._create_thread(game, lang)
        if shown.thread_id is not None and game.thread_id != shown.thread_id:
            await self.db.update_game(game.id, thread_id=shown.thread_id)
            game.thread_id = shown.thread_id
        if shown.table_message_id is None:
            message = await present.table(update, lang).render()
            channel = self._public_channel(game)
            sent = await self._without_files_if_refused(
                game.id, message, lambda: channel.send(**message.send_kwargs(), nonce=nonce(game.id, "table"))
            )
            self.pictures.record(sent, message)
            shown.table_message_id, shown.table_version = sent.id, update.version
            posted = True
        if game.table_message_id != shown.table_message_id:
            await self.db.update_game(game.id, table_message_id=shown.table_message_id)
            game.table_message_id = shown.table_message_id
        return posted

    async def _without_files_if_refused(
        self, game_id: int, message: Outgoing, request: Callable[[], Awaitable[T]]
    ) -> T:
        """Send the table, with its picture unless the server does not let the bot attach files here (Attach
        Files missing: 50013, of which the host was told when the lobby opened): then its words and buttons
        go alone, now and for the rest of the game, so nobody waits for a table that cannot be posted."""
        if game_id in self._words_only:
            message.without_picture()
        try:
            return await request()
        except discord.Forbidden as error:
            if error.code != refusals.MISSING_PERMISSIONS or message.image is None:
                raise
            log.warning("game %s: no picture on the table (%s)", game_id, refusals.described(error))
        self._words_only.add(game_id)
        message.without_picture()
        return await request()

    async def _create_thread(self, game: GameRow, lang: str) -> int | None:
        from games import get

        assert game.id is not None
        channel = self.bot.get_channel(game.channel_id)
        if not isinstance(channel, discord.TextChannel):
            return None  # a DM or an uncached channel: play in the channel itself
        name = i18n.t(lang, text.THREAD_NAME, title=get(game.game_key).title, game_id=game.id)
        # Discord takes no nonce for a new thread. The thread may exist already: made by an earlier
        # attempt whose answer was lost, or just before a restart (the gateway then lists it, so it is
        # in the cache). Its name carries the game id, so it is ours.
        made = await self._thread_made(channel, name, asked=game.id in self._thread_tried)
        if made is not None:
            self._thread_tried.discard(game.id)
            return made
        self._thread_tried.add(game.id)
        try:
            thread = await channel.create_thread(
                name=name, type=discord.ChannelType.public_thread, auto_archive_duration=AUTO_ARCHIVE_MINUTES
            )
        except discord.HTTPException as error:
            if transient(error):
                raise
            self._thread_tried.discard(game.id)
            log.info("cannot open a thread in %s; the game plays in the channel", game.channel_id)
            return None
        self._thread_tried.discard(game.id)
        return thread.id

    async def _thread_made(self, channel: discord.TextChannel, name: str, *, asked: bool) -> int | None:
        """Our thread of that name under `channel`: from the cache, or (after a failed attempt, whose
        thread the gateway may not have announced yet) from Discord's list of active threads."""
        me = self.bot.user.id if self.bot.user is not None else None
        threads = list(channel.threads)
        if asked:
            threads += await channel.guild.active_threads()
        return next((t.id for t in threads if t.parent_id == channel.id and t.name == name and t.owner_id == me), None)

    async def _edit_table(
        self,
        update: TableUpdate,
        lang: str,
        still_wanted: Callable[[], bool],
        again: bool = False,
        lines: Sequence[str] = (),
    ) -> bool:
        """The table message edited to show `update` and its new log `lines` after the recent ones; False
        if it was not sent (outdated, or no table yet)."""
        game = update.game
        assert game.id is not None
        shown = self.delivered.game(game)
        table_message_id = shown.table_message_id
        if table_message_id is None:
            return False
        recent = [*self._recent.get(game.id, ()), *lines][-RECENT_LINES:]
        message = present.table(update, lang, recent)
        # The picture changes with a turn's result (a log line) and at the end; a step within a turn (who
        # decided, what the player is choosing now) changes the words only (issue 37.3).
        words_only = not lines and update.outcome is None and self.pictures.shows(table_message_id)
        if not words_only:
            try:
                await message.render(still_wanted=still_wanted, priority=AGAIN if again else NOTIFICATION)
            except Superseded:
                return False  # a newer table is pending and goes next: this one is neither drawn nor sent
        if not still_wanted():
            return False  # it became outdated while drawn: the newer one goes next, no sooner for sending this
        partial = self._public_channel(game).get_partial_message(table_message_id)
        game_id = game.id

        def edit() -> Awaitable[discord.Message]:
            if words_only:
                return partial.edit(**self.pictures.kept_words(message, table_message_id))
            return partial.edit(**self.pictures.edit_kwargs(message, table_message_id))

        edited = await self.threads.reopening(game, lambda: self._without_files_if_refused(game_id, message, edit))
        if not words_only:
            self.pictures.record(edited, message)
        shown.table_version = max(shown.table_version, update.version)
        return True

    async def remind(self, game: GameRow, seats: list[SeatRow], deadline: datetime) -> None:
        await self._ping(game, seats, text.REMINDER, deadline, "reminder")

    async def remind_idle(self, game: GameRow, seats: list[SeatRow], since: datetime, can_end: bool) -> None:
        """The watchdog's reminder of a game without a turn timer nobody moved for long (table.watchdog);
        `can_end`: with a line saying the host may end it, and the button that does."""
        await self._ping(game, seats, text.IDLE_REMINDER, since, f"idle:{utcnow().isoformat()}", can_end=can_end)

    async def _ping(
        self, game: GameRow, seats: list[SeatRow], msgid: str, when: datetime, key: str, *, can_end: bool = False
    ) -> None:
        """Mention `seats` in the game's thread with `msgid` (which says {mentions} and {when})."""
        mentions = " ".join(f"<@{s.user_id}>" for s in seats if s.user_id is not None)
        if not mentions:
            return
        try:
            lang = await self._server_language(game)
            content = i18n.t(lang, msgid, mentions=mentions, when=relative_time(when))
            view = discord.utils.MISSING
            if can_end and game.id is not None:
                content += "\n" + i18n.t(lang, text.IDLE_HOST_MAY_END)
                view = discord.ui.View(timeout=None)
                view.add_item(EndGameButton(game.id, label=i18n.t(lang, text.BUTTON_END_GAME)))
            channel = self._public_channel(game)
            with priority(Priority.PROMPT):
                await self.threads.reopening(
                    game,
                    lambda: channel.send(
                        content,
                        view=view,
                        nonce=nonce(game.id, key, when.isoformat()),
                        allowed_mentions=discord.AllowedMentions(users=True),
                    ),
                )
        except Exception as error:  # a missed reminder is not worth a retry: the deadline still holds
            if not (transient(error) or isinstance(error, discord.HTTPException)):
                raise
            log.warning("reminder for game %s failed: %r", game.id, error)
