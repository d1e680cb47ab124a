"""The layout and the board count: the Sniff stage by stage, ordinary doubles, All Fives, placement errors."""

from __future__ import annotations

import pytest

from scorepad.rules import IllegalEventError, Layout


def lay(layout: Layout, *plays: str) -> list[int]:
    """Lay tiles written 'a-b' or 'a-b@at'; return the board count after each."""
    counts = []
    for play in plays:
        tile, _, at = play.partition("@")
        a, b = tile.split("-")
        layout.place((int(a), int(b)), at or None)
        counts.append(layout.board_count)
        assert sum(points for _, points in layout.breakdown()) == layout.board_count
    return counts


def smartt() -> Layout:
    return Layout(sniff_rule=True, long_sides_first=True)


def jaques() -> Layout:
    return Layout(sniff_rule=True, long_sides_first=False)


def all_fives() -> Layout:
    return Layout(sniff_rule=False, long_sides_first=True)


class TestTheSet:
    @pytest.mark.parametrize(("tile", "count"), [("0-5", 5), ("1-4", 5), ("2-3", 5), ("4-6", 10), ("5-5", 10)])
    def test_the_five_scoring_sets(self, tile, count):
        # Smartt §4.2.
        assert lay(smartt(), tile) == [count]

    @pytest.mark.parametrize("tile", ["0-0", "1-2", "6-6", "3-6", "0-1"])
    def test_a_set_counts_both_its_ends(self, tile):
        a, b = (int(x) for x in tile.split("-"))
        assert lay(smartt(), tile) == [a + b]

    def test_the_order_written_names_left_and_right(self):
        layout = smartt()
        lay(layout, "5-3")
        assert layout.open_ends() == {"left": 5, "right": 3}
        layout = smartt()
        lay(layout, "3-5")
        assert layout.open_ends() == {"left": 3, "right": 5}

    def test_nothing_fits_before_the_set(self):
        assert smartt().fits((5, 3)) == []
        assert smartt().board_count == 0

    def test_the_set_takes_no_at(self):
        with pytest.raises(IllegalEventError, match="set"):
            smartt().place((5, 3), "left")


class TestSniffStages:
    """Smartt §6.2, with the Sniff as the set: 2n, 2n, 2n, n, 0."""

    def test_each_stage(self):
        #                       set  left: 3  right: 2  up: 1       down: 0
        assert lay(smartt(), "5-5", "5-3@left", "5-2@right", "5-1@up", "5-0@down") == [10, 13, 15, 11, 6]

    def test_stage_words(self):
        layout = smartt()
        lay(layout, "5-5", "5-3@left", "5-2@right", "5-1@up", "5-0@down")
        assert "dead" in layout.sniff_stage()

    def test_short_ends_shut_until_both_long_sides_are_covered(self):
        layout = smartt()
        lay(layout, "5-5", "5-3@left")
        assert set(layout.open_ends()) == {"left", "right"}
        assert layout.fits((5, 1)) == ["right"]
        with pytest.raises(IllegalEventError, match="short ends open only once both long sides"):
            layout.place((5, 1), "up")
        lay(layout, "5-2@right")
        assert layout.open_ends() == {"left": 3, "right": 2, "up": 5, "down": 5}

    def test_the_sniff_is_the_first_double_only(self):
        # 3-3 laid after the 5-5 Sniff is ordinary: no short ends of its own.
        layout = smartt()
        lay(layout, "5-5", "5-3@left", "3-3@left")
        assert set(layout.open_ends()) == {"left", "right"}


class TestSniffLaidLater:
    def test_on_the_left_arm(self):
        # Set 3-4 (7); 3-3 on the left: the Sniff with its near side covered, 4 + 6 = 10;
        # 3-6 on its far long side: 6 + 4 + 6 = 16; up 3-1: 6 + 4 + 1 + 3 = 14; down 3-0: 11.
        layout = smartt()
        assert lay(layout, "3-4", "3-3@left") == [7, 10]
        with pytest.raises(IllegalEventError):
            layout.place((3, 1), "up")
        assert lay(layout, "3-6@left", "3-1@up", "3-0@down") == [16, 14, 11]

    def test_on_the_right_arm(self):
        # Set 2-5; 5-5 right: 2 + 10 = 12; 5-1 right (far side): 2 + 1 + 10 = 13; up 5-4: 12; down 5-6: 13.
        layout = smartt()
        assert lay(layout, "2-5", "5-5@right", "5-1@right", "5-4@up", "5-6@down") == [7, 12, 13, 12, 13]

    def test_its_far_side_continues_the_arm(self):
        layout = smartt()
        lay(layout, "2-5", "5-5@right")
        assert layout.open_ends() == {"left": 2, "right": 5}


class TestOrdinaryDoubles:
    def test_an_end_double_counts_both_halves_and_nothing_once_covered(self):
        # Sniff 5-5 (10); 5-3 left: 13; 3-3 on the left: 6 + 10 = 16; 3-1 on it: 1 + 10 = 11.
        assert lay(smartt(), "5-5", "5-3@left", "3-3@left", "3-1@left") == [10, 13, 16, 11]

    def test_a_double_on_a_short_end(self):
        # 3 + 2 + 4 + 5 = 14 after 5-4 up, then 4-4 on it: 3 + 2 + 8 + 5 = 18.
        assert lay(smartt(), "5-5", "5-3@left", "5-2@right", "5-4@up", "4-4@up") == [10, 13, 15, 14, 18]

    def test_a_double_after_the_sniff_is_dead_stays_ordinary(self):
        layout = smartt()
        counts = lay(layout, "1-1", "1-2@left", "1-3@right", "1-4@up", "1-5@down", "5-5@down")
        # 2 + 3 + 4 + 10 with the Sniff dead.
        assert counts[-1] == 19
        assert set(layout.open_ends()) == {"left", "right", "up", "down"}


