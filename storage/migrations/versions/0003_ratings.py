"""Ratings, stats and history: finish order, rating history, ordinals, plays and variants.

- games.finished_at, games.finished_seq: when a game ended, and the order in which finished games
  were rated (`python -m storage rerate` replays them in that order).
- results.variant (scoring variant, see storage.plays), results.plays (per-seat play counts).
- ratings.ordinal (mu - 3 sigma, stored so the leaderboard is an index range), indexed per board;
  ratings.user_id indexed for /stats.
- rating_history: each identity's rating in each scope after each rated game (trends, the chart).

Games finished before this revision get finished_at = updated_at and a finished_seq in that order,
so `python -m storage rerate` can rate them.

Revision ID: 0003_ratings
Revises: 0002_guild_settings
Create Date: 2025-01-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from storage.types import JSONText, UTCDateTime

revision = "0003_ratings"
down_revision = "0002_guild_settings"
branch_labels = None
depends_on = None

GAME_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("finished_at", UTCDateTime(), nullable=True))
        batch.add_column(sa.Column("finished_seq", sa.BigInteger(), nullable=True))
    op.create_index("ix_games_finished_seq", "games", ["finished_seq"])
    games = sa.table(
        "games",
        sa.column("id", sa.BigInteger()),
        sa.column("status", sa.String()),
        sa.column("updated_at", UTCDateTime()),
        sa.column("finished_at", UTCDateTime()),
        sa.column("finished_seq", sa.BigInteger()),
    )
    connection = op.get_bind()
    ended = connection.execute(
        sa.select(games.c.id, games.c.status)
        .where(games.c.status.in_(("finished", "abandoned")))
        .order_by(games.c.updated_at, games.c.id)
    ).all()
    op.execute(
        games.update().where(games.c.status.in_(("finished", "abandoned"))).values(finished_at=games.c.updated_at)
    )
    seq = 0
    for game_id, status in ended:
        if status == "finished":
            seq += 1
            connection.execute(games.update().where(games.c.id == game_id).values(finished_seq=seq))

    with op.batch_alter_table("results") as batch:
        batch.add_column(sa.Column("variant", sa.String(40), nullable=True))
        batch.add_column(sa.Column("plays", JSONText(), nullable=True))

    with op.batch_alter_table("ratings") as batch:
        batch.add_column(sa.Column("ordinal", sa.Float(), nullable=False, server_default="0"))
    op.execute("UPDATE ratings SET ordinal = mu - 3 * sigma")
    with op.batch_alter_table("ratings") as batch:
        batch.alter_column("ordinal", server_default=None)
        batch.drop_index("ix_ratings_board")
        batch.create_index("ix_ratings_ordinal", ["guild_id", "game_key", "ordinal"])
        batch.create_index("ix_ratings_user", ["user_id"])

    op.create_table(
        "rating_history",
        sa.Column("game_id", GAME_ID, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("guild_id", sa.BigInteger(), primary_key=True),
        sa.Column("user_id", sa.BigInteger(), primary_key=True),
        sa.Column("game_key", sa.String(40), nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("ordinal", sa.Float(), nullable=False),
    )
    op.create_index("ix_rating_history_player", "rating_history", ["guild_id", "game_key", "user_id", "seq"])


def downgrade() -> None:
    op.drop_index("ix_rating_history_player", table_name="rating_history")
    op.drop_table("rating_history")
    with op.batch_alter_table("ratings") as batch:
        batch.drop_index("ix_ratings_user")
        batch.drop_index("ix_ratings_ordinal")
        batch.create_index("ix_ratings_board", ["guild_id", "game_key", "mu"])
        batch.drop_column("ordinal")
    with op.batch_alter_table("results") as batch:
        batch.drop_column("plays")
        batch.drop_column("variant")
    op.drop_index("ix_games_finished_seq", table_name="games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("finished_seq")
        batch.drop_column("finished_at")
