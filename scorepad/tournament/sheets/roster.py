"""What the wall sheets read beyond the service's views: the event's date, its entrants, each match's games.

Director only (the exports' check, ``Action.EXPORT``). Read-only: nothing
here writes. Raises ``TournamentError`` (``AccessDenied``) for another
caller and for an unknown event.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from scorepad.rules import GameResult, parse_record, replay
from scorepad.store import tournament_repo as repo
from scorepad.store.db import session_scope
from scorepad.store.models import as_utc
from scorepad.tournament import rows
from scorepad.tournament.access import Action
from scorepad.tournament.service import TournamentService


@dataclass(frozen=True)
class Entrant:
    """One entrant as the sheets print it: the event's own number, the name, when they joined and left."""

    id: int
    number: int
    name: str
    joined_round: int
    # The first round they were no longer paired in; None while they play on.
    withdrawn_round: int | None

    @property
    def withdrawn(self) -> bool:
        """The entrant has withdrawn from the event."""
        return self.withdrawn_round is not None


@dataclass(frozen=True)
class Roster:
    """The event's date (the day it was created, UTC) and its entrants by number."""

    date: dt.date
    entrants: tuple[Entrant, ...]

    def by_id(self) -> dict[int, Entrant]:
        """The entrants by their stored id (as ``Standing.entrant`` and ``TableView.entrants`` name them)."""
        return {e.id: e for e in self.entrants}


def read_roster(service: TournamentService, token: str | None, event_id: int) -> Roster:
    """The event's date and entrants. Director only; raises ``TournamentError`` (``AccessDenied``)."""
    service.gate.require(token, event_id, Action.EXPORT)
    with session_scope(service.store.engine) as session:
        event = rows.event(session, event_id)
        created = as_utc(event.created_at) or event.created_at
        entrants = tuple(
            Entrant(rows.pk(e), e.number, e.name, e.joined_round, e.withdrawn_round)
            for e in repo.entrants(session=session, event_id=event_id)
        )
    return Roster(created.date(), entrants)


def confirmed_games(service: TournamentService, match_id: int, confirmed: int) -> tuple[GameResult, ...]:
    """The games finished within a match's first ``confirmed`` hands (the confirmed figures), by the engine.

    Each game's ``scores`` are by side. Raises the store's errors for an
    unknown match (never one the service hands out).
    """
    if confirmed <= 0:
        return ()
    record = service.store.export_record(match_id)
    head = replay(parse_record({**record, "hands": list(record["hands"][:confirmed])}))
    return tuple(head.games())
