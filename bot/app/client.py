"""The bot object: opens the database, wires the table service to Discord, registers the buttons."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import timedelta
from typing import Any

import discord
from discord.ext import commands

from bot.app.metrics import BotMetrics, MetricsServer
from bot.app.thinking import THINKERS
from bot.app.tree import COMMANDS_DIGEST, TableTree, commands_digest
from bot.commands import handlers
from bot.commands.cogs import leaderboard
from bot.commands.cogs.game import GameCog
from bot.commands.cogs.timers import TimerCog
from bot.commands.cogs.tournament import TournamentCog
from bot.delivery.notify import DiscordNotifier
from bot.delivery.preferences import SHARED_TTL, NotificationModes
from bot.delivery.tournaments import TournamentDelivery
from bot.messages.components import DYNAMIC_ITEMS, PREFIXES
from bot.ops.settings import Settings
from bot.render.kit.pool import PICTURES
from bot.texts import i18n, text
from bot.texts.languages import Languages, of_user
from bot.texts.translator import CatalogTranslator
from bot.transport import pacing
from bot.transport.pacing import GlobalBucket
from storage import Database, Shards
from table import TableService, TableUpdate, WatchTimes
from table.tournaments.service import TournamentService

log = logging.getLogger(__name__)

READY_WAIT = 5.0  # seconds the background repair waits for the gateway's READY at most


def carries(message: discord.Message | None, custom_id: str, component_type: Any) -> bool:
    """Whether `message` has a component with this custom_id and type (what discord.py needs to route it)."""
    if message is None:
        return False
    for row in message.components:
        for component in getattr(row, "children", [row]):
            if getattr(component, "custom_id", None) == custom_id and component.type.value == component_type:
                return True
    return False


def owned_shards(settings: Settings) -> Shards | None:
    """The shards whose guilds' timers this process runs; None when it runs them all."""
    if settings.shard_ids is None or settings.shard_count is None:
        return None
    return Shards.of(settings.shard_ids, settings.shard_count)


def watch_times(settings: Settings) -> WatchTimes:
    """When the table service's watchdog steps in (WATCHDOG_GRACE_SECONDS, IDLE_REMINDER_HOURS, IDLE_END_HOURS)."""
    return WatchTimes(
        grace=timedelta(seconds=settings.watchdog_grace_seconds),
        idle=timedelta(hours=settings.idle_reminder_hours),
        end_after=timedelta(hours=settings.idle_end_hours),
    )


class CountedNotifier(DiscordNotifier):
    """The Discord notifier, counting in the bot's metrics what it is asked to show (before coalescing), and
    telling a tournament when one of its tables ended."""

    def __init__(self, bot: TableBot, table_interval: float = 0.0) -> None:
        super().__init__(bot, table_interval)
        self._tournament_steps: set[asyncio.Task[Any]] = set()  # the tasks tournaments go on in, kept till done

    async def publish(self, update: TableUpdate) -> None:
        self.bot.metrics.asked_to_show(update)
        await super().publish(update)
        if update.outcome is not None and update.game.tournament_id is not None and update.game.id is not None:
            # A tournament's table ended: its tournament goes on (the next round, or its end) at once, not at
            # the next tick; in the background, so that the ending's own messages are not held up.
            task = asyncio.get_running_loop().create_task(self.bot.tournaments.game_ended(update.game.id))
            task.set_name(f"bot-tournament-{update.game.tournament_id}")
            self._tournament_steps.add(task)
            task.add_done_callback(self._tournament_step_done)

    def _tournament_step_done(self, task: asyncio.Task[Any]) -> None:
        self._tournament_steps.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("a tournament could not go on after its game ended: %r (the timer will)", task.exception())

    def shown(self, kind: str, seconds: float) -> None:
        self.bot.metrics.notification_shown(kind, seconds)


def global_bucket(settings: Settings) -> GlobalBucket | None:
    """The bucket that keeps this process within its share of Discord's global limit (bot/transport/pacing.py);
    None when GLOBAL_RATE_LIMIT is 0."""
    if settings.global_rate_limit == 0:
        return None
    shards = len(settings.shard_ids) if settings.shard_ids is not None else None
    return GlobalBucket.for_share(
        pacing.share(shards=shards, shard_count=settings.shard_count, requests_per_second=settings.global_rate_limit)
    )


