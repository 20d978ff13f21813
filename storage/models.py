"""The tables (SQLModel). Migrations in storage/migrations create exactly these; keep them in step.

Ids from Discord are snowflakes (BIGINT). Every table row belongs to a game except ratings
(and guild_settings and user_settings, declared in storage/rows.py; the tournaments' tables are in
storage/tournaments.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import BigInteger, Boolean, Column, Float, ForeignKey, Index, Integer, String
from sqlalchemy.orm import configure_mappers, instrumentation
from sqlmodel import Field, SQLModel

from storage.types import JSONText, UTCDateTime

__all__ = ["STATUSES", "ActionRow", "GameRow", "RatingHistoryRow", "RatingRow", "ResultRow", "SeatRow", "loaded"]

STATUSES = ("lobby", "active", "finished", "abandoned", "broken")
RUNNING = ("lobby", "active")
# A game whose players were not shown all it committed (table.delivery): what the partial index
# ix_games_owed holds, and what the owed query says word for word, so SQLite uses it.
OWED = "delivered IS NULL OR delivered < version"

# SQLite only auto-numbers a column declared exactly INTEGER PRIMARY KEY.
_GameId = BigInteger().with_variant(Integer(), "sqlite")


def _game_fk() -> Column[Any]:
    return Column(
        "game_id",
        BigInteger().with_variant(Integer(), "sqlite"),
        ForeignKey("games.id", ondelete="CASCADE"),
        primary_key=True,
    )


class GameRow(SQLModel, table=True):
    __tablename__ = "games"
    __table_args__ = (
        Index("ix_games_channel_status", "channel_id", "status"),
        Index("ix_games_thread", "thread_id"),
        Index("ix_games_status_deadline", "status", "deadline"),
        Index("ix_games_guild_key", "guild_id", "game_key"),
        Index("ix_games_finished_seq", "finished_seq"),
        # The games owed something after a restart (storage.repositories.delivery): partial, WHERE `OWED`, as
        # migration 0008 creates it (the schema is only ever made by the migrations). Its predicate is not
        # declared here: postgresql_where would import the PostgreSQL dialect at every start-up, SQLite's too.
        Index("ix_games_owed", "id"),
        Index("ix_games_tournament", "tournament_id", "tournament_round"),
    )

    id: int | None = Field(default=None, sa_column=Column("id", _GameId, primary_key=True, autoincrement=True))
    guild_id: int | None = Field(default=None, sa_column=Column("guild_id", BigInteger, nullable=True))
    channel_id: int = Field(sa_column=Column("channel_id", BigInteger, nullable=False))
    thread_id: int | None = Field(default=None, sa_column=Column("thread_id", BigInteger, nullable=True))
    game_key: str = Field(sa_column=Column("game_key", String(40), nullable=False))
    options: dict[str, Any] = Field(default_factory=dict, sa_column=Column("options", JSONText, nullable=False))
    status: str = Field(default="lobby", sa_column=Column("status", String(12), nullable=False))
    host_id: int = Field(sa_column=Column("host_id", BigInteger, nullable=False))
    seed: int = Field(sa_column=Column("seed", BigInteger, nullable=False))
    state: dict[str, Any] | None = Field(default=None, sa_column=Column("state", JSONText, nullable=True))
    version: int = Field(default=0, sa_column=Column("version", Integer, nullable=False))
    deadline: datetime | None = Field(default=None, sa_column=Column("deadline", UTCDateTime, nullable=True))
    reminded: bool = Field(default=False, sa_column=Column("reminded", Boolean, nullable=False))
    turn_seconds: int | None = Field(default=None, sa_column=Column("turn_seconds", Integer, nullable=True))
    lobby_message_id: int | None = Field(default=None, sa_column=Column("lobby_message_id", BigInteger))
    table_message_id: int | None = Field(default=None, sa_column=Column("table_message_id", BigInteger))
    # The version whose public log line was last posted (None: a game from before this was kept). At
    # start-up, a game behind this (the process stopped between a commit and its post) gets its line.
    announced: int | None = Field(default=None, sa_column=Column("announced", Integer, nullable=True))
    # What Discord confirmed the players were shown (migration 0007, table.delivery): the version the table
    # message shows, and the version up to which everything was shown (for an ended game: its ending too;
    # None: not known to be). Start-up repairs only the games whose `delivered` is behind their version.
    table_version: int | None = Field(default=None, sa_column=Column("table_version", Integer, nullable=True))
    delivered: int | None = Field(default=None, sa_column=Column("delivered", Integer, nullable=True))
    broken_reason: str | None = Field(default=None, sa_column=Column("broken_reason", String(500)))
    created_at: datetime = Field(sa_column=Column("created_at", UTCDateTime, nullable=False))
    updated_at: datetime = Field(sa_column=Column("updated_at", UTCDateTime, nullable=False))
    # When the game ended (finished or abandoned), and the order finished games were rated in.
    finished_at: datetime | None = Field(default=None, sa_column=Column("finished_at", UTCDateTime, nullable=True))
    finished_seq: int | None = Field(default=None, sa_column=Column("finished_seq", BigInteger, nullable=True))
    # The tournament and round the game is a table of (migration 0009; None: an ordinary game).
    tournament_id: int | None = Field(default=None, sa_column=Column("tournament_id", BigInteger, nullable=True))
    tournament_round: int | None = Field(default=None, sa_column=Column("tournament_round", Integer, nullable=True))


class SeatRow(SQLModel, table=True):
    __tablename__ = "seats"
    __table_args__ = (Index("ix_seats_user", "user_id"),)

    game_id: int = Field(sa_column=_game_fk())
    seat: int = Field(sa_column=Column("seat", Integer, primary_key=True))
    user_id: int | None = Field(default=None, sa_column=Column("user_id", BigInteger, nullable=True))
    ai_level: str | None = Field(default=None, sa_column=Column("ai_level", String(20), nullable=True))
    name: str = Field(default="", sa_column=Column("name", String(100), nullable=False))
    dm_channel_id: int | None = Field(default=None, sa_column=Column("dm_channel_id", BigInteger))
    dm_message_id: int | None = Field(default=None, sa_column=Column("dm_message_id", BigInteger))
    dm_failed: bool = Field(default=False, sa_column=Column("dm_failed", Boolean, nullable=False))
    afk_count: int = Field(default=0, sa_column=Column("afk_count", Integer, nullable=False))
    ai_controlled: bool = Field(default=False, sa_column=Column("ai_controlled", Boolean, nullable=False))
    locale: str | None = Field(default=None, sa_column=Column("locale", String(16), nullable=True))
    # The private window as delivered (migration 0007, table.delivery): the version it shows, a digest of
    # the prompt it shows (0: none; table.core.prompt_digest) and whether that prompt is unanswered.
    dm_version: int | None = Field(default=None, sa_column=Column("dm_version", Integer, nullable=True))
    dm_prompt: int | None = Field(default=None, sa_column=Column("dm_prompt", BigInteger, nullable=True))
    dm_live: bool | None = Field(default=None, sa_column=Column("dm_live", Boolean, nullable=True))


class ActionRow(SQLModel, table=True):
    """The append-only log: seq is the game version this action produced (the first action gives 2)."""

    __tablename__ = "actions"

    game_id: int = Field(sa_column=_game_fk())
    seq: int = Field(sa_column=Column("seq", Integer, primary_key=True))
    seat: int = Field(sa_column=Column("seat", Integer, nullable=False))
    action: list[str] = Field(sa_column=Column("action", JSONText, nullable=False))
    afk: bool = Field(default=False, sa_column=Column("afk", Boolean, nullable=False))
    at: datetime = Field(sa_column=Column("at", UTCDateTime, nullable=False))


class ResultRow(SQLModel, table=True):
    __tablename__ = "results"
    __table_args__ = (Index("ix_results_user", "user_id"),)

    game_id: int = Field(sa_column=_game_fk())
    seat: int = Field(sa_column=Column("seat", Integer, primary_key=True))
    user_id: int | None = Field(default=None, sa_column=Column("user_id", BigInteger, nullable=True))
    ai_level: str | None = Field(default=None, sa_column=Column("ai_level", String(20), nullable=True))
    rank: int = Field(sa_column=Column("rank", Integer, nullable=False))
    score: float = Field(sa_column=Column("score", Float, nullable=False))
    breakdown: dict[str, Any] = Field(default_factory=dict, sa_column=Column("breakdown", JSONText, nullable=False))
    # The scoring variant whose scores stand apart (storage.plays.variant), and the seat's plays.
    variant: str | None = Field(default=None, sa_column=Column("variant", String(40), nullable=True))
    plays: dict[str, int] | None = Field(default=None, sa_column=Column("plays", JSONText, nullable=True))


class RatingRow(SQLModel, table=True):
    """One identity's rating for one game in one scope: a guild id, or 0 for the global rating.

    user_id is a Discord user id, or a reserved negative id for an AI level (storage.ratings).
    """

    __tablename__ = "ratings"
    __table_args__ = (
        Index("ix_ratings_ordinal", "guild_id", "game_key", "ordinal"),
        Index("ix_ratings_user", "user_id"),
    )

    guild_id: int = Field(sa_column=Column("guild_id", BigInteger, primary_key=True))
    game_key: str = Field(sa_column=Column("game_key", String(40), primary_key=True))
    user_id: int = Field(sa_column=Column("user_id", BigInteger, primary_key=True))
    mu: float = Field(sa_column=Column("mu", Float, nullable=False))
    sigma: float = Field(sa_column=Column("sigma", Float, nullable=False))
    games: int = Field(default=0, sa_column=Column("games", Integer, nullable=False))
    wins: int = Field(default=0, sa_column=Column("wins", Integer, nullable=False))
    updated_at: datetime = Field(sa_column=Column("updated_at", UTCDateTime, nullable=False))
    # mu - 3 sigma, kept in step by every write so the leaderboard reads an index in order.
    ordinal: float = Field(default=0.0, sa_column=Column("ordinal", Float, nullable=False))


class RatingHistoryRow(SQLModel, table=True):
    """An identity's rating in one scope right after one rated game (trends and the chart)."""

    __tablename__ = "rating_history"
    __table_args__ = (Index("ix_rating_history_player", "guild_id", "game_key", "user_id", "seq"),)

    game_id: int = Field(sa_column=_game_fk())
    guild_id: int = Field(sa_column=Column("guild_id", BigInteger, primary_key=True))
    user_id: int = Field(sa_column=Column("user_id", BigInteger, primary_key=True))
    game_key: str = Field(sa_column=Column("game_key", String(40), nullable=False))
    seq: int = Field(sa_column=Column("seq", BigInteger, nullable=False))  # the game's finished_seq
    rank: int = Field(sa_column=Column("rank", Integer, nullable=False))
    mu: float = Field(sa_column=Column("mu", Float, nullable=False))
    sigma: float = Field(sa_column=Column("sigma", Float, nullable=False))
    ordinal: float = Field(sa_column=Column("ordinal", Float, nullable=False))


Row = TypeVar("Row", bound=SQLModel)
configure_mappers()  # what a row's first construction would do; `loaded` builds rows without it


def loaded(cls: type[Row], values: Mapping[str, Any]) -> Row:
    """A row object from every column's value, built the way SQLAlchemy builds the objects it loads:
    its attribute dictionary filled at once. `cls(**values)` sends each value through SQLModel's and
    SQLAlchemy's per-attribute machinery (about 0.3 ms for a game row; this takes ~15 us), and the
    storage hot path builds a game row and its seats on every decision. `values` must name every field."""
    row: Row = instrumentation.manager_of_class(cls).new_instance()
    row.__dict__.update(values)
    object.__setattr__(row, "__pydantic_fields_set__", set(values))
    return row
