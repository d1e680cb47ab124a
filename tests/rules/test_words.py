"""Rulings in the players' words, each cited to the section that says it (issue 19 §9 and §10)."""

from __future__ import annotations

import pytest

from scorepad.rules import Adjust, MatchState, Muggins, Play, Renege, make_ruleset
from scorepad.rules.hand import LastPlay
from scorepad.rules.previews import CallOption, call_options, preview_event
from scorepad.rules.settle import settle_hand
from scorepad.rules.wording import call_consequence, correction_moment, end_words, renege_words, settlement_steps


def named_match(name: str, players: int, names: list[str], **options: object) -> MatchState:
    return MatchState(make_ruleset(name, players, options), names)


class TestSides:
    def test_partners_have_and_take_the_other_sides_pips(self):
        match = named_match("smartt", 4, ["Bill", "Ann", "Ted", "Cy"])
        # A block: Bill & Ted hold 3 + 4, Ann & Cy 10 + 20.
        steps = settlement_steps(match, settle_hand(match.rules, "blocked", [3, 10, 4, 20], None))
        assert steps == [
            "pips in hand: Bill & Ted 7, Ann & Cy 30",
            "Bill & Ted have the lowest total and take the other side's 30 pips (Smartt, 'Four players')",
            "30 rounds to 30 (Smartt §9.2)",
            "Bill & Ted score 30",
        ]

    def test_two_players_take_the_others_pips_in_the_singular(self):
        match = named_match("smartt", 2, ["Ann", "Bob"])
        steps = settlement_steps(match, settle_hand(match.rules, "blocked", [3, 28], None))
        assert steps[1] == "Ann has the lowest total and takes the other's 28 pips (Smartt §9.2)"

    def test_three_players_take_the_others_pips_cited_to_the_three_game(self):
        match = named_match("smartt", 3, ["Ann", "Bob", "Cy"])
        steps = settlement_steps(match, settle_hand(match.rules, "blocked", [3, 10, 12], None))
        assert steps[1] == "Ann has the lowest total and takes the others' 22 pips (Smartt, 'Three players')"

    def test_partners_going_out_score_by_the_four_player_section(self):
        match = named_match("smartt", 4, ["Bill", "Ann", "Ted", "Cy"])
        steps = settlement_steps(match, settle_hand(match.rules, "out", [0, 10, 4, 20], 0))
        assert steps[-1] == "Bill & Ted score 30 (Smartt, 'Four players')"

    def test_a_partnership_renege_goes_back_in_the_plural(self):
        match = named_match("smartt", 4, ["Bill", "Ann", "Ted", "Cy"])
        match.start_hand(0)
        match.apply(Play("5-5"))
        match.apply(Renege(2))
        words = renege_words(match, match.current, 2)
        assert "Bill & Ted go back to 0 (start of hand) less 25 = -25; Ann & Cy keep 0" in words


class TestWon:
    def test_a_score_past_the_target_is_said(self):
        match = named_match("jaques", 2, ["Dai", "Eve"], target=8)
        match.start_hand(0)
        match.apply(Play("5-5"))
        assert end_words(match, match.current) == (
            "Dai reached 10, past the target of 8, and won the game at once (Jaques, 'Winning and scoring')"
        )

    def test_the_target_exactly(self):
        match = named_match("jaques", 2, ["Dai", "Eve"], target=10)
        match.start_hand(0)
        match.apply(Play("5-5"))
        assert end_words(match, match.current).startswith("Dai reached 10 and won the game at once")


class TestRotation:
    @pytest.mark.parametrize(
        ("players", "reason"),
        [
            (2, "the set alternates (Smartt §10)"),
            (3, "the set rotates clockwise (Smartt, 'Three players')"),
            (4, "the set rotates clockwise (Smartt, 'Four players')"),
        ],
    )
    def test_each_seating_cites_its_own_section(self, players, reason):
        match = named_match("smartt", players, ["Ann", "Bob", "Cy", "Di"][:players])
        match.start_hand(0)
        match.apply(Adjust(0, 1 - match.rules.tiles_each))
        match.apply(Play("0-0"))
        hand = match.current
        match.settle([0] + [hand.pip_range(seat)[0] for seat in range(1, players)])  # the lightest hands
        assert match.next_setter().reason == reason


class TestCalls:
    def undercall(self, rules):
        return call_consequence(rules, LastPlay(0, 15, 15, 10, ("undercall",), False), 10, claim_open=False)

    def test_a_jaques_undercall_that_stands_names_our_reading_after_smartt(self):
        words = self.undercall(make_ruleset("jaques", 2, {"muggins": True}))
        assert words == (
            "The call of 10 stands as called (10 recorded, the count made 15) unless corrected before the next tile"
            " (our reading R4, after Smartt §7.2)."
        )
        assert "Jaques" not in words

    def test_a_smartt_undercall_cites_smartt(self):
        assert self.undercall(make_ruleset("smartt", 2)).endswith("before the next tile (Smartt §7.2).")

    def test_a_muggins_line_cites_its_section_once(self):
        rules = make_ruleset("jaques", 2, {"muggins": True})
        words = call_consequence(rules, LastPlay(0, 10, 10, 0, ("missed",), False), 0, claim_open=True)
        assert words == (
            "No call, no score: the 10 is lost; an opponent may claim it (muggins: Jaques, 'Variations: Muggins')."
        )
        assert words.count("Variations: Muggins") == 1

    def test_smartt_with_muggins_cites_both_books_sections_apart(self):
        rules = make_ruleset("smartt", 2, {"muggins": True})
        words = call_consequence(rules, LastPlay(0, 10, 10, 0, ("missed",), False), 0, claim_open=True)
        assert words == "No call, no score: the 10 is lost (Smartt §7.2); an opponent may claim it (muggins)."

    def test_one_answer_when_nothing_scored(self):
        assert call_options(LastPlay(0, 7, 0, 0, (), False)) == (CallOption(None, "No score"),)
        assert call_options(LastPlay(0, 10, 10, 10, (), False)) == (
            CallOption(None, "Called 10"),
            CallOption(0, "Not called"),
        )


class TestMugginsLine:
    def test_a_claim_is_said(self):
        match = named_match("jaques", 2, ["Ann", "Bob"], muggins=True)
        match.start_hand(0)
        match.apply(Play("5-5"))
        match.apply(Play("5-0", at="left", call=0))  # Bob leaves his 10 uncalled
        preview = preview_event(match, Muggins(0))
        assert (
            preview.words == "Muggins: Ann claims the 10 Bob did not call; Ann has 20 (Jaques, 'Variations: Muggins')."
        )


class TestCorrectionMoment:
    def test_the_last_tile_has_no_next_tile(self):
        match = named_match("smartt", 2, ["Ann", "Bob"])
        match.start_hand(0)
        assert correction_moment(match.current) == "before the next tile"
        match.apply(Adjust(1, -6))
        match.apply(Play("5-5"))
        match.apply(Play("5-3", at="left", call=10))  # Bob's last tile: the count made 13, he called 10
        hand = match.current
        assert hand.how == "out" and correction_moment(hand) == "before the settlement"
        last = hand.last_play
        words = call_consequence(match.rules, last, 10, claim_open=False, moment=correction_moment(hand))
        assert words == "No score existed; the call of 10 stands unless corrected before the settlement (Smartt §7.2)."

    def test_after_the_winning_tile_until_the_next_game(self):
        match = named_match("smartt", 2, ["Ann", "Bob"], target=10)
        match.start_hand(0)
        match.apply(Play("5-5"))
        assert correction_moment(match.current) == "before the next game"