class TableBot(commands.AutoShardedBot):
    """Discord's own sharding: with no shard settings one process runs every shard (Discord's
    recommended count); with SHARD_IDS and SHARD_COUNT it runs only those (docs/deployment.md)."""

    db: Database
    table: TableService
    languages: Languages
    preferences: NotificationModes
    notifier: DiscordNotifier
    tournaments: TournamentService
    tournament_delivery: TournamentDelivery

    def __init__(self, settings: Settings) -> None:
        self.metrics = BotMetrics()
        # Interactions only: the guilds intent (guilds, channels, threads, roles: what permissions and
        # threads need) and nothing else. With the default intents Discord would send a MESSAGE_CREATE or
        # MESSAGE_UPDATE for every message in every channel the bot can see, its own table edits included,
        # and typing, reactions, voice and member-list events: parsed for nothing, on every shard.
        sharding: dict[str, Any] = {"shard_ids": settings.shard_ids, "shard_count": settings.shard_count}
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents(guilds=True),
            help_command=None,
            tree_cls=TableTree,
            http_trace=self.metrics.trace_config(),
            **sharding,
        )
        self.settings = settings
        self.handlers = handlers  # what answers the buttons' clicks (bot.messages.components.handlers_of)
        self.owned = owned_shards(settings)
        self.gateway_status = self.metrics.watch_gateway(self)
        self.global_bucket = global_bucket(settings)
        self.metrics.pace(self.http, self.global_bucket)
        self.metrics_server: MetricsServer | None = None
        self._starting_workers: asyncio.Future[None] | None = None

    @property
    def syncs_commands(self) -> bool:
        """Commands belong to the application, not to a shard: one process pushes them, the one that
        runs shard 0 (every complete split has it; it also receives the DMs). Several processes
        syncing at once would race each other on the same rate-limited endpoint, and during a
        rolling update an old process could push the old commands back."""
        return self.settings.sync_commands and (self.owned is None or self.owned.owns(None))

    async def setup_hook(self) -> None:
        # The picture and AI workers start in a thread, beside the connection: starting their forkserver
        # holds its caller for seconds, which held the gateway back. Until they are up, pictures are drawn
        # in threads and AI decisions made here, as always without workers.
        self.metrics.watch_pictures(PICTURES)
        self.metrics.watch_thinkers(THINKERS)
        self._starting_workers = asyncio.ensure_future(asyncio.to_thread(self._start_worker_pools))
        # Runs the migrations. A process that runs every shard is alone on its database, so storage may
        # keep the games' rows and seats in memory (docs/storage-api.md); one of several may not.
        self.db = await Database.open(
            self.settings.database_url,
            cache=self.owned is None,
            statement_timeout=self.settings.database_statement_timeout,
        )
        self.metrics.watch_database(self.db)
        self.metrics.time_interactions(self)
        self.languages = Languages(self.db, self._preferred_locale)
        # A process alone on its database sees every change of a player's choice: it keeps them.
        self.preferences = NotificationModes(self.db, ttl=None if self.owned is None else SHARED_TTL)
        self.notifier = CountedNotifier(self, self.settings.table_edit_interval)
        self.table = TableService(
            self.db,
            self.notifier,
            shards=self.owned,
            observer=self.metrics,
            thinker=THINKERS,
            watch=watch_times(self.settings),
        )
        self.tournament_delivery = TournamentDelivery(self)
        self.tournaments = TournamentService(self.db, self.table, self.tournament_delivery, shards=self.owned)
        await self.tree.set_translator(CatalogTranslator())
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        await self.add_cog(GameCog(self))
        await self.add_cog(TimerCog(self, self.settings.timer_interval))
        await self.add_cog(leaderboard.LeaderboardCog(self))
        await self.add_cog(TournamentCog(self))
        if self.syncs_commands:
            await self.sync_commands()
        if self.settings.metrics_port is not None:
            self.metrics_server = MetricsServer(self)
            await self.metrics_server.start(self.settings.metrics_host, self.settings.metrics_port)
        # Connect first, repair after: what a stopped process committed but never showed (only the games
        # owed something, table.resume) is shown in the background once the gateway is up, paced as all
        # requests are (bot.transport.pacing: prompts first, then tables, then the log); a click on a game not
        # repaired yet repairs it first.
        self.table.start_repair(first=self._connected)

    def _start_worker_pools(self) -> None:
        PICTURES.start(self.settings.render_workers, self.settings.render_worker_memory_mb)
        THINKERS.start(self.settings.ai_workers)  # after the picture workers: their forkserver, already warm

    async def _connected(self) -> None:
        """Until the gateway is ready (the background repair waits for it), or READY_WAIT seconds at most:
        with many guilds, READY comes only once each has been announced."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.wait_until_ready(), READY_WAIT)

    def _preferred_locale(self, guild_id: int) -> discord.Locale | None:
        guild = self.get_guild(guild_id)
        return guild.preferred_locale if guild is not None else None

    async def sync_commands(self) -> None:
        """Push the slash commands to Discord, unless the last push (its digest kept in the database) was
        of the same commands: most starts change none, and a push costs a rate-limited request and the
        reading of every catalog."""
        guild = None if self.settings.dev_guild_id is None else discord.Object(self.settings.dev_guild_id)
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        assert self.application_id is not None  # known once logged in
        digest = commands_digest(self.tree, guild, self.application_id)
        if await self.db.get_bot_state(COMMANDS_DIGEST) == digest:
            log.info("slash commands unchanged since they were last pushed: not pushed again")
            return
        await self.tree.sync(guild=guild)
        await self.db.set_bot_state(COMMANDS_DIGEST, digest)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        # discord.py hands a click to a DynamicItem only when the custom_id matches one of ours and the
        # message still carries that component; answer every other click here, or it would go unanswered.
        if interaction.type is discord.InteractionType.component:
            data: dict[str, Any] = dict(interaction.data or {})
            custom_id = str(data.get("custom_id", ""))
            if not custom_id.startswith(PREFIXES):
                await handlers.malformed(interaction)
            elif not carries(interaction.message, custom_id, data.get("component_type")):
                # The message changed between the click and its delivery (the turn moved on).
                await handlers.refuse(interaction, i18n.t(of_user(interaction), text.STALE))

    async def close(self) -> None:
        if self.metrics_server is not None:
            await self.metrics_server.stop()
            self.metrics_server = None
        table = getattr(self, "table", None)
        if table is not None and isinstance(table.notifier, DiscordNotifier):
            await table.notifier.threads.stop_archiving()
        await super().close()
        if table is not None:
            await table.close()  # stop resuming stalled games before the database goes
        db = getattr(self, "db", None)
        if db is not None:
            await db.close()
        # Workers still starting (a stop soon after the start, on a busy machine) are waited for last: the
        # database is closed cleanly first, whatever that takes. (No pool may start after the stop.)
        if self._starting_workers is not None:
            await asyncio.gather(self._starting_workers, return_exceptions=True)
        await PICTURES.stop()
        await THINKERS.stop()
