"""Buttons and selects as DynamicItems: their custom_ids carry ids only, so they work after a restart.

Formats (all well under Discord's 100 characters):
    g:GAME:SEAT:SEQ:CHOICE   a choice button        gs:GAME:SEAT:SEQ   a choice select
    lb:GAME:ACTION           a lobby button         lo:GAME:OPTION     a lobby variant select
    hand:GAME                "Show my hand"         back:GAME          "I'm back"
    rules:GAME_KEY:PAGE      a rules page button
    rematch:GAME             "Rematch"              replay:GAME        "Replay" (its first page)
    rpp:GAME:PAGE            a replay page button    lbd:GAME_KEY:SCOPE:PAGE   a leaderboard page
The templates accept anything after the prefix (newlines too) so that a malformed id still reaches a
callback, which answers it; identity always comes from the interaction's user, never from the custom_id.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

import discord

import games
from bot.texts import text

CUSTOM_ID_LIMIT = 100


MAX_ID = 2**63 - 1  # ids are SQL BIGINTs (and Discord snowflakes): a bigger number is a forgery


def handlers_of(interaction: discord.Interaction[Any]) -> Any:
    """What answers a click: the handlers the bot was made with (`TableBot.handlers`: bot.commands.handlers). A
    button only names its handler; asking the bot for them keeps this module below the handlers, which
    build the messages that carry these buttons."""
    return interaction.client.handlers


def _parse_ints(raw: str, count: int) -> list[int] | None:
    # ASCII digits only: \d would also accept other scripts' digits, which int() reads as numbers.
    parts = raw.split(":")
    if len(parts) != count or not all(re.fullmatch(r"[0-9]{1,19}", p) for p in parts):
        return None
    values = [int(p) for p in parts]
    return values if all(v <= MAX_ID for v in values) else None


class ChoiceButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?s)g:(?P<rest>.*)"):
    def __init__(
        self,
        game_id: int,
        seat: int,
        seq: int,
        choice: str,
        *,
        label: str = "?",
        row: int | None = None,
        raw: str | None = None,
    ) -> None:
        custom_id = f"g:{raw}" if raw is not None else f"g:{game_id}:{seat}:{seq}:{choice}"
        super().__init__(
            discord.ui.Button(label=label, custom_id=custom_id[:CUSTOM_ID_LIMIT], style=discord.ButtonStyle.primary),
            row=row,
        )
        self.raw = raw if raw is not None else custom_id[2:]

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ChoiceButton:
        return cls(0, 0, 0, "", raw=match["rest"], label=getattr(item, "label", None) or "?")

    def parsed(self) -> tuple[int, int, int, str] | None:
        # Choice ids may themselves contain ":" ("pile:red"): the three ids come first.
        parts = self.raw.split(":", 3)
        if len(parts) != 4 or not parts[3]:
            return None
        ints = _parse_ints(":".join(parts[:3]), 3)
        if ints is None:
            return None
        return ints[0], ints[1], ints[2], parts[3]

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        handlers = handlers_of(interaction)

        parsed = self.parsed()
        if parsed is None:
            await handlers.malformed(interaction)
            return
        game_id, seat, seq, choice = parsed
        await handlers.decide(interaction, game_id, seat, seq, [choice])


class ChoiceSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"(?s)gs:(?P<rest>.*)"):
    def __init__(
        self,
        game_id: int,
        seat: int,
        seq: int,
        options: list[discord.SelectOption],
        pick: int,
        *,
        placeholder: str | None = None,
        raw: str | None = None,
    ) -> None:
        custom_id = f"gs:{raw}" if raw is not None else f"gs:{game_id}:{seat}:{seq}"
        count = max(1, min(pick, len(options) or 1))
        super().__init__(
            discord.ui.Select(
                custom_id=custom_id[:CUSTOM_ID_LIMIT],
                options=options or [discord.SelectOption(label="-", value="-")],
                min_values=count,
                max_values=count,
                placeholder=placeholder,
            )
        )
        self.raw = raw if raw is not None else custom_id[3:]

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ChoiceSelect:
        return cls(0, 0, 0, list(getattr(item, "options", [])), getattr(item, "min_values", 1), raw=match["rest"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        handlers = handlers_of(interaction)

        ints = _parse_ints(self.raw, 3)
        if ints is None:
            await handlers.malformed(interaction)
            return
        await handlers.decide(interaction, ints[0], ints[1], ints[2], list(self.item.values))


class _IdActionButton:
    """A button whose custom_id is PREFIX:ID:ACTION (a lobby's Join, a tournament's Start...) and whose click
    goes to one handler with that id and action. Concrete classes mix this into a DynamicItem with their own
    template (discord.py needs one each)."""

    prefix: ClassVar[str]
    actions: ClassVar[tuple[str, ...]]
    handler: ClassVar[str]  # the name of the handler that answers the click
    raw: str

    def __init__(
        self,
        owner: int,
        action: str,
        *,
        label: str = "?",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int = 0,
        raw: str | None = None,
    ) -> None:
        custom_id = f"{self.prefix}:{raw}" if raw is not None else f"{self.prefix}:{owner}:{action}"
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label, style=style, custom_id=custom_id[:CUSTOM_ID_LIMIT]
        )
        super().__init__(button, row=row)  # type: ignore[call-arg]
        self.raw = raw if raw is not None else custom_id[len(self.prefix) + 1 :]

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Any:
        return cls(0, "", raw=match["rest"], label=getattr(item, "label", None) or "?")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        handlers = handlers_of(interaction)
        head, _, action = self.raw.rpartition(":")
        ints = _parse_ints(head, 1)
        if ints is None or action not in self.actions:
            await handlers.malformed(interaction)
            return
        await getattr(handlers, self.handler)(interaction, ints[0], action)


class LobbyButton(_IdActionButton, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?s)lb:(?P<rest>.*)"):
    """A lobby's Join, Leave, Add AI, Start, Cancel and Variants: lb:GAME:ACTION."""

    prefix, handler = "lb", "lobby_action"
    actions = ("join", "leave", "ai", "start", "cancel", "variants")


