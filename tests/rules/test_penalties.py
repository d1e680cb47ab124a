"""Renege (Smartt §11.1, both penalties), the void hand (§11.3) and dealing adjustments (§11.4)."""

from __future__ import annotations

import pytest

from scorepad.rules import Adjust, Draw, IllegalEventError, IllegalRecordError, Pass, Play, Renege, Void
from scorepad.rules.hand import HandState
from scorepad.rules.rulesets import make_ruleset

from .support import new_hand, plain, record, referee, run, snapshot


def refused(match, event, text=None):
    before = snapshot(match)
    with pytest.raises(IllegalEventError, match=text):
        match.apply(event)
    assert snapshot(match) == before


class TestRollback25:
    """The hand stops; the offender's side goes back to its start-of-hand score less 25; others keep theirs."""

    def test_the_offender_loses_the_hands_points_and_25(self):
        rec = record(
            [
                # Hand 1: P0 sets 5-5 (10), P1 5-0 left (10); P0's renege: P0 0 - 25, P1 keeps 10.
                {"setter": 0, "events": [{"play": "5-5"}, {"play": "5-0", "at": "left"}, {"renege": 0}]},
                # Hand 2: P1 sets 4-6 (10, now 20); P0 6-1 on the right: 4 + 1 = 5 (-20); P1's renege: 10 - 25.
                {"setter": 1, "events": [{"play": "4-6"}, {"play": "6-1", "at": "right"}, {"renege": 1}]},
            ]
        )
        out = referee(rec)
        assert [h["scores_before"] for h in out["hands"]] == [[0, 0], [-25, 10]]
        assert [h["scores_after"] for h in out["hands"]] == [[-25, 10], [-20, -15]]
        assert [h["end"] for h in out["hands"]] == [{"how": "renege", "by": 0}, {"how": "renege", "by": 1}]
        assert out["hands"][0]["events"][-1] == {"event": "renege", "player": 0}

    def test_partners_share_the_penalty(self):
        match = new_hand("smartt", 4)
        run(match, "5-5", Play("5-0", at="left"), Renege(2))
        assert plain(match.current.scores_after) == [-25, 10]

    def test_the_hand_stops(self):
        match = new_hand("smartt", 2)
        run(match, "5-5", Renege(1))
        refused(match, Play("5-3", at="left"), "renege")
        refused(match, Draw(1))
        refused(match, Renege(0), "already stopped")
        refused(match, Void())

    def test_after_going_out_there_is_no_award(self):
        rec = record(
            [
                {
                    "setter": 0,
                    "events": [
                        {"adjust": 1, "count": -6},
                        {"play": "5-5"},
                        {"play": "5-0", "at": "left"},
                        {"renege": 0},
                    ],
                }
            ]
        )
        [hand] = referee(rec)["hands"]
        assert hand["end"] == {"how": "renege", "by": 0}
        assert hand["scores_after"] == [-25, 10]

    def test_after_the_winning_play_it_undoes_the_win(self):
        # Target 10: the 5-5 set wins at once; P0's renege is proved after it.
        rec = record(
            [{"setter": 0, "events": [{"play": "5-5"}, {"renege": 0}]}, {"setter": 1, "events": [{"play": "3-6"}]}],
            options={"target": 10},
        )
        out = referee(rec)
        assert out["hands"][0]["end"] == {"how": "renege", "by": 0}
        assert out["games"] == []
        assert (out["hands"][1]["game"], out["hands"][1]["scores_before"]) == (1, [-25, 0])

    def test_by_the_loser_after_the_winning_play_the_win_stands(self):
        rec = record(
            [{"setter": 0, "events": [{"play": "5-5"}, {"renege": 1}]}, {"setter": 1, "events": [{"play": "3-6"}]}],
            options={"target": 10},
        )
        out = referee(rec)
        assert out["games"] == [{"number": 1, "winner": 0, "scores": [10, -25], "game_points": 14, "rubed": [1]}]
        assert (out["hands"][1]["game"], out["hands"][1]["scores_before"]) == (2, [0, 0])

    def test_not_before_the_set(self):
        match = new_hand("smartt", 2)
        refused(match, Renege(1), "nothing has been played")

    def test_no_such_seat(self):
        match = new_hand("smartt", 2)
        run(match, "5-5")
        refused(match, Renege(2), "no seat 2")
        refused(match, Renege(-1), "no seat -1")

    @pytest.mark.parametrize("name", ["american", "jaques"])
    def test_refused_without_the_option(self, name):
        match = new_hand(name, 2)
        run(match, "5-5")
        refused(match, Renege(1), "set the renege option")

    @pytest.mark.parametrize("name", ["american", "jaques"])
    def test_with_the_option(self, name):
        match = new_hand(name, 2, renege="rollback25")
        run(match, "5-5", Renege(0))
        assert plain(match.current.scores_after) == [-25, 0]


