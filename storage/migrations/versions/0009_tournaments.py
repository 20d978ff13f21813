"""Tournaments (issue 35): the tournament, its entrants, its rounds and each round's tables.

tournaments: one row per tournament (guild, channel, its thread and sign-up message, host, game, format,
options JSON, status signup/running/finished/cancelled, cap on entrants, start time, seed, current round,
timestamps, version). tournament_entrants: (tournament, user) with name, seed order, joined at, status
active/withdrawn/dropped, missed rounds. tournament_rounds: (tournament, number) with the pairing JSON,
status pairing/open/finished, deadline, timestamps. tournament_tables: (tournament, round, table index),
the primary key that keeps a table from being opened twice, with the game played there (unique), its
seats, its result JSON and how it came about. games.tournament_id and games.tournament_round: the
tournament and round a game is a table of (NULL for every game before this revision, and ordinary ones).

Revision ID: 0009_tournaments
Revises: 0008_start_up
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from storage.types import JSONText, UTCDateTime

revision = "0009_tournaments"
down_revision = "0008_start_up"
branch_labels = None
depends_on = None

# Written out rather than imported from storage.tournaments: a migration keeps describing its own day's schema.
ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", ID, primary_key=True, autoincrement=True),
        sa.Column("guild_id", sa.BigInteger(), nullable=True),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("thread_id", sa.BigInteger(), nullable=True),
        sa.Column("message_id", sa.BigInteger(), nullable=True),
        sa.Column("host_id", sa.BigInteger(), nullable=False),
        sa.Column("game_key", sa.String(40), nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("options", JSONText(), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("max_entrants", sa.Integer(), nullable=True),
        sa.Column("starts_at", UTCDateTime(), nullable=True),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("current_round", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
        sa.Column("started_at", UTCDateTime(), nullable=True),
        sa.Column("finished_at", UTCDateTime(), nullable=True),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status", "starts_at"])
    op.create_index("ix_tournaments_guild", "tournaments", ["guild_id", "status"])
    op.create_index("ix_tournaments_thread", "tournaments", ["thread_id"])

    op.create_table(
        "tournament_entrants",
        sa.Column("tournament_id", ID, sa.ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("user_id", sa.BigInteger(), primary_key=True),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("joined_at", UTCDateTime(), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("missed_rounds", sa.Integer(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
    )
    op.create_index("ix_tournament_entrants_user", "tournament_entrants", ["user_id"])

    op.create_table(
        "tournament_rounds",
        sa.Column("tournament_id", ID, sa.ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("number", sa.Integer(), primary_key=True),
        sa.Column("pairing", JSONText(), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("deadline", UTCDateTime(), nullable=True),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("opened_at", UTCDateTime(), nullable=True),
        sa.Column("finished_at", UTCDateTime(), nullable=True),
    )

    op.create_table(
        "tournament_tables",
        sa.Column("tournament_id", ID, primary_key=True),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("table_index", sa.Integer(), primary_key=True),
        sa.Column("game_id", ID, sa.ForeignKey("games.id"), nullable=True),
        sa.Column("seats", JSONText(), nullable=True),
        sa.Column("result", JSONText(), nullable=True),
        sa.Column("outcome", sa.String(12), nullable=True),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id", "round"],
            ["tournament_rounds.tournament_id", "tournament_rounds.number"],
            ondelete="CASCADE",
        ),
    )
    op.create_index("ix_tournament_tables_game", "tournament_tables", ["game_id"], unique=True)

    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("tournament_id", sa.BigInteger(), nullable=True))
        batch.add_column(sa.Column("tournament_round", sa.Integer(), nullable=True))
    op.create_index("ix_games_tournament", "games", ["tournament_id", "tournament_round"])


def downgrade() -> None:
    op.drop_index("ix_games_tournament", table_name="games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("tournament_round")
        batch.drop_column("tournament_id")
    op.drop_index("ix_tournament_tables_game", table_name="tournament_tables")
    op.drop_table("tournament_tables")
    op.drop_table("tournament_rounds")
    op.drop_index("ix_tournament_entrants_user", table_name="tournament_entrants")
    op.drop_table("tournament_entrants")
    for index in ("ix_tournaments_thread", "ix_tournaments_guild", "ix_tournaments_status"):
        op.drop_index(index, table_name="tournaments")
    op.drop_table("tournaments")