class TournamentButton(
    _IdActionButton, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?s)tn:(?P<rest>.*)"
):
    """A tournament's sign-up message: Join, Leave, Start, Cancel: tn:TOURNAMENT:ACTION."""

    prefix, handler = "tn", "tournament_action"
    actions = ("join", "leave", "start", "cancel")


class LobbyOption(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"(?s)lo:(?P<rest>.*)"):
    def __init__(
        self,
        game_id: int,
        option: str,
        choices: list[discord.SelectOption],
        *,
        row: int | None = None,
        placeholder: str | None = None,
        raw: str | None = None,
    ) -> None:
        custom_id = f"lo:{raw}" if raw is not None else f"lo:{game_id}:{option}"
        super().__init__(
            discord.ui.Select(custom_id=custom_id[:CUSTOM_ID_LIMIT], options=choices, placeholder=placeholder), row=row
        )
        self.raw = raw if raw is not None else custom_id[3:]

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LobbyOption:
        return cls(0, "", list(getattr(item, "options", [])), raw=match["rest"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        handlers = handlers_of(interaction)

        head, _, option = self.raw.partition(":")
        ints = _parse_ints(head, 1)
        if ints is None or not option or len(self.item.values) != 1:
            await handlers.malformed(interaction)
            return
        await handlers.lobby_option(interaction, ints[0], option, self.item.values[0])


class _GameIdButton:
    """A button whose custom_id is PREFIX:GAME and whose click goes to one handler with that game id.
    Concrete classes mix this into a DynamicItem with their own template (discord.py needs one each)."""

    prefix: ClassVar[str]
    style: ClassVar[discord.ButtonStyle]
    default_label: ClassVar[str]
    handler: ClassVar[str]  # the name of the function in bot.commands.handlers that answers the click
    raw: str

    def __init__(
        self, game_id: int, *, row: int | None = None, label: str | None = None, raw: str | None = None
    ) -> None:
        self.raw = raw if raw is not None else str(game_id)
        custom_id = f"{self.prefix}:{self.raw}"[:CUSTOM_ID_LIMIT]
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label or self.default_label, custom_id=custom_id, style=self.style
        )
        super().__init__(button, row=row)  # type: ignore[call-arg]

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Any:
        return cls(0, raw=match["rest"], label=getattr(item, "label", None))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        handlers = handlers_of(interaction)

        ints = _parse_ints(self.raw, 1)
        if ints is None:
            await handlers.malformed(interaction)
            return
        await getattr(handlers, self.handler)(interaction, ints[0])


class HandButton(_GameIdButton, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?s)hand:(?P<rest>.*)"):
    """Show my hand: the seat's private view and choices, answered ephemerally (closed DMs)."""

    prefix, style, default_label, handler = "hand", discord.ButtonStyle.secondary, text.BUTTON_SHOW_HAND, "show_hand"


class BackButton(_GameIdButton, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?s)back:(?P<rest>.*)"):
    """I'm back: a seat played by the AI after going AFK returns to its player."""

    prefix, style, default_label, handler = "back", discord.ButtonStyle.success, text.BUTTON_BACK, "back"


class EndGameButton(_GameIdButton, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?s)end:(?P<rest>.*)"):
    """End the game (on the reminder of a game idle for days): the host, or Manage Server, abandons it."""

    prefix, style, default_label, handler = "end", discord.ButtonStyle.danger, text.BUTTON_END_GAME, "abandon"


class RematchButton(
    _GameIdButton, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?s)rematch:(?P<rest>.*)"
):
    """Rematch (on a result message): a new lobby with the same seats and variants, joined in one click."""

    prefix, style, default_label, handler = "rematch", discord.ButtonStyle.success, text.BUTTON_REMATCH, "rematch"


