"""`/tournament new|join|leave|start|status|standings|withdraw|drop|cancel`: thin adapters over the tournament
service (table.tournaments.service), as /game is over the table service.

A command acts on "the tournament here": in a tournament's thread, that one; in a channel, its one tournament
in sign-up or running, else the one its `tournament` option names. The sign-up message (bot.messages.
tournaments) carries Join, Leave, Start and Cancel, so most people never type more than /tournament new.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.commands import handlers
from bot.commands.cogs.game import GAME_CHOICES, TIMER_CHOICES, GameNumber, parse_variants
from bot.messages import tournaments as shown
from bot.texts import i18n
from bot.texts import text_tournaments as tt
from bot.texts.languages import of_server, of_user
from bot.transport import answer
from storage import TournamentRow
from storage.types import utcnow
from table import DEFAULT_TURN_SECONDS, TableError
from table.tournaments.records import TournamentOptions

if TYPE_CHECKING:
    from bot.app.client import TableBot

FORMAT_CHOICES = [app_commands.Choice(name=app_commands.locale_str(n), value=k) for k, n in tt.FORMATS.items()]
NO_SHOW_CHOICES = [app_commands.Choice(name=app_commands.locale_str(n), value=k) for k, n in tt.NO_SHOW_RULES.items()]
DEADLINE_CHOICES = [app_commands.Choice(name=app_commands.locale_str(n), value=k) for k, n in tt.DEADLINE_RULES.items()]


class TournamentCog(commands.Cog):
    tournament = app_commands.Group(name=tt.CMD, description=tt.CMD_HELP, guild_only=True)

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    async def _here(self, interaction: discord.Interaction[Any], number: int | None) -> TournamentRow | None:
        """The tournament a command means (see the module's docstring); None after telling the user why not."""
        db = self.bot.db
        lang = of_user(interaction)
        if number is not None:
            row = await db.tournament(number)
            if row is None or row.guild_id != interaction.guild_id:
                await handlers.refuse(interaction, i18n.t(lang, tt.NONE_HERE))
                return None
            return row
        in_thread = await db.thread_tournament(interaction.channel_id or 0)
        if in_thread is not None:
            return in_thread
        found = await db.tournaments(channel_id=interaction.channel_id or 0)
        if len(found) == 1:
            return found[0]
        await handlers.refuse(interaction, i18n.t(lang, tt.SEVERAL_HERE if found else tt.NONE_HERE))
        return None

    @tournament.command(name=tt.CMD_NEW, description=tt.CMD_NEW_HELP, extras={answer.PUBLIC: True})
    @app_commands.rename(
        game=tt.OPT_GAME,
        format=tt.OPT_FORMAT,
        players=tt.OPT_TABLE,
        rounds=tt.OPT_ROUNDS,
        variants=tt.OPT_VARIANTS,
        timer=tt.OPT_TIMER,
        no_show=tt.OPT_NO_SHOW,
        drop_after=tt.OPT_DROP_AFTER,
        round_hours=tt.OPT_ROUND_HOURS,
        deadline=tt.OPT_DEADLINE,
        cap=tt.OPT_CAP,
        starts_in=tt.OPT_STARTS_IN,
    )
    @app_commands.describe(
        game=tt.OPT_GAME_HELP,
        format=tt.OPT_FORMAT_HELP,
        players=tt.OPT_TABLE_HELP,
        rounds=tt.OPT_ROUNDS_HELP,
        variants=tt.OPT_VARIANTS_HELP,
        timer=tt.OPT_TIMER_HELP,
        no_show=tt.OPT_NO_SHOW_HELP,
        drop_after=tt.OPT_DROP_AFTER_HELP,
        round_hours=tt.OPT_ROUND_HOURS_HELP,
        deadline=tt.OPT_DEADLINE_HELP,
        cap=tt.OPT_CAP_HELP,
        starts_in=tt.OPT_STARTS_IN_HELP,
    )
    @app_commands.choices(game=GAME_CHOICES, format=FORMAT_CHOICES, no_show=NO_SHOW_CHOICES, deadline=DEADLINE_CHOICES)
    @app_commands.choices(timer=TIMER_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        format: str,
        players: app_commands.Range[int, 2, 8] | None = None,
        rounds: app_commands.Range[int, 1, 20] | None = None,
        variants: str | None = None,
        timer: int = DEFAULT_TURN_SECONDS,
        no_show: str = "ai",
        drop_after: app_commands.Range[int, 1, 10] = 2,
        round_hours: app_commands.Range[int, 0, 336] = 0,
        deadline: str = "finish-with-ai",
        cap: app_commands.Range[int, 2, 1024] | None = None,
        starts_in: app_commands.Range[int, 1, 10080] | None = None,
    ) -> None:
        lang = await of_server(interaction)  # the sign-up message is the channel's
        try:
            from games import get

            options = TournamentOptions(
                variants=parse_variants(variants),
                turn_seconds=timer or None,
                table_size=players or max(2, get(game).min_players),
                rounds=rounds,
                no_show=no_show,
                drop_after=drop_after,
                round_seconds=round_hours * 3600 or None,
                deadline_rule=deadline,
            )
            row = await self.bot.tournaments.create(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id or 0,
                host_id=interaction.user.id,
                game_key=game,
                format=format,
                options=options,
                max_entrants=cap,
                starts_at=utcnow() + timedelta(minutes=starts_in) if starts_in else None,
            )
        except TableError as exc:
            await handlers.refuse_error(interaction, exc)
            return
        assert row.id is not None
        status = await self.bot.tournaments.status(row.id)
        message_id = await answer.send(interaction, **shown.signup(status, lang).send_kwargs())
        if message_id is not None:
            await self.bot.tournaments.attach(row.id, message_id=message_id)

    @tournament.command(name=tt.CMD_JOIN, description=tt.CMD_JOIN_HELP)
    @app_commands.rename(number=tt.OPT_TOURNAMENT)
    @app_commands.describe(number=tt.OPT_TOURNAMENT_HELP)
    async def join(self, interaction: discord.Interaction[Any], number: GameNumber | None = None) -> None:
        await self._action(interaction, number, "join")

    @tournament.command(name=tt.CMD_LEAVE, description=tt.CMD_LEAVE_HELP)
    @app_commands.rename(number=tt.OPT_TOURNAMENT)
    @app_commands.describe(number=tt.OPT_TOURNAMENT_HELP)
    async def leave(self, interaction: discord.Interaction[Any], number: GameNumber | None = None) -> None:
        await self._action(interaction, number, "leave")

    @tournament.command(name=tt.CMD_START, description=tt.CMD_START_HELP)
    @app_commands.rename(number=tt.OPT_TOURNAMENT)
    @app_commands.describe(number=tt.OPT_TOURNAMENT_HELP)
    async def start(self, interaction: discord.Interaction[Any], number: GameNumber | None = None) -> None:
        await self._action(interaction, number, "start")

    @tournament.command(name=tt.CMD_CANCEL, description=tt.CMD_CANCEL_HELP)
    @app_commands.rename(number=tt.OPT_TOURNAMENT)
    @app_commands.describe(number=tt.OPT_TOURNAMENT_HELP)
    async def cancel(self, interaction: discord.Interaction[Any], number: GameNumber | None = None) -> None:
        await self._action(interaction, number, "cancel")

    @tournament.command(name=tt.CMD_WITHDRAW, description=tt.CMD_WITHDRAW_HELP)
    @app_commands.rename(number=tt.OPT_TOURNAMENT)
    @app_commands.describe(number=tt.OPT_TOURNAMENT_HELP)
    async def withdraw(self, interaction: discord.Interaction[Any], number: GameNumber | None = None) -> None:
        await self._action(interaction, number, "withdraw")

    @tournament.command(name=tt.CMD_DROP, description=tt.CMD_DROP_HELP)
    @app_commands.rename(player=tt.OPT_PLAYER, number=tt.OPT_TOURNAMENT)
    @app_commands.describe(player=tt.OPT_PLAYER_HELP, number=tt.OPT_TOURNAMENT_HELP)
    async def drop(
        self, interaction: discord.Interaction[Any], player: discord.User, number: GameNumber | None = None
    ) -> None:
        row = await self._here(interaction, number)
        if row is not None and row.id is not None:
            await handlers.tournament_drop(interaction, row.id, player)

    @tournament.command(name=tt.CMD_STATUS, description=tt.CMD_STATUS_HELP)
    @app_commands.rename(number=tt.OPT_TOURNAMENT)
    @app_commands.describe(number=tt.OPT_TOURNAMENT_HELP)
    async def status(self, interaction: discord.Interaction[Any], number: GameNumber | None = None) -> None:
        row = await self._here(interaction, number)
        if row is not None and row.id is not None:
            await handlers.tournament_status(interaction, row.id)

    @tournament.command(name=tt.CMD_STANDINGS, description=tt.CMD_STANDINGS_HELP)
    @app_commands.rename(number=tt.OPT_TOURNAMENT)
    @app_commands.describe(number=tt.OPT_TOURNAMENT_HELP)
    async def standings(self, interaction: discord.Interaction[Any], number: GameNumber | None = None) -> None:
        row = await self._here(interaction, number)
        if row is not None and row.id is not None:
            await handlers.tournament_standings(interaction, row.id)

    async def _action(self, interaction: discord.Interaction[Any], number: int | None, action: str) -> None:
        row = await self._here(interaction, number)
        if row is not None and row.id is not None:
            await handlers.tournament_action(interaction, row.id, action, from_button=False)
