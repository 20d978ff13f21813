"""Persistence: SQLModel tables and the async repository the table service uses (docs/storage-api.md).

Nothing outside this package writes SQL.
"""

from storage.database import Database, Move
from storage.engine import DEFAULT_URL
from storage.errors import (
    BrokenGame,
    DatabaseUnavailable,
    GameNotActive,
    GameNotFound,
    SchemaTooNew,
    StorageError,
    VersionConflict,
)
from storage.models import STATUSES, ActionRow, GameRow, RatingRow, ResultRow, SeatRow
from storage.repositories.tournaments import TournamentSnapshot
from storage.shards import Shards, shard_of
from storage.tournaments import (
    EntrantRow,
    EntryRefused,
    RoundRow,
    TournamentConflict,
    TournamentNotFound,
    TournamentRow,
    TournamentTableRow,
)
from storage.unchanged import UNCHANGED, Unchanged

__all__ = [
    "DEFAULT_URL",
    "STATUSES",
    "UNCHANGED",
    "ActionRow",
    "BrokenGame",
    "Database",
    "DatabaseUnavailable",
    "EntrantRow",
    "EntryRefused",
    "GameNotActive",
    "GameNotFound",
    "GameRow",
    "Move",
    "RatingRow",
    "ResultRow",
    "RoundRow",
    "SchemaTooNew",
    "SeatRow",
    "Shards",
    "StorageError",
    "TournamentConflict",
    "TournamentNotFound",
    "TournamentRow",
    "TournamentSnapshot",
    "TournamentTableRow",
    "Unchanged",
    "VersionConflict",
    "shard_of",
]
