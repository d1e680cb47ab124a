"""What the door must know of a match at the moment of a write: its creator, and its tournament table if any.

One statement, run inside the write's own transaction, so that a round
locked or a table forfeited a moment before is seen by the write it stops.
It runs before every entry of every page: it is built once, with the match
as a bound parameter (building a statement costs more than the query).
"""

from __future__ import annotations

from sqlalchemy import bindparam, select
from sqlmodel import Session, col

from scorepad.access import MatchFacts, TableFacts
from scorepad.store.models import Match
from scorepad.store.tournament_models import TournamentForfeit, TournamentRound, TournamentTable
from scorepad.store.tournament_repo import latest_round_number

_FACTS = (
    select(
        col(Match.device),
        col(Match.revision),
        col(TournamentTable.id),
        col(TournamentTable.number),
        col(TournamentRound.event_id),
        col(TournamentRound.number),
        col(TournamentRound.locked_at),
        latest_round_number(TournamentRound),
        col(TournamentForfeit.id),
    )
    .select_from(Match)
    .outerjoin(TournamentTable, col(TournamentTable.match_id) == col(Match.id))
    .outerjoin(TournamentRound, col(TournamentRound.id) == col(TournamentTable.round_id))
    .outerjoin(TournamentForfeit, col(TournamentForfeit.table_id) == col(TournamentTable.id))
    .where(col(Match.id) == bindparam("match_id"))
)


def match_facts(*, session: Session, match_id: int) -> MatchFacts | None:
    """The door's facts of ``match_id`` (deleted or not), or None when no such match was ever stored."""
    row = session.execute(_FACTS, {"match_id": match_id}).first()
    if row is None:
        return None
    creator, revision, table_id, number, event_id, round_number, locked_at, latest_number, forfeit_id = row
    if table_id is None:
        return MatchFacts(match_id=match_id, creator=creator, revision=revision)
    table = TableFacts(
        event_id=event_id,
        table_id=table_id,
        table_number=number,
        round_number=round_number,
        current=round_number == latest_number,
        locked=locked_at is not None,
        forfeited=forfeit_id is not None,
    )
    return MatchFacts(match_id=match_id, creator=creator, revision=revision, table=table)
