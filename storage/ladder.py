"""SQL for results, ratings, the leaderboard, stats and history (Database delegates here).

Every function here is synchronous over a Connection: Database runs them through run_sync on
PostgreSQL, and on SQLite straight on a stdlib sqlite3 connection on the loop (one call instead of
a thread hop per statement; WAL readers never wait, and a write that finds the lock taken falls
back to the async path, so the loop never waits for a lock).

Writes run inside the caller's transaction: `record_finish` is the body of Database.finish_game,
so a game's results, its rating updates and its rating history commit together or not at all.
`rerate` rebuilds ratings and history from the results table through the same pure functions
(storage.ratings) in the same order (games.finished_seq), so it reproduces the live numbers exactly.

Over 500 lines: results, ratings, the leaderboard, stats and history are written in one transaction
(`record_finish`) and read through the same SQL helpers, and `rerate` must replay exactly the live
path; keeping them together keeps those two paths one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any

from sqlalchemy import Connection, and_, bindparam, case, delete, func, insert, select, text, update

from storage.engine import dialect_insert
from storage.errors import GameNotFound
from storage.models import GameRow, RatingHistoryRow, RatingRow, ResultRow, SeatRow
from storage.ratings import Standing, rank_by_scores, rate_game, rated_seats, scopes

__all__ = [
    "GameSeat",
    "PlayedGame",
    "ScoreSummary",
    "board_size",
    "game_players",
    "leaderboard",
    "normalise_results",
    "rating_changes",
    "rating_history",
    "record_finish",
    "rerate",
    "score_summary",
    "standing",
    "user_ratings",
    "user_results",
]

_games = GameRow.__table__  # type: ignore[attr-defined]
_seats = SeatRow.__table__  # type: ignore[attr-defined]
_results = ResultRow.__table__  # type: ignore[attr-defined]
_ratings = RatingRow.__table__  # type: ignore[attr-defined]
_history = RatingHistoryRow.__table__  # type: ignore[attr-defined]
# Every rating write on PostgreSQL takes this transaction lock first, so two games finishing at
# once in two processes are rated one after the other, in finished_seq order (SQLite's BEGIN
# IMMEDIATE already serialises writers).
_PG_RATING_LOCK = 0x7261_7465


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """One of a user's finished games, from their seat."""

    game_id: int
    game_key: str
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    finished_at: datetime | None
    seat: int
    rank: int
    score: float
    variant: str | None
    plays: dict[str, int]

    @property
    def link(self) -> str | None:
        """The game's thread (or channel) on Discord; None for a game played in DMs."""
        if self.guild_id is None:
            return None
        return f"https://discord.com/channels/{self.guild_id}/{self.thread_id or self.channel_id}"


@dataclass(frozen=True, slots=True)
class GameSeat:
    seat: int
    user_id: int | None
    ai_level: str | None
    name: str
    rank: int
    score: float


@dataclass(frozen=True, slots=True)
class ScoreSummary:
    game_key: str
    variant: str | None
    games: int
    wins: int
    average: float
    best: float


# --- writing ------------------------------------------------------------------------------------------
def normalise_results(
    game_id: int, results: Iterable[Mapping[str, Any]], variant: str | None, plays: Sequence[Mapping[str, int]] | None
) -> list[dict[str, Any]]:
    """Result rows by seat; a missing score counts 0 and missing ranks come from the scores."""
    rows: list[dict[str, Any]] = []
    for r in results:
        seat = int(r["seat"])
        score = r.get("score")
        rows.append(
            {
                "game_id": game_id,
                "seat": seat,
                "user_id": r.get("user_id"),
                "ai_level": r.get("ai_level"),
                "rank": r.get("rank"),
                "score": float(score) if score is not None else 0.0,
                "breakdown": dict(r.get("breakdown") or {}),
                "variant": variant,
                "plays": dict(plays[seat]) if plays is not None and 0 <= seat < len(plays) else None,
            }
        )
    rows.sort(key=lambda row: row["seat"])
    if any(row["rank"] is None for row in rows):
        derived = rank_by_scores([row["score"] for row in rows])
        for row, rank in zip(rows, derived, strict=True):
            if row["rank"] is None:
                row["rank"] = rank
    for row in rows:
        row["rank"] = int(row["rank"])
    return rows


