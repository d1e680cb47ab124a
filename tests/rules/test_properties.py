"""Properties of random legal hands over every preset, player count and option (hypothesis)."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from scorepad.rules import MatchState, load_record, parse_record, replay, report

from .support import CONFIGS, Table, hyp, play_match, snapshot

configs = st.sampled_from(CONFIGS)
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def all_reports_scores(out: dict) -> list[int]:
    """Every score, award, debit and side score the referee reported."""
    values: list[int] = []
    for hand in out["hands"]:
        values += hand["scores_before"] + hand["scores_after"]
        for event in hand["events"]:
            if "score" in event:
                values.append(event["score"])
        end = hand["end"]
        values += end.get("debits", [])
        if end.get("award") is not None:
            values.append(end["award"])
    for game in out["games"]:
        values += game["scores"]
    return values


class TestRandomHands:
    @hyp(100)
    @given(configs, seeds)
    def test_every_score_and_award_is_a_multiple_of_5(self, config, seed):
        def check(match: MatchState) -> None:
            assert all(s % 5 == 0 for s in match.current.scores)

        match = play_match(*config, seed, hands=3, on_event=check)
        values = all_reports_scores(report(match))
        assert values and all(v % 5 == 0 for v in values)

    @hyp(100)
    @given(configs, seeds)
    def test_no_play_scores_more_than_35_with_double_six(self, config, seed):
        name, players, options = config
        counts: list[int] = []

        def check(match: MatchState) -> None:
            counts.append(match.current.layout.board_count)

        match = play_match(name, players, {k: v for k, v in options.items() if k != "set"}, seed, on_event=check)
        # Smartt §7.1: 12 + 10 + 8 + 6 = 36 is the largest count, 35 the largest score.
        assert max(counts) <= 36
        for hand in report(match)["hands"]:
            for event in hand["events"]:
                if event["event"] == "play":
                    count = event["board_count"]
                    assert not (count % 5 == 0 and count > 35)
                    if not match.rules.calls_required or event["at"] == "set":
                        assert event["score"] <= 35
                if event["event"] == "muggins":
                    assert event["score"] <= 35

    @hyp(100)
    @given(configs, seeds)
    def test_the_board_count_is_the_sum_of_its_breakdown(self, config, seed):
        def check(match: MatchState) -> None:
            layout = match.current.layout
            assert layout.board_count == sum(points for _, points in layout.breakdown())
            assert all(points >= 0 for _, points in layout.breakdown())

        play_match(*config, seed, on_event=check)

    @hyp(100)
    @given(configs, seeds)
    def test_tiles_are_conserved(self, config, seed):
        def check(match: MatchState, table: Table) -> None:
            hand = match.current
            assert sum(hand.tiles_held) + hand.boneyard + len(hand.layout.placements) == match.rules.set_size
            assert hand.tiles_held == [len(h) for h in table.hands]
            assert hand.boneyard == len(table.boneyard)
            if hand.how == "in-progress":
                assert hand.boneyard >= match.rules.protected
            assert len({p.tile for p in hand.layout.placements}) == len(hand.layout.placements)

        play_match(*config, seed, on_table=check)

    @hyp(100)
    @given(configs, seeds)
    def test_export_then_replay_gives_the_same_report(self, config, seed):
        match = play_match(*config, seed, hands=3)
        text = json.dumps(match.to_record())
        assert report(replay(load_record(text))) == snapshot(match)
        assert report(replay(parse_record(match.to_record()))) == snapshot(match)

    @hyp(100)
    @given(configs, seeds, st.integers(min_value=1, max_value=12))
    def test_undo_then_reapply_gives_the_same_state(self, config, seed, back):
        match = play_match(*config, seed, hands=2)
        hand = match.current
        whole = snapshot(match)
        settled = hand.remaining
        events = list(hand.events)
        back = min(back, len(events))
        if settled is not None:
            match.undo()
        for _ in range(back):
            match.undo()
        assert len(match.current.events) == len(events) - back
        for event in events[len(events) - back :]:
            match.apply(event)
        if settled is not None:
            match.settle(settled)
        assert snapshot(match) == whole
