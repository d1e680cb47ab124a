"""The names of the automatics (Smartt §7.3), read from the layout a tile is laid on."""

from __future__ import annotations

import pytest

from scorepad.analysis.plays import classify
from scorepad.analysis.values import AutomaticKind
from scorepad.rules import Layout


def laid(*plays: tuple[tuple[int, int], str | None]) -> Layout:
    layout = Layout()
    for tile, at in plays:
        layout.place(tile, at)
    return layout


# Set 6-6 (the Sniff), then 6-1 and 1-1 on the left: an exposed ordinary double-1 at the left end.
DOUBLE_ONE = (((6, 6), None), ((6, 1), "left"), ((1, 1), "left"))
DOUBLE_THREE = (((6, 6), None), ((6, 3), "left"), ((3, 3), "left"))


@pytest.mark.parametrize(
    ("plays", "tile", "at", "kind"),
    [
        (DOUBLE_ONE, (1, 2), "left", AutomaticKind.TABLE),  # the §7.3 table: 1-2 on the double-1
        (DOUBLE_ONE, (1, 6), "left", AutomaticKind.OTHER),  # never the Pet on an exposed double-1
        (DOUBLE_THREE, (3, 6), "left", AutomaticKind.TABLE),
        (DOUBLE_THREE, (1, 3), "left", AutomaticKind.FAKE_PET),  # the 3-1 on the double-3
        ((((1, 4), None),), (1, 6), "left", AutomaticKind.PET),  # the 1-6 on a single 1
        ((((0, 3), None),), (0, 5), "left", AutomaticKind.ZERO_FIVE),
        ((((5, 5), None), ((5, 2), "left")), (5, 0), "right", AutomaticKind.SNIFF),  # opposite long side
        ((((3, 4), None), ((4, 4), "right")), (4, 5), "right", AutomaticKind.SNIFF),  # a Sniff laid on an arm
        ((((5, 5), None),), (5, 0), "right", AutomaticKind.OTHER),  # no long side covered yet
    ],
)
def test_classify(plays, tile, at, kind) -> None:
    assert classify(laid(*plays), tile, at) == kind
