"""Which ends make a difference: equivalent choices are folded, different ones are kept."""

from __future__ import annotations

import random

from scorepad.rules import Layout
from scorepad.rules.choices import distinct_ends, outcome


def laid(*plays: str, long_sides_first: bool = True, sniff_rule: bool = True) -> Layout:
    """A layout with tiles written 'a-b' or 'a-b@at' laid in order."""
    layout = Layout(sniff_rule=sniff_rule, long_sides_first=long_sides_first)
    for play in plays:
        tile, _, at = play.partition("@")
        a, b = tile.split("-")
        layout.place((int(a), int(b)), at or None)
    return layout


class TestEquivalentEnds:
    def test_the_two_long_sides_of_a_set_sniff_are_one_choice(self) -> None:
        layout = laid("5-5")
        assert layout.fits((3, 5)) == ["left", "right"]
        assert distinct_ends(layout, (3, 5)) == ["left"]

    def test_two_arms_showing_the_same_value_are_one_choice(self) -> None:
        layout = laid("2-2", "2-4@left", "2-4@right")
        assert sorted(layout.fits((4, 6))) == ["left", "right"]
        assert distinct_ends(layout, (4, 6)) == ["left"]

    def test_ends_that_count_differently_are_both_offered(self) -> None:
        # Both long sides covered, so the short ends are open (Smartt §6): 3-5 on the left
        # end (3) differs from either short end (5), and the two short ends are alike.
        layout = laid("5-5", "3-5@left", "5-6@right")
        assert layout.fits((3, 5)) == ["left", "up", "down"]
        assert distinct_ends(layout, (3, 5)) == ["left", "up"]
        assert outcome(layout, (3, 5), "up") == outcome(layout, (3, 5), "down")

    def test_covering_the_sniff_long_side_is_not_the_same_as_the_other_arm(self) -> None:
        # The Sniff 3-3 laid on the right arm: its far long side shows 3, as does the left end.
        layout = laid("6-3", "3-3@right", "6-3@left")
        ends = layout.fits((3, 4))
        assert sorted(ends) == ["left", "right"]
        assert len(distinct_ends(layout, (3, 4))) == 2

    def test_under_jaques_the_four_open_sides_of_a_set_sniff_are_one_choice(self) -> None:
        # Jaques 'How to play' step 2: the Sniff's four sides are developed in any order.
        layout = laid("5-5", long_sides_first=False)
        assert layout.fits((3, 5)) == ["left", "right", "up", "down"]
        assert distinct_ends(layout, (3, 5)) == ["left"]

    def test_nothing_to_choose_before_the_set(self) -> None:
        assert distinct_ends(Layout(), (1, 2)) == []

    def test_the_layout_asked_about_is_not_changed(self) -> None:
        layout = laid("5-5")
        before = (layout.board_count, dict(layout.open_ends()), len(layout.placements))
        distinct_ends(layout, (3, 5))
        assert (layout.board_count, dict(layout.open_ends()), len(layout.placements)) == before


def test_a_copy_counts_and_opens_exactly_like_the_original_over_random_layouts() -> None:
    rng = random.Random(8)
    for _ in range(200):
        layout = Layout(sniff_rule=rng.random() < 0.8, long_sides_first=rng.random() < 0.5)
        tiles = [(a, b) for a in range(7) for b in range(a, 7)]
        rng.shuffle(tiles)
        layout.place(tiles.pop())
        for tile in tiles:
            ends = layout.fits(tile)
            if ends:
                layout.place(tile, rng.choice(ends))
            copy = layout.copy()
            assert copy.board_count == layout.board_count
            assert dict(copy.open_ends()) == dict(layout.open_ends())
            assert copy.sniff_stage() == layout.sniff_stage()


def test_ends_folded_together_lead_to_the_same_outcomes_for_every_next_tile() -> None:
    # Soundness, one tile ahead: whatever is played next, two folded choices offer the same outcomes.
    rng = random.Random(11)
    tiles = [(a, b) for a in range(7) for b in range(a, 7)]
    checked = 0
    for _ in range(150):
        layout = Layout(sniff_rule=rng.random() < 0.8, long_sides_first=rng.random() < 0.5)
        order = tiles[:]
        rng.shuffle(order)
        layout.place(order.pop())
        for tile in order[:12]:
            ends = layout.fits(tile)
            if not ends:
                continue
            by_outcome: dict[tuple[int, tuple[int, ...]], list[str]] = {}
            for at in ends:
                by_outcome.setdefault(outcome(layout, tile, at), []).append(at)
            for alike in (group for group in by_outcome.values() if len(group) > 1):
                futures = []
                for at in alike:
                    after = layout.copy()
                    after.place(tile, at)
                    futures.append(
                        {nxt: sorted(outcome(after, nxt, e) for e in after.fits(nxt)) for nxt in order if nxt != tile}
                    )
                    checked += 1
                assert all(f == futures[0] for f in futures), (layout.placements, tile, alike)
            layout.place(tile, rng.choice(ends))
    assert checked > 50
