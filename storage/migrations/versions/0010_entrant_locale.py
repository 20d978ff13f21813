"""An entrant's Discord locale (issue 35): the seats the tournament opens for them carry it, so their
game's direct messages speak their language as when they join a lobby themselves (NULL for entrants
before this revision: their direct messages are in English until their first click sets the seat's).

Revision ID: 0010_entrant_locale
Revises: 0009_tournaments
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_entrant_locale"
down_revision = "0009_tournaments"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournament_entrants") as batch:
        batch.add_column(sa.Column("locale", sa.String(16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tournament_entrants") as batch:
        batch.drop_column("locale")
