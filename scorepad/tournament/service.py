"""The tournament service: the one object the command line and a web layer call.

Every method that changes or reveals something takes the caller's
credential first (a token from ``login_director`` / ``join_table`` /
``issue_hall``, or None for a spectator), checks it with ``Gate.require``,
and raises a ``TournamentError`` whose message is one plain sentence:
``AccessDenied`` for a role that may not, ``PairingError`` when no round can
be made. Each table's game is an ordinary stored match (``Store.create_match``);
the rules engine checks every entry, as at any other table.
"""

from __future__ import annotations

import json
import secrets
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from importlib.metadata import PackageNotFoundError, version
from typing import Any, Protocol

import networkx as nx
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col

from scorepad.rules import HandState, RecordFormatError, SniffError, make_ruleset
from scorepad.rules.hand import HandEnd
from scorepad.rules.names import MAX_NAME_LENGTH, check_text, clean_names, name_key
from scorepad.rules.numbers import NumberRefused, read_whole
from scorepad.rules.previews import preview_settlement
from scorepad.rules.wording import HOW_WORDS
from scorepad.store import Store, StoreError
from scorepad.store.db import session_scope, writer
from scorepad.store.matches import delete_match, label_match
from scorepad.store.models import SETTLE, Match, as_utc, utcnow
from scorepad.store.snapshot import MatchSnapshot
from scorepad.store.tournament_models import (
    TournamentAudit,
    TournamentConfirmation,
    TournamentEntrant,
    TournamentEvent,
    TournamentForbidden,
    TournamentForfeit,
    TournamentRound,
    TournamentTable,
)
from scorepad.tournament.access import Action, Caller, Gate, Role, check_password, hash_secret, new_table_code
from scorepad.tournament.errors import AccessDenied, TournamentError
from scorepad.tournament.kinds import KINDS, Kind
from scorepad.tournament.pairing import (
    FOURS,
    PAIRING_VERSION,
    ROUND_ROBIN,
    SWISS,
    THREES,
    Contender,
    Pairing,
    PairingInput,
    draw_roster,
    pair,
)
from scorepad.tournament.results import (
    SideResult,
    TableResult,
    confirmed_prints,
    confirmed_sides,
    hand_fingerprint,
    seats_for,
    table_result,
)
from scorepad.tournament.standings import Entry, Outcome, Standing, compute_standings

UNITS = ("games", "hands")
PAIRINGS = ("auto", ROUND_ROBIN, SWISS)
# A round robin is chosen automatically up to this many entrants (Berger tables up to 10).
ROUND_ROBIN_MAX = 10
# Smartt §14: the most game points one game can give (a loser below 30), per loser.
MOST_GAME_POINTS = 14
NAME_MAX = MAX_NAME_LENGTH
EVENT_NAME_MAX = 80
# A reason for the audit is a sentence or two; more is not a reason (120,000 characters were stored).
REASON_MAX = 300
# Table results kept in memory (a day's tables: 100 tables over 10 rounds).
RESULT_CACHE = 1000


def engine_version() -> str:
    """What a round's pairing depends on besides its inputs: scorepad, the pairing code, networkx."""
    return f"scorepad {scorepad_version()} pairing/{PAIRING_VERSION} networkx {nx.__version__}"


def scorepad_version() -> str:
    """The installed scorepad's version ('unknown' when run from a tree that is not installed)."""
    try:
        return version("scorepad")
    except PackageNotFoundError:
        return "unknown"


@dataclass(frozen=True)
class ForfeitView:
    """A forfeit given at a table: who forfeited, why, by whom and when, and what each winner scores."""

    losers: tuple[int, ...]
    loser_names: tuple[str, ...]
    reason: str
    actor: str
    at: str
    hands_played: int
    # What everyone else at the table scores, as a bye would.
    points: int
    games: int


@dataclass(frozen=True)
class Resettlement:
    """A finished hand settled again by the director: the figures it had and has now, side by side."""

    round: int
    table: int
    hand: int
    # Each side's name ("Ann", or "Ann & Cy" for partners), in side order.
    sides: tuple[str, ...]
    remaining_before: list[Any]
    remaining_after: list[Any]
    # Each side's score at the end of the hand, before and after the new settlement.
    scores_before: tuple[int, ...]
    scores_after: tuple[int, ...]

    @property
    def summary(self) -> str:
        """The new scores in one sentence, with the old ones: what the director is shown."""
        return (
            f"hand {self.hand} at table {self.table} is settled again: {_scores_words(self.sides, self.scores_after)}"
            f" (it was {_scores_words(self.sides, self.scores_before)}); the hand counts once confirmed again"
        )


def _scores_words(sides: Sequence[str], scores: Sequence[int]) -> str:
    """ "Ann 30, Bob 35": each side's name and score."""
    return ", ".join(f"{name} {score}" for name, score in zip(sides, scores, strict=True))


def read_remaining(text: str) -> list[list[str] | int]:
    """Each seat's remaining as typed: seats in order separated by commas, each a pip total or its tiles.

    "12, 0" gives ``[12, 0]``; "6-6 5-4, 0" gives ``[["6-6", "5-4"], 0]``
    (records.md §4). Only the form is read here; the engine checks the
    figures against the hand. Raises ``TournamentError`` for a seat left empty.
    """
    seats: list[list[str] | int] = []
    for part in (text or "").split(","):
        typed = part.strip()
        if not typed:
            raise TournamentError(
                "type each seat's remaining in seat order, separated by commas: a pip total or the tiles held,"
                ' such as "12, 0" or "6-6 5-4, 0"'
            )
        # ASCII digits only ('²'.isdigit() is true); anything else is read as tiles, which the engine checks.
        if typed.isascii() and typed.isdigit():
            try:
                seats.append(read_whole(typed, what="a seat's pip total"))
            except NumberRefused as err:
                raise TournamentError(str(err)) from None
        else:
            seats.append(typed.split())
    return seats


@dataclass(frozen=True)
class TableView:
    """One table of a round as everyone may see it (no code).

    ``sides`` is the number of sides at the table: entrant ``i`` plays for
    side ``i % sides`` (four players in two partnerships: seats 0 and 2
    against 1 and 3). ``result`` is what the match's confirmed hands give;
    a ``forfeit`` replaces it in the standings.
    """

    number: int
    match_id: int | None
    entrants: tuple[int, ...]
    names: tuple[str, ...]
    result: TableResult | None
    sides: int = 0
    forfeit: ForfeitView | None = None

    @property
    def bye(self) -> bool:
        """This line is a bye, not a table."""
        return self.match_id is None

    @property
    def teams(self) -> tuple[tuple[str, ...], ...]:
        """The names side by side: one a side, or the two partners of each side at a four-player table."""
        count = self.sides or len(self.names)
        return tuple(tuple(n for i, n in enumerate(self.names) if i % count == side) for side in range(count))

    @property
    def versus(self) -> str:
        """The sides in words: "Ann v Bob", or "Ann & Cy v Bob & Dee" for partners at a four-player table."""
        return " v ".join(" & ".join(team) for team in self.teams)

    def side_of(self, index: int) -> SideResult | None:
        """The confirmed figures of the side entrant ``index`` (in seat order) plays for, if any."""
        if self.result is None:
            return None
        return self.result.sides[index % len(self.result.sides)]


@dataclass(frozen=True)
class RoundView:
    """A paired round: its tables and byes; ``codes`` only right after pairing, for the director."""

    number: int
    method: str
    tables: tuple[TableView, ...]
    locked: bool
    fingerprint: str
    notes: tuple[str, ...]
    codes: dict[int, str]


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
class AuditLine:
    """One line of the event's audit trail."""

    at: str
    actor: str
    action: str
    detail: dict[str, Any]


