"""Interaction handlers shared by the views and the cogs: thin adapters over the table service.

Each one answers its interaction exactly once: with the result, or with a short ephemeral refusal
that changed nothing. Work that may take long (a busy game lock, starting a game) is deferred first
so Discord's 3-second limit holds.

Over 500 lines: every button of every message finds its handler in this one module (the bot hands it to
the buttons: bot.messages.components.handlers_of), games', replays', leaderboards' and tournaments' alike;
each handler is a few lines over the table or tournament service.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING, Any

import discord

import games
from bot.messages import endings, guide, leaderboards, present, tournaments
from bot.render.kit.generic import clip
from bot.render.kit.pool import CLICK, PICTURES, Busy
from bot.texts import i18n, text
from bot.texts import text_tournaments as tt
from bot.texts.languages import of_server, of_user
from bot.transport import answer, refusals
from bot.transport.answer import in_time
from storage import GameRow, SeatRow
from table import Decided, SeatNotice, TableError, TableService, TableUpdate, Unacknowledged
from table.tournaments.records import TournamentStatus

if TYPE_CHECKING:
    from bot.app.client import TableBot

log = logging.getLogger(__name__)

PICTURE_WAIT = 0.05  # seconds a click's answer waits for its picture before it goes without it
ANSWER_MARGIN = 0.005  # seconds an answer keeps before its deferral is due, to be on its way by then
# A decision not answered within this many seconds (its game busy, commits queued, a slow database) is
# acknowledged at once with a deferral and its answer edits it when ready, so a click never hangs in
# the player's client. At 200 games on this 2-core machine it took the first response's p99 from
# 167-270 ms to 95-136 ms (bench load, alternated) without costing CPU: few answers take that long.
DECISION_DEFER_AFTER = 0.06


def service(interaction: discord.Interaction[Any]) -> TableService:
    bot: TableBot = interaction.client
    return bot.table


def display_name(user: discord.abc.User) -> str:
    return getattr(user, "display_name", None) or user.name


async def refuse(interaction: discord.Interaction[Any], message: str) -> None:
    await answer.send(interaction, message, ephemeral=True)


async def refuse_error(interaction: discord.Interaction[Any], error: TableError) -> None:
    """A refusal from the table service, in the language of the user it answers."""
    await refuse(interaction, i18n.refusal(of_user(interaction), error))


def locale_of(interaction: discord.Interaction[Any]) -> str:
    """The user's Discord locale as stored on their seat ("it", "fr", "en-US", ...)."""
    return str(interaction.locale.value)


async def malformed(interaction: discord.Interaction[Any]) -> None:
    await refuse(interaction, i18n.t(of_user(interaction), text.MALFORMED))


async def decide(interaction: discord.Interaction[Any], game_id: int, seat: int, seq: int, choice: list[str]) -> None:
    table = service(interaction)
    if table.busy(game_id):
        # Another decision of this game is being committed and published: answer Discord now.
        await interaction.response.defer()

    lang = of_user(interaction)  # the DM (or ephemeral) being answered speaks its player's language
    async with in_time(interaction, after=DECISION_DEFER_AFTER):

        async def acknowledge(decided: Decided) -> None:
            await interaction.client.notifier.private.no_picture_to_follow(game_id, seat)
            async with ordinary_refusals_unacknowledged(interaction):
                await _acknowledge(interaction, decided, lang)
            _answered(interaction, game_id, decided.own, interaction.message.id if interaction.message else None)

        try:
            await table.decide(
                game_id, interaction.user.id, seat, seq, choice, ack=acknowledge, locale=locale_of(interaction)
            )
        except TableError as exc:
            await refuse_error(interaction, exc)


@contextlib.asynccontextmanager
async def ordinary_refusals_unacknowledged(interaction: discord.Interaction[Any]) -> AsyncIterator[None]:
    """Around the answer to a committed decision or start: Discord's ordinary refusals of it (the clicked
    message replaced meanwhile, after a restart: 10008; a dead token), or the bot stopping under it (its
    HTTP session closed), become the table's `Unacknowledged`, a warning: the player's message is refreshed
    by the notifier instead, or by the start-up that follows."""
    try:
        yield
    except discord.HTTPException as error:
        if not refusals.ordinary(error):
            raise
        raise Unacknowledged(refusals.described(error)) from error
    except RuntimeError as error:
        if not interaction.client.is_closed():
            raise
        raise Unacknowledged(repr(error)) from error  # the HTTP session closed: the bot is stopping


