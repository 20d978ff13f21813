"""How a game ends on Discord: the result message, the closed lobby's summary, the players' last DMs,
and the replay's pages (issue 21.6). Pure builders, like bot.messages.present: the notifier and handlers send them.

The result names every player (humans mentioned), ranks them, breaks each score down by the game's own
scoring categories (the engine's outcome "breakdown", labelled by the renderer's `score_categories`),
says how ties were broken (the renderer's `tie_break`) and each human's rating change.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import discord

import games
from bot.messages.components import AnimationButton, RematchButton, ReplayButton, ReplayPageButton
from bot.messages.leaderboards import rating_change_text
from bot.render import renderer_for
from bot.render.kit.generic import COLOUR, TableContext, clip
from bot.render.kit.pool import PictureJob
from bot.texts import i18n, text
from storage import GameRow, SeatRow

RatingChanges = Mapping[int, tuple[float | None, float]]  # user id -> (ordinal before or None, after)


@dataclass(frozen=True)
class Placing:
    """One seat's place in a finished game."""

    seat: int
    rank: int
    score: Any
    breakdown: Mapping[str, Any]


def placings(outcome: Mapping[str, Any], players: int) -> list[Placing]:
    """The seats best first (by rank, then seat), from an engine's outcome."""
    scores = list(outcome.get("scores") or [None] * players)
    ranks = outcome.get("ranking") or outcome.get("ranks") or _ranks_by_score(scores)
    breakdown = outcome.get("breakdown") or [{}] * players
    found = [Placing(s, int(ranks[s] or 0), scores[s], breakdown[s] or {}) for s in range(players)]
    return sorted(found, key=lambda p: (p.rank, p.seat))


def _ranks_by_score(scores: Sequence[Any]) -> list[int]:
    """For an outcome with scores but no ranking: 1 + how many scored more (ties share a rank)."""
    if not all(isinstance(v, int | float) for v in scores):
        return [1] * len(scores)
    return [1 + sum(other > mine for other in scores) for mine in scores]


def number_text(value: Any, lang: str) -> str:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return i18n.number(lang, value)
    return str(value)


def breakdown_text(game_key: str, breakdown: Mapping[str, Any], lang: str) -> str:
    """ "Regions 4 · Continents 2 · Abilities 3": the seat's points in the game's own scoring categories
    (those the renderer names, in its order; a category worth nothing is left out). A category whose
    value is a list (points per round) reads "8 + 12 + 5"."""
    parts = []
    for key, label in renderer_for(game_key).score_categories.items():
        value = breakdown.get(key)
        if isinstance(value, list):
            values = [v.get("total") if isinstance(v, Mapping) else v for v in value]
            if values and all(isinstance(v, int | float) for v in values):
                parts.append(
                    i18n.t(
                        lang,
                        text.RESULT_CATEGORY,
                        name=i18n.t(lang, label),
                        points=" + ".join(number_text(v, lang) for v in values),
                    )
                )
        elif isinstance(value, int | float) and not isinstance(value, bool) and value:
            parts.append(i18n.t(lang, text.RESULT_CATEGORY, name=i18n.t(lang, label), points=number_text(value, lang)))
    return " · ".join(parts)


def tie_lines(game_key: str, placed: Sequence[Placing], names: Sequence[str], lang: str) -> list[str]:
    """One line per group of players with equal scores: the game's tie-break when it separated them,
    else that they share the place."""
    lines = []
    by_score: dict[Any, list[Placing]] = {}
    for p in placed:
        by_score.setdefault(p.score, []).append(p)
    rule = renderer_for(game_key).tie_break
    for score, group in by_score.items():
        if len(group) < 2:
            continue
        who = i18n.listing(lang, [names[p.seat] for p in group])
        points = number_text(score, lang)
        if len({p.rank for p in group}) > 1 and rule:
            lines.append(i18n.t(lang, text.RESULT_TIE_BROKEN, names=who, score=points, rule=i18n.t(lang, rule)))
        else:
            lines.append(i18n.t(lang, text.RESULT_TIE_SHARED, names=who, score=points))
    return lines


