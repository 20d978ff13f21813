"""The errors the repository raises; the table service turns them into messages for players."""

from __future__ import annotations

__all__ = [
    "BrokenGame",
    "DatabaseUnavailable",
    "GameNotActive",
    "GameNotFound",
    "SchemaTooNew",
    "StorageError",
    "VersionConflict",
]


class StorageError(Exception):
    """Base class of everything storage raises on purpose."""


class VersionConflict(StorageError):
    """The game moved on since the caller read it: that decision was already taken. Nothing was written."""

    def __init__(self, game_id: int, expected: int, actual: int | None) -> None:
        self.game_id = game_id
        self.expected = expected
        self.actual = actual
        super().__init__(f"game {game_id} is at version {actual}, not {expected}: that was already decided")


class GameNotActive(VersionConflict):
    """commit_action on a game that is not running (lobby, finished, abandoned or broken)."""

    def __init__(self, game_id: int, expected: int, actual: int | None, status: str) -> None:
        super().__init__(game_id, expected, actual)
        self.status = status
        self.args = (f"game {game_id} is {status}, not active: no more decisions are taken",)


class GameNotFound(StorageError, LookupError):
    """No game has this id."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(f"no game with id {game_id}")


class BrokenGame(StorageError):
    """The game's stored state cannot be read; it has been marked broken (other games are unaffected)."""

    def __init__(self, game_id: int, reason: str) -> None:
        self.game_id = game_id
        self.reason = reason
        super().__init__(f"game {game_id} is broken: {reason}")


class SchemaTooNew(StorageError):
    """The database was migrated by newer code than this; refuse to touch it."""


class DatabaseUnavailable(StorageError):
    """The database could not be reached or did not answer (connection refused or lost, the file
    unreadable, a lock held past the busy timeout). A write that raised this was not committed,
    except when the connection was lost during COMMIT itself, where the outcome is unknown: read
    the game again before deciding anything from it."""