class ReplayButton(_GameIdButton, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?s)replay:(?P<rest>.*)"):
    """Replay (on a result message): the game's turns, one page each, answered only to the clicker."""

    prefix, style, default_label, handler = "replay", discord.ButtonStyle.secondary, text.BUTTON_REPLAY, "replay"


class AnimationButton(_GameIdButton, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?s)anim:(?P<rest>.*)"):
    """Animated replay (on a replay): the whole game as one animated picture, answered only to the clicker."""

    prefix, style, default_label, handler = "anim", discord.ButtonStyle.secondary, text.BUTTON_ANIMATION, "animation"


class _PageButton:
    """Previous/Next of a paged answer: PREFIX:OWNER:PAGE, where OWNER says whose pages (a game key, a
    game id) and PAGE is the page the button leads to. Concrete classes mix this into a DynamicItem with
    their own template and say how a click is answered (`turn`)."""

    prefix: ClassVar[str]
    raw: str

    def __init__(
        self, owner: object, page: int, *, label: str = "?", disabled: bool = False, raw: str | None = None
    ) -> None:
        self.raw = raw if raw is not None else f"{owner}:{page}"
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label,
            custom_id=f"{self.prefix}:{self.raw}"[:CUSTOM_ID_LIMIT],
            disabled=disabled,
            style=discord.ButtonStyle.secondary,
        )
        super().__init__(button)  # type: ignore[call-arg]

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Any:
        return cls("", 0, raw=match["rest"], label=getattr(item, "label", None) or "?")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        handlers = handlers_of(interaction)

        owner, _, page = self.raw.rpartition(":")
        ints = _parse_ints(page, 1)
        if ints is None or not owner:
            await handlers.malformed(interaction)
            return
        await self.turn(interaction, owner, ints[0])

    async def turn(self, interaction: discord.Interaction[Any], owner: str, page: int) -> None:
        raise NotImplementedError


class ReplayPageButton(_PageButton, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?s)rpp:(?P<rest>.*)"):
    """Previous/Next of a replay: rpp:GAME:PAGE."""

    prefix = "rpp"

    async def turn(self, interaction: discord.Interaction[Any], owner: str, page: int) -> None:
        handlers = handlers_of(interaction)

        game = _parse_ints(owner, 1)
        if game is None:
            await handlers.malformed(interaction)
            return
        await handlers.replay(interaction, game[0], page=page, turning=True)


class RulesButton(_PageButton, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?s)rules:(?P<rest>.*)"):
    """Turns the pages of a `/game rules` answer: rules:GAME_KEY:PAGE."""

    prefix = "rules"

    async def turn(self, interaction: discord.Interaction[Any], owner: str, page: int) -> None:
        handlers = handlers_of(interaction)

        await handlers.rules_page(interaction, owner, page)


class LeaderboardPage(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?s)lbd:(?P<rest>.*)"):
    """Previous/Next on a leaderboard: lbd:GAME_KEY:SCOPE:PAGE (the page it leads to, from 0)."""

    def __init__(
        self, game_key: str, scope: str, page: int, *, label: str = "?", disabled: bool = False, raw: str | None = None
    ) -> None:
        custom_id = f"lbd:{raw}" if raw is not None else f"lbd:{game_key}:{scope}:{page}"
        super().__init__(
            discord.ui.Button(
                label=label,
                custom_id=custom_id[:CUSTOM_ID_LIMIT],
                disabled=disabled,
                style=discord.ButtonStyle.secondary,
            )
        )
        self.raw = raw if raw is not None else custom_id[4:]

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LeaderboardPage:
        return cls("", "", 0, raw=match["rest"], label=getattr(item, "label", None) or "?")

    def parsed(self) -> tuple[str, str, int] | None:
        parts = self.raw.split(":")
        if len(parts) != 3 or parts[0] not in games.keys() or parts[1] not in ("s", "g"):
            return None
        if not re.fullmatch(r"[0-9]{1,6}", parts[2]):
            return None
        return parts[0], parts[1], int(parts[2])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        handlers = handlers_of(interaction)
        parsed = self.parsed()
        if parsed is None:
            await handlers.malformed(interaction)
            return
        await handlers.leaderboard_page(interaction, *parsed)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    LeaderboardPage,
    TournamentButton,
    AnimationButton,
    ChoiceButton,
    ChoiceSelect,
    LobbyButton,
    LobbyOption,
    HandButton,
    BackButton,
    RulesButton,
    EndGameButton,
    RematchButton,
    ReplayButton,
    ReplayPageButton,
)
# Every button's custom_id prefix, read off the templates above (a click whose id has none is not ours).
PREFIXES = tuple(
    item.__discord_ui_compiled_template__.pattern.removeprefix("(?s)").split("(?P")[0] for item in DYNAMIC_ITEMS
)