# The game-end transaction runs a handful of statements, each built once here: building them per
# call (and SQLAlchemy deriving a cache key for each) cost as much as running them on SQLite.
_latest = _games.alias("latest")
_FINISHING_GAME = select(
    _games.c.status,
    _games.c.guild_id,
    _games.c.game_key,
    _games.c.finished_at,
    _games.c.finished_seq,
    select(func.max(_latest.c.finished_seq)).scalar_subquery().label("highest"),
).where(_games.c.id == bindparam("game_id"))  # ix_games_finished_seq
_CLOSE_GAME = (
    update(_games)
    .where(_games.c.id == bindparam("game_id"))
    .values(
        status=bindparam("new_status", type_=_games.c.status.type),
        deadline=None,
        updated_at=bindparam("now", type_=_games.c.updated_at.type),
        finished_at=bindparam("at", type_=_games.c.finished_at.type),
        finished_seq=bindparam("seq", type_=_games.c.finished_seq.type),
        # A game that was played is owed its ending (result, final table, DMs) until the notifier says it
        # was shown (table.delivery); the same transaction, so a restart in between cannot lose it.
        delivered=case((_games.c.version > 0, None), else_=_games.c.delivered),
    )
)
_DELETE_RESULTS = delete(_results).where(_results.c.game_id == bindparam("game_id"))
_INSERT_RESULTS = insert(_results)
_INSERT_HISTORY = insert(_history)
_PRIORS = select(
    _ratings.c.guild_id, _ratings.c.user_id, _ratings.c.mu, _ratings.c.sigma, _ratings.c.games, _ratings.c.wins
).where(
    _ratings.c.guild_id.in_(bindparam("scopes", expanding=True)),
    _ratings.c.game_key == bindparam("game_key"),
    _ratings.c.user_id.in_(bindparam("ids", expanding=True)),
)


def record_finish(conn: Connection, game_id: int, status: str, rows: list[dict[str, Any]], now: datetime) -> None:
    """Close the game, replace its results and, the first time it finishes, rate it.

    Statements: the game with the highest finished_seq (one read), the game's update, the results
    (one executemany; a delete first only if an earlier finish stored some), and when rated the
    priors of every identity in both scopes (one read), the ratings (one executemany upsert) and
    their history (one executemany insert)."""
    if status == "finished":
        _lock_ratings(conn)  # before reading the highest finished_seq (PostgreSQL; SQLite holds its lock)
    game = conn.execute(_FINISHING_GAME, {"game_id": game_id}).first()
    if game is None:
        raise GameNotFound(game_id)
    if game.finished_seq is not None and status != "finished":
        raise ValueError(f"game {game_id} finished and was rated; it cannot become {status!r}")
    finished_at = game.finished_at or now
    # A retry of a finish that already counted replaces the results but does not rate twice.
    rate = status == "finished" and game.finished_seq is None
    seq = int(game.highest or 0) + 1 if rate else game.finished_seq
    conn.execute(_CLOSE_GAME, {"game_id": game_id, "new_status": status, "now": now, "at": finished_at, "seq": seq})
    if game.finished_at is not None:  # only finish_game writes results, and it always sets finished_at
        conn.execute(_DELETE_RESULTS, {"game_id": game_id})
    if rows:
        conn.execute(_INSERT_RESULTS, rows)
    if rate:
        entries = rated_seats((r["user_id"], r["ai_level"], r["rank"]) for r in rows)
        _rate(conn, game_id, game.guild_id, game.game_key, seq, entries, finished_at)


def _lock_ratings(conn: Connection) -> None:
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_RATING_LOCK})


def _ids(entries: Sequence[tuple[int, int]]) -> list[int]:
    return sorted({who for who, _rank in entries})