def rating_change(changes: RatingChanges, user_id: int | None, lang: str) -> str | None:

    if user_id is None or user_id not in changes:
        return None
    before, after = changes[user_id]
    return rating_change_text(before, after, lang)


def result_message(
    game: GameRow, seats: Sequence[SeatRow], outcome: Mapping[str, Any], changes: RatingChanges, lang: str
) -> tuple[str, discord.Embed, discord.ui.View]:
    """The result posted in the thread: the mentions (content: Discord notifies the players), and an
    embed with the ranking, each score's breakdown, the ties, the rating changes; Rematch and Replay."""
    assert game.id is not None
    names = [s.name for s in seats]
    placed = placings(outcome, len(seats))
    lines = []
    for p in placed:
        seat = seats[p.seat]
        who = f"<@{seat.user_id}>" if seat.user_id is not None else seat.name
        line = i18n.t(lang, text.RESULT_PLACE, rank=p.rank, who=who, score=number_text(p.score, lang))
        detail = breakdown_text(game.game_key, p.breakdown, lang)
        if detail:
            line += "\n-# " + detail
        change = rating_change(changes, seat.user_id, lang)
        if change:
            line += "\n-# " + i18n.t(lang, text.RESULT_RATING, change=change)
        lines.append(line)
    ties = tie_lines(game.game_key, placed, names, lang)
    title = games.get(game.game_key).title
    embed = discord.Embed(
        title=clip(i18n.t(lang, text.RESULT_TITLE, title=title, game_id=game.id), 256),
        colour=discord.Colour.green(),
        description=clip("\n".join(lines), 4000),
    )
    if ties:
        embed.add_field(name=i18n.t(lang, text.RESULT_TIES), value=clip("\n".join(ties), 1024), inline=False)
    winners = [names[p.seat] for p in placed if p.rank == placed[0].rank]
    mentions = " ".join(f"<@{s.user_id}>" for s in seats if s.user_id is not None)
    content = i18n.tn(lang, text.RESULT_CONTENT, len(winners), names=i18n.listing(lang, winners), mentions=mentions)
    return clip(content, 2000), embed, result_view(game.id, lang)


