"""Ends named by the tile that lies there (issue 19 §5), never by a picture's left or up."""

from __future__ import annotations

from scorepad.rules import Layout
from scorepad.rules.choices import EndChoice, end_choices
from scorepad.rules.wording import end_name, end_names


def laid(*plays: tuple[tuple[int, int], str | None], **rules: bool) -> Layout:
    layout = Layout(**rules)
    for tile, at in plays:
        layout.place(tile, at)
    return layout


def test_a_single_and_a_sniff_both_showing_3_are_told_apart_with_their_counts():
    # Set 5-3; the 3-3 on the right is the Sniff (its far long side open); 5-3 on the left shows 3.
    layout = laid(((5, 3), None), ((3, 3), "right"), ((5, 3), "left"))
    assert layout.open_ends() == {"left": 3, "right": 3}
    # 3-6 on the single: 6 + the Sniff's 6 = 12; on the Sniff's far side: 3 + 6 + both short ends 6 = 15.
    assert end_choices(layout, (3, 6)) == [
        EndChoice("left", "on the 3 of 5-3", 12),
        EndChoice("right", "on the 3-3", 15),
    ]
    assert end_choices(layout, (3, 6))[1].words == "on the 3-3 · count 15"


def test_the_set_names_its_own_ends():
    layout = laid(((5, 3), None))
    assert (end_name(layout, "left"), end_name(layout, "right")) == ("on the 5 of 3-5", "on the 3 of 5-3")
    sniff = laid(((4, 4), None))
    assert end_name(sniff, "left") == "on the 4-4"


def test_an_ordinary_double_and_the_sniffs_short_ends():
    # Set 3-3 (the Sniff); 3-5 left, 3-1 right: both long sides covered, so the short ends open.
    layout = laid(((3, 3), None), ((3, 5), "left"), ((3, 1), "right"), ((1, 1), "right"))
    assert end_name(layout, "right") == "on the 1-1"
    assert end_name(layout, "up") == "on the 3-3"
    # Two ends on one tile: told apart by the Sniff's side.
    assert end_names(layout, ["left", "up", "down"]) == {
        "left": "on the 5 of 3-5",
        "up": "on the 3-3 (short end, up)",
        "down": "on the 3-3 (short end, down)",
    }


def test_equivalent_ends_are_asked_once():
    layout = laid(((3, 3), None))
    [choice] = end_choices(layout, (3, 5))
    assert choice == EndChoice("left", "on the 3-3", 11)
