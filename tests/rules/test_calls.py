"""Play scores and calls (Smartt §7.2, records.md §5): which score stands, the flags, and muggins claims."""

from __future__ import annotations

import pytest

from scorepad.rules import IllegalEventError, Muggins, Play, report

from .support import new_hand, plain, record, referee, run


def after_set_5_5(name: str = "smartt", **options):
    """P0 sets the 5-5 (scores 10); P1 is to play, and 5-0 on the left makes 0 + 10 = 10."""
    match = new_hand(name, 2, **options)
    run(match, "5-5")
    return match


class TestTheSet:
    @pytest.mark.parametrize("name", ["smartt", "american", "jaques"])
    def test_scores_its_count_without_a_call(self, name):
        match = new_hand(name, 2)
        [out] = run(match, "5-5")
        assert out == {
            "event": "play",
            "player": 0,
            "tile": "5-5",
            "at": "set",
            "board_count": 10,
            "score": 10,
            "flags": [],
        }
        assert plain(match.current.scores) == [10, 0]

    @pytest.mark.parametrize("call", [0, 5, 20])
    def test_is_never_flagged_whatever_was_called(self, call):
        match = new_hand("smartt", 2, muggins=True)
        [out] = run(match, Play("4-6", call=call))
        assert (out["score"], out["flags"]) == (10, [])
        with pytest.raises(IllegalEventError):
            match.apply(Muggins(1))

    def test_a_set_that_does_not_score(self):
        match = new_hand()
        [out] = run(match, "3-6")
        assert (out["board_count"], out["score"], out["flags"]) == (9, 0, [])


class TestCallsRequired:
    """Smartt: an uncorrected call stands as called, even when wrong; a fix records the right score."""

    @pytest.mark.parametrize(
        ("call", "fix", "score", "flags"),
        [
            (None, False, 10, []),
            (10, False, 10, []),
            (0, False, 0, ["missed"]),
            (15, False, 15, ["overcall"]),
            (5, False, 5, ["undercall"]),
            (15, True, 10, ["overcall", "corrected"]),
            (5, True, 10, ["undercall", "corrected"]),
            (0, True, 10, ["missed", "corrected"]),
            (10, True, 10, []),
        ],
    )
    def test_a_scoring_play(self, call, fix, score, flags):
        match = after_set_5_5()
        [out] = run(match, Play("5-0", at="left", call=call, fix=fix))
        assert out["board_count"] == 10
        assert (out["score"], out["flags"]) == (score, flags)
        assert plain(match.current.scores) == [10, score]

    @pytest.mark.parametrize(
        ("call", "fix", "score", "flags"),
        [
            (None, False, 0, []),
            (0, False, 0, []),
            (10, False, 10, ["nonexistent"]),
            (10, True, 0, ["nonexistent", "corrected"]),
        ],
    )
    def test_a_play_with_nothing_to_score(self, call, fix, score, flags):
        # 5-1 on the left: 1 + 10 = 11, no score.
        match = after_set_5_5()
        [out] = run(match, Play("5-1", at="left", call=call, fix=fix))
        assert out["board_count"] == 11
        assert (out["score"], out["flags"]) == (score, flags)

    def test_muggins_makes_jaques_calls_stand(self):
        match = after_set_5_5("jaques", muggins=True)
        [out] = run(match, Play("5-0", at="left", call=15))
        assert (out["score"], out["flags"]) == (15, ["overcall"])


class TestCallsNotRequired:
    """American, and Jaques without muggins: every placement scores its count; a call is only checked."""

    @pytest.mark.parametrize("name", ["american", "jaques"])
    @pytest.mark.parametrize(
        ("tile", "call", "count", "flags"),
        [
            ("5-0", None, 10, []),
            ("5-0", 0, 10, ["missed"]),
            ("5-0", 15, 10, ["overcall"]),
            ("5-0", 5, 10, ["undercall"]),
            ("5-1", 10, 0, ["nonexistent"]),
        ],
    )
    def test_the_count_scores_itself(self, name, tile, call, count, flags):
        match = after_set_5_5(name)
        [out] = run(match, Play(tile, at="left", call=call))
        assert (out["score"], out["flags"]) == (count, flags)
        assert plain(match.current.scores) == [10, count]

    def test_no_muggins_without_the_option(self):
        match = after_set_5_5("jaques")
        run(match, Play("5-0", at="left", call=0))
        with pytest.raises(IllegalEventError, match="muggins"):
            match.apply(Muggins(0))


