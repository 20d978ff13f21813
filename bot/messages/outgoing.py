"""A message to send, or to edit in place: its words, embeds, buttons and picture (drawn when it goes)."""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.messages import alt_text
from bot.render.kit.pool import NOTIFICATION, PICTURES, PictureJob


@dataclass
class Outgoing:
    """A message to send or to edit in place."""

    content: str | None = None
    embeds: list[discord.Embed] = field(default_factory=list)
    view: discord.ui.View | None = None
    image: bytes | None = None
    # A picture still to be drawn; `render()` draws it off the event loop (bot.render.kit.pool). `pictured`
    # remembers that this message has a picture slot, so an edit with no picture clears an outdated one.
    picture: PictureJob | None = None
    pictured: bool = False
    # The digest of `image` once bot.delivery.attachments computed it, with the bytes it is of: a message's picture is
    # compared with what Discord shows and then recorded, one hash of its bytes serves both.
    image_digest: tuple[bytes, bytes] | None = field(default=None, repr=False, compare=False)
    # What the picture's description says right after what is awaited (each seat's score: alt_text.scores_line).
    alt_lead: list[str] = field(default_factory=list)

    async def render(self, *, still_wanted: Callable[[], bool] | None = None, priority: int = NOTIFICATION) -> Outgoing:
        """Draw the picture, in its turn among those waiting (bot.render.kit.pool: CLICK, PROMPT, AGAIN...).
        Raises `Superseded` if `still_wanted()` says the message is outdated before its picture is drawn."""
        if self.picture is not None:
            self._show(await PICTURES.draw(self.picture, still_wanted=still_wanted, priority=priority))
        return self

    def _show(self, image: bytes | None) -> None:
        self.picture = None
        self.pictured = True
        self.image = image
        if image is not None and self.embeds:
            self.embeds[0].set_image(url="attachment://table.png")

    def without_picture(self) -> Outgoing:
        """The same words and buttons with no picture (where the bot may not attach files): the embed's
        image slot emptied, so an edit also drops the picture an earlier send may have left."""
        self.picture, self.image, self.pictured = None, None, True
        if self.embeds:
            self.embeds[0].set_image(url=None)
        return self

    def files(self) -> list[discord.File]:
        if self.picture is not None:  # a caller that did not render first still shows the picture
            self._show(self.picture.run())
        if not self.image:
            return []
        return [discord.File(io.BytesIO(self.image), filename="table.png", description=self.alt_text())]

    def alt_text(self) -> str:
        """The picture's description for a screen reader, from the words beside it (bot.messages.alt_text)."""
        return alt_text.describe(self.embeds, self.content, self.alt_lead)

    def send_kwargs(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"embeds": self.embeds, "files": self.files()}
        if self.content:
            kwargs["content"] = self.content
        if self.view is not None:
            kwargs["view"] = self.view
        return kwargs

    def edit_kwargs(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"content": self.content, "embeds": self.embeds, "view": self.view}
        files = self.files()
        if files or self.pictured:
            kwargs["attachments"] = files
        return kwargs
