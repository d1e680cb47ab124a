"""The tournament's rows read through the store, with the refusal when one is missing, and the audit line.

What every job of the service shares: ``Desk`` (the store, its engines and
the gate), lookups that raise ``TournamentError`` in one sentence
(``wording``) where the store's repository (``scorepad.store.tournament_repo``)
gives None, and the small rules about an event's figures (a bye's games, a
round's play complete).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from scorepad.rules.errors import RecordFormatError
from scorepad.rules.names import check_text, clean_names
from scorepad.rules.numbers import NumberRefused, read_whole
from scorepad.store import Store
from scorepad.store import tournament_repo as repo
from scorepad.store.db import writer
from scorepad.store.models import utcnow
from scorepad.store.tournament_models import TournamentEntrant, TournamentEvent, TournamentRound, TournamentTable
from scorepad.store.tournament_repo import Session
from scorepad.tournament import wording
from scorepad.tournament.access import Gate
from scorepad.tournament.errors import TournamentError
from scorepad.tournament.results import TableResult


class Desk:
    """One job of the service (events, rounds, scoring, views...): the store, its engines and the gate it works with."""

    def __init__(self, store: Store, gate: Gate) -> None:
        self.store = store
        self.gate = gate
        self._engine = store.engine
        self._writer = writer(store.engine)


class _Saved(Protocol):
    """A stored row: its primary key is None only until the row is first flushed."""

    @property
    def id(self) -> int | None: ...


def pk(row: _Saved) -> int:
    """The primary key of a row read from the database or flushed to it.

    Raises ``TournamentError`` for a row never flushed, which the service never hands on.
    """
    if row.id is None:
        raise TournamentError(wording.UNSAVED_ROW)
    return row.id


def event(session: Session, event_id: int) -> TournamentEvent:
    """The event. Raises ``TournamentError`` for an unknown id."""
    found = repo.event(session=session, event_id=event_id)
    if found is None:
        raise TournamentError(wording.no_event(event_id))
    return found


def entrant(session: Session, event_id: int, ref: str | int) -> TournamentEntrant:
    """An entrant by registration number or by name (either partner's name will do).

    Raises ``TournamentError`` for nobody so called or numbered.
    """
    text = str(ref).strip()
    try:
        number: int | None = read_whole(text, lowest=1, what="an entrant number")
    except NumberRefused:
        number = None
    for e in repo.entrants(session=session, event_id=event_id):
        if e.number == number or text.casefold() in (
            e.name.casefold(),
            *(p.casefold() for p in e.players),
        ):
            return e
    raise TournamentError(wording.nobody_called(text))


def names(session: Session, event_id: int) -> dict[int, str]:
    """Every entrant's name, by id."""
    return {pk(e): e.name for e in repo.entrants(session=session, event_id=event_id)}


def forbidden(session: Session, event_id: int) -> dict[frozenset[int], str]:
    """The event's forbidden pairs, each with its reason."""
    return {
        frozenset((r.first_id, r.second_id)): r.reason for r in repo.forbidden_pairs(session=session, event_id=event_id)
    }


def rounds_paired(session: Session, event_id: int) -> int:
    """How many rounds of the event are paired (the latest round's number)."""
    latest = repo.latest_round(session=session, event_id=event_id)
    return latest.number if latest is not None else 0


def latest_held(session: Session, event_id: int) -> TournamentRound:
    """The event's latest round, held for this transaction (see ``round_held``).

    Raises ``TournamentError`` when no round is paired.
    """
    latest = repo.latest_round(session=session, event_id=event_id)
    if latest is None:
        raise TournamentError(wording.NO_ROUND)
    return round_held(session, pk(latest))


def round_held(session: Session, round_id: int) -> TournamentRound:
    """A round read afresh and held for this transaction (``FOR UPDATE``; SQLite's writer holds all).

    Lock, reopen and the next round's pairing each check the lock under it,
    so none acts on a lock the other is changing. Raises ``TournamentError``
    for a round that is gone.
    """
    row = repo.round_held(session=session, round_id=round_id)
    if row is None:
        raise TournamentError(wording.ROUND_GONE)
    return row


def tables(session: Session, rnd: TournamentRound) -> list[TournamentTable]:
    """A round's tables and byes, by number."""
    return repo.tables(session=session, round_id=pk(rnd))


def table(session: Session, rnd: TournamentRound | None, number: int) -> TournamentTable:
    """Table ``number`` of ``rnd``. Raises ``TournamentError`` for no round or no such table."""
    if rnd is None:
        raise TournamentError(wording.NO_ROUND)
    found = repo.table_numbered(session=session, round_id=pk(rnd), number=number)
    if found is None:
        raise TournamentError(wording.no_such_table(rnd.number, number))
    return found


def round_or_latest(session: Session, event_id: int, number: int | None) -> TournamentRound | None:
    """Round ``number`` of the event (None: the latest), or None when it is not paired."""
    if number is None:
        return repo.latest_round(session=session, event_id=event_id)
    return repo.round_numbered(session=session, event_id=event_id, number=number)


def table_in_play(
    session: Session,
    event_id: int,
    number: int,
    *,
    locked: Callable[[int], str],
    bye: Callable[[int], str],
    forfeit: Callable[[int], str],
) -> tuple[TournamentRound, TournamentTable, int]:
    """The round in play, its table ``number`` and that table's match, for a director's change there.

    Raises ``TournamentError``: no round paired, or the sentence ``locked``
    (given the round), ``bye`` or ``forfeit`` (given the table's number) words
    for a locked round, a bye or a forfeited table.
    """
    current = repo.latest_round(session=session, event_id=event_id)
    if current is None:
        raise TournamentError(wording.NO_ROUND)
    if current.locked_at is not None:
        raise TournamentError(locked(current.number))
    found = table(session, current, number)
    if found.match_id is None:
        raise TournamentError(bye(number))
    if forfeited(session, found):
        raise TournamentError(forfeit(number))
    return current, found, found.match_id


def forfeited(session: Session, row: TournamentTable) -> bool:
    """Whether a forfeit was given at this table."""
    return bool(repo.forfeits(session=session, table_ids=[pk(row)]))


def audit(session: Session, event_id: int, actor: str, action: str, detail: dict[str, Any]) -> None:
    """One line of the event's audit trail, now."""
    repo.add_audit(session=session, event_id=event_id, actor=actor, action=action, detail=detail, at=utcnow())


# A reason for the audit is a sentence or two; more is not a reason (120,000 characters were stored).
REASON_MAX = 300


def reason(given: str | None, refusal: str) -> str:
    """A director's reason for the audit, trimmed, printable, at most ``REASON_MAX`` characters.

    Raises ``TournamentError``: ``refusal`` for none, else what is wrong with it.
    """
    if not (given or "").strip():
        raise TournamentError(refusal)
    return str(text(given, what="the reason", most=REASON_MAX))


def player_names(players: Sequence[object], *, who: str) -> list[str]:
    """Names as registered: the engine's one name rule (``clean_names``). Raises ``TournamentError``."""
    try:
        return clean_names(players, who=who)
    except RecordFormatError as err:
        raise TournamentError(str(err)) from None


def text(given: object, *, what: str, most: int, required: bool = True) -> str | None:
    """A tournament's text (its name, a club, a reason) by the engine's ``check_text``. Raises ``TournamentError``."""
    try:
        return check_text(given, what=what, most=most, required=required)
    except RecordFormatError as err:
        raise TournamentError(str(err)) from None


def complete(event: TournamentEvent, result: TableResult) -> bool:
    """The table has played the round's games or hands."""
    if event.unit == "games":
        return result.games_finished >= event.per_round
    return result.hands_finished >= event.per_round


def bye_games(event: TournamentEvent) -> int:
    """The games won a bye (or a forfeit win) gives: the round's games when a round is games."""
    return event.per_round if event.unit == "games" else 0
