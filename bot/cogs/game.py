"""`/game new|join|leave|start|hand|status|rules|abandon|kick`: thin adapters over the table service."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

import games
from bot import handlers, present, text
from bot.table import DEFAULT_TURN_SECONDS, TableError
from storage import GameRow

if TYPE_CHECKING:
    from bot.client import TableBot

GAME_CHOICES: list[app_commands.Choice[str]] = [app_commands.Choice(name=games.get(k).title, value=k)
                                                for k in games.keys()][:25]
TIMER_CHOICES: list[app_commands.Choice[int]] = [app_commands.Choice(name=present.timer_text(s), value=s)
                                                 for s in present.TIMER_CHOICES]


def parse_variants(raw: str | None) -> dict[str, str]:
    """`name=value name2=value2` (commas also separate) into a dict; the engine validates values."""
    found: dict[str, str] = {}
    for part in (raw or "").replace(",", " ").split():
        name, sep, value = part.partition("=")
        if not sep or not name or not value:
            raise TableError(f"Write variants as name=value, not {part!r}.")
        found[name.strip()] = value.strip()
    return found


def _id(row: GameRow) -> int:
    assert row.id is not None
    return row.id


class GameCog(commands.Cog):
    game = app_commands.Group(name="game", description="Play board games at this table")

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @property
    def table(self) -> Any:
        return self.bot.table

    async def _here(self, interaction: discord.Interaction[Any]) -> GameRow | None:
        channel_id = interaction.channel_id or 0
        row: GameRow | None = await self.table.db.channel_game(channel_id)
        if row is None:
            row = await self.table.db.thread_game(channel_id)
        return row

    async def _require_here(self, interaction: discord.Interaction[Any]) -> GameRow | None:
        row = await self._here(interaction)
        if row is None:
            await handlers.refuse(interaction, text.NO_GAME_HERE)
        return row

    @game.command(name="new", description="Open a lobby for a game in this channel")
    @app_commands.describe(game="Which game", variants="Variants as name=value (see the lobby)",
                           timer="Seconds per decision before the AI decides (0: off)")
    @app_commands.choices(game=GAME_CHOICES, timer=TIMER_CHOICES)  # type: ignore[misc]
    async def new(self, interaction: discord.Interaction[Any], game: str, variants: str | None = None,
                  timer: int = DEFAULT_TURN_SECONDS) -> None:
        try:
            row = await self.table.create_lobby(
                guild_id=interaction.guild_id, channel_id=interaction.channel_id or 0, game_key=game,
                host_id=interaction.user.id, host_name=handlers.display_name(interaction.user),
                options=parse_variants(variants), turn_seconds=timer)
        except TableError as exc:
            await handlers.refuse(interaction, str(exc))
            return
        game_row, seats = await self.table.lobby(row.id)
        callback = await interaction.response.send_message(**present.lobby(game_row, seats).send_kwargs())
        if callback.message_id is not None:
            await self.table.db.update_game(row.id, lobby_message_id=callback.message_id)

    @new.autocomplete("variants")
    async def variants_autocomplete(self, interaction: discord.Interaction[Any], current: str
                                    ) -> list[app_commands.Choice[str]]:
        key = getattr(interaction.namespace, "game", None)
        keys = [key] if key in games.keys() else games.keys()
        found: list[app_commands.Choice[str]] = []
        prefix = current.rsplit(" ", 1)[0] + " " if " " in current else ""
        for k in keys:
            for option in games.get(k).options:
                for value in option.values:
                    pair = f"{prefix}{option.name}={value}"
                    if current.strip().lower() in pair.lower():
                        found.append(app_commands.Choice(name=pair[:100], value=pair[:100]))
        return found[:25]

    async def _refresh_lobby(self, row: GameRow) -> None:
        game, seats = await self.table.lobby(row.id)
        if game.lobby_message_id is None:
            return
        message = present.lobby(game, seats) if game.status == "lobby" else present.closed_lobby(text.CANCELLED)
        partial = self.bot.get_partial_messageable(game.channel_id).get_partial_message(game.lobby_message_id)
        # If the lobby message is gone, the command's own answer still says what happened.
        with contextlib.suppress(discord.HTTPException):
            await partial.edit(**message.edit_kwargs())

    @game.command(name="join", description="Join the lobby in this channel")
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        row = await self._require_here(interaction)
        if row is None:
            return
        try:
            await self.table.join(row.id, interaction.user.id, handlers.display_name(interaction.user))
        except TableError as exc:
            await handlers.refuse(interaction, str(exc))
            return
        await interaction.response.send_message(text.JOINED, ephemeral=True)
        await self._refresh_lobby(row)

    @game.command(name="leave", description="Leave the lobby in this channel")
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        row = await self._require_here(interaction)
        if row is None:
            return
        try:
            await self.table.leave(row.id, interaction.user.id)
        except TableError as exc:
            await handlers.refuse(interaction, str(exc))
            return
        await interaction.response.send_message(text.LEFT, ephemeral=True)
        await self._refresh_lobby(row)

    @game.command(name="start", description="Start the game (host)")
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        row = await self._require_here(interaction)
        if row is None:
            return
        if row.status != "lobby":
            await handlers.refuse(interaction, text.NOT_A_LOBBY)
            return
        await handlers.start(interaction, _id(row), from_button=False)

    @game.command(name="kick", description="Remove a player from the lobby (host)")
    async def kick(self, interaction: discord.Interaction[Any], seat: app_commands.Range[int, 1, 8]) -> None:
        row = await self._require_here(interaction)
        if row is None:
            return
        try:
            name = await self.table.kick(row.id, interaction.user.id, seat - 1)
        except TableError as exc:
            await handlers.refuse(interaction, str(exc))
            return
        await interaction.response.send_message(text.KICKED.format(name=name), ephemeral=True)
        await self._refresh_lobby(row)

    @game.command(name="hand", description="Show your private view and choices (only you see it)")
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        row = await self._here(interaction)
        if row is None or row.status != "active":
            mine = [g for g in await self.table.db.user_games(interaction.user.id) if g.status == "active"]
            row = mine[0] if len(mine) == 1 else None
        if row is None:
            await handlers.refuse(interaction, text.NOT_IN_GAME)
            return
        await handlers.show_hand(interaction, _id(row))

    @game.command(name="status", description="Your lobbies and games")
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        mine = await self.table.db.user_games(interaction.user.id)
        if not mine:
            await interaction.response.send_message(text.STATUS_NONE, ephemeral=True)
            return
        lines = [text.STATUS_LINE.format(game_id=g.id, title=games.get(g.game_key).title, status=g.status,
                                         channel=g.thread_id or g.channel_id) for g in mine]
        await interaction.response.send_message("\n".join(lines), ephemeral=True)

    @game.command(name="rules", description="The rules summary and variants of a game")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction[Any], game: str) -> None:
        engine = games.get(game)
        lines = [f"**{engine.title}**: {engine.min_players}-{engine.max_players} players."]
        lines += [f"- `{o.name}` ({', '.join(map(str, o.values))}; default {o.default}): {o.description}"
                  for o in engine.options]
        await interaction.response.send_message("\n".join(lines)[:2000], ephemeral=True)

    @game.command(name="abandon", description="Abandon the lobby or game here (host or Manage Server)")
    async def abandon(self, interaction: discord.Interaction[Any]) -> None:
        row = await self._require_here(interaction)
        if row is None:
            return
        perms = interaction.permissions
        try:
            await self.table.abandon(row.id, interaction.user.id, is_admin=bool(perms and perms.manage_guild))
        except TableError as exc:
            await handlers.refuse(interaction, str(exc))
            return
        await interaction.response.send_message(text.ABANDONED)
        if row.status == "lobby":
            await self._refresh_lobby(row)


async def setup(bot: TableBot) -> None:
    await bot.add_cog(GameCog(bot))
