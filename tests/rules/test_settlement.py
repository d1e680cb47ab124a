"""Settling a hand (Smartt §9, records.md §5): 5-rounding, awards, American debits, and checking `remaining`."""

from __future__ import annotations

import pytest

from scorepad.rules import Adjust, Draw, IllegalEventError, IllegalRecordError, Pass, Play, make_ruleset, round5
from scorepad.rules.settle import settle_hand

from .support import new_hand, plain, record, referee, run


class TestRounding:
    @pytest.mark.parametrize(
        ("pips", "rounded"),
        [
            (0, 0),
            (1, 0),
            (2, 0),
            (3, 5),
            (4, 5),
            (5, 5),
            (7, 5),
            (8, 10),
            (12, 10),
            (13, 15),
            (17, 15),
            (49, 50),
            (52, 50),
            (53, 55),
            (168, 170),
        ],
    )
    def test_remainders_0_to_2_down_3_and_4_up(self, pips, rounded):
        assert round5(pips) == rounded


class TestGoOutAward:
    def test_two_players(self):
        # P1 kept one tile at the deal and goes out with it; P0 holds 23 pips, rounded up to 25.
        match = new_hand("smartt", 2)
        run(match, Adjust(1, -6), "5-5", Play("5-3", at="left"))
        settlement = match.settle([23, []])
        assert (settlement.award, settlement.to) == (25, 1)
        assert match.current.end() == {"how": "out", "by": 1, "award": 25, "to": 1}
        assert plain(match.current.scores_after) == [10, 25]

    def test_three_players_round_the_sum_once(self):
        # Both opponents hold 3 pips: 3 + 3 = 6 rounds to 5 (rounding each would give 10).
        match = new_hand("smartt", 3)
        run(match, Adjust(0, -4), Adjust(1, -5), Adjust(2, -5), "5-5", Play("5-3", at="left"))
        match.settle([["1-2"], [], ["0-3"]])
        assert match.current.end() == {"how": "out", "by": 1, "award": 5, "to": 1}
        assert plain(match.current.scores_after) == [10, 5, 0]

    def test_partners_do_not_pay_each_other(self):
        # P1 goes out; P0 and P2 pay 10 + 12 = 22, rounded to 20; partner P3's 40 pips do not count.
        match = new_hand("smartt", 4)
        run(match, Adjust(1, -4), "5-5", Play("5-3", at="left"))
        match.settle([10, [], 12, 40])
        assert match.current.end() == {"how": "out", "by": 1, "award": 20, "to": 1}
        assert plain(match.current.scores_after) == [10, 20]

    def test_jaques_four_each_for_himself_collects_from_all_three(self):
        match = new_hand("jaques", 4)
        run(match, Adjust(1, -4), "5-5", Play("5-3", at="left"))
        match.settle([10, [], 12, 40])
        assert match.current.end() == {"how": "out", "by": 1, "award": 60, "to": 1}
        assert plain(match.current.scores_after) == [10, 60, 0, 0]

    def test_nothing_left_pays_nothing(self):
        rules = make_ruleset("smartt", 2, {})
        settlement = settle_hand(rules, "out", [0, 2], 0)
        assert (settlement.award, settlement.to) == (0, 0)


