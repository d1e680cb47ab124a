"""A match: presets and targets, the next setter, winning, game points and Rube (§14), games in a row, undo."""

from __future__ import annotations

import pytest

from scorepad.rules import (
    Adjust,
    Draw,
    IllegalEventError,
    IllegalRecordError,
    Muggins,
    Pass,
    Play,
    RecordFormatError,
    Renege,
    make_ruleset,
    parse_record,
    replay,
    report,
)
from scorepad.rules.settle import game_points_for, is_rubed

from .support import new_hand, new_match, record, referee, run, snapshot


class TestPresets:
    @pytest.mark.parametrize(
        ("name", "players", "options", "target"),
        [
            ("smartt", 2, {}, 250),
            ("smartt", 3, {}, 250),
            ("smartt", 4, {}, 250),
            ("american", 2, {}, 250),
            ("american", 3, {}, 200),
            ("american", 4, {}, 200),
            ("jaques", 2, {}, 61),
            ("jaques", 3, {}, 61),
            ("jaques", 4, {}, 61),
            ("jaques", 4, {"partners": True}, 121),
            ("smartt", 2, {"target": 100}, 100),
            ("jaques", 4, {"partners": True, "target": 61}, 61),
        ],
    )
    def test_targets(self, name, players, options, target):
        assert make_ruleset(name, players, options).target == target

    @pytest.mark.parametrize(
        ("name", "partners", "sides"), [("smartt", True, 2), ("american", True, 2), ("jaques", False, 4)]
    )
    def test_four_players(self, name, partners, sides):
        rules = make_ruleset(name, 4, {})
        assert (rules.partners, rules.sides) == (partners, sides)

    def test_partner_seats_sit_opposite(self):
        rules = make_ruleset("smartt", 4, {})
        assert [rules.side_of(s) for s in range(4)] == [0, 1, 0, 1]
        assert rules.seats_of(0) == (0, 2) and rules.seats_of(1) == (1, 3)

    @pytest.mark.parametrize(
        ("name", "options", "calls", "long_first", "limit", "settlement", "game_points", "renege"),
        [
            ("smartt", {}, True, True, 2, "award", True, "rollback25"),
            ("american", {}, False, True, None, "debit", False, None),
            ("jaques", {}, False, False, None, "award", False, None),
            ("jaques", {"muggins": True}, True, False, None, "award", False, None),
            ("american", {"renege": "deduct50"}, False, True, None, "debit", False, "deduct50"),
        ],
    )
    def test_policies(self, name, options, calls, long_first, limit, settlement, game_points, renege):
        rules = make_ruleset(name, 2, options)
        assert (
            rules.calls_required,
            rules.long_sides_first,
            rules.draw_limit,
            rules.settlement,
            rules.game_points,
            rules.renege,
        ) == (calls, long_first, limit, settlement, game_points, renege)

    def test_partners_need_four(self):
        # records.md §6: an option value the record cannot use is a format fault (exit 2).
        with pytest.raises(RecordFormatError, match="four players"):
            make_ruleset("jaques", 3, {"partners": True})

    @pytest.mark.parametrize(
        ("name", "options"),
        [
            ("snap", {}),
            (None, {}),
            ("Smartt", {}),
            ("smartt", {"colour": "red"}),
            ("smartt", {"target": 0}),
            ("smartt", {"target": True}),
            ("smartt", {"target": "250"}),
            ("smartt", {"muggins": 1}),
            ("smartt", {"set": "double-twelve"}),
            ("smartt", {"renege": "flog"}),
            ("smartt", {"sniff": "no"}),
            ("smartt", []),
            ("smartt", "muggins"),
        ],
    )
    def test_unknown_rules_option_or_value(self, name, options):
        with pytest.raises(RecordFormatError):
            make_ruleset(name, 2, options)


def stop(match) -> None:
    """End the current hand the short way: a set, then a proved renege (smartt's rollback25)."""
    run(match, "3-6", Renege(match.current.setter))


