"""A misdeal (Smartt §11.4): which ``adjust`` events a seat dealt the wrong number of tiles makes.

The book's two cases, as the contract records them (records.md §4, ``adjust``):

- one tile too many: an overdraw keeps every tile drawn, so the seat holds one
  more than the deal gives and the boneyard one fewer: ``count: 1``;
- one tile too few: an underdraw takes the missing tile when it is noticed,
  ``count: -1`` for the short deal and ``count: 1`` for the tile taken. After
  both, the seat holds what the deal gives; what the pair records is that it
  happened (docs/rules.md R13).

Nothing here changes a match; ``previews.preview_misdeal`` says what the
events would do, in words.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from scorepad.rules.events import Adjust


class Misdeal(StrEnum):
    """What was wrong with a seat's deal (Smartt §11.4)."""

    TOO_MANY = "too-many"
    TOO_FEW = "too-few"


@dataclass(frozen=True)
class MisdealChoice:
    """One choice of the misdeal menu: its label on the button and what it does, in one line."""

    kind: Misdeal
    label: str
    explanation: str


MISDEAL_CHOICES = (
    MisdealChoice(
        Misdeal.TOO_FEW,
        "One tile too few: takes one",
        "The seat was dealt a tile short and takes the missing tile from the boneyard now.",
    ),
    MisdealChoice(
        Misdeal.TOO_MANY,
        "One too many: keeps it",
        "The seat drew a tile too many and keeps every tile drawn; the boneyard is one short.",
    ),
)


def misdeal_events(kind: Misdeal, seat: int) -> tuple[Adjust, ...]:
    """The ``adjust`` events that record ``kind`` for ``seat``, in order (records.md §4).

    Raises ValueError for a kind that is not a ``Misdeal``. Whether the hand
    takes them (a boneyard with a tile in it, a hand under way) is the
    engine's to say when they are applied.
    """
    kind = Misdeal(kind)
    if kind is Misdeal.TOO_MANY:
        # Smartt §11.4: an overdraw keeps every tile drawn.
        return (Adjust(seat, 1),)
    # Smartt §11.4: an underdraw takes the missing tile when noticed; the contract writes the
    # short deal (-1) and the tile taken (+1).
    return (Adjust(seat, -1), Adjust(seat, 1))