def _rate(
    conn: Connection,
    game_id: int,
    guild_id: int | None,
    game_key: str,
    seq: int,
    entries: list[tuple[int, int]],
    at: datetime,
) -> None:
    ids = _ids(entries)
    if len(ids) < 2:
        return
    where = scopes(guild_id)
    found = conn.execute(_PRIORS, {"scopes": where, "game_key": game_key, "ids": ids}).all()
    priors: dict[int, dict[int, Standing]] = {scope: {} for scope in where}
    for row in found:
        priors[row.guild_id][row.user_id] = Standing(row.mu, row.sigma, row.games, row.wins)
    rating_rows: list[dict[str, Any]] = []
    history_rows: list[dict[str, Any]] = []
    for scope in where:
        _collect(
            scope, game_id, game_key, seq, entries, rate_game(priors[scope], entries), at, rating_rows, history_rows
        )
    _upsert_ratings(conn, rating_rows)
    conn.execute(_INSERT_HISTORY, history_rows)


def _collect(
    scope: int,
    game_id: int,
    game_key: str,
    seq: int,
    entries: Sequence[tuple[int, int]],
    updated: Mapping[int, Standing],
    at: datetime,
    rating_rows: list[dict[str, Any]],
    history_rows: list[dict[str, Any]],
) -> None:
    best: dict[int, int] = {}
    for who, rank in entries:
        best[who] = min(rank, best.get(who, rank))
    for who, standing in sorted(updated.items()):
        rating_rows.append(
            {
                "guild_id": scope,
                "game_key": game_key,
                "user_id": who,
                "mu": standing.mu,
                "sigma": standing.sigma,
                "games": standing.games,
                "wins": standing.wins,
                "updated_at": at,
                "ordinal": standing.ordinal,
            }
        )
        history_rows.append(
            {
                "game_id": game_id,
                "guild_id": scope,
                "user_id": who,
                "game_key": game_key,
                "seq": seq,
                "rank": best[who],
                "mu": standing.mu,
                "sigma": standing.sigma,
                "ordinal": standing.ordinal,
            }
        )


@cache
def _upsert_statement(dialect: str) -> Any:
    statement = dialect_insert(dialect)(_ratings)
    return statement.on_conflict_do_update(
        index_elements=["guild_id", "game_key", "user_id"],
        set_={name: statement.excluded[name] for name in ("mu", "sigma", "games", "wins", "updated_at", "ordinal")},
    )


def _upsert_ratings(conn: Connection, rows: list[dict[str, Any]]) -> None:
    if rows:
        conn.execute(_upsert_statement(conn.dialect.name), rows)


def upsert_ratings(conn: Connection, rows: list[dict[str, Any]]) -> None:
    """save_ratings: the ordinal always follows mu and sigma."""
    for row in rows:
        row["ordinal"] = row["mu"] - 3 * row["sigma"]
    _upsert_ratings(conn, rows)


def rerate(conn: Connection) -> int:
    """Rebuild ratings and rating_history from the results of finished games; the games rated."""
    _lock_ratings(conn)
    found = (
        conn.execute(
            select(
                _games.c.id,
                _games.c.guild_id,
                _games.c.game_key,
                _games.c.finished_seq,
                _games.c.finished_at,
                _results.c.seat,
                _results.c.user_id,
                _results.c.ai_level,
                _results.c.rank,
            )
            .join(_results, _results.c.game_id == _games.c.id)
            .where(_games.c.status == "finished", _games.c.finished_seq.is_not(None))
            .order_by(_games.c.finished_seq, _results.c.seat)
        )
    ).all()
    standings: dict[tuple[int, str], dict[int, Standing]] = {}
    latest: dict[tuple[int, str, int], dict[str, Any]] = {}
    history_rows: list[dict[str, Any]] = []
    rated = 0
    for game_rows in _by_game(found):
        first = game_rows[0]
        entries = rated_seats((r.user_id, r.ai_level, r.rank) for r in game_rows)
        if len(_ids(entries)) < 2:
            continue
        rated += 1
        for scope in scopes(first.guild_id):
            board = standings.setdefault((scope, first.game_key), {})
            updated = rate_game(board, entries)
            rating_rows: list[dict[str, Any]] = []
            _collect(
                scope,
                first.id,
                first.game_key,
                first.finished_seq,
                entries,
                updated,
                first.finished_at,
                rating_rows,
                history_rows,
            )
            board.update(updated)
            for row in rating_rows:
                latest[(scope, first.game_key, row["user_id"])] = row
    conn.execute(delete(_history))
    conn.execute(delete(_ratings))
    for start in range(0, len(history_rows), 5000):
        conn.execute(insert(_history), history_rows[start : start + 5000])
    rating_rows = list(latest.values())
    for start in range(0, len(rating_rows), 5000):
        conn.execute(insert(_ratings), rating_rows[start : start + 5000])
    return rated


