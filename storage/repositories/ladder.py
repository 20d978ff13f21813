"""Results, ratings, the leaderboard, stats and history."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import (
    select,
)

from storage import ladder
from storage.ladder import BoardPage, GameSeat, PlayedGame, PlayerStats, ScoreSummary
from storage.models import (
    RatingHistoryRow,
    RatingRow,
)
from storage.repositories.base import DatabaseCore
from storage.rows import _ratings
from storage.types import utcnow


class LadderRepository(DatabaseCore):
    """Results, ratings, the leaderboard, stats and history (the SQL is in storage.ladder)."""

    async def ratings(
        self, guild_id: int, game_key: str, user_ids: Sequence[int] | None = None
    ) -> dict[int, RatingRow]:
        query = select(_ratings).where(_ratings.c.guild_id == guild_id, _ratings.c.game_key == game_key)
        if user_ids is not None:
            query = query.where(_ratings.c.user_id.in_(list(user_ids)))
        async with self._reading() as conn:
            rows = (await conn.execute(query)).all()
        return {row.user_id: RatingRow(**row._mapping) for row in rows}

    async def save_ratings(self, ratings: Sequence[RatingRow | Mapping[str, Any]]) -> None:
        """Insert or replace ratings (keyed by guild_id, game_key, user_id) in one transaction."""
        rows = [dict(r.model_dump() if isinstance(r, RatingRow) else r) for r in ratings]
        for row in rows:
            row.setdefault("updated_at", utcnow())
        if not rows:
            return
        await self._write(ladder.upsert_ratings, rows)

    async def leaderboard(self, guild_id: int, game_key: str, limit: int = 10, offset: int = 0) -> list[RatingRow]:
        """People (not AI levels: `ai_board`) best first by the conservative rating (ordinal = mu - 3 sigma),
        then by user id."""
        return await self._read(ladder.leaderboard, guild_id, game_key, limit, offset)

    async def rating_changes(self, game_id: int, guild_id: int) -> dict[int, tuple[float | None, float]]:
        """A finished game's effect on its players' ratings in one scope (a guild id, or 0 for global):
        user id -> (ordinal before, None for a first game; ordinal after). Empty if it was not rated."""
        return await self._read(ladder.rating_changes, game_id, guild_id)

    async def ai_board(self, guild_id: int, game_key: str) -> list[RatingRow]:
        """The AI levels rated on a board (listed apart from its people), best first."""
        return await self._read(ladder.ai_board, guild_id, game_key)

    async def board_size(self, guild_id: int, game_key: str) -> int:
        """How many people have a rating on this board (AI levels are listed apart)."""
        return await self._read(ladder.board_size, guild_id, game_key)

    async def standing(self, guild_id: int, game_key: str, user_id: int) -> tuple[int, RatingRow] | None:
        """(1-based position, rating) of one identity on a board, or None if it has no rating there."""
        return await self._read(ladder.standing, guild_id, game_key, user_id)

    async def user_ratings(self, user_id: int, guild_ids: Sequence[int]) -> list[RatingRow]:
        """The identity's ratings in these scopes, every game, by game key."""
        return await self._read(ladder.user_ratings, user_id, guild_ids)

    async def rating_history(
        self, guild_id: int, game_key: str, user_id: int, limit: int = 50
    ) -> list[RatingHistoryRow]:
        """The identity's rating after each of its last `limit` rated games there, oldest first."""
        return await self._read(ladder.rating_history, guild_id, game_key, user_id, limit)

    async def score_summary(self, user_id: int, guild_id: int | None = None) -> list[ScoreSummary]:
        """Per game and scoring variant: games, wins (rank 1), average and best score (None: everywhere)."""
        return await self._read(ladder.score_summary, user_id, guild_id)

    async def user_results(
        self, user_id: int, guild_id: int | None = None, limit: int = 10, game_key: str | None = None
    ) -> list[PlayedGame]:
        """The user's finished games, newest first (guild_id None: everywhere)."""
        return await self._read(ladder.user_results, user_id, guild_id, limit, game_key)

    async def game_players(self, game_ids: Sequence[int]) -> dict[int, list[GameSeat]]:
        """The seats of these games with names, ranks and scores, best first."""
        return await self._read(ladder.game_players, game_ids)

    async def board_page(
        self, guild_id: int, game_key: str, user_id: int, limit: int = 10, offset: int = 0
    ) -> BoardPage:
        """One leaderboard page, the board's size and the caller's position when off the page (one
        connection: what `/leaderboard` needs)."""
        return await self._read(ladder.board_page, guild_id, game_key, user_id, limit, offset)

    async def player_stats(
        self,
        user_id: int,
        guild_id: int | None,
        scopes: Sequence[int],
        *,
        history_limit: int = 50,
        recent_limit: int = 100,
        last: int = 5,
    ) -> PlayerStats:
        """Everything `/stats` shows, read on one connection: score summaries (games of `guild_id`,
        None: everywhere), ratings in `scopes` with positions, rating history in scopes[0], recent
        results and the seats of the `last` newest games."""
        return await self._read(ladder.player_stats, user_id, guild_id, scopes, history_limit, recent_limit, last)

    async def rerate(self) -> int:
        """Recompute every rating and the rating history from the results; the number of games rated."""
        for game_id in list(self._known or ()):
            self._forget(game_id)  # it writes ratings only; dropped all the same, it runs rarely
        return await self._write(ladder.rerate)
