"""Pairings and seating: round robin by Berger tables, Swiss by weighted matching, tables of three and four.

Everything here is a pure function of a ``PairingInput``: the same input
(entrants, their standing before the round, who met whom, byes, forbidden
pairs, the seed) and the same ``PAIRING_VERSION`` give the same round, which
is what ``scorepad tournament verify-pairings`` checks. Nothing here reads
the database or the clock.

One module a format (``round_robin``, ``swiss``, ``threes``, ``fours``), each
with one entry point and its ``FORMAT``; ``registry`` lists them and
``pair`` runs the one an input names. ``model`` holds what they read and
give, ``seating`` what the tables of three and four share.

Raises ``PairingError`` (one plain sentence) when no round can be made: a
forbidden pair that every pairing would seat together, nobody left who may
take a bye, too few entrants.
"""

from scorepad.tournament.pairing.fours import FOURS, fours
from scorepad.tournament.pairing.model import PAIRING_VERSION, Contender, Pairing, PairingFormat, PairingInput
from scorepad.tournament.pairing.registry import (
    AUTO_FALLBACK,
    CHOSEN,
    FORMATS,
    METHODS,
    SEATED_BY_KIND,
    auto_format,
    kind_format,
    pair,
    scheduled,
)
from scorepad.tournament.pairing.round_robin import (
    ROUND_ROBIN,
    ROUND_ROBIN_MAX,
    berger_round,
    cycle_length,
    draw_roster,
    name_withdrawn,
    round_robin,
    unsuited,
    withdrawn_note,
)
from scorepad.tournament.pairing.seating import improve_by_swaps, score_bands
from scorepad.tournament.pairing.swiss import SWISS, swiss
from scorepad.tournament.pairing.threes import THREES, threes

__all__ = [
    "AUTO_FALLBACK",
    "CHOSEN",
    "FORMATS",
    "FOURS",
    "METHODS",
    "PAIRING_VERSION",
    "ROUND_ROBIN",
    "ROUND_ROBIN_MAX",
    "SEATED_BY_KIND",
    "SWISS",
    "THREES",
    "Contender",
    "Pairing",
    "PairingFormat",
    "PairingInput",
    "auto_format",
    "berger_round",
    "cycle_length",
    "draw_roster",
    "fours",
    "improve_by_swaps",
    "kind_format",
    "name_withdrawn",
    "pair",
    "round_robin",
    "scheduled",
    "score_bands",
    "swiss",
    "threes",
    "unsuited",
    "withdrawn_note",
]
