"""The tournament service: the one object the command line and a web layer call.

Every method that changes or reveals something takes the caller's
credential first (a token from ``login_director`` / ``join_table`` /
``issue_hall``, or None for a spectator), checks it with ``Gate.require``,
and raises a ``TournamentError`` whose message is one plain sentence
(``wording``): ``AccessDenied`` for a role that may not, ``PairingError``
when no round can be made. Each table's game is an ordinary stored match
(``Store.create_match``); the rules engine checks every entry, as at any
other table.

The work is done by one module a job, each a ``Desk`` on the same store and
gate: ``events`` (events and entrants), ``rounds`` (pairing, re-pairing,
lock, reopen, codes, verification), ``scoring`` (a table's entries and
confirmations), ``corrections`` and ``forfeits`` (the director's), ``views``
(what the hall, the director and the tables read), over ``tally`` (the
confirmed results and standings, cached) and ``inputs`` (what a pairing
reads). Their queries are in ``scorepad.store.tournament_repo``. This class
only hands each call to its desk.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scorepad.access import Caller, Who
from scorepad.store import MatchSnapshot, Store
from scorepad.tournament import wording
from scorepad.tournament.access import Gate
from scorepad.tournament.audit import AuditEntry, audit_entries
from scorepad.tournament.corrections import Corrections, Resettlement, read_remaining
from scorepad.tournament.errors import TournamentError
from scorepad.tournament.events import NAME_MAX, PAIRINGS, UNITS, Events
from scorepad.tournament.forfeits import Forfeits
from scorepad.tournament.inputs import PairingChoice
from scorepad.tournament.pairing import ROUND_ROBIN_MAX
from scorepad.tournament.rounds import Rounds, Verification, engine_version
from scorepad.tournament.scoring import Scoring
from scorepad.tournament.standings import Standing
from scorepad.tournament.tally import Tally
from scorepad.tournament.views import AuditLine, EntrantView, ForfeitView, RoundView, TableView, Views

# Re-exported: the app and the tests import these from here.
__all__ = [
    "NAME_MAX",
    "PAIRINGS",
    "ROUND_ROBIN_MAX",
    "UNITS",
    "AuditEntry",
    "AuditLine",
    "EntrantView",
    "ForfeitView",
    "PairingChoice",
    "Resettlement",
    "RoundView",
    "TableView",
    "TournamentService",
    "Verification",
    "engine_version",
    "read_remaining",
]


class TournamentService:
    """Events, registration, rounds, pairings, confirmations and standings on one store."""

    def __init__(self, store: Store, *, gate: Gate | None = None) -> None:
        self.store = store
        self.gate = gate or Gate(store.engine)
        tally = Tally(store)
        self._events = Events(store, self.gate)
        self._views = Views(store, self.gate, tally)
        self._rounds = Rounds(store, self.gate, tally, self._views)
        self._scoring = Scoring(store, self.gate)
        self._corrections = Corrections(store, self.gate, self._scoring)
        self._forfeits = Forfeits(store, self.gate)

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

    # -- events and entrants (events.py) ------------------------------------------------

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
        """Create an event and return its id (see ``Events.create_event``). Raises ``TournamentError``."""
        return self._events.create_event(
            name=name,
            password=password,
            rounds=rounds,
            rules=rules,
            options=options,
            kind=kind,
            unit=unit,
            per_round=per_round,
            pairing=pairing,
            seed=seed,
            bye_points=bye_points,
        )

    def register(
        self, token: str | None, event_id: int, players: Sequence[str], *, club: str | None = None
    ) -> EntrantView:
        """Register an entrant; returns it with its entrant number (``Events.register``). Raises ``TournamentError``."""
        return self._events.register(token, event_id, players, club=club)

    def withdraw(self, token: str | None, event_id: int, entrant: str | int) -> int:
        """Withdraw an entrant; returns the round it counts from (``Events.withdraw``). Raises ``TournamentError``."""
        return self._events.withdraw(token, event_id, entrant)

    def forbid(self, token: str | None, event_id: int, first: str | int, second: str | int, reason: str) -> None:
        """Keep two entrants apart (see ``Events.forbid``). Raises ``TournamentError``."""
        self._events.forbid(token, event_id, first, second, reason)

    def entrants(self, token: str | None, event_id: int) -> list[EntrantView]:
        """Every entrant, by entrant number (see ``Views.entrants``). Raises ``TournamentError``."""
        return self._views.entrants(token, event_id)

    def entrant(self, token: str | None, event_id: int, ref: str | int) -> EntrantView:
        """One entrant by entrant number or name (see ``Views.entrant``). Raises ``TournamentError``."""
        return self._views.entrant(token, event_id, ref)

    # -- rounds and pairing (rounds.py) -----------------------------------------------------

    def pairing_choice(self, token: str | None, event_id: int) -> PairingChoice:
        """How the event pairs and why, to show before pairing (see ``inputs.pairing_choice``).

        Auto's choice with its reason, and whether late entries can join.
        Raises ``TournamentError``.
        """
        return self._views.pairing_choice(token, event_id)

    def pair_round(self, token: str | None, event_id: int) -> RoundView:
        """Pair the next round, with its codes (see ``Rounds.pair_round``). Raises ``TournamentError``."""
        return self._rounds.pair_round(token, event_id)

    def repair(
        self, token: str | None, event_id: int, tables: Sequence[Sequence[str | int]], *, reason: str
    ) -> RoundView:
        """Re-pair the current round by hand (see ``Rounds.repair``). Raises ``TournamentError``."""
        return self._rounds.repair(token, event_id, tables, reason=reason)

    def lock_round(self, token: str | None, event_id: int, *, reason: str | None = None) -> int:
        """Lock the current round; returns its number (see ``Rounds.lock_round``). Raises ``TournamentError``."""
        return self._rounds.lock_round(token, event_id, reason=reason)

    def reopen_round(self, token: str | None, event_id: int, *, reason: str, number: int | None = None) -> int:
        """Reopen the latest round; returns its number (see ``Rounds.reopen_round``). Raises ``TournamentError``."""
        return self._rounds.reopen_round(token, event_id, reason=reason, number=number)

    def new_code(self, token: str | None, event_id: int, table_number: int) -> str:
        """A new code for a table of the current round (see ``Rounds.new_code``). Raises ``TournamentError``."""
        return self._rounds.new_code(token, event_id, table_number)

    def verify_pairings(self, token: str | None, event_id: int, number: int) -> Verification:
        """Re-run round ``number``'s pairing and compare (``Rounds.verify_pairings``). Raises ``TournamentError``."""
        return self._rounds.verify_pairings(token, event_id, number)

    # -- at a table (scoring.py) ----------------------------------------------------------------

    def table_match(self, token: str | None, event_id: int) -> tuple[int, MatchSnapshot]:
        """A table's own match id and its state (see ``Scoring.table_match``). Raises ``AccessDenied``."""
        return self._scoring.table_match(token, event_id)

    def authorize_match(self, token: str | None, event_id: int, match_id: int) -> Caller:
        """Check that the caller may write to ``match_id`` (``Scoring.authorize_match``). Raises ``TournamentError``."""
        return self._scoring.authorize_match(token, event_id, match_id)

    def start_hand(self, token: str | None, event_id: int, match_id: int, setter: int | None = None) -> MatchSnapshot:
        """Start the next hand at a table (see ``Scoring.start_hand``), once ``check_next_hand`` lets it.

        Raises ``TournamentError`` and what the store raises.
        """
        self.check_next_hand(token, event_id, match_id, confirmed_first=False)
        return self._scoring.start_hand(token, event_id, match_id, setter)

    def check_next_hand(self, token: str | None, event_id: int, match_id: int, *, confirmed_first: bool = True) -> None:
        """Whether a table may start its next hand: the one place of the round's flow.

        No table plays more games or hands than the round has. With
        ``confirmed_first`` (the table's phone), a table's finished hands are
        also confirmed by the opposing side before the next is played
        (Bridgemate's order; the director is not held to it); the service's
        own ``start_hand`` (the command line, scripted tables) leaves that to
        the standings, which count confirmed hands only. Raises
        ``TournamentError`` (``AccessDenied`` for a caller who may not score).
        """
        caller = self._scoring.authorize_match(token, event_id, match_id)
        state = self.store.load(match_id, device=caller.view)
        finished = [h.number for h in state.hands if h.finished]
        if confirmed_first and caller.who == Who.TABLE and finished:
            result = self.table_view(token, event_id).result
            confirmed = len(finished) if result is None else result.hands_confirmed
            if confirmed < len(finished):
                raise TournamentError(wording.waits_for_confirmation(finished[confirmed]))
        info = self.event_info(token, event_id)
        per_round, unit = int(info["per_round"]), str(info["unit"])
        done = len(state.games()) if unit == "games" else len(state.hands)
        if done >= per_round:
            raise TournamentError(wording.round_played(per_round, unit))

    def append(self, token: str | None, event_id: int, match_id: int, event: Any) -> MatchSnapshot:
        """Enter one event at a table (the engine checks it). Raises as ``Store.append``."""
        return self._scoring.append(token, event_id, match_id, event)

    def settle(self, token: str | None, event_id: int, match_id: int, remaining: Any) -> MatchSnapshot:
        """Settle a table's hand. Raises as ``Store.settle``."""
        return self._scoring.settle(token, event_id, match_id, remaining)

    def undo(self, token: str | None, event_id: int, match_id: int) -> MatchSnapshot:
        """Take back a table's last entry. Raises as ``Store.undo``."""
        return self._scoring.undo(token, event_id, match_id)

    def confirm(
        self,
        token: str | None,
        event_id: int,
        table_number: int,
        *,
        by: str,
        hand: int | None = None,
        round_number: int | None = None,
        device: str | None = None,
    ) -> list[int]:
        """The opposing side confirms a table's finished hands (see ``Scoring.confirm``). Raises ``TournamentError``."""
        return self._scoring.confirm(
            token, event_id, table_number, by=by, hand=hand, round_number=round_number, device=device
        )

    # -- the director's corrections and forfeits (corrections.py, forfeits.py) ----------------------

    def correct(
        self, token: str | None, event_id: int, match_id: int, *, reason: str, amend: Any = None, undo: bool = False
    ) -> MatchSnapshot:
        """The director's correction of a table's entry (see ``Corrections.correct``). Raises ``TournamentError``."""
        return self._corrections.correct(token, event_id, match_id, reason=reason, amend=amend, undo=undo)

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
        """Settle a table's last settled hand again (see ``Corrections.resettle``). Raises ``TournamentError``."""
        return self._corrections.resettle(token, event_id, table_number, remaining=remaining, reason=reason, hand=hand)

    def forfeit(
        self, token: str | None, event_id: int, table_number: int, losers: Sequence[str | int], *, reason: str
    ) -> ForfeitView:
        """Give a forfeit at a table of the round in play (see ``Forfeits.forfeit``). Raises ``TournamentError``."""
        return self._forfeits.forfeit(token, event_id, table_number, losers, reason=reason)

    def unforfeit(self, token: str | None, event_id: int, table_number: int, *, reason: str) -> ForfeitView:
        """Take back a forfeit (see ``Forfeits.unforfeit``); returns what it was. Raises ``TournamentError``."""
        return self._forfeits.unforfeit(token, event_id, table_number, reason=reason)

    # -- reading (views.py) ------------------------------------------------------------------------

    def round_view(self, token: str | None, event_id: int, number: int | None = None) -> RoundView:
        """A round's tables, byes and confirmed results (see ``Views.round_view``). Raises ``TournamentError``."""
        return self._views.round_view(token, event_id, number)

    def table_view(self, token: str | None, event_id: int, table_number: int | None = None) -> TableView:
        """One table of the latest round (see ``Views.table_view``). Raises ``TournamentError``."""
        return self._views.table_view(token, event_id, table_number)

    def standings(self, token: str | None, event_id: int, *, through: int | None = None) -> list[Standing]:
        """The standings from confirmed results (see ``Views.standings``). Raises ``TournamentError``."""
        return self._views.standings(token, event_id, through=through)

    def event_info(self, token: str | None, event_id: int) -> dict[str, Any]:
        """The event's settings and progress, no secrets (see ``Views.event_info``). Raises ``TournamentError``."""
        return self._views.event_info(token, event_id)

    def audit(self, token: str | None, event_id: int) -> list[AuditLine]:
        """The event's audit trail, oldest first (see ``Views.audit``). Raises ``TournamentError``."""
        return self._views.audit(token, event_id)

    def audit_view(
        self,
        token: str | None,
        event_id: int,
        *,
        table: int | None = None,
        round_number: int | None = None,
        newest_first: bool = False,
    ) -> list[AuditEntry]:
        """The event's audit whole, in words, or one table's (see ``audit.audit_entries``); readable by everyone.

        ``table`` with ``round_number`` None is that table of the latest round.
        Raises ``TournamentError`` (no such event).
        """
        lines = self._views.audit(token, event_id)
        if table is not None and round_number is None:
            round_number = int(self._views.event_info(token, event_id)["rounds_paired"]) or None
        return audit_entries(lines, table=table, round_number=round_number, newest_first=newest_first)

    def match_ids(self, token: str | None, event_id: int) -> list[tuple[int, int, int]]:
        """(round, table, match id) of every table played; director only. Raises ``TournamentError``."""
        return self._views.match_ids(token, event_id)
