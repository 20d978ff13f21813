"""A fake Discord REST API: records every call the bot makes and answers with realistic JSON.

Both network doors of discord.py are replaced: `discord.http.HTTPClient.request` (bot REST calls) and
`discord.webhook.async_.AsyncWebhookAdapter.request` (interaction callbacks and followups). Nothing
else in discord.py is touched, so its own serialisation, command tree and view store run for real.

Attachments are kept by id, as Discord keeps them: a message's attachments each get an id; an edit
whose `attachments` list names an existing id keeps that file (nothing uploaded), an entry naming an
uploaded file's index adds it, and what the list leaves out is removed. Every uploaded file is
recorded on its call (`Call.uploads`: name, size, digest) and counted as a re-upload when the message
it went to shows the same bytes already (`Call.reuploads`: the attachment could have been kept), or
as a return when that message showed them before but not any more (`Call.returns`).

An interaction's token reaches, through the webhook routes, the message `@original` designates and
the follow-ups made with it, nothing else (404 Unknown Message otherwise); a token made to expire
(`expire_token`) is refused with Discord's 401 Invalid Webhook Token.

One module of about 700 lines: every route reads and writes the same records (channels, messages,
interactions and their tokens, attachments), which are the fake's state; split, each part would
reach into the others'.
"""

from __future__ import annotations

import hashlib
import io
import itertools
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import unquote

import discord

from fakediscord import contract
from fakediscord.openapi import Refusal

BOT_ID = 900_000_000_000_000_001
APP_ID = BOT_ID
GUILD_ID = 800_000_000_000_000_001
EPHEMERAL = 64
ALL_PERMISSIONS = str(discord.Permissions.all().value)
MEMBER_PERMISSIONS = str(
    discord.Permissions(send_messages=True, view_channel=True, use_application_commands=True).value
)


