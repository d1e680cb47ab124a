"""What the hall, the director and the tables read: rounds, tables, standings, the event and its audit.

Every view is readable by every role (``Action.VIEW``) except the list of
matches, which is for the director's exports. Nothing here writes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scorepad.rules import make_ruleset
from scorepad.store import Store
from scorepad.store import tournament_repo as repo
from scorepad.store.db import session_scope
from scorepad.store.models import as_utc
from scorepad.store.tournament_models import TournamentEntrant, TournamentEvent, TournamentForfeit, TournamentTable
from scorepad.tournament import rows, wording
from scorepad.tournament.access import Action, Gate
from scorepad.tournament.errors import AccessDenied, TournamentError
from scorepad.tournament.inputs import PairingChoice, pairing_choice
from scorepad.tournament.kinds import Kind
from scorepad.tournament.pairing import Pairing, PairingInput, name_withdrawn
from scorepad.tournament.results import SideResult, TableResult
from scorepad.tournament.standings import Standing
from scorepad.tournament.tally import Tally


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
    # The event's own entrant numbers, in seat order (what a person reads or types; ``entrants`` are row ids).
    numbers: tuple[int, ...] = ()

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
class EntrantView:
    """An entrant as the director and every reply name them: the event's own entrant ``number``, never a row id.

    ``id`` is the database's row, for the service's own use (table views
    list entrants by it); what a person reads or types is ``number`` or the name.
    """

    id: int
    number: int
    name: str
    players: tuple[str, ...]
    club: str | None
    joined_round: int
    withdrawn_round: int | None

    @property
    def words(self) -> str:
        """ "Ann (entrant 3)": how a reply names the entrant."""
        return wording.entrant_words(self.name, self.number)


def entrant_view(row: TournamentEntrant) -> EntrantView:
    """A stored entrant as ``EntrantView``."""
    return EntrantView(
        id=rows.pk(row),
        number=row.number,
        name=row.name,
        players=tuple(row.players),
        club=row.club,
        joined_round=row.joined_round,
        withdrawn_round=row.withdrawn_round,
    )


@dataclass(frozen=True)
class AuditLine:
    """One line of the event's audit trail."""

    at: str
    actor: str
    action: str
    detail: dict[str, Any]
    # The line's place in the event's audit (its row's id): later lines have higher numbers.
    number: int = 0


def forfeit_view(row: TournamentForfeit, event: TournamentEvent, names: dict[int, str]) -> ForfeitView:
    """A stored forfeit as everyone may see it (``names`` holds at least the losers)."""
    return ForfeitView(
        losers=tuple(row.losers),
        loser_names=tuple(names[x] for x in row.losers),
        reason=row.reason,
        actor=row.actor,
        at=(as_utc(row.at) or row.at).isoformat(),
        hands_played=row.hands_played,
        points=event.bye_points,
        games=rows.bye_games(event),
    )


def table_view(
    table: TournamentTable,
    event: TournamentEvent,
    names: dict[int, str],
    forfeits: dict[int, TournamentForfeit],
    results: dict[int, TableResult],
    numbers: dict[int, int],
) -> TableView:
    """A table as everyone may see it, from what was read of it (``names``, ``numbers`` hold at least its entrants)."""
    forfeit = forfeits.get(rows.pk(table))
    return TableView(
        number=table.number,
        match_id=table.match_id,
        entrants=tuple(table.entrants),
        names=tuple(names[x] for x in table.entrants),
        result=results.get(rows.pk(table)),
        sides=1 if table.match_id is None else Kind(event.kind).sides,
        forfeit=forfeit_view(forfeit, event, names) if forfeit is not None else None,
        numbers=tuple(numbers[x] for x in table.entrants),
    )


