"""Matches that belong to someone: a table label, players renamed, archived and deleted matches.

Functions over a ``Store`` (its engine): none touches the event log. Each
change is one transaction with its audit line (``label``, ``rename``,
``archive``, ``unarchive``, ``delete``). A rename or a delete also moves the
match's revision on, so every screen's cached state of that match is rebuilt
(and a write from a screen that has not seen the change is refused with
``StoreConflict``, as for any other write made meanwhile).

A deleted match disappears from every listing and cannot be loaded
(``UnknownMatch``), but its rows stay: nothing of a log is ever deleted, and
the audit line says who deleted it and when (``audit_trail``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy import select, update
from sqlmodel import Session, col

from scorepad.access import Caller, Write
from scorepad.rules.errors import RecordFormatError
from scorepad.rules.names import clean_names
from scorepad.store import repository as repo
from scorepad.store.db import session_scope, writer
from scorepad.store.errors import NotInTrash, StoreError, UnknownMatch
from scorepad.store.models import AuditEntry, Match, Seat, as_utc, utcnow
from scorepad.store.store import AuditItem, Store, pass_door
from scorepad.store.summary import MatchSummary
from scorepad.store.tables import core_table

_MATCHES = core_table(Match)
_SEATS = core_table(Seat)
LABEL_MAX = 40  # characters: a table's name or number, as short as a player's name


class MatchEditRefused(StoreError, ValueError):
    """A label or a new name the store will not take; the message is one plain sentence."""


@dataclass(frozen=True)
class MatchLine:
    """One match in the history: its listing, its table label and whether it is archived."""

    summary: MatchSummary
    label: str | None
    archived: bool

    @property
    def id(self) -> int:
        """The match's id."""
        return self.summary.id

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form: the summary's fields plus ``label`` and ``archived``."""
        return {**self.summary.to_dict(), "label": self.label, "archived": self.archived}


def checked_names(names: list[str]) -> list[str]:
    """The players' names as stored: trimmed, checked by ``scorepad.rules.names.clean_names``, no two alike.

    Names are compared case, spaces and Unicode form aside ("ann" and "Ann "
    are one name). Raises ``MatchEditRefused`` with the engine's sentence
    (blank, more than 40 characters, a character that cannot be shown, two
    players alike).
    """
    try:
        return clean_names(names)
    except RecordFormatError as err:
        raise MatchEditRefused(sentence(str(err)) + ".") from None


def clean_label(label: str | None) -> str | None:
    """A table label as stored: trimmed, inner runs of spaces kept; blank means none.

    Raises ``MatchEditRefused`` for a label longer than 40 characters or with
    control characters.
    """
    text = (label or "").strip()
    if not text:
        return None
    if len(text) > LABEL_MAX:
        raise MatchEditRefused(f"A table label has at most {LABEL_MAX} characters; this one has {len(text)}.")
    if not text.isprintable():
        raise MatchEditRefused("A table label may hold letters, digits, spaces and punctuation only.")
    return text


def label_match(store: Store, match_id: int, label: str | None, *, caller: Caller) -> str | None:
    """Give the match a table label (None or blank: no label); returns the label stored.

    Raises ``MatchEditRefused`` (see ``clean_label``), ``UnknownMatch`` and ``AccessRefused``.
    """
    text = clean_label(label)
    with session_scope(writer(store.engine)) as session:
        before = _row(session, match_id).label
        pass_door(session, match_id, caller, Write.LABEL)
        if before == text:
            return text
        session.execute(update(_MATCHES).where(_MATCHES.c.id == match_id).values(label=text))
        _audit(session, match_id, "label", caller, {"from": before, "to": text})
    return text