# Discord's answers to what it refuses: (HTTP status, JSON code, message), as Discord words them.
UNKNOWN_CHANNEL = (404, 10003, "Unknown Channel")
UNKNOWN_MESSAGE = (404, 10008, "Unknown Message")
MISSING_ACCESS = (403, 50001, "Missing Access")
MISSING_PERMISSIONS = (403, 50013, "Missing Permissions")
CANNOT_DM = (403, 50007, "Cannot send messages to this user")
INVALID_WEBHOOK_TOKEN = (401, 50027, "Invalid Webhook Token")
THREAD_ARCHIVED = (400, 50083, "Thread is archived")
ALREADY_ACKNOWLEDGED = (400, 40060, "Interaction has already been acknowledged.")
THREAD_ALREADY_STARTED = (400, 160004, "A thread has already been created for this message")
REASONS = {400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed"}
REASONS[429] = "Too Many Requests"
TOKEN_LIFETIME = 15 * 60.0  # seconds an interaction's token lets its webhook routes through


def refused(call: Call, status: int, body: dict[str, Any]) -> discord.HTTPException:
    """The exception discord.py raises for Discord's answer `body` with `status`; the call records both."""
    call.status = status
    call.refused = body
    kind = {403: discord.Forbidden, 404: discord.NotFound}.get(status, discord.HTTPException)
    return kind(_FakeResponse(status, REASONS.get(status, "Error")), body)


def refusal(call: Call, error: tuple[int, int, str]) -> discord.HTTPException:
    status, code, message = error
    return refused(call, status, {"code": code, "message": message})


@dataclass(frozen=True)
class Upload:
    """A file a request carried: its name, size in bytes and a digest of its bytes."""

    filename: str
    size: int
    digest: str

    @classmethod
    def of(cls, filename: str, data: bytes) -> Upload:
        return cls(filename, len(data), hashlib.blake2b(data, digest_size=12).hexdigest())


@dataclass
class Call:
    """One recorded REST call."""

    method: str
    path: str
    json: Any = None
    files: list[str] = field(default_factory=list)
    via: str = "http"  # "http" (bot token) or "webhook" (interaction callbacks / followups)
    status: int = 200
    at: float = 0.0  # when it arrived (the loopback's event-loop clock; 0 in process)
    uploads: list[Upload] = field(default_factory=list)  # the files it carried, in order
    reuploads: int = 0  # of those, files with the same bytes as a file the message it went to shows already
    returns: int = 0  # ... and files whose bytes that message showed before, but not any more (changed back)
    refused: dict[str, Any] | None = None  # Discord's JSON answer when it refused the call
    query: dict[str, Any] | None = None  # the query string's parameters

    @property
    def is_interaction_response(self) -> bool:
        return self.path.startswith("/interactions/") or self.path.startswith("/webhooks/")


class _FakeResponse:
    """Enough of aiohttp.ClientResponse for discord.HTTPException."""

    def __init__(self, status: int, reason: str) -> None:
        self.status = status
        self.reason = reason


def _path(route: discord.http.Route) -> str:
    """The request path without the API base (and without the query string)."""
    return route.url[len(discord.http.Route.BASE) :].split("?")[0]


def user_json(user_id: int, name: str, *, bot: bool = False) -> dict[str, Any]:
    return {
        "id": str(user_id),
        "username": name,
        "global_name": name,
        "discriminator": "0",
        "avatar": None,
        "bot": bot,
        "public_flags": 0,
    }


class FakeDiscord:
    """The server side: channels, messages, users; every REST call lands in `calls`."""

    def __init__(self) -> None:
        self._ids = itertools.count(1_000_000_000_000_000)
        self.calls: list[Call] = []
        self.invalid: list[tuple[str, str, list[str]]] = []  # bodies refused as over Discord's limits
        self.users: dict[int, dict[str, Any]] = {BOT_ID: user_json(BOT_ID, "Table", bot=True)}
        self.channels: dict[int, dict[str, Any]] = {}
        self.messages: dict[int, dict[int, dict[str, Any]]] = {}  # channel id -> message id -> message
        self.dm_closed: set[int] = set()
        self.denied: dict[int, int] = {}  # channel id -> the permission bits the bot lacks there (`deny`)
        self.locales: dict[int, str] = {}  # user id -> their Discord client's locale ("en-US" unless set)
        self.guild_locales: dict[int, str] = {}  # guild id -> its preferred locale ("en-US" unless set)
        self.rate_limit_next: int = 0  # answer the next N calls with 429
        self.interaction_messages: dict[str, int] = {}  # interaction token -> original response id
        self.acknowledged: set[str] = set()  # interaction tokens whose callback was taken
        self.responses: list[dict[str, Any]] = []  # interaction callbacks and followups, in order
        self.interaction_sources: dict[str, dict[str, Any]] = {}  # token -> who/where/which message
        self.ephemeral_messages: dict[int, dict[str, Any]] = {}  # message id -> message (+ "_user_id")
        self.guilds: dict[int, str] = {GUILD_ID: "Board games"}  # guild id -> name
        self.commands: list[dict[str, Any]] = []  # the application commands last synced (global or guild)
        self.followups_of: dict[str, set[int]] = {}  # interaction token -> messages it posted as follow-ups
        self.expired_tokens: set[str] = set()  # interaction tokens refused as if their 15 minutes were over
        self.clock: Callable[[], float] = time.monotonic  # Discord's clock, for the tokens' 15 minutes
        self.token_born: dict[str, float] = {}  # interaction token -> when its interaction was created
        self.digests: dict[int, set[str]] = {}  # message id -> digests of every file uploaded to it
        self.attachment_digests: dict[str, str] = {}  # attachment id -> the digest of its bytes
        self.deleted: list[int] = []  # ids of the messages deleted, in order

    def snowflake(self) -> int:
        return next(self._ids)

    def _token_dead(self, token: str) -> bool:
        """An interaction's token works for 15 minutes (TOKEN_LIFETIME), then Discord answers 50027."""
        born = self.token_born.get(token)
        return token in self.expired_tokens or (born is not None and self.clock() - born > TOKEN_LIFETIME)

    def expire_token(self, token: str) -> None:
        """From now on the webhook routes refuse this interaction's token (its 15 minutes are over)."""
        self.expired_tokens.add(token)

    # --- world building ----------------------------------------------------------------------
    def deny(self, channel_id: int, *permissions: str) -> None:
        """The bot lacks these permissions (discord.Permissions names) in a channel and its threads, as a
        server's channel overwrite makes it: Discord refuses what needs them (50001, 50013) and
        interactions there carry the rest in `app_permissions`."""
        bits = discord.Permissions(**dict.fromkeys(permissions, True)).value
        self.denied[channel_id] = self.denied.get(channel_id, 0) | bits

    def bot_permissions(self, channel_id: int) -> discord.Permissions:
        """What the bot may do in a guild channel (a thread: in its parent), after `deny`."""
        channel = self.channels.get(channel_id, {})
        parent = int(channel["parent_id"]) if channel.get("parent_id") and "thread_metadata" in channel else channel_id
        return discord.Permissions(discord.Permissions.all().value & ~self.denied.get(parent, 0))

    def add_user(self, name: str) -> int:
        user_id = self.snowflake()
        self.users[user_id] = user_json(user_id, name)
        return user_id

    def add_text_channel(self, name: str, guild_id: int = GUILD_ID) -> int:
        channel_id = self.snowflake()
        self.channels[channel_id] = {
            "id": str(channel_id),
            "type": 0,
            "guild_id": str(guild_id),
            "name": name,
            "position": len(self.channels),
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "rate_limit_per_user": 0,
            "last_message_id": None,
        }
        self.messages[channel_id] = {}
        return channel_id

    def add_guild(self, name: str) -> int:
        """A new guild; successive guilds land on successive shards ((guild_id >> 22) % shard_count)."""
        guild_id = GUILD_ID + (len(self.guilds) << 22)
        self.guilds[guild_id] = name
        return guild_id

    def guild_json(self, guild_id: int = GUILD_ID) -> dict[str, Any]:
        """The GUILD_CREATE payload of a guild: its text channels, an @everyone role, English."""
        channels = [c for c in self.channels.values() if c["type"] == 0 and int(c["guild_id"]) == guild_id]
        return {
            "id": str(guild_id),
            "name": self.guilds.get(guild_id, "Board games"),
            "icon": None,
            "owner_id": "1",
            "splash": None,
            "discovery_splash": None,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "preferred_locale": self.guild_locales.get(guild_id, "en-US"),
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "features": [],
            "emojis": [],
            "stickers": [],
            "roles": [
                {
                    "id": str(guild_id),
                    "name": "@everyone",
                    "permissions": MEMBER_PERMISSIONS,
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
            "channels": channels,
            "threads": self.active_threads(guild_id),
            "members": [],
            "voice_states": [],
            "presences": [],
            "member_count": 10,
            "large": False,
            "unavailable": False,
            "joined_at": datetime.now(UTC).isoformat(),
        }

    def active_threads(self, guild_id: int) -> list[dict[str, Any]]:
        """The guild's threads that are not archived (GUILD_CREATE and GET /guilds/{id}/threads/active)."""
        return [
            c
            for c in self.channels.values()
            if c["type"] in (11, 12) and int(c["guild_id"]) == guild_id and not c["thread_metadata"]["archived"]
        ]

    def interaction_payload(
        self,
        user_id: int,
        kind: int,
        data: dict[str, Any],
        channel_id: int,
        message: dict[str, Any] | None,
        *,
        admin: bool = False,
    ) -> tuple[dict[str, Any], str]:
        """The INTERACTION_CREATE payload of `user_id` acting in `channel_id` (on `message`), and its token."""
        interaction_id = self.snowflake()
        token = f"token-{interaction_id}"
        channel = self.channels[channel_id]
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(APP_ID),
            "type": kind,
            "token": token,
            "version": 1,
            "data": data,
            "channel_id": str(channel_id),
            "channel": channel,
            "locale": self.locales.get(user_id, "en-US"),
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(channel.get("guild_id", GUILD_ID))},
            "attachment_size_limit": 8 * 1024 * 1024,
        }
        user = self.users[user_id]
        if channel["type"] == 1:
            payload["user"] = user
            payload["context"] = 1
            payload["app_permissions"] = MEMBER_PERMISSIONS
        else:
            payload["guild_id"] = channel["guild_id"]
            payload["guild_locale"] = self.guild_locales.get(int(channel["guild_id"]), "en-US")
            payload["context"] = 0
            payload["app_permissions"] = str(self.bot_permissions(channel_id).value)
            payload["member"] = {
                "user": user,
                "roles": [],
                "joined_at": datetime.now(UTC).isoformat(),
                "deaf": False,
                "mute": False,
                "flags": 0,
                "pending": False,
                "nick": None,
                "permissions": ALL_PERMISSIONS if admin else MEMBER_PERMISSIONS,
            }
        if message is not None:
            payload["message"] = {
                k: v for k, v in message.items() if not k.startswith("_") and k != "interaction_token"
            }
        self.token_born[token] = self.clock()
        self.interaction_sources[token] = {
            "user_id": user_id,
            "channel_id": channel_id,
            "kind": kind,
            "message_id": message["id"] if message else None,
            "custom_id": data.get("custom_id"),
        }
        return payload, token

    def dm_channel_of(self, user_id: int) -> int | None:
        for channel_id, channel in self.channels.items():
            if channel["type"] == 1 and int(channel["recipients"][0]["id"]) == user_id:
                return channel_id
        return None

    # --- the two doors -----------------------------------------------------------------------
    async def http_request(
        self, route: discord.http.Route, *, files: Any = None, form: Any = None, **kwargs: Any
    ) -> Any:
        body = kwargs.get("json")
        uploads: list[Upload] = []
        if form:
            body, uploads = self._decode_form(form)
        call = Call(route.method, _path(route), body, [u.filename for u in uploads], "http", uploads=uploads)
        call.query = kwargs.get("params")
        return self._handle(call)

    async def webhook_request(
        self,
        route: discord.http.Route,
        session: Any,
        *,
        payload: Any = None,
        multipart: Any = None,
        files: Any = None,
        **kwargs: Any,
    ) -> Any:
        body = payload
        uploads: list[Upload] = []
        if multipart:
            body, uploads = self._decode_form(multipart)
        call = Call(route.method, _path(route), body, [u.filename for u in uploads], "webhook", uploads=uploads)
        call.query = kwargs.get("params")
        return self._handle(call)

    @staticmethod
    def _decode_form(form: Any) -> tuple[Any, list[Upload]]:
        body: Any = None
        uploads: list[Upload] = []
        for part in form:
            if part["name"] == "payload_json":
                body = json.loads(part["value"])
            elif "filename" in part:
                value = part["value"]
                data = value.getvalue() if isinstance(value, io.BytesIO) else bytes(value.read())
                uploads.append(Upload.of(part["filename"], data))
        return body, uploads

    # --- routing -----------------------------------------------------------------------------
    def _handle(self, call: Call) -> Any:
        self.calls.append(call)
        if self.rate_limit_next > 0:
            self.rate_limit_next -= 1
            raise refused(call, 429, {"code": 0, "message": "You are being rate limited.", "retry_after": 1})
        parts = [unquote(part) for part in call.path.strip("/").split("/")]  # "%40original": "@original"
        method = call.method
        if parts[0] == "webhooks" and len(parts) >= 3 and self._token_dead(parts[2]):
            raise refusal(call, INVALID_WEBHOOK_TOKEN)
        self._judge(call)
        match parts:
            case ["users", "@me"] if method == "GET":
                return self.users[BOT_ID]
            case ["oauth2", "applications", "@me"]:
                return self._application()
            case ["applications", _, "commands"] | ["applications", _, "guilds", _, "commands"]:
                if method == "PUT":
                    self.commands = list(call.json or [])
                return [
                    {
                        **c,
                        "id": str(self.snowflake()),
                        "application_id": str(APP_ID),
                        "version": "1",
                        "default_member_permissions": None,
                        "type": c.get("type", 1),
                    }
                    for c in (call.json or [])
                ]
            case ["users", "@me", "channels"] if method == "POST":
                return self._open_dm(int(call.json["recipient_id"]))
            case ["channels", channel_id] if method == "GET":
                return self.channels[int(channel_id)]
            case ["channels", channel_id] if method == "PATCH":
                return self._edit_channel(call, int(channel_id))
            case ["channels", channel_id, "messages", "pins", message_id] if method == "PUT":
                return self._pin(call, int(channel_id), int(message_id))
            case ["channels", channel_id, "thread-members", user_id] if method == "PUT":
                return self._add_thread_member(call, int(channel_id), int(user_id))
            case ["channels", channel_id, "messages"] if method == "POST":
                return self._post(call, int(channel_id))
            case ["channels", channel_id, "messages", message_id] if method == "PATCH":
                return self._edit(call, int(channel_id), int(message_id))
            case ["channels", channel_id, "messages", message_id] if method == "DELETE":
                return self._delete(call, self.messages.get(int(channel_id), {}).get(int(message_id)))
            case ["channels", channel_id, "threads"] if method == "POST":
                return self._thread(call, int(channel_id))
            case ["channels", channel_id, "messages", message_id, "threads"] if method == "POST":
                return self._thread(call, int(channel_id), from_message=int(message_id))
            case ["guilds", guild_id, "threads", "active"] if method == "GET":
                return {"threads": self.active_threads(int(guild_id)), "members": []}
            case ["interactions", interaction_id, token, "callback"]:
                return self._callback(call, int(interaction_id), token)
            case ["webhooks", _, token] if method == "POST":
                return self._followup(call, token)
            case ["webhooks", _, token, "messages", message_id] if method == "PATCH":
                return self._edit_original(call, token, message_id)
            case ["webhooks", _, token, "messages", message_id] if method == "DELETE":
                return self._delete(call, self._webhook_target(token, message_id))
            case ["webhooks", _, token, "messages", "@original"] if method == "GET":
                return self._original(call, token)
        raise AssertionError(f"the fake Discord does not know {method} {call.path}")

    def _judge(self, call: Call) -> None:
        """A request Discord would refuse (fakediscord.contract: Discord's API description and its documented
        limits) is refused as Discord refuses it, nothing done. Each 400 is kept in `invalid` for the tests."""
        found: Refusal | None = contract.refusal(call.method, call.path, call.query, call.json)
        if found is None:
            return
        if found.status == 400:
            self.invalid.append((call.method, call.path, found.problems()))
        raise refused(call, found.status, found.body)

    def _application(self) -> dict[str, Any]:
        return {
            "id": str(APP_ID),
            "name": "Table",
            "description": "",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": self.users[BOT_ID],
            "verify_key": "0" * 64,
            "flags": 0,
            "team": None,
        }

    def _open_dm(self, user_id: int) -> dict[str, Any]:
        existing = self.dm_channel_of(user_id)
        if existing is not None:
            return self.channels[existing]
        channel_id = self.snowflake()
        self.channels[channel_id] = {
            "id": str(channel_id),
            "type": 1,
            "last_message_id": None,
            "recipients": [self.users[user_id]],
        }
        self.messages[channel_id] = {}
        return self.channels[channel_id]

    def _message(
        self,
        channel_id: int,
        body: dict[str, Any],
        files: list[str],
        *,
        flags: int = 0,
        interaction_token: str | None = None,
        uploads: list[Upload] | None = None,
    ) -> dict[str, Any]:
        message_id = self.snowflake()
        channel = self.channels.get(channel_id, {})
        message = {
            "id": str(message_id),
            "channel_id": str(channel_id),
            "author": self.users[BOT_ID],
            "content": body.get("content") or "",
            "embeds": body.get("embeds") or [],
            "components": body.get("components") or [],
            "attachments": [],
            "timestamp": datetime.now(UTC).isoformat(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "pinned": False,
            "type": 0,
            "flags": flags | int(body.get("flags") or 0),
        }
        if "guild_id" in channel:
            message["guild_id"] = channel["guild_id"]
        new = uploads if uploads is not None else [Upload(name, 1, name) for name in files]
        message["attachments"] = [self._attach(message_id, upload) for upload in new]
        if interaction_token is not None:
            message["interaction_token"] = interaction_token  # harness bookkeeping, ignored by discord.py
        self.messages.setdefault(channel_id, {})[message_id] = message
        return message

    def _post(self, call: Call, channel_id: int) -> dict[str, Any]:
        channel = self.channels.get(channel_id)
        if channel is None:
            raise refusal(call, UNKNOWN_CHANNEL)
        self._refuse_closed_dm(call, channel)
        body = call.json or {}
        in_thread = "thread_metadata" in channel
        self._require(
            call,
            channel_id,
            "send_messages_in_threads" if in_thread else "send_messages",
            *(["embed_links"] if body.get("embeds") else []),
            *(["attach_files"] if call.uploads or call.files else []),
        )
        self._refuse_archived_thread(call, channel)
        nonce = body.get("nonce")
        if nonce is not None and body.get("enforce_nonce"):
            # Discord: a message the same author sent with this nonce lately is returned, not posted again.
            for earlier in self.messages.get(channel_id, {}).values():
                if earlier.get("nonce") == str(nonce):
                    return earlier
        message = self._message(channel_id, body, call.files, uploads=call.uploads)
        if nonce is not None:
            message["nonce"] = str(nonce)
        return message

    def _edit_channel(self, call: Call, channel_id: int) -> dict[str, Any]:
        """Modify a channel: for a thread, archive and lock it (what the bot does to a finished game's)."""
        channel = self.channels[channel_id]
        body = call.json or {}
        own = channel.get("owner_id") == str(BOT_ID)
        # Locking needs Manage Threads; archiving too, but for the thread's own creator.
        needs = ["manage_threads"] if body.get("locked") or (body.get("archived") and not own) else []
        self._require(call, channel_id, *needs)
        metadata = channel.get("thread_metadata")
        if metadata is not None:
            for key in ("archived", "locked", "auto_archive_duration"):
                if key in body:
                    metadata[key] = body[key]
        if "name" in body:
            channel["name"] = body["name"]
        return channel

    def _pin(self, call: Call, channel_id: int, message_id: int) -> None:
        self._require(call, channel_id, "pin_messages")
        message = self.messages.get(channel_id, {}).get(message_id)
        if message is None:
            raise refusal(call, UNKNOWN_MESSAGE)
        message["pinned"] = True

    def _add_thread_member(self, call: Call, channel_id: int, user_id: int) -> None:
        channel = self.channels.get(channel_id)
        if channel is None or "thread_metadata" not in channel or user_id not in self.users:
            raise refusal(call, UNKNOWN_CHANNEL)
        self._require(call, channel_id, "send_messages_in_threads")
        self._refuse_archived_thread(call, channel)
        members = channel.setdefault("_members", [])
        if user_id not in members:
            members.append(user_id)
        channel["member_count"] = 1 + len(members)

    def _require(self, call: Call, channel_id: int, *needed: str) -> None:
        """Discord's permission check of a request in a guild channel: 50001 Missing Access when the bot
        cannot see it, 50013 Missing Permissions when it lacks one of `needed`. DMs have none."""
        if self.channels.get(channel_id, {}).get("type") == 1:
            return
        allowed = self.bot_permissions(channel_id)
        if not allowed.view_channel:
            raise refusal(call, MISSING_ACCESS)
        if not all(getattr(allowed, name) for name in needed):
            raise refusal(call, MISSING_PERMISSIONS)

    def _refuse_archived_thread(self, call: Call, channel: dict[str, Any]) -> None:
        """Discord refuses new messages in an archived thread (code 50083)."""
        if (channel.get("thread_metadata") or {}).get("archived"):
            raise refusal(call, THREAD_ARCHIVED)

    def _refuse_closed_dm(self, call: Call, channel: dict[str, Any]) -> None:
        """A user who closed their DMs (or blocked the bot) can be neither sent nor edited messages."""
        if channel.get("type") == 1 and int(channel["recipients"][0]["id"]) in self.dm_closed:
            raise refusal(call, CANNOT_DM)

    def _edit(self, call: Call, channel_id: int, message_id: int) -> dict[str, Any]:
        self._refuse_closed_dm(call, self.channels.get(channel_id, {}))
        body = call.json or {}
        self._require(
            call,
            channel_id,
            *(["embed_links"] if body.get("embeds") else []),
            *(["attach_files"] if call.uploads or call.files else []),
        )
        self._refuse_archived_thread(call, self.channels.get(channel_id, {}))
        message = self.messages.get(channel_id, {}).get(message_id)
        if message is None:
            raise refusal(call, UNKNOWN_MESSAGE)
        self._apply_edit(message, call.json or {}, call)
        return message

    def _attach(self, message_id: int, upload: Upload) -> dict[str, Any]:
        """A new attachment of `message_id` holding an uploaded file."""
        attachment_id = self.snowflake()
        self.digests.setdefault(message_id, set()).add(upload.digest)
        self.attachment_digests[str(attachment_id)] = upload.digest
        name = upload.filename
        return {
            "id": str(attachment_id),
            "filename": name,
            "size": upload.size,
            "url": f"https://cdn/{attachment_id}/{name}",
            "proxy_url": f"https://cdn/{attachment_id}/{name}",
        }

    def _apply_edit(self, message: dict[str, Any], body: dict[str, Any], call: Call) -> None:
        for key in ("content", "embeds", "components"):
            if key in body:
                message[key] = body[key] if body[key] is not None else ([] if key != "content" else "")
        uploads = call.uploads or [Upload(name, 1, name) for name in call.files]
        message_id = int(message["id"])
        seen = self.digests.get(message_id, set())
        showing = {self.attachment_digests.get(str(a["id"])) for a in message["attachments"]}
        call.reuploads += sum(1 for upload in uploads if upload.digest in showing)
        call.returns += sum(1 for upload in uploads if upload.digest in seen and upload.digest not in showing)
        if "attachments" in body:
            # Discord's rule: the list is what the message keeps; an existing attachment by its id, a new
            # file by its index among the files of this request.
            existing = {str(a["id"]): a for a in message["attachments"]}
            kept: list[dict[str, Any]] = []
            for entry in body["attachments"] or []:
                if str(entry.get("id")) in existing:
                    kept.append(existing[str(entry["id"])])
                elif str(entry.get("id")).isdigit() and int(entry["id"]) < len(uploads):
                    kept.append(self._attach(message_id, uploads[int(entry["id"])]))
            message["attachments"] = kept
        elif uploads:  # files without a list are added to what the message has
            message["attachments"] = message["attachments"] + [self._attach(message_id, u) for u in uploads]
        message["edited_timestamp"] = datetime.now(UTC).isoformat()

    def _delete(self, call: Call, message: dict[str, Any] | None) -> None:
        if message is None:
            raise refusal(call, UNKNOWN_MESSAGE)
        message_id = int(message["id"])
        for messages in self.messages.values():
            messages.pop(message_id, None)
        self.ephemeral_messages.pop(message_id, None)
        self.deleted.append(message_id)
        call.status = 204
        return None

    def _webhook_target(self, token: str, message_id: str) -> dict[str, Any] | None:
        """The message an interaction's token names (`@original` or one of its follow-ups), if it may."""
        if message_id == "@original":
            return self._find_message(self.interaction_messages.get(token))
        if message_id.isdigit() and (
            int(message_id) in self.followups_of.get(token, set())
            or int(message_id) == self.interaction_messages.get(token)
        ):
            return self._find_message(int(message_id))
        return None

    def _thread(self, call: Call, parent_id: int, from_message: int | None = None) -> dict[str, Any]:
        """A new thread of `parent_id`; started `from_message`, it takes that message's id (Discord's rule),
        and a second one from the same message is refused (160004)."""
        self._require(call, parent_id, "create_public_threads")
        parent = self.channels[parent_id]
        if from_message is not None:
            if from_message not in self.messages.get(parent_id, {}):
                raise refusal(call, UNKNOWN_MESSAGE)
            if from_message in self.channels:
                raise refusal(call, THREAD_ALREADY_STARTED)
        thread_id = from_message if from_message is not None else self.snowflake()
        self.channels[thread_id] = {
            "id": str(thread_id),
            "type": (call.json or {}).get("type", 11),
            "guild_id": parent["guild_id"],
            "parent_id": str(parent_id),
            "name": (call.json or {}).get("name", "thread"),
            "owner_id": str(BOT_ID),
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "message_count": 0,
            "member_count": 1,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": 1440,
                "locked": False,
                "archive_timestamp": datetime.now(UTC).isoformat(),
            },
        }
        self.messages[thread_id] = {}
        return self.channels[thread_id]

    # --- interactions ------------------------------------------------------------------------

    def _callback(self, call: Call, interaction_id: int, token: str) -> dict[str, Any]:
        if token in self.acknowledged:  # Discord takes one callback per interaction
            raise refusal(call, ALREADY_ACKNOWLEDGED)
        self.acknowledged.add(token)
        body = call.json or {}
        kind = int(body.get("type", 0))
        data = body.get("data") or {}
        source = self.interaction_sources.get(token, {})
        record = {"token": token, "type": kind, "data": data, "user_id": source.get("user_id"), "files": call.files}
        self.responses.append(record)
        interaction = {"id": str(interaction_id), "type": source.get("kind", 2)}
        resource: dict[str, Any] = {"type": kind}
        if kind == 4:  # CHANNEL_MESSAGE_WITH_SOURCE
            channel_id = source.get("channel_id", 0)
            message = self._message(channel_id, data, call.files, interaction_token=token, uploads=call.uploads)
            if int(data.get("flags") or 0) & EPHEMERAL:
                # Ephemeral messages are not part of the channel; keep them aside for the harness.
                del self.messages[channel_id][int(message["id"])]
                self.ephemeral_messages[int(message["id"])] = {**message, "_user_id": source.get("user_id")}
            self.interaction_messages[token] = int(message["id"])
            resource["message"] = message
            interaction["response_message_id"] = message["id"]
            interaction["response_message_ephemeral"] = bool(int(data.get("flags") or 0) & EPHEMERAL)
        elif kind == 7:  # UPDATE_MESSAGE: edits the message the component was on
            edited = self._find_message(source.get("message_id"))
            if edited is not None:
                self._apply_edit(edited, data, call)
                resource["message"] = edited
                interaction["response_message_id"] = edited["id"]
                self.interaction_messages[token] = int(edited["id"])  # what @original then edits
        elif kind == 5:
            interaction["response_message_loading"] = True
            channel_id = source.get("channel_id", 0)
            message = self._message(channel_id, {"flags": data.get("flags", 0)}, [], interaction_token=token)
            if int(data.get("flags") or 0) & EPHEMERAL:
                del self.messages[channel_id][int(message["id"])]
                self.ephemeral_messages[int(message["id"])] = {**message, "_user_id": source.get("user_id")}
            self.interaction_messages[token] = int(message["id"])
        elif kind == 6 and source.get("message_id") is not None:
            self.interaction_messages[token] = int(source["message_id"])
        return {"interaction": interaction, "resource": resource}

    def _find_message(self, message_id: Any) -> dict[str, Any] | None:
        if message_id is None:
            return None
        message_id = int(message_id)
        for messages in self.messages.values():
            if message_id in messages:
                return messages[message_id]
        return self.ephemeral_messages.get(message_id)

    def _followup(self, call: Call, token: str) -> dict[str, Any]:
        source = self.interaction_sources.get(token, {})
        body = call.json or {}
        self.responses.append(
            {"token": token, "type": "followup", "data": body, "user_id": source.get("user_id"), "files": call.files}
        )
        channel_id = source.get("channel_id", 0)
        message = self._message(channel_id, body, call.files, interaction_token=token, uploads=call.uploads)
        self.followups_of.setdefault(token, set()).add(int(message["id"]))
        if int(body.get("flags") or 0) & EPHEMERAL:
            del self.messages[channel_id][int(message["id"])]
            self.ephemeral_messages[int(message["id"])] = {**message, "_user_id": source.get("user_id")}
        return message

    def _original(self, call: Call, token: str) -> dict[str, Any]:
        message = self._find_message(self.interaction_messages.get(token))
        if message is None:
            message = self.ephemeral_messages.get(self.interaction_messages.get(token, 0))
        if message is None:
            raise refusal(call, UNKNOWN_MESSAGE)
        return message

    def _edit_original(self, call: Call, token: str, message_id: str) -> dict[str, Any]:
        source = self.interaction_sources.get(token, {})
        self.responses.append(
            {
                "token": token,
                "type": "edit",
                "data": call.json or {},
                "user_id": source.get("user_id"),
                "files": call.files,
            }
        )
        message = self._webhook_target(token, message_id)
        if message is None:
            raise refusal(call, UNKNOWN_MESSAGE)
        self._apply_edit(message, call.json or {}, call)
        return message
