"""games.announced: the version whose public log line was last posted.

A process stopped between committing a decision and posting its turn's log line left that line
unposted for good; with this column, start-up resumption sees the game is behind and posts it.
Games from before this revision keep NULL (nothing known to be missing).

Revision ID: 0004_announced
Revises: 0003_ratings
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_announced"
down_revision = "0003_ratings"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("announced", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("announced")
