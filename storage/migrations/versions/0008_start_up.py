"""What start-up needs, found without reading every game (issue 23).

bot_state: small values the bot keeps between starts, by key (the digest of the slash commands last
pushed to Discord, so a start whose commands did not change does not push them again).
ix_games_owed: the games owed something (their `delivered` behind their version, or not known), which
start-up repairs; a partial index holds only those, so finding them reads no other game.

Revision ID: 0008_start_up
Revises: 0007_delivered
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_start_up"
down_revision = "0007_delivered"
branch_labels = None
depends_on = None

OWED = sa.text("delivered IS NULL OR delivered < version")


def upgrade() -> None:
    op.create_table(
        "bot_state",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("value", sa.Text(), nullable=False),
    )
    op.create_index("ix_games_owed", "games", ["id"], sqlite_where=OWED, postgresql_where=OWED)


def downgrade() -> None:
    op.drop_index("ix_games_owed", table_name="games")
    op.drop_table("bot_state")