def _by_game(rows: Sequence[Any]) -> Iterable[list[Any]]:
    current: list[Any] = []
    for row in rows:
        if current and current[0].id != row.id:
            yield current
            current = []
        current.append(row)
    if current:
        yield current


# --- reading ------------------------------------------------------------------------------------------
# The statements are built once, here, with bound parameters: building a SQLAlchemy select (aliases,
# subqueries) cost more than running it on SQLite, and a statement built once is also compiled once
# (SQLAlchemy's cache is keyed on the statement's structure).
def _p(name: str, *, expanding: bool = False) -> Any:
    return bindparam(name, expanding=expanding)


def _rating(row: Any) -> RatingRow:
    return RatingRow(**row._mapping)


def _ahead_of(guild_id: Any, game_key: Any, ordinal: Any, user_id: Any) -> Any:
    """How many identities rank before (ordinal, user_id) on a board: two counts that each walk only
    the (guild_id, game_key, ordinal) index. One count with `ordinal > x OR (ordinal = x AND user_id
    < u)` made SQLite walk half the board through the primary key (user_id) and read every row."""
    other = _ratings.alias("ahead_of")
    board = (other.c.guild_id == guild_id, other.c.game_key == game_key, other.c.user_id >= 0)
    better = select(func.count()).select_from(other).where(*board, other.c.ordinal > ordinal).scalar_subquery()
    # Ties on the ordinal are rare: find them by the ordinal (an equality on that index), then compare
    # the user ids of those few rows ("+ 0" keeps SQLite from preferring the primary key's user_id).
    tied = (
        select(func.count())
        .select_from(other)
        .where(*board, other.c.ordinal == ordinal, other.c.user_id + 0 < user_id)
        .scalar_subquery()
    )
    return (better + tied).label("ahead")


def _board_size_of(guild_id: Any, game_key: Any) -> Any:
    other = _ratings.alias("size_of")
    return (
        select(func.count())
        .select_from(other)
        .where(other.c.guild_id == guild_id, other.c.game_key == game_key, other.c.user_id >= 0)
        .scalar_subquery()
    )