def _answered(interaction: discord.Interaction[Any], game_id: int, notice: SeatNotice, original: int | None) -> None:
    """The notifier learns what this answer showed the player, and keeps their interaction to reach them
    through (bot.delivery.private): the hook of the delivery side in the handlers."""
    bot: TableBot = interaction.client
    bot.notifier.private.answered(interaction, game_id, notice.seat, notice, original)


async def _acknowledge(interaction: discord.Interaction[Any], decided: Decided, lang: str) -> None:
    """Answer a committed decision with the player's fresh private view ("You chose ...").

    This runs before the turn's table, log line and other DMs are published. A picture (a map, the
    player's side of the board) is drawn by a picture worker meanwhile: when it is not ready within
    `PICTURE_WAIT`, the words and buttons answer the click without it and the picture follows in an
    edit of the same answer (one more request), so the answer never waits behind pictures being drawn.
    (The player's previous picture stays until then.)"""
    game = decided.update.game
    notice = decided.own
    labels = present.chosen_labels(game, notice, decided.prompt, decided.choice, decided.labels, decided.update, lang)
    message = present.seat_message(
        game, notice, decided.update, lang=lang, content=i18n.t(lang, text.YOU_CHOSE, labels=labels)
    )
    bot: TableBot = interaction.client
    pictures = bot.notifier.pictures  # an unchanged picture keeps its attachment (bot.delivery.attachments)
    clicked = interaction.message.id if interaction.message is not None else None
    if message.picture is None:
        pictures.record(await answer.edit(interaction, **pictures.edit_kwargs(message, clicked)), message)
        return
    if notice.prompt is None and game.status == "active" and pictures.shows(clicked):
        # Nothing more to decide for now: the picture of the prompt just answered stays, and the next prompt
        # brings a new one (issue 37.3: a picture goes where the player needs one).
        await answer.edit(interaction, **pictures.kept_words(message, clicked))
        return
    drawing = asyncio.ensure_future(message.render(priority=CLICK))
    # Not past the moment the guard would defer: a deferral, then the words in an edit, then the picture
    # in another, is one request more than the words as the answer and the picture in an edit.
    left = answer.time_left(interaction)
    wait = PICTURE_WAIT if left is None else max(0.0, min(PICTURE_WAIT, left - ANSWER_MARGIN))
    try:
        await asyncio.wait({drawing}, timeout=wait)
        if drawing.done():
            await drawing
            pictures.record(await answer.edit(interaction, **pictures.edit_kwargs(message, clicked)), message)
            return
        await answer.edit(interaction, content=message.content, embeds=message.embeds, view=message.view)
        await drawing
    finally:
        drawing.cancel()  # (done already, unless the answer failed: then nobody wants the picture)
    if pictures.unchanged(message, clicked) or pictures.shown_before(message, clicked):
        return  # the message shows that picture already (or keeps its own rather than upload one again)
    # Only what the picture changes: the words and buttons went with the answer.
    picture = pictures.edit_kwargs(message, clicked)
    shown = await answer.edit_original(interaction, embeds=picture["embeds"], attachments=picture["attachments"])
    pictures.record(shown, message)


async def show_hand(interaction: discord.Interaction[Any], game_id: int) -> None:
    table = service(interaction)
    async with in_time(interaction):
        try:
            notice = await table.private_view(game_id, interaction.user.id, locale_of(interaction))
            game, seats = await table.lobby(game_id)
        except TableError as exc:
            await refuse_error(interaction, exc)
            return
        message = await present.seat_message(game, notice, None, seats=seats, lang=of_user(interaction)).render(
            priority=CLICK
        )
        shown = await answer.send(interaction, ephemeral=True, **message.send_kwargs())
        _answered(interaction, game_id, notice, shown)


async def back(interaction: discord.Interaction[Any], game_id: int) -> None:
    table = service(interaction)
    async with in_time(interaction):
        try:
            await table.back(game_id, interaction.user.id)
            notice = await table.private_view(game_id, interaction.user.id, locale_of(interaction))
            game, seats = await table.lobby(game_id)
        except TableError as exc:
            await refuse_error(interaction, exc)
            return
        lang = of_user(interaction)
        message = await present.seat_message(
            game, notice, None, seats=seats, lang=lang, content=i18n.t(lang, text.WELCOME_BACK)
        ).render(priority=CLICK)
        clicked = interaction.message.id if interaction.message else None
        bot: TableBot = interaction.client
        pictures = bot.notifier.pictures
        pictures.record(await answer.edit(interaction, **pictures.edit_kwargs(message, clicked)), message)
        _answered(interaction, game_id, notice, clicked)


