"""The async repository: everything the table service may ask of storage (docs/storage-api.md).

`Database` puts together one repository per concern (storage/repositories/): games, seats and the
action log; the ladder (results, ratings, stats); per-server settings; what monitoring reads;
tournaments. They share one engine, one group-commit writer and one per-game cache (`DatabaseCore`).
"""

from __future__ import annotations

from storage.repositories.delivery import DeliveryRepository
from storage.repositories.ladder import LadderRepository
from storage.repositories.monitoring import MonitoringRepository
from storage.repositories.settings import SettingsRepository
from storage.repositories.tournaments import TournamentRepository
from storage.rows import Move

__all__ = ["Database", "Move"]


class Database(DeliveryRepository, LadderRepository, SettingsRepository, MonitoringRepository, TournamentRepository):
    """One database (SQLite file or PostgreSQL), its connection pool and its group-commit writer.

    With `cache=True` the Database keeps each game's row (without its state) and seats as it last read
    or wrote them, and `game_row`, `game_and_seats` and `seats` answer from that copy, reading nothing:
    every write through this Database updates the copy (or drops it when the write fails or its outcome
    is unknown). Only for a process that is alone on its database: another process's writes (or another
    Database object's) are not seen until this one's own write to that game is refused as stale.
    """