class TournamentService:
    """Events, registration, rounds, pairings, confirmations and standings on one store."""

    def __init__(self, store: Store, *, gate: Gate | None = None) -> None:
        self.store = store
        self._engine = store.engine
        self._writer = writer(store.engine)
        self.gate = gate or Gate(store.engine)
        self._results: OrderedDict[tuple[int, int, frozenset[tuple[int, str]]], TableResult] = OrderedDict()
        # Each side's figures over a match's confirmed hands, by the match and those hands' fingerprints.
        self._sides: OrderedDict[tuple[int, tuple[str, ...]], tuple[SideResult, ...]] = OrderedDict()
        self._lock = threading.Lock()

    # -- sign-in -------------------------------------------------------------------

    def login_director(self, event_id: int, password: str, *, source: str = "local") -> str:
        """The director's token (see ``Gate.login_director``)."""
        return self.gate.login_director(event_id, password, source=source)

    def join_table(self, event_id: int, code: str, *, source: str = "local") -> str:
        """A table's token from its code (see ``Gate.join_table``)."""
        return self.gate.join_table(event_id, code, source=source)

    def issue_hall(self, token: str | None, event_id: int) -> str:
        """A read-only token for the hall screen. Director only."""
        return self.gate.issue_hall(self.gate.caller(token, event_id))

    # -- events and entrants ---------------------------------------------------------

    def create_event(
        self,
        *,
        name: str,
        password: str,
        rounds: int,
        rules: str = "smartt",
        options: dict[str, Any] | None = None,
        kind: str = "singles",
        unit: str = "games",
        per_round: int = 1,
        pairing: str = "auto",
        seed: str | None = None,
        bye_points: int | None = None,
    ) -> int:
        """Create an event and return its id; ``password`` becomes the director's (stored hashed).

        The rules and options are checked by the engine (``make_ruleset``) for
        the table size of ``kind``. Raises ``TournamentError`` naming what is wrong.
        """
        try:
            name = str(check_text(name, what="the event's name", most=EVENT_NAME_MAX))
        except RecordFormatError as err:
            raise TournamentError(f"an event needs a name of 1 to {EVENT_NAME_MAX} characters ({err})") from None
        if kind not in KINDS:
            raise TournamentError(f"an event is {', '.join(KINDS[:-1])} or {KINDS[-1]}, not {kind!r}")
        sort = Kind(kind)
        if unit not in UNITS:
            raise TournamentError(f"a round is a number of games or of hands, not {unit!r}")
        if not isinstance(rounds, int) or not 1 <= rounds <= 50:
            raise TournamentError("an event has 1 to 50 rounds")
        if not isinstance(per_round, int) or not 1 <= per_round <= 50:
            raise TournamentError(f"a round has 1 to 50 {unit}")
        if pairing not in PAIRINGS:
            raise TournamentError("the pairing is auto, round-robin or swiss, not " + repr(pairing))
        if sort in (Kind.THREES, Kind.FOURS) and pairing == ROUND_ROBIN:
            raise TournamentError(f"tables of {sort.table_size} are seated by score bands, not by a round robin")
        check_password(password)
        options = dict(options or {})
        if sort.partnerships:
            if options.get("partners") is False:
                raise TournamentError(f"a {sort} event plays in partnerships, with the option partners on")
            options["partners"] = True
        try:
            ruleset = make_ruleset(rules, sort.table_size, options)
        except RecordFormatError as err:
            raise TournamentError(str(err)) from None
        if bye_points is None:
            bye_points = 2 * per_round if ruleset.game_points and unit == "games" else 0
        if not isinstance(bye_points, int) or bye_points < 0:
            raise TournamentError("a bye's game points are a whole number, 0 or more")
        now = utcnow()
        with session_scope(self._writer) as session:
            event = TournamentEvent(
                name=name,
                rules=ruleset.name,
                options=dict(ruleset.options),
                kind=sort.value,
                rounds=rounds,
                unit=unit,
                per_round=per_round,
                pairing={Kind.THREES: THREES, Kind.FOURS: FOURS}.get(sort, pairing),
                seed=seed if seed is not None else secrets.token_hex(8),
                bye_points=bye_points,
                director_hash=hash_secret(password),
                created_at=now,
            )
            session.add(event)
            session.flush()
            assert event.id is not None
            _audit(session, event.id, "director", "create", {"name": name, "rules": ruleset.describe(), "kind": kind})
            return event.id

    def register(self, token: str | None, event_id: int, players: Sequence[str], *, club: str | None = None) -> int:
        """Register an entrant (one name, or two for a partnership); returns its id.

        A late entry (after round 1 is paired) is paired from the next round
        on; a round robin takes none. Raises ``TournamentError``.
        """
        caller = self.gate.require(token, event_id, Action.REGISTER)
        with session_scope(self._writer) as session:
            event = _event(session, event_id)
            wanted = Kind(event.kind).entrant_size
            if len(players) != wanted:
                raise TournamentError(
                    "a partnership registers two names" if wanted == 2 else "a player registers one name"
                )
            names = _names(players, who="partners")
            club_text = _text(club, what="a club", most=NAME_MAX, required=False)
            entrants = _entrants(session, event_id)
            # One name rule for matches and tournaments (rules/names.py): alike case, spaces and Unicode form aside.
            taken = {name_key(p) for e in entrants for p in e.players}
            for n in names:
                if name_key(n) in taken:
                    raise TournamentError(f"{n} is already registered in this event")
            paired = _rounds_paired(session, event_id)
            if paired >= event.rounds:
                raise TournamentError("every round of this event is paired; nobody can join now")
            if paired and _method(session, event) == ROUND_ROBIN:
                raise TournamentError(
                    f"{' & '.join(names)} cannot join: a round robin's schedule is fixed once round 1 is paired"
                )
            entrant = TournamentEntrant(
                event_id=event_id,
                number=max((e.number for e in entrants), default=0) + 1,
                name=" & ".join(names),
                players=names,
                club=club_text,
                joined_round=paired + 1,
                created_at=utcnow(),
            )
            session.add(entrant)
            session.flush()
            assert entrant.id is not None
            _audit(
                session,
                event_id,
                caller.label,
                "register",
                {"entrant": entrant.name, "number": entrant.number, "from_round": entrant.joined_round},
            )
            return entrant.id

    def withdraw(self, token: str | None, event_id: int, entrant: str | int) -> int:
        """Withdraw an entrant from the next round to be paired on; returns that round's number.

        Their results so far stay in the standings. Raises ``TournamentError``.
        """
        caller = self.gate.require(token, event_id, Action.WITHDRAW)
        with session_scope(self._writer) as session:
            row = _entrant(session, event_id, entrant)
            if row.withdrawn_round is not None:
                raise TournamentError(f"{row.name} has already withdrawn (from round {row.withdrawn_round})")
            row.withdrawn_round = _rounds_paired(session, event_id) + 1
            session.add(row)
            _audit(
                session, event_id, caller.label, "withdraw", {"entrant": row.name, "from_round": row.withdrawn_round}
            )
            return row.withdrawn_round

    def forbid(self, token: str | None, event_id: int, first: str | int, second: str | int, reason: str) -> None:
        """Keep two entrants from ever sitting at one table (family, same club). Raises ``TournamentError``."""
        caller = self.gate.require(token, event_id, Action.FORBID)
        reason = _reason(reason, "say why the two may not meet (family, same club...)")
        with session_scope(self._writer) as session:
            a, b = _entrant(session, event_id, first), _entrant(session, event_id, second)
            if a.id == b.id:
                raise TournamentError("a forbidden pair needs two different entrants")
            low, high = sorted((_pk(a), _pk(b)))
            exists = session.execute(
                select(TournamentForbidden).where(
                    col(TournamentForbidden.event_id) == event_id,
                    col(TournamentForbidden.first_id) == low,
                    col(TournamentForbidden.second_id) == high,
                )
            ).scalar_one_or_none()
            if exists is not None:
                raise TournamentError(f"{a.name} and {b.name} are already kept apart ({exists.reason})")
            session.add(TournamentForbidden(event_id=event_id, first_id=low, second_id=high, reason=reason))
            _audit(session, event_id, caller.label, "forbid", {"pair": [a.name, b.name], "reason": reason})

    # -- rounds ----------------------------------------------------------------------

    def pair_round(self, token: str | None, event_id: int) -> RoundView:
        """Pair the next round, create each table's match, and return it with the table codes.

        The codes are shown only here (and by ``new_code``); the store keeps
        their hashes. The previous round must be locked. Raises
        ``PairingError`` and ``TournamentError``.
        """
        caller = self.gate.require(token, event_id, Action.PAIR)
        with session_scope(self._engine) as session:
            event = _event(session, event_id)
            number = _rounds_paired(session, event_id) + 1
            if number > event.rounds:
                raise TournamentError(f"all {event.rounds} rounds of this event are paired")
            previous = _round(session, event_id, number - 1) if number > 1 else None
            if previous is not None and previous.locked_at is None:
                raise TournamentError(
                    f"round {previous.number} is not locked yet; lock it before pairing round {number}"
                )
            inputs = self._pairing_input(session, event, number)
            snapshot = _EventData.read(session, event)
        pairing = pair(inputs)
        return self._store_round(caller, snapshot, number, inputs, pairing, pairing, reason=None)

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
        reason = _reason(reason, "a manual re-pairing needs a reason for the audit")
        with session_scope(self._engine) as session:
            event = _event(session, event_id)
            current = _latest_round(session, event_id)
            if current is None or current.locked_at is not None:
                raise TournamentError("there is no round in play to re-pair")
            for table in _tables(session, current.id):
                if table.match_id is not None and self.store.load(table.match_id).hands:
                    raise TournamentError(f"table {table.number} has started playing; re-pair before the first hand")
            size = Kind(event.kind).entrants_per_table
            active = {c.id for c in PairingInput.from_dict(current.inputs).contenders}
            ids: list[tuple[int, ...]] = []
            seen: set[int] = set()
            for seats in tables:
                row = tuple(_pk(_entrant(session, event_id, ref)) for ref in seats)
                if len(row) != size:
                    raise TournamentError(f"each table seats {size} entrants; one lists {len(row)}")
                for x in row:
                    if x in seen:
                        raise TournamentError("an entrant is listed at two tables")
                    if x not in active:
                        raise TournamentError("a listed entrant is not playing this round")
                    seen.add(x)
                ids.append(row)
            forbidden = _forbidden(session, event_id)
            names = {e.id: e.name for e in _entrants(session, event_id)}
            for row in ids:
                for a in row:
                    for b in row:
                        if a < b and frozenset((a, b)) in forbidden:
                            why = forbidden[frozenset((a, b))]
                            raise TournamentError(f"{names[a]} and {names[b]} may not meet ({why})")
            byes = tuple(sorted(active - seen))
            inputs = PairingInput.from_dict(current.inputs)
            computed = Pairing.from_dict(current.computed)
            before = [list(t.entrants) for t in _tables(session, current.id)]
            snapshot = _EventData.read(session, event)
        manual = Pairing(tuple(ids), byes, ("re-paired by the director",))
        return self._store_round(
            caller, snapshot, current.number, inputs, computed, manual, reason=reason, before=before
        )

    def lock_round(self, token: str | None, event_id: int, *, reason: str | None = None) -> int:
        """Lock the current round (its table codes stop working); returns its number.

        Refused while a table has not played its games or hands, or has a
        finished hand unconfirmed, unless ``reason`` says why (audited).
        Raises ``TournamentError``.
        """
        caller = self.gate.require(token, event_id, Action.LOCK)
        with session_scope(self._engine) as session:
            event = _event(session, event_id)
            current = _latest_round(session, event_id)
            if current is None or current.locked_at is not None:
                raise TournamentError("there is no round in play to lock")
            tables = _tables(session, current.id)
            forfeited = _forfeits(session, [_pk(t) for t in tables])
        waiting = []
        results = self._table_results([t for t in tables if t.id not in forfeited])
        for table in tables:
            result = results.get(_pk(table))
            if result is None:  # a bye, or forfeited
                continue
            if not _complete(event, result) or result.provisional:
                waiting.append(table.number)
        reason = _text(reason, what="the reason", most=REASON_MAX, required=False)
        if waiting and not reason:
            raise TournamentError(
                "tables " + ", ".join(map(str, waiting)) + " have not finished and confirmed their play;"
                " give a reason to lock the round anyway"
            )
        with session_scope(self._writer) as session:
            row = _round_held(session, _pk(current))
            if row.locked_at is not None:
                raise TournamentError(f"round {row.number} was locked meanwhile by another device")
            row.locked_at = utcnow()
            session.add(row)
            _audit(
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
        reason = _reason(reason, "reopening a round needs a reason for the audit")
        with session_scope(self._writer) as session:
            _event(session, event_id)
            # Held until the commit: a pairing of the next round waits for it, then sees the round open.
            row = _latest_held(session, event_id)
            paired = _rounds_paired(session, event_id)
            wanted = row.number if number is None else number
            if wanted != paired:
                if _round(session, event_id, wanted) is None:
                    raise TournamentError(f"round {wanted} is not paired")
                raise TournamentError(
                    f"round {wanted} cannot be reopened: round {paired} is already paired from its results"
                )
            if row.locked_at is None:
                raise TournamentError(f"round {row.number} is not locked: it is still in play")
            locked_at = as_utc(row.locked_at) or row.locked_at
            row.locked_at = None
            session.add(row)
            _audit(
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
            current = _latest_round(session, event_id)
            if current is None:
                raise TournamentError("no round is paired yet")
            table = _table(session, current, table_number)
            table.code_hash = hash_secret(code)
            session.add(table)
            _audit(session, event_id, caller.label, "new code", {"round": current.number, "table": table_number})
        return code

    # -- at a table ------------------------------------------------------------------

    def table_match(self, token: str | None, event_id: int) -> tuple[int, MatchSnapshot]:
        """A table's own match id and its state now. Table role only."""
        caller = self.gate.require(token, event_id, Action.SCORE)
        if caller.role != Role.TABLE:
            raise AccessDenied("only a table has a table of its own; the director names the match")
        match_id = self._match_of(caller)
        return match_id, self.store.load(match_id, device=caller.label)

    def authorize_match(self, token: str | None, event_id: int, match_id: int) -> Caller:
        """Check that the caller may write to ``match_id`` (a web layer calls this before the store).

        The director may write to any match of the event; a table only to
        its own match in the current round. Raises ``AccessDenied``, and
        ``TournamentError`` for a forfeited table (its match takes no more entries).
        A table's check is its credential's (the table and the round in play)
        and one read of the table's forfeit: it runs before every entry.
        """
        caller = self.gate.require(token, event_id, Action.SCORE)
        with session_scope(self._engine) as session:
            if caller.role == Role.TABLE:
                if self._match_of(caller) != match_id:
                    raise AccessDenied(f"table {caller.table_number} may only change its own match")
                table_id, number = caller.table_id, caller.table_number
            else:
                row = session.execute(
                    select(col(TournamentTable.id), col(TournamentTable.number))
                    .join(TournamentRound, col(TournamentRound.id) == col(TournamentTable.round_id))
                    .where(col(TournamentRound.event_id) == event_id, col(TournamentTable.match_id) == match_id)
                ).one_or_none()
                if row is None:
                    raise AccessDenied(f"match {match_id} is not a match of this event")
                table_id, number = row
            if table_id is not None and _forfeits(session, [table_id]):
                raise TournamentError(f"table {number} was forfeited: its match takes no more entries")
        return caller

    def start_hand(self, token: str | None, event_id: int, match_id: int, setter: int | None = None) -> MatchSnapshot:
        """Start the next hand at a table, within the round's games or hands. Raises as the store does."""
        caller = self.authorize_match(token, event_id, match_id)
        with session_scope(self._engine) as session:
            event = _event(session, event_id)
        state = self.store.load(match_id, device=caller.label)
        done = len(state.games()) if event.unit == "games" else len(state.hands)
        if done >= event.per_round:
            raise TournamentError(f"this table has played its {event.per_round} {event.unit} for the round")
        return self.store.start_hand(match_id, setter, device=caller.label)

    def append(self, token: str | None, event_id: int, match_id: int, event: Any) -> MatchSnapshot:
        """Enter one event at a table (the engine checks it). Raises as ``Store.append``."""
        caller = self.authorize_match(token, event_id, match_id)
        return self.store.append(match_id, event, device=caller.label)

    def settle(self, token: str | None, event_id: int, match_id: int, remaining: Any) -> MatchSnapshot:
        """Settle a table's hand. Raises as ``Store.settle``."""
        caller = self.authorize_match(token, event_id, match_id)
        return self.store.settle(match_id, remaining, device=caller.label)

    def undo(self, token: str | None, event_id: int, match_id: int) -> MatchSnapshot:
        """Take back a table's last entry. Raises as ``Store.undo``."""
        caller = self.authorize_match(token, event_id, match_id)
        return self.store.undo(match_id, device=caller.label)

    def correct(
        self, token: str | None, event_id: int, match_id: int, *, reason: str, amend: Any = None, undo: bool = False
    ) -> MatchSnapshot:
        """The director's correction of a table's entry, with the reason kept in the event's audit.

        ``undo=True`` takes back the last standing entry (a settlement: the
        hand is reopened); otherwise ``amend`` replaces the current hand's
        last event (``None`` withdraws it), as ``Store.amend``. Either is one
        compensating entry in the match's log (nothing is erased) and one
        line of the event's audit (who, when, why, what), readable by
        everyone. A corrected hand needs confirming again. Director only;
        raises ``TournamentError`` without a reason, and what the store raises.
        """
        caller = self.gate.require(token, event_id, Action.REPAIR)
        reason = _reason(reason, "a correction needs a reason for the audit")
        self.authorize_match(token, event_id, match_id)
        device = f"{caller.label}: {reason}"
        # The match as stored now, read for this correction: a view another screen loaded earlier
        # (the store lends a device the view last loaded without one) may be out of date.
        now = self.store.load(match_id, device=device).revision
        state = (
            self.store.undo(match_id, device=device, expected_revision=now)
            if undo
            else self.store.amend(match_id, amend, device=device, expected_revision=now)
        )
        latest = self.store.audit(match_id)[-1]
        with session_scope(self._writer) as session:
            row = session.execute(
                select(col(TournamentTable.number), col(TournamentRound.number))
                .join(TournamentRound, col(TournamentRound.id) == col(TournamentTable.round_id))
                .where(col(TournamentTable.match_id) == match_id)
            ).one()
            _audit(
                session,
                event_id,
                caller.label,
                "correct",
                {
                    "round": row[1],
                    "table": row[0],
                    "match": match_id,
                    "reason": reason,
                    "entry": {"action": latest.action, "hand": latest.hand, "detail": latest.detail},
                },
            )
        return state

    def resettle(
        self,
        token: str | None,
        event_id: int,
        table_number: int,
        *,
        remaining: Any,
        reason: str,
        hand: int | None = None,
    ) -> Resettlement:
        """The director settles a table's last settled hand again with the right figures, and a reason.

        For a miscounted settlement (Smartt §9: the tiles or pips each seat
        still holds). ``remaining`` is what ``Store.settle`` takes (records.md
        §4: each seat's tiles or pip total), or the same typed as text ("12,
        0", see ``read_remaining``). ``hand`` names the hand meant (None:
        the last). Only the table's last hand, in the round in play, while
        nothing has been entered after its settlement: later entries are
        taken back first with ``correct``. The new settlement is checked by
        the engine on a fork before anything is written, so a refused figure
        leaves the match as it was; then the old settlement is taken back and
        the new one entered (two compensating entries in the match's log,
        nothing erased), and one ``resettle`` line goes to the event's audit
        (round, table, hand, reason, the remaining and the hand's scores
        before and after). The hand needs confirming again, as after any
        correction. Refused in a locked round (reopen it first) and at a
        forfeited table or a bye. Director only. Raises ``TournamentError``,
        and what the store raises when another device wrote meanwhile.
        """
        caller = self.gate.require(token, event_id, Action.RESETTLE)
        reason = _reason(reason, "settling a hand again needs a reason for the audit")
        remaining = read_remaining(remaining) if isinstance(remaining, str) else _as_stored(remaining)
        with session_scope(self._engine) as session:
            current = _latest_round(session, event_id)
            if current is None:
                raise TournamentError("no round is paired yet")
            if current.locked_at is not None:
                raise TournamentError(f"round {current.number} is locked: reopen it before settling a hand again there")
            table = _table(session, current, table_number)
            if table.match_id is None:
                raise TournamentError(f"table {table_number} is a bye: it has no hand to settle again")
            if _forfeits(session, [_pk(table)]):
                raise TournamentError(f"table {table_number} was forfeited: its hands no longer count")
            match_id = table.match_id
        device = f"{caller.label}: {reason}"
        state, top = self.store.last_entry(match_id, device=device)
        last = _settled_hand(state, top, table_number, hand)
        if remaining == last.remaining:
            raise TournamentError(f"hand {last.number} at table {table_number} is already settled with those figures")
        # The engine checks the new settlement on a fork with the old one taken back: nothing is written yet.
        trial = state.fork()
        trial.undo()
        preview = preview_settlement(trial, remaining)
        if preview.refusal is not None:
            raise TournamentError(
                f"hand {last.number} at table {table_number} keeps its settlement: {preview.refusal.rstrip('.')}"
            )
        unsettled = self.store.undo(match_id, device=device, expected_revision=state.revision)
        try:
            self.store.settle(match_id, remaining, device=device, expected_revision=unsettled.revision)
        except (StoreError, SniffError):
            # Another device wrote between the two entries (the engine accepted the figures above):
            # put the old settlement back if nothing else was entered since, and say so.
            try:
                self.store.redo(match_id, device=device, expected_revision=unsettled.revision)
            except (StoreError, SniffError):
                raise TournamentError(
                    f"another device wrote to table {table_number} while hand {last.number} was being settled"
                    " again: its settlement is taken back; settle it at the table or here"
                ) from None
            raise TournamentError(
                f"another device wrote to table {table_number} meanwhile: hand {last.number} keeps its settlement;"
                " try again"
            ) from None
        done = Resettlement(
            round=current.number,
            table=table_number,
            hand=last.number,
            sides=tuple(state.side_name(side) for side in range(state.rules.sides)),
            remaining_before=list(last.remaining or []),
            remaining_after=list(remaining),
            scores_before=tuple(last.scores_after),
            scores_after=tuple(preview.scores_after),
        )
        with session_scope(self._writer) as session:
            _audit(
                session,
                event_id,
                caller.label,
                "resettle",
                {
                    "round": done.round,
                    "table": done.table,
                    "match": match_id,
                    "hand": done.hand,
                    "reason": reason,
                    "before": {"remaining": done.remaining_before, "scores": list(done.scores_before)},
                    "after": {"remaining": done.remaining_after, "scores": list(done.scores_after)},
                },
            )
        return done

    def forfeit(
        self, token: str | None, event_id: int, table_number: int, losers: Sequence[str | int], *, reason: str
    ) -> ForfeitView:
        """The director gives a forfeit at a table of the round in play: ``losers`` (names or numbers) forfeit.

        The losers score nothing for the round; everyone else at the table
        scores a forfeit win, as a bye (the event's bye points, and the
        round's games as games won when a round is games). Naming everyone
        is a double forfeit: nobody scores. Hands already played stay in the
        match's log but no longer count, and the match takes no more entries.
        A forfeit is no meeting (the entrants may be paired again) and a
        forfeit win counts as a bye (nobody has a bye after one). Audited
        (who, when, why), readable by everyone. Director only; refused
        without a reason, at a bye, twice at one table, and once the round
        is locked. Raises ``TournamentError``.
        """
        caller = self.gate.require(token, event_id, Action.FORFEIT)
        reason = _reason(reason, "a forfeit needs a reason for the audit (did not turn up, walked off...)")
        with session_scope(self._engine) as session:
            event = _event(session, event_id)
            current = _latest_round(session, event_id)
            if current is None:
                raise TournamentError("no round is paired yet")
            if current.locked_at is not None:
                raise TournamentError(
                    f"round {current.number} is locked: a forfeit is given in the round in play, before its lock"
                )
            table = _table(session, current, table_number)
            if table.match_id is None:
                raise TournamentError(f"table {table_number} is a bye: there is nobody to forfeit against")
            if _forfeits(session, [_pk(table)]):
                raise TournamentError(f"table {table_number} has already been forfeited")
            ids: list[int] = []
            for ref in losers:
                row = _entrant(session, event_id, ref)
                if _pk(row) not in table.entrants:
                    raise TournamentError(f"{row.name} does not play at table {table_number} in this round")
                if _pk(row) not in ids:
                    ids.append(_pk(row))
            if not ids:
                raise TournamentError("name who forfeits, by name or entrant number")
            names = {_pk(e): e.name for e in _entrants(session, event_id)}
            match_id = table.match_id
        seated = [x for x in table.entrants if x in ids]
        hands = len(self.store.load(match_id).hands)
        now = utcnow()
        try:
            with session_scope(self._writer) as session:
                session.add(
                    TournamentForfeit(
                        table_id=_pk(table),
                        losers=seated,
                        reason=reason,
                        actor=caller.label,
                        hands_played=hands,
                        at=now,
                    )
                )
                _audit(
                    session,
                    event_id,
                    caller.label,
                    "forfeit",
                    {
                        "round": current.number,
                        "table": table_number,
                        "losers": [names[x] for x in seated],
                        "winners": [names[x] for x in table.entrants if x not in ids],
                        "reason": reason,
                        "hands_played": hands,
                    },
                )
        except IntegrityError:
            raise TournamentError(f"table {table_number} has already been forfeited") from None
        return ForfeitView(
            losers=tuple(seated),
            loser_names=tuple(names[x] for x in seated),
            reason=reason,
            actor=caller.label,
            at=now.isoformat(),
            hands_played=hands,
            points=event.bye_points,
            games=_bye_games(event),
        )

    def unforfeit(self, token: str | None, event_id: int, table_number: int, *, reason: str) -> ForfeitView:
        """Take back a forfeit given by mistake at a table of the round in play; returns what it was.

        The forfeit's row goes; the audit line keeps what it was (who
        forfeited, why, who gave it and when, the hands played then) with
        the reason. The table's match takes entries and confirmations again,
        and the hands already played count again. Refused without a reason,
        where there is no forfeit, and once the round is locked (reopen it
        first). Director only. Raises ``TournamentError``.
        """
        caller = self.gate.require(token, event_id, Action.UNFORFEIT)
        reason = _reason(reason, "taking back a forfeit needs a reason for the audit")
        with session_scope(self._writer) as session:
            event = _event(session, event_id)
            # Held until the commit, so a lock of the round cannot slip in between the check and the delete.
            current = _latest_held(session, event_id)
            if current.locked_at is not None:
                raise TournamentError(f"round {current.number} is locked: reopen it before taking back a forfeit there")
            table = _table(session, current, table_number)
            forfeit = _forfeits(session, [_pk(table)]).get(_pk(table))
            if forfeit is None:
                raise TournamentError(f"table {table_number} has no forfeit to take back")
            names = {_pk(e): e.name for e in _entrants(session, event_id)}
            view = _forfeit_view(forfeit, event, names)
            session.delete(forfeit)
            _audit(
                session,
                event_id,
                caller.label,
                "unforfeit",
                {
                    "round": current.number,
                    "table": table_number,
                    "reason": reason,
                    "before": {
                        "losers": list(view.loser_names),
                        "reason": view.reason,
                        "actor": view.actor,
                        "at": view.at,
                        "hands_played": view.hands_played,
                    },
                },
            )
        return view

    def confirm(
        self,
        token: str | None,
        event_id: int,
        table_number: int,
        *,
        by: str,
        hand: int | None = None,
        round_number: int | None = None,
    ) -> list[int]:
        """The opposing side confirms a table's finished hands (``hand``, or all waiting); returns them.

        ``by`` names who confirms: a player at that table (or, for the
        director, any note). A table may confirm only its own table in the
        current round; the director any table of any round. Raises
        ``TournamentError`` (nothing finished to confirm, an unknown hand).
        """
        caller = self.gate.caller(token, event_id)
        self.gate.permit(caller, Action.CONFIRM)
        with session_scope(self._engine) as session:
            rnd = _latest_round(session, event_id) if round_number is None else _round(session, event_id, round_number)
            if rnd is None:
                raise TournamentError("no round is paired yet")
            table = _table(session, rnd, table_number)
            if caller.role == Role.TABLE and caller.table_id != table.id:
                raise AccessDenied(f"table {caller.table_number} may only confirm its own table")
            if table.match_id is None:
                raise TournamentError(f"table {table_number} is a bye: there is nothing to confirm")
            if _forfeits(session, [_pk(table)]):
                raise TournamentError(f"table {table_number} was forfeited: there is nothing to confirm")
            players = {p.casefold() for e in _entrants(session, event_id) if e.id in table.entrants for p in e.players}
            done = self._confirmations(session, table.id)
        by = (by or "").strip()
        if caller.role == Role.TABLE and by.casefold() not in players:
            raise TournamentError("a hand is confirmed by a player of the opposing side, by name")
        record = self.store.export_record(table.match_id)
        state = self.store.load(table.match_id)
        finished = [h.number for h in state.hands if h.finished]
        wanted = [hand] if hand is not None else finished
        out = []
        with session_scope(self._writer) as session:
            for number in wanted:
                if number not in finished:
                    raise TournamentError(f"hand {number} at table {table_number} is not finished, so not confirmed")
                fingerprint = hand_fingerprint(record["hands"][number - 1])
                if fingerprint in done.get(number, set()):
                    continue
                session.add(
                    TournamentConfirmation(
                        table_id=_pk(table),
                        hand=number,
                        fingerprint=fingerprint,
                        confirmed_by=by or caller.label,
                        at=utcnow(),
                    )
                )
                out.append(number)
            if hand is not None and not out:
                raise TournamentError(f"hand {hand} at table {table_number} is already confirmed as it stands")
            if not wanted:
                raise TournamentError(f"table {table_number} has no finished hand to confirm")
            if out:
                _audit(
                    session,
                    event_id,
                    caller.label,
                    "confirm",
                    {"round": rnd.number, "table": table_number, "hands": out, "by": by or caller.label},
                )
        return out

    # -- reading ---------------------------------------------------------------------

    def round_view(self, token: str | None, event_id: int, number: int | None = None) -> RoundView:
        """A round's tables, byes and confirmed results (the latest round when ``number`` is None)."""
        self.gate.require(token, event_id, Action.VIEW)
        with session_scope(self._engine) as session:
            rnd = _latest_round(session, event_id) if number is None else _round(session, event_id, number)
            if rnd is None:
                raise TournamentError("no round is paired yet" if number is None else f"round {number} is not paired")
            event = _event(session, event_id)
            tables = _tables(session, rnd.id)
            names = {_pk(e): e.name for e in _entrants(session, event_id)}
            forfeits = _forfeits(session, [_pk(t) for t in tables])
        results = self._table_results(tables)
        pairing = Pairing.from_dict(rnd.computed)
        return RoundView(
            number=rnd.number,
            method=PairingInput.from_dict(rnd.inputs).method,
            tables=tuple(_table_view(t, event, names, forfeits, results) for t in tables),
            locked=rnd.locked_at is not None,
            fingerprint=rnd.fingerprint,
            notes=pairing.notes,
            codes={},
        )

    def table_view(self, token: str | None, event_id: int, table_number: int | None = None) -> TableView:
        """One table of the latest round, as ``round_view`` shows it, read on its own.

        What a table's phone draws at every entry (its confirmation bar): it
        reads that one table and its match, never the round's other tables.
        ``table_number`` None is the caller's own table (a table's token).
        Readable by every role, as the round is. Raises ``TournamentError``
        (no round, no such table) and ``AccessDenied``.
        """
        caller = self.gate.require(token, event_id, Action.VIEW)
        number = caller.table_number if table_number is None else table_number
        if number is None:
            raise TournamentError("name the table to show")
        with session_scope(self._engine) as session:
            event = _event(session, event_id)
            if table_number is None and caller.table_id is not None:
                # The credential was checked for this table in the round in play a moment ago.
                table: TournamentTable | None = session.get(TournamentTable, caller.table_id)
                if table is None:
                    raise AccessDenied("this table code was for a round that is over")
            else:
                table = _table(session, _latest_round(session, event_id), number)
            rows = session.execute(
                select(col(TournamentEntrant.id), col(TournamentEntrant.name)).where(
                    col(TournamentEntrant.id).in_(list(table.entrants))
                )
            ).all()
            names = {entrant: name for entrant, name in rows}
            forfeits = _forfeits(session, [_pk(table)])
        return _table_view(table, event, names, forfeits, self._table_results([table]))

    def standings(self, token: str | None, event_id: int, *, through: int | None = None) -> list[Standing]:
        """The standings from confirmed results (through round ``through``, else every round paired)."""
        self.gate.require(token, event_id, Action.VIEW)
        with session_scope(self._engine) as session:
            event = _event(session, event_id)
            return self._standings(session, event, through)

    def event_info(self, token: str | None, event_id: int) -> dict[str, Any]:
        """The event's settings and progress (no secrets)."""
        self.gate.require(token, event_id, Action.VIEW)
        with session_scope(self._engine) as session:
            event = _event(session, event_id)
            return {
                "id": event.id,
                "name": event.name,
                "rules": event.rules,
                "options": dict(event.options),
                "kind": event.kind,
                "rounds": event.rounds,
                "unit": event.unit,
                "per_round": event.per_round,
                "pairing": event.pairing,
                "bye_points": event.bye_points,
                "rounds_paired": _rounds_paired(session, event_id),
                "game_points": make_ruleset(event.rules, Kind(event.kind).table_size, event.options).game_points,
            }

    def audit(self, token: str | None, event_id: int) -> list[AuditLine]:
        """The event's audit trail, oldest first (readable by everyone: it holds no secret)."""
        self.gate.require(token, event_id, Action.VIEW)
        with session_scope(self._engine) as session:
            _event(session, event_id)
            rows = session.execute(
                select(TournamentAudit)
                .where(col(TournamentAudit.event_id) == event_id)
                .order_by(col(TournamentAudit.id))
            ).scalars()
            return [AuditLine(r.at.isoformat(), r.actor, r.action, dict(r.detail)) for r in rows]

    def match_ids(self, token: str | None, event_id: int) -> list[tuple[int, int, int]]:
        """(round, table, match id) of every table played. Director only (for exports)."""
        self.gate.require(token, event_id, Action.EXPORT)
        with session_scope(self._engine) as session:
            rows = session.execute(
                select(col(TournamentRound.number), col(TournamentTable.number), col(TournamentTable.match_id))
                .join(TournamentRound, col(TournamentRound.id) == col(TournamentTable.round_id))
                .where(col(TournamentRound.event_id) == event_id, col(TournamentTable.match_id).is_not(None))
                .order_by(col(TournamentRound.number), col(TournamentTable.number))
            ).all()
        return [(r, t, m) for r, t, m in rows]

    def verify_pairings(self, token: str | None, event_id: int, number: int) -> Verification:
        """Re-run round ``number``'s pairing and compare.

        Two checks: the inputs stored with the round are those the database
        gives today (entrants, confirmed standings, history, forbidden
        pairs), and pairing those inputs again gives the stored pairing. A
        director's manual re-pairing is reported, not counted as a mismatch.
        """
        self.gate.require(token, event_id, Action.VIEW)
        with session_scope(self._engine) as session:
            event = _event(session, event_id)
            rnd = _round(session, event_id, number)
            if rnd is None:
                raise TournamentError(f"round {number} is not paired")
            stored_inputs = PairingInput.from_dict(rnd.inputs)
            today = self._pairing_input(session, event, number, method=stored_inputs.method)
            seated = [tuple(t.entrants) for t in _tables(session, rnd.id) if t.match_id is not None]
        again = pair(stored_inputs)
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

    # -- internals ---------------------------------------------------------------------

    def _match_of(self, caller: Caller) -> int:
        """A table caller's own match (read with its credential). Raises ``AccessDenied`` for a bye."""
        if caller.match_id is None:
            raise AccessDenied("this table has no match")
        return caller.match_id

    def _confirmations(self, session: Session, table_id: int | None) -> dict[int, set[str]]:
        out: dict[int, set[str]] = {}
        rows = session.execute(
            select(col(TournamentConfirmation.hand), col(TournamentConfirmation.fingerprint)).where(
                col(TournamentConfirmation.table_id) == table_id
            )
        ).all()
        for hand, fingerprint in rows:
            out.setdefault(hand, set()).add(fingerprint)
        return out

    def _table_results(self, tables: Sequence[TournamentTable]) -> dict[int, TableResult]:
        """The confirmed figures of these tables (those with a match), by table id.

        Two reads for all of them (the confirmations, the matches'
        revisions); a table's match is then replayed by the engine only when
        its revision or confirmations moved since it was last replayed: a
        result kept under (match, revision, confirmations) is never stale, so
        a round's or a long event's figures replay only the tables that changed.
        """
        played = {_pk(t): t.match_id for t in tables if t.match_id is not None}
        if not played:
            return {}
        done: dict[int, dict[int, set[str]]] = {table_id: {} for table_id in played}
        with session_scope(self._engine) as session:
            for table_id, hand, fingerprint in session.execute(
                select(
                    col(TournamentConfirmation.table_id),
                    col(TournamentConfirmation.hand),
                    col(TournamentConfirmation.fingerprint),
                ).where(col(TournamentConfirmation.table_id).in_(list(played)))
            ).all():
                done[table_id].setdefault(hand, set()).add(fingerprint)
            revisions: dict[int, int] = {
                match_id: revision
                for match_id, revision in session.execute(
                    select(col(Match.id), col(Match.revision)).where(col(Match.id).in_(list(played.values())))
                ).all()
            }
        return {
            table_id: self._result_of(match_id, revisions[match_id], done[table_id])
            for table_id, match_id in played.items()
        }

    def _result_of(self, match_id: int, revision: int, done: dict[int, set[str]]) -> TableResult:
        """One match's confirmed figures at ``revision`` with the confirmations ``done`` (cached, see above)."""
        key = (match_id, revision, frozenset((h, f) for h, prints in done.items() for f in prints))
        with self._lock:
            cached = self._results.get(key)
            if cached is not None:
                self._results.move_to_end(key)
                return cached
        record, played = self.store.record_and_state(match_id)
        prints = confirmed_prints(record, done)
        confirmed = len(prints)
        # The confirmed hands' figures change only with them: an entry of the hand in play leaves them.
        head = (match_id, prints)
        with self._lock:
            sides = self._sides.get(head)
        if sides is None:
            sides = confirmed_sides(record, confirmed)
        result = table_result(record, confirmed, played=played, sides=sides)
        with self._lock:
            # A write landing between the revision and the export only makes this result newer than its key.
            self._results[key] = result
            self._sides[head] = sides
            self._sides.move_to_end(head)
            for kept in (self._results, self._sides):
                while len(kept) > RESULT_CACHE:
                    kept.popitem(last=False)
        return result

    def _outcomes(self, session: Session, event: TournamentEvent, through: int | None) -> list[Outcome]:
        out: list[Outcome] = []
        bye_games = _bye_games(event)
        rounds = session.execute(
            select(TournamentRound)
            .where(col(TournamentRound.event_id) == event.id)
            .order_by(col(TournamentRound.number))
        ).scalars()
        for rnd in rounds:
            if through is not None and rnd.number > through:
                break
            tables = _tables(session, rnd.id)
            forfeits = _forfeits(session, [_pk(t) for t in tables])
            results = self._table_results([t for t in tables if _pk(t) not in forfeits])
            for table in tables:
                if table.match_id is None:
                    out.append(Outcome(table.entrants[0], rnd.number, None, (), event.bye_points, bye_games, 0, 0))
                    continue
                forfeit = forfeits.get(_pk(table))
                if forfeit is not None:
                    # No game was played: no opponent, no spread; the winners score as a bye.
                    for entrant in table.entrants:
                        lost = entrant in forfeit.losers
                        points, games = (0, 0) if lost else (event.bye_points, bye_games)
                        out.append(
                            Outcome(
                                entrant,
                                rnd.number,
                                table.number,
                                (),
                                points,
                                games,
                                0,
                                0,
                                forfeit=_LOST if lost else _WON,
                            )
                        )
                    continue
                result = results[_pk(table)]
                sides = len(result.sides)
                for index, entrant in enumerate(table.entrants):
                    # Entrant i plays for side i % sides (four players: seats 0 and 2 against 1 and 3),
                    # and is credited with the side's figures; the opponents are the other sides' entrants.
                    side = index % sides
                    figures = result.sides[side]
                    against = {x: figures.against[j % sides] for j, x in enumerate(table.entrants) if j % sides != side}
                    out.append(
                        Outcome(
                            entrant=entrant,
                            round=rnd.number,
                            table=table.number,
                            opponents=tuple(against),
                            game_points=figures.game_points,
                            games_won=figures.games_won,
                            rubes=figures.rubes,
                            spread=figures.spread,
                            against=against,
                            provisional=result.hands_played > result.hands_confirmed,
                        )
                    )
        return out

    def _standings(self, session: Session, event: TournamentEvent, through: int | None) -> list[Standing]:
        entries = [Entry(_pk(e), e.number, e.name) for e in _entrants(session, _pk(event))]
        rules = make_ruleset(event.rules, Kind(event.kind).table_size, event.options)
        return compute_standings(entries, self._outcomes(session, event, through), game_points=rules.game_points)

    def _pairing_input(
        self, session: Session, event: TournamentEvent, number: int, *, method: str | None = None
    ) -> PairingInput:
        """Everything round ``number``'s pairing depends on, from the database as it is now."""
        entrants = _entrants(session, _pk(event))
        active = [
            e
            for e in entrants
            if e.joined_round <= number and (e.withdrawn_round is None or e.withdrawn_round > number)
        ]
        standing = {s.entrant: s for s in self._standings(session, event, number - 1)} if number > 1 else {}
        rules = make_ruleset(event.rules, Kind(event.kind).table_size, event.options)
        met: dict[int, list[int]] = {_pk(e): [] for e in entrants}
        partnered: dict[int, list[int]] = {_pk(e): [] for e in entrants}
        byes: dict[int, int] = {_pk(e): 0 for e in entrants}
        fours = event.kind == Kind.FOURS
        for rnd in session.execute(
            select(TournamentRound).where(
                col(TournamentRound.event_id) == event.id, col(TournamentRound.number) < number
            )
        ).scalars():
            tables = _tables(session, rnd.id)
            forfeits = _forfeits(session, [_pk(t) for t in tables])
            for table in tables:
                if table.match_id is None:
                    byes[table.entrants[0]] += 1
                    continue
                forfeit = forfeits.get(_pk(table))
                if forfeit is not None:
                    # FIDE C.04.1: a forfeit is no meeting, and a forfeit win rules out a later bye.
                    for x in table.entrants:
                        byes[x] += x not in forfeit.losers
                    continue
                for i, x in enumerate(table.entrants):
                    met[x].extend(y for y in table.entrants if y != x)
                    if fours:
                        partnered[x].append(table.entrants[(i + 2) % 4])
        ordered = sorted(
            active, key=lambda e: (standing[e.id].place if e.id in standing else len(entrants) + 1, e.number)
        )
        per_game = MOST_GAME_POINTS * (2 if event.kind == Kind.THREES else 1)
        max_per_round = event.per_round * (per_game if rules.game_points else 1)
        contenders = tuple(
            Contender(
                id=_pk(e),
                name=e.name,
                score=(standing[e.id].game_points if rules.game_points else standing[e.id].games_won)
                if e.id in standing
                else 0,
                rank=rank,
                byes=byes[_pk(e)],
                met=tuple(sorted(met[_pk(e)])),
                partnered=tuple(sorted(partnered[_pk(e)])),
            )
            for rank, e in enumerate(ordered, 1)
        )
        ids = {c.id for c in contenders}
        # Each pair as (lower id, higher id): a stored pair is two different entrants.
        forbidden = tuple(sorted((min(p), max(p)) for p in _forbidden(session, _pk(event)) if p <= ids))
        if method is None:
            method = _method(session, event, len(contenders), bool(forbidden))
        roster: tuple[int, ...] = ()
        if method == ROUND_ROBIN:
            first = _round(session, _pk(event), 1)
            roster = (
                PairingInput.from_dict(first.inputs).roster
                if first is not None and number > 1
                else draw_roster([c.id for c in contenders], event.seed)
            )
        return PairingInput(
            method=method,
            round=number,
            rounds=event.rounds,
            table_size=Kind(event.kind).entrants_per_table,
            seed=f"{event.seed}:{number}",
            contenders=contenders,
            forbidden=forbidden,
            max_per_round=max_per_round,
            roster=roster,
        )

    def _store_round(
        self,
        caller: Caller,
        data: _EventData,
        number: int,
        inputs: PairingInput,
        computed: Pairing,
        seated: Pairing,
        *,
        reason: str | None,
        before: list[list[int]] | None = None,
    ) -> RoundView:
        """Create the matches of ``seated`` and write the round and its tables in one transaction."""
        event = data.event
        options = dict(event.options)
        match_ids = []
        for t, entrants in enumerate(seated.tables, 1):
            players = seats_for([data.players[x] for x in entrants], partners=event.kind == Kind.PARTNERS)
            match_id = self.store.create_match(event.rules, options, players, device=caller.label)
            label_match(self.store, match_id, f"Event {event.id} R{number} T{t}", device=caller.label)
            match_ids.append(match_id)
        codes = {t: new_table_code(t) for t in range(1, len(seated.tables) + 1)}
        try:
            with session_scope(self._writer) as session:
                previous = _round(session, _pk(event), number - 1) if reason is None and number > 1 else None
                if previous is not None and _round_held(session, _pk(previous)).locked_at is None:
                    raise TournamentError(f"round {number - 1} was reopened meanwhile; lock it before pairing")
                if reason is None:
                    rnd = TournamentRound(
                        event_id=_pk(event),
                        number=number,
                        seed=inputs.seed,
                        engine_version=engine_version(),
                        inputs=inputs.to_dict(),
                        computed=computed.to_dict(),
                        fingerprint=computed.fingerprint(),
                        paired_at=utcnow(),
                    )
                    session.add(rnd)
                    session.flush()
                else:
                    replaced = _round(session, _pk(event), number)
                    if replaced is None:
                        raise TournamentError(f"round {number} is not paired, so it cannot be re-paired")
                    rnd = replaced
                    old = _tables(session, rnd.id)
                    for table in old:
                        session.delete(table)
                    session.flush()
                for t, entrants in enumerate(seated.tables, 1):
                    session.add(
                        TournamentTable(
                            round_id=_pk(rnd),
                            number=t,
                            match_id=match_ids[t - 1],
                            entrants=list(entrants),
                            code_hash=hash_secret(codes[t]),
                        )
                    )
                for i, entrant in enumerate(seated.byes, len(seated.tables) + 1):
                    session.add(TournamentTable(round_id=_pk(rnd), number=i, match_id=None, entrants=[entrant]))
                detail: dict[str, Any] = {
                    "round": number,
                    "method": inputs.method,
                    "tables": [[data.names[x] for x in t] for t in seated.tables],
                    "byes": [data.names[x] for x in seated.byes],
                }
                if reason is not None:
                    detail["reason"] = reason
                    detail["before"] = [[data.names[x] for x in t] for t in before or []]
                _audit(session, _pk(event), caller.label, "pair" if reason is None else "repair", detail)
        except (IntegrityError, TournamentError) as err:
            # Nothing of the round was written: the matches made for it go too.
            for match_id in match_ids:
                delete_match(self.store, match_id, device=caller.label)
            if isinstance(err, TournamentError):
                raise
            raise TournamentError(f"round {number} was paired meanwhile by another device") from None
        if reason is not None:
            for old_id in data.round_matches.get(number, []):
                delete_match(self.store, old_id, device=caller.label)
        return replace(self.round_view(None, _pk(event), number), codes=codes)


@dataclass(frozen=True)
class _EventData:
    """What creating a round's matches needs, read in one go."""

    event: TournamentEvent
    names: dict[int, str]
    players: dict[int, list[str]]
    round_matches: dict[int, list[int]]

    @classmethod
    def read(cls, session: Session, event: TournamentEvent) -> _EventData:
        entrants = _entrants(session, _pk(event))
        rounds: dict[int, list[int]] = {}
        for number, match_id in session.execute(
            select(col(TournamentRound.number), col(TournamentTable.match_id))
            .join(TournamentRound, col(TournamentRound.id) == col(TournamentTable.round_id))
            .where(col(TournamentRound.event_id) == event.id, col(TournamentTable.match_id).is_not(None))
        ).all():
            rounds.setdefault(number, []).append(match_id)
        return cls(
            event=event,
            names={_pk(e): e.name for e in entrants},
            players={_pk(e): list(e.players) for e in entrants},
            round_matches=rounds,
        )


# -- queries ---------------------------------------------------------------------------


class _Saved(Protocol):
    """A stored row: its primary key is None only until the row is first flushed."""

    @property
    def id(self) -> int | None: ...


def _pk(row: _Saved) -> int:
    """The primary key of a row read from the database or flushed to it.

    Raises ``TournamentError`` for a row never flushed, which the service never hands on.
    """
    if row.id is None:
        raise TournamentError("a tournament row was used before it was saved")
    return row.id


def _event(session: Session, event_id: int) -> TournamentEvent:
    event = session.get(TournamentEvent, event_id)
    if event is None:
        raise TournamentError(f"there is no event {event_id}")
    return event


def _entrants(session: Session, event_id: int) -> list[TournamentEntrant]:
    return list(
        session.execute(
            select(TournamentEntrant)
            .where(col(TournamentEntrant.event_id) == event_id)
            .order_by(col(TournamentEntrant.number))
        ).scalars()
    )


def _entrant(session: Session, event_id: int, ref: str | int) -> TournamentEntrant:
    """An entrant by registration number or by name (either partner's name will do)."""
    text = str(ref).strip()
    try:
        number: int | None = read_whole(text, lowest=1, what="an entrant number")
    except NumberRefused:
        number = None
    for e in _entrants(session, event_id):
        if e.number == number or text.casefold() in (
            e.name.casefold(),
            *(p.casefold() for p in e.players),
        ):
            return e
    raise TournamentError(f"nobody called or numbered {text!r} is registered in this event")


def _forbidden(session: Session, event_id: int) -> dict[frozenset[int], str]:
    rows = session.execute(select(TournamentForbidden).where(col(TournamentForbidden.event_id) == event_id)).scalars()
    return {frozenset((r.first_id, r.second_id)): r.reason for r in rows}


def _rounds_paired(session: Session, event_id: int) -> int:
    latest = _latest_round(session, event_id)
    return latest.number if latest is not None else 0


def _latest_round(session: Session, event_id: int) -> TournamentRound | None:
    return (
        session.execute(
            select(TournamentRound)
            .where(col(TournamentRound.event_id) == event_id)
            .order_by(col(TournamentRound.number).desc())
        )
        .scalars()
        .first()
    )


def _round(session: Session, event_id: int, number: int) -> TournamentRound | None:
    return session.execute(
        select(TournamentRound).where(col(TournamentRound.event_id) == event_id, col(TournamentRound.number) == number)
    ).scalar_one_or_none()


def _latest_held(session: Session, event_id: int) -> TournamentRound:
    """The event's latest round, held for this transaction (see ``_round_held``).

    Raises ``TournamentError`` when no round is paired.
    """
    latest = _latest_round(session, event_id)
    if latest is None:
        raise TournamentError("no round is paired yet")
    return _round_held(session, _pk(latest))


def _round_held(session: Session, round_id: int) -> TournamentRound:
    """A round read afresh and held for this transaction (``FOR UPDATE``; SQLite's writer holds all).

    Lock, reopen and the next round's pairing each check the lock under it,
    so none acts on a lock the other is changing.
    """
    row = session.execute(
        select(TournamentRound)
        .where(col(TournamentRound.id) == round_id)
        .with_for_update()
        .execution_options(populate_existing=True)
    ).scalar_one_or_none()
    if row is None:
        raise TournamentError("that round no longer exists")
    return row


def _tables(session: Session, round_id: int | None) -> list[TournamentTable]:
    return list(
        session.execute(
            select(TournamentTable)
            .where(col(TournamentTable.round_id) == round_id)
            .order_by(col(TournamentTable.number))
        ).scalars()
    )


def _table(session: Session, rnd: TournamentRound | None, number: int) -> TournamentTable:
    if rnd is None:
        raise TournamentError("no round is paired yet")
    table = session.execute(
        select(TournamentTable).where(col(TournamentTable.round_id) == rnd.id, col(TournamentTable.number) == number)
    ).scalar_one_or_none()
    if table is None:
        raise TournamentError(f"round {rnd.number} has no table {number}")
    return table


def _table_view(
    table: TournamentTable,
    event: TournamentEvent,
    names: dict[int, str],
    forfeits: dict[int, TournamentForfeit],
    results: dict[int, TableResult],
) -> TableView:
    """A table as everyone may see it, from what was read of it (``names`` holds at least its entrants)."""
    forfeit = forfeits.get(_pk(table))
    return TableView(
        number=table.number,
        match_id=table.match_id,
        entrants=tuple(table.entrants),
        names=tuple(names[x] for x in table.entrants),
        result=results.get(_pk(table)),
        sides=1 if table.match_id is None else Kind(event.kind).sides,
        forfeit=_forfeit_view(forfeit, event, names) if forfeit is not None else None,
    )


def _method(session: Session, event: TournamentEvent, field: int | None = None, forbidden: bool = False) -> str:
    """How the event pairs: fixed by round 1 (its stored inputs), else chosen now."""
    if event.pairing in (THREES, FOURS):
        return event.pairing
    first = _round(session, _pk(event), 1)
    if first is not None:
        return PairingInput.from_dict(first.inputs).method
    if event.pairing != "auto":
        return event.pairing
    if field is None:
        return SWISS
    # Berger tables for a small field that can play everyone in the rounds given, and no forbidden pairs.
    cycle = field - 1 if field % 2 == 0 else field
    if 2 <= field <= ROUND_ROBIN_MAX and event.rounds <= cycle and not forbidden:
        return ROUND_ROBIN
    return SWISS


def _complete(event: TournamentEvent, result: TableResult) -> bool:
    """The table has played the round's games or hands."""
    if event.unit == "games":
        return result.games_finished >= event.per_round
    return result.hands_finished >= event.per_round


def _audit(session: Session, event_id: int, actor: str, action: str, detail: dict[str, Any]) -> None:
    session.add(TournamentAudit(event_id=event_id, at=utcnow(), actor=actor, action=action, detail=detail))


_WON = "win"
_LOST = "lost"


def _reason(reason: str | None, refusal: str) -> str:
    """A director's reason for the audit, trimmed, printable, at most ``REASON_MAX`` characters.

    Raises ``TournamentError``: ``refusal`` for none, else what is wrong with it.
    """
    if not (reason or "").strip():
        raise TournamentError(refusal)
    return str(_text(reason, what="the reason", most=REASON_MAX))


def _names(players: Sequence[object], *, who: str) -> list[str]:
    """Names as registered: the engine's one name rule (``clean_names``). Raises ``TournamentError``."""
    try:
        return clean_names(players, who=who)
    except RecordFormatError as err:
        raise TournamentError(str(err)) from None


def _text(text: object, *, what: str, most: int, required: bool = True) -> str | None:
    """A tournament's text (its name, a club, a reason) by the engine's ``check_text``. Raises ``TournamentError``."""
    try:
        return check_text(text, what=what, most=most, required=required)
    except RecordFormatError as err:
        raise TournamentError(str(err)) from None


def _as_stored(remaining: Any) -> list[Any]:
    """``remaining`` as the store will keep it (a JSON round trip, as ``Store.settle`` makes).

    Raises ``TournamentError`` for what JSON cannot hold.
    """
    try:
        stored = json.loads(json.dumps(remaining))
    except (TypeError, ValueError):
        stored = None
    if not isinstance(stored, list):
        raise TournamentError(
            f"'remaining' gives each seat a list of tiles such as \"6-6\" or a pip total, not {remaining!r}"
        )
    return stored


def _settled_hand(state: MatchSnapshot, top: str | None, table_number: int, wanted: int | None) -> HandState:
    """The table's last hand, if it is the one meant and its settlement is the last entry standing.

    ``top`` is the kind of the match's last standing entry (``Store.last_entry``).
    Raises ``TournamentError`` naming what to do otherwise.
    """
    last = state.current
    if last is None:
        raise TournamentError(f"table {table_number} has not played a hand yet")
    if wanted is not None and not 1 <= wanted <= last.number:
        raise TournamentError(f"table {table_number} has no hand {wanted}")
    number = last.number if wanted is None else wanted

    def later(settled: int) -> str:
        return f"take back the later entries first with Correct, then settle hand {settled} again"

    if number < last.number:
        raise TournamentError(f"hand {number} at table {table_number} is not the last hand: {later(number)}")
    if top == SETTLE and last.settlement is not None:
        return last
    if last.settlement is not None:
        raise TournamentError(
            f"something was entered at table {table_number} after hand {number}'s settlement: {later(number)}"
        )
    if last.needs_settlement:
        raise TournamentError(
            f"hand {number} at table {table_number} is not settled yet: settle it as any hand, at the table"
        )
    if last.how == HandEnd.IN_PROGRESS:
        if wanted is None and number > 1 and state.hands[-2].settlement is not None:
            raise TournamentError(
                f"hand {number} has started at table {table_number} since hand {number - 1}'s settlement:"
                f" {later(number - 1)}"
            )
        raise TournamentError(f"hand {number} at table {table_number} is still in play: it has no settlement")
    raise TournamentError(
        f"hand {number} at table {table_number} ended without a settlement ({HOW_WORDS[last.how]}),"
        " so there is none to do again"
    )


def _bye_games(event: TournamentEvent) -> int:
    """The games won a bye (or a forfeit win) gives: the round's games when a round is games."""
    return event.per_round if event.unit == "games" else 0


def _forfeits(session: Session, table_ids: Sequence[int]) -> dict[int, TournamentForfeit]:
    """The forfeits given at these tables, by table id."""
    if not table_ids:
        return {}
    rows = session.execute(
        select(TournamentForfeit).where(col(TournamentForfeit.table_id).in_(list(table_ids)))
    ).scalars()
    return {r.table_id: r for r in rows}


def _forfeit_view(row: TournamentForfeit, event: TournamentEvent, names: dict[int, str]) -> ForfeitView:
    return ForfeitView(
        losers=tuple(row.losers),
        loser_names=tuple(names[x] for x in row.losers),
        reason=row.reason,
        actor=row.actor,
        at=(as_utc(row.at) or row.at).isoformat(),
        hands_played=row.hands_played,
        points=event.bye_points,
        games=_bye_games(event),
    )