class TestBlockAward:
    """Smartt §9.2: the single lowest side takes the others' full total, rounded once; a tie scores nothing."""

    @pytest.mark.parametrize(
        ("name", "players", "options", "pips", "award", "to"),
        [
            ("smartt", 2, {}, [10, 23], 25, 0),
            ("smartt", 2, {}, [23, 10], 25, 1),
            ("smartt", 2, {}, [12, 12], 0, None),
            ("smartt", 3, {}, [5, 12, 13], 25, 0),
            ("smartt", 3, {}, [12, 5, 13], 25, 1),
            ("smartt", 3, {}, [5, 5, 20], 0, None),
            ("smartt", 3, {}, [3, 10, 10], 20, 0),
            ("smartt", 4, {}, [16, 22, 31, 27], 50, 0),
            ("smartt", 4, {}, [10, 20, 20, 10], 0, None),
            ("smartt", 4, {}, [1, 2, 40, 2], 40, 1),
            ("jaques", 4, {}, [4, 10, 11, 12], 35, 0),
            ("jaques", 4, {}, [10, 4, 4, 12], 0, None),
            ("jaques", 4, {"partners": True}, [4, 10, 11, 12], 20, 0),
            ("jaques", 2, {}, [0, 2], 0, 0),
        ],
    )
    def test_award(self, name, players, options, pips, award, to):
        settlement = settle_hand(make_ruleset(name, players, options), "blocked", pips, None)
        assert (settlement.award, settlement.to) == (award, to)
        assert settlement.debits is None

    def test_a_tied_block_reports_to_null(self):
        # Jaques, three players: P1 draws all 13; P0 and P2 both hold 20 pips, P1 120.
        match = new_hand("jaques", 3)
        run(match, "5-5", Draw(13), Pass(), Pass(), Pass())
        match.settle([20, 120, 20])
        assert match.current.end() == {"how": "blocked", "award": 0, "to": None}
        assert plain(match.current.scores_after) == [10, 0, 0]


class TestAmericanDebits:
    """American 'End and settle a round': each seat's own pips rounded separately, taken off its side."""

    @pytest.mark.parametrize(
        ("players", "pips", "debits", "deltas"),
        [
            (2, [2, 3], (0, 5), [0, -5]),
            (2, [7, 8], (5, 10), [-5, -10]),
            (3, [2, 3, 7], (0, 5, 5), [0, -5, -5]),
            (3, [18, 19, 33], (20, 20, 35), [-20, -20, -35]),
            # Partners: 2 + 7 would round to 10 together, 3 + 8 to 10; separately 0 + 5 and 5 + 10.
            (4, [2, 3, 7, 8], (0, 5, 5, 10), [-5, -15]),
        ],
    )
    def test_each_hand_rounded_by_itself(self, players, pips, debits, deltas):
        rules = make_ruleset("american", players, {})
        settlement = settle_hand(rules, "blocked", pips, None)
        assert plain(settlement.debits) == list(debits)
        assert settlement.award is None
        assert settlement.deltas(rules) == deltas

    def test_a_partnership_block(self):
        # 5-5 set by P0 (10). P1 draws the 8, all pass: blocked. Pips 7, 88, 12, 13 give debits 5, 90, 10, 15.
        match = new_hand("american", 4)
        run(match, "5-5", Draw(8), Pass(), Pass(), Pass(), Pass())
        match.settle([7, 88, 12, 13])
        assert match.current.end() == {"how": "blocked", "debits": [5, 90, 10, 15]}
        assert plain(match.current.scores_after) == [10 - 5 - 10, -90 - 15]

    def test_going_out_owes_nothing(self):
        match = new_hand("american", 2)
        run(match, Adjust(1, -6), "5-5", Play("5-3", at="left"))
        match.settle([23, []])
        assert match.current.end() == {"how": "out", "by": 1, "debits": [25, 0]}
        assert plain(match.current.scores_after) == [10 - 25, 0]


def went_out() -> object:
    """Smartt, two players: P1 kept one tile, P0 sets 0-0, P1 goes out with 0-1. P0 holds 6 of the 26 unplayed."""
    match = new_hand("smartt", 2)
    run(match, Adjust(1, -6), "0-0", Play("0-1", at="left"))
    return match


def blocked() -> object:
    """American, two players: 5-5 set, P1 draws all 14 and passes, P0 passes. Open ends show 5."""
    match = new_hand("american", 2)
    run(match, "5-5", Draw(14), Pass(), Pass())
    return match


