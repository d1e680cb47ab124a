"""Database functions of the tournament: one small query or write each (as ``repository`` is for matches).

Every function takes keyword-only arguments and the session it works in; the
caller (``scorepad.tournament``) owns the transaction, through
``session_scope`` or ``unique_writes``. Nothing here decides anything: a
missing row is ``None`` (or an empty result), and the tournament words the
refusal. The tournament reaches the database only through this module, so
``Session`` and ``Engine`` are named here for it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.engine import Engine as Engine  # re-exported: the tournament names engines through the store
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import aliased
from sqlmodel import Session as Session  # re-exported: the tournament names sessions through the store
from sqlmodel import col

from scorepad.store.db import session_scope
from scorepad.store.errors import StoreError
from scorepad.store.models import Match
from scorepad.store.tournament_models import (
    TournamentAttempt,
    TournamentAudit,
    TournamentConfirmation,
    TournamentEntrant,
    TournamentEvent,
    TournamentForbidden,
    TournamentForfeit,
    TournamentRound,
    TournamentSession,
    TournamentTable,
)


class AlreadyStored(StoreError):
    """A row that may exist once (a round's number, a table's forfeit) was written meanwhile by another device."""


@contextmanager
def unique_writes(engine: Engine) -> Iterator[Session]:
    """``session_scope`` on ``engine``, raising ``AlreadyStored`` when the commit breaks a UNIQUE constraint."""
    try:
        with session_scope(engine) as session:
            yield session
    except IntegrityError:
        raise AlreadyStored("that was written meanwhile by another device") from None


# -- events and entrants ---------------------------------------------------------------


def event(*, session: Session, event_id: int) -> TournamentEvent | None:
    """The event, or None."""
    return session.get(TournamentEvent, event_id)


def add_row(*, session: Session, row: TournamentEvent | TournamentEntrant | TournamentRound) -> int:
    """Write a new event, entrant or round now (flushed) and return its id."""
    session.add(row)
    session.flush()
    if row.id is None:
        raise RuntimeError("the database gave no id for the row just written")
    return row.id


def entrants(*, session: Session, event_id: int) -> list[TournamentEntrant]:
    """The event's entrants by registration number."""
    return list(
        session.execute(
            select(TournamentEntrant)
            .where(col(TournamentEntrant.event_id) == event_id)
            .order_by(col(TournamentEntrant.number))
        ).scalars()
    )


def entrant_labels(*, session: Session, entrant_ids: Iterable[int]) -> dict[int, tuple[str, int]]:
    """The names and the event's own entrant numbers of these entrants, by id (one query)."""
    rows = session.execute(
        select(col(TournamentEntrant.id), col(TournamentEntrant.name), col(TournamentEntrant.number)).where(
            col(TournamentEntrant.id).in_(list(entrant_ids))
        )
    ).all()
    return {entrant: (name, number) for entrant, name, number in rows}


def forbidden_pairs(*, session: Session, event_id: int) -> list[TournamentForbidden]:
    """Every pair of the event kept apart."""
    return list(
        session.execute(select(TournamentForbidden).where(col(TournamentForbidden.event_id) == event_id)).scalars()
    )


def forbidden_pair(*, session: Session, event_id: int, first_id: int, second_id: int) -> TournamentForbidden | None:
    """The forbidden pair (lower id, higher id), or None."""
    return session.execute(
        select(TournamentForbidden).where(
            col(TournamentForbidden.event_id) == event_id,
            col(TournamentForbidden.first_id) == first_id,
            col(TournamentForbidden.second_id) == second_id,
        )
    ).scalar_one_or_none()


def add_audit(
    *, session: Session, event_id: int, actor: str, action: str, detail: dict[str, Any], at: datetime
) -> None:
    """One line of the event's audit trail."""
    session.add(TournamentAudit(event_id=event_id, at=at, actor=actor, action=action, detail=detail))


def audit(*, session: Session, event_id: int) -> list[TournamentAudit]:
    """The event's audit trail, oldest first."""
    return list(
        session.execute(
            select(TournamentAudit).where(col(TournamentAudit.event_id) == event_id).order_by(col(TournamentAudit.id))
        ).scalars()
    )


# -- rounds and tables -------------------------------------------------------------------


def latest_round(*, session: Session, event_id: int) -> TournamentRound | None:
    """The event's latest paired round (the one tables play now), or None."""
    return (
        session.execute(
            select(TournamentRound)
            .where(col(TournamentRound.event_id) == event_id)
            .order_by(col(TournamentRound.number).desc())
        )
        .scalars()
        .first()
    )


