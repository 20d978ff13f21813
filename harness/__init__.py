"""Run the real bot and real discord.py with only the network replaced.

    h = await Harness.start(tmp_path / "bot.sqlite3")
    alice = h.user("Alice")
    await h.slash(alice, "game new", game="eggs-empires")
    await h.click(alice, h.find_button(h.channel, "Join"))
    ...
    await h.restart()      # a new bot object on the same database file
    await h.close()

Gateway events (READY, GUILD_CREATE, INTERACTION_CREATE) are fed to `bot._connection`, so discord.py's
own command tree, view store and DynamicItem matching route them; REST calls and interaction
responses are recorded by `FakeDiscord`.
"""

from __future__ import annotations

import asyncio
import logging
import random
from contextlib import ExitStack
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Self
from unittest import mock

import discord
from pydantic import SecretStr

from bot import create_bot
from bot.app.client import TableBot
from bot.ops.settings import Settings
from fakediscord.driver import OPTION_TYPES, Driver, Response, components_of
from fakediscord.fake_discord import (
    ALL_PERMISSIONS,
    APP_ID,
    BOT_ID,
    EPHEMERAL,
    GUILD_ID,
    MEMBER_PERMISSIONS,
    Call,
    FakeDiscord,
)

__all__ = [
    "ALL_PERMISSIONS",
    "EPHEMERAL",
    "GUILD_ID",
    "MEMBER_PERMISSIONS",
    "OPTION_TYPES",
    "Call",
    "FakeDiscord",
    "Harness",
    "Response",
    "components_of",
]

# Tasks discord.py starts for an interaction (and the bot's own event handlers), and the notifier's
# deletions of superseded prompts (bot.delivery.private): settle() waits for them.
TASK_PREFIXES = (
    "CommandTree-invoker",
    "discord-ui-",
    "discord.py: ",
    "bot-notify-cleanup",
    "bot-notify-picture",
    "table-repair",
    "bot-tournament-",
)


