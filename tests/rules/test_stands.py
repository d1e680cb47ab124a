"""An illegal coupling that stood (records.md §4, amended 2026-12-01; Smartt §11.5; Jaques 'The fine points')."""

from __future__ import annotations

import pytest

from scorepad.rules import IllegalEventError, IllegalRecordError, Muggins, Play, event_from_dict, parse_record, replay

from .support import new_hand, plain, record, referee, run, snapshot


class TestReading:
    def test_stands_round_trips(self):
        event = event_from_dict({"play": "6-2", "at": "right", "stands": True})
        assert event == Play("6-2", at="right", stands=True)
        assert event.to_dict() == {"play": "6-2", "at": "right", "stands": True}

    @pytest.mark.parametrize("value", [False, None, 1, "true"])
    def test_stands_is_only_ever_true(self, value):
        with pytest.raises(IllegalEventError, match="only ever true"):
            event_from_dict({"play": "6-2", "at": "right", "stands": value})

    def test_at_is_required(self):
        with pytest.raises(IllegalEventError, match="names the open end"):
            event_from_dict({"play": "6-2", "stands": True})


class TestPlay:
    def test_the_first_value_lies_against_the_end_and_the_second_opens(self):
        match = new_hand()
        out = run(match, "5-5", Play("5-3", at="left"), Play("6-2", at="right", stands=True))
        assert out[-1]["flags"] == ["stood"]
        assert out[-1]["board_count"] == 15  # left 3 + right 2 + Sniff 10 (Smartt §6: long sides covered)
        assert dict(match.current.layout.open_ends()) == {"left": 3, "right": 2, "up": 5, "down": 5}
        # Written the other way round, the 6 becomes the open end.
        match = new_hand()
        run(match, "5-5", Play("5-3", at="left"), Play("2-6", at="right", stands=True))
        assert match.current.layout.open_ends()["right"] == 6

    def test_the_call_is_judged_as_for_any_play(self):
        match = new_hand()
        out = run(match, "5-5", Play("5-3", at="left"), Play("6-2", at="right", stands=True, call=0))
        assert out[-1]["flags"] == ["missed", "stood"]
        assert out[-1]["score"] == 0
        assert plain(match.current.scores) == [10, 0]
        assert match.current.turn == 1

    def test_a_muggins_claim_on_a_stood_tile(self):
        match = new_hand("jaques", 2, muggins=True)
        run(match, "5-5", Play("5-3", at="left"), Play("6-2", at="right", stands=True, call=0))
        out = run(match, Muggins(1))
        assert out[-1]["score"] == 15

    def test_a_stood_double_is_the_sniff_when_it_is_the_first_double(self):
        match = new_hand()
        out = run(match, "3-4", Play("6-6", at="right", stands=True))
        # left 3 + Sniff 6-6 on the right arm, its far long side and both short ends open: 12.
        assert out[-1]["board_count"] == 15
        assert match.current.layout.sniff_value == 6

    @pytest.mark.parametrize(
        ("events", "message"),
        [
            (["5-5", Play("5-3", at="left", stands=True)], "a legal play is not marked 'stands'"),
            (["5-5", Play("6-2", at="up", stands=True)], "not open"),
            ([Play("6-2", at="left", stands=True)], "the set can never stand"),
        ],
    )
    def test_refused(self, events, message):
        match = new_hand()
        *before, last = events
        run(match, *before)
        kept = snapshot(match)
        with pytest.raises(IllegalEventError, match=message):
            run(match, last)
        assert snapshot(match) == kept

    def test_the_set_can_never_stand_in_a_record(self):
        rec = record([{"setter": 0, "events": [{"play": "6-2", "at": "left", "stands": True}]}])
        with pytest.raises(IllegalRecordError, match=r"hand 1 event 1: .*the set can never stand"):
            referee(rec)


class TestRecord:
    def test_export_then_replay_is_identical(self):
        rec = record(
            [
                {
                    "setter": 0,
                    "events": [
                        {"play": "5-5"},
                        {"play": "5-3", "at": "left"},
                        {"play": "6-2", "at": "right", "stands": True},
                        {"play": "3-4", "at": "left"},
                    ],
                }
            ]
        )
        match = replay(parse_record(plain(rec)))
        again = replay(parse_record(match.to_record()))
        assert snapshot(again) == snapshot(match)
        assert match.to_record()["hands"][0]["events"][2] == {"play": "6-2", "at": "right", "stands": True}