def result_view(game_id: int, lang: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(RematchButton(game_id, label=i18n.t(lang, text.BUTTON_REMATCH)))
    view.add_item(ReplayButton(game_id, label=i18n.t(lang, text.BUTTON_REPLAY)))
    return view


def summary(game: GameRow, seats: Sequence[SeatRow], outcome: Mapping[str, Any], lang: str) -> str:
    """One line of the ranking: "1. Alice 34 · 2. Bob 30 · 3. AI 1 (heuristic) 22"."""
    placed = placings(outcome, len(seats))
    return " · ".join(
        i18n.t(lang, text.RESULT_SHORT, rank=p.rank, name=seats[p.seat].name, score=number_text(p.score, lang))
        for p in placed
    )


def closed_lobby(game: GameRow, seats: Sequence[SeatRow], outcome: Mapping[str, Any], lang: str) -> str:
    """What the lobby message in the channel says once the game is over: the ranking and where it was played."""
    where = f"<#{game.thread_id or game.channel_id}>"
    title = games.get(game.game_key).title
    return clip(
        i18n.t(lang, text.LOBBY_FINISHED, title=title, ranking=summary(game, seats, outcome, lang), where=where), 2000
    )


def own_result(seats: Sequence[SeatRow], seat: int, outcome: Mapping[str, Any], where: str, lang: str) -> str:
    """The line a player's last DM opens with: their place and the ranking, with a link to the result."""
    placed = placings(outcome, len(seats))
    mine = next(p for p in placed if p.seat == seat)
    return i18n.t(
        lang,
        text.DM_FINISHED,
        rank=mine.rank,
        players=len(seats),
        score=number_text(mine.score, lang),
        where=where,
    )


# --- the replay --------------------------------------------------------------------------------------
@dataclass
class ReplayPage:
    """One turn of a finished game: what happened, and the public view right after it."""

    line: str
    view: dict[str, Any]
    outcome: Mapping[str, Any] | None = None  # on the last page: how the game ended


def replay_pages(
    game: GameRow, seats: Sequence[SeatRow], moves: Sequence[tuple[int, list[str]]], lang: str
) -> list[ReplayPage]:
    """The game's turns rebuilt from its seed and action log: a page whenever the seat to act changes
    (a whole turn of several steps is one page; a simultaneous phase is one page when revealed) and
    something was narrated."""
    engine = games.get(game.game_key)
    renderer = renderer_for(game.game_key)
    names = [s.name for s in seats]
    assert game.id is not None
    ctx = TableContext(engine.title, game.id, names, [], None, lang)
    state = engine.new(len(seats), game.seed, game.options)
    pages: list[ReplayPage] = []
    events: list[dict[str, Any]] = []
    for index, (seat, action) in enumerate(moves):
        events += [e for e in engine.apply(state, seat, list(action)) if "to" not in e]
        following = moves[index + 1][0] if index + 1 < len(moves) else None
        if following == seat:
            continue  # the same seat goes on: one turn, one page
        line = renderer.log_line(events, ctx)
        if line:
            pages.append(ReplayPage(line, engine.view(state, None)))
            events = []
    if pages:
        pages[-1].outcome = engine.outcome(state)
    return pages


def replay_message(
    game: GameRow, seats: Sequence[SeatRow], pages: Sequence[ReplayPage], page: int, lang: str
) -> tuple[discord.Embed, discord.ui.View, PictureJob | None]:
    """One page of the replay (an ephemeral answer), with Previous/Next and the picture of that moment."""
    assert game.id is not None
    title = games.get(game.game_key).title
    page = max(0, min(page, len(pages) - 1))
    renderer = renderer_for(game.game_key)
    embed = discord.Embed(title=clip(i18n.t(lang, text.REPLAY_TITLE, title=title, game_id=game.id), 256), colour=COLOUR)
    view = discord.ui.View(timeout=None)
    if not pages:
        embed.description = i18n.t(lang, text.REPLAY_EMPTY)
        return embed, view, None
    embed.description = clip(pages[page].line, 4000)
    embed.set_footer(text=i18n.t(lang, text.REPLAY_PAGE, page=page + 1, pages=len(pages)))
    for target, label, disabled in (
        (page - 1, text.BUTTON_PREVIOUS, page == 0),
        (page + 1, text.BUTTON_NEXT, page >= len(pages) - 1),
    ):
        view.add_item(ReplayPageButton(game.id, max(0, target), label=i18n.t(lang, label), disabled=disabled))
    names = tuple(s.name for s in seats)
    picture = PictureJob(renderer, "image", (pages[page].view, lang, names)) if renderer.pictured() else None
    if picture is not None:  # the whole game in one picture, on request (seconds to draw: bot.render.kit.animation)
        view.add_item(AnimationButton(game.id, label=i18n.t(lang, text.BUTTON_ANIMATION)))
    return embed, view, picture


def animation_job(game: GameRow, seats: Sequence[SeatRow], pages: Sequence[ReplayPage], lang: str) -> PictureJob:
    """The animated replay: the public picture after each turn, under "Turn N of M", the last one saying so."""
    renderer = renderer_for(game.game_key)
    count = len(pages)
    labels = [i18n.t(lang, text.REPLAY_PAGE, page=i + 1, pages=count) for i in range(count)]
    if labels:
        labels[-1] = f"{labels[-1]} · {i18n.t(lang, text.ANIMATION_LAST)}"
    names = tuple(s.name for s in seats)
    return PictureJob(renderer, "animation", ([p.view for p in pages], labels, lang, names))


def animation_text(game: GameRow, seats: Sequence[SeatRow], pages: Sequence[ReplayPage], lang: str) -> str:
    """What a screen reader says of the animated replay: the game, its turns, and how it ended."""
    assert game.id is not None
    title = games.get(game.game_key).title
    outcome = pages[-1].outcome if pages else None
    result = summary(game, seats, outcome, lang) if outcome is not None else ""
    said = i18n.t(lang, text.ANIMATION_ALT, title=title, game_id=game.id, turns=len(pages), result=result)
    return clip(said.strip(), 1024)
