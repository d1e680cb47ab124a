"""The store: what the table app, the command line and imports call.

Every write goes through the rules engine first: the match's state is rebuilt
from its log (or taken from memory: the state this device was last shown),
the entry is offered to the engine on a fork of that state, and only an
accepted entry is written, in one transaction together with its audit line
and the refreshed listing cache. Every state handed out is a snapshot
(``MatchSnapshot``) that never changes afterwards; the fork replaces the
store's state only once the commit succeeded, so a failed write leaves both
the database and every state handed out as they were.

Two devices writing to one match are kept apart optimistically: a write
commits only if the hand's next sequence number is still free (UNIQUE) and the
match's revision is still the one the state was built from (compare-and-set).
The loser gets ``StoreConflict`` and nothing of its write is stored.
"""

from __future__ import annotations

import json
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy.engine import Engine
from sqlmodel import Session

from scorepad.access import Caller, MatchFacts, Refused, Write, authorize
from scorepad.gc_pause import cyclic_gc_paused
from scorepad.rules import (
    Event,
    IllegalEventError,
    MatchState,
    Record,
    SniffError,
    load_record,
    parse_record,
    replay,
)
from scorepad.rules.names import check_names
from scorepad.rules.wording import HOW_WORDS
from scorepad.store import repository as repo
from scorepad.store.db import make_engine, writer
from scorepad.store.describe import entry_words, moved_on
from scorepad.store.errors import (
    AccessRefused,
    AwaitsSettlement,
    BrokenLog,
    MatchFinished,
    NothingToAmend,
    NothingToUndo,
    StoreConflict,
    StoreError,
    UnknownMatch,
)
from scorepad.store.facts import match_facts
from scorepad.store.faults import FileGuard, transaction
from scorepad.store.listing import list_row_by_row
from scorepad.store.log import Entry, FoldedLog, event_payload, fold
from scorepad.store.migrate import upgrade
from scorepad.store.models import AMEND, REDO, SETTLE, START, UNDO, as_utc, utcnow
from scorepad.store.notify import Change, Notifier, libpq_url
from scorepad.store.replay import as_event, entries_in_state, event_kind, rebuild
from scorepad.store.settings import StoreSettings, resolve_url
from scorepad.store.snapshot import MatchSnapshot, fork
from scorepad.store.summary import MatchSummary, summarize, summary_from_cache

RECORD_FORMAT = "sniff-record/1"
# listener(match_id, revision, device), called after each commit (Store.add_commit_listener).
CommitListener = Callable[[int, "int | None", "str | None"], None]
_log = logging.getLogger("scorepad.store")
T = TypeVar("T")
# Match views whose replayed state is kept in memory: one per screen (match and device) in play.
# A screen whose view was evicted pays a read of the whole log and a replay on its next tap, so
# this is sized for every page of a busy evening on one server process (a view's state is the
# one its page shows; a whole match's view is about 0.3 MB).
CACHE_SIZE = 256


@dataclass(frozen=True)
class AuditItem:
    """One line of a match's audit trail: what was done, when, from which device."""

    at: datetime
    action: str
    device: str | None
    hand: int | None
    seq: int | None
    detail: dict[str, Any]


@dataclass
class _Loaded:
    """A match as this store last saw it: its log and the state it replays to."""

    header: repo.MatchHeader
    entries: list[Entry]
    log: FoldedLog
    state: MatchSnapshot


@dataclass(frozen=True)
class _Change:
    """One entry a write adds, and the state the match will then be in."""

    hand: int
    kind: str
    payload: dict[str, Any]
    state: MatchSnapshot
    action: str
    log: FoldedLog | None = None