class TestAnyOrder:
    """Jaques 'How to play' step 2: the Sniff's sides in any order; it counts at most 2n."""

    def test_a_short_end_first_still_counts_2n(self):
        # 5-5 (10); up 5-1: 10 + 1 = 11; down 5-2: 10 + 1 + 2 = 13; left 5-3: 5 + 6 = 11; right 5-0: 6.
        assert lay(jaques(), "5-5", "5-1@up", "5-2@down", "5-3@left", "5-0@right") == [10, 11, 13, 11, 6]

    def test_all_four_sides_open_at_once(self):
        layout = jaques()
        lay(layout, "5-5")
        assert layout.open_ends() == {"left": 5, "right": 5, "up": 5, "down": 5}

    def test_a_later_sniff_opens_its_short_ends_at_once(self):
        # 2-5, 5-5 right (12); up 5-1: sides open far + down, 2 + 10 + 1 = 13; down 5-4: 2 + 5 + 1 + 4 = 12.
        layout = jaques()
        assert lay(layout, "2-5", "5-5@right", "5-1@up", "5-4@down", "5-3@right") == [7, 12, 13, 12, 10]


class TestAllFives:
    """sniff: false (Jaques 'Variations'): no spinner; a double set with one side covered counts 2n."""

    def test_a_double_set(self):
        # 5-5 (10); 5-3 right: 10 + 3 = 13; 5-1 left: 1 + 3 = 4; 3-3 right: 1 + 6 = 7.
        assert lay(all_fives(), "5-5", "5-3@right", "5-1@left", "3-3@right") == [10, 13, 4, 7]

    def test_no_short_ends_ever(self):
        layout = all_fives()
        lay(layout, "5-5", "5-3@right", "5-1@left")
        with pytest.raises(IllegalEventError, match="All Fives has no Sniff"):
            layout.place((5, 6), "up")
        assert set(layout.open_ends()) == {"left", "right"}

    def test_no_sniff_stage(self):
        layout = all_fives()
        lay(layout, "4-4")
        assert "All Fives" in layout.sniff_stage()


class TestAmericanWorkedExample:
    def test_8_14_15_13(self):
        # American 'The Sniff': 4-4, then 4-6, 4-1 on the line, 4-2 on a branch.
        assert lay(smartt(), "4-4", "4-6@left", "4-1@right", "4-2@up") == [8, 14, 15, 13]


class TestTheMaximum:
    def test_a_layout_reaching_35(self):
        # Smartt §7.1: 35 is the highest play score with double-six. The 0-0 Sniff counts 0;
        # 6-6, 5-5 and 4-4 at three ends make 12 + 10 + 8, and a 5 at the fourth makes 35.
        plays = ("0-0", "0-6@left", "6-6@left", "0-5@right", "5-5@right", "0-4@up", "4-4@up", "0-1@down", "1-5@down")
        counts = lay(smartt(), *plays)
        assert counts == [0, 6, 12, 17, 22, 26, 30, 31, 35]


class TestPlacementErrors:
    def test_fits_no_open_end_names_the_ends(self):
        layout = smartt()
        lay(layout, "3-5")
        with pytest.raises(IllegalEventError, match=r"^6-2 fits no open end; open ends: left 3, right 5$"):
            layout.place((6, 2))

    def test_ambiguous_without_at(self):
        layout = smartt()
        lay(layout, "3-3")
        with pytest.raises(IllegalEventError, match=r"more than one end \(left 3, right 3\)"):
            layout.place((3, 1))

    def test_at_may_be_left_out_when_one_end_fits(self):
        layout = smartt()
        placed = layout.place((3, 5))
        placed = layout.place((5, 6))
        assert placed.at == "right"
        assert layout.open_ends() == {"left": 3, "right": 6}

    def test_wrong_end_says_where_it_fits(self):
        layout = smartt()
        lay(layout, "3-5")
        with pytest.raises(IllegalEventError, match=r"does not fit the right end, which shows 5.*it fits left"):
            layout.place((3, 1), "right")

    def test_short_end_without_a_sniff(self):
        layout = smartt()
        lay(layout, "3-5")
        with pytest.raises(IllegalEventError, match="no Sniff yet"):
            layout.place((3, 1), "up")

    def test_set_position_after_the_set(self):
        layout = smartt()
        lay(layout, "3-5")
        with pytest.raises(IllegalEventError):
            layout.place((5, 1), "set")

    def test_a_refused_tile_leaves_the_layout_as_it_was(self):
        layout = smartt()
        lay(layout, "5-5", "5-3@left")
        before = (layout.board_count, layout.open_ends(), len(layout.placements))
        for tile, at in [((6, 2), None), ((5, 1), "up"), ((1, 2), None), ((3, 1), "right")]:
            with pytest.raises(IllegalEventError):
                layout.place(tile, at)
        assert (layout.board_count, layout.open_ends(), len(layout.placements)) == before
