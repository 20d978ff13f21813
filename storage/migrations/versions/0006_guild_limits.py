"""guild_settings.limits: the caps a server's admins set on lobbies and games (issue 21.9).

A channel no longer holds one game: any number of lobbies and games run side by side, each in its own
thread, within caps (open lobbies and running games per user, lobbies and games per server) whose
defaults live in the table service. A server that changed some keeps them here, as a JSON object of
cap name -> number; NULL: every default.

Revision ID: 0006_guild_limits
Revises: 0005_user_settings
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_guild_limits"
down_revision = "0005_user_settings"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("guild_settings") as batch:
        batch.add_column(sa.Column("limits", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("guild_settings") as batch:
        batch.drop_column("limits")
