"""The renege procedure as a New match choice (Smartt §11.1), the rules in words, and the −50 in words."""

from __future__ import annotations

import pytest

from scorepad.rules import PRESETS, Adjust, Play, RecordFormatError, Renege, make_ruleset
from scorepad.rules.presets import renege_choices, typed_target
from scorepad.rules.previews import preview_settlement
from scorepad.rules.wording import deduction_lines, pending_words
from tests.rules.support import new_hand, run


class TestChoices:
    def test_smartt_offers_its_preferred_procedure_first(self):
        choices = renege_choices(PRESETS["smartt"])
        assert [c.value for c in choices] == ["rollback25", "deduct50"]
        assert choices[0].label == "A renege stops the hand, −25"
        assert "(Smartt §11.1, preferred)" in choices[0].explanation
        assert "(Smartt §11.1, by prior agreement)" in choices[1].explanation

    @pytest.mark.parametrize("name", ["american", "jaques"])
    def test_a_book_without_a_renege_rule_offers_none_first_and_smartts_as_house_rules(self, name):
        choices = renege_choices(PRESETS[name])
        assert [c.value for c in choices] == [None, "rollback25", "deduct50"]
        assert all("a house rule from Smartt §11.1" in c.explanation for c in choices[1:])

    @pytest.mark.parametrize("name", list(PRESETS))
    def test_every_choice_makes_a_match_and_explains_itself_in_one_line(self, name):
        for choice in renege_choices(PRESETS[name]):
            options = {} if choice.value is None else {"renege": choice.value}
            assert make_ruleset(name, 2, options).renege == (choice.value or PRESETS[name].renege_default)
            assert "\n" not in choice.explanation and choice.explanation.endswith(".")


class TestSummary:
    @pytest.mark.parametrize(
        ("name", "players", "options", "words"),
        [
            ("smartt", 3, {}, "Smartt, 3 players, to 250; a renege stops the hand, −25"),
            ("smartt", 2, {"renege": "deduct50"}, "Smartt, 2 players, to 250; a renege is played out, −50"),
            ("american", 4, {}, "American, 4 players, partners, to 200; no renege penalty"),
            (
                "jaques",
                2,
                {"muggins": True, "set": "double-nine", "target": 121},
                "Jaques, 2 players, to 121; double-nine; muggins: a score not called may be claimed; no renege penalty",
            ),
            (
                "jaques",
                4,
                {"sniff": False},
                "Jaques, 4 players, each for himself, to 61; All Fives, no Sniff; no renege penalty",
            ),
        ],
    )
    def test_in_words(self, name, players, options, words):
        assert make_ruleset(name, players, options).summary() == words

    def test_no_record_word_in_the_one_line_summary(self):
        assert "rollback25" not in make_ruleset("smartt", 2).describe()
        assert "deduct50" not in make_ruleset("smartt", 2, {"renege": "deduct50"}).describe()


class TestPlayedOut:
    """A −50 match from the option to its settlement line (Smartt §11.1)."""

    def setup_method(self):
        # P1 holds two tiles. 5-5 (P0 10); 5-0 left (P1 10); P1's renege; 5-2 right (P0 12, no score).
        self.match = new_hand("smartt", 2, renege="deduct50")
        self.match.players = ["Ann", "Bob"]
        run(self.match, Adjust(1, -5), "5-5", Play("5-0", at="left"), Renege(1), Play("5-2", at="right"))

    def test_the_pending_50_is_said_while_the_hand_goes_on(self):
        hand = self.match.current
        assert pending_words(self.match, hand) == (
            "Renege proved: 50 off Bob when the hand ends, after its settlement (Smartt §11.1)."
        )

    def test_the_settlement_line_says_the_50(self):
        run(self.match, Play("5-3", at="up"))  # Bob goes out: 20
        preview = preview_settlement(self.match, [30, []])
        assert preview.scores_after == (10, 0)
        assert preview.words.endswith("renege by Bob: 50 off Bob, 50 − 50 = 0 (Smartt §11.1)")
        self.match.settle([30, []])
        assert pending_words(self.match, self.match.current) == ""
        assert deduction_lines(self.match, self.match.current) == [
            "renege by Bob: 50 off Bob, 50 − 50 = 0 (Smartt §11.1)"
        ]

    def test_nothing_pending_without_a_renege(self):
        match = new_hand("smartt", 2, renege="deduct50")
        run(match, "5-5")
        assert pending_words(match, match.current) == ""


class TestTypedTarget:
    """What the New match form's target field takes, and what its refusal says is allowed."""

    @pytest.mark.parametrize(("text", "target"), [("", None), ("  ", None), ("250", 250), (" 61 ", 61), ("9999", 9999)])
    def test_taken(self, text, target):
        assert typed_target(text) == target

    @pytest.mark.parametrize("text", ["99999", "0", "-5", "12.5", "²", "abc"])
    def test_refused_with_what_is_allowed(self, text):
        with pytest.raises(RecordFormatError) as err:
            typed_target(text)
        assert str(err.value) == (
            f"the target must be a whole number from 1 to 9999, or blank for the book's own; not {text.strip()!r}"
        )
        assert "positive whole number" not in str(err.value)

    def test_a_record_may_still_name_a_larger_target(self):
        # records.md §1: target (int); only the typed field is bounded.
        assert make_ruleset("smartt", 2, {"target": 99999}).target == 99999
