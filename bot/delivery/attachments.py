"""Upload only what changed: a message edit whose picture is unchanged keeps its attachment.

Discord keeps a message's attachments by id: an edit whose `attachments` list names an existing
attachment keeps that file, and uploads nothing. So the bot remembers, for each message it shows a
picture on (a game's table, a player's DM prompt, an answer to a click), a digest of the picture's
bytes and Discord's id of the attachment holding them (`record`, from the message Discord answered
with); an edit with the same picture names that attachment (`edit_kwargs`) instead of uploading the
bytes again. A new message needs its own upload (attachments belong to one message).

Only the messages still being edited are remembered: `forget` them when they are deleted or their
game is over.

Issue 37.3 (`python -m bench uploads`): a picture goes where a player needs a new one, and a message
that shows one keeps it otherwise (`keeps`, `kept_words`): the table's picture changes with each turn's
result (a log line) and at the end, not with each player's step, which its words say; a player's
answer to their own click keeps the picture of the prompt they answered while they wait (their next
prompt brings the new one).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import discord

from bot.messages.outgoing import Outgoing

PICTURE_NAME = "table.png"  # the name every picture is attached under (bot.messages.present)


@dataclass(frozen=True, slots=True)
class KeptAttachment:
    """An attachment a message has already, named in an edit's `attachments` list to keep it (discord.py
    sends `to_dict()` of anything in that list that is not a new file)."""

    id: int
    filename: str

    def to_dict(self) -> dict[str, Any]:
        return {"id": str(self.id), "filename": self.filename}


def digest(image: bytes) -> bytes:
    return hashlib.blake2b(image, digest_size=16).digest()


def digest_of(outgoing: Outgoing) -> bytes | None:
    """The digest of `outgoing`'s picture (None without one), hashed once per picture: an answer or an edit
    asks whether its picture is unchanged, then records it once Discord has it."""
    image = outgoing.image
    if image is None:
        return None
    known = outgoing.image_digest
    if known is None or known[0] is not image:
        known = outgoing.image_digest = (image, digest(image))
    return known[1]


# The pictures a message showed before the one it shows now that are remembered (`shown_before`): the latest
# ones. A table's message shows a new picture each turn: all of them were ~100 bytes a turn for each of the
# game's messages, for as long as the game goes on (issue 37: memory per active game).
SHOWN_BEFORE = 8


class ShownPictures:
    """The picture each message shows: (digest of its bytes, the id of Discord's attachment holding it; every
    picture is attached as PICTURE_NAME), by message id."""

    def __init__(self) -> None:
        self._shown: dict[int, tuple[bytes, int]] = {}
        # What each message showed before what it shows now: the latest SHOWN_BEFORE, oldest first.
        self._before: dict[int, tuple[bytes, ...]] = {}
        self.kept = 0  # edits that kept their attachment instead of uploading the same bytes again

    def edit_kwargs(self, outgoing: Outgoing, message_id: int | None) -> dict[str, Any]:
        """`outgoing.edit_kwargs()` for an edit of `message_id`, keeping its attachment if its picture is the same."""
        kwargs = outgoing.edit_kwargs()
        if message_id is not None and (self.unchanged(outgoing, message_id) or self.shown_before(outgoing, message_id)):
            kwargs["attachments"] = [KeptAttachment(self._shown[message_id][1], PICTURE_NAME)]
            self.kept += 1
        return kwargs

    def shown_before(self, outgoing: Outgoing, message_id: int | None) -> bool:
        """`message_id` showed `outgoing`'s picture before, and shows another now (a player went back a
        step: Eight-Minute Empire's "Pick another army"; one of the latest SHOWN_BEFORE it showed). Discord no
        longer holds it there, so it is not uploaded again: the message keeps the picture it shows (issue 37.3:
        no picture uploaded twice)."""
        if message_id is None or message_id not in self._shown or outgoing.image is None:
            return False
        return digest_of(outgoing) in self._before.get(message_id, ())

    def keep_kwargs(self, outgoing: Outgoing, message_id: int | None) -> dict[str, Any]:
        """An edit of `message_id` with `outgoing`'s words and buttons, keeping the picture it shows in its
        embed: `outgoing`'s own picture is still being drawn and follows in another edit."""
        kwargs: dict[str, Any] = {"content": outgoing.content, "embeds": outgoing.embeds, "view": outgoing.view}
        shown = self._shown.get(message_id) if message_id is not None else None
        if shown is not None and outgoing.embeds:
            outgoing.embeds[0].set_image(url=f"attachment://{PICTURE_NAME}")
            kwargs["attachments"] = [KeptAttachment(shown[1], PICTURE_NAME)]
        return kwargs

    def shows(self, message_id: int | None) -> bool:
        """`message_id` shows a picture the bot uploaded (and may keep)."""
        return message_id is not None and message_id in self._shown

    def kept_words(self, outgoing: Outgoing, message_id: int | None) -> dict[str, Any]:
        """An edit of `message_id` with `outgoing`'s words and buttons, keeping the picture it shows (that
        `shows`), `outgoing`'s own picture not drawn at all (what it would change is not needed now)."""
        words = Outgoing(content=outgoing.content, embeds=[e.copy() for e in outgoing.embeds], view=outgoing.view)
        self.kept += 1
        return self.keep_kwargs(words, message_id)

    def unchanged(self, outgoing: Outgoing, message_id: int | None) -> bool:
        """`message_id` shows `outgoing`'s picture already."""
        shown = self._shown.get(message_id) if message_id is not None else None
        return shown is not None and outgoing.image is not None and shown[0] == digest_of(outgoing)

    def record(self, message: discord.Message | None, outgoing: Outgoing) -> None:
        """Discord answered a send or an edit of `outgoing` with `message`: remember what it shows."""
        if message is None:
            return
        attachment = next((a for a in message.attachments if a.filename == PICTURE_NAME), None)
        pictured = digest_of(outgoing)
        showing = self._shown.get(message.id)
        if showing is not None and attachment is not None and attachment.id == showing[1]:
            return  # the edit kept the attachment (`edit_kwargs`): the message shows what it showed
        if pictured is None or attachment is None:
            self._shown.pop(message.id, None)
            return
        if showing is not None:
            before = tuple(d for d in self._before.get(message.id, ()) if d != showing[0])
            self._before[message.id] = (*before, showing[0])[-SHOWN_BEFORE:]
        self._shown[message.id] = (pictured, attachment.id)

    def forget(self, *message_ids: int | None) -> None:
        for message_id in message_ids:
            if message_id is not None:
                self._shown.pop(message_id, None)
                self._before.pop(message_id, None)

    def __len__(self) -> int:
        return len(self._shown)
