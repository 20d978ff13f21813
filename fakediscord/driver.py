"""What a test does as Discord's users, shared by the in-process Harness and the loopback server.

A driver owns a `FakeDiscord` (the world: users, channels, messages) and knows how to deliver an
INTERACTION_CREATE to the bot (`_feed`, one per transport) and which options a slash command takes
(`_option_types`). Everything else (building payloads, clicking a button the bot sent, reading
channels, DMs and ephemerals) is written once here.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from fakediscord.fake_discord import Call, FakeDiscord

Response = dict[str, Any]
OPTION_TYPES = {str: 3, int: 4, bool: 5}


def components_of(message: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for row in message.get("components") or []:
        yield from row.get("components", [])


class Driver:
    fake: FakeDiscord
    channel: int  # the default channel ("general") of the default guild
    admins: set[int]

    # --- the transport (one per subclass) ---------------------------------------------------------
    async def _feed(self, payload: dict[str, Any], token: str) -> list[Response]:
        """Deliver an INTERACTION_CREATE and return the responses it got once it is answered."""
        raise NotImplementedError

    def _option_types(self, group: str, sub: str) -> dict[str, int]:
        """The option name -> Discord option type of `/group sub` (or `/group` when sub is empty)."""
        raise NotImplementedError

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
    def _payload(
        self, user_id: int, kind: int, data: dict[str, Any], channel_id: int, message: dict[str, Any] | None
    ) -> tuple[dict[str, Any], str]:
        return self.fake.interaction_payload(user_id, kind, data, channel_id, message, admin=user_id in self.admins)

    def slash_payload(
        self, user_id: int, command: str, *, channel: int | None = None, **options: Any
    ) -> tuple[dict[str, Any], str]:
        group_name, _, sub_name = command.partition(" ")
        types = self._option_types(group_name, sub_name)
        option_list = []
        for name, value in options.items():
            assert name in types, f"/{command} has no option {name!r}"
            option_list.append({"name": name, "type": types[name], "value": value})
        inner: dict[str, Any] = {"id": str(self.fake.snowflake()), "name": group_name, "type": 1}
        if sub_name:
            inner["options"] = [{"type": 1, "name": sub_name, "options": option_list}]
        else:
            inner["options"] = option_list
        return self._payload(user_id, 2, inner, channel or self.channel, None)

    async def slash(self, user_id: int, command: str, *, channel: int | None = None, **options: Any) -> list[Response]:
        """Run a slash command ("game new") with options, as `user_id` in `channel` (default: general)."""
        payload, token = self.slash_payload(user_id, command, channel=channel, **options)
        return await self._feed(payload, token)

    def find_message(self, custom_id: str, user_id: int | None = None) -> tuple[int, dict[str, Any]]:
        """The newest message (channel, DM or the user's ephemeral) carrying this custom_id."""
        best: tuple[int, dict[str, Any]] | None = None
        for channel_id, messages in self.fake.messages.items():
            for message in messages.values():
                if any(c.get("custom_id") == custom_id for c in components_of(message)) and (
                    best is None or int(message["id"]) > int(best[1]["id"])
                ):
                    best = (channel_id, message)
        for message in self.fake.ephemeral_messages.values():
            if message.get("_user_id") != user_id and user_id is not None:
                continue
            if any(c.get("custom_id") == custom_id for c in components_of(message)) and (
                best is None or int(message["id"]) > int(best[1]["id"])
            ):
                best = (int(message["channel_id"]), message)
        if best is None:
            raise AssertionError(f"no message carries {custom_id!r}")
        return best

    def click_payload(
        self,
        user_id: int,
        custom_id: str,
        *,
        message: dict[str, Any] | None = None,
        channel: int | None = None,
        values: list[str] | None = None,
    ) -> tuple[dict[str, Any], str]:
        """A button click (or, with `values`, a select) on a message the bot sent."""
        if message is None:
            channel_id, message = self.find_message(custom_id, user_id)
        else:
            channel_id = channel or int(message["channel_id"])
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
        if values is not None:
            data = {"custom_id": custom_id, "component_type": 3, "values": values}
        return self._payload(user_id, 3, data, channel_id, message)

    async def click(
        self, user_id: int, custom_id: str, *, message: dict[str, Any] | None = None, channel: int | None = None
    ) -> list[Response]:
        """Click a button the bot sent (found by custom_id, or on the given message)."""
        payload, token = self.click_payload(user_id, custom_id, message=message, channel=channel)
        return await self._feed(payload, token)

    async def select(
        self, user_id: int, custom_id: str, values: list[str], *, message: dict[str, Any] | None = None
    ) -> list[Response]:
        payload, token = self.click_payload(user_id, custom_id, message=message, values=values)
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
        return sorted(
            (m for m in self.fake.ephemeral_messages.values() if m.get("_user_id") == user_id),
            key=lambda m: int(m["id"]),
        )

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