class Views(rows.Desk):
    """The reading side of the service: rounds, one table, standings, the event, the audit, the matches."""

    def __init__(self, store: Store, gate: Gate, tally: Tally) -> None:
        super().__init__(store, gate)
        self.tally = tally

    def round_view(self, token: str | None, event_id: int, number: int | None = None) -> RoundView:
        """A round's tables, byes and confirmed results (the latest round when ``number`` is None)."""
        self.gate.require(token, event_id, Action.VIEW)
        with session_scope(self._engine) as session:
            rnd = rows.round_or_latest(session, event_id, number)
            if rnd is None:
                raise TournamentError(wording.round_view_missing(number))
            event = rows.event(session, event_id)
            tables = rows.tables(session, rnd)
            entrants = repo.entrants(session=session, event_id=event_id)
            names = {rows.pk(e): e.name for e in entrants}
            numbers = {rows.pk(e): e.number for e in entrants}
            forfeits = repo.forfeits(session=session, table_ids=[rows.pk(t) for t in tables])
        results = self.tally.table_results(tables)
        pairing = Pairing.from_dict(rnd.computed)
        return RoundView(
            number=rnd.number,
            method=PairingInput.from_dict(rnd.inputs).method,
            tables=tuple(table_view(t, event, names, forfeits, results, numbers) for t in tables),
            locked=rnd.locked_at is not None,
            fingerprint=rnd.fingerprint,
            # A note names the players, never an id (a withdrawn opponent's included).
            notes=tuple(name_withdrawn(note, names) for note in pairing.notes),
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
            raise TournamentError(wording.NAME_THE_TABLE)
        with session_scope(self._engine) as session:
            event = rows.event(session, event_id)
            if table_number is None and caller.table_id is not None:
                # The credential was checked for this table in the round in play a moment ago.
                table = repo.table(session=session, table_id=caller.table_id)
                if table is None:
                    raise AccessDenied(wording.ROUND_OVER)
            else:
                table = rows.table(session, repo.latest_round(session=session, event_id=event_id), number)
            labels = repo.entrant_labels(session=session, entrant_ids=table.entrants)
            names = {x: name for x, (name, _number) in labels.items()}
            numbers = {x: number for x, (_name, number) in labels.items()}
            forfeits = repo.forfeits(session=session, table_ids=[rows.pk(table)])
        return table_view(table, event, names, forfeits, self.tally.table_results([table]), numbers)

    def entrants(self, token: str | None, event_id: int) -> list[EntrantView]:
        """Every entrant of the event, by entrant number (withdrawn ones and late entries included)."""
        self.gate.require(token, event_id, Action.VIEW)
        with session_scope(self._engine) as session:
            rows.event(session, event_id)
            return [entrant_view(e) for e in repo.entrants(session=session, event_id=event_id)]

    def entrant(self, token: str | None, event_id: int, ref: str | int) -> EntrantView:
        """One entrant by the event's entrant number or by name. Raises ``TournamentError`` for nobody so called."""
        self.gate.require(token, event_id, Action.VIEW)
        with session_scope(self._engine) as session:
            rows.event(session, event_id)
            return entrant_view(rows.entrant(session, event_id, ref))

    def standings(self, token: str | None, event_id: int, *, through: int | None = None) -> list[Standing]:
        """The standings from confirmed results (through round ``through``, else every round paired)."""
        self.gate.require(token, event_id, Action.VIEW)
        with session_scope(self._engine) as session:
            event = rows.event(session, event_id)
            return self.tally.standings(session, event, through, shown=True)

    def pairing_choice(self, token: str | None, event_id: int) -> PairingChoice:
        """How the event pairs and why, before pairing (Auto's choice and late entries; see ``PairingChoice``)."""
        self.gate.require(token, event_id, Action.VIEW)
        with session_scope(self._engine) as session:
            return pairing_choice(session, rows.event(session, event_id))

    def event_info(self, token: str | None, event_id: int) -> dict[str, Any]:
        """The event's settings and progress (no secrets)."""
        self.gate.require(token, event_id, Action.VIEW)
        with session_scope(self._engine) as session:
            event = rows.event(session, event_id)
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
                "rounds_paired": rows.rounds_paired(session, event_id),
                "game_points": make_ruleset(event.rules, Kind(event.kind).table_size, event.options).game_points,
            }

    def audit(self, token: str | None, event_id: int) -> list[AuditLine]:
        """The event's audit trail, oldest first (readable by everyone: it holds no secret)."""
        self.gate.require(token, event_id, Action.VIEW)
        with session_scope(self._engine) as session:
            rows.event(session, event_id)
            return [
                AuditLine(r.at.isoformat(), r.actor, r.action, dict(r.detail), rows.pk(r))
                for r in repo.audit(session=session, event_id=event_id)
            ]

    def match_ids(self, token: str | None, event_id: int) -> list[tuple[int, int, int]]:
        """(round, table, match id) of every table played. Director only (for exports)."""
        self.gate.require(token, event_id, Action.EXPORT)
        with session_scope(self._engine) as session:
            return repo.round_matches(session=session, event_id=event_id)