def rename_player(store: Store, match_id: int, seat: int, name: str, *, caller: Caller) -> list[str]:
    """Rename the player in ``seat`` of a match already started; returns the players in seat order.

    The name is checked as a new match's would be (``scorepad.rules.names``:
    trimmed, at most 40 printable characters, no two players of the match with
    the same name, case aside). The record's events name seats, not players, so
    the log is untouched; the match's revision moves on so every screen reloads
    it. Raises ``MatchEditRefused`` (the engine's sentence), ``UnknownMatch``
    ``StoreConflict`` (another device wrote at the same moment) and ``AccessRefused``.
    """
    with session_scope(writer(store.engine)) as session:
        row = _row(session, match_id)
        pass_door(session, match_id, caller, Write.RENAME)
        players = list(repo.match_header(session=session, match_id=match_id).players)
        if not 0 <= seat < len(players):
            raise MatchEditRefused(f"This match has seats 0 to {len(players) - 1}, not {seat}.")
        wanted = [*players[:seat], name, *players[seat + 1 :]]
        new_names = checked_names(wanted)
        new = new_names[seat]
        old = players[seat]
        if new == old:
            return players
        (player_id,) = repo.ensure_players(session=session, names=[new], now=utcnow())
        seats = _SEATS
        session.execute(
            update(seats).where(seats.c.match_id == match_id, seats.c.seat == seat).values(player_id=player_id)
        )
        summary = dict(row.summary or {})
        summary["players"] = new_names
        repo.advance_revision(
            session=session, match_id=match_id, expected=row.revision, to=row.revision + 1, summary=summary
        )
        _audit(session, match_id, "rename", caller, {"seat": seat, "from": old, "to": new})
    # Every screen following the match reloads it, as after any entry (Store.add_commit_listener).
    store._committed(match_id, row.revision + 1, caller.view)
    return new_names


def archive_match(store: Store, match_id: int, *, caller: Caller, archived: bool = True) -> None:
    """Archive a match (hidden from the history's default view) or bring it back.

    Archiving twice is harmless. Raises ``UnknownMatch`` and ``AccessRefused``.
    """
    with session_scope(writer(store.engine)) as session:
        row = _row(session, match_id)
        pass_door(session, match_id, caller, Write.ARCHIVE)
        if (row.archived_at is not None) == archived:
            return
        session.execute(
            update(_MATCHES).where(_MATCHES.c.id == match_id).values(archived_at=utcnow() if archived else None)
        )
        _audit(session, match_id, "archive" if archived else "unarchive", caller, {})


def delete_match(store: Store, match_id: int, *, caller: Caller) -> None:
    """Put a match in the Trash: gone from every listing and from loading; its log and audit stay.

    ``restore_match`` brings it back. Raises ``UnknownMatch`` (also for a
    match deleted already) and ``AccessRefused`` (a tournament's match, or
    a joined device that did not start it).
    """
    with session_scope(writer(store.engine)) as session:
        row = _row(session, match_id)
        pass_door(session, match_id, caller, Write.DELETE)
        session.execute(
            update(_MATCHES).where(_MATCHES.c.id == match_id).values(deleted_at=utcnow(), revision=row.revision + 1)
        )
        summary = row.summary or {}
        _audit(
            session,
            match_id,
            "delete",
            caller,
            {"players": summary.get("players"), "label": row.label, "status": row.status},
        )
    store._committed(match_id, row.revision + 1, caller.view)


def restore_match(store: Store, match_id: int, *, caller: Caller) -> None:
    """Take a match out of the Trash: listed and loaded again as it was.

    Raises ``NotInTrash`` and ``AccessRefused``
    (only this computer or the device that started it may).
    """
    table = _MATCHES
    with session_scope(writer(store.engine)) as session:
        pass_door(session, match_id, caller, Write.RESTORE)
        row = session.execute(
            select(table.c.revision).where(table.c.id == match_id, table.c.deleted_at.is_not(None))
        ).first()
        if row is None:
            raise NotInTrash(match_id)
        session.execute(update(table).where(table.c.id == match_id).values(deleted_at=None, revision=row.revision + 1))
        _audit(session, match_id, "restore", caller, {})
    store._committed(match_id, row.revision + 1, caller.view)


@dataclass(frozen=True)
class TrashedMatch:
    """A match in the Trash: when it was deleted and by whom, and what it was."""

    id: int
    deleted_at: datetime
    deleted_by: str | None
    players: list[str]
    label: str | None
    status: str


