"""What a tournament looks like: its sign-up message (kept up to date while it runs), the opening of a round
with its tables, a round's results with the standings (words and a picture), and the podium. Built from the
tournament service's `TournamentStatus`, in the server's language; pure, like the rest of bot.messages.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

import discord

import games
from bot.messages.components import TournamentButton
from bot.messages.outgoing import Outgoing
from bot.messages.present import timer_text
from bot.render.kit.generic import COLOUR, clip
from bot.render.kit.pool import PictureJob
from bot.render.kit.standings import StandingsPicture
from bot.texts import i18n, text
from bot.texts import text_tournaments as tt
from table.tournaments.records import TournamentStatus
from table.tournaments.standings import Standing, TableResult

SHOWN_ENTRANTS = 40  # names listed on the sign-up message (the rest counted)
SHOWN_STANDINGS = 20  # lines of standings in words (the picture shows up to its own limit)
PODIUM_GOLD = 0xD4A017
TROPHY = "🏆"  # before the champion's line (outside the catalogs: the pictures' font has no emoji)


def title(status: TournamentStatus, lang: str) -> str:
    return i18n.t(lang, tt.TITLE, title=games.get(status.tournament.game_key).title, id=status.tournament.id)


def mention_list(users: list[int], lang: str) -> str:
    return i18n.listing(lang, [f"<@{u}>" for u in users])


def points_text(points: Fraction, lang: str) -> str:
    """Points as a player reads them: whole, or with one decimal (a shared place gives halves, thirds)."""
    value: float = int(points) if points.denominator == 1 else round(float(points), 2)
    return i18n.number(lang, value)


def points_words(points: Fraction, lang: str) -> str:
    """ "3 points", "1 point", "1.5 points" (a fraction takes the plural)."""
    count = int(points) if points.denominator == 1 else 2
    return i18n.tn(lang, tt.POINTS, count, count=points_text(points, lang))


def signup(status: TournamentStatus, lang: str) -> Outgoing:
    """The tournament's message in its channel: what it is, who entered, and where it stands."""
    row, options = status.tournament, status.options
    assert row.id is not None
    rounds = (
        i18n.tn(lang, tt.ROUNDS, options.rounds)
        if options.rounds and row.format == "swiss"
        else i18n.t(lang, tt.ROUNDS_BY_ENTRANTS)
        if row.format == "swiss"
        else i18n.t(lang, tt.FORMATS[row.format])
    )
    lines = [
        i18n.t(
            lang,
            tt.SUMMARY,
            format=i18n.t(lang, tt.FORMATS.get(row.format, row.format)),
            size=options.table_size,
            rounds=rounds,
            timer=timer_text(options.turn_seconds, lang),
        ),
        i18n.t(
            lang,
            tt.RULES_LINE,
            no_show=i18n.t(lang, tt.NO_SHOW_RULES.get(options.no_show, options.no_show)),
            deadline=i18n.t(lang, tt.DEADLINE_RULES.get(options.deadline_rule, options.deadline_rule)),
        ),
    ]
    if options.round_seconds:
        lines.append(i18n.tn(lang, tt.ROUND_LIMIT, max(1, options.round_seconds // 3600)))
    lines.append(i18n.t(lang, tt.HOSTED_BY, host=f"<@{row.host_id}>"))
    if row.status == "signup" and row.starts_at is not None:
        lines.append(i18n.t(lang, tt.STARTS, when=discord.utils.format_dt(row.starts_at, "R")))
    embed = discord.Embed(title=clip(title(status, lang), 256), colour=COLOUR, description="\n".join(lines))
    names = [_entrant_line(status, e.user_id, lang) for e in status.entrants]
    shown = names[:SHOWN_ENTRANTS]
    if len(names) > len(shown):
        shown.append(i18n.tn(lang, tt.AND_MORE, len(names) - len(shown)))
    heading = (
        i18n.t(lang, tt.ENTRANTS_CAPPED, count=len(names), cap=row.max_entrants)
        if row.max_entrants
        else i18n.t(lang, tt.ENTRANTS, count=len(names))
    )
    embed.add_field(name=heading, value=clip("\n".join(shown) or i18n.t(lang, tt.NOBODY_YET), 1024), inline=False)
    embed.add_field(name="\u200b", value=clip(_state_line(status, lang), 1024), inline=False)
    view = None
    if row.status == "signup":
        view = discord.ui.View(timeout=None)
        for action, label in (
            ("join", text.BUTTON_JOIN),
            ("leave", text.BUTTON_LEAVE),
            ("start", text.BUTTON_START),
            ("cancel", text.BUTTON_CANCEL),
        ):
            view.add_item(TournamentButton(row.id, action, label=i18n.t(lang, label)))
    return Outgoing(embeds=[embed], view=view)


def _entrant_line(status: TournamentStatus, user_id: int, lang: str) -> str:
    entrant = next(e for e in status.entrants if e.user_id == user_id)
    if entrant.status == "active":
        return entrant.name
    gone = tt.WITHDRAWN if entrant.status == "withdrawn" else tt.DROPPED
    return f"~~{entrant.name}~~ ({i18n.t(lang, gone)})"


def _state_line(status: TournamentStatus, lang: str) -> str:
    row = status.tournament
    if row.status == "signup":
        return i18n.t(lang, tt.SIGNUP_OPEN)
    if row.status == "cancelled":
        return i18n.t(lang, tt.CANCELLED)
    if row.status == "finished":
        champion = status.champion
        return i18n.t(lang, tt.FINISHED, champion=f"<@{champion}>" if champion is not None else "-")
    where = f"<#{row.thread_id}>" if row.thread_id else f"<#{row.channel_id}>"
    return i18n.t(lang, tt.RUNNING, round=row.current_round, where=where)


def round_opened(status: TournamentStatus, number: int, threads: Mapping[int, int | None], lang: str) -> str:
    """The round's tables, each with its players (mentioned: they are notified) and where its game is
    (`threads`: game id -> its thread), the byes, and the round's deadline."""
    found = next((r for r in status.rounds if r.number == number), None)
    total = status.options.rounds if status.tournament.format == "swiss" else len(status.rounds) or None
    head = (
        i18n.t(lang, tt.ROUND_OPENED, round=number, rounds=total)
        if total and status.tournament.format != "knockout"
        else i18n.t(lang, tt.ROUND_OPENED_OPEN, round=number)
    )
    lines = [head]
    if found is None:
        return head
    for table in found.tables:
        players = mention_list(list(table.entrants), lang)
        if table.game_id is None:
            lines.append(i18n.t(lang, tt.TABLE_RESOLVED, table=table.index + 1, players=players))
            continue
        thread = threads.get(table.game_id)
        where = f"<#{thread}>" if thread else f"#{table.game_id}"
        lines.append(i18n.t(lang, tt.TABLE_LINE, table=table.index + 1, players=players, where=where))
    if found.pairing.byes:
        lines.append(i18n.t(lang, tt.BYES, names=mention_list(list(found.pairing.byes), lang)))
    if found.deadline is not None:
        lines.append(i18n.t(lang, tt.DEADLINE, when=discord.utils.format_dt(found.deadline, "R")))
    return "\n".join(lines)


def round_finished(status: TournamentStatus, number: int, lang: str) -> Outgoing:
    """The round's results, table by table, and the standings after it (words, and a picture)."""
    found = next((r for r in status.rounds if r.number == number), None)
    lines = [i18n.t(lang, tt.ROUND_FINISHED, round=number)]
    for table in found.tables if found is not None else ():
        if table.result is None:
            continue
        order = sorted(table.result.ranks.items(), key=lambda item: (item[1], item[0]))
        ranking = " · ".join(f"{rank}. {_at_table(status, table.result, entrant, lang)}" for entrant, rank in order)
        lines.append(i18n.t(lang, tt.TABLE_RESULT, table=table.index + 1, ranking=ranking))
    message = standings(status, lang, heading=i18n.t(lang, tt.STANDINGS_AFTER, round=number))
    message.content = clip("\n".join(lines), 2000)
    return message


def _at_table(status: TournamentStatus, result: TableResult, entrant: int, lang: str) -> str:
    """An entrant's name in a table's result, marked when they did not show (a loss whatever their AI did)."""
    name = status.name(entrant)
    return i18n.t(lang, tt.DID_NOT_SHOW, name=name) if entrant in result.forfeited else name


def standings(status: TournamentStatus, lang: str, *, heading: str | None = None) -> Outgoing:
    """The standings in words (rank, name, points, Buchholz) with their picture."""
    embed = discord.Embed(title=clip(heading or i18n.t(lang, tt.STANDINGS_FINAL), 256), colour=COLOUR, description=None)
    embed.set_author(name=clip(title(status, lang), 256))
    if not status.standings or not any(s.played or s.byes for s in status.standings):
        embed.description = i18n.t(lang, tt.STANDINGS_NONE)
        return Outgoing(embeds=[embed])
    lines = [_standing_line(status, s, lang) for s in status.standings[:SHOWN_STANDINGS]]
    if len(status.standings) > SHOWN_STANDINGS:
        lines.append(i18n.tn(lang, tt.AND_MORE, len(status.standings) - SHOWN_STANDINGS))
    embed.description = clip("\n".join(lines), 4096)
    rows = tuple(
        (s.rank, status.name(s.entrant), points_text(s.points, lang), points_text(s.buchholz, lang), s.withdrawn)
        for s in status.standings
    )
    headers = (i18n.t(lang, tt.POINTS_HEADER), i18n.t(lang, tt.BUCHHOLZ_HEADER))
    picture = PictureJob(StandingsPicture(), "draw", (heading or i18n.t(lang, tt.STANDINGS_FINAL), headers, rows))
    return Outgoing(embeds=[embed], picture=picture)


def _standing_line(status: TournamentStatus, standing: Standing, lang: str) -> str:
    params = {
        "rank": standing.rank,
        "name": status.name(standing.entrant),
        "points": points_words(standing.points, lang),
        "buchholz": points_text(standing.buchholz, lang),
    }
    if standing.withdrawn:
        return i18n.t(lang, tt.STANDING_LINE_GONE, status=i18n.t(lang, tt.WITHDRAWN), **params)
    return i18n.t(lang, tt.STANDING_LINE, **params)


def podium(status: TournamentStatus, lang: str) -> Outgoing:
    """The end: the champion and the podium, mentioned (they are notified), and the final standings."""
    places = list(status.podium) or [s.entrant for s in status.standings[:3]]
    champion = status.champion if status.champion is not None else (places[0] if places else None)
    lines = []
    if champion is not None:
        lines.append(
            TROPHY
            + " "
            + i18n.t(
                lang,
                tt.PODIUM,
                champion=f"<@{champion}>",
                title=games.get(status.tournament.game_key).title,
                id=status.tournament.id,
            )
        )
    others = [p for p in places if p != champion]
    if len(others) >= 2:
        lines.append(i18n.t(lang, tt.PODIUM_PLACES, second=f"<@{others[0]}>", third=f"<@{others[1]}>"))
    elif others:
        lines.append(i18n.t(lang, tt.PODIUM_SECOND, second=f"<@{others[0]}>"))
    message = standings(status, lang)
    message.content = "\n".join(lines) or None
    if message.embeds:
        message.embeds[0].colour = discord.Colour(PODIUM_GOLD)
    return message
