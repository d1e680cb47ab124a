"""Tournaments: events, entrants, rounds, pairings, standings and roles (asks the rules and the store; no Flet).

``TournamentService`` is the one object the command line and a web layer call
(docs/tournament.md); every method checks the caller's role first.
"""

from scorepad.access import Caller
from scorepad.tournament.access import Action, Gate, Role
from scorepad.tournament.errors import AccessDenied, PairingError, TooManyAttempts, TournamentError
from scorepad.tournament.kinds import KINDS, Kind
from scorepad.tournament.service import ForfeitView, RoundView, TableView, TournamentService, Verification
from scorepad.tournament.standings import Standing

__all__ = [
    "KINDS",
    "AccessDenied",
    "Action",
    "Caller",
    "ForfeitView",
    "Gate",
    "Kind",
    "PairingError",
    "Role",
    "RoundView",
    "Standing",
    "TableView",
    "TooManyAttempts",
    "TournamentError",
    "TournamentService",
    "Verification",
]