class Store:
    """A score-pad's persistent store on one database (SQLite file or PostgreSQL).

    It keeps, per match and device, the state it last showed that device,
    and checks the device's next write against it (see ``load``). Every state
    returned is a ``MatchSnapshot``: the match at one revision, which never
    changes afterwards (later writes, failed or not, make new snapshots).
    One store may serve many screens; it is safe to share between threads.
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._writer = writer(engine)
        # PostgreSQL: the revision and the log must come from one snapshot.
        self._reader = (
            engine.execution_options(isolation_level="REPEATABLE READ")
            if engine.dialect.name == "postgresql"
            else engine
        )
        # One view per (match, device): what that device was last shown.
        self._cache: OrderedDict[tuple[int, str | None], _Loaded] = OrderedDict()
        self._lock = threading.RLock()
        # Replaced, never changed in place: a commit reads it without the lock.
        self._listeners: tuple[CommitListener, ...] = ()
        database = engine.url.database if engine.dialect.name == "sqlite" else None
        self._file_guard = FileGuard(database, engine) if database not in (None, "", ":memory:") else None
        # PostgreSQL: other processes (the server's workers, the command line) serve the same
        # matches, and every change made here, by whichever process, must reach their screens.
        conninfo = libpq_url(engine.url)
        self._notifier = Notifier(conninfo) if conninfo is not None else None

    def close(self) -> None:
        """Release the database connections."""
        with self._lock:
            self._cache.clear()
            self.engine.dispose()
        if self._notifier is not None:
            self._notifier.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    # -- matches ---------------------------------------------------------------

    def create_match(
        self,
        rules: str = "smartt",
        options: dict[str, Any] | None = None,
        players: Sequence[str] | None = None,
        *,
        caller: Caller,
    ) -> int:
        """Store a new match with no hands yet; returns its id.

        The rules, options and players are checked as a record's would be:
        raises the engine's ``RecordFormatError`` (unknown rules or option,
        partners without four players, players not 2 to 4 names).
        """
        record = parse_record(
            {
                "format": RECORD_FORMAT,
                "rules": rules,
                "options": options or {},
                "players": list(players) if isinstance(players, (list, tuple)) else players,
                "hands": [],
            }
        )
        state = MatchState(record.rules, list(record.players))
        now = utcnow()
        authorize_or_refuse(caller, Write.CREATE, None)
        device = caller.view

        def write(session: Session) -> int:
            match_id = _insert_match(session, record, state, device=caller.creator, now=now)
            repo.add_audit(
                session=session,
                match_id=match_id,
                action="create",
                device=device,
                now=now,
                detail={
                    "rules": record.rules.name,
                    "options": dict(record.rules.options),
                    "players": list(record.players),
                },
            )
            return match_id

        match_id = self._transact(write)
        self._committed(match_id, 0, device)
        return match_id

    def load(self, match_id: int, *, device: str | None = None) -> MatchSnapshot:
        """The match's state now, rebuilt from its log (resume), as a snapshot.

        Give the ``device`` that will write next: its writes are then checked
        against this state, and a write made meanwhile by another device
        raises ``StoreConflict`` instead of being silently built upon. (Loaded
        without a device, the state is claimed by the next device that writes.)
        Raises ``UnknownMatch`` and ``BrokenLog``.
        """
        # A rebuild makes thousands of short-lived objects; without the pause a full
        # collection lands in about one resume in seven and triples its time.
        with self._lock, cyclic_gc_paused():
            return self._view(match_id, device).state

    def load_many(self, match_ids: Sequence[int]) -> dict[int, MatchSnapshot]:
        """Each match's state now, by id in the order given, as ``load(match_id)`` gives it, read in one transaction.

        For a page showing many matches at once (the tournament hall): their
        revisions, then the headers and logs of those not in the cache, are
        read for all of them together in one transaction, however many they
        are; each match is then rebuilt (or taken from the cache) exactly as
        ``load`` would, and kept for the next read as ``load`` keeps it. An
        empty list reads nothing. Raises ``UnknownMatch`` (the first id not
        stored) and ``BrokenLog``.
        """
        with self._lock, cyclic_gc_paused():
            return {match_id: loaded.state for match_id, loaded in self._views(match_ids, None).items()}

    def last_entry(self, match_id: int, *, device: str | None = None) -> tuple[MatchSnapshot, str | None]:
        """The match now (as ``load`` gives it to ``device``) and the kind of the entry an undo would take back.

        The kind is ``start``, ``settle``, an event's (``play``, ``renege``...)
        or ``amend``; None when nothing stands. Both come from one view, so a
        correction can check what it would take back before it writes (the
        state alone cannot say whether a renege was entered after a hand's
        settlement or before it). Raises ``UnknownMatch`` and ``BrokenLog``.
        """
        with self._lock, cyclic_gc_paused():
            loaded = self._view(match_id, device)
            top = loaded.log.undo_target()
            return loaded.state, None if top is None else top.kind

    def facts(self, match_id: int) -> MatchFacts:
        """What the door knows of ``match_id`` now (its creator, its tournament table). Raises ``UnknownMatch``."""
        facts = self._transact(lambda session: match_facts(session=session, match_id=match_id), saving=False)
        if facts is None:
            raise UnknownMatch(match_id)
        return facts

    def list_matches(self) -> list[MatchSummary]:
        """Every stored match, newest first, from the listing cache."""
        with cyclic_gc_paused():
            try:
                rows = self._transact(lambda session: repo.listing_caches(session=session), saving=False)
                return [summary_from_cache(match_id, cache) for match_id, cache in rows]
            except (ValueError, KeyError, TypeError):
                # A corrupt cache row: the slow path lists every match anyway (scorepad.store.listing).
                return list_row_by_row(lambda body: self._transact(body, saving=False), self.load)

    def audit(self, match_id: int) -> list[AuditItem]:
        """The match's audit trail, oldest first. Raises ``UnknownMatch``."""

        def read(session: Session) -> list[AuditItem]:
            repo.current_revision(session=session, match_id=match_id)
            return [
                AuditItem(
                    at=as_utc(row.at) or row.at,
                    action=row.action,
                    device=row.device,
                    hand=row.hand,
                    seq=row.seq,
                    detail=dict(row.detail or {}),
                )
                for row in repo.read_audit(session=session, match_id=match_id)
            ]

        return self._transact(read, saving=False)

    # -- entries ---------------------------------------------------------------

    def start_hand(
        self,
        match_id: int,
        setter: int | None = None,
        *,
        caller: Caller,
        expected_revision: int | None = None,
    ) -> MatchSnapshot:
        """Start the next hand with ``setter`` (None where the rules fix it).

        Raises the engine's ``IllegalEventError`` (previous hand not over,
        wrong setter), ``UnknownMatch``, ``MatchFinished``, ``StoreConflict``.
        """

        def plan(loaded: _Loaded) -> _Change:
            # A new hand changes none of the hands before it: share them all.
            work = fork(loaded.state, match_id=match_id, keep=len(loaded.state.hands))
            hand = work.start_hand(setter)
            return _Change(hand.number, START, {"setter": setter}, work, "start")

        return self._write(match_id, plan, caller=caller, expected_revision=expected_revision)

    def append(
        self,
        match_id: int,
        event: Event | dict[str, Any],
        *,
        caller: Caller,
        expected_revision: int | None = None,
    ) -> MatchSnapshot:
        """Append one event (a ``Play``, ``Draw``... or its record dict) to the current hand.

        The engine checks it against the hand first; a refused event writes
        nothing and raises the engine's ``IllegalEventError``. Also raises
        ``UnknownMatch``, ``MatchFinished`` and ``StoreConflict``.
        """
        checked = as_event(event)

        def plan(loaded: _Loaded) -> _Change:
            work = fork(loaded.state, match_id=match_id)
            work.apply(checked)
            hand = work.current
            assert hand is not None
            return _Change(hand.number, event_kind(checked), checked.to_dict(), work, "append")

        return self._write(match_id, plan, caller=caller, expected_revision=expected_revision)

    def settle(
        self, match_id: int, remaining: Any, *, caller: Caller, expected_revision: int | None = None
    ) -> MatchSnapshot:
        """Settle the current hand with each seat's remaining tiles or pips (records.md §4).

        Raises the engine's ``IllegalEventError``, ``UnknownMatch``,
        ``MatchFinished`` and ``StoreConflict``.
        """
        # A JSON round trip: what is validated is exactly what will be stored.
        try:
            remaining = json.loads(json.dumps(remaining))
        except (TypeError, ValueError):
            raise IllegalEventError(
                f"'remaining' gives each seat a list of tiles such as \"6-6\" or a pip total, not {remaining!r}"
            ) from None

        def plan(loaded: _Loaded) -> _Change:
            work = fork(loaded.state, match_id=match_id)
            work.settle(remaining)
            hand = work.current
            assert hand is not None
            return _Change(hand.number, SETTLE, {"remaining": remaining}, work, "settle")

        return self._write(match_id, plan, caller=caller, expected_revision=expected_revision)

    def amend(
        self,
        match_id: int,
        event: Event | dict[str, Any] | None,
        *,
        caller: Caller,
        expected_revision: int | None = None,
    ) -> MatchSnapshot:
        """Replace the last entry of the current hand with ``event``, or withdraw it (``None``).

        For a call corrected (the same tile and place with another ``call`` or
        ``fix``), a mis-tapped event put right, or a muggins claim withdrawn
        (``amend(match_id, None)``: the claim's place stays empty). It is one
        log entry and one audit line, in one transaction, and an ``undo``
        after it undoes only the amendment (the previous version stands
        again). The engine replays the hand with the replacement first: an
        amendment the rules refuse raises its ``IllegalEventError`` and
        changes nothing. Also raises ``NothingToAmend`` (the last entry is a
        hand's start or settlement, or already withdrawn), ``UnknownMatch``,
        ``MatchFinished`` and ``StoreConflict``.
        """
        checked = None if event is None else as_event(event)

        def plan(loaded: _Loaded) -> _Change:
            target = loaded.log.amend_target()
            if target is None:
                top = loaded.log.undo_target()
                what = "nothing has been entered" if top is None else f"the last entry is {entry_words(top)}"
                raise NothingToAmend(f"there is no event to amend: {what}")
            if checked is None and event_payload(target) is None:
                raise NothingToAmend("the last entry was already withdrawn")
            payload = {"seq": target.seq, "event": None if checked is None else checked.to_dict()}
            entry = Entry(
                hand=target.hand,
                seq=loaded.log.next_seq(target.hand),
                revision=loaded.header.revision + 1,
                kind=AMEND,
                payload=payload,
            )
            log = fold([*loaded.entries, entry])
            # The engine replays the hand with the replacement: a refusal is its own sentence.
            work = rebuild(loaded.header, log, base=loaded.state, from_hand=target.hand, checking=True)
            return _Change(target.hand, AMEND, payload, work, AMEND, log=log)

        return self._write(match_id, plan, caller=caller, expected_revision=expected_revision)

    def undo(self, match_id: int, *, caller: Caller, expected_revision: int | None = None) -> MatchSnapshot:
        """Take back the last standing entry (an event, a settlement or a hand's start).

        The undo is itself a log entry and an audit line; nothing is deleted.
        Raises ``NothingToUndo``, ``UnknownMatch``, ``MatchFinished``, ``StoreConflict``.
        """
        return self._correct(match_id, UNDO, caller=caller, expected_revision=expected_revision)

    def redo(self, match_id: int, *, caller: Caller, expected_revision: int | None = None) -> MatchSnapshot:
        """Put back the entry most recently undone, if nothing was entered since.

        Raises ``NothingToUndo``, ``UnknownMatch``, ``MatchFinished``, ``StoreConflict``.
        """
        return self._correct(match_id, REDO, caller=caller, expected_revision=expected_revision)

    def finish(self, match_id: int, *, caller: Caller, expected_revision: int | None = None) -> None:
        """Close the match: it is listed as finished and takes no more entries.

        Raises ``UnknownMatch`` and ``StoreConflict``; finishing twice is harmless.
        """
        device = caller.view
        with self._lock:
            loaded = self._view(match_id, device)
            if loaded.header.finished_at is not None:
                return
            if expected_revision is not None and expected_revision != loaded.header.revision:
                raise self._moved_on(loaded)
            now = utcnow()
            header = loaded.header

            def write(session: Session) -> None:
                pass_door(session, match_id, caller, Write.SCORE)
                repo.advance_revision(
                    session=session,
                    match_id=match_id,
                    expected=header.revision,
                    to=header.revision + 1,
                    finished_at=now,
                    summary=summarize(loaded.state, started=header.created_at, finished=now),
                )
                repo.add_audit(session=session, match_id=match_id, action="finish", device=device, now=now)

            try:
                self._transact(write)
            except StoreConflict as err:
                raise self._conflict(match_id, device) from err
            except BaseException:
                self._cache.pop((match_id, device), None)
                raise
            loaded.header = replace(header, revision=header.revision + 1, finished_at=now)
        self._committed(match_id, header.revision + 1, device)

    # -- live updates ------------------------------------------------------------

    def add_commit_listener(self, listener: CommitListener) -> None:
        """Call ``listener(match_id, revision, device)`` after each write this store commits (and each announcement).

        On PostgreSQL the other processes hear of the same changes by ``NOTIFY``
        (``scorepad.store.notify``), listener or not.

        Called once per successful commit (an entry, a correction, a new or
        imported match, a finish), after the transaction and outside the
        store's lock, in the writing thread; never for a write that failed.
        An exception in a listener is logged and never breaks the write.
        """
        with self._lock:
            self._listeners = (*self._listeners, listener)

    def remove_commit_listener(self, listener: CommitListener) -> None:
        """Stop calling ``listener``; harmless if it was not added."""
        with self._lock:
            self._listeners = tuple(fn for fn in self._listeners if fn is not listener)

    def announce(self, match_id: int, device: str | None) -> None:
        """Tell every screen on ``match_id`` that something kept beside its entries changed (no new revision).

        A tournament's audit line about the match (a correction's reason, a
        forfeit) or a hand's confirmation is written apart from the match's
        own entries: the screens on the match, in this process and the others,
        hear of it as a change without a revision, read the match again and
        can say what the director did; ``device``'s own screen (which made the
        change and has drawn it) is left out. Raises nothing (as a commit's call).
        """
        self._committed(match_id, None, device)

    def _committed(self, match_id: int, revision: int | None, device: str | None) -> None:
        for listener in self._listeners:
            try:
                listener(match_id, revision, device)
            except Exception:
                _log.exception("a commit listener failed on match %s revision %s", match_id, revision)
        if self._notifier is not None:
            self._notifier.send(Change(match_id, revision, device))

    # -- records ---------------------------------------------------------------

    def import_record(self, obj_or_text: str | bytes | dict[str, Any] | Record, *, caller: Caller) -> int:
        """Store a whole sniff-record/1 as a new match; returns its id.

        The record is replayed through the engine first; only a record the
        rules accept is stored, all of it in one transaction. Its players'
        names must differ as a new match's do (``check_names``: "Ann" and
        "ann " are one name). Raises the engine's ``RecordFormatError`` (not a
        readable record, or two players alike), ``IllegalRecordError`` (the
        rules refuse it) or ``AccessRefused`` (the caller may not import);
        nothing is then written.
        """
        authorize_or_refuse(caller, Write.IMPORT, None)
        device = caller.view
        if isinstance(obj_or_text, Record):
            record = obj_or_text
        elif isinstance(obj_or_text, (str, bytes)):
            record = load_record(obj_or_text)
        else:
            record = parse_record(obj_or_text)
        # The referee reads seats, so a record may name two players alike; a stored match may not, as in the form.
        check_names(record.players)
        state = replay(record)
        log: list[tuple[int, str, dict[str, Any]]] = []
        for number, (hand, played) in enumerate(zip(record.hands, state.hands, strict=True), 1):
            log.append((number, START, {"setter": hand.setter}))
            log.extend((number, event_kind(e), e.to_dict()) for e in hand.events)
            # Only a hand the rules settled keeps its 'remaining' (replay
            # ignores it after a renege, a win or a void).
            if played.settlement is not None:
                log.append((number, SETTLE, {"remaining": played.remaining}))
        now = utcnow()

        def write(session: Session) -> int:
            match_id = _insert_match(session, record, state, device=caller.creator, now=now, revision=len(log))
            hand_ids = {
                number: repo.hand_id(session=session, match_id=match_id, number=number, now=now)
                for number in range(1, len(record.hands) + 1)
            }
            seqs: dict[int, int] = {}
            rows = []
            for revision, (number, kind, payload) in enumerate(log, 1):
                seqs[number] = seqs.get(number, 0) + 1
                rows.append(
                    {
                        "hand_id": hand_ids[number],
                        "seq": seqs[number],
                        "revision": revision,
                        "kind": kind,
                        "payload": payload,
                        "created_at": now,
                        "device": device,
                    }
                )
            repo.append_entries(session=session, rows=rows)
            repo.add_audit(
                session=session,
                match_id=match_id,
                action="import",
                device=device,
                now=now,
                detail={"hands": len(record.hands), "entries": len(log)},
            )
            return match_id

        match_id = self._transact(write)
        self._committed(match_id, len(log), device)
        return match_id

    def export_record(self, match_id: int, *, complete: bool = False) -> dict[str, Any]:
        """The match as a sniff-record/1 object, from what stands in its log.

        It replays (``replay(parse_record(...))``) to the stored match's state,
        except while the last hand awaits its settlement: its ``remaining`` is
        not known yet, so that hand's end cannot be written as the contract
        needs it (records.md §3). ``complete=True`` (a record for the user, to
        hand to the referee) refuses that case. Raises ``UnknownMatch``,
        ``BrokenLog``, and with ``complete`` ``AwaitsSettlement``.
        """
        record, state = self.record_and_state(match_id)
        current = state.current
        if complete and current is not None and current.needs_settlement:
            raise AwaitsSettlement(
                f"match {match_id}'s hand {current.number} {HOW_WORDS[current.how]} and awaits its settlement "
                "(the tiles or pips left in each hand): settle it on the table screen, then export"
            )
        return record

    def record_and_state(self, match_id: int) -> tuple[dict[str, Any], MatchSnapshot]:
        """The match's sniff-record/1 object (as ``export_record``) and the state it stands in, read together.

        Nothing is refused: a hand awaiting its settlement is written as it
        stands. Raises ``UnknownMatch``, ``BrokenLog``.
        """
        with self._lock:
            loaded = self._view(match_id, None)
        record = {
            "format": RECORD_FORMAT,
            "rules": loaded.header.rules,
            "options": dict(loaded.header.options),
            "players": list(loaded.header.players),
            "hands": loaded.log.record_hands(),
        }
        return record, loaded.state

    # -- internals ---------------------------------------------------------------

    def _shown(self, match_id: int, device: str | None) -> _Loaded | None:
        """The match as this store last showed it to ``device``, if that state is intact."""
        key = (match_id, device)
        cached = self._cache.get(key)
        if cached is None or cached.log.standing_count() != entries_in_state(cached.state):
            return None
        self._cache.move_to_end(key)
        return cached

    def _adopt(self, match_id: int, device: str | None) -> _Loaded | None:
        """The view last loaded without naming a device, now claimed by ``device``.

        A screen that called ``load(match_id)`` and then writes as ``device``
        is checked against what it loaded, as if it had named itself.
        """
        if device is None:
            return None
        loaded = self._shown(match_id, None)
        if loaded is not None:
            del self._cache[(match_id, None)]
            self._cache[(match_id, device)] = loaded
        return loaded

    def _view(self, match_id: int, device: str | None) -> _Loaded:
        """The match as stored now: from the cache if its revision has not moved."""
        return self._views([match_id], device)[match_id]

    def _views(self, match_ids: Sequence[int], device: str | None) -> dict[int, _Loaded]:
        """The matches as stored now, by id in the order given, each from the cache if its revision has not moved.

        One transaction for them all (``_read``); each match not in the cache
        is then replayed as one ``load`` replays it. Raises ``UnknownMatch``
        for the first id not stored, and ``BrokenLog``.
        """
        wanted = list(dict.fromkeys(match_ids))
        if not wanted:
            return {}
        views = self._transact(lambda session: self._read(session, wanted, device), saving=False)
        loaded: dict[int, _Loaded] = {}
        for match_id in wanted:
            found = views[match_id]
            loaded[match_id] = found if isinstance(found, _Loaded) else self._rebuilt(match_id, device, *found)
        return loaded

    def _read(
        self, session: Session, match_ids: list[int], device: str | None
    ) -> dict[int, _Loaded | tuple[repo.MatchHeader, list[Entry]]]:
        """What ``_views`` reads: each match's cached view if its revision has not moved, else its header and log.

        Three statements at most for any number of matches (their revisions;
        the headers of those the cache lacks; their logs), a fourth only when
        a cached log cannot be carried on. Raises ``UnknownMatch`` for the
        first id not stored.
        """
        revisions = repo.current_revisions(session=session, match_ids=match_ids)
        found: dict[int, _Loaded | tuple[repo.MatchHeader, list[Entry]]] = {}
        stale: dict[int, _Loaded | None] = {}
        for match_id in match_ids:
            if match_id not in revisions:
                raise UnknownMatch(match_id)
            cached = self._shown(match_id, device)
            if cached is not None and cached.header.revision == revisions[match_id]:
                found[match_id] = cached
            else:
                stale[match_id] = cached
        if not stale:
            return found
        headers = repo.match_headers(session=session, match_ids=list(stale))
        for match_id in stale:
            if match_id not in headers:
                # Deleted by another writer since its revision was read (PostgreSQL reads each statement
                # afresh): as unknown as it was to ``load`` before, never a KeyError.
                raise UnknownMatch(match_id)
        # The log only grows: a view that holds entries lacks only those written since it was read.
        after = {
            match_id: cached.header.revision
            if cached is not None and cached.entries and cached.header.revision < headers[match_id].revision
            else 0
            for match_id, cached in stale.items()
        }
        logs = repo.read_logs(session=session, after=after)
        gaps = [
            match_id
            for match_id, since in after.items()
            if since and [e.revision for e in logs[match_id]] != list(range(since + 1, headers[match_id].revision + 1))
        ]
        if gaps:
            # Revisions that do not follow on (a rename moves one without an entry): read those logs whole.
            logs.update(repo.read_logs(session=session, after=dict.fromkeys(gaps, 0)))
        for match_id, cached in stale.items():
            entries = logs[match_id]
            if cached is not None and after[match_id] and match_id not in gaps:
                entries = [*cached.entries, *entries]
            found[match_id] = headers[match_id], entries
        return found

    def _rebuilt(self, match_id: int, device: str | None, header: repo.MatchHeader, entries: list[Entry]) -> _Loaded:
        """The view of ``entries`` (the match's whole log as just read), replayed and kept in the cache.

        Raises ``BrokenLog``.
        """
        try:
            log = fold(entries)
        except ValueError as err:
            raise BrokenLog(f"match {match_id}: the stored log is inconsistent: {err}") from err
        base, from_hand = self._replayed_before(match_id, device, entries)
        state = rebuild(header, log, base=base, from_hand=from_hand).seal(header.revision)
        loaded = _Loaded(header=header, entries=entries, log=log, state=state)
        self._cache[(match_id, device)] = loaded
        self._cache.move_to_end((match_id, device))
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)
        return loaded

    def _replayed_before(
        self, match_id: int, device: str | None, entries: list[Entry]
    ) -> tuple[MatchState | None, int]:
        """What a reload of ``entries`` can take from the view it replaces: (its state, the first hand to replay).

        The log only grows, and an entry names the hand it changes (an undo
        or an amendment its target's), which the hands before it never
        depend on. So when the cached view's entries begin the new ones, its
        hands before the first hand a new entry names are taken as they are,
        and so is its last hand only if no new entry names it (a live screen
        reloads after each entry of another: one hand replayed, not the
        match). (None, 1) replays everything.
        """
        cached = self._cache.get((match_id, device))
        if cached is None or not cached.state.hands:
            return None, 1
        known = len(cached.entries)
        if known > len(entries) or entries[:known] != cached.entries:
            return None, 1
        # The last hand the cached view holds is replayed too: an unfinished hand is never shared.
        return cached.state, min([entry.hand for entry in entries[known:]] + [len(cached.state.hands)])

    def _correct(self, match_id: int, kind: str, *, caller: Caller, expected_revision: int | None) -> MatchSnapshot:
        """Store an undo or a redo: an entry naming the entry it takes back or puts back."""

        def plan(loaded: _Loaded) -> _Change:
            target = loaded.log.undo_target() if kind == UNDO else loaded.log.redo_target()
            if target is None:
                raise NothingToUndo(f"there is nothing to {kind}")
            entry = Entry(
                hand=target.hand,
                seq=loaded.log.next_seq(target.hand),
                revision=loaded.header.revision + 1,
                kind=kind,
                payload={"seq": target.seq},
            )
            log = fold([*loaded.entries, entry])
            # Only the target's hand and those after it change: the hands before are shared.
            work = rebuild(loaded.header, log, base=loaded.state, from_hand=target.hand)
            return _Change(target.hand, kind, entry.payload, work, kind, log=log)

        return self._write(match_id, plan, caller=caller, expected_revision=expected_revision)

    def _write(
        self, match_id: int, plan: Any, *, caller: Caller, expected_revision: int | None = None
    ) -> MatchSnapshot:
        """Validate one entry with ``plan`` and store it; returns the new snapshot.

        ``plan(loaded)`` asks the engine on a fork and never changes ``loaded``;
        the fork is sealed and kept only once the commit succeeded. On any
        failure the cache entry is dropped all the same (a commit whose outcome
        is unknown is read back from the log next time). The commit listeners
        hear of it after the lock is released.
        """
        with self._lock:
            state = self._write_locked(match_id, plan, caller=caller, expected_revision=expected_revision)
        self._committed(match_id, state.revision, caller.view)
        return state

    def _write_locked(
        self, match_id: int, plan: Any, *, caller: Caller, expected_revision: int | None
    ) -> MatchSnapshot:
        device = caller.view
        # Validate against the match as this device was last shown it, not as
        # it is now: if another device wrote since, the commit fails with
        # StoreConflict instead of silently entering the same event twice.
        loaded = self._shown(match_id, device) or self._adopt(match_id, device) or self._view(match_id, device)
        if expected_revision is not None and loaded.header.revision != expected_revision:
            # The screen names the state it tapped on: check it against the match as stored now.
            loaded = self._view(match_id, device)
            if loaded.header.revision != expected_revision:
                raise self._moved_on(loaded)
        # The door decides inside the commit's transaction, where a lock made a moment ago is seen. A
        # caller who may not write here learns that and never the rules' verdict: before any refusal of
        # the match's own (finished, the engine's), the door is asked first, in a read of its own. An
        # entry that goes through pays for one transaction, not two (issue 16, the server's CPU an entry).
        if loaded.header.finished_at is not None:
            self._pass_door(match_id, caller)
            raise MatchFinished(f"match {match_id} is finished and takes no more entries")
        try:
            try:
                change: _Change = plan(loaded)
            except (SniffError, NothingToUndo, NothingToAmend) as err:
                self._pass_door(match_id, caller)
                self._refusal_was_stale(loaded, err)
                raise
            entry = self._commit(loaded, change, caller=caller)
        except StoreConflict as err:
            raise self._conflict(match_id, device) from err
        except BaseException:
            self._cache.pop((match_id, device), None)
            raise
        loaded.entries.append(entry)
        if change.log is not None:
            loaded.log = change.log
        else:
            loaded.log.add(entry)
        loaded.state = change.state.seal(entry.revision)
        loaded.header = replace(loaded.header, revision=entry.revision)
        return loaded.state

    def _pass_door(self, match_id: int, caller: Caller) -> None:
        """Ask the door (``pass_door``) in a read of its own. Raises ``UnknownMatch`` or ``AccessRefused``."""
        self._transact(lambda session: pass_door(session, match_id, caller, Write.SCORE), saving=False)

    def _conflict(self, match_id: int, device: str | None) -> StoreConflict:
        """The ``StoreConflict`` for a write another writer beat: what was entered first, in words.

        The device's view is read afresh (so the caller's reload is a cache hit);
        if even that fails, the plain conflict is given.
        """
        self._cache.pop((match_id, device), None)
        try:
            return self._moved_on(self._view(match_id, device))
        except StoreError:
            return StoreConflict()

    def _moved_on(self, loaded: _Loaded) -> StoreConflict:
        header = loaded.header
        latest = loaded.entries[-1] if loaded.entries else None
        message = moved_on(latest, revision=header.revision, finished=header.finished_at is not None)
        return StoreConflict(message, revision=header.revision, device=latest.device if latest else None)

    def _refusal_was_stale(self, loaded: _Loaded, err: Exception) -> None:
        """Raise ``StoreConflict`` if the view that refused an entry is out of date.

        The refusal then says nothing about the match as it is now (another
        device has written since), so the caller should reload and retry.
        """
        revision = self._transact(
            lambda session: repo.current_revision(session=session, match_id=loaded.header.id), saving=False
        )
        if revision != loaded.header.revision:
            raise StoreConflict() from err

    def _commit(self, loaded: _Loaded, change: _Change, *, caller: Caller) -> Entry:
        header = loaded.header
        device = caller.view
        entry = Entry(
            hand=change.hand,
            seq=loaded.log.next_seq(change.hand),
            revision=header.revision + 1,
            kind=change.kind,
            payload=change.payload,
            device=device,
        )
        detail: dict[str, Any] = {"kind": change.kind, "payload": change.payload}
        if change.kind in (UNDO, REDO, AMEND):
            target = next(e for e in loaded.entries if e.hand == change.hand and e.seq == change.payload["seq"])
            detail["target"] = {"kind": target.kind, "payload": target.payload}
        now = utcnow()

        def write(session: Session) -> None:
            # The door first, in the write's own transaction: a lock or a forfeit a moment ago stops it.
            pass_door(session, header.id, caller, Write.SCORE)

            # The insert comes first: when two writers race for one hand it is
            # the UNIQUE(hand_id, seq) constraint that decides who wins.
            def append() -> int | None:
                return repo.append_entry(
                    session=session,
                    match_id=header.id,
                    number=entry.hand,
                    seq=entry.seq,
                    revision=entry.revision,
                    kind=entry.kind,
                    payload=entry.payload,
                    device=device,
                    now=now,
                )

            event_id = append()
            if event_id is None:
                # The hand's first entry: its row first (UNIQUE(match_id, number) decides a race for it).
                repo.hand_id(session=session, match_id=header.id, number=entry.hand, now=now)
                event_id = append()
            repo.advance_revision(
                session=session,
                match_id=header.id,
                expected=header.revision,
                to=entry.revision,
                summary=summarize(change.state, started=header.created_at),
            )
            repo.add_audit(
                session=session,
                match_id=header.id,
                action=change.action,
                device=device,
                now=now,
                event_id=event_id,
                hand=entry.hand,
                seq=entry.seq,
                detail=detail,
            )

        self._transact(write)
        return entry

    def _transact(self, body: Callable[[Session], T], *, saving: bool = True) -> T:
        """``body(session)`` in one transaction, writing or reading; see ``faults.transaction``.

        Every database error comes out as a one-sentence ``StoreError``; on an
        SQLite file, its identity and its companions' (and for a write, its
        writability) are checked first, so nothing is written into a file that
        vanished, and again after a write's commit, so nothing is acknowledged
        that went into a companion deleted meanwhile (``FileGuard``).
        """
        guard = self._file_guard
        if guard is None:
            return transaction(self._writer if saving else self._reader, body, saving=saving)
        if saving:
            return transaction(self._writer, body, check=guard.check, settle=guard.settle)
        return transaction(self._reader, body, saving=False, check=lambda: guard.check(writing=False))


