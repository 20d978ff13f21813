"""What /leaderboard, /stats and /history show: ratings and results read back from storage, formatted for
the reader (docs/ratings.md). The builders (`board_message`, `stats_message`, `history_message`) do all the
work, so the commands (bot.commands.cogs.leaderboard) and the page buttons
(bot.messages.components.LeaderboardPage) are thin adapters; bench/leaderboard.py times them through the
commands. The shared formatting (a player, a rating and its change) serves the game's ending too
(bot.messages.endings).
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

import games
from bot.messages import alt_text
from bot.messages.components import LeaderboardPage
from bot.render import renderer_for
from bot.render.kit.generic import COLOUR, clip
from bot.texts import i18n, text
from bot.texts import text_stats as ts
from storage import Database, RatingRow
from storage.ladder import PlayedGame
from storage.ratings import GLOBAL, ai_level_of

if TYPE_CHECKING:
    from bot.render.kit.chart import Series

PAGE_SIZE = 10
TREND_GAMES = 5
CHART_GAMES = 50
RECENT_FOR_PLAYS = 100
LAST_RESULTS = 5
HISTORY_GAMES = 10
CUSTOM_ID_LIMIT = 100


@dataclass
class Answer:
    embed: discord.Embed
    view: discord.ui.View | None = None
    image: bytes | None = None

    def send_kwargs(self) -> dict[str, Any]:
        found: dict[str, Any] = {"embed": self.embed}
        if self.view is not None:
            found["view"] = self.view
        if self.image is not None:
            found["file"] = discord.File(
                io.BytesIO(self.image), filename="rating.png", description=alt_text.describe([self.embed])
            )
        return found


# --- shared formatting ------------------------------------------------------------------------------
def who(user_id: int, lang: str) -> str:
    """A mention for a person (Discord shows the name), the level for an AI identity."""
    level = ai_level_of(user_id)
    if level is not None:
        return i18n.t(lang, ts.AI_PLAYER, level=text.ai_level_name(lang, level))
    return f"<@{user_id}>"


# The rating people see: openskill's conservative ordinal (mu - 3 sigma, 0 for a newcomer, negative after a
# few losses) on a scale that starts at 1,000 and cannot go below 0 (docs/ratings.md, "Display rating").
DISPLAY_START = 1000
DISPLAY_PER_ORDINAL = 25


def display_rating(ordinal: float) -> int:
    """The display rating of an ordinal: 1000 + 25 x ordinal, rounded, never below 0."""
    return max(0, round(DISPLAY_START + DISPLAY_PER_ORDINAL * ordinal))


def rating_text(ordinal: float, lang: str) -> str:
    return i18n.number(lang, display_rating(ordinal))


def rating_change_text(before: float | None, after: float, lang: str) -> str:
    """ "1,012 (+12)": a display rating after a game and its change (from the start for a first game)."""
    change = display_rating(after) - display_rating(0.0 if before is None else before)
    sign = "+" if change > 0 else "−" if change < 0 else "±"
    return f"{rating_text(after, lang)} ({sign}{i18n.number(lang, abs(change))})"


def win_rate(wins: int, played: int, lang: str) -> str:
    from babel.numbers import format_percent

    return format_percent(wins / played if played else 0.0, locale=lang)


def board_row(position: int, row: RatingRow, lang: str) -> str:
    return i18n.t(
        lang,
        ts.BOARD_ROW,
        position=position,
        who=who(row.user_id, lang),
        rating=rating_text(row.ordinal, lang),
        games=i18n.tn(lang, ts.GAMES, row.games),
        wins=i18n.tn(lang, ts.WINS, row.wins),
        rate=win_rate(row.wins, row.games, lang),
    )


def scope_name(scope: int, lang: str) -> str:
    return i18n.t(lang, ts.SCOPE_GLOBAL if scope == GLOBAL else ts.SCOPE_SERVER)


def link_text(game: PlayedGame, lang: str) -> str:
    url = game.link
    return i18n.t(lang, ts.THREAD_LINK, url=url) if url else i18n.t(lang, ts.NO_LINK)


def title_of(game_key: str) -> str:
    try:
        return games.get(game_key).title
    except KeyError:
        return game_key


def score_text(value: float, lang: str) -> str:
    return i18n.number(lang, round(value, 1))


# --- /leaderboard -----------------------------------------------------------------------------------
def board_scope(guild_id: int | None, scope: str) -> int:
    """The ratings scope: the server's id, or GLOBAL (also for "server" outside a server)."""
    return guild_id if scope == "s" and guild_id else GLOBAL


