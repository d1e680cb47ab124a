"""Matches that belong to someone: a label, archived and deleted marks.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01

``label`` names the table a match is played at (free text, shown in the
history); ``archived_at`` hides a match from the history's default view;
``deleted_at`` removes it from every listing and from loading while its log
and audit trail stay in the database (nothing in the log is ever deleted).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add the label and the archived / deleted marks to ``matches``."""
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("label", sa.Text(), nullable=True))
        batch.add_column(sa.Column("archived_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    """Drop the three columns (labels and marks are lost; deleted matches come back)."""
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("deleted_at")
        batch.drop_column("archived_at")
        batch.drop_column("label")