class TestNextSetter:
    def test_the_first_setter_is_named(self):
        assert new_match().next_setter().default is None
        with pytest.raises(IllegalRecordError, match=r"^hand 1: the first hand must name its setter"):
            referee(record([{"events": [{"play": "5-5"}]}]))

    @pytest.mark.parametrize(
        ("players", "first", "order"), [(2, 1, [1, 0, 1, 0]), (3, 2, [2, 0, 1, 2]), (4, 1, [1, 2, 3, 0, 1])]
    )
    def test_smartt_rotates_clockwise(self, players, first, order):
        match = new_match("smartt", players)
        match.start_hand(first)
        stop(match)
        for seat in order[1:]:
            assert match.next_setter().default == seat
            hand = match.start_hand()
            assert hand.setter == seat
            stop(match)

    def test_smartt_refuses_another_setter(self):
        match = new_match("smartt", 3)
        match.start_hand(0)
        stop(match)
        with pytest.raises(IllegalEventError, match="should be seat 1, not seat 2"):
            match.start_hand(2)
        assert len(match.hands) == 1

    def test_smartt_keeps_rotating_into_the_next_game(self):
        # Target 10: each hand's set of 5-5 wins a game at once; the set still moves on.
        match = new_match("smartt", 2, target=10)
        match.start_hand(0)
        run(match, "5-5")
        hand = match.start_hand()
        assert (hand.setter, hand.game, hand.scores_before) == (1, 2, (0, 0))

    def test_american_whoever_went_out(self):
        match = new_hand("american", 3)
        run(match, Adjust(2, -5), "5-5", Play("5-3", at="left"), Play("5-2", at="right"))
        match.settle([20, 30, []])
        assert match.next_setter().default == 2
        with pytest.raises(IllegalEventError, match="should be seat 2"):
            match.start_hand(0)

    def test_american_after_a_block_the_record_names_it(self):
        rec = record(
            [
                {
                    "setter": 0,
                    "events": [{"play": "5-5"}, {"draw": 14}, {"pass": True}, {"pass": True}],
                    "remaining": [22, 120],
                },
                {"events": [{"play": "3-6"}]},
            ],
            rules="american",
        )
        with pytest.raises(IllegalRecordError, match=r"^hand 2: the setter must be named"):
            referee(rec)
        for seat in (0, 1):
            rec["hands"][1]["setter"] = seat
            assert referee(rec)["hands"][1]["setter"] == seat

    def test_american_going_out_on_the_winning_tile_leads_the_next_game(self):
        # Target 15: 6-6 set (12); P1's last tile 6-3 makes 3 + 12 = 15, wins the game and goes out.
        match = new_hand("american", 2, target=15)
        run(match, Adjust(1, -6), "6-6", Play("6-3", at="left"))
        assert match.current.end() == {"how": "won"}
        assert match.next_setter().default == 1

    def test_american_a_win_without_going_out_is_named(self):
        match = new_hand("american", 2, target=10)
        run(match, "5-5")
        assert match.next_setter().default is None
        assert match.start_hand(1).setter == 1

    def test_jaques_whoever_went_out(self):
        match = new_hand("jaques", 2)
        run(match, Adjust(1, -6), "5-5", Play("5-3", at="left"))
        match.settle([20, []])
        assert match.next_setter().default == 1

    def test_jaques_the_lowest_in_a_block(self):
        match = new_hand("jaques", 3)
        run(match, "5-5", Draw(13), Pass(), Pass(), Pass())
        match.settle([40, 120, 20])
        nxt = match.next_setter()
        assert (nxt.default, nxt.allowed) == (2, frozenset({2}))

    def test_jaques_a_tied_block_is_named(self):
        match = new_hand("jaques", 3)
        run(match, "5-5", Draw(13), Pass(), Pass(), Pass())
        match.settle([20, 120, 20])
        assert match.next_setter().default is None
        assert match.start_hand(1).setter == 1

    def test_jaques_partners_block_either_seat_of_the_winning_side(self):
        match = new_hand("jaques", 4, partners=True)
        run(match, "5-5", Draw(8), Pass(), Pass(), Pass(), Pass())
        match.settle([10, 60, 12, 40])
        nxt = match.next_setter()
        assert (nxt.default, nxt.allowed) == (None, frozenset({0, 2}))
        with pytest.raises(IllegalEventError, match="seat 0 or seat 2"):
            match.start_hand(1)
        with pytest.raises(IllegalEventError, match="must be named"):
            match.start_hand()
        assert match.start_hand(2).setter == 2

    def test_jaques_the_seat_whose_score_won_the_game(self):
        match = new_hand("jaques", 2, muggins=True, target=20)
        run(match, "5-5", Play("5-0", at="left", call=0), Muggins(0))
        assert match.next_setter().default == 0

    def test_jaques_a_win_by_claim_on_the_last_tile_leads_from_the_claimant(self):
        # P1 goes out with 5-0 (10) uncalled; P0's muggins claim takes P0 from 10 to 20 = the target.
        match = new_hand("jaques", 2, muggins=True, target=20)
        run(match, Adjust(1, -6), "5-5", Play("5-0", at="left", call=0), Muggins(0))
        assert match.current.end() == {"how": "won"}
        assert [g.winner for g in match.games()] == [0]
        assert match.next_setter().default == 0

    def test_american_after_a_renege_by_the_other_side_whoever_went_out_leads(self):
        match = new_hand("american", 2, renege="rollback25")
        run(match, Adjust(1, -6), "5-5", Play("5-3", at="left"), Renege(0))
        assert match.next_setter().default == 1
        with pytest.raises(IllegalEventError, match="seat 1"):
            match.start_hand(0)

    def test_american_after_a_renege_by_the_side_that_went_out_the_players_choose(self):
        match = new_hand("american", 2, renege="rollback25")
        run(match, Adjust(1, -6), "5-5", Play("5-3", at="left"), Renege(1))
        assert match.next_setter().default is None
        assert match.start_hand(0).setter == 0

    # records.md §5 (amended 2026-12-01): after a rollback25 renege, jaques' hand winner of another
    # side keeps the lead; otherwise the record names the setter.
    def test_jaques_after_a_renege_by_the_other_side_the_winner_keeps_the_lead(self):
        match = new_hand("jaques", 2, setter=1, renege="rollback25", target=10)
        run(match, "5-5")  # P1's set scores 10 and wins the game at once
        assert match.current.end() == {"how": "won"}
        run(match, Renege(0))
        assert match.next_setter().default == 1

    def test_jaques_after_a_renege_by_the_winning_side_the_players_choose(self):
        match = new_hand("jaques", 2, renege="rollback25", target=10)
        run(match, "5-5", Renege(0))
        assert match.current.end() == {"how": "renege", "by": 0}
        assert match.next_setter().default is None
        assert match.start_hand(1).setter == 1


