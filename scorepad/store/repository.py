"""Database functions of the store: one small query or write each.

Every function takes keyword-only arguments and the session it works in; the
caller (``scorepad.store.store``) owns the transaction.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import (
    CursorResult,
    Insert,
    Result,
    Table,
    Text,
    and_,
    cast,
    func,
    insert,
    literal,
    or_,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.dialects.postgresql import aggregate_order_by
from sqlmodel import Session, col

from scorepad.store.errors import StoreConflict, UnknownMatch
from scorepad.store.faults import told
from scorepad.store.log import Entry
from scorepad.store.models import AuditEntry, Hand, LogEntry, Match, Player, Seat, as_utc
from scorepad.store.tables import core_table

_PLAYERS = core_table(Player)
_MATCHES = core_table(Match)
_HANDS = core_table(Hand)
_LOG = core_table(LogEntry)
_AUDIT = core_table(AuditEntry)


@dataclass(frozen=True)
class MatchHeader:
    """The fixed facts of a match and its current revision."""

    id: int
    rules: str
    options: dict[str, Any]
    players: list[str]
    created_at: datetime
    finished_at: datetime | None
    revision: int


@contextmanager
def conflicts_reported(*, saving: bool = True) -> Iterator[None]:
    """Turn every database error into the store's: ``StoreConflict`` or a one-sentence fault.

    A taken sequence number or hand number (UNIQUE), a PostgreSQL
    serialization failure or deadlock become ``StoreConflict``; anything else
    (a lock held past the busy timeout, a full disk, a lost connection...) a
    ``DatabaseUnavailable`` (``scorepad.store.faults``).
    """
    with told(saving=saving):
        yield


def _new_id(result: Result[Any]) -> int:
    """The id of the row an INSERT just wrote (``Session.execute`` is declared to return any ``Result``).

    Raises ``RuntimeError`` if the database gave none, which a one-row INSERT never does.
    """
    key = result.inserted_primary_key if isinstance(result, CursorResult) else None
    if key is None:
        raise RuntimeError("the database gave no id for the row just written")
    return int(key[0])


def _insert_ignoring_duplicates(session: Session, table: Table) -> Insert:
    if session.get_bind().dialect.name == "postgresql":
        return postgresql.insert(table).on_conflict_do_nothing()
    return sqlite.insert(table).on_conflict_do_nothing()


def ensure_players(*, session: Session, names: Sequence[str], now: datetime) -> list[int]:
    """The ids of the named players, creating those not stored yet (in seat order)."""
    wanted = list(dict.fromkeys(names))
    session.execute(
        _insert_ignoring_duplicates(session, _PLAYERS),
        [{"name": name, "created_at": now} for name in wanted],
    )
    found = session.execute(select(col(Player.name), col(Player.id)).where(col(Player.name).in_(wanted))).all()
    # A stored player always has its id (the primary key).
    ids = {name: player_id for name, player_id in found if player_id is not None}
    return [ids[name] for name in names]


def create_match(
    *,
    session: Session,
    rules: str,
    options: dict[str, Any],
    players: Sequence[str],
    device: str | None,
    summary: dict[str, Any],
    now: datetime,
    revision: int = 0,
) -> int:
    """Store a new match with its seats; returns its id.

    ``revision`` is the number of writes it starts with (an import writes its
    whole log at once).
    """
    match = Match(
        rules=rules,
        options=options,
        created_at=now,
        device=device,
        revision=revision,
        status=summary["status"],
        summary=summary,
    )
    session.add(match)
    session.flush()
    assert match.id is not None
    player_ids = ensure_players(session=session, names=players, now=now)
    session.add_all(
        Seat(match_id=match.id, seat=seat, player_id=player_id) for seat, player_id in enumerate(player_ids)
    )
    return match.id


def match_header(*, session: Session, match_id: int) -> MatchHeader:
    """The match's fixed facts and revision. Raises ``UnknownMatch``."""
    header = match_headers(session=session, match_ids=[match_id]).get(match_id)
    if header is None:
        raise UnknownMatch(match_id)
    return header