class TestDeduct50:
    """By agreement (Smartt §11.1): play on; 50 comes off the offender's side after the hand's settlement."""

    def test_play_goes_on_and_50_comes_off_after_the_award(self):
        # P1 kept two tiles. 5-5 (P0 10); 5-0 left (P1 10); P1's renege; 5-2 right: 0 + 2 + 10 = 12;
        # P1 goes out with 5-3 up: 0 + 2 + 3 + 5 = 10 (P1 20). P0's 30 pips are P1's award: 50, less 50.
        match = new_hand("smartt", 2, renege="deduct50")
        run(match, Adjust(1, -5), "5-5", Play("5-0", at="left"), Renege(1), Play("5-2", at="right"))
        assert plain(match.current.scores_after) == [10, 10]
        run(match, Play("5-3", at="up"))
        assert match.current.end() == {"how": "out", "by": 1}
        match.settle([30, []])
        assert match.current.end() == {"how": "out", "by": 1, "award": 30, "to": 1}
        assert plain(match.current.scores_after) == [10, 0]

    def test_a_win_below_the_target_after_its_50_is_no_win_and_play_goes_on(self):
        # records.md §5 (amended 2026-12-01): the target is checked only after the 50 comes off.
        # 5-5 takes Ann to the target of 10; her renege is proved: 10 - 50 < 10, so no win.
        rec = record(
            [{"setter": 0, "events": [{"play": "5-5"}, {"renege": 0}, {"play": "5-1", "at": "left"}]}],
            options={"target": 10, "renege": "deduct50"},
        )
        out = referee(rec)
        assert out["hands"][0]["end"] == {"how": "in-progress"}
        assert out["hands"][0]["events"][2]["player"] == 1  # the hand goes on with Bob's turn
        assert out["games"] == []

    @staticmethod
    def _hand(scores_before: list[int], setter: int = 0) -> HandState:
        """A smartt 2p hand under deduct50 to a target of 60, from the given scores."""
        rules = make_ruleset("smartt", 2, {"renege": "deduct50", "target": 60})
        return HandState(rules, setter=setter, scores_before=scores_before)

    def test_a_win_that_holds_the_target_after_its_50_stands(self):
        hand = self._hand([100, 0])
        hand.apply(Play("5-5"))  # Ann 110 of 60
        assert hand.end() == {"how": "won"}
        hand.apply(Renege(0))  # 110 - 50 = 60: still the target
        assert hand.end() == {"how": "won"}
        assert plain(hand.scores_after) == [60, 0]
        assert hand.winner() == 0

    def test_a_pending_50_keeps_a_side_from_winning(self):
        hand = self._hand([55, 0], setter=1)
        hand.apply(Play("0-0"))
        hand.apply(Renege(0))  # Ann's renege proved: 50 to come off at the hand's end
        hand.apply(Play("0-5", at="left"))  # left 5 + Sniff 0 = 5: Ann 60, but 60 - 50 is below 60
        assert hand.how == "in-progress" and hand.winner() is None
        assert hand.turn == 1  # play goes on

    def test_a_going_out_win_undone_by_the_50_awaits_its_settlement(self):
        hand = self._hand([0, 50])
        hand.apply(Adjust(1, -6))  # Bob holds one tile
        hand.apply(Play("5-5"))  # Ann 10
        hand.apply(Play("5-0", at="left"))  # left 0 + Sniff 10 = 10: Bob 60 and out
        assert hand.end() == {"how": "won"}
        hand.apply(Renege(1))  # 60 - 50 < 60: not won; the hand is out and is settled
        assert hand.end() == {"how": "out", "by": 1}
        hand.settle([12, []])  # Bob's award: 12 rounds to 10
        assert plain(hand.scores_after) == [10, 60 + 10 - 50]
        assert hand.winner() is None

    def test_american_with_deduct50_debits_first(self):
        match = new_hand("american", 2, renege="deduct50")
        run(match, "5-5", Renege(0), Draw(14), Pass(), Pass())
        match.settle([22, 120])
        assert plain(match.current.scores_after) == [10 - 20 - 50, -120]

    def test_two_reneges_two_deductions(self):
        match = new_hand("smartt", 3, renege="deduct50")
        run(match, "5-5", Renege(1), Renege(1), Void())
        # A void puts every score back, deductions included.
        assert plain(match.current.scores_after) == [0, 0, 0]