def round_numbered(*, session: Session, event_id: int, number: int) -> TournamentRound | None:
    """Round ``number`` of the event, or None."""
    return session.execute(
        select(TournamentRound).where(col(TournamentRound.event_id) == event_id, col(TournamentRound.number) == number)
    ).scalar_one_or_none()


def rounds(*, session: Session, event_id: int, before: int | None = None) -> list[TournamentRound]:
    """The event's rounds in order (those numbered below ``before``, when given)."""
    query = select(TournamentRound).where(col(TournamentRound.event_id) == event_id)
    if before is not None:
        query = query.where(col(TournamentRound.number) < before)
    return list(session.execute(query.order_by(col(TournamentRound.number))).scalars())


def round_held(*, session: Session, round_id: int) -> TournamentRound | None:
    """A round read afresh and held for this transaction (``FOR UPDATE``; SQLite's writer holds all), or None."""
    return session.execute(
        select(TournamentRound)
        .where(col(TournamentRound.id) == round_id)
        .with_for_update()
        .execution_options(populate_existing=True)
    ).scalar_one_or_none()


def tables(*, session: Session, round_id: int) -> list[TournamentTable]:
    """A round's tables and byes, by number."""
    return list(
        session.execute(
            select(TournamentTable)
            .where(col(TournamentTable.round_id) == round_id)
            .order_by(col(TournamentTable.number))
        ).scalars()
    )


def table(*, session: Session, table_id: int) -> TournamentTable | None:
    """A table by id, or None."""
    return session.get(TournamentTable, table_id)


def table_numbered(*, session: Session, round_id: int, number: int) -> TournamentTable | None:
    """Table ``number`` of a round, or None."""
    return session.execute(
        select(TournamentTable).where(col(TournamentTable.round_id) == round_id, col(TournamentTable.number) == number)
    ).scalar_one_or_none()


def round_matches(*, session: Session, event_id: int) -> list[tuple[int, int, int]]:
    """(round, table, match id) of every table of the event that has a match, in round and table order."""
    rows = session.execute(
        select(col(TournamentRound.number), col(TournamentTable.number), col(TournamentTable.match_id))
        .join(TournamentRound, col(TournamentRound.id) == col(TournamentTable.round_id))
        .where(col(TournamentRound.event_id) == event_id, col(TournamentTable.match_id).is_not(None))
        .order_by(col(TournamentRound.number), col(TournamentTable.number))
    ).all()
    return [(r, t, m) for r, t, m in rows]


def table_of_match(*, session: Session, event_id: int, match_id: int) -> tuple[int, int] | None:
    """(table id, table number) of the event's table that plays ``match_id``, or None."""
    row = session.execute(
        select(col(TournamentTable.id), col(TournamentTable.number))
        .join(TournamentRound, col(TournamentRound.id) == col(TournamentTable.round_id))
        .where(col(TournamentRound.event_id) == event_id, col(TournamentTable.match_id) == match_id)
    ).one_or_none()
    return None if row is None else (row[0], row[1])


def place_of_match(*, session: Session, match_id: int) -> tuple[int, int]:
    """(table number, round number) of the table that plays ``match_id`` (there must be one)."""
    row = session.execute(
        select(col(TournamentTable.number), col(TournamentRound.number))
        .join(TournamentRound, col(TournamentRound.id) == col(TournamentTable.round_id))
        .where(col(TournamentTable.match_id) == match_id)
    ).one()
    return row[0], row[1]


def add_table(
    *, session: Session, round_id: int, number: int, match_id: int | None, entrants: list[int], code_hash: str | None
) -> None:
    """One table of a round (``match_id`` None: a bye)."""
    session.add(
        TournamentTable(round_id=round_id, number=number, match_id=match_id, entrants=entrants, code_hash=code_hash)
    )


# -- forfeits and confirmations ------------------------------------------------------------


def forfeits(*, session: Session, table_ids: Sequence[int]) -> dict[int, TournamentForfeit]:
    """The forfeits given at these tables, by table id."""
    if not table_ids:
        return {}
    rows = session.execute(
        select(TournamentForfeit).where(col(TournamentForfeit.table_id).in_(list(table_ids)))
    ).scalars()
    return {r.table_id: r for r in rows}


def confirmations(*, session: Session, table_ids: Sequence[int]) -> dict[int, dict[int, set[str]]]:
    """The fingerprints each hand was confirmed with, by table id and hand (every table asked is a key)."""
    out: dict[int, dict[int, set[str]]] = {table_id: {} for table_id in table_ids}
    if not table_ids:
        return out
    for table_id, hand, fingerprint in session.execute(
        select(
            col(TournamentConfirmation.table_id),
            col(TournamentConfirmation.hand),
            col(TournamentConfirmation.fingerprint),
        ).where(col(TournamentConfirmation.table_id).in_(list(table_ids)))
    ).all():
        out[table_id].setdefault(hand, set()).add(fingerprint)
    return out