def match_headers(*, session: Session, match_ids: Sequence[int]) -> dict[int, MatchHeader]:
    """The fixed facts and revision of each of the matches stored, by id, in one statement (a missing id is left out).

    The matches and their seats' players come in one join, a row per seat
    (a hall of 100 tables reads 100 headers at once).
    """
    rows = session.execute(
        select(
            col(Match.id),
            col(Match.rules),
            col(Match.options),
            col(Match.created_at),
            col(Match.finished_at),
            col(Match.revision),
            col(Player.name),
        )
        .outerjoin(Seat, col(Seat.match_id) == col(Match.id))
        .outerjoin(Player, col(Player.id) == col(Seat.player_id))
        .where(col(Match.id).in_(list(match_ids)), col(Match.deleted_at).is_(None))
        .order_by(col(Match.id), col(Seat.seat))
    ).all()
    headers: dict[int, MatchHeader] = {}
    for row in rows:
        header = headers.get(row.id)
        if header is None:
            header = headers[row.id] = MatchHeader(
                id=row.id,
                rules=row.rules,
                options=dict(row.options or {}),
                players=[],
                created_at=as_utc(row.created_at) or row.created_at,
                finished_at=as_utc(row.finished_at),
                revision=row.revision,
            )
        if row.name is not None:
            header.players.append(row.name)
    return headers


def current_revision(*, session: Session, match_id: int) -> int:
    """The match's revision (bumped by every write). Raises ``UnknownMatch``."""
    revision = current_revisions(session=session, match_ids=[match_id]).get(match_id)
    if revision is None:
        raise UnknownMatch(match_id)
    return revision


def current_revisions(*, session: Session, match_ids: Sequence[int]) -> dict[int, int]:
    """The revision of each of the matches stored, by id, in one statement (a missing id is left out)."""
    ids = list(match_ids)
    # One match (every load) by equality: an expanding IN is rendered anew at each call.
    which = col(Match.id) == ids[0] if len(ids) == 1 else col(Match.id).in_(ids)
    rows = session.execute(
        select(col(Match.id), col(Match.revision)).where(which, col(Match.deleted_at).is_(None))
    ).all()
    return {match_id: revision for match_id, revision in rows}


def read_logs(*, session: Session, after: Mapping[int, int]) -> dict[int, list[Entry]]:
    """The log entries of each match in ``after`` written after the revision it maps to (0: every one), by match.

    One statement for all of them; each match's entries in the order they
    were written, and an empty list for a match with none.
    """
    if not after:
        return {}
    # The matches read from the same revision share one condition: a hall's first read is a single IN.
    since: dict[int, list[int]] = {}
    for match_id, revision in after.items():
        since.setdefault(revision, []).append(match_id)
    wanted = or_(
        *(and_(col(Hand.match_id).in_(ids), col(LogEntry.revision) > revision) for revision, ids in since.items())
    )
    rows = session.execute(
        select(
            col(Hand.match_id),
            col(Hand.number),
            col(LogEntry.seq),
            col(LogEntry.revision),
            col(LogEntry.kind),
            col(LogEntry.payload),
            col(LogEntry.device),
        )
        .join(Hand, col(LogEntry.hand_id) == col(Hand.id))
        .where(wanted)
        .order_by(col(Hand.match_id), col(LogEntry.revision))
    ).all()
    logs: dict[int, list[Entry]] = {match_id: [] for match_id in after}
    for r in rows:
        logs[r[0]].append(Entry(hand=r[1], seq=r[2], revision=r[3], kind=r[4], payload=r[5], device=r[6]))
    return logs


def hand_id(*, session: Session, match_id: int, number: int, now: datetime) -> int:
    """The id of hand ``number`` of the match, creating its row the first time.

    Two writers creating the same hand collide on UNIQUE(match_id, number).
    """
    hands = _HANDS
    found = session.execute(
        select(hands.c.id).where(hands.c.match_id == match_id, hands.c.number == number)
    ).scalar_one_or_none()
    if found is not None:
        return found
    return _new_id(session.execute(insert(hands).values(match_id=match_id, number=number, created_at=now)))


