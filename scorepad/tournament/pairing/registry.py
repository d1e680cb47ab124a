"""The pairing formats an event can use: one module each, one entry here.

A new format is a module of this package with a ``FORMAT``
(``PairingFormat``: its name, its entry point, its terms) and its line in
``FORMATS``; the service, the command line and the forms read the rest from
here. Everything stays a pure function of the ``PairingInput``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from scorepad.tournament.errors import PairingError
from scorepad.tournament.kinds import Kind
from scorepad.tournament.pairing.fours import FORMAT as FOURS_FORMAT
from scorepad.tournament.pairing.model import PAIRING_VERSION, Pairing, PairingFormat, PairingInput
from scorepad.tournament.pairing.round_robin import FORMAT as ROUND_ROBIN_FORMAT
from scorepad.tournament.pairing.swiss import FORMAT as SWISS_FORMAT
from scorepad.tournament.pairing.swiss import SWISS, swiss
from scorepad.tournament.pairing.threes import FORMAT as THREES_FORMAT

# Every format by name, in the order forms and messages list them.
FORMATS: dict[str, PairingFormat] = {f.name: f for f in (ROUND_ROBIN_FORMAT, SWISS_FORMAT, THREES_FORMAT, FOURS_FORMAT)}
METHODS = tuple(FORMATS)
# The formats a director may choose (tables of two sides); the others come with their kind of event.
CHOSEN = tuple(f.name for f in FORMATS.values() if f.kind is None)
# The formats that come with their kind of event (tables of three, of four).
SEATED_BY_KIND = tuple(f.name for f in FORMATS.values() if f.kind is not None)
# What ``auto`` pairs by when no format suits the field better.
AUTO_FALLBACK = SWISS


# Formats as an earlier ``PAIRING_VERSION`` paired them, by (version, format): a round paired by one
# re-runs by it (``verify-pairings``), so a later change never alters an old round's verification.
_EARLIER: dict[tuple[str, str], Callable[[PairingInput], Pairing]] = {
    # Version 1 drew Swiss seats in the matching's order, which follows the database's ids.
    ("1", SWISS): partial(swiss, seats_by_rank=False),
}


def pair(inp: PairingInput, version: str = PAIRING_VERSION) -> Pairing:
    """The round ``inp`` describes, by its method's format as pairing ``version`` paired it. Raises ``PairingError``."""
    chosen = FORMATS.get(inp.method)
    if chosen is None:
        raise PairingError(f"unknown pairing method {inp.method!r}; the methods are " + ", ".join(METHODS))
    return _EARLIER.get((version, chosen.name), chosen.pair)(inp)


def kind_format(kind: Kind) -> str | None:
    """The format that always seats an event of ``kind`` (tables of three, of four), or None: the director chooses."""
    return next((f.name for f in FORMATS.values() if f.kind == kind), None)


def scheduled(name: str) -> bool:
    """Whether the format ``name`` draws the whole event at round 1 (a round robin); False for ``auto``."""
    chosen = FORMATS.get(name)
    return chosen is not None and chosen.schedule


def auto_format(field: int, rounds: int, forbidden: bool) -> str:
    """What ``auto`` pairs a field of ``field`` by, over ``rounds`` rounds, with or without a forbidden pair."""
    for f in FORMATS.values():
        if f.kind is None and f.suits is not None and f.suits(field, rounds, forbidden):
            return f.name
    return AUTO_FALLBACK
