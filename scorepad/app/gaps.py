"""Rule answers the table screen needs that the engine does not offer as a function yet.

Kept in one place, so each can move into ``scorepad.rules`` unchanged when the
engine grows it. Plain Python over engine values; no Flet, no store.
"""

from __future__ import annotations

from scorepad.rules import HandState, full_set
from scorepad.rules.tiles import pips


def pip_range(hand: HandState, seat: int) -> tuple[int, int]:
    """The lightest and heaviest pip totals ``seat`` can hold at the end of ``hand`` (records.md §4).

    As the engine checks a typed total in ``HandState.settle``: the sum of the
    lightest, and of the heaviest, ``held`` tiles not yet played. Raises
    IndexError for a seat that does not exist.
    """
    held = hand.tiles_held[seat]
    if held == 0:
        return 0, 0
    weights = sorted(pips(t) for t in full_set(hand.rules.max_pip) if t not in hand.played)
    return sum(weights[:held]), sum(weights[len(weights) - held :])
