"""`/game new|join|leave|start|hand|status|rules|abandon|kick|settings`: thin adapters over the table service.

Names and descriptions are English msgids; `bot.texts.translator.CatalogTranslator` gives Discord their
Italian and French forms when the commands are synced. Answers only the caller sees (ephemeral)
speak the caller's language; messages everybody in the channel sees speak the server's.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

import discord
from babel import Locale
from discord import app_commands
from discord.ext import commands

import games
from bot.commands import handlers
from bot.delivery import preferences
from bot.messages import guide, present
from bot.texts import i18n, text
from bot.texts.i18n import N_, NP_
from bot.texts.languages import of_server, of_user
from bot.transport import answer, permissions
from storage import DatabaseUnavailable, GameRow
from table import DEFAULT_TURN_SECONDS, TableError, echo

if TYPE_CHECKING:
    from bot.app.client import TableBot

MAX_VARIANT = 40  # characters of one name=value pair
# A game's number as a command option: Discord takes integers up to 2**53 - 1 (its Int53 type; a bound one
# higher makes it refuse the whole command tree), and numbers start at 1.
GameNumber = app_commands.Range[int, 1, 2**53 - 1]

GAME_CHOICES: list[app_commands.Choice[str]] = [
    app_commands.Choice(name=games.get(k).title, value=k) for k in games.keys()
][:25]


def _timer_choice(seconds: int) -> app_commands.Choice[int]:
    # The translator fills the template in each language from the extras.
    message, params = present.timer_template(seconds)
    label = app_commands.locale_str(present.timer_text(seconds), msgid=message, **params)
    return app_commands.Choice(name=label, value=seconds)


TIMER_CHOICES: list[app_commands.Choice[int]] = [_timer_choice(s) for s in present.TIMER_CHOICES]
# Each language named in itself (from Babel's locale data), so anybody can find theirs.
LANGUAGE_CHOICES: list[app_commands.Choice[str]] = [
    app_commands.Choice(name=str(Locale.parse(code).get_display_name(code)).capitalize(), value=code)
    for code in i18n.LANGUAGES
]

NOTIFICATION_CHOICES: list[app_commands.Choice[str]] = [
    app_commands.Choice(name=app_commands.locale_str(text.NOTIFY_BY[mode]), value=mode) for mode in preferences.MODES
]


def parse_variants(raw: str | None) -> dict[str, str]:
    """`name=value name2=value2` (commas also separate) into a dict; the engine validates values."""
    found: dict[str, str] = {}
    for part in (raw or "").replace(",", " ").split():
        name, sep, value = part.partition("=")
        # Names and values are short words; anything longer is not a variant (and is not echoed whole).
        if not sep or not name or not value or len(part) > MAX_VARIANT:
            raise TableError(text.BAD_VARIANT_SYNTAX, part=echo(part))
        found[name.strip()] = value.strip()
    return found


THREAD_TYPES = (discord.ChannelType.public_thread, discord.ChannelType.private_thread, discord.ChannelType.news_thread)


def _thread_parent(interaction: discord.Interaction[Any]) -> int | None:
    """The channel a thread belongs to, when the interaction comes from a thread; else None."""
    channel = interaction.channel
    if isinstance(channel, discord.Thread):
        return channel.parent_id
    if getattr(channel, "type", None) in THREAD_TYPES:
        return getattr(channel, "parent_id", None) or interaction.channel_id
    return None


def _id(row: GameRow) -> int:
    assert row.id is not None
    return row.id


class GameCog(commands.Cog):
    game = app_commands.Group(name=NP_("command", "game"), description=N_("Play board games at this table"))

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @property
    def table(self) -> Any:
        return self.bot.table

    async def _candidates(self, interaction: discord.Interaction[Any]) -> list[GameRow]:
        """The lobbies and games a command typed here may mean: in a game's thread, that game; in a
        channel, its running lobbies and games (each plays in a thread of its own)."""
        channel_id = interaction.channel_id or 0
        in_thread: GameRow | None = await self.table.db.thread_game(channel_id)
        if in_thread is not None:
            return [in_thread]
        found: list[GameRow] = await self.table.db.channel_games(channel_id)
        return found

    async def _here(
        self,
        interaction: discord.Interaction[Any],
        game: int | None = None,
        *,
        joining: bool = False,
        hosting: bool = False,
    ) -> GameRow | None:
        """The game a command acts on: the one its `game` option names (among those here), the thread's
        game or the channel's only one, else the user's own lobby or game in this channel (`joining`: the
        one open lobby they are not in; `hosting`: the lobby they host) when that leaves exactly one. None
        when there is none, or several (then the answer asks for the `game` option)."""
        candidates = await self._candidates(interaction)
        if game is not None:
            return next((g for g in candidates if g.id == game), None)
        if len(candidates) == 1:  # the only one here (the table refuses what the user may not do there)
            return candidates[0]
        mine = {g.id for g in await self.table.db.user_games(interaction.user.id)}
        own = [g for g in candidates if g.id in mine]
        if joining:
            own = [g for g in candidates if g.status == "lobby" and g.id not in mine] or own
        if hosting:  # a host's command: the lobby they host, among the games they are in
            own = [g for g in own if g.status == "lobby" and g.host_id == interaction.user.id] or own
        return own[0] if len(own) == 1 else None

    async def _require_here(
        self,
        interaction: discord.Interaction[Any],
        game: int | None = None,
        *,
        joining: bool = False,
        hosting: bool = False,
    ) -> GameRow | None:
        row = await self._here(interaction, game, joining=joining, hosting=hosting)
        if row is None:
            several = game is None and len(await self._candidates(interaction)) > 1
            message = text.SEVERAL_GAMES_HERE if several else text.NO_GAME_HERE
            await handlers.refuse(interaction, i18n.t(of_user(interaction), message))
        return row

    async def game_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[int]]:
        """The lobbies and games here, numbered as their threads are: "#12 Eggs and Empires (lobby)"."""
        lang = of_user(interaction)
        found = []
        for g in await self._candidates(interaction):
            status = i18n.t(lang, text.STATUS_NAMES.get(g.status, g.status))
            label = f"#{g.id} {games.get(g.game_key).title} ({status})"
            if current.strip().lstrip("#") in label:
                found.append(app_commands.Choice(name=label[:100], value=int(g.id or 0)))
        return found[:25]

    @game.command(
        name=NP_("command", "new"),
        description=N_("Open a lobby for a game in this channel"),
        extras={answer.PUBLIC: True},
    )
    @app_commands.rename(
        game=NP_("command", "game"), variants=NP_("command", "variants"), timer=NP_("command", "timer")
    )
    @app_commands.describe(
        game=N_("Which game"),
        variants=N_("Variants as name=value (see the lobby)"),
        timer=N_("Seconds per decision before the AI decides (0: off)"),
    )
    @app_commands.choices(game=GAME_CHOICES, timer=TIMER_CHOICES)  # type: ignore[misc]
    async def new(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        variants: str | None = None,
        timer: int = DEFAULT_TURN_SECONDS,
    ) -> None:
        parent = _thread_parent(interaction)
        if parent is not None:  # a game's thread (or any thread): lobbies open in the channel
            await handlers.refuse(interaction, i18n.t(of_user(interaction), text.NEW_IN_THREAD, channel=f"<#{parent}>"))
            return
        await self._show_lost_lobbies(interaction)
        try:
            await self.table.within_limits(interaction.guild_id, interaction.user.id)
            row = await self.table.create_lobby(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id or 0,
                game_key=game,
                host_id=interaction.user.id,
                host_name=handlers.display_name(interaction.user),
                options=parse_variants(variants),
                turn_seconds=timer,
                host_locale=handlers.locale_of(interaction),
            )
        except TableError as exc:
            await handlers.refuse_error(interaction, exc)
            return
        await self._post_lobby(interaction, row)
        absent = permissions.missing(interaction.app_permissions) if interaction.guild_id else []
        if absent:  # told now, in the host's language, rather than found out when the game starts
            await answer.send(interaction, permissions.warning(of_user(interaction), absent), ephemeral=True)

    async def _show_lost_lobbies(self, interaction: discord.Interaction[Any]) -> None:
        """Lobbies of this channel whose message was never posted (the bot stopped before answering the
        command that opened them) are posted now, or nobody could join them or change them."""
        try:
            found = await self.table.db.channel_games(interaction.channel_id or 0)
            lang = await of_server(interaction)
        except DatabaseUnavailable:
            return  # the new lobby's own answer says what the database allows now
        for lost in found:
            if lost.status != "lobby" or lost.lobby_message_id is not None:
                continue
            game_row, seats = await self.table.lobby(lost.id)
            lobby = present.lobby(game_row, seats, lang)
            try:
                sent = await self.bot.get_partial_messageable(game_row.channel_id).send(**lobby.send_kwargs())
            except discord.HTTPException:
                continue
            await self.table.db.update_game(lost.id, lobby_message_id=sent.id)

    async def _post_lobby(self, interaction: discord.Interaction[Any], row: GameRow) -> None:
        game_row, seats = await self.table.lobby(row.id)
        lobby = present.lobby(game_row, seats, await of_server(interaction))
        message_id = await answer.send(interaction, **lobby.send_kwargs())
        if message_id is not None:
            await self.table.db.update_game(row.id, lobby_message_id=message_id)

    @new.autocomplete("variants")
    async def variants_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        key = getattr(interaction.namespace, "game", None)
        keys = [key] if key in games.keys() else games.keys()
        found: list[app_commands.Choice[str]] = []
        prefix = current.rsplit(" ", 1)[0] + " " if " " in current else ""
        for k in keys:
            for option in games.get(k).options:
                for value in option.values:
                    pair = f"{prefix}{option.name}={value}"
                    if current.strip().lower() in pair.lower():
                        found.append(app_commands.Choice(name=pair[:100], value=pair[:100]))
        return found[:25]

    async def _refresh_lobby(self, row: GameRow) -> None:
        game, seats = await self.table.lobby(row.id)
        if game.lobby_message_id is None:
            return
        lang = await self.bot.languages.server(game.guild_id)
        message = (
            present.lobby(game, seats, lang)
            if game.status == "lobby"
            else present.closed_lobby(i18n.t(lang, text.CANCELLED))
        )
        partial = self.bot.get_partial_messageable(game.channel_id).get_partial_message(game.lobby_message_id)
        # If the lobby message is gone, the command's own answer still says what happened.
        with contextlib.suppress(discord.HTTPException):
            await partial.edit(**message.edit_kwargs())

    @game.command(name=NP_("command", "join"), description=N_("Join the lobby in this channel"))
    @app_commands.rename(game=NP_("command", "game"))
    @app_commands.describe(game=N_("Which lobby or game, when several are open here"))
    async def join(self, interaction: discord.Interaction[Any], game: GameNumber | None = None) -> None:
        row = await self._require_here(interaction, game, joining=True)
        if row is None:
            return
        try:
            await self.table.join(
                row.id, interaction.user.id, handlers.display_name(interaction.user), handlers.locale_of(interaction)
            )
        except TableError as exc:
            await handlers.refuse_error(interaction, exc)
            return
        await answer.send(interaction, i18n.t(of_user(interaction), text.JOINED), ephemeral=True)
        await self._refresh_lobby(row)

    @game.command(name=NP_("command", "leave"), description=N_("Leave the lobby in this channel"))
    @app_commands.rename(game=NP_("command", "game"))
    @app_commands.describe(game=N_("Which lobby or game, when several are open here"))
    async def leave(self, interaction: discord.Interaction[Any], game: GameNumber | None = None) -> None:
        row = await self._require_here(interaction, game)
        if row is None:
            return
        try:
            await self.table.leave(row.id, interaction.user.id)
        except TableError as exc:
            await handlers.refuse_error(interaction, exc)
            return
        await answer.send(interaction, i18n.t(of_user(interaction), text.LEFT), ephemeral=True)
        await self._refresh_lobby(row)

    @game.command(name=NP_("command", "start"), description=N_("Start the game (host)"), extras={answer.PUBLIC: True})
    @app_commands.rename(game=NP_("command", "game"))
    @app_commands.describe(game=N_("Which lobby or game, when several are open here"))
    async def start(self, interaction: discord.Interaction[Any], game: GameNumber | None = None) -> None:
        row = await self._require_here(interaction, game, hosting=True)
        if row is None:
            return
        if row.status != "lobby":
            await handlers.refuse(interaction, i18n.t(of_user(interaction), text.NOT_A_LOBBY))
            return
        await handlers.start(interaction, _id(row), from_button=False)

    @game.command(name=NP_("command", "kick"), description=N_("Remove a player from the lobby (host)"))
    @app_commands.rename(seat=NP_("command", "seat"), game=NP_("command", "game"))
    @app_commands.describe(
        seat=N_("The seat number shown in the lobby"), game=N_("Which lobby or game, when several are open here")
    )
    async def kick(
        self, interaction: discord.Interaction[Any], seat: app_commands.Range[int, 1, 8], game: GameNumber | None = None
    ) -> None:
        row = await self._require_here(interaction, game, hosting=True)
        if row is None:
            return
        try:
            name = await self.table.kick(row.id, interaction.user.id, seat - 1)
        except TableError as exc:
            await handlers.refuse_error(interaction, exc)
            return
        await answer.send(interaction, i18n.t(of_user(interaction), text.KICKED, name=name), ephemeral=True)
        await self._refresh_lobby(row)

    @game.command(name=NP_("command", "hand"), description=N_("Show your private view and choices (only you see it)"))
    @app_commands.rename(game=NP_("command", "game"))
    @app_commands.describe(game=N_("Which lobby or game, when several are open here"))
    async def hand(self, interaction: discord.Interaction[Any], game: GameNumber | None = None) -> None:
        row = await self._here(interaction, game)
        mine: list[GameRow] = []
        if row is None or row.status != "active":
            mine = [g for g in await self.table.db.user_games(interaction.user.id) if g.status == "active"]
            row = mine[0] if len(mine) == 1 else None
        if row is None:
            message = text.SEVERAL_GAMES_HERE if len(mine) > 1 else text.NOT_IN_GAME
            await handlers.refuse(interaction, i18n.t(of_user(interaction), message))
            return
        await handlers.show_hand(interaction, _id(row))

    @game.command(name=NP_("command", "status"), description=N_("Your lobbies and games"))
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        lang = of_user(interaction)
        mine = await self.table.db.user_games(interaction.user.id)
        if not mine:
            await answer.send(interaction, i18n.t(lang, text.STATUS_NONE), ephemeral=True)
            return
        lines = [
            i18n.t(
                lang,
                text.STATUS_LINE,
                game_id=g.id,
                title=games.get(g.game_key).title,
                status=i18n.t(lang, text.STATUS_NAMES.get(g.status, g.status)),
                channel=g.thread_id or g.channel_id,
            )
            for g in mine
        ]
        await answer.send(interaction, "\n".join(lines), ephemeral=True)

    @game.command(name=NP_("command", "rules"), description=N_("The rules summary and variants of a game"))
    @app_commands.rename(game=NP_("command", "game"))
    @app_commands.describe(game=N_("Which game"))
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction[Any], game: str) -> None:
        if game not in games.keys():
            await handlers.refuse(
                interaction,
                i18n.t(of_user(interaction), text.UNKNOWN_GAME, key=echo(game), known=", ".join(games.keys())),
            )
            return
        embed, view = guide.page_message(game, 0, of_user(interaction))
        await answer.send(interaction, embed=embed, view=view, ephemeral=True)

    @game.command(
        name=NP_("command", "replay"), description=N_("Page through a finished game turn by turn (only you see it)")
    )
    @app_commands.rename(game=NP_("command", "game"))
    @app_commands.describe(game=N_("The game's number, as in its thread's name"))
    async def replay(self, interaction: discord.Interaction[Any], game: GameNumber) -> None:
        await handlers.replay(interaction, game)

    @game.command(
        name=NP_("command", "abandon"),
        description=N_("Abandon the lobby or game here (host or Manage Server)"),
        extras={answer.PUBLIC: True},
    )
    @app_commands.rename(game=NP_("command", "game"))
    @app_commands.describe(game=N_("Which lobby or game, when several are open here"))
    async def abandon(self, interaction: discord.Interaction[Any], game: GameNumber | None = None) -> None:
        row = await self._require_here(interaction, game)
        if row is None:
            return
        await handlers.abandon(interaction, _id(row))
        if row.status == "lobby":
            await self._refresh_lobby(row)

    @game.command(
        name=NP_("command", "settings"),
        description=N_("Your settings (how you are told it is your turn) and the server's (Manage Server)"),
    )
    @app_commands.rename(
        notifications=NP_("command", "notifications"),
        language=NP_("command", "language"),
        lobbies_per_user=NP_("command", "lobbies_per_user"),
        games_per_user=NP_("command", "games_per_user"),
        lobbies_per_server=NP_("command", "lobbies_per_server"),
        games_per_server=NP_("command", "games_per_server"),
    )
    @app_commands.describe(
        notifications=N_("How you are told it is your turn: a new direct message, a mention, or nothing"),
        language=N_("The language of channel and thread messages on this server"),
        lobbies_per_user=N_("Open lobbies one person may host at once (default 2)"),
        games_per_user=N_("Running games one person may play at once (default 10)"),
        lobbies_per_server=N_("Open lobbies on this server at once (default 25)"),
        games_per_server=N_("Running games on this server at once (default 200)"),
    )
    @app_commands.choices(notifications=NOTIFICATION_CHOICES, language=LANGUAGE_CHOICES)
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        notifications: str | None = None,
        language: str | None = None,
        lobbies_per_user: app_commands.Range[int, 1, 100] | None = None,
        games_per_user: app_commands.Range[int, 1, 1000] | None = None,
        lobbies_per_server: app_commands.Range[int, 1, 1000] | None = None,
        games_per_server: app_commands.Range[int, 1, 100_000] | None = None,
    ) -> None:
        """Without options: says how the user is told it is their turn (and, in a server, its caps). The
        user's own setting is applied even when a server setting given with it is refused."""
        lang = of_user(interaction)
        if notifications is not None and notifications not in preferences.MODES:
            await handlers.malformed(interaction)
            return
        caps = {
            "lobbies_per_user": lobbies_per_user,
            "games_per_user": games_per_user,
            "lobbies_per_server": lobbies_per_server,
            "games_per_server": games_per_server,
        }
        changed_caps = {k: v for k, v in caps.items() if v is not None}
        server_change = language is not None or bool(changed_caps)
        said = []
        if server_change:
            refusal = await self._set_server(interaction, language, changed_caps, lang)
            if refusal is not None and notifications is None:
                await handlers.refuse(interaction, refusal)
                return
            if refusal is not None:
                said.append(refusal)
            elif language is not None:
                name = str(Locale.parse(language).get_display_name(lang))
                said.append(i18n.t(lang, text.LANGUAGE_SET, language=name))
        if notifications is not None:
            await self.bot.preferences.set(interaction.user.id, notifications)
        if notifications is not None or not server_change:
            mode = notifications or await self.bot.preferences.of(interaction.user.id)
            said.insert(0, i18n.t(lang, text.NOTIFICATIONS[mode]))
        if interaction.guild_id is not None and (changed_caps or not server_change):
            limits = await self.table.limits(interaction.guild_id)
            said.append(i18n.t(lang, text.LIMITS_NOW, **limits))
        await answer.send(interaction, "\n".join(said), ephemeral=True)

    async def _set_server(
        self, interaction: discord.Interaction[Any], language: str | None, caps: dict[str, int], lang: str
    ) -> str | None:
        """The server's language and caps set; or why not (said in `lang`), nothing changed."""
        if interaction.guild_id is None:
            return i18n.t(lang, text.SERVER_ONLY)
        perms = interaction.permissions
        if not (perms and perms.manage_guild):
            return i18n.t(lang, text.MANAGE_SERVER_ONLY)
        if language is not None and language not in i18n.LANGUAGES:
            return i18n.t(lang, text.MALFORMED)
        if language is not None:
            await self.bot.languages.set_server(interaction.guild_id, language)
        if caps:
            limits = await self.table.db.get_guild_limits(interaction.guild_id)
            limits.update(caps)
            await self.table.db.set_guild_limits(interaction.guild_id, limits)
        return None


for _command in (GameCog.join, GameCog.leave, GameCog.start, GameCog.kick, GameCog.hand, GameCog.abandon):
    _command.autocomplete("game")(GameCog.game_autocomplete)


async def setup(bot: TableBot) -> None:
    await bot.add_cog(GameCog(bot))
