"""Keep the PNG bytes the bot uploads, so a test can look at the pictures and not only at file names.

    pictures = Pictures(h.fake)
    ...
    pictures.of(message)   # the PNGs the message shows now ([] if none)
    pictures.uploads       # every call that carried files, with their bytes, in order

The fake Discord keeps attachments by id (and a digest of their bytes); this wraps its form decoding
and its call handler on the instance (nothing in the fake's class changes), keeps the bytes of every
attachment, and stores those a message shows on it, under a key the harness never sends back to
discord.py ("_png"). An edit that keeps an attachment keeps its picture.
"""

from __future__ import annotations

from typing import Any

from fakediscord.fake_discord import Call, FakeDiscord, Upload

KEY = "_png"


def _read(value: Any) -> bytes:
    if isinstance(value, bytes):
        return value
    if hasattr(value, "getvalue"):
        return bytes(value.getvalue())
    value.seek(0)
    return bytes(value.read())


def _message_of(result: Any) -> dict[str, Any] | None:
    if not isinstance(result, dict):
        return None
    if "channel_id" in result and "id" in result:
        return result
    message = (result.get("resource") or {}).get("message")
    return message if isinstance(message, dict) else None


def _edits_attachments(call: Call) -> bool:
    body = call.json or {}
    data = body.get("data") if call.path.startswith("/interactions/") else body
    return isinstance(data, dict) and "attachments" in data


class Pictures:
    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.uploads: list[tuple[Call, list[bytes]]] = []
        self._pending: list[bytes] = []
        self._bytes: dict[str, bytes] = {}  # attachment id -> the bytes it holds
        decode, handle = fake._decode_form, fake._handle

        def decode_form(form: Any) -> tuple[Any, list[Upload]]:
            self._pending = [_read(part["value"]) for part in form if "filename" in part]
            return decode(form)

        def handle_call(call: Call) -> Any:
            pictures, self._pending = self._pending, []
            result = handle(call)  # decoding and handling run back to back, with no await between
            message = _message_of(result)
            if pictures:
                self.uploads.append((call, pictures))
            if message is not None and (pictures or _edits_attachments(call) or call.method == "POST"):
                # The attachments added by this call hold its files, in order; the others were kept.
                added = [a for a in message["attachments"] if str(a["id"]) not in self._bytes]
                for attachment, data in zip(added, pictures, strict=False):
                    self._bytes[str(attachment["id"])] = data
                self._store(
                    message, [self._bytes[str(a["id"])] for a in message["attachments"] if str(a["id"]) in self._bytes]
                )
            return result

        fake._decode_form = decode_form  # type: ignore[method-assign]
        fake._handle = handle_call  # type: ignore[method-assign]

    def _store(self, message: dict[str, Any], pictures: list[bytes]) -> None:
        message[KEY] = pictures
        ephemeral = self.fake.ephemeral_messages.get(int(message["id"]))
        if ephemeral is not None:  # the fake keeps a copy of ephemeral messages aside
            ephemeral[KEY] = pictures

    @staticmethod
    def of(message: dict[str, Any]) -> list[bytes]:
        return list(message.get(KEY) or [])