def add_confirmation(
    *, session: Session, table_id: int, hand: int, fingerprint: str, confirmed_by: str, at: datetime
) -> None:
    """A hand confirmed as it stands (its fingerprint)."""
    session.add(
        TournamentConfirmation(table_id=table_id, hand=hand, fingerprint=fingerprint, confirmed_by=confirmed_by, at=at)
    )


def match_revisions(*, session: Session, match_ids: Iterable[int]) -> dict[int, int]:
    """Each match's current revision, by id."""
    return {
        match_id: revision
        for match_id, revision in session.execute(
            select(col(Match.id), col(Match.revision)).where(col(Match.id).in_(list(match_ids)))
        ).all()
    }


# -- sign-in ---------------------------------------------------------------------------------


def latest_round_number(outer: Any) -> Any:
    """The number of the latest round of ``outer``'s event, as a subquery correlated to ``outer``'s row.

    ``outer`` is a model with an ``event_id`` column (a session, a round): a
    table plays in its event's latest round, and only then may its credential
    write.
    """
    rounds = aliased(TournamentRound, name="event_round")
    return (
        select(func.max(col(rounds.number)))
        .where(col(rounds.event_id) == col(outer.event_id))
        .correlate(outer)
        .scalar_subquery()
    )


def credential(*, session: Session, token_hash: str) -> tuple[Any, ...] | None:
    """What a session token stands for, in one statement (it runs before every entry of every table).

    (event id, role, created at, table id, table number, match id, the
    table's round's event id, that round's number, its lock time, the number
    of the event's latest round); the table's fields are None for other
    roles. None for an unknown token.
    """
    latest = latest_round_number(TournamentSession)
    row = session.execute(
        select(
            col(TournamentSession.event_id),
            col(TournamentSession.role),
            col(TournamentSession.created_at),
            col(TournamentTable.id),
            col(TournamentTable.number),
            col(TournamentTable.match_id),
            col(TournamentRound.event_id),
            col(TournamentRound.number),
            col(TournamentRound.locked_at),
            latest,
        )
        .outerjoin(TournamentTable, col(TournamentTable.id) == col(TournamentSession.table_id))
        .outerjoin(TournamentRound, col(TournamentRound.id) == col(TournamentTable.round_id))
        .where(col(TournamentSession.token_hash) == token_hash)
    ).one_or_none()
    return None if row is None else tuple(row)


def add_session(
    *, session: Session, event_id: int, token_hash: str, role: str, table_id: int | None, at: datetime
) -> None:
    """A signed-in role (the digest of its token)."""
    session.add(
        TournamentSession(event_id=event_id, token_hash=token_hash, role=role, table_id=table_id, created_at=at)
    )


def failed_attempts(*, session: Session, event_id: int, key: str, since: datetime) -> tuple[int, datetime | None]:
    """How many wrong attempts ``key`` made at the event after ``since``, and when the oldest of them was."""
    failures, oldest = session.execute(
        select(func.count(), func.min(col(TournamentAttempt.at))).where(
            col(TournamentAttempt.event_id) == event_id,
            col(TournamentAttempt.key) == key,
            col(TournamentAttempt.ok).is_(False),
            col(TournamentAttempt.at) > since,
        )
    ).one()
    return failures, oldest


def hold_event(*, session: Session, event_id: int) -> bool:
    """Hold the event's row for this transaction (``FOR UPDATE``); False when there is no such event."""
    found = session.execute(
        select(col(TournamentEvent.id)).where(col(TournamentEvent.id) == event_id).with_for_update()
    ).first()
    return found is not None


def add_attempt(*, session: Session, event_id: int, key: str, ok: bool, at: datetime) -> int:
    """One sign-in attempt, right or wrong; returns its row's id."""
    attempt = TournamentAttempt(event_id=event_id, key=key, ok=ok, at=at)
    session.add(attempt)
    session.flush()
    if attempt.id is None:
        raise RuntimeError("the database gave no id for the attempt just written")
    return attempt.id


def attempt_was_right(*, session: Session, attempt_id: int) -> None:
    """Mark a counted attempt right: it no longer counts against the limit."""
    session.execute(update(TournamentAttempt).where(col(TournamentAttempt.id) == attempt_id).values(ok=True))