class _ErrorCatcher(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class Harness(Driver):
    def __init__(self, database: Path, seed: int = 2024, **settings: Any) -> None:
        self.database = database
        self.overrides = settings  # extra Settings fields (dev_guild_id=...)
        self.seed = seed  # game seeds come from this, so a harness run is repeatable
        self.fake = FakeDiscord()
        self.channel = self.fake.add_text_channel("general")
        self.other_channel = self.fake.add_text_channel("second")
        self.admins: set[int] = set()
        self.guilds: list[int] = [GUILD_ID]  # every guild the bot is in (GUILD_CREATE at each boot)
        self._stack = ExitStack()
        self._errors = _ErrorCatcher()
        self.bot: TableBot | None = None
        self.clock_now: datetime | None = None

    # --- lifecycle ---------------------------------------------------------------------------
    @classmethod
    async def start(cls, database: Path, seed: int = 2024, **settings: Any) -> Self:
        harness = cls(database, seed, **settings)
        fake = harness.fake

        async def http_request(client: Any, route: discord.http.Route, **kwargs: Any) -> Any:
            return await fake.http_request(route, **kwargs)

        async def webhook_request(adapter: Any, route: discord.http.Route, session: Any, **kwargs: Any) -> Any:
            return await fake.webhook_request(route, session, **kwargs)

        harness._stack.enter_context(mock.patch.object(discord.http.HTTPClient, "request", http_request))
        harness._stack.enter_context(
            mock.patch.object(discord.webhook.async_.AsyncWebhookAdapter, "request", webhook_request)
        )
        for name in ("discord", "bot", "table", "storage"):
            logging.getLogger(name).addHandler(harness._errors)
        await harness._boot()
        return harness

    def settings(self) -> Settings:
        fields: dict[str, Any] = {
            "discord_token": SecretStr("fake-token"),
            "timer_interval": 0,
            "database_url": f"sqlite+aiosqlite:///{self.database}",
            "sync_commands": True,
            "render_workers": 0,
            "ai_workers": 0,
            "table_edit_interval": 0,  # every update shown as it comes (tests/test_rate_limits.py paces it)
        }  # pictures drawn (and AI decided) in-process: the leak watch sees each
        return Settings(**{**fields, **self.overrides})

    async def _boot(self) -> None:
        bot = create_bot(self.settings())
        bot._connection.guild_ready_timeout = 0.01
        await bot.login("fake-token")
        bot.table.seeds = random.Random(self.seed)
        if self.clock_now is not None:
            bot.table.clock = lambda: self.clock_now or datetime.now(UTC)
        state = bot._connection
        state.shard_count, state.shard_ids = 1, [0]  # the bot is an AutoShardedBot: one shard here
        ready: Any = {
            "v": 10,
            "user": self.fake.users[BOT_ID],
            "session_id": "s",
            "shard": [0, 1],
            "guilds": [{"id": str(g), "unavailable": True} for g in self.guilds],
            "resume_gateway_url": "wss://fake",
            "application": {"id": str(APP_ID), "flags": 0},
            "private_channels": [],
        }
        state.parse_ready(ready)
        for guild_id in self.guilds:
            state.parse_guild_create(self.fake.guild_json(guild_id))
        self.bot = bot
        await self.settle()

    async def add_guild(self, channels: int) -> tuple[int, list[int]]:
        """The bot joins one more guild (GUILD_CREATE) with `channels` text channels: its id and theirs."""
        assert self.bot is not None
        guild_id = self.fake.add_guild(f"guild-{len(self.guilds)}")
        ids = [self.fake.add_text_channel(f"table-{i}", guild_id) for i in range(channels)]
        self.guilds.append(guild_id)
        self.bot._connection.parse_guild_create(self.fake.guild_json(guild_id))
        await self.settle()
        return guild_id, ids

    async def restart(self) -> None:
        """Drop the bot object (as a crash would) and start a new one on the same database."""
        assert self.bot is not None
        await self.bot.close()
        self.bot = None
        await self._boot()

    async def close(self) -> None:
        if self.bot is not None:
            await self.bot.close()
            self.bot = None
        await self.settle()
        for name in ("discord", "bot", "table", "storage"):
            logging.getLogger(name).removeHandler(self._errors)
        self._stack.close()

    @property
    def errors(self) -> list[str]:
        return [r.getMessage() + (f" {r.exc_info[1]!r}" if r.exc_info else "") for r in self._errors.records]

    async def settle(self) -> None:
        """Wait until every task discord.py started for the events fed so far has finished."""
        for _ in range(10_000):
            pending = [t for t in asyncio.all_tasks() if not t.done() and t.get_name().startswith(TASK_PREFIXES)]
            if not pending:
                await asyncio.sleep(0)
                if not [t for t in asyncio.all_tasks() if not t.done() and t.get_name().startswith(TASK_PREFIXES)]:
                    return
                continue
            await asyncio.wait(pending, timeout=30)
        raise AssertionError("the bot never settled")

    # --- the clock (for timers) --------------------------------------------------------------
    def set_clock(self, now: datetime) -> None:
        self.clock_now = now
        assert self.bot is not None
        self.bot.table.clock = lambda: self.clock_now or datetime.now(UTC)

    async def tick(self, now: datetime | None = None) -> int:
        if now is not None:
            self.set_clock(now)
        assert self.bot is not None
        handled = await self.bot.table.tick()
        await self.settle()
        return handled

    # --- the transport ---------------------------------------------------------------------
    async def _feed(self, payload: dict[str, Any], token: str) -> list[Response]:
        assert self.bot is not None
        self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        await self.settle()
        return [r for r in self.fake.responses if r["token"] == token]

    def _option_types(self, group: str, sub: str) -> dict[str, int]:
        assert self.bot is not None
        command = self.bot.tree.get_command(group)
        assert command is not None, f"no command {group}"
        target: Any = command.get_command(sub) if sub else command  # type: ignore[union-attr]
        assert target is not None, f"no command {group} {sub}"
        return {name: param.type.value for name, param in target._params.items()}

    async def click_together(self, clicks: list[tuple[int, str, dict[str, Any]]]) -> list[list[Response]]:
        """Several users click at the same moment: every interaction is fed before any is handled."""
        assert self.bot is not None
        tokens = []
        for user_id, custom_id, message in clicks:
            data = {"custom_id": custom_id, "component_type": 2}
            payload, token = self._payload(user_id, 3, data, int(message["channel_id"]), message)
            self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
            tokens.append(token)
        await self.settle()
        return [[r for r in self.fake.responses if r["token"] == token] for token in tokens]