# A board ranks people; AI identities (negative ids, storage.ratings) are rated alike but listed apart
# (`ai_board`), so that the bot's own levels do not top a server's ladder.
_BOARD = (_ratings.c.guild_id == _p("guild_id"), _ratings.c.game_key == _p("game_key"), _ratings.c.user_id >= 0)
_AI_BOARD = (
    select(_ratings)
    .where(_ratings.c.guild_id == _p("guild_id"), _ratings.c.game_key == _p("game_key"), _ratings.c.user_id < 0)
    .order_by(_ratings.c.ordinal.desc(), _ratings.c.user_id)
)
_LEADERBOARD = (
    select(_ratings)
    .where(*_BOARD)
    .order_by(_ratings.c.ordinal.desc(), _ratings.c.user_id)
    .limit(_p("limit"))
    .offset(_p("offset"))
)
_BOARD_SIZE = select(func.count()).select_from(_ratings).where(*_BOARD)
# One identity's row with its position (1 + those ahead) and the board's size.
_PLACED_COLUMNS = (
    _ahead_of(_ratings.c.guild_id, _ratings.c.game_key, _ratings.c.ordinal, _ratings.c.user_id),
    _board_size_of(_ratings.c.guild_id, _ratings.c.game_key).label("size"),
)
_STANDING = select(_ratings, *_PLACED_COLUMNS).where(*_BOARD, _ratings.c.user_id == _p("user_id"))
_PLACED = (
    select(_ratings, *_PLACED_COLUMNS)
    .where(_ratings.c.user_id == _p("user_id"), _ratings.c.guild_id.in_(_p("scopes", expanding=True)))
    .order_by(_ratings.c.game_key, _ratings.c.guild_id)
)
_USER_RATINGS = (
    select(_ratings)
    .where(_ratings.c.user_id == _p("user_id"), _ratings.c.guild_id.in_(_p("scopes", expanding=True)))
    .order_by(_ratings.c.game_key, _ratings.c.guild_id)
)
# The newest `limit` rows of one identity's history on one board: a bounded walk backwards on the
# (guild_id, game_key, user_id, seq) index.
_HISTORY_WHERE = (
    _history.c.guild_id == _p("guild_id"),
    _history.c.game_key == _p("game_key"),
    _history.c.user_id == _p("user_id"),
)
_HISTORY = select(_history).where(*_HISTORY_WHERE).order_by(_history.c.seq.desc()).limit(_p("limit"))
_HISTORY_ORDINALS = select(_history.c.ordinal).where(*_HISTORY_WHERE).order_by(_history.c.seq.desc()).limit(_p("limit"))
_GAME_PLAYERS = (
    select(
        _results.c.game_id,
        _results.c.seat,
        _results.c.user_id,
        _results.c.ai_level,
        _results.c.rank,
        _results.c.score,
        _seats.c.name,
    )
    .select_from(
        _results.outerjoin(_seats, and_(_seats.c.game_id == _results.c.game_id, _seats.c.seat == _results.c.seat))
    )
    .where(_results.c.game_id.in_(_p("game_ids", expanding=True)))
    .order_by(_results.c.game_id, _results.c.rank, _results.c.seat)
)


def _placed(row: Any) -> Placed:
    fields = {c.name: row._mapping[c.name] for c in _ratings.columns}
    return Placed(RatingRow(**fields), int(row.ahead) + 1, int(row.size))


def leaderboard(conn: Connection, guild_id: int, game_key: str, limit: int, offset: int) -> list[RatingRow]:
    found = conn.execute(_LEADERBOARD, {"guild_id": guild_id, "game_key": game_key, "limit": limit, "offset": offset})
    return [_rating(row) for row in found.all()]


def ai_board(conn: Connection, guild_id: int, game_key: str) -> list[RatingRow]:
    """The AI identities rated on a board, best first (a handful: one per AI level)."""
    return [_rating(row) for row in conn.execute(_AI_BOARD, {"guild_id": guild_id, "game_key": game_key}).all()]


def board_size(conn: Connection, guild_id: int, game_key: str) -> int:
    return int(conn.execute(_BOARD_SIZE, {"guild_id": guild_id, "game_key": game_key}).scalar_one())


def placed(conn: Connection, guild_id: int, game_key: str, user_id: int) -> Placed | None:
    """The identity's rating on one board with its position and the board's size (one statement)."""
    row = conn.execute(_STANDING, {"guild_id": guild_id, "game_key": game_key, "user_id": user_id}).first()
    return None if row is None else _placed(row)


def standing(conn: Connection, guild_id: int, game_key: str, user_id: int) -> tuple[int, RatingRow] | None:
    """(1-based position on the board, the row), or None if the identity has no rating there."""
    found = placed(conn, guild_id, game_key, user_id)
    return None if found is None else (found.position, found.rating)