async def abandon(interaction: discord.Interaction[Any], game_id: int) -> None:
    """`/game abandon`, and End the game (the button on an idle game's reminder): for the host or someone
    with Manage Server; anybody else is told who may."""
    perms = interaction.permissions
    try:
        await service(interaction).abandon(game_id, interaction.user.id, is_admin=bool(perms and perms.manage_guild))
    except TableError as exc:
        await refuse_error(interaction, exc)
        return
    await answer.send(interaction, i18n.t(await of_server(interaction), text.ABANDONED))


# --- lobby -------------------------------------------------------------------------------------
async def _elsewhere(interaction: discord.Interaction[Any], game_id: int) -> bool:
    """A lobby control used outside the lobby's channel (a forged id from another channel or server)
    is refused: joining a lobby must not work from a server its players are not in."""
    row = await service(interaction).db.game_row(game_id)  # the channel only: no state to decode
    if row is not None and row.channel_id != interaction.channel_id:
        await malformed(interaction)
        return True
    return False


async def lobby_action(interaction: discord.Interaction[Any], game_id: int, action: str) -> None:
    async with in_time(interaction):  # each action reads and writes the database: it may stall
        await _lobby_action(interaction, game_id, action)


async def _lobby_action(interaction: discord.Interaction[Any], game_id: int, action: str) -> None:
    table = service(interaction)
    user = interaction.user
    if await _elsewhere(interaction, game_id):
        return
    lang = await of_server(interaction)  # the lobby is a channel message
    cancelled = present.closed_lobby(i18n.t(lang, text.CANCELLED))
    try:
        if action == "join":
            await table.join(game_id, user.id, display_name(user), locale_of(interaction))
        elif action == "leave":
            if await table.leave(game_id, user.id):
                await answer.edit(interaction, **cancelled.edit_kwargs())
                return
        elif action == "ai":
            await table.add_ai(game_id, user.id, name=ai_name(lang))
        elif action == "cancel":
            await table.cancel(game_id, user.id)
            await answer.edit(interaction, **cancelled.edit_kwargs())
            return
        elif action == "start":
            await start(interaction, game_id)
            return
        elif action == "variants":
            game, _seats = await table.lobby(game_id)
            if game.status != "lobby":
                await refuse(interaction, i18n.t(of_user(interaction), text.NOT_A_LOBBY))
                return
            panel = present.variants_panel(game, of_user(interaction))
            await answer.send(interaction, ephemeral=True, **panel.send_kwargs())
            return
    except TableError as exc:
        await refuse_error(interaction, exc)
        return
    game, seats = await table.lobby(game_id)
    await answer.edit(interaction, **present.lobby(game, seats, lang).edit_kwargs())


def ai_name(lang: str) -> Callable[[int, str], str]:
    """How an AI seat is named in the lobby's language: "AI 2 (expert)"."""
    return lambda n, level: i18n.t(lang, text.AI_NAME, n=n, level=text.ai_level_name(lang, level))


async def lobby_option(interaction: discord.Interaction[Any], game_id: int, option: str, value: str) -> None:
    table = service(interaction)
    async with in_time(interaction):
        if await _elsewhere(interaction, game_id):
            return
        try:
            if option == present.ADD_AI:  # the table refuses a level the game does not have
                await table.add_ai(game_id, interaction.user.id, value, name=ai_name(await of_server(interaction)))
            else:
                await table.set_option(game_id, interaction.user.id, option, value)
        except TableError as exc:
            await refuse_error(interaction, exc)
            return
        except ValueError as exc:  # a forged non-number timer value
            await refuse_error(interaction, TableError(str(exc), from_rules=True))
            return
        game, seats = await table.lobby(game_id)
        lobby = present.lobby(game, seats, await of_server(interaction))
        on_lobby = interaction.message is None or interaction.message.id == game.lobby_message_id
        if on_lobby:
            await answer.edit(interaction, **lobby.edit_kwargs())
            return
        # A select of the variants panel (an ephemeral answer): the panel shows the new value, and the
        # lobby message, which everybody sees, is edited apart.
        await answer.edit(interaction, **present.variants_panel(game, of_user(interaction)).edit_kwargs())
        if game.lobby_message_id is not None:
            partial = interaction.client.get_partial_messageable(game.channel_id)
            try:
                await partial.get_partial_message(game.lobby_message_id).edit(**lobby.edit_kwargs())
            except discord.HTTPException:
                log.warning("could not update the lobby message of game %s", game.id)


