"""The tournaments' tables (SQLModel; migrations 0009_tournaments and 0010_entrant_locale create exactly these)
and their errors.

A tournament (`tournaments`) has entrants (`tournament_entrants`), rounds (`tournament_rounds`: each round's
pairing as JSON) and each round's tables (`tournament_tables`: one row per table of a round, reserved with
the pairing, its game id set in the same transaction that creates the game, and its result once the game
ended or was resolved). The primary key (tournament, round, table index) of a table row is what keeps a
table from ever being opened twice; a game belongs to at most one table (a unique index on game_id).
`games.tournament_id` / `games.tournament_round` (storage.models.GameRow) say which tournament and round
a game was played for. The rules (formats, pairing, standings, when a round opens) are the table service's
(table.tournaments); storage only keeps them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    String,
)
from sqlalchemy.orm import configure_mappers
from sqlmodel import Field, SQLModel

from storage.errors import StorageError
from storage.types import JSONText, UTCDateTime

__all__ = [
    "ENTRANT_STATUSES",
    "ROUND_STATUSES",
    "TABLE_OUTCOMES",
    "TOURNAMENT_FORMATS",
    "TOURNAMENT_STATUSES",
    "EntrantRow",
    "EntryRefused",
    "RoundRow",
    "TournamentConflict",
    "TournamentNotFound",
    "TournamentRow",
    "TournamentTableRow",
]

TOURNAMENT_FORMATS = ("swiss", "knockout", "round-robin")
TOURNAMENT_STATUSES = ("signup", "running", "finished", "cancelled")
ENTRANT_STATUSES = ("active", "withdrawn", "dropped")
ROUND_STATUSES = ("pairing", "open", "finished")
# How a table's result came about: its game finished; nobody (or one player) was left to play it; the
# game was ranked by its scores as they stood (a round deadline, or a game abandoned mid-way).
TABLE_OUTCOMES = ("game", "walkover", "scores")

# SQLite only auto-numbers a column declared exactly INTEGER PRIMARY KEY.
_Id = BigInteger().with_variant(Integer(), "sqlite")


class TournamentConflict(StorageError):
    """The tournament moved on since the caller read it (its version changed), or what the caller meant
    to add exists already (a round or a table stored by another process first). Nothing was written."""

    def __init__(self, tournament_id: int, expected: int | None, actual: int | None, what: str = "") -> None:
        self.tournament_id = tournament_id
        self.expected = expected
        self.actual = actual
        detail = f" ({what})" if what else ""
        super().__init__(f"tournament {tournament_id} is at version {actual}, not {expected}{detail}")


class TournamentNotFound(StorageError, LookupError):
    """No tournament has this id."""

    def __init__(self, tournament_id: int) -> None:
        self.tournament_id = tournament_id
        super().__init__(f"no tournament with id {tournament_id}")


class EntryRefused(StorageError):
    """An entry the tournament cannot take. `reason`: "closed" (not in sign-up any more), "full" (the cap
    is reached) or "entered" (the user is on the list already). Nothing was written."""

    def __init__(self, tournament_id: int, reason: str) -> None:
        self.tournament_id = tournament_id
        self.reason = reason
        super().__init__(f"tournament {tournament_id} refused the entry: {reason}")


class TournamentRow(SQLModel, table=True):
    """One tournament. `options` holds what the table service decides by (variants, timers, table size,
    rounds, the no-show and deadline rules: table.tournaments.records.TournamentOptions); `version` moves
    by one at every change of the row or of its entry list (optimistic concurrency, like games)."""

    __tablename__ = "tournaments"
    __table_args__ = (
        Index("ix_tournaments_status", "status", "starts_at"),
        Index("ix_tournaments_guild", "guild_id", "status"),
        Index("ix_tournaments_thread", "thread_id"),
    )

    id: int | None = Field(default=None, sa_column=Column("id", _Id, primary_key=True, autoincrement=True))
    guild_id: int | None = Field(default=None, sa_column=Column("guild_id", BigInteger, nullable=True))
    channel_id: int = Field(sa_column=Column("channel_id", BigInteger, nullable=False))
    thread_id: int | None = Field(default=None, sa_column=Column("thread_id", BigInteger, nullable=True))
    message_id: int | None = Field(default=None, sa_column=Column("message_id", BigInteger, nullable=True))
    host_id: int = Field(sa_column=Column("host_id", BigInteger, nullable=False))
    game_key: str = Field(sa_column=Column("game_key", String(40), nullable=False))
    format: str = Field(sa_column=Column("format", String(16), nullable=False))
    options: dict[str, Any] = Field(default_factory=dict, sa_column=Column("options", JSONText, nullable=False))
    status: str = Field(default="signup", sa_column=Column("status", String(12), nullable=False))
    max_entrants: int | None = Field(default=None, sa_column=Column("max_entrants", Integer, nullable=True))
    starts_at: datetime | None = Field(default=None, sa_column=Column("starts_at", UTCDateTime, nullable=True))
    seed: int = Field(sa_column=Column("seed", BigInteger, nullable=False))
    current_round: int = Field(default=0, sa_column=Column("current_round", Integer, nullable=False))
    version: int = Field(default=1, sa_column=Column("version", Integer, nullable=False))
    created_at: datetime = Field(sa_column=Column("created_at", UTCDateTime, nullable=False))
    updated_at: datetime = Field(sa_column=Column("updated_at", UTCDateTime, nullable=False))
    started_at: datetime | None = Field(default=None, sa_column=Column("started_at", UTCDateTime, nullable=True))
    finished_at: datetime | None = Field(default=None, sa_column=Column("finished_at", UTCDateTime, nullable=True))


class EntrantRow(SQLModel, table=True):
    """One entrant. `seed`: the place in the entry list (join order during sign-up, then the seeding made
    at the start); `missed_rounds`: rounds whose game they did not play themselves (no-shows)."""

    __tablename__ = "tournament_entrants"
    __table_args__ = (Index("ix_tournament_entrants_user", "user_id"),)

    tournament_id: int = Field(
        sa_column=Column("tournament_id", _Id, ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    )
    user_id: int = Field(sa_column=Column("user_id", BigInteger, primary_key=True))
    name: str = Field(default="", sa_column=Column("name", String(100), nullable=False))
    seed: int = Field(default=0, sa_column=Column("seed", Integer, nullable=False))
    joined_at: datetime = Field(sa_column=Column("joined_at", UTCDateTime, nullable=False))
    status: str = Field(default="active", sa_column=Column("status", String(12), nullable=False))
    missed_rounds: int = Field(default=0, sa_column=Column("missed_rounds", Integer, nullable=False))
    locale: str | None = Field(default=None, sa_column=Column("locale", String(16), nullable=True))  # (0010)
    updated_at: datetime = Field(sa_column=Column("updated_at", UTCDateTime, nullable=False))


class RoundRow(SQLModel, table=True):
    """One round: its pairing as JSON (tables, byes, table size, and for a knockout its bracket), its status
    (pairing: stored, tables being opened; open: every table opened or resolved; finished: every table
    has its result) and its deadline (None: none)."""

    __tablename__ = "tournament_rounds"

    tournament_id: int = Field(
        sa_column=Column("tournament_id", _Id, ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    )
    number: int = Field(sa_column=Column("number", Integer, primary_key=True))
    pairing: dict[str, Any] = Field(default_factory=dict, sa_column=Column("pairing", JSONText, nullable=False))
    status: str = Field(default="pairing", sa_column=Column("status", String(12), nullable=False))
    deadline: datetime | None = Field(default=None, sa_column=Column("deadline", UTCDateTime, nullable=True))
    created_at: datetime = Field(sa_column=Column("created_at", UTCDateTime, nullable=False))
    opened_at: datetime | None = Field(default=None, sa_column=Column("opened_at", UTCDateTime, nullable=True))
    finished_at: datetime | None = Field(default=None, sa_column=Column("finished_at", UTCDateTime, nullable=True))


class TournamentTableRow(SQLModel, table=True):
    """One table of a round, reserved with the round's pairing. `game_id`: the game played there, set in
    the transaction that creates it (None until then, and for a table resolved without a game); `seats`:
    who sits at each seat of that game (an entrant's user id, None for an AI stand-in); `result`: {"ranks":
    {user id: rank}, "scores": {user id: score} | None} once the table is resolved, and `outcome` how
    (TABLE_OUTCOMES)."""

    __tablename__ = "tournament_tables"
    __table_args__ = (
        ForeignKeyConstraint(
            ["tournament_id", "round"],
            ["tournament_rounds.tournament_id", "tournament_rounds.number"],
            ondelete="CASCADE",
        ),
        Index("ix_tournament_tables_game", "game_id", unique=True),
    )

    tournament_id: int = Field(sa_column=Column("tournament_id", _Id, primary_key=True))
    round: int = Field(sa_column=Column("round", Integer, primary_key=True))
    table_index: int = Field(sa_column=Column("table_index", Integer, primary_key=True))
    game_id: int | None = Field(default=None, sa_column=Column("game_id", _Id, ForeignKey("games.id"), nullable=True))
    seats: list[int | None] | None = Field(default=None, sa_column=Column("seats", JSONText, nullable=True))
    result: dict[str, Any] | None = Field(default=None, sa_column=Column("result", JSONText, nullable=True))
    outcome: str | None = Field(default=None, sa_column=Column("outcome", String(12), nullable=True))
    created_at: datetime = Field(sa_column=Column("created_at", UTCDateTime, nullable=False))
    updated_at: datetime = Field(sa_column=Column("updated_at", UTCDateTime, nullable=False))


configure_mappers()  # as storage.models does: rows are built with storage.models.loaded