async def board_message(
    db: Database, scope_id: int, scope: str, game_key: str, user_id: int, page: int, lang: str
) -> Answer:
    title = title_of(game_key)
    heading = i18n.t(lang, ts.BOARD_TITLE, title=title, scope=scope_name(scope_id, lang))
    wanted = max(0, page)
    board = await db.board_page(scope_id, game_key, user_id, limit=PAGE_SIZE, offset=wanted * PAGE_SIZE)
    size = board.size
    if size == 0:
        empty = discord.Embed(
            title=clip(heading, 256), colour=COLOUR, description=i18n.t(lang, ts.BOARD_EMPTY, title=title)
        )
        await _add_ai_levels(empty, db, scope_id, game_key, lang)
        return Answer(empty)
    pages = (size + PAGE_SIZE - 1) // PAGE_SIZE
    page = min(wanted, pages - 1)
    if page != wanted:  # past the end (the board shrank, or a hand-made id): the last page
        board = await db.board_page(scope_id, game_key, user_id, limit=PAGE_SIZE, offset=page * PAGE_SIZE)
    lines = [board_row(page * PAGE_SIZE + i + 1, row, lang) for i, row in enumerate(board.rows)]
    if not any(row.user_id == user_id for row in board.rows):
        lines.append("")
        if board.mine is None:
            lines.append(i18n.t(lang, ts.BOARD_YOU_UNRATED))
        else:
            lines.append(i18n.t(lang, ts.BOARD_YOU, row=board_row(board.mine[0], board.mine[1], lang)))
    embed = discord.Embed(title=clip(heading, 256), colour=COLOUR, description=clip("\n".join(lines), 4000))
    await _add_ai_levels(embed, db, scope_id, game_key, lang)
    embed.set_footer(text=i18n.t(lang, ts.BOARD_FOOTER, page=page + 1, pages=pages))
    view = discord.ui.View(timeout=None)
    view.add_item(
        LeaderboardPage(game_key, scope, max(0, page - 1), label=i18n.t(lang, text.BUTTON_PREVIOUS), disabled=page == 0)
    )
    view.add_item(
        LeaderboardPage(game_key, scope, page + 1, label=i18n.t(lang, text.BUTTON_NEXT), disabled=page >= pages - 1)
    )
    return Answer(embed, view)


async def _add_ai_levels(embed: discord.Embed, db: Database, scope_id: int, game_key: str, lang: str) -> None:
    """The AI levels rated on this board, apart from the people (so players see how they compare)."""
    levels = await db.ai_board(scope_id, game_key)
    if levels:
        rows = [
            i18n.t(lang, ts.BOARD_AI_ROW, who=who(row.user_id, lang), rating=rating_text(row.ordinal, lang))
            for row in levels
        ]
        embed.add_field(name=i18n.t(lang, ts.BOARD_AI), value=clip("\n".join(rows), 1024), inline=False)


# --- /stats -----------------------------------------------------------------------------------------
def favourite_plays(results: Sequence[PlayedGame], game_key: str, lang: str, top: int = 3) -> str | None:
    renderer = renderer_for(game_key)
    counts: Counter[str] = Counter()
    for result in results:
        if result.game_key == game_key:
            for name, count in result.plays.items():
                message = ts.PLAY_NAMES.get(name)
                counts[i18n.t(lang, message) if message else renderer.play_name(name, lang)] += count
    if not counts:
        return None
    best = sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:top]
    return i18n.listing(lang, [i18n.t(lang, ts.STATS_PLAY, name=name, count=count) for name, count in best])


def trend_text(history: Sequence[float], lang: str) -> tuple[str, int]:
    """The change of rating over the last TREND_GAMES games (from the start if fewer)."""
    if not history:
        return "-", 0
    count = min(TREND_GAMES, len(history))
    before = history[-count - 1] if len(history) > count else 0.0  # a new player starts at 0
    delta = display_rating(history[-1]) - display_rating(before)
    arrow = "▲" if delta > 0 else "▼" if delta < 0 else "="
    return f"{arrow} {i18n.number(lang, abs(delta))}", count


