"""Per-server settings: the language of channel and thread messages (`/game settings language`).

Revision ID: 0002_guild_settings
Revises: 0001
Create Date: 2025-01-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from storage.types import UTCDateTime

revision = "0002_guild_settings"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "guild_settings",
        sa.Column("guild_id", sa.BigInteger(), primary_key=True),
        # "en", "it" or "fr"; NULL: follow the server's preferred locale.
        sa.Column("language", sa.String(16), nullable=True),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("guild_settings")