class TestGamePoints:
    """Smartt §14: game points by the loser's final score; below 0 counts as 0-25; Rubed at 150 or less."""

    @pytest.mark.parametrize(
        ("score", "points"),
        [
            (-50, 14),
            (-5, 14),
            (0, 14),
            (25, 14),
            (30, 12),
            (75, 12),
            (80, 10),
            (125, 10),
            (130, 8),
            (150, 8),
            (155, 4),
            (175, 4),
            (180, 3),
            (225, 3),
            (230, 2),
            (245, 2),
            (250, 2),
        ],
    )
    def test_bands(self, score, points):
        assert game_points_for(score) == points

    @pytest.mark.parametrize(("score", "rubed"), [(-25, True), (0, True), (150, True), (155, False), (245, False)])
    def test_rube(self, score, rubed):
        assert is_rubed(score) is rubed

    def test_three_players_add_both_losers(self):
        # Target 10: P1's 5-5 set wins at once; both losers on 0: 14 + 14.
        out = referee(record([{"setter": 1, "events": [{"play": "5-5"}]}], players=3, options={"target": 10}))
        assert out["games"] == [{"number": 1, "winner": 1, "scores": [0, 10, 0], "game_points": 28, "rubed": [0, 2]}]

    def test_partners_one_losing_side(self):
        out = referee(record([{"setter": 3, "events": [{"play": "4-6"}]}], players=4, options={"target": 10}))
        assert out["games"] == [{"number": 1, "winner": 1, "scores": [0, 10], "game_points": 14, "rubed": [0]}]

    @pytest.mark.parametrize("name", ["american", "jaques"])
    def test_not_outside_smartt(self, name):
        out = referee(record([{"setter": 0, "events": [{"play": "5-5"}]}], rules=name, options={"target": 10}))
        assert out["games"] == [{"number": 1, "winner": 0, "scores": [10, 0]}]


