"""The preset registry (one record per rule book), the wording module and the engine's previews."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorepad.rules import (
    Muggins,
    Play,
    RecordFormatError,
    Renege,
    Void,
    load_record,
    make_ruleset,
    presets,
    replay,
    rulesets,
)
from scorepad.rules.hand import HandEnd
from scorepad.rules.narrate import hand_lines
from scorepad.rules.presets import PRESETS, Topic, find_preset
from scorepad.rules.previews import claimants, possible_calls, preview_event, preview_settlement

from .support import hyp, new_hand, plain, play_match, run, snapshot

DATA = Path(__file__).resolve().parents[1] / "data"


class TestRegistry:
    # records.md §2, the whole table: target, tiles each, protected, draw limit, partners, order, calls.
    @pytest.mark.parametrize(
        ("name", "players", "target", "tiles", "protected", "limit", "partners", "long_first", "calls"),
        [
            ("smartt", 2, 250, 7, 2, 2, False, True, True),
            ("smartt", 3, 250, 6, 1, 2, False, True, True),
            ("smartt", 4, 250, 5, 0, 2, True, True, True),
            ("american", 2, 250, 7, 0, None, False, True, False),
            ("american", 3, 200, 6, 0, None, False, True, False),
            ("american", 4, 200, 5, 0, None, True, True, False),
            ("jaques", 2, 61, 7, 0, None, False, False, False),
            ("jaques", 3, 61, 5, 0, None, False, False, False),
            ("jaques", 4, 61, 5, 0, None, False, False, False),
        ],
    )
    def test_the_table_of_records_md(self, name, players, target, tiles, protected, limit, partners, long_first, calls):
        rules = make_ruleset(name, players)
        assert (
            rules.target,
            rules.tiles_each,
            rules.protected,
            rules.draw_limit,
            rules.partners,
            rules.long_sides_first,
            rules.calls_required,
        ) == (target, tiles, protected, limit, partners, long_first, calls)

    @pytest.mark.parametrize("name", list(PRESETS))
    @pytest.mark.parametrize(("players", "tiles"), [(2, 9), (3, 7), (4, 7)])
    def test_double_nine_deals_9_7_7_under_every_preset(self, name, players, tiles):
        assert make_ruleset(name, players, {"set": "double-nine"}).tiles_each == tiles

    def test_jaques_partners_play_to_121(self):
        assert make_ruleset("jaques", 4, {"partners": True}).target == 121

    def test_unknown_preset(self):
        with pytest.raises(RecordFormatError, match="unknown rules 'house'"):
            find_preset("house")

    @pytest.mark.parametrize(
        ("options", "message"),
        [
            ({"target": 0}, "'target' must be a whole number of 1 or more, not 0"),
            ({"target": True}, "'target' must be a whole number of 1 or more"),
            ({"muggins": "yes"}, "'muggins' must be true or false"),
            ({"set": "double-twelve"}, "'set' must be 'double-six' or 'double-nine'"),
            ({"renege": "flog"}, "'renege' must be 'rollback25' or 'deduct50'"),
            ({"sniff": None}, "'sniff' must be true or false, not None"),
            ({"house": 1}, "unknown option 'house'"),
        ],
    )
    def test_options_are_strict(self, options, message):
        with pytest.raises(RecordFormatError, match=message):
            make_ruleset("smartt", 2, options)

    def test_a_house_preset_is_one_entry(self, monkeypatch):
        house = dataclasses.replace(presets.SMARTT, name="house", targets=presets.SMARTT.targets, draw_limit=3)
        registry = presets.MappingProxyType({**PRESETS, "house": house})
        monkeypatch.setattr(presets, "PRESETS", registry)
        monkeypatch.setattr(rulesets, "PRESETS", registry)
        rules = make_ruleset("house", 2)
        assert rules.draw_limit == 3 and rules.preset is house
        match = new_hand("house", 2)
        run(match, "5-5", Play("5-0", at="left"))
        assert plain(match.current.scores) == [10, 10]

    @pytest.mark.parametrize("topic", list(Topic))
    def test_a_book_cites_only_itself(self, topic):
        for preset in PRESETS.values():
            cite = preset.cite(topic)
            assert cite == "" or cite.startswith(preset.short), (preset.name, topic, cite)


class TestWording:
    def test_a_jaques_game_never_cites_smartt(self):
        for path in sorted(DATA.glob("jaques-*.json")) + sorted((DATA / "contract").glob("jaques-*.json")):
            if path.name.endswith(".expected.json"):
                continue
            match = replay(load_record(path.read_text()))
            text = "\n".join(line for hand in match.hands for line in hand_lines(match, hand))
            assert "Smartt" not in text, path.name

    def test_a_smartt_renege_cites_its_section(self):
        match = new_hand("smartt", 2)
        run(match, "5-5", Play("5-0", at="left"))
        assert "(Smartt §11.1)" in preview_event(match, Renege(1)).words


class TestPreviews:
    def test_possible_calls(self):
        assert possible_calls(make_ruleset("smartt", 2))[-1] == 35
        assert possible_calls(make_ruleset("smartt", 2, {"set": "double-nine"}))[-1] == 60

    def test_claimants_are_the_opponents_right_after_an_uncalled_score(self):
        match = new_hand("jaques", 3, muggins=True)
        run(match, "5-5", Play("5-0", at="left", call=0))
        assert claimants(match) == (0, 2)
        run(match, Muggins(2))
        assert claimants(match) == ()

    def test_no_claimants_without_muggins(self):
        match = new_hand("smartt", 2)
        run(match, "5-5", Play("5-0", at="left", call=0))
        assert claimants(match) == ()

    def test_a_renege_preview_changes_nothing(self):
        match = new_hand("smartt", 2)
        run(match, "5-5", Play("5-0", at="left"))
        kept = snapshot(match)
        preview = preview_event(match, Renege(0))
        assert preview.how == HandEnd.RENEGE
        assert preview.scores_now == (10, 10) and preview.scores_after == (-25, 10)
        assert snapshot(match) == kept

    def test_a_void_preview_names_the_setter(self):
        match = new_hand("smartt", 2, setter=1)
        run(match, "5-5")
        preview = preview_event(match, Void())
        assert preview.scores_after == (0, 0)
        assert "P1 sets again (Smartt §11.3)" in preview.words

    def test_a_refused_preview_says_why_in_names(self):
        match = new_hand("smartt", 2)
        run(match, "5-5")
        preview = preview_event(match, Play("6-1", at="left"))
        assert preview.refusal and "6-1" in preview.refusal
        assert preview.scores_after == preview.scores_now

    def test_a_settlement_preview(self):
        match = new_hand("smartt", 2)
        run(match, *match_to_go_out())
        preview = preview_settlement(match, [23, []])
        assert preview.refusal is None
        assert preview.scores_after[1] - preview.scores_now[1] == 25
        assert "23 rounds to 25" in preview.words
        assert match.current.settlement is None

    def test_a_settlement_preview_refusal(self):
        match = new_hand("smartt", 2)
        run(match, *match_to_go_out())
        assert "P0 holds 6 tiles" in (preview_settlement(match, [1, []]).refusal or "")


def match_to_go_out() -> list:
    """P1 holds one tile and goes out with it on the second play."""
    from scorepad.rules import Adjust

    return [Adjust(1, -6), "5-5", Play("5-0", at="left")]


@hyp(30)
@given(seed=st.integers(0, 10_000), name=st.sampled_from(list(PRESETS)), players=st.sampled_from([2, 3, 4]))
def test_a_fork_is_independent_of_its_match(seed, name, players):
    options = {"renege": "rollback25"} if name != "smartt" else {}
    match = play_match(name, players, options, seed, hands=2)
    kept = snapshot(match)
    fork = match.fork()
    assert snapshot(fork) == kept
    # Whatever is done to the fork leaves the match as it was.
    while fork.hands:
        fork.undo()
    assert snapshot(match) == kept
