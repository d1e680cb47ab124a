"""Rounds and pairing: pairing the next round, re-pairing by hand, locking, reopening, new codes, verifying.

A round's pairing is computed from ``inputs.pairing_input`` by ``pair``
(the format's entry point, ``pairing/registry.py``); the inputs, the result,
its fingerprint and the engine version are kept with the round, and each
table's game becomes an ordinary stored match.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from importlib.metadata import PackageNotFoundError, version
from typing import Any

import networkx as nx

from scorepad.access import Caller
from scorepad.store import Store
from scorepad.store import tournament_repo as repo
from scorepad.store.db import session_scope
from scorepad.store.matches import delete_match, label_match
from scorepad.store.models import as_utc, utcnow
from scorepad.store.tournament_models import TournamentEvent, TournamentRound
from scorepad.store.tournament_repo import AlreadyStored, Session, unique_writes
from scorepad.tournament import rows, wording
from scorepad.tournament.access import Action, Gate, hash_secret, new_table_code
from scorepad.tournament.errors import TournamentError
from scorepad.tournament.inputs import pairing_input
from scorepad.tournament.kinds import Kind
from scorepad.tournament.pairing import PAIRING_VERSION, Pairing, PairingInput, pair
from scorepad.tournament.results import seats_for
from scorepad.tournament.tally import Tally
from scorepad.tournament.views import RoundView, Views


def engine_version() -> str:
    """What a round's pairing depends on besides its inputs: scorepad, the pairing code, networkx."""
    return f"scorepad {scorepad_version()} pairing/{PAIRING_VERSION} networkx {nx.__version__}"


def paired_by(engine: str) -> str:
    """The pairing version in a round's stored engine version ("... pairing/1 ..."); the current one if none."""
    found = re.search(r"\bpairing/(\S+)", engine)
    return found[1] if found else PAIRING_VERSION


def scorepad_version() -> str:
    """The installed scorepad's version ('unknown' when run from a tree that is not installed)."""
    try:
        return version("scorepad")
    except PackageNotFoundError:
        return "unknown"


@dataclass(frozen=True)
class Verification:
    """What ``verify_pairings`` found: whether the stored round is what its inputs give today."""

    round: int
    same_inputs: bool
    same_pairing: bool
    same_engine: bool
    repaired: bool
    stored_engine: str
    lines: tuple[str, ...]

    @property
    def ok(self) -> bool:
        """The pairing re-ran to the stored one from the inputs the database gives now."""
        return self.same_inputs and self.same_pairing


@dataclass(frozen=True)
class _EventData:
    """What creating a round's matches needs, read in one go."""

    event: TournamentEvent
    names: dict[int, str]
    players: dict[int, list[str]]
    round_matches: dict[int, list[int]]

    @classmethod
    def read(cls, session: Session, event: TournamentEvent) -> _EventData:
        entrants = repo.entrants(session=session, event_id=rows.pk(event))
        by_round: dict[int, list[int]] = {}
        for number, _table, match_id in repo.round_matches(session=session, event_id=rows.pk(event)):
            by_round.setdefault(number, []).append(match_id)
        return cls(
            event=event,
            names={rows.pk(e): e.name for e in entrants},
            players={rows.pk(e): list(e.players) for e in entrants},
            round_matches=by_round,
        )


@dataclass(frozen=True)
class _NewRound:
    """A round to store: what it was paired from, the engine's pairing, and the tables as seated.

    ``reason`` is a re-pairing's (None: the round is paired for the first
    time), ``before`` the tables it replaces.
    """

    number: int
    inputs: PairingInput
    computed: Pairing
    seated: Pairing
    reason: str | None = None
    before: list[list[int]] | None = None


