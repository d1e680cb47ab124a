"""The tables of the store (SQLModel).

The event log (``events``) is the truth: each hand has its own append-only log
whose entries are numbered 1, 2, 3... by ``seq``, unique per hand. Besides the
record's events (play, draw, pass, ...) the log holds the hand's own facts and
corrections as entries: ``start`` (the setter), ``settle`` (what was left in
each hand), ``undo`` and ``redo`` (naming the ``seq`` they act on). Nothing is
ever updated or deleted in it, so the whole trail stays. Scores, layouts and
results are derived by replaying the log through the rules engine;
``matches.summary`` is only a cache for listings, rewritten from the replayed
state on every write.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Column, DateTime, ForeignKey, Integer, MetaData, String, Text
from sqlalchemy.orm import registry
from sqlmodel import Field, SQLModel, UniqueConstraint

# Named constraints: Alembic's batch mode on SQLite needs names to alter them.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

# The store's own metadata, so Alembic compares only these tables and not
# whatever else may one day use SQLModel's default registry.
store_registry = registry(metadata=MetaData(naming_convention=NAMING_CONVENTION))
metadata = store_registry.metadata

# Log entry kinds that are not events of the record vocabulary (records.md §4).
START = "start"
SETTLE = "settle"
UNDO = "undo"
REDO = "redo"
AMEND = "amend"


def utcnow() -> datetime:
    """The current time, timezone-aware UTC (what every timestamp column holds)."""
    return datetime.now(UTC)


def as_utc(moment: datetime | None) -> datetime | None:
    """A stored timestamp as aware UTC (SQLite hands them back naive)."""
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


def _when(*, nullable: bool = False) -> Any:
    return Field(default=None, sa_column=Column(DateTime(timezone=True), nullable=nullable))


def _json(*, nullable: bool = False) -> Any:
    return Field(default=None, sa_column=Column(JSON, nullable=nullable))


class StoreModel(SQLModel, registry=store_registry):
    """Base of the store's tables (own registry and metadata)."""


class Player(StoreModel, table=True):
    """A person who sat at a table, by name."""

    __tablename__ = "players"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(sa_column=Column(Text, nullable=False, unique=True))
    created_at: datetime = _when()


class Match(StoreModel, table=True):
    """A match: a series of hands (and games) played by the same seats."""

    __tablename__ = "matches"

    id: int | None = Field(default=None, primary_key=True)
    rules: str = Field(sa_column=Column(String(20), nullable=False))
    options: dict[str, Any] = _json()
    created_at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))
    finished_at: datetime | None = _when(nullable=True)
    device: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    # Bumped by every write to the match: a writer that read revision n may
    # only commit if it is still n (compare-and-set), so two devices writing
    # to one match never interleave, even across hands.
    revision: int = Field(default=0, sa_column=Column(Integer, nullable=False))
    # Cache for listings, rebuilt from the replayed log on every write.
    status: str = Field(sa_column=Column(String(20), nullable=False))
    summary: dict[str, Any] = _json()
    # Migration 0002 (scorepad.store.matches): the table's label, and the
    # archived / deleted marks (a deleted match keeps its log and audit).
    label: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    archived_at: datetime | None = _when(nullable=True)
    deleted_at: datetime | None = _when(nullable=True)


class Seat(StoreModel, table=True):
    """Who sits in which seat of a match (seats numbered from 0, clockwise)."""

    __tablename__ = "seats"

    match_id: int = Field(sa_column=Column(Integer, ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True))
    seat: int = Field(sa_column=Column(Integer, primary_key=True, autoincrement=False))
    player_id: int = Field(sa_column=Column(Integer, ForeignKey("players.id"), nullable=False, index=True))


class Hand(StoreModel, table=True):
    """A hand of a match; the container of that hand's event log."""

    __tablename__ = "hands"
    __table_args__ = (UniqueConstraint("match_id", "number"),)

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(sa_column=Column(Integer, ForeignKey("matches.id", ondelete="CASCADE"), nullable=False))
    number: int = Field(sa_column=Column(Integer, nullable=False))
    created_at: datetime = _when()


class LogEntry(StoreModel, table=True):
    """One entry of a hand's append-only log.

    ``kind`` is an event name of records.md §4 (``play``, ``draw``, ``pass``,
    ``muggins``, ``renege``, ``adjust``, ``void``) with the record's dict as
    ``payload``, or ``start`` ({"setter": seat or null}), ``settle``
    ({"remaining": [...]}), ``undo`` / ``redo`` ({"seq": the entry acted on}).
    """

    __tablename__ = "events"
    # The race guard: two writers that both computed the next seq of a hand
    # cannot both commit it.
    __table_args__ = (UniqueConstraint("hand_id", "seq"),)

    id: int | None = Field(default=None, primary_key=True)
    hand_id: int = Field(sa_column=Column(Integer, ForeignKey("hands.id", ondelete="CASCADE"), nullable=False))
    seq: int = Field(sa_column=Column(Integer, nullable=False))
    # The match revision this entry produced: a total order of the whole
    # match's log, across hands (undo and redo may cross a hand boundary).
    revision: int = Field(sa_column=Column(Integer, nullable=False))
    kind: str = Field(sa_column=Column(String(20), nullable=False))
    payload: dict[str, Any] = _json()
    created_at: datetime = _when()
    device: str | None = Field(default=None, sa_column=Column(Text, nullable=True))


class AuditEntry(StoreModel, table=True):
    """Who did what to a match and when: every entry, undo, redo, import."""

    __tablename__ = "audit"

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(
        sa_column=Column(Integer, ForeignKey("matches.id", ondelete="CASCADE"), nullable=False, index=True)
    )
    event_id: int | None = Field(
        default=None,
        sa_column=Column(Integer, ForeignKey("events.id"), nullable=True),
    )
    action: str = Field(sa_column=Column(String(20), nullable=False))
    hand: int | None = Field(default=None, sa_column=Column(Integer, nullable=True))
    seq: int | None = Field(default=None, sa_column=Column(Integer, nullable=True))
    detail: dict[str, Any] = _json()
    at: datetime = _when()
    device: str | None = Field(default=None, sa_column=Column(Text, nullable=True))


# The tournament's tables share this metadata, so Alembic sees them (migrations 0003 and 0004).
from scorepad.store import tournament_models as _tournament_models  # noqa: E402, F401