def open_store(url: str | None = None, *, settings: StoreSettings | None = None) -> Store:
    """Open the store, bringing its schema up to date (Alembic; never ``create_all``).

    ``url``: an SQLAlchemy URL or an SQLite file path; None takes
    ``SCOREPAD_DATABASE_URL``, else the SQLite file in the user's data
    directory. Raises ``ValueError`` for an unusable URL, ``SchemaTooNew``
    for a database migrated by a newer scorepad, and SQLAlchemy's
    ``OperationalError`` when the database cannot be reached.
    """
    settings = settings or StoreSettings()
    engine = make_engine(resolve_url(url, settings), settings)
    try:
        upgrade(engine)
    except BaseException:
        engine.dispose()
        raise
    return Store(engine)


def _insert_match(
    session: Session, record: Record, state: MatchState, *, device: str | None, now: datetime, revision: int = 0
) -> int:
    """Write a new match's row (rules, options, seats, summary) and return its id."""
    return repo.create_match(
        session=session,
        rules=record.rules.name,
        options=dict(record.rules.options),
        players=record.players,
        device=device,
        summary=summarize(state, started=now),
        now=now,
        revision=revision,
    )


def authorize_or_refuse(caller: Caller, write: Write, facts: MatchFacts | None) -> None:
    """The door (``scorepad.access.authorize``), its refusal as the store's ``AccessRefused``."""
    try:
        authorize(caller, write, facts)
    except Refused as err:
        raise AccessRefused(str(err)) from err


def pass_door(session: Session, match_id: int, caller: Caller, write: Write) -> None:
    """Pass the door for ``write`` to ``match_id``, with its facts read in the write's own transaction.

    Raises ``UnknownMatch`` (no such match) or ``AccessRefused``.
    """
    facts = match_facts(session=session, match_id=match_id)
    if facts is None:
        raise UnknownMatch(f"no match with id {match_id} is stored")
    authorize_or_refuse(caller, write, facts)