class TestWinning:
    def test_the_target_reached_mid_hand_ends_it_at_once(self):
        match = new_hand("smartt", 2, target=20)
        run(match, "5-5", Play("5-1", at="left"), Play("5-4", at="right", call=20))
        assert match.current.end() == {"how": "won"}
        for event in (Play("5-2", at="up"), Draw(1), Pass(), Muggins(1)):
            with pytest.raises(IllegalEventError):
                match.apply(event)
        with pytest.raises(IllegalEventError, match="only a hand that ended by going out or a block"):
            match.settle([0, 0])

    def test_reaching_the_target_through_a_settlement_keeps_the_end(self):
        # Target 30: P1 (one tile) goes out with 5-3 (no score); P0's 23 pips round to 25 for P1.
        match = new_hand("smartt", 2, target=25)
        run(match, Adjust(1, -6), "5-5", Play("5-3", at="left"))
        match.settle([23, []])
        assert match.current.end() == {"how": "out", "by": 1, "award": 25, "to": 1}
        assert [g.to_dict() for g in match.games()] == [
            {"number": 1, "winner": 1, "scores": [10, 25], "game_points": 14, "rubed": [0]}
        ]
        assert match.scores == [0, 0]
        assert match.game == 2

    def test_a_miscalled_score_that_stands_can_win(self):
        match = new_hand("smartt", 2, target=40)
        run(match, "5-5", Play("5-1", at="left", call=40))
        assert match.current.end() == {"how": "won"}
        assert match.games()[0].scores == (10, 40)


class TestGamesInARow:
    def test_scores_reset_and_games_are_numbered(self):
        rec = record(
            [
                {"setter": 0, "events": [{"play": "5-5"}]},
                {"events": [{"play": "4-6"}]},
                {"events": [{"play": "3-6"}]},
            ],
            options={"target": 10},
        )
        out = referee(rec)
        assert [(h["game"], h["setter"], h["scores_before"], h["scores_after"]) for h in out["hands"]] == [
            (1, 0, [0, 0], [10, 0]),
            (2, 1, [0, 0], [0, 10]),
            (3, 0, [0, 0], [9 - 9, 0]),
        ]
        assert out["games"] == [
            {"number": 1, "winner": 0, "scores": [10, 0], "game_points": 14, "rubed": [1]},
            {"number": 2, "winner": 1, "scores": [0, 10], "game_points": 14, "rubed": [0]},
        ]
        assert out["hands"][2]["end"] == {"how": "in-progress"}

    def test_only_the_last_hand_may_be_in_progress(self):
        rec = record([{"setter": 0, "events": [{"play": "3-6"}]}, {"setter": 1, "events": []}])
        with pytest.raises(IllegalRecordError, match=r"^hand 1: the hand has not ended"):
            referee(rec)

    def test_a_hand_must_be_settled_before_the_next(self):
        match = new_hand("smartt", 2)
        run(match, Adjust(1, -6), "5-5", Play("5-3", at="left"))
        with pytest.raises(IllegalEventError, match="must be settled"):
            match.start_hand()


class TestUndo:
    def test_undo_takes_back_the_last_event(self):
        match = new_hand("smartt", 2)
        run(match, "5-5")
        before = snapshot(match)
        run(match, Play("5-0", at="left"))
        assert match.undo() == "event 2 of hand 1"
        assert snapshot(match) == before

    def test_then_the_settlement_then_the_hand(self):
        match = new_hand("smartt", 2)
        run(match, Adjust(1, -6), "5-5", Play("5-3", at="left"))
        match.settle([23, []])
        assert match.undo() == "the settlement of hand 1"
        assert match.current.needs_settlement
        for _ in range(3):
            match.undo()
        assert match.undo() == "the start of hand 1"
        assert match.hands == []
        with pytest.raises(IllegalEventError, match="nothing to undo"):
            match.undo()


class TestExport:
    def test_a_record_replays_to_the_same_report(self):
        match = new_hand("jaques", 2, muggins=True)
        run(match, "5-5", Play("5-0", at="left", call=0), Muggins(0), Draw(3), Play("5-6", at="right", call=5))
        assert referee(match.to_record()) == report(match)

    def test_a_hand_awaiting_its_settlement_is_refused_until_settled(self):
        # records.md §4: a hand that ended by going out needs 'remaining', so the record of a
        # match caught between the last tile and its settlement does not replay yet.
        match = new_hand("smartt", 2)
        run(match, Adjust(1, -6), "5-5", Play("5-3", at="left"))
        with pytest.raises(IllegalRecordError, match=r"^hand 1: .*'remaining'"):
            replay(parse_record(match.to_record()))
        match.settle([30, []])
        assert referee(match.to_record()) == report(match)


class TestReportIsASnapshot:
    def test_an_earlier_report_does_not_change(self):
        match = new_hand("smartt", 2)
        run(match, "5-5")
        earlier = report(match)
        run(match, Play("5-0", at="left"))
        assert len(earlier["hands"][0]["events"]) == 1
