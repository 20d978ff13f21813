"""What the players were last shown of each game, as Discord confirmed it (issue 23).

games.table_version: the version the table message shows. games.delivered: the version up to which
everything of the game was shown (its table, its log, every seat's private window, and for a game that
ended, its ending: result, final table, DMs); NULL: not known to be. A game is owed something after a
restart exactly when it was started and `delivered` is NULL or behind its version, so start-up looks at
those only. seats.dm_version, dm_prompt, dm_live: the version the seat's private window shows, a digest
of the prompt it shows (0: none), and whether that prompt is still unanswered (the player was told).

Rows from before this revision: games that ended count as delivered (their ending was shown or is long
past); active games stay NULL, owed once (as every active game was at each start-up before).

Revision ID: 0007_delivered
Revises: 0006_guild_limits
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_delivered"
down_revision = "0006_guild_limits"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("table_version", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("delivered", sa.Integer(), nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("dm_version", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("dm_prompt", sa.BigInteger(), nullable=True))
        batch.add_column(sa.Column("dm_live", sa.Boolean(), nullable=True))
    op.execute("UPDATE games SET delivered = version WHERE status <> 'active'")


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("dm_live")
        batch.drop_column("dm_prompt")
        batch.drop_column("dm_version")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("delivered")
        batch.drop_column("table_version")