def user_ratings(conn: Connection, user_id: int, guild_ids: Sequence[int]) -> list[RatingRow]:
    found = conn.execute(_USER_RATINGS, {"user_id": user_id, "scopes": list(guild_ids)})
    return [_rating(row) for row in found.all()]


def rating_changes(conn: Connection, game_id: int, guild_id: int) -> dict[int, tuple[float | None, float]]:
    """What one finished game did to its players' ratings in one scope: user id -> (the ordinal before
    it, None for a first rated game; the ordinal after it). Empty for a game that was not rated."""
    changes: dict[int, tuple[float | None, float]] = {}
    rows = conn.execute(select(_history).where(_history.c.game_id == game_id, _history.c.guild_id == guild_id)).all()
    for row in rows:
        before = conn.execute(
            select(_history.c.ordinal)
            .where(
                _history.c.guild_id == guild_id,
                _history.c.game_key == row.game_key,
                _history.c.user_id == row.user_id,
                _history.c.seq < row.seq,
            )
            .order_by(_history.c.seq.desc())
            .limit(1)
        ).scalar_one_or_none()
        changes[int(row.user_id)] = (None if before is None else float(before), float(row.ordinal))
    return changes


def rating_history(conn: Connection, guild_id: int, game_key: str, user_id: int, limit: int) -> list[RatingHistoryRow]:
    found = conn.execute(_HISTORY, {"guild_id": guild_id, "game_key": game_key, "user_id": user_id, "limit": limit})
    rows = [RatingHistoryRow(**row._mapping) for row in found.all()]
    rows.reverse()
    return rows


@cache
def _score_summary_query(by_guild: bool) -> Any:
    """Per (game, variant): games, wins, average and best score, in one statement over the user's
    results (the results index on user_id, then each game by its primary key)."""
    conditions = [_results.c.user_id == _p("user_id"), _games.c.status == "finished"]
    if by_guild:
        conditions.append(_games.c.guild_id == _p("guild_id"))
    return (
        select(
            _games.c.game_key,
            _results.c.variant,
            func.count().label("games"),
            func.sum(case((_results.c.rank == 1, 1), else_=0)).label("wins"),
            func.avg(_results.c.score).label("average"),
            func.max(_results.c.score).label("best"),
        )
        .select_from(_results.join(_games, _games.c.id == _results.c.game_id))
        .where(*conditions)
        .group_by(_games.c.game_key, _results.c.variant)
        .order_by(_games.c.game_key, _results.c.variant)
    )


def score_summary(conn: Connection, user_id: int, guild_id: int | None) -> list[ScoreSummary]:
    found = conn.execute(_score_summary_query(guild_id is not None), {"user_id": user_id, "guild_id": guild_id})
    return [
        ScoreSummary(r.game_key, r.variant, int(r.games), int(r.wins or 0), float(r.average), float(r.best))
        for r in found.all()
    ]


@cache
def _user_results_query(by_guild: bool, by_game: bool) -> Any:
    conditions = [_results.c.user_id == _p("user_id"), _games.c.status == "finished"]
    if by_guild:
        conditions.append(_games.c.guild_id == _p("guild_id"))
    if by_game:
        conditions.append(_games.c.game_key == _p("game_key"))
    return (
        select(
            _games.c.id,
            _games.c.game_key,
            _games.c.guild_id,
            _games.c.channel_id,
            _games.c.thread_id,
            _games.c.finished_at,
            _results.c.seat,
            _results.c.rank,
            _results.c.score,
            _results.c.variant,
            _results.c.plays,
        )
        .select_from(_results.join(_games, _games.c.id == _results.c.game_id))
        .where(*conditions)
        .order_by(_games.c.finished_seq.desc(), _games.c.id.desc())
        .limit(_p("limit"))
    )


