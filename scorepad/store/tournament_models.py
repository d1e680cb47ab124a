"""The tournament's tables (SQLModel, on the store's metadata; migrations 0003 and 0004).

A tournament event holds its entrants, its rounds and each round's tables.
Every table's game is an ordinary stored match (``matches``), so the log,
the audit trail, exports and the referee work on it as on any other; the
tournament only links the match to its round and table. What a round's
pairing was computed from (``inputs``), the seed and the engine version are
kept with it, so the same pairing can be computed again and compared
(``scorepad tournament verify-pairings``). Nothing secret is stored in
clear: the director's password and the table codes are argon2 hashes, the
session tokens SHA-256 digests of random tokens.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, Column, DateTime, ForeignKey, Index, Integer, String, Text
from sqlmodel import Field, UniqueConstraint

from scorepad.store.models import StoreModel


def _when(*, nullable: bool = False) -> Any:
    return Field(default=None, sa_column=Column(DateTime(timezone=True), nullable=nullable))


def _json() -> Any:
    return Field(default=None, sa_column=Column(JSON, nullable=False))


def _event_fk() -> Any:
    return Field(
        sa_column=Column(Integer, ForeignKey("tournament_events.id", ondelete="CASCADE"), nullable=False, index=True)
    )


class TournamentEvent(StoreModel, table=True):
    """One tournament: its rules, its format and the director's password hash."""

    __tablename__ = "tournament_events"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(sa_column=Column(Text, nullable=False))
    rules: str = Field(sa_column=Column(String(20), nullable=False))
    options: dict[str, Any] = _json()
    # singles, threes or partners (fixed partnerships: an entrant is a pair).
    kind: str = Field(sa_column=Column(String(12), nullable=False))
    rounds: int = Field(sa_column=Column(Integer, nullable=False))
    # What a round is: `per_round` games, or `per_round` hands.
    unit: str = Field(sa_column=Column(String(8), nullable=False))
    per_round: int = Field(sa_column=Column(Integer, nullable=False))
    # auto, round-robin or swiss (threes: always score bands).
    pairing: str = Field(sa_column=Column(String(12), nullable=False))
    seed: str = Field(sa_column=Column(Text, nullable=False))
    # What a bye scores: this many game points (games won: the round's games, when a round is games).
    bye_points: int = Field(sa_column=Column(Integer, nullable=False))
    director_hash: str = Field(sa_column=Column(Text, nullable=False))
    created_at: datetime = _when()


class TournamentEntrant(StoreModel, table=True):
    """A player (or a fixed partnership) registered in an event."""

    __tablename__ = "tournament_entrants"
    __table_args__ = (UniqueConstraint("event_id", "number"), UniqueConstraint("event_id", "name"))

    id: int | None = Field(default=None, primary_key=True)
    event_id: int = _event_fk()
    number: int = Field(sa_column=Column(Integer, nullable=False))
    name: str = Field(sa_column=Column(Text, nullable=False))
    # The names that sit at the table: one, or two for a partnership.
    players: list[str] = _json()
    club: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    # The first round this entrant may be paired in (a late entry: a later one).
    joined_round: int = Field(sa_column=Column(Integer, nullable=False))
    # The first round this entrant is no longer paired in.
    withdrawn_round: int | None = Field(default=None, sa_column=Column(Integer, nullable=True))
    created_at: datetime = _when()


class TournamentForbidden(StoreModel, table=True):
    """Two entrants who must never sit at one table (family, same club)."""

    __tablename__ = "tournament_forbidden"
    __table_args__ = (UniqueConstraint("event_id", "first_id", "second_id"),)

    id: int | None = Field(default=None, primary_key=True)
    event_id: int = _event_fk()
    first_id: int = Field(sa_column=Column(Integer, ForeignKey("tournament_entrants.id"), nullable=False))
    second_id: int = Field(sa_column=Column(Integer, ForeignKey("tournament_entrants.id"), nullable=False))
    reason: str = Field(sa_column=Column(Text, nullable=False))


class TournamentRound(StoreModel, table=True):
    """A paired round: what the pairing was computed from, and what it gave."""

    __tablename__ = "tournament_rounds"
    __table_args__ = (UniqueConstraint("event_id", "number"),)

    id: int | None = Field(default=None, primary_key=True)
    event_id: int = _event_fk()
    number: int = Field(sa_column=Column(Integer, nullable=False))
    seed: str = Field(sa_column=Column(Text, nullable=False))
    engine_version: str = Field(sa_column=Column(Text, nullable=False))
    # The pairing's whole input (entrants, standings, history, forbidden pairs) and its output.
    inputs: dict[str, Any] = _json()
    computed: dict[str, Any] = _json()
    fingerprint: str = Field(sa_column=Column(String(64), nullable=False))
    paired_at: datetime = _when()
    locked_at: datetime | None = _when(nullable=True)