async def stats_message(
    db: Database, guild_id: int | None, user_id: int, name: str, lang: str, *, self_view: bool
) -> Answer:
    from bot.render.kit.chart import Series, rating_chart  # Pillow: at the first chart, not at every start-up

    scope_id = guild_id or GLOBAL
    scopes = [scope_id] if scope_id == GLOBAL else [scope_id, GLOBAL]
    heading = i18n.t(lang, ts.STATS_TITLE, name=name, scope=scope_name(scope_id, lang))
    found = await db.player_stats(
        user_id, guild_id, scopes, history_limit=CHART_GAMES, recent_limit=RECENT_FOR_PLAYS, last=LAST_RESULTS
    )
    summaries = found.summaries
    if not summaries:
        message = ts.NO_GAMES_YOU if self_view else ts.NO_GAMES_USER
        return Answer(
            discord.Embed(title=clip(heading, 256), colour=COLOUR, description=i18n.t(lang, message, name=name))
        )
    local = {p.rating.game_key: p for p in found.ratings if p.rating.guild_id == scope_id}
    world = {p.rating.game_key: p for p in found.ratings if p.rating.guild_id == GLOBAL}
    recent = found.recent
    embed = discord.Embed(title=clip(heading, 256), colour=COLOUR)
    series: list[Series] = []
    for game_key in sorted({s.game_key for s in summaries}):
        lines: list[str] = []
        placed = local.get(game_key)
        if placed is not None:
            history = found.history.get(game_key, [])
            series.append(Series(title_of(game_key), [float(display_rating(v)) for v in history]))
            trend, count = trend_text(history, lang)
            lines.append(
                i18n.t(
                    lang,
                    ts.STATS_RATING,
                    rating=rating_text(placed.rating.ordinal, lang),
                    trend=i18n.tn(lang, ts.STATS_TREND, count, change=trend),
                    position=placed.position,
                    players=placed.size,
                )
            )
            if scope_id != GLOBAL and game_key in world:
                lines.append(
                    i18n.t(lang, ts.STATS_RATING_GLOBAL, rating=rating_text(world[game_key].rating.ordinal, lang))
                )
        mine = [s for s in summaries if s.game_key == game_key]
        played = sum(s.games for s in mine)
        won = sum(s.wins for s in mine)
        lines.append(
            i18n.t(
                lang,
                ts.STATS_GAMES,
                games=i18n.tn(lang, ts.GAMES, played),
                wins=i18n.tn(lang, ts.WINS, won),
                rate=win_rate(won, played, lang),
            )
        )
        for summary in mine:
            average, best = score_text(summary.average, lang), score_text(summary.best, lang)
            if summary.variant is None:
                lines.append(i18n.t(lang, ts.STATS_SCORES, average=average, best=best))
            else:
                variant = ts.VARIANTS.get(summary.variant)
                lines.append(
                    i18n.t(
                        lang,
                        ts.STATS_SCORES_VARIANT,
                        average=average,
                        best=best,
                        variant=i18n.t(lang, variant) if variant else summary.variant,
                    )
                )
        plays = favourite_plays(recent, game_key, lang)
        if plays:
            lines.append(i18n.t(lang, ts.STATS_FAVOURITES, plays=plays))
        embed.add_field(name=clip(title_of(game_key), 256), value=clip("\n".join(lines), 1024), inline=False)
    if recent:
        rows = [
            i18n.t(
                lang,
                ts.RESULT_ROW,
                date=i18n.day(lang, g.finished_at) if g.finished_at else "-",
                title=title_of(g.game_key),
                rank=g.rank,
                players=len(found.players.get(g.game_id, [])),
                score=score_text(g.score, lang),
                link=link_text(g, lang),
            )
            for g in recent[:LAST_RESULTS]
        ]
        embed.add_field(name=i18n.t(lang, ts.STATS_LAST), value=clip("\n".join(rows), 1024), inline=False)
    image = None
    if series:
        image = rating_chart(series, i18n.t(lang, ts.STATS_CHART), lang)
        embed.set_image(url="attachment://rating.png")
    return Answer(embed, image=image)


# --- /history ---------------------------------------------------------------------------------------
async def history_message(
    db: Database, guild_id: int | None, user_id: int, name: str, lang: str, *, self_view: bool
) -> Answer:
    heading = i18n.t(lang, ts.HISTORY_TITLE, name=name)
    recent = await db.user_results(user_id, guild_id, limit=HISTORY_GAMES)
    if not recent:
        message = ts.NO_GAMES_YOU if self_view else ts.NO_GAMES_USER
        return Answer(
            discord.Embed(title=clip(heading, 256), colour=COLOUR, description=i18n.t(lang, message, name=name))
        )
    seats = await db.game_players([g.game_id for g in recent])
    lines = []
    for game in recent:
        players = i18n.listing(
            lang,
            [
                i18n.t(
                    lang, ts.HISTORY_PLAYER, name=p.name or who(p.user_id or 0, lang), score=score_text(p.score, lang)
                )
                for p in seats.get(game.game_id, [])
            ],
        )
        lines.append(
            i18n.t(
                lang,
                ts.HISTORY_ROW,
                date=i18n.day(lang, game.finished_at) if game.finished_at else "-",
                title=title_of(game.game_key),
                players=players,
                link=link_text(game, lang),
            )
        )
    return Answer(discord.Embed(title=clip(heading, 256), colour=COLOUR, description=clip("\n".join(lines), 4000)))