async def start(interaction: discord.Interaction[Any], game_id: int, *, from_button: bool = True) -> None:
    """Start a lobby. The host is answered as soon as the start is committed (the lobby closed, saying
    where to play); the thread, the table and the DMs are sent by the notifier afterwards, and the
    lobby then points at the thread. A start that failed is answered with its refusal only."""
    table = service(interaction)
    game, _seats = await table.lobby(game_id)
    if game.host_id != interaction.user.id:
        await refuse(interaction, i18n.t(of_user(interaction), text.HOST_ONLY))
        return
    lang = await of_server(interaction)

    async def started(update: TableUpdate) -> None:
        async with ordinary_refusals_unacknowledged(interaction):
            await _say_started(interaction, update.game, lang, from_button=from_button)

    try:
        await table.start(game_id, interaction.user.id, ack=started)
    except TableError as exc:
        await refuse_error(interaction, exc)
        return
    game, _seats = await table.lobby(game_id)
    if game.thread_id is not None:  # opened by the notifier after the answer: point at it
        await _say_started(interaction, game, lang, from_button=from_button, again=True)


async def _say_started(
    interaction: discord.Interaction[Any], game: GameRow, lang: str, *, from_button: bool, again: bool = False
) -> None:
    """The lobby closed with "The game started: <where>" (the thread once it exists, else the channel).
    From a button this is the answer itself; from `/game start` the answer says it and the lobby message
    is closed apart. `again`: the answer was given already, and is edited."""
    where = f"<#{game.thread_id or game.channel_id}>"
    closed = present.closed_lobby(i18n.t(lang, text.STARTED, where=where))
    if from_button:
        if again:
            await interaction.edit_original_response(**closed.edit_kwargs())
        else:
            await answer.edit(interaction, **closed.edit_kwargs())
        return
    if again:
        await interaction.edit_original_response(content=closed.content)
        return
    await answer.send(interaction, closed.content)
    if game.lobby_message_id is not None and interaction.channel is not None:
        partial = interaction.client.get_partial_messageable(game.channel_id)
        try:
            await partial.get_partial_message(game.lobby_message_id).edit(**closed.edit_kwargs())
        except discord.HTTPException:
            log.warning("could not close the lobby message of game %s", game.id)


# --- rules -------------------------------------------------------------------------------------
async def rules_page(interaction: discord.Interaction[Any], game_key: str, page: int) -> None:
    """A Previous/Next click on a `/game rules` answer: that page, in the reader's language."""
    import games

    if game_key not in games.keys():
        await malformed(interaction)
        return
    embed, view = guide.page_message(game_key, page, of_user(interaction))
    await answer.edit(interaction, embed=embed, view=view)


# --- the end of a game -----------------------------------------------------------------------------
def message_link(guild_id: int | None, channel_id: int, message_id: int) -> str:
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message_id}"


async def rematch(interaction: discord.Interaction[Any], game_id: int) -> None:
    """Rematch: the first player asking opens the new lobby in the game's channel (posted there, with
    the same variants, timer and AI seats); the next ones asking are seated in it."""
    table = service(interaction)
    user = interaction.user
    async with in_time(interaction):
        try:
            row, opened = await table.rematch(game_id, user.id, display_name(user), locale_of(interaction))
        except TableError as exc:
            await refuse_error(interaction, exc)
            return
        assert row.id is not None
        game, seats = await table.lobby(row.id)
        lang = await of_server(interaction)
        lobby = present.lobby(game, seats, lang)
        channel = interaction.client.get_partial_messageable(game.channel_id)
        if game.lobby_message_id is None:
            sent = await channel.send(**lobby.send_kwargs())
            await table.db.update_game(row.id, lobby_message_id=sent.id)
            game.lobby_message_id = sent.id
        else:
            try:
                await channel.get_partial_message(game.lobby_message_id).edit(**lobby.edit_kwargs())
            except discord.HTTPException:
                log.warning("could not update the rematch lobby of game %s", row.id)
        where = message_link(game.guild_id, game.channel_id, game.lobby_message_id)
        if opened:  # for the whole table: the others join with one click
            await answer.send(interaction, i18n.t(lang, text.REMATCH_OPEN, where=where))
        else:
            await answer.send(
                interaction, i18n.t(of_user(interaction), text.REMATCH_JOINED, where=where), ephemeral=True
            )