def trashed_matches(store: Store) -> list[TrashedMatch]:
    """The matches in the Trash, the latest deleted first (``scorepad matches --deleted``, the history's Trash)."""
    table = _MATCHES
    audit = core_table(AuditEntry)
    deleted_by = (
        select(audit.c.device)
        .where(audit.c.match_id == table.c.id, audit.c.action == "delete")
        .order_by(audit.c.id.desc())
        .limit(1)
        .scalar_subquery()
    )
    query = (
        select(table.c.id, table.c.deleted_at, deleted_by, table.c.summary, table.c.label, table.c.status)
        .where(table.c.deleted_at.is_not(None))
        .order_by(table.c.deleted_at.desc(), table.c.id.desc())
    )
    with session_scope(store.engine) as session:
        return [
            TrashedMatch(
                id=match_id,
                deleted_at=as_utc(when) or when,
                deleted_by=by,
                players=list((summary or {}).get("players") or []),
                label=label,
                status=status,
            )
            for match_id, when, by, summary, label, status in session.execute(query)
        ]


def match_label(store: Store, match_id: int) -> str | None:
    """The match's table label, or None. Raises ``UnknownMatch``."""
    with session_scope(store.engine) as session:
        return _row(session, match_id).label


def match_marks(store: Store) -> dict[int, tuple[str | None, bool]]:
    """Each match not deleted: its table label and whether it is archived."""
    table = _MATCHES
    query = select(table.c.id, table.c.label, table.c.archived_at).where(table.c.deleted_at.is_(None))
    with session_scope(store.engine) as session:
        return {match_id: (label, archived_at is not None) for match_id, label, archived_at in session.execute(query)}


def match_lines(
    store: Store,
    *,
    label: str | None = None,
    player: str | None = None,
    since: date | None = None,
    until: date | None = None,
    archived: bool | None = False,
) -> list[MatchLine]:
    """The history: matches not deleted, newest first, filtered.

    ``label`` and ``player`` match part of the label or of a player's name,
    case aside; ``since`` and ``until`` are days (inclusive) of the match's
    start, in UTC; ``archived`` False lists the matches not archived, True the
    archived ones, None both. The listing itself is the store's
    (``Store.list_matches``, which rebuilds a damaged cache line from its log).
    """
    marks = match_marks(store)
    want_label = (label or "").strip().casefold()
    want_player = (player or "").strip().casefold()
    lines = []
    for summary in store.list_matches():
        # A match created between the two reads has no mark yet: no label, not archived.
        row_label, is_archived = marks.get(summary.id, (None, False))
        if archived is not None and is_archived != archived:
            continue
        if want_label and want_label not in (row_label or "").casefold():
            continue
        if want_player and not any(want_player in name.casefold() for name in summary.players):
            continue
        day = started_day(summary.started)
        if (since is not None and day < since) or (until is not None and day > until):
            continue
        lines.append(MatchLine(summary=summary, label=row_label, archived=is_archived))
    return lines


def audit_trail(store: Store, match_id: int) -> list[AuditItem]:
    """The match's audit trail, oldest first, also for a deleted match. Raises ``UnknownMatch``."""
    with session_scope(store.engine) as session:
        if session.get(Match, match_id) is None:
            raise UnknownMatch(match_id)
        rows = session.execute(
            select(AuditEntry).where(col(AuditEntry.match_id) == match_id).order_by(col(AuditEntry.id))
        ).scalars()
        return [
            AuditItem(
                at=as_utc(r.at) or r.at,
                action=r.action,
                device=r.device,
                hand=r.hand,
                seq=r.seq,
                detail=dict(r.detail or {}),
            )
            for r in rows
        ]


def sentence(text: str) -> str:
    """``text`` with its first letter capitalised (the engine's reasons start in lower case)."""
    return text[:1].upper() + text[1:]


def _row(session: Session, match_id: int) -> Any:
    """The match's row (not deleted). Raises ``UnknownMatch``."""
    table = _MATCHES
    row = session.execute(
        select(table.c.label, table.c.archived_at, table.c.revision, table.c.status, table.c.summary).where(
            table.c.id == match_id, table.c.deleted_at.is_(None)
        )
    ).first()
    if row is None:
        raise UnknownMatch(match_id)
    return row


def _audit(session: Session, match_id: int, action: str, caller: Caller, detail: dict[str, Any]) -> None:
    repo.add_audit(session=session, match_id=match_id, action=action, device=caller.view, now=utcnow(), detail=detail)


def started_day(moment: datetime) -> date:
    """The UTC day a match started on (the history's date filter works in days)."""
    return (as_utc(moment) or moment).date()