class Rounds(rows.Desk):
    """The director's rounds: pairing, re-pairing, lock, reopen, new codes, and re-running a pairing."""

    def __init__(self, store: Store, gate: Gate, tally: Tally, views: Views) -> None:
        super().__init__(store, gate)
        self.tally = tally
        self.views = views

    def pair_round(self, token: str | None, event_id: int) -> RoundView:
        """Pair the next round, create each table's match, and return it with the table codes.

        The codes are shown only here (and by ``new_code``); the store keeps
        their hashes. The previous round must be locked. Raises
        ``PairingError`` and ``TournamentError``.
        """
        caller = self.gate.require(token, event_id, Action.PAIR)
        with session_scope(self._engine) as session:
            event = rows.event(session, event_id)
            number = rows.rounds_paired(session, event_id) + 1
            if number > event.rounds:
                raise TournamentError(wording.all_paired(event.rounds))
            previous = (
                repo.round_numbered(session=session, event_id=event_id, number=number - 1) if number > 1 else None
            )
            if previous is not None and previous.locked_at is None:
                raise TournamentError(wording.lock_first(previous.number, number))
            inputs = pairing_input(session, event, number, self.tally)
            snapshot = _EventData.read(session, event)
        pairing = pair(inputs)
        return self._store_round(caller, snapshot, _NewRound(number, inputs, pairing, pairing))

    def repair(
        self, token: str | None, event_id: int, tables: Sequence[Sequence[str | int]], *, reason: str
    ) -> RoundView:
        """Re-pair the current round by hand: ``tables`` lists each table's entrants in seat order.

        Everyone active must be seated once; anyone left out has a bye. Only
        before any hand of the round is started; forbidden pairs still hold.
        The engine's pairing stays with the round (``verify_pairings`` shows
        both) and the audit keeps the before, the after and the reason.
        Raises ``TournamentError``.
        """
        caller = self.gate.require(token, event_id, Action.REPAIR)
        reason = rows.reason(reason, wording.REPAIR_WHY)
        with session_scope(self._engine) as session:
            event = rows.event(session, event_id)
            current = repo.latest_round(session=session, event_id=event_id)
            if current is None or current.locked_at is not None:
                raise TournamentError(wording.NOTHING_TO_REPAIR)
            playing = {t.number: t.match_id for t in rows.tables(session, current) if t.match_id is not None}
            # The round's matches in one read (a round of 100 tables was 100 transactions).
            states = self.store.load_many(list(playing.values()))
            for number, match_id in playing.items():
                if states[match_id].hands:
                    raise TournamentError(wording.started_playing(number))
            size = Kind(event.kind).entrants_per_table
            active = {c.id for c in PairingInput.from_dict(current.inputs).contenders}
            ids: list[tuple[int, ...]] = []
            seen: set[int] = set()
            for seats in tables:
                listed = [rows.entrant(session, event_id, ref) for ref in seats]
                if len(listed) != size:
                    raise TournamentError(wording.seats_per_table(size, len(listed)))
                for entrant in listed:
                    x = rows.pk(entrant)
                    if x in seen:
                        raise TournamentError(wording.listed_twice(entrant.name))
                    if x not in active:
                        raise TournamentError(wording.not_playing(entrant.name, current.number))
                    seen.add(x)
                ids.append(tuple(rows.pk(e) for e in listed))
            forbidden = rows.forbidden(session, event_id)
            names = rows.names(session, event_id)
            for row in ids:
                for a in row:
                    for b in row:
                        if a < b and frozenset((a, b)) in forbidden:
                            why = forbidden[frozenset((a, b))]
                            raise TournamentError(wording.may_not_meet(names[a], names[b], why))
            byes = tuple(sorted(active - seen))
            inputs = PairingInput.from_dict(current.inputs)
            computed = Pairing.from_dict(current.computed)
            before = [list(t.entrants) for t in rows.tables(session, current)]
            snapshot = _EventData.read(session, event)
        manual = Pairing(tuple(ids), byes, ("re-paired by the director",))
        return self._store_round(
            caller, snapshot, _NewRound(current.number, inputs, computed, manual, reason=reason, before=before)
        )

    def lock_round(self, token: str | None, event_id: int, *, reason: str | None = None) -> int:
        """Lock the current round (its table codes stop working); returns its number.

        Refused while a table has not played its games or hands, or has a
        finished hand unconfirmed, unless ``reason`` says why (audited).
        Raises ``TournamentError``.
        """
        caller = self.gate.require(token, event_id, Action.LOCK)
        with session_scope(self._engine) as session:
            event = rows.event(session, event_id)
            current = repo.latest_round(session=session, event_id=event_id)
            if current is None or current.locked_at is not None:
                raise TournamentError(wording.NOTHING_TO_LOCK)
            tables = rows.tables(session, current)
            forfeited = repo.forfeits(session=session, table_ids=[rows.pk(t) for t in tables])
        waiting = []
        results = self.tally.table_results([t for t in tables if t.id not in forfeited])
        for table in tables:
            result = results.get(rows.pk(table))
            if result is None:  # a bye, or forfeited
                continue
            if not rows.complete(event, result) or result.provisional:
                waiting.append(table.number)
        reason = rows.text(reason, what="the reason", most=rows.REASON_MAX, required=False)
        if waiting and not reason:
            raise TournamentError(wording.tables_unfinished(waiting))
        with session_scope(self._writer) as session:
            held = rows.round_held(session, rows.pk(current))
            if held.locked_at is not None:
                raise TournamentError(wording.locked_meanwhile(held.number))
            held.locked_at = utcnow()
            session.add(held)
            rows.audit(
                session, event_id, caller.label, "lock", {"round": current.number, "waiting": waiting, "reason": reason}
            )
        return current.number

    def reopen_round(self, token: str | None, event_id: int, *, reason: str, number: int | None = None) -> int:
        """Reopen the latest round after its lock (a result to correct, a forfeit to take back); returns its number.

        Only the latest round, and so only while the next round is not
        paired: that round's pairing was made from this one's results.
        ``number`` names the round meant (None: the latest). The tables'
        codes, and the phones that joined with them, work again (the lock
        only refused them); the round must be locked again before the next
        is paired. Audited with the reason and when it had been locked.
        Director only. Raises ``TournamentError``.
        """
        caller = self.gate.require(token, event_id, Action.REOPEN)
        reason = rows.reason(reason, wording.REOPEN_WHY)
        with session_scope(self._writer) as session:
            rows.event(session, event_id)
            # Held until the commit: a pairing of the next round waits for it, then sees the round open.
            row = rows.latest_held(session, event_id)
            paired = rows.rounds_paired(session, event_id)
            wanted = row.number if number is None else number
            if wanted != paired:
                if repo.round_numbered(session=session, event_id=event_id, number=wanted) is None:
                    raise TournamentError(wording.round_not_paired(wanted))
                raise TournamentError(wording.reopen_too_late(wanted, paired))
            if row.locked_at is None:
                raise TournamentError(wording.still_in_play(row.number))
            locked_at = as_utc(row.locked_at) or row.locked_at
            row.locked_at = None
            session.add(row)
            rows.audit(
                session,
                event_id,
                caller.label,
                "reopen",
                {"round": row.number, "reason": reason, "locked_at": locked_at.isoformat()},
            )
            return row.number

    def new_code(self, token: str | None, event_id: int, table_number: int) -> str:
        """A new code for a table of the current round (the old one stops working). Director only."""
        caller = self.gate.require(token, event_id, Action.ISSUE)
        code = new_table_code(table_number)
        with session_scope(self._writer) as session:
            current = repo.latest_round(session=session, event_id=event_id)
            if current is None:
                raise TournamentError(wording.NO_ROUND)
            table = rows.table(session, current, table_number)
            table.code_hash = hash_secret(code)
            session.add(table)
            rows.audit(session, event_id, caller.label, "new code", {"round": current.number, "table": table_number})
        return code

    def verify_pairings(self, token: str | None, event_id: int, number: int) -> Verification:
        """Re-run round ``number``'s pairing and compare.

        Two checks: the inputs stored with the round are those the database
        gives today (entrants, confirmed standings, history, forbidden
        pairs), and pairing those inputs again gives the stored pairing. A
        director's manual re-pairing is reported, not counted as a mismatch.
        """
        self.gate.require(token, event_id, Action.VIEW)
        with session_scope(self._engine) as session:
            event = rows.event(session, event_id)
            rnd = repo.round_numbered(session=session, event_id=event_id, number=number)
            if rnd is None:
                raise TournamentError(wording.round_not_paired(number))
            stored_inputs = PairingInput.from_dict(rnd.inputs)
            # The round re-runs by the pairing version that paired it (stored in its engine version).
            version = paired_by(rnd.engine_version)
            today = pairing_input(session, event, number, self.tally, method_name=stored_inputs.method, version=version)
            seated = [tuple(t.entrants) for t in rows.tables(session, rnd) if t.match_id is not None]
        again = pair(stored_inputs, version)
        stored = Pairing.from_dict(rnd.computed)
        same_inputs = today == stored_inputs
        same_pairing = again.fingerprint() == rnd.fingerprint
        repaired = sorted(seated) != sorted(stored.tables)
        lines = [
            f"round {number}: inputs {'match' if same_inputs else 'differ from'} what the database gives now",
            f"re-pairing the stored inputs gives {'the same' if same_pairing else 'a different'} round"
            f" (fingerprint {again.fingerprint()[:12]} against {rnd.fingerprint[:12]})",
        ]
        if rnd.engine_version != engine_version():
            lines.append(f"paired by {rnd.engine_version}; verified by {engine_version()}")
        if repaired:
            lines.append("the tables in play were re-paired by the director (see the audit)")
        return Verification(
            round=number,
            same_inputs=same_inputs,
            same_pairing=same_pairing,
            same_engine=rnd.engine_version == engine_version(),
            repaired=repaired,
            stored_engine=rnd.engine_version,
            lines=tuple(lines),
        )

    def _store_round(self, caller: Caller, data: _EventData, new: _NewRound) -> RoundView:
        """Create the matches of ``new.seated`` and write the round and its tables in one transaction."""
        event = data.event
        options = dict(event.options)
        match_ids = []
        for t, entrants in enumerate(new.seated.tables, 1):
            players = seats_for([data.players[x] for x in entrants], partners=event.kind == Kind.PARTNERS)
            match_id = self.store.create_match(event.rules, options, players, caller=caller)
            label_match(self.store, match_id, f"Event {event.id} R{new.number} T{t}", caller=caller)
            match_ids.append(match_id)
        codes = {t: new_table_code(t) for t in range(1, len(new.seated.tables) + 1)}
        try:
            with unique_writes(self._writer) as session:
                self._write_round(session, caller, data, new, match_ids, codes)
        except (AlreadyStored, TournamentError) as err:
            # Nothing of the round was written: the matches made for it go too.
            for match_id in match_ids:
                delete_match(self.store, match_id, caller=caller)
            if isinstance(err, TournamentError):
                raise
            raise TournamentError(wording.paired_meanwhile(new.number)) from None
        if new.reason is not None:
            for old_id in data.round_matches.get(new.number, []):
                delete_match(self.store, old_id, caller=caller)
        return replace(self.views.round_view(None, rows.pk(event), new.number), codes=codes)

    def _write_round(
        self,
        session: Session,
        caller: Caller,
        data: _EventData,
        new: _NewRound,
        match_ids: list[int],
        codes: dict[int, str],
    ) -> None:
        """The round (new, or re-paired: its tables replaced), its tables and byes, and the audit line."""
        event_id = rows.pk(data.event)
        previous = (
            repo.round_numbered(session=session, event_id=event_id, number=new.number - 1)
            if new.reason is None and new.number > 1
            else None
        )
        if previous is not None and rows.round_held(session, rows.pk(previous)).locked_at is None:
            raise TournamentError(wording.reopened_meanwhile(new.number - 1))
        if new.reason is None:
            round_id = repo.add_row(
                session=session,
                row=TournamentRound(
                    event_id=event_id,
                    number=new.number,
                    seed=new.inputs.seed,
                    engine_version=engine_version(),
                    inputs=new.inputs.to_dict(),
                    computed=new.computed.to_dict(),
                    fingerprint=new.computed.fingerprint(),
                    paired_at=utcnow(),
                ),
            )
        else:
            replaced = repo.round_numbered(session=session, event_id=event_id, number=new.number)
            if replaced is None:
                raise TournamentError(wording.not_paired_to_repair(new.number))
            round_id = rows.pk(replaced)
            for table in rows.tables(session, replaced):
                session.delete(table)
            session.flush()
        for t, entrants in enumerate(new.seated.tables, 1):
            repo.add_table(
                session=session,
                round_id=round_id,
                number=t,
                match_id=match_ids[t - 1],
                entrants=list(entrants),
                code_hash=hash_secret(codes[t]),
            )
        for i, entrant in enumerate(new.seated.byes, len(new.seated.tables) + 1):
            repo.add_table(
                session=session, round_id=round_id, number=i, match_id=None, entrants=[entrant], code_hash=None
            )
        detail: dict[str, Any] = {
            "round": new.number,
            "method": new.inputs.method,
            "tables": [[data.names[x] for x in t] for t in new.seated.tables],
            "byes": [data.names[x] for x in new.seated.byes],
        }
        if new.reason is not None:
            detail["reason"] = new.reason
            detail["before"] = [[data.names[x] for x in t] for t in new.before or []]
        rows.audit(session, event_id, caller.label, "pair" if new.reason is None else "repair", detail)