async def replay(interaction: discord.Interaction[Any], game_id: int, *, page: int = 0, turning: bool = False) -> None:
    """A finished game's turns, one page each with the picture of that moment, rebuilt from its seed and
    action log; only for a game of this server or one the user played in. `turning`: a page button of
    the replay itself (its message is edited), else a new ephemeral answer."""
    table = service(interaction)
    lang = of_user(interaction)
    async with in_time(interaction):
        found = await _visible_finished(interaction, game_id)
        if found is None:
            await refuse(interaction, i18n.t(lang, text.REPLAY_NOT_VISIBLE, game_id=game_id))
            return
        game, seats = found
        moves = [(a.seat, list(a.action)) for a in await table.db.actions(game_id)]
        pages = await asyncio.to_thread(endings.replay_pages, game, seats, moves, lang)
        embed, view, picture = endings.replay_message(game, seats, pages, page, lang)
        message = await present.Outgoing(embeds=[embed], view=view, picture=picture).render(priority=CLICK)
        if turning:
            await answer.edit(interaction, **message.edit_kwargs())
        else:
            await answer.send(interaction, ephemeral=True, **message.send_kwargs())


async def animation(interaction: discord.Interaction[Any], game_id: int) -> None:
    """The whole of a finished game as one animated picture (a replay's button), answered only to the clicker:
    drawn on request, one at a time, beside the picture workers (bot.render.kit.pool.Pictures.animate)."""
    table = service(interaction)
    lang = of_user(interaction)
    async with in_time(interaction):
        found = await _visible_finished(interaction, game_id)
        if found is None:
            await refuse(interaction, i18n.t(lang, text.REPLAY_NOT_VISIBLE, game_id=game_id))
            return
        game, seats = found
        moves = [(a.seat, list(a.action)) for a in await table.db.actions(game_id)]
        pages = await asyncio.to_thread(endings.replay_pages, game, seats, moves, lang)
        try:
            drawn = await PICTURES.animate(endings.animation_job(game, seats, pages, lang)) if pages else None
        except Busy:
            await refuse(interaction, i18n.t(lang, text.ANIMATION_BUSY))
            return
        if drawn is None:
            await refuse(interaction, i18n.t(lang, text.REPLAY_EMPTY))
            return
        said = endings.animation_text(game, seats, pages, lang)
        picture = discord.File(io.BytesIO(drawn), filename="replay.webp", description=said)
        size = i18n.t(lang, text.SIZE_MB, size=i18n.number(lang, round(len(drawn) / 1e6, 1)))
        title = games.get(game.game_key).title
        content = i18n.t(lang, text.ANIMATION_READY, title=title, game_id=game_id, size=size)
        await answer.send(interaction, content, file=picture, ephemeral=True)


async def _visible_finished(
    interaction: discord.Interaction[Any], game_id: int
) -> tuple[GameRow, list[SeatRow]] | None:
    """A finished game the user may look back on: of this server, or one they played in."""
    found = await service(interaction).db.game_and_seats(game_id)
    if found is None or found[0].status != "finished":
        return None
    game, seats = found
    here = interaction.guild_id is not None and game.guild_id == interaction.guild_id
    return (game, list(seats)) if here or any(s.user_id == interaction.user.id for s in seats) else None


async def leaderboard_page(interaction: discord.Interaction[Any], game_key: str, scope: str, page: int) -> None:
    """A leaderboard's Previous/Next: that page, for this server (or global), in the clicker's language."""
    bot: TableBot = interaction.client
    async with in_time(interaction):  # a page is read from the database: it may stall
        board = await leaderboards.board_message(
            bot.db,
            leaderboards.board_scope(interaction.guild_id, scope),
            scope,
            game_key,
            interaction.user.id,
            page,
            of_user(interaction),
        )
        await answer.edit(interaction, **board.send_kwargs())


