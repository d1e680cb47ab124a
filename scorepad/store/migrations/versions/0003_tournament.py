"""Tournaments: events, entrants, forbidden pairs, rounds, tables, confirmations, audit, sessions.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01

Each table of a round links to an ordinary match (``matches``); the rest is
the tournament's own (``scorepad/store/tournament_models.py``). Secrets are
kept only as hashes: the director's password and the table codes (argon2),
session tokens (SHA-256 of a random token).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLES = (
    "tournament_events",
    "tournament_attempts",
    "tournament_audit",
    "tournament_entrants",
    "tournament_rounds",
    "tournament_forbidden",
    "tournament_tables",
    "tournament_confirmations",
    "tournament_sessions",
)


def upgrade() -> None:
    """Create the tournament's tables."""
    op.create_table(
        "tournament_events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("rules", sa.String(length=20), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("kind", sa.String(length=12), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("unit", sa.String(length=8), nullable=False),
        sa.Column("per_round", sa.Integer(), nullable=False),
        sa.Column("pairing", sa.String(length=12), nullable=False),
        sa.Column("seed", sa.Text(), nullable=False),
        sa.Column("bye_points", sa.Integer(), nullable=False),
        sa.Column("director_hash", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_events")),
    )
    op.create_table(
        "tournament_attempts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("key", sa.Text(), nullable=False),
        sa.Column("ok", sa.Boolean(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["event_id"],
            ["tournament_events.id"],
            name=op.f("fk_tournament_attempts_event_id_tournament_events"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_attempts")),
    )
    with op.batch_alter_table("tournament_attempts", schema=None) as batch_op:
        batch_op.create_index("ix_tournament_attempts_event_key", ["event_id", "key"], unique=False)

    op.create_table(
        "tournament_audit",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor", sa.Text(), nullable=False),
        sa.Column("action", sa.String(length=30), nullable=False),
        sa.Column("detail", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["event_id"],
            ["tournament_events.id"],
            name=op.f("fk_tournament_audit_event_id_tournament_events"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_audit")),
    )
    with op.batch_alter_table("tournament_audit", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_tournament_audit_event_id"), ["event_id"], unique=False)

    op.create_table(
        "tournament_entrants",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("club", sa.Text(), nullable=True),
        sa.Column("joined_round", sa.Integer(), nullable=False),
        sa.Column("withdrawn_round", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["event_id"],
            ["tournament_events.id"],
            name=op.f("fk_tournament_entrants_event_id_tournament_events"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_entrants")),
        sa.UniqueConstraint("event_id", "name", name=op.f("uq_tournament_entrants_event_id_name")),
        sa.UniqueConstraint("event_id", "number", name=op.f("uq_tournament_entrants_event_id_number")),
    )
    with op.batch_alter_table("tournament_entrants", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_tournament_entrants_event_id"), ["event_id"], unique=False)

    op.create_table(
        "tournament_rounds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("seed", sa.Text(), nullable=False),
        sa.Column("engine_version", sa.Text(), nullable=False),
        sa.Column("inputs", sa.JSON(), nullable=False),
        sa.Column("computed", sa.JSON(), nullable=False),
        sa.Column("fingerprint", sa.String(length=64), nullable=False),
        sa.Column("paired_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("locked_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["event_id"],
            ["tournament_events.id"],
            name=op.f("fk_tournament_rounds_event_id_tournament_events"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_rounds")),
        sa.UniqueConstraint("event_id", "number", name=op.f("uq_tournament_rounds_event_id_number")),
    )
    with op.batch_alter_table("tournament_rounds", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_tournament_rounds_event_id"), ["event_id"], unique=False)

    op.create_table(
        "tournament_forbidden",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("first_id", sa.Integer(), nullable=False),
        sa.Column("second_id", sa.Integer(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["event_id"],
            ["tournament_events.id"],
            name=op.f("fk_tournament_forbidden_event_id_tournament_events"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["first_id"], ["tournament_entrants.id"], name=op.f("fk_tournament_forbidden_first_id_tournament_entrants")
        ),
        sa.ForeignKeyConstraint(
            ["second_id"],
            ["tournament_entrants.id"],
            name=op.f("fk_tournament_forbidden_second_id_tournament_entrants"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_forbidden")),
        sa.UniqueConstraint(
            "event_id", "first_id", "second_id", name=op.f("uq_tournament_forbidden_event_id_first_id_second_id")
        ),
    )
    with op.batch_alter_table("tournament_forbidden", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_tournament_forbidden_event_id"), ["event_id"], unique=False)

    op.create_table(
        "tournament_tables",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=True),
        sa.Column("entrants", sa.JSON(), nullable=False),
        sa.Column("code_hash", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name=op.f("fk_tournament_tables_match_id_matches")),
        sa.ForeignKeyConstraint(
            ["round_id"],
            ["tournament_rounds.id"],
            name=op.f("fk_tournament_tables_round_id_tournament_rounds"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_tables")),
        sa.UniqueConstraint("round_id", "number", name=op.f("uq_tournament_tables_round_id_number")),
    )
    with op.batch_alter_table("tournament_tables", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_tournament_tables_round_id"), ["round_id"], unique=False)

    op.create_table(
        "tournament_confirmations",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("hand", sa.Integer(), nullable=False),
        sa.Column("fingerprint", sa.String(length=64), nullable=False),
        sa.Column("confirmed_by", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["tournament_tables.id"],
            name=op.f("fk_tournament_confirmations_table_id_tournament_tables"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_confirmations")),
    )
    with op.batch_alter_table("tournament_confirmations", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_tournament_confirmations_table_id"), ["table_id"], unique=False)

    op.create_table(
        "tournament_sessions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("role", sa.String(length=12), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["event_id"],
            ["tournament_events.id"],
            name=op.f("fk_tournament_sessions_event_id_tournament_events"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["tournament_tables.id"],
            name=op.f("fk_tournament_sessions_table_id_tournament_tables"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_sessions")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_tournament_sessions_token_hash")),
    )
    with op.batch_alter_table("tournament_sessions", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_tournament_sessions_event_id"), ["event_id"], unique=False)


def downgrade() -> None:
    """Drop the tournament's tables (every event is lost; the matches stay)."""
    for name in reversed(TABLES):
        op.drop_table(name)
