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
from collections.abc import Iterator
from contextlib import ExitStack
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from unittest import mock

import discord
from pydantic import SecretStr

from bot import create_bot
from bot.client import TableBot
from bot.settings import Settings
from tests.harness.fake_discord import APP_ID, BOT_ID, EPHEMERAL, GUILD_ID, Call, FakeDiscord

__all__ = ["EPHEMERAL", "GUILD_ID", "Call", "FakeDiscord", "Harness", "Response"]

# Tasks discord.py starts for an interaction (and the bot's own event handlers): settle() waits for them.
TASK_PREFIXES = ("CommandTree-invoker", "discord-ui-", "discord.py: ")
ALL_PERMISSIONS = str(discord.Permissions.all().value)
MEMBER_PERMISSIONS = str(discord.Permissions(send_messages=True, view_channel=True,
                                             use_application_commands=True).value)
OPTION_TYPES = {str: 3, int: 4, bool: 5}

Response = dict[str, Any]


class _ErrorCatcher(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def components_of(message: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for row in message.get("components") or []:
        yield from row.get("components", [])


class Harness:
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
    async def start(cls, database: Path, seed: int = 2024, **settings: Any) -> Harness:
        harness = cls(database, seed, **settings)
        fake = harness.fake

        async def http_request(client: Any, route: discord.http.Route, **kwargs: Any) -> Any:
            return await fake.http_request(route, **kwargs)

        async def webhook_request(adapter: Any, route: discord.http.Route, session: Any, **kwargs: Any) -> Any:
            return await fake.webhook_request(route, session, **kwargs)

        harness._stack.enter_context(mock.patch.object(discord.http.HTTPClient, "request", http_request))
        harness._stack.enter_context(mock.patch.object(discord.webhook.async_.AsyncWebhookAdapter, "request",
                                                       webhook_request))
        for name in ("discord", "bot"):
            logging.getLogger(name).addHandler(harness._errors)
        await harness._boot()
        return harness

    def settings(self) -> Settings:
        fields: dict[str, Any] = {"discord_token": SecretStr("fake-token"), "timer_interval": 0,
                                  "database_url": f"sqlite+aiosqlite:///{self.database}", "sync_commands": True}
        return Settings(**{**fields, **self.overrides})

    async def _boot(self) -> None:
        bot = create_bot(self.settings())
        bot._connection.guild_ready_timeout = 0.01
        await bot.login("fake-token")
        bot.table.seeds = random.Random(self.seed)
        if self.clock_now is not None:
            bot.table.clock = lambda: self.clock_now or datetime.now(UTC)
        state = bot._connection
        ready: Any = {"v": 10, "user": self.fake.users[BOT_ID], "session_id": "s",
                      "guilds": [{"id": str(g), "unavailable": True} for g in self.guilds],
                      "resume_gateway_url": "wss://fake", "application": {"id": str(APP_ID), "flags": 0},
                      "private_channels": []}
        state.parse_ready(ready)
        for guild_id in self.guilds:
            state.parse_guild_create(self._guild(guild_id))
        self.bot = bot
        await self.settle()

    def _guild(self, guild_id: int = GUILD_ID) -> dict[str, Any]:
        channels = [c for c in self.fake.channels.values() if c["type"] == 0 and c["guild_id"] == str(guild_id)]
        return {"id": str(guild_id), "name": "Board games", "icon": None, "owner_id": "1", "splash": None,
                "discovery_splash": None, "afk_channel_id": None, "afk_timeout": 300, "verification_level": 0,
                "default_message_notifications": 0, "explicit_content_filter": 0, "mfa_level": 0,
                "application_id": None, "system_channel_id": None, "system_channel_flags": 0,
                "rules_channel_id": None, "vanity_url_code": None, "description": None, "banner": None,
                "premium_tier": 0, "preferred_locale": "en-US", "public_updates_channel_id": None,
                "nsfw_level": 0, "premium_progress_bar_enabled": False, "features": [], "emojis": [],
                "stickers": [], "roles": [{"id": str(guild_id), "name": "@everyone", "permissions": MEMBER_PERMISSIONS,
                                           "position": 0, "color": 0, "hoist": False, "managed": False,
                                           "mentionable": False, "flags": 0}],
                "channels": channels, "threads": [], "members": [], "voice_states": [], "presences": [],
                "member_count": 10, "large": False, "unavailable": False,
                "joined_at": datetime.now(UTC).isoformat()}

    async def add_guild(self, channels: int) -> tuple[int, list[int]]:
        """The bot joins one more guild (GUILD_CREATE) with `channels` text channels: its id and theirs."""
        assert self.bot is not None
        guild_id = self.fake.snowflake()
        ids = [self.fake.add_text_channel(f"table-{i}", guild_id) for i in range(channels)]
        self.guilds.append(guild_id)
        self.bot._connection.parse_guild_create(self._guild(guild_id))
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
        for name in ("discord", "bot"):
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

    # --- people ------------------------------------------------------------------------------
    def user(self, name: str, *, admin: bool = False, dm_closed: bool = False) -> int:
        user_id = self.fake.add_user(name)
        if admin:
            self.admins.add(user_id)
        if dm_closed:
            self.fake.dm_closed.add(user_id)
        return user_id

    def name(self, user_id: int) -> str:
        return str(self.fake.users[user_id]["username"])

    # --- interactions ------------------------------------------------------------------------
    def _payload(self, user_id: int, kind: int, data: dict[str, Any], channel_id: int,
                 message: dict[str, Any] | None) -> tuple[dict[str, Any], str]:
        interaction_id = self.fake.snowflake()
        token = f"token-{interaction_id}"
        channel = self.fake.channels[channel_id]
        payload: dict[str, Any] = {
            "id": str(interaction_id), "application_id": str(APP_ID), "type": kind, "token": token,
            "version": 1, "data": data, "channel_id": str(channel_id), "channel": channel,
            "locale": "en-US", "entitlements": [],
            "authorizing_integration_owners": {"0": channel.get("guild_id", str(GUILD_ID))},
            "attachment_size_limit": 8 * 1024 * 1024,
        }
        user = self.fake.users[user_id]
        if channel["type"] == 1:
            payload["user"] = user
            payload["context"] = 1
            payload["app_permissions"] = MEMBER_PERMISSIONS
        else:
            payload["guild_id"] = channel["guild_id"]
            payload["guild_locale"] = "en-US"
            payload["context"] = 0
            payload["app_permissions"] = ALL_PERMISSIONS
            payload["member"] = {"user": user, "roles": [], "joined_at": datetime.now(UTC).isoformat(),
                                 "deaf": False, "mute": False, "flags": 0, "pending": False, "nick": None,
                                 "permissions": ALL_PERMISSIONS if user_id in self.admins else MEMBER_PERMISSIONS}
        if message is not None:
            payload["message"] = {k: v for k, v in message.items() if not k.startswith("_")
                                  and k != "interaction_token"}
        self.fake.interaction_sources[token] = {"user_id": user_id, "channel_id": channel_id, "kind": kind,
                                                "message_id": message["id"] if message else None}
        return payload, token

    async def _feed(self, payload: dict[str, Any], token: str) -> list[Response]:
        assert self.bot is not None
        self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        await self.settle()
        return [r for r in self.fake.responses if r["token"] == token]

    async def slash(self, user_id: int, command: str, *, channel: int | None = None, **options: Any
                    ) -> list[Response]:
        """Run a slash command ("game new") with options, as `user_id` in `channel` (default: general)."""
        assert self.bot is not None
        group_name, _, sub_name = command.partition(" ")
        group = self.bot.tree.get_command(group_name)
        assert group is not None, f"no command {group_name}"
        target: Any = group.get_command(sub_name) if sub_name else group  # type: ignore[union-attr]
        assert target is not None, f"no command {command}"
        option_list = []
        for name, value in options.items():
            param = target._params[name]
            option_list.append({"name": name, "type": param.type.value, "value": value})
        inner: dict[str, Any] = {"id": str(self.fake.snowflake()), "name": group_name, "type": 1}
        if sub_name:
            inner["options"] = [{"type": 1, "name": sub_name, "options": option_list}]
        else:
            inner["options"] = option_list
        payload, token = self._payload(user_id, 2, inner, channel or self.channel, None)
        return await self._feed(payload, token)

    def find_message(self, custom_id: str, user_id: int | None = None) -> tuple[int, dict[str, Any]]:
        """The newest message (channel, DM or the user's ephemeral) carrying this custom_id."""
        best: tuple[int, dict[str, Any]] | None = None
        for channel_id, messages in self.fake.messages.items():
            for message in messages.values():
                if any(c.get("custom_id") == custom_id for c in components_of(message)) and (
                        best is None or int(message["id"]) > int(best[1]["id"])):
                    best = (channel_id, message)
        for message in self.fake.ephemeral_messages.values():
            if message.get("_user_id") != user_id and user_id is not None:
                continue
            if any(c.get("custom_id") == custom_id for c in components_of(message)) and (
                    best is None or int(message["id"]) > int(best[1]["id"])):
                best = (int(message["channel_id"]), message)
        if best is None:
            raise AssertionError(f"no message carries {custom_id!r}")
        return best

    async def click(self, user_id: int, custom_id: str, *, message: dict[str, Any] | None = None,
                    channel: int | None = None) -> list[Response]:
        """Click a button the bot sent (found by custom_id, or on the given message)."""
        if message is None:
            channel_id, message = self.find_message(custom_id, user_id)
        else:
            channel_id = channel or int(message["channel_id"])
        data = {"custom_id": custom_id, "component_type": 2}
        payload, token = self._payload(user_id, 3, data, channel_id, message)
        return await self._feed(payload, token)

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

    async def select(self, user_id: int, custom_id: str, values: list[str], *,
                     message: dict[str, Any] | None = None) -> list[Response]:
        if message is None:
            channel_id, message = self.find_message(custom_id, user_id)
        else:
            channel_id = int(message["channel_id"])
        data = {"custom_id": custom_id, "component_type": 3, "values": values}
        payload, token = self._payload(user_id, 3, data, channel_id, message)
        return await self._feed(payload, token)

    # --- what people see ---------------------------------------------------------------------
    def messages_in(self, channel_id: int) -> list[dict[str, Any]]:
        return sorted(self.fake.messages.get(channel_id, {}).values(), key=lambda m: int(m["id"]))

    def dm_channel(self, user_id: int) -> int | None:
        return self.fake.dm_channel_of(user_id)

    def dms(self, user_id: int) -> list[dict[str, Any]]:
        channel = self.dm_channel(user_id)
        return self.messages_in(channel) if channel is not None else []

    def ephemerals(self, user_id: int) -> list[dict[str, Any]]:
        return sorted((m for m in self.fake.ephemeral_messages.values() if m.get("_user_id") == user_id),
                      key=lambda m: int(m["id"]))

    def threads(self) -> list[int]:
        return [cid for cid, c in self.fake.channels.items() if c["type"] in (11, 12)]

    @staticmethod
    def components(message: dict[str, Any]) -> list[dict[str, Any]]:
        return list(components_of(message))

    def last_components(self, channel_id: int) -> list[dict[str, Any]]:
        messages = [m for m in self.messages_in(channel_id) if m.get("components")]
        return self.components(messages[-1]) if messages else []

    def find_button(self, channel_id: int, label: str) -> str:
        for message in reversed(self.messages_in(channel_id)):
            for component in components_of(message):
                if component.get("label") == label and component.get("custom_id"):
                    return str(component["custom_id"])
        raise AssertionError(f"no button {label!r} in channel {channel_id}")

    def calls_since(self, mark: int) -> list[Call]:
        return self.fake.calls[mark:]