class TestRemaining:
    """records.md §4: listed tiles unplayed, each once, as many as held; pip totals within what they can weigh."""

    def refused(self, match, remaining, text):
        with pytest.raises(IllegalEventError, match=text):
            match.settle(remaining)
        assert match.current.settlement is None
        assert match.current.needs_settlement

    def test_as_many_tiles_as_held(self):
        self.refused(went_out(), [["6-6"], []], "holds 6 tiles, but 1 is listed")
        self.refused(went_out(), [["6-6", "6-5", "6-4", "6-3", "6-2", "6-1"], ["5-5"]], "holds 0 tiles")

    def test_a_played_tile_either_way_round(self):
        self.refused(went_out(), [["1-0", "6-5", "6-4", "6-3", "6-2", "6-1"], []], "has been played")

    def test_a_tile_listed_twice(self):
        self.refused(went_out(), [["6-5", "5-6", "6-4", "6-3", "6-2", "6-1"], []], "listed twice")

    def test_a_tile_not_in_the_set(self):
        self.refused(went_out(), [["7-5", "6-6", "6-4", "6-3", "6-2", "6-1"], []], "double-six")

    def test_pip_totals_within_bounds(self):
        # The 26 unplayed tiles: the lightest six weigh 2+2+3+3+4+4 = 18, the heaviest 12+11+10+10+9+9 = 61.
        self.refused(went_out(), [17, 0], "can weigh 18 to 61 pips, not 17")
        self.refused(went_out(), [62, 0], "not 62")
        self.refused(went_out(), [18, 1], "seat 1")
        for total, award in ((18, 20), (61, 60)):
            match = went_out()
            match.settle([total, 0])
            assert match.current.end()["award"] == award

    @pytest.mark.parametrize("entry", [True, "18", None, 18.0, {"pips": 18}])
    def test_an_entry_is_a_list_or_a_whole_number(self, entry):
        self.refused(went_out(), [entry, []], "list of tiles or a pip total")

    @pytest.mark.parametrize("remaining", [[20], [20, 0, 0], {"0": 20}, 20, None])
    def test_one_entry_a_seat(self, remaining):
        self.refused(went_out(), remaining, "one entry a seat")

    def test_a_blocked_hand_lists_no_tile_that_fits(self):
        self.refused(blocked(), [["5-1", "6-6", "6-4", "6-3", "6-2", "6-1"], 120], "fits an open end")
        match = blocked()
        match.settle([["0-0", "6-6", "6-4", "6-3", "6-2", "6-1"], 110])
        assert match.current.end() == {"how": "blocked", "debits": [45, 110]}

    def test_only_an_ended_hand_is_settled(self):
        match = new_hand("smartt", 2)
        run(match, "5-5")
        with pytest.raises(IllegalEventError, match="in-progress"):
            match.settle([20, 20])


class TestRemainingInARecord:
    def test_missing_after_going_out(self):
        events = [{"adjust": 1, "count": -6}, {"play": "5-5"}, {"play": "5-3", "at": "left"}]
        rec = record([{"setter": 0, "events": events}])
        with pytest.raises(IllegalRecordError, match=r"^hand 1: .*'remaining'"):
            referee(rec)

    def test_given_while_the_hand_is_in_progress(self):
        rec = record([{"setter": 0, "events": [{"play": "5-5"}], "remaining": [20, 20]}])
        with pytest.raises(IllegalRecordError, match=r"^hand 1: 'remaining' is given, but the hand has not ended"):
            referee(rec)

    def test_an_impossible_entry_names_the_hand(self):
        rec = record(
            [
                {
                    "setter": 0,
                    "events": [{"adjust": 1, "count": -6}, {"play": "5-5"}, {"play": "5-3", "at": "left"}],
                    "remaining": [500, []],
                }
            ]
        )
        with pytest.raises(IllegalRecordError, match=r"^hand 1: seat 0 holds 6 tiles"):
            referee(rec)


class TestSettlingTwice:
    def test_a_settled_hand_is_not_settled_again(self):
        match = went_out()
        match.settle([20, 0])
        with pytest.raises(IllegalEventError):
            match.settle([40, 0])
        assert match.current.end()["award"] == 20


def test_a_count_of_one_tile_is_said_in_the_singular():
    """The refusals count tiles as the table does: "holds 1 tile", never "1 tiles" (issue 18's words)."""
    match = new_hand("smartt", 2)
    run(match, Adjust(1, -6))
    with pytest.raises(IllegalEventError, match=r"seat 1 holds 1 tile and cannot return 2$"):
        match.apply(Adjust(1, -2))
