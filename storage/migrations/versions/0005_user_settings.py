"""Per-user settings: how a player is told it is their turn (`/game settings notifications`).

Revision ID: 0005_user_settings
Revises: 0004_announced
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from storage.types import UTCDateTime

revision = "0005_user_settings"
down_revision = "0004_announced"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "user_settings",
        sa.Column("user_id", sa.BigInteger(), primary_key=True),
        # "dm" (a new direct message), "mention" (a mention in the game's thread) or "off"; NULL: the default.
        sa.Column("notifications", sa.String(16), nullable=True),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("user_settings")
