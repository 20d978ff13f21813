"""Initial schema: games, seats, actions, results, ratings.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from storage.types import JSONText, UTCDateTime

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

# Written out rather than imported from storage.models: a migration must keep describing the schema
# of its own day even after the models change.
GAME_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def _game_fk() -> sa.Column:
    return sa.Column("game_id", GAME_ID, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", GAME_ID, primary_key=True, autoincrement=True),
        sa.Column("guild_id", sa.BigInteger(), nullable=True),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("thread_id", sa.BigInteger(), nullable=True),
        sa.Column("game_key", sa.String(40), nullable=False),
        sa.Column("options", JSONText(), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("host_id", sa.BigInteger(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("state", JSONText(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("deadline", UTCDateTime(), nullable=True),
        sa.Column("reminded", sa.Boolean(), nullable=False),
        sa.Column("turn_seconds", sa.Integer(), nullable=True),
        sa.Column("lobby_message_id", sa.BigInteger(), nullable=True),
        sa.Column("table_message_id", sa.BigInteger(), nullable=True),
        sa.Column("broken_reason", sa.String(500), nullable=True),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
    )
    op.create_index("ix_games_channel_status", "games", ["channel_id", "status"])
    op.create_index("ix_games_thread", "games", ["thread_id"])
    op.create_index("ix_games_status_deadline", "games", ["status", "deadline"])
    op.create_index("ix_games_guild_key", "games", ["guild_id", "game_key"])

    op.create_table(
        "seats",
        _game_fk(),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("user_id", sa.BigInteger(), nullable=True),
        sa.Column("ai_level", sa.String(20), nullable=True),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("dm_channel_id", sa.BigInteger(), nullable=True),
        sa.Column("dm_message_id", sa.BigInteger(), nullable=True),
        sa.Column("dm_failed", sa.Boolean(), nullable=False),
        sa.Column("afk_count", sa.Integer(), nullable=False),
        sa.Column("ai_controlled", sa.Boolean(), nullable=False),
        sa.Column("locale", sa.String(16), nullable=True),
    )
    op.create_index("ix_seats_user", "seats", ["user_id"])

    op.create_table(
        "actions",
        _game_fk(),
        sa.Column("seq", sa.Integer(), primary_key=True),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("action", JSONText(), nullable=False),
        sa.Column("afk", sa.Boolean(), nullable=False),
        sa.Column("at", UTCDateTime(), nullable=False),
    )

    op.create_table(
        "results",
        _game_fk(),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("user_id", sa.BigInteger(), nullable=True),
        sa.Column("ai_level", sa.String(20), nullable=True),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("score", sa.Float(), nullable=False),
        sa.Column("breakdown", JSONText(), nullable=False),
    )
    op.create_index("ix_results_user", "results", ["user_id"])

    op.create_table(
        "ratings",
        sa.Column("guild_id", sa.BigInteger(), primary_key=True),
        sa.Column("game_key", sa.String(40), primary_key=True),
        sa.Column("user_id", sa.BigInteger(), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
    )
    op.create_index("ix_ratings_board", "ratings", ["guild_id", "game_key", "mu"])


def downgrade() -> None:
    for table in ("ratings", "results", "actions", "seats", "games"):
        op.drop_table(table)
