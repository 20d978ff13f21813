"""Interaction handlers shared by the views and the cogs: thin adapters over the table service.

Each one answers its interaction exactly once: with the result, or with a short ephemeral refusal
that changed nothing. Work that may take long (a busy game lock, starting a game) is deferred first
so Discord's 3-second limit holds.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot import present, text
from bot.table import Decided, TableError, TableService

if TYPE_CHECKING:
    from bot.client import TableBot

log = logging.getLogger(__name__)


def service(interaction: discord.Interaction[Any]) -> TableService:
    bot: TableBot = interaction.client
    return bot.table


def display_name(user: discord.abc.User) -> str:
    return getattr(user, "display_name", None) or user.name


async def refuse(interaction: discord.Interaction[Any], message: str) -> None:
    if interaction.response.is_done():
        await interaction.followup.send(message, ephemeral=True)
    else:
        await interaction.response.send_message(message, ephemeral=True)


async def malformed(interaction: discord.Interaction[Any]) -> None:
    await refuse(interaction, text.MALFORMED)


async def decide(interaction: discord.Interaction[Any], game_id: int, seat: int, seq: int,
                 choice: list[str]) -> None:
    table = service(interaction)
    if table.busy(game_id):
        # Another decision of this game is being committed and published: answer Discord now.
        await interaction.response.defer()

    async def acknowledge(decided: Decided) -> None:
        game = decided.update.game
        notice = decided.own
        message = present.seat_message(game, notice, decided.update,
                                       content=text.YOU_CHOSE.format(labels=", ".join(decided.labels)))
        if interaction.response.is_done():
            await interaction.edit_original_response(**message.edit_kwargs())
        else:
            await interaction.response.edit_message(**message.edit_kwargs())

    try:
        await table.decide(game_id, interaction.user.id, seat, seq, choice, ack=acknowledge)
    except TableError as exc:
        await refuse(interaction, str(exc))


async def show_hand(interaction: discord.Interaction[Any], game_id: int) -> None:
    table = service(interaction)
    try:
        notice = await table.private_view(game_id, interaction.user.id)
        game, seats = await table.lobby(game_id)
    except TableError as exc:
        await refuse(interaction, str(exc))
        return
    message = present.seat_message(game, notice, None, seats=seats)
    kwargs = message.send_kwargs()
    kwargs.pop("files", None)
    await interaction.response.send_message(ephemeral=True, **kwargs)


async def back(interaction: discord.Interaction[Any], game_id: int) -> None:
    table = service(interaction)
    try:
        await table.back(game_id, interaction.user.id)
        notice = await table.private_view(game_id, interaction.user.id)
        game, seats = await table.lobby(game_id)
    except TableError as exc:
        await refuse(interaction, str(exc))
        return
    message = present.seat_message(game, notice, None, seats=seats, content=text.WELCOME_BACK)
    await interaction.response.edit_message(**message.edit_kwargs())


# --- lobby -------------------------------------------------------------------------------------
async def lobby_action(interaction: discord.Interaction[Any], game_id: int, action: str) -> None:
    table = service(interaction)
    user = interaction.user
    try:
        if action == "join":
            await table.join(game_id, user.id, display_name(user))
        elif action == "leave":
            if await table.leave(game_id, user.id):
                await interaction.response.edit_message(**present.closed_lobby(text.CANCELLED).edit_kwargs())
                return
        elif action == "ai":
            await table.add_ai(game_id, user.id)
        elif action == "cancel":
            await table.cancel(game_id, user.id)
            await interaction.response.edit_message(**present.closed_lobby(text.CANCELLED).edit_kwargs())
            return
        elif action == "start":
            await start(interaction, game_id)
            return
    except TableError as exc:
        await refuse(interaction, str(exc))
        return
    game, seats = await table.lobby(game_id)
    await interaction.response.edit_message(**present.lobby(game, seats).edit_kwargs())


async def lobby_option(interaction: discord.Interaction[Any], game_id: int, option: str, value: str) -> None:
    table = service(interaction)
    try:
        await table.set_option(game_id, interaction.user.id, option, value)
    except (TableError, ValueError) as exc:
        await refuse(interaction, str(exc))
        return
    game, seats = await table.lobby(game_id)
    await interaction.response.edit_message(**present.lobby(game, seats).edit_kwargs())


async def start(interaction: discord.Interaction[Any], game_id: int, *, from_button: bool = True) -> None:
    """Start a lobby. The thread, the table message and the DMs are sent by the notifier afterwards."""
    table = service(interaction)
    game, _seats = await table.lobby(game_id)
    if game.host_id != interaction.user.id:
        await refuse(interaction, text.HOST_ONLY)
        return
    # Starting sends a thread, a table and one DM per player: answer Discord first.
    if from_button:
        await interaction.response.defer()
    else:
        await interaction.response.defer(thinking=True)
    try:
        await table.start(game_id, interaction.user.id)
    except TableError as exc:
        await refuse(interaction, str(exc))
        return
    game, _seats = await table.lobby(game_id)
    where = f"<#{game.thread_id or game.channel_id}>"
    closed = present.closed_lobby(text.STARTED.format(where=where))
    if from_button:
        await interaction.edit_original_response(**closed.edit_kwargs())
    else:
        await interaction.edit_original_response(content=closed.content)
        if game.lobby_message_id is not None and interaction.channel is not None:
            partial = interaction.client.get_partial_messageable(game.channel_id)
            try:
                await partial.get_partial_message(game.lobby_message_id).edit(**closed.edit_kwargs())
            except discord.HTTPException:
                log.warning("could not close the lobby message of game %s", game_id)
