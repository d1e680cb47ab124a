"""Who sets the first hand: Smartt §3.1's draw for the set and Jaques' highest double."""

from __future__ import annotations

import pytest

from scorepad.rules import SniffError, draw_for_the_set, highest_double_leads


class TestDrawForTheSet:
    def test_the_heaviest_tile_sets(self):
        assert draw_for_the_set(["2-3", "6-5", "4-4"]).seat == 1

    def test_equal_totals_go_to_the_higher_single_value(self):
        # 6-1 and 5-2 both weigh 7; the 6 wins (Smartt §3.1).
        outcome = draw_for_the_set(["5-2", "6-1"])
        assert outcome.seat == 1
        assert "highest single value (6)" in outcome.reason

    def test_a_double_is_no_better_than_a_single_of_the_same_weight_with_a_higher_end(self):
        assert draw_for_the_set(["4-4", "6-2"]).seat == 1

    def test_a_tile_drawn_twice_is_refused(self):
        with pytest.raises(SniffError, match="named twice"):
            draw_for_the_set(["3-5", "5-3"])

    def test_a_tile_outside_the_set_is_refused(self):
        with pytest.raises(SniffError, match="double-six"):
            draw_for_the_set(["7-1", "2-2"])

    def test_double_nine(self):
        assert draw_for_the_set(["9-8", "6-6"], max_pip=9).seat == 0


class TestHighestDoubleLeads:
    def test_the_highest_double_leads(self):
        assert highest_double_leads([["1-2", "3-3"], ["4-4", "0-1"], ["6-5", "2-2"]]).seat == 1

    def test_without_a_double_the_heaviest_tile_leads(self):
        outcome = highest_double_leads([["1-2", "6-5"], ["4-5", "0-1"]])
        assert outcome.seat == 0
        assert "11 pips" in outcome.reason

    def test_equally_heavy_tiles_go_to_the_higher_single_value(self):
        assert highest_double_leads([["5-4", "0-1"], ["6-3", "1-2"]]).seat == 1

    def test_a_tile_held_twice_is_refused(self):
        with pytest.raises(SniffError, match="named twice"):
            highest_double_leads([["1-2"], ["2-1"]])