def user_results(
    conn: Connection, user_id: int, guild_id: int | None, limit: int, game_key: str | None = None
) -> list[PlayedGame]:
    """The user's finished games, newest first."""
    query = _user_results_query(guild_id is not None, game_key is not None)
    found = conn.execute(query, {"user_id": user_id, "guild_id": guild_id, "game_key": game_key, "limit": limit})
    return [
        PlayedGame(
            r.id,
            r.game_key,
            r.guild_id,
            r.channel_id,
            r.thread_id,
            r.finished_at,
            r.seat,
            r.rank,
            r.score,
            r.variant,
            dict(r.plays or {}),
        )
        for r in found.all()
    ]


def game_players(conn: Connection, game_ids: Sequence[int]) -> dict[int, list[GameSeat]]:
    """Each game's seats with names, ranks and scores, best rank first."""
    if not game_ids:
        return {}
    found: dict[int, list[GameSeat]] = {game_id: [] for game_id in game_ids}
    for r in conn.execute(_GAME_PLAYERS, {"game_ids": list(game_ids)}).all():
        found[r.game_id].append(GameSeat(r.seat, r.user_id, r.ai_level, r.name or "", r.rank, r.score))
    return found


# --- one connection per answer ---------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class BoardPage:
    size: int  # identities on the board
    rows: list[RatingRow]  # this page, best first
    mine: tuple[int, RatingRow] | None  # the caller's (position, row) when not on this page


@dataclass(frozen=True, slots=True)
class Placed:
    """A rating with its board position and the board's size."""

    rating: RatingRow
    position: int
    size: int


@dataclass(frozen=True, slots=True)
class PlayerStats:
    summaries: list[ScoreSummary]
    ratings: list[Placed]  # every scope asked for, every game
    history: dict[str, list[float]]  # game key -> ordinal after each game in the main scope, oldest first
    recent: list[PlayedGame]  # newest first
    players: dict[int, list[GameSeat]]  # the seats of the newest `last` games


def board_page(conn: Connection, guild_id: int, game_key: str, user_id: int, limit: int, offset: int) -> BoardPage:
    size = board_size(conn, guild_id, game_key)
    rows = leaderboard(conn, guild_id, game_key, limit, offset) if size else []
    mine = None
    if size and not any(row.user_id == user_id for row in rows):
        mine = standing(conn, guild_id, game_key, user_id)
    return BoardPage(size, rows, mine)


def placed_ratings(conn: Connection, user_id: int, guild_ids: Sequence[int]) -> list[Placed]:
    """The user's ratings with their positions and board sizes, in one statement."""
    return [_placed(row) for row in conn.execute(_PLACED, {"user_id": user_id, "scopes": list(guild_ids)}).all()]


def recent_history(
    conn: Connection, guild_id: int, user_id: int, game_keys: Iterable[str], limit: int
) -> dict[str, list[float]]:
    """Per game, the ordinal after each of the user's last `limit` rated games there, oldest first.

    One bounded statement per game (the user's rated games, at most a handful): a filter without the
    game key cannot use the history index past guild_id, and SQLite read the whole server's history."""
    found: dict[str, list[float]] = {}
    for game_key in sorted(set(game_keys)):
        values = [
            float(v)
            for v in conn.execute(
                _HISTORY_ORDINALS, {"guild_id": guild_id, "game_key": game_key, "user_id": user_id, "limit": limit}
            ).scalars()
        ]
        if values:
            values.reverse()
            found[game_key] = values
    return found


def player_stats(
    conn: Connection,
    user_id: int,
    guild_id: int | None,
    scopes_: Sequence[int],
    history_limit: int,
    recent_limit: int,
    last: int,
) -> PlayerStats:
    summaries = score_summary(conn, user_id, guild_id)
    if not summaries:
        return PlayerStats([], [], {}, [], {})
    placed = placed_ratings(conn, user_id, scopes_)
    rated_here = [p.rating.game_key for p in placed if p.rating.guild_id == scopes_[0]]
    history = recent_history(conn, scopes_[0], user_id, rated_here, history_limit)
    recent = user_results(conn, user_id, guild_id, recent_limit)
    players = game_players(conn, [g.game_id for g in recent[:last]])
    return PlayerStats(summaries, placed, history, recent, players)