def append_entry(
    *,
    session: Session,
    match_id: int,
    number: int,
    seq: int,
    revision: int,
    kind: str,
    payload: dict[str, Any],
    device: str | None,
    now: datetime,
) -> int | None:
    """Append one entry to the log of hand ``number`` of the match; returns its id.

    Returns None, writing nothing, when the hand has no row yet (its first
    entry: make it with ``hand_id`` and append again). Raises SQLAlchemy's
    ``IntegrityError`` when ``seq`` is taken in that hand (inside
    ``conflicts_reported`` it becomes ``StoreConflict``).
    """
    # One Core statement finds the hand and inserts (a round trip and the ORM's unit of
    # work cost more than the insert itself, and every tap waits for them).
    hand = select(
        _HANDS.c.id,
        literal(seq),
        literal(revision),
        literal(kind),
        literal(payload, _LOG.c.payload.type),
        literal(device, _LOG.c.device.type),
        literal(now, _LOG.c.created_at.type),
    ).where(_HANDS.c.match_id == match_id, _HANDS.c.number == number)
    columns = ["hand_id", "seq", "revision", "kind", "payload", "device", "created_at"]
    inserted = session.execute(insert(_LOG).from_select(columns, hand).returning(_LOG.c.id)).scalar_one_or_none()
    return None if inserted is None else int(inserted)


def append_entries(*, session: Session, rows: Sequence[dict[str, Any]]) -> None:
    """Append many log entries at once (an import); each row has every column but ``id``."""
    if rows:
        session.execute(insert(_LOG), list(rows))


def advance_revision(
    *,
    session: Session,
    match_id: int,
    expected: int,
    to: int,
    summary: dict[str, Any],
    finished_at: datetime | None = None,
) -> None:
    """Move the match from revision ``expected`` to ``to`` and refresh its listing cache.

    Compare-and-set: raises ``StoreConflict`` if another writer moved the
    revision since ``expected`` was read.
    """
    values: dict[str, Any] = {"revision": to, "status": summary["status"], "summary": summary}
    if finished_at is not None:
        values["finished_at"] = finished_at
    matches = _MATCHES
    result = session.execute(
        update(matches).where(matches.c.id == match_id, matches.c.revision == expected).values(**values)
    )
    # An UPDATE's result is a CursorResult (Session.execute is declared to return any Result).
    if not isinstance(result, CursorResult) or result.rowcount != 1:
        raise StoreConflict()


def add_audit(
    *,
    session: Session,
    match_id: int,
    action: str,
    device: str | None,
    now: datetime,
    event_id: int | None = None,
    hand: int | None = None,
    seq: int | None = None,
    detail: dict[str, Any] | None = None,
) -> None:
    """Record who did what to the match, and when."""
    session.execute(
        insert(_AUDIT).values(
            match_id=match_id,
            event_id=event_id,
            action=action,
            hand=hand,
            seq=seq,
            detail=detail or {},
            at=now,
            device=device,
        )
    )


def read_audit(*, session: Session, match_id: int) -> list[AuditEntry]:
    """The match's audit entries, oldest first."""
    return list(
        session.execute(
            select(AuditEntry).where(col(AuditEntry.match_id) == match_id).order_by(col(AuditEntry.id))
        ).scalars()
    )


def listing_caches(*, session: Session) -> list[tuple[int, dict[str, Any]]]:
    """Id and decoded listing cache of every match, newest first.

    The database joins the caches into one JSON array, decoded by one
    ``json.loads``: for 10,000 matches a third of the time of decoding them
    row by row (the listing target is 100 ms).
    """
    table = _MATCHES
    summary = cast(table.c.summary, Text)
    if session.get_bind().dialect.name == "postgresql":
        order = table.c.id.desc()
        query = select(
            func.string_agg(cast(table.c.id, Text), aggregate_order_by(literal(","), order)),
            func.string_agg(summary, aggregate_order_by(literal(","), order)),
        ).where(table.c.deleted_at.is_(None))
    else:
        # Both aggregates walk the same rows in the same order, so the i-th id
        # goes with the i-th cache; SQLite keeps the subquery's order in
        # practice, and the sort below makes sure of it at little cost.
        newest_first = (
            select(table.c.id, summary.label("summary")).where(table.c.deleted_at.is_(None)).order_by(table.c.id.desc())
        )
        rows = newest_first.subquery()
        query = select(func.group_concat(rows.c.id, ","), func.group_concat(rows.c.summary, ","))
    ids, caches = session.execute(query).one()
    if ids is None:
        return []
    listing = list(zip(map(int, ids.split(",")), json.loads(f"[{caches}]"), strict=True))
    listing.sort(key=lambda line: line[0], reverse=True)
    return listing
