"""Tournaments: forfeits given by the director at a table.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02

One row per forfeited table (``scorepad/store/tournament_models.py``,
``TournamentForfeit``): who forfeited, the reason, who gave it and when, and
how many hands the table had played (they stay in its match's log,
uncounted). Four-player events with rotating partners need no schema
change: the kind is the event's ``kind`` text, and the partners a player
had are read from the tables' seats.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create the forfeits' table."""
    op.create_table(
        "tournament_forfeits",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("losers", sa.JSON(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("actor", sa.Text(), nullable=False),
        sa.Column("hands_played", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["tournament_tables.id"],
            name=op.f("fk_tournament_forfeits_table_id_tournament_tables"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_forfeits")),
        sa.UniqueConstraint("table_id", name=op.f("uq_tournament_forfeits_table_id")),
    )


def downgrade() -> None:
    """Drop the forfeits (the tables they were given at count their matches again)."""
    op.drop_table("tournament_forfeits")