class TournamentTable(StoreModel, table=True):
    """One table of a round (or a bye): its entrants in seat order and its match."""

    __tablename__ = "tournament_tables"
    __table_args__ = (UniqueConstraint("round_id", "number"),)

    id: int | None = Field(default=None, primary_key=True)
    round_id: int = Field(
        sa_column=Column(Integer, ForeignKey("tournament_rounds.id", ondelete="CASCADE"), nullable=False, index=True)
    )
    number: int = Field(sa_column=Column(Integer, nullable=False))
    # A bye has no match.
    match_id: int | None = Field(default=None, sa_column=Column(Integer, ForeignKey("matches.id"), nullable=True))
    entrants: list[int] = _json()
    code_hash: str | None = Field(default=None, sa_column=Column(Text, nullable=True))


class TournamentConfirmation(StoreModel, table=True):
    """The opposing side's confirmation of one hand's result at a table.

    ``fingerprint`` is the digest of the hand as it stood when confirmed: a
    hand corrected afterwards no longer matches, and is provisional again.
    """

    __tablename__ = "tournament_confirmations"

    id: int | None = Field(default=None, primary_key=True)
    table_id: int = Field(
        sa_column=Column(Integer, ForeignKey("tournament_tables.id", ondelete="CASCADE"), nullable=False, index=True)
    )
    hand: int = Field(sa_column=Column(Integer, nullable=False))
    fingerprint: str = Field(sa_column=Column(String(64), nullable=False))
    confirmed_by: str = Field(sa_column=Column(Text, nullable=False))
    at: datetime = _when()


class TournamentAudit(StoreModel, table=True):
    """Who did what to an event and when: registrations, pairings, re-pairings, codes, confirmations."""

    __tablename__ = "tournament_audit"

    id: int | None = Field(default=None, primary_key=True)
    event_id: int = _event_fk()
    at: datetime = _when()
    actor: str = Field(sa_column=Column(Text, nullable=False))
    action: str = Field(sa_column=Column(String(30), nullable=False))
    detail: dict[str, Any] = _json()


class TournamentSession(StoreModel, table=True):
    """A signed-in role: the SHA-256 of a random token, its role, and for a table which one."""

    __tablename__ = "tournament_sessions"

    id: int | None = Field(default=None, primary_key=True)
    event_id: int = _event_fk()
    token_hash: str = Field(sa_column=Column(String(64), nullable=False, unique=True))
    role: str = Field(sa_column=Column(String(12), nullable=False))
    table_id: int | None = Field(
        default=None,
        sa_column=Column(Integer, ForeignKey("tournament_tables.id", ondelete="CASCADE"), nullable=True),
    )
    created_at: datetime = _when()


class TournamentAttempt(StoreModel, table=True):
    """One sign-in attempt (password or table code), kept for the rate limit across processes."""

    __tablename__ = "tournament_attempts"
    __table_args__ = (Index("ix_tournament_attempts_event_key", "event_id", "key"),)

    id: int | None = Field(default=None, primary_key=True)
    event_id: int = Field(
        sa_column=Column(Integer, ForeignKey("tournament_events.id", ondelete="CASCADE"), nullable=False)
    )
    key: str = Field(sa_column=Column(Text, nullable=False))
    ok: bool = Field(sa_column=Column(Boolean, nullable=False))
    at: datetime = _when()


class TournamentForfeit(StoreModel, table=True):
    """A forfeit the director gave at a table (migration 0004): who forfeited, why, who gave it and when.

    The table's result for the round is then the forfeit's, not its match's:
    the losers score nothing, everyone else at the table a forfeit win.
    """

    __tablename__ = "tournament_forfeits"

    id: int | None = Field(default=None, primary_key=True)
    table_id: int = Field(
        sa_column=Column(Integer, ForeignKey("tournament_tables.id", ondelete="CASCADE"), nullable=False, unique=True)
    )
    # The entrants who forfeited (ids), in seat order.
    losers: list[int] = _json()
    reason: str = Field(sa_column=Column(Text, nullable=False))
    actor: str = Field(sa_column=Column(Text, nullable=False))
    # Hands the table had played when the forfeit was given (they stay in the match's log, uncounted).
    hands_played: int = Field(sa_column=Column(Integer, nullable=False))
    at: datetime = _when()