# --- tournaments ---------------------------------------------------------------------------------------------
def _manages_server(interaction: discord.Interaction[Any]) -> bool:
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_guild)


async def tournament_action(
    interaction: discord.Interaction[Any], tournament_id: int, action: str, *, from_button: bool = True
) -> None:
    """Join, Leave, Start, Cancel (the sign-up message's buttons, or the commands) and Withdraw. The sign-up
    message shows the change (edited by the click, or updated by the delivery after a command)."""
    bot: TableBot = interaction.client
    service_ = bot.tournaments
    user = interaction.user
    lang = of_user(interaction)
    async with in_time(interaction):  # each action reads and writes the database; a start opens tables
        try:
            said: str | None = None
            if action == "join":
                await service_.join(tournament_id, user.id, display_name(user), locale_of(interaction))
                said = i18n.t(lang, tt.JOINED)
            elif action == "leave":
                await service_.leave(tournament_id, user.id)
                said = i18n.t(lang, tt.LEFT)
            elif action == "withdraw":
                await service_.withdraw(tournament_id, user.id)
                said = i18n.t(lang, tt.WITHDREW)
            elif action == "cancel":
                await service_.cancel(tournament_id, user.id, is_admin=_manages_server(interaction))
            elif action == "start":
                await service_.start(tournament_id, user.id, is_admin=_manages_server(interaction))
        except TableError as exc:
            await refuse_error(interaction, exc)
            return
        status = await service_.status(tournament_id)
        if from_button and action in ("join", "leave", "cancel", "start"):
            message = tournaments.signup(status, await of_server(interaction))
            await answer.edit(interaction, **message.edit_kwargs())
        else:
            await bot.tournament_delivery.refresh(status)
            if action in ("start", "cancel"):
                said = i18n.t(lang, tt.STARTED if action == "start" else tt.CANCELLED, where=_where(status))
            await answer.send(interaction, said or "", ephemeral=True)
        if from_button and action == "start":
            await answer.send(interaction, i18n.t(lang, tt.STARTED, where=_where(status)), ephemeral=True)


def _where(status: TournamentStatus) -> str:
    row = status.tournament
    return f"<#{row.thread_id or row.channel_id}>"


async def tournament_drop(interaction: discord.Interaction[Any], tournament_id: int, player: discord.abc.User) -> None:
    bot: TableBot = interaction.client
    async with in_time(interaction):
        try:
            await bot.tournaments.drop(
                tournament_id, player.id, interaction.user.id, is_admin=_manages_server(interaction)
            )
        except TableError as exc:
            await refuse_error(interaction, exc)
            return
        status = await bot.tournaments.status(tournament_id)
        await bot.tournament_delivery.refresh(status)
        lang = await of_server(interaction)
        await answer.send(interaction, i18n.t(lang, tt.WAS_DROPPED, name=status.name(player.id)))


async def tournament_status(interaction: discord.Interaction[Any], tournament_id: int) -> None:
    """The tournament as it stands (only the caller sees it): its sign-up message, and the current round's tables."""
    bot: TableBot = interaction.client
    lang = of_user(interaction)
    async with in_time(interaction):
        status = await bot.tournaments.status(tournament_id)
        message = tournaments.signup(status, lang)
        message.view = None  # the buttons act on the channel's message
        current = status.current
        if current is not None and status.tournament.status == "running":  # (over: the message says so)
            threads = {}
            for table in current.tables:
                if table.game_id is not None:
                    game = await bot.table.db.get_game(table.game_id)
                    threads[table.game_id] = game.thread_id if game is not None else None
            message.content = clip(tournaments.round_opened(status, current.number, threads, lang), 2000)
        await answer.send(
            interaction, ephemeral=True, allowed_mentions=discord.AllowedMentions.none(), **message.send_kwargs()
        )


async def tournament_standings(interaction: discord.Interaction[Any], tournament_id: int) -> None:
    """The standings in words and as a picture, only for the caller."""
    bot: TableBot = interaction.client
    lang = of_user(interaction)
    async with in_time(interaction):
        status = await bot.tournaments.status(tournament_id)
        heading = (
            i18n.t(lang, tt.STANDINGS_AFTER, round=status.tournament.current_round)
            if status.tournament.status != "finished"
            else None
        )
        message = await tournaments.standings(status, lang, heading=heading).render(priority=CLICK)
        await answer.send(interaction, ephemeral=True, **message.send_kwargs())