class TestVoid:
    """Smartt §11.3: the hand is thrown in; every side back to its start-of-hand score; the same setter again."""

    def test_scores_go_back_and_the_same_setter_sets(self):
        rec = record(
            [
                {"setter": 1, "events": [{"play": "4-6"}, {"play": "6-1", "at": "right"}]},
                {"setter": 0, "events": [{"play": "5-5"}, {"play": "5-0", "at": "left"}, {"void": True}]},
                {"events": [{"play": "3-6"}]},
            ]
        )
        with pytest.raises(IllegalRecordError, match="hand 1: the hand has not ended"):
            referee(rec)
        rec["hands"][0]["events"].append({"renege": 0})
        out = referee(rec)
        hand2, hand3 = out["hands"][1], out["hands"][2]
        assert hand2["end"] == {"how": "void"}
        assert hand2["scores_before"] == hand2["scores_after"] == [-25, 10]
        assert hand3["setter"] == 0
        assert hand2["events"][-1] == {"event": "void"}

    @pytest.mark.parametrize(("name", "players"), [("smartt", 3), ("american", 2), ("jaques", 4)])
    def test_any_other_setter_is_refused(self, name, players):
        rec = record(
            [{"setter": 1, "events": [{"play": "5-5"}, {"void": True}]}, {"setter": 0, "events": [{"play": "3-6"}]}],
            rules=name,
            players=players,
        )
        with pytest.raises(IllegalRecordError, match=r"^hand 2: the setter should be seat 1, not seat 0"):
            referee(rec)

    def test_not_before_the_set(self):
        match = new_hand("smartt", 2)
        refused(
            match,
            Void(),
            "^nothing has been played yet, so there is no hand to throw in: before the set only a misdeal",
        )
        with pytest.raises(IllegalEventError) as err:
            match.apply(Void())
        assert "adjust" not in str(err.value)  # the record's word is never on screen

    def test_not_after_going_out(self):
        match = new_hand("smartt", 2)
        run(match, Adjust(1, -6), "5-5", Play("5-3", at="left"))
        refused(match, Void(), "can no longer be thrown in")


class TestAdjust:
    """Smartt §11.4: tiles moved between boneyard and hand outside the turn order."""

    def test_an_overdraw_before_the_set(self):
        match = new_hand("smartt", 2)
        [out] = run(match, Adjust(0, 1))
        assert out == {"event": "adjust", "player": 0, "count": 1}
        hand = match.current
        assert (hand.tiles_held, hand.boneyard, hand.turn) == ([8, 7], 13, 0)

    def test_an_underdraw_made_good_later(self):
        match = new_hand("smartt", 2)
        run(match, Adjust(1, -1), "5-5", Play("5-3", at="left"), Adjust(1, 1))
        hand = match.current
        assert (hand.tiles_held, hand.boneyard, hand.turn) == ([6, 6], 14, 0)

    def test_it_may_take_protected_tiles(self):
        match = new_hand("smartt", 2)
        run(match, Adjust(0, 14))
        assert match.current.boneyard == 0

    def test_limits(self):
        match = new_hand("smartt", 2)
        refused(match, Adjust(0, 15), "boneyard holds 14")
        refused(match, Adjust(0, -8), "cannot return 8")
        refused(match, Adjust(2, 1), "no seat 2")


class TestRenegeAfterTheLastPlay:
    """records.md §4: a renege may be proved after the hand's last play, before the next hand."""

    def test_rollback_after_a_block_pays_no_award(self):
        rec = record(
            [{"setter": 0, "events": [{"play": "5-5"}, {"draw": 14}, {"pass": True}, {"pass": True}, {"renege": 1}]}],
            rules="american",
            options={"renege": "rollback25"},
        )
        [hand] = referee(rec)["hands"]
        assert hand["end"] == {"how": "renege", "by": 1}
        assert hand["scores_after"] == [10, -25]

    def test_deduct50_after_a_block_comes_after_the_debits(self):
        rec = record(
            [
                {
                    "setter": 0,
                    "events": [{"play": "5-5"}, {"draw": 14}, {"pass": True}, {"pass": True}, {"renege": 0}],
                    "remaining": [22, 120],
                }
            ],
            rules="american",
            options={"renege": "deduct50"},
        )
        [hand] = referee(rec)["hands"]
        assert hand["end"] == {"how": "blocked", "debits": [20, 120]}
        assert hand["scores_after"] == [10 - 20 - 50, -120]