class TestMuggins:
    """Jaques 'Variations: Muggins' (R5): a score not called at all, claimed by an opponent, straight after."""

    def test_an_opponent_claims_the_full_count(self):
        match = after_set_5_5("jaques", muggins=True)
        run(match, Play("5-0", at="left", call=0))
        assert match.apply(Muggins(0)) == {"event": "muggins", "player": 0, "score": 10}
        assert plain(match.current.scores) == [20, 0]

    def test_smartt_with_the_muggins_option(self):
        match = after_set_5_5("smartt", muggins=True)
        run(match, Play("5-0", at="left", call=0), Muggins(0))
        assert plain(match.current.scores) == [20, 0]

    def test_not_by_the_player_himself(self):
        match = after_set_5_5("jaques", muggins=True)
        run(match, Play("5-0", at="left", call=0))
        with pytest.raises(IllegalEventError, match="own side"):
            match.apply(Muggins(1))

    def test_not_by_a_partner(self):
        match = new_hand("jaques", 4, partners=True, muggins=True)
        run(match, "5-5", Play("5-0", at="left", call=0))
        with pytest.raises(IllegalEventError, match="own side"):
            match.apply(Muggins(3))
        run(match, Muggins(2))
        assert plain(match.current.scores) == [20, 0]

    def test_each_for_himself_any_other_seat(self):
        match = new_hand("jaques", 4, muggins=True)
        run(match, "5-5", Play("5-0", at="left", call=0), Muggins(3))
        assert plain(match.current.scores) == [10, 0, 0, 10]

    @pytest.mark.parametrize(("call", "fix"), [(5, False), (15, False), (0, True), (None, False), (10, False)])
    def test_only_a_score_not_called_at_all(self, call, fix):
        match = after_set_5_5("jaques", muggins=True)
        run(match, Play("5-0", at="left", call=call, fix=fix))
        with pytest.raises(IllegalEventError, match="nothing to claim"):
            match.apply(Muggins(0))

    def test_not_when_nothing_scored(self):
        match = after_set_5_5("jaques", muggins=True)
        run(match, Play("5-1", at="left", call=0))
        with pytest.raises(IllegalEventError, match="nothing to claim"):
            match.apply(Muggins(0))

    def test_not_after_the_next_player_acts(self):
        match = after_set_5_5("jaques", muggins=True)
        run(match, Play("5-0", at="left", call=0), Play("5-2", at="right"))
        with pytest.raises(IllegalEventError, match="nothing to claim"):
            match.apply(Muggins(0))

    def test_not_after_the_next_player_draws(self):
        match = after_set_5_5("jaques", muggins=True)
        run(match, Play("5-0", at="left", call=0), {"draw": 1})
        with pytest.raises(IllegalEventError):
            match.apply(Muggins(0))

    def test_only_once(self):
        match = after_set_5_5("jaques", muggins=True)
        run(match, Play("5-0", at="left", call=0), Muggins(0))
        with pytest.raises(IllegalEventError):
            match.apply(Muggins(0))
        assert plain(match.current.scores) == [20, 0]

    def test_no_seat_beyond_the_table(self):
        match = after_set_5_5("jaques", muggins=True)
        run(match, Play("5-0", at="left", call=0))
        with pytest.raises(IllegalEventError, match="no seat 2"):
            match.apply(Muggins(2))

    def test_a_claim_that_reaches_the_target_wins_at_once(self):
        match = after_set_5_5("jaques", muggins=True, target=20)
        run(match, Play("5-0", at="left", call=0), Muggins(0))
        assert match.current.end() == {"how": "won"}
        assert [g.to_dict() for g in match.games()] == [{"number": 1, "winner": 0, "scores": [20, 0]}]

    def test_a_claim_on_the_last_tile_comes_before_the_settlement(self):
        # P1 holds two tiles (5 returned at the deal). 5-5 (P0 10); 5-0 left, 10 uncalled; 5-2 right:
        # 0 + 2 + 10 = 12; P1 goes out with 5-3 up: 0 + 2 + 3 + 5 = 10, uncalled; P0 claims it.
        # P0 still holds 6-6 6-5 6-4 6-3 6-2 = 50 pips, paid to P1.
        rec = record(
            [
                {
                    "setter": 0,
                    "events": [
                        {"adjust": 1, "count": -5},
                        {"play": "5-5"},
                        {"play": "5-0", "at": "left", "call": 0},
                        {"play": "5-2", "at": "right"},
                        {"play": "5-3", "at": "up", "call": 0},
                        {"muggins": 0},
                    ],
                    "remaining": [["6-6", "6-5", "6-4", "6-3", "6-2"], []],
                }
            ],
            rules="jaques",
            options={"muggins": True},
        )
        out = referee(rec)
        [hand] = out["hands"]
        assert hand["events"][-1] == {"event": "muggins", "player": 0, "score": 10}
        assert hand["end"] == {"how": "out", "by": 1, "award": 50, "to": 1}
        assert hand["scores_after"] == [20, 50]

    def test_report_lists_the_claim(self):
        match = after_set_5_5("jaques", muggins=True)
        run(match, Play("5-0", at="left", call=0), Muggins(0))
        events = report(match)["hands"][0]["events"]
        assert [e["event"] for e in events] == ["play", "play", "muggins"]
        assert events[1]["flags"] == ["missed"] and events[1]["score"] == 0
