"""The confirmed figures of tables and the standings they make, replayed only where something changed.

``Tally`` keeps each table's result under (match, revision, confirmations),
so a result is never stale, and each side's figures over the confirmed hands
under their fingerprints: a round's or a long event's figures replay only
the tables that changed. The views, the lock and the pairing all read here.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence

from scorepad.rules import make_ruleset
from scorepad.store import Store
from scorepad.store import tournament_repo as repo
from scorepad.store.db import session_scope
from scorepad.store.tournament_models import TournamentEvent, TournamentTable
from scorepad.store.tournament_repo import Session
from scorepad.tournament import rows
from scorepad.tournament.kinds import Kind
from scorepad.tournament.results import SideResult, TableResult, confirmed_prints, confirmed_sides, table_result
from scorepad.tournament.standings import Entry, Outcome, Standing, compute_standings

# Table results kept in memory (a day's tables: 100 tables over 10 rounds).
RESULT_CACHE = 1000

_WON = "win"
_LOST = "lost"


class Tally:
    """Tables' confirmed results (cached) and the standings, on one store."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._engine = store.engine
        self._results: OrderedDict[tuple[int, int, frozenset[tuple[int, str]]], TableResult] = OrderedDict()
        # Each side's figures over a match's confirmed hands, by the match and those hands' fingerprints.
        self._sides: OrderedDict[tuple[int, tuple[str, ...]], tuple[SideResult, ...]] = OrderedDict()
        self._lock = threading.Lock()

    def table_results(self, tables: Sequence[TournamentTable]) -> dict[int, TableResult]:
        """The confirmed figures of these tables (those with a match), by table id.

        Two reads for all of them (the confirmations, the matches'
        revisions); a table's match is then replayed by the engine only when
        its revision or confirmations moved since it was last replayed: a
        result kept under (match, revision, confirmations) is never stale, so
        a round's or a long event's figures replay only the tables that changed.
        """
        played = {rows.pk(t): t.match_id for t in tables if t.match_id is not None}
        if not played:
            return {}
        with session_scope(self._engine) as session:
            done = repo.confirmations(session=session, table_ids=list(played))
            revisions = repo.match_revisions(session=session, match_ids=played.values())
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

    def standings(
        self,
        session: Session,
        event: TournamentEvent,
        through: int | None,
        *,
        shown: bool = False,
        unplayed_meets: bool = False,
    ) -> list[Standing]:
        """The standings from confirmed results through round ``through`` (None: every round paired).

        ``shown`` (the standings people read): a late entry is listed only
        from their first round (through round 1, someone who joined in round
        2 is not in the field yet). ``unplayed_meets``: a table with no
        confirmed hand counts as a meeting in the opponents' figure, as
        pairing version 1 read it (kept so its rounds still verify); it is
        no meeting otherwise.
        """
        entrants = repo.entrants(session=session, event_id=rows.pk(event))
        if shown:
            last = through if through is not None else rows.rounds_paired(session, rows.pk(event))
            # Before round 1 is paired, everyone registered is listed (with nothing yet).
            entrants = [e for e in entrants if e.joined_round <= max(last, 1)]
        entries = [Entry(rows.pk(e), e.number, e.name, e.withdrawn_round) for e in entrants]
        rules = make_ruleset(event.rules, Kind(event.kind).table_size, event.options)
        outcomes = self._outcomes(session, event, through, unplayed_meets=unplayed_meets)
        return compute_standings(entries, outcomes, game_points=rules.game_points)

    def _outcomes(
        self, session: Session, event: TournamentEvent, through: int | None, *, unplayed_meets: bool
    ) -> list[Outcome]:
        """Every entrant's outcome at every table (or bye) of the rounds through ``through``."""
        out: list[Outcome] = []
        bye_games = rows.bye_games(event)
        for rnd in repo.rounds(session=session, event_id=rows.pk(event)):
            if through is not None and rnd.number > through:
                break
            tables = rows.tables(session, rnd)
            forfeits = repo.forfeits(session=session, table_ids=[rows.pk(t) for t in tables])
            results = self.table_results([t for t in tables if rows.pk(t) not in forfeits])
            for table in tables:
                if table.match_id is None:
                    out.append(Outcome(table.entrants[0], rnd.number, None, (), event.bye_points, bye_games, 0, 0))
                    continue
                forfeit = forfeits.get(rows.pk(table))
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
                result = results[rows.pk(table)]
                sides = len(result.sides)
                # Standings count confirmed hands: a table with none confirmed has not met (yet).
                met = unplayed_meets or result.hands_confirmed > 0
                for index, entrant in enumerate(table.entrants):
                    # Entrant i plays for side i % sides (four players: seats 0 and 2 against 1 and 3),
                    # and is credited with the side's figures; the opponents are the other sides' entrants.
                    side = index % sides
                    figures = result.sides[side]
                    against = {
                        x: figures.against[j % sides] for j, x in enumerate(table.entrants) if j % sides != side and met
                    }
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
                            unplayed=not met,
                        )
                    )
        return out
