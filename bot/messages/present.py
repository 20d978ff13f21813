"""What a lobby, a table or a seat's private message looks like: embeds, components and files.

Everything here is pure (no REST calls); the notifier and the handlers send what it builds.
Pictures are drawn later, off the event loop, by `await message.render()` (bot.render.kit.pool).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import discord

import games
from bot.messages import alt_text, endings, guide
from bot.messages.components import BackButton, ChoiceButton, ChoiceSelect, HandButton, LobbyButton, LobbyOption
from bot.messages.outgoing import Outgoing
from bot.render import renderer_for
from bot.render.kit.generic import COLOUR, TableContext, clip
from bot.render.kit.pool import PictureJob
from bot.texts import i18n, text
from games.core import Choice, Option, Prompt
from storage import GameRow, SeatRow
from table import SeatNotice, TableUpdate

EMBEDS_LIMIT = 6000  # characters in all of a message's embeds (Discord)
FIELD_LIMIT = 1024  # characters in an embed field's value (Discord)
MAX_BUTTONS = 20  # four rows of five; the fifth row is kept for "I'm back"
MAX_SELECT_OPTIONS = 25
# Minutes for live play, hours for turn-based play over days (a reminder comes at half of each).
TIMER_CHOICES = (0, 60, 180, 300, 600, 3600, 43_200, 86_400, 259_200)


def _names(seats: list[SeatRow]) -> list[str]:
    return [s.name for s in seats]


def context(
    game: GameRow, seats: list[SeatRow], waiting: list[int], update: TableUpdate | None = None, lang: str = i18n.DEFAULT
) -> TableContext:
    assert game.id is not None
    title = games.get(game.game_key).title
    return TableContext(title, game.id, _names(seats), waiting, update.deadline if update else None, lang)


# --- lobby -------------------------------------------------------------------------------------
def timer_template(seconds: int | None) -> tuple[str, dict[str, int]]:
    """The msgid and parameters that say a turn timer: "off", "3 min", "12 h" (whole hours and minutes
    as such; any other number of seconds, which only a forged option can give, in seconds)."""
    if not seconds:
        return text.TIMER_OFF, {}
    if seconds % 3600 == 0:
        return text.TIMER_HOURS, {"hours": seconds // 3600}
    if seconds % 60 == 0:
        return text.TIMER_MINUTES, {"minutes": seconds // 60}
    return text.TIMER_SECONDS, {"seconds": seconds}


def timer_text(seconds: int | None, lang: str = i18n.DEFAULT) -> str:
    message, params = timer_template(seconds)
    return i18n.t(lang, message, **params)


ADD_AI = "add_ai"  # the lobby select's "option": it seats an AI of the level picked, it sets no variant
INLINE_VARIANTS = 3  # variant selects the lobby message holds itself (rows 2-4); more: a "Variants" button


def lobby(game: GameRow, seats: list[SeatRow], lang: str = i18n.DEFAULT) -> Outgoing:
    """The lobby message (in the channel: the server's language): seats, variants and the timer, with
    the buttons, the timer's select and either a select per variant (when they all fit) or a button
    that opens every variant's select (`variants_panel`)."""
    assert game.id is not None
    engine = games.get(game.game_key)
    host = next((s.name for s in seats if s.user_id == game.host_id), "?")
    embed = discord.Embed(
        title=i18n.t(lang, text.LOBBY_TITLE, title=engine.title),
        colour=COLOUR,
        description=i18n.t(lang, text.LOBBY_HOST, name=host, low=engine.min_players, high=engine.max_players),
    )
    english_only = text.told_in(lang, engine.title, engine.languages)
    if english_only:  # a game with no translation in the server's language says so before anybody joins
        embed.description = f"{embed.description}\n{english_only}"
    lines = [f"{i + 1}. {s.name}" for i, s in enumerate(seats)] or ["-"]
    embed.add_field(
        name=i18n.t(lang, text.LOBBY_SEATS, n=len(seats), high=engine.max_players),
        value=clip("\n".join(lines), 1024),
        inline=False,
    )
    if engine.options:
        described = [
            i18n.labelled(
                lang,
                f"**{guide.option_name(engine.key, o, lang)}**",
                f"{guide.option_value(game.options.get(o.name, o.default), lang, engine.key, o)} "
                f"({guide.option_description(engine.key, o, lang)})",
            )
            for o in engine.options
        ]
        embed.add_field(name=i18n.t(lang, text.LOBBY_OPTIONS), value=clip("\n".join(described), 1024), inline=False)
    embed.add_field(name=i18n.t(lang, text.LOBBY_TIMER), value=timer_text(game.turn_seconds, lang), inline=False)
    view = discord.ui.View(timeout=None)
    for action, label, style in (
        ("join", text.BUTTON_JOIN, discord.ButtonStyle.success),
        ("leave", text.BUTTON_LEAVE, discord.ButtonStyle.secondary),
        ("ai", text.BUTTON_ADD_AI, discord.ButtonStyle.secondary),
        ("start", text.BUTTON_START, discord.ButtonStyle.primary),
        ("cancel", text.BUTTON_CANCEL, discord.ButtonStyle.danger),
    ):
        view.add_item(LobbyButton(game.id, action, label=i18n.t(lang, label), style=style))
    view.add_item(timer_select(game, lang, row=1))
    if len(engine.options) <= INLINE_VARIANTS:
        for row, option in enumerate(engine.options, start=2):
            view.add_item(variant_select(game, option, lang, row=row))
        free_row = 2 + len(engine.options)
    else:
        view.add_item(
            LobbyButton(
                game.id,
                "variants",
                label=i18n.t(lang, text.BUTTON_VARIANTS),
                style=discord.ButtonStyle.secondary,
                row=2,
            )
        )
        free_row = 3
    levels = [level for level in text.PICKABLE_AI_LEVELS if level in engine.ai_levels]
    if len(levels) > 1 and free_row <= 4:  # Discord's five rows; without one free, Add AI adds the easy level
        view.add_item(ai_level_select(game, levels, lang, row=free_row))
    return Outgoing(embeds=[embed], view=view)


def ai_level_select(game: GameRow, levels: list[str], lang: str, *, row: int) -> LobbyOption:
    """A select that seats an AI of the level picked (the Add AI button seats the easy one)."""
    assert game.id is not None
    choices = [
        discord.SelectOption(
            label=clip(text.ai_level_name(lang, level).capitalize(), 100),
            value=level,
            description=clip(i18n.t(lang, text.AI_LEVEL_HINTS[level]), 100),
        )
        for level in levels
    ]
    return LobbyOption(game.id, ADD_AI, choices, row=row, placeholder=i18n.t(lang, text.ADD_AI_PLACEHOLDER))


def timer_select(game: GameRow, lang: str, *, row: int) -> LobbyOption:
    assert game.id is not None
    choices = [
        discord.SelectOption(label=timer_text(s, lang), value=str(s), default=(game.turn_seconds or 0) == s)
        for s in TIMER_CHOICES
    ]
    return LobbyOption(
        game.id,
        "turn_seconds",
        choices,
        row=row,
        placeholder=i18n.t(lang, text.OPTION_PLACEHOLDER, name=i18n.t(lang, text.LOBBY_TIMER)),
    )


def variant_select(game: GameRow, option: Option, lang: str, *, row: int) -> LobbyOption:
    """A select of one variant's values, each shown as "Variant: value" (the current one selected)."""
    assert game.id is not None
    current = game.options.get(option.name, option.default)
    name = guide.option_name(game.game_key, option, lang)
    choices = [
        discord.SelectOption(
            label=clip(
                i18n.t(
                    lang, text.VARIANT_CHOICE, name=name, value=guide.option_value(value, lang, game.game_key, option)
                ),
                100,
            ),
            value=str(value),
            default=value == current,
        )
        for value in option.values[:MAX_SELECT_OPTIONS]
    ]
    return LobbyOption(
        game.id, option.name, choices, row=row, placeholder=i18n.t(lang, text.OPTION_PLACEHOLDER, name=name)
    )


def variants_panel(game: GameRow, lang: str) -> Outgoing:
    """Every variant's select, for the host to change from an ephemeral answer (a game with more
    variants than the lobby message holds). One select a row: Discord allows five rows."""
    engine = games.get(game.game_key)
    view = discord.ui.View(timeout=None)
    for row, option in enumerate(engine.options[:5]):
        view.add_item(variant_select(game, option, lang, row=row))
    embed = discord.Embed(
        title=i18n.t(lang, text.VARIANTS_TITLE, title=engine.title),
        colour=COLOUR,
        description=clip(
            "\n".join(
                i18n.labelled(
                    lang, f"**{guide.option_name(engine.key, o, lang)}**", guide.option_description(engine.key, o, lang)
                )
                for o in engine.options
            ),
            4000,
        ),
    )
    return Outgoing(embeds=[embed], view=view)


def closed_lobby(message: str) -> Outgoing:
    return Outgoing(content=message, embeds=[], view=None)


# --- public table ------------------------------------------------------------------------------
def table(update: TableUpdate, lang: str = i18n.DEFAULT, recent: Sequence[str] = ()) -> Outgoing:
    """The public table message (in the thread: the server's language), with the `recent` log lines
    (oldest first): the log is folded into the table, which shows the last few turns (bot.delivery.notify)."""
    game = update.game
    assert game.id is not None
    renderer = renderer_for(game.game_key)
    ctx = context(game, update.seats, [p.seat for p in update.prompts], update, lang)
    embeds = renderer.table(update.public_view, ctx)
    if recent and embeds:
        add_recent(embeds[-1], recent, i18n.t(lang, text.RECENTLY), room=EMBEDS_LIMIT - sum(len(e) for e in embeds))
    if update.outcome is not None:
        embeds.append(results_embed(update, lang))
    view: discord.ui.View | None = None
    if game.status == "active":
        view = discord.ui.View(timeout=None)
        view.add_item(HandButton(game.id, label=i18n.t(lang, text.BUTTON_SHOW_HAND)))
    names = tuple(ctx.names)
    picture = PictureJob(renderer, "image", (update.public_view, lang, names)) if renderer.pictured() else None
    lead = alt_text.scores_line(lang, ctx.names, renderer.scores(update.public_view))
    return Outgoing(embeds=embeds, view=view, picture=picture, alt_lead=lead)


def add_recent(embed: discord.Embed, lines: Sequence[str], name: str, *, room: int) -> None:
    """A field of `embed` with the newest of `lines` that fit in a field and in the `room` the message's
    embeds have left (Discord's limits), oldest first; the newest alone, clipped, if even it does not fit."""
    room = min(FIELD_LIMIT, room - len(name))
    if room <= 1:
        return
    shown: list[str] = []
    size = -1
    for line in reversed(lines):
        if size + 1 + len(line) > room:
            break
        shown.insert(0, line)
        size += 1 + len(line)
    embed.add_field(name=name, value="\n".join(shown) if shown else clip(lines[-1], room), inline=False)


def results_embed(update: TableUpdate, lang: str = i18n.DEFAULT) -> discord.Embed:
    outcome = update.outcome or {}
    scores = outcome.get("scores") or [None] * len(update.seats)
    ranks = outcome.get("ranking") or outcome.get("ranks") or _ranks_by_score(scores)
    order = sorted(range(len(update.seats)), key=lambda s: (ranks[s] or 0, s))
    lines = [
        i18n.t(lang, text.RESULT_LINE, rank=ranks[s], name=update.seats[s].name, score=_score(scores[s], lang))
        for s in order
    ]
    return discord.Embed(
        title=i18n.t(lang, text.GAME_FINISHED), description="\n".join(lines), colour=discord.Colour.green()
    )


def _ranks_by_score(scores: list[Any]) -> list[int | None]:
    """For an outcome with scores but no ranking: 1 + how many scored more (ties share a rank)."""
    if not all(isinstance(v, int | float) for v in scores):
        return [None] * len(scores)
    return [1 + sum(other > mine for other in scores) for mine in scores]


def _score(value: Any, lang: str) -> str:
    return i18n.number(lang, value) if isinstance(value, int | float) and not isinstance(value, bool) else str(value)


def log_line(update: TableUpdate, lang: str = i18n.DEFAULT) -> str | None:
    renderer = renderer_for(update.game.game_key)
    ctx = context(update.game, update.seats, [p.seat for p in update.prompts], update, lang)
    lines = []
    line = renderer.log_line(update.events, ctx) if update.resolved else None
    if line:
        lines.append(line)
    if update.afk_seats:
        names = i18n.listing(lang, [update.seats[s].name for s in update.afk_seats])
        lines.append(i18n.t(lang, text.AFK_LOG, names=names))
    if any(e.get("type") == "abandoned_afk" for e in update.events):
        lines.append(i18n.t(lang, text.ABANDONED_AFK))
    if any(e.get("type") == "abandoned" for e in update.events):
        lines.append(i18n.t(lang, text.ABANDONED))
    return clip("\n".join(lines), 1900) if lines else None


# --- a seat's private message ------------------------------------------------------------------
def seat_context(
    game: GameRow,
    notice: SeatNotice,
    update: TableUpdate | None = None,
    *,
    seats: list[SeatRow] | None = None,
    lang: str = i18n.DEFAULT,
) -> TableContext:
    assert game.id is not None
    names = _names(update.seats if update is not None else seats or [notice.seat])
    return TableContext(
        games.get(game.game_key).title,
        game.id,
        names,
        [notice.seat.seat] if notice.prompt else [],
        update.deadline if update else None,
        lang,
    )


def seat_message(
    game: GameRow,
    notice: SeatNotice,
    update: TableUpdate | None = None,
    *,
    seats: list[SeatRow] | None = None,
    content: str | None = None,
    lang: str = i18n.DEFAULT,
) -> Outgoing:
    """A seat's private message (a DM or an ephemeral answer: the player's language)."""
    assert game.id is not None
    renderer = renderer_for(game.game_key)
    ctx = seat_context(game, notice, update, seats=seats, lang=lang)
    embed = renderer.seat(notice.view, notice.prompt, ctx, notice.seat.seat)
    lines = [content] if content else []
    if update is not None and update.outcome is not None:
        # The game is over: the DM says how it ended, not that it waits for the others.
        where = f"<#{game.thread_id or game.channel_id}>"
        lines.insert(0, endings.own_result(update.seats, notice.seat.seat, update.outcome, where, lang))
        waiting = i18n.t(lang, text.NO_DECISION)
        for index in reversed(range(len(embed.fields))):
            if waiting in (embed.fields[index].value or ""):
                embed.remove_field(index)
    if notice.seat.ai_controlled:
        lines.append(i18n.t(lang, text.AI_CONTROLLED))
    prompt = notice.prompt
    view = choice_view(
        game.id,
        notice.seat.seat,
        notice.version,
        prompt,
        notice.seat.ai_controlled,
        (lambda choice: renderer.choice_label(prompt, choice, ctx)) if prompt else None,
        lang,
    )
    link = table_link(game)
    if link is not None:  # the live table, one tap away from every private message
        view = view or discord.ui.View(timeout=None)
        view.add_item(
            discord.ui.Button(style=discord.ButtonStyle.link, url=link, label=i18n.t(lang, text.BUTTON_TABLE), row=4)
        )
    # A game with pictures whose seat has none now (no prompt) still edits its picture slot: cleared.
    picture = (
        PictureJob(renderer, "seat_image", (notice.view, prompt, lang, tuple(ctx.names)))
        if renderer.seat_pictured(prompt)
        else None
    )
    return Outgoing(
        content="\n".join(lines) or None,
        embeds=[embed],
        view=view,
        picture=picture,
        pictured=renderer.pictured(),
        alt_lead=alt_text.scores_line(lang, ctx.names, renderer.scores(notice.view)),
    )


def chosen_labels(
    game: GameRow,
    notice: SeatNotice,
    prompt: Prompt | None,
    choice: list[str],
    fallback: list[str],
    update: TableUpdate | None,
    lang: str,
) -> str:
    """ "You chose ..." in the player's language: the answered prompt's labels, translated."""
    if prompt is None:
        return i18n.listing(lang, fallback)
    renderer = renderer_for(game.game_key)
    ctx = seat_context(game, notice, update, lang=lang)
    by_id = {c.id: c for c in prompt.choices}
    return i18n.listing(lang, [renderer.choice_label(prompt, by_id[c], ctx) if c in by_id else c for c in choice])


def choice_view(
    game_id: int,
    seat: int,
    version: int,
    prompt: Prompt | None,
    away: bool,
    label: Callable[[Choice], str] | None = None,
    lang: str = i18n.DEFAULT,
) -> discord.ui.View | None:
    view = discord.ui.View(timeout=None)
    name = label or (lambda c: c.label)
    if prompt is not None and not away:
        if prompt.pick == 1 and len(prompt.choices) <= MAX_BUTTONS:
            for i, choice in enumerate(prompt.choices):
                view.add_item(ChoiceButton(game_id, seat, version, choice.id, label=clip(name(choice), 80), row=i // 5))
        else:
            options = [
                discord.SelectOption(label=clip(name(c), 100), value=c.id) for c in prompt.choices[:MAX_SELECT_OPTIONS]
            ]
            view.add_item(
                ChoiceSelect(
                    game_id,
                    seat,
                    version,
                    options,
                    prompt.pick,
                    placeholder=i18n.tn(lang, text.CHOOSE_PLACEHOLDER, prompt.pick),
                )
            )
    if away:
        view.add_item(BackButton(game_id, row=4, label=i18n.t(lang, text.BUTTON_BACK)))
    return view if view.children else None


def table_link(game: GameRow) -> str | None:
    """The address of the game's table message (in its thread), once both exist."""
    if game.thread_id is None or game.table_message_id is None:
        return None
    return f"https://discord.com/channels/{game.guild_id or '@me'}/{game.thread_id}/{game.table_message_id}"


def dm_closed_ping(game_id: int, user_id: int, lang: str = i18n.DEFAULT) -> Outgoing:
    view = discord.ui.View(timeout=None)
    view.add_item(HandButton(game_id, label=i18n.t(lang, text.BUTTON_SHOW_HAND)))
    return Outgoing(content=i18n.t(lang, text.DM_CLOSED, mention=f"<@{user_id}>"), view=view)


def turn_mention(game_id: int, user_id: int, link: str | None, lang: str = i18n.DEFAULT, *, hand: bool) -> Outgoing:
    """The mention in the thread telling a player it is their turn (bot.delivery.private): a link to what they must
    see and, for a player whose DMs are closed, the "Show my hand" button."""
    mention = f"<@{user_id}>"
    content = (
        i18n.t(lang, text.YOUR_TURN_LINK, mention=mention, link=link)
        if link
        else i18n.t(lang, text.YOUR_TURN, mention=mention)
    )
    view: discord.ui.View | None = None
    if hand:
        view = discord.ui.View(timeout=None)
        view.add_item(HandButton(game_id, label=i18n.t(lang, text.BUTTON_SHOW_HAND)))
    return Outgoing(content=content, view=view)
