"""Each book's own words (issue 20, item 5), and a hand's findings (item 6's list, as data and on the command line).

Each expectation was reasoned from the books before the analysis was run; the
reasoning is in the comments. Hands and events are numbered from 1.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scorepad.analysis import Word, analyse_match
from scorepad.analysis.findings import FindingKind, hand_findings
from scorepad.cli import main
from scorepad.rules import MatchState, load_record, parse_record, replay
from scorepad.rules.hand import LastPlay
from scorepad.rules.wording import call_consequence, renege_words, settlement_steps
from tests.rules.support import new_match, record

DATA = Path(__file__).parent.parent / "data"


def replayed(obj: dict[str, Any]) -> MatchState:
    return replay(parse_record(json.loads(json.dumps(obj))))


def said(match: MatchState) -> list[tuple[int, Word, str]]:
    return [(s.event, s.word, s.words) for h in analyse_match(match).hands for s in h.sayings]


SNIFF_ALL_SIDES = [{"play": "4-4"}, {"play": "4-1", "at": "left"}, {"play": "4-2", "at": "right"}]
SNIFF_ALL_SIDES += [{"play": "4-3", "at": "up"}, {"play": "4-5", "at": "down"}]


class TestTerminatingTheSniff:
    def test_said_when_the_fourth_side_is_covered(self) -> None:
        # Smartt §15: Terminating the Sniff is covering its fourth and final direction. 4-4 is the
        # Sniff; 4-1 left, 4-2 right, 4-3 up (the third side: Come-off-ence), 4-5 down: the fourth.
        words = said(replayed(record([{"setter": 0, "events": SNIFF_ALL_SIDES}])))
        assert (
            5,
            Word.TERMINATING,
            "Terminating the Sniff! P0 covers the Sniff's fourth and last side (Smartt §15).",
        ) in words
        assert [w for e, w, _ in words if w == Word.TERMINATING] == [Word.TERMINATING]

    def test_marked_as_smartts_in_another_book(self) -> None:
        words = said(replayed(record([{"setter": 0, "events": SNIFF_ALL_SIDES}], rules="jaques")))
        (terminating,) = [text for _, w, text in words if w == Word.TERMINATING]
        assert terminating.endswith("(a word of Smartt's table, not of this book).")


class TestBell:
    def test_rings_for_three_players_when_one_is_100_behind(self) -> None:
        # Smartt §15: one player 100 or more points ahead, or behind. Three players; in each hand the
        # setter's 5-5 scores 10 and P2's renege is proved (§11.1: P2 back to the hand's start less 25).
        # Setters rotate 0, 1, 2, 0, 1: P0 10, 10, 10, 20, 20; P1 0, 10, 10, 10, 20; P2 -25, -50, -75,
        # -100, -125. After hand 4 P0 (20) is 120 ahead of P2 (-100) though only 10 ahead of P1: the
        # bell rings. (Reading the bell as a lead over every other player, it would never ring here.)
        hands = [{"setter": 0, "events": [{"play": "5-5"}, {"renege": 2}]}]
        hands += [{"events": [{"play": "5-5"}, {"renege": 2}]} for _ in range(3)]
        match = replayed(record(hands, players=3))
        bells = [text for _, w, text in said(match) if w == Word.BELL]
        assert bells == ["Bell is ringing! P0 is 120 ahead of P2 (Smartt §15)."]

    def test_a_partnership_is_ahead_in_the_plural(self) -> None:
        hands = [{"setter": 0, "events": [{"play": "5-5"}, {"renege": 1}]}]
        hands += [{"events": [{"play": "5-5"}, {"renege": 1}]} for _ in range(4)]
        match = replayed(record(hands, players=4))
        bells = [text for _, w, text in said(match) if w == Word.BELL]
        assert bells and bells[0].startswith("Bell is ringing! P0 & P2 are ")


class TestGrammar:
    def test_a_partnership_takes_in_the_plural(self) -> None:
        # Smartt 'Four players': scores and penalties fall on the partnership, so its verbs are plural.
        match = replayed(DATA_PARTNERS)
        hand = match.hands[0]
        assert hand.settlement is not None
        steps = settlement_steps(match, hand.settlement)
        assert any("P0 & P2 score" in step or "P1 & P3 score" in step for step in steps), steps
        assert not any("& P2 scores" in step or "& P3 scores" in step for step in steps), steps

    def test_a_partnership_pays_for_its_player_and_keeps_in_the_plural(self) -> None:
        match = replayed(record([{"setter": 0, "events": [{"play": "5-5"}, {"renege": 3}]}], players=4))
        words = renege_words(match, match.hands[0], 3)
        assert "P1 & P3 pay for P3's renege." in words
        assert "P1 & P3 go back to 0 (start of hand) less 25 = -25; P0 & P2 keep 10" in words


class TestCalls:
    def test_nothing_is_called_right_where_nothing_is_called(self) -> None:
        # American 'Score a placement': every placement scores itself; nobody calls.
        american, smartt = new_match("american").rules, new_match("smartt").rules
        last = LastPlay(0, 15, 15, 15, (), False)
        assert call_consequence(american, last, 15, claim_open=False) == (
            "The count scores by itself: 15 (American, 'Score a placement')."
        )
        assert call_consequence(smartt, last, 15, claim_open=False) == "Called right: 15 scored."


class TestComments:
    def test_the_renege_of_the_three_player_example(self) -> None:
        # The shared example: P1 sets 2-2 and a renege by P1 is proved at event 6. P1 never went to the
        # boneyard or passed, the only moments a renege can happen (Smartt §11.1), so the record alone
        # cannot show it; the ruling (P1 back to 0 less 25) stands on what the table saw.
        match = replay(load_record((DATA / "contract" / "smartt-3p-renege.json").read_text()))
        (hand,) = analyse_match(match).hands
        (comment,) = hand.comments
        assert (comment.event, comment.seat) == (6, 1)
        assert "P1 goes back to 0 (start of hand) less 25 = -25" in comment.words
        assert "P1 never went to the boneyard or passed in this hand" in comment.words
        assert hand.verdicts[1].verdict == "proved"

    def test_the_play_that_stood(self) -> None:
        # The amendment record: Ann lays 6-2 on the right end showing 5; it stood (Smartt §11.5).
        match = replay(load_record((DATA / "contract" / "smartt-2p-stands.json").read_text()))
        (hand,) = analyse_match(match).hands
        (comment,) = hand.comments
        assert comment.event == 3
        assert comment.words.startswith("Ann laid 6-2 on the right end, which showed 5: neither value matches it")
        assert "the 15 it scored stand as laid" in comment.words and "(Smartt §11.5)" in comment.words


class TestFindings:
    def test_a_proved_renege_with_the_engines_penalty(self) -> None:
        # renege-draw-two: Bob's renege (proved by the record) would stop the hand: Bob back to 0 less
        # 25 = -25, Ann keeps 10 (Smartt §11.1). The finding jumps to his visit (event 3).
        match = replay(load_record((DATA / "analysis" / "renege-draw-two.json").read_text()))
        (found,) = analyse_match(match).hands
        (renege,) = [f for f in hand_findings(match, found) if f.kind == FindingKind.RENEGE]
        assert (renege.event, renege.seat, renege.tiles) == (3, 1, ("3-5", "4-5"))
        assert renege.penalty is not None
        assert (renege.penalty.scores_now, renege.penalty.scores_after) == ((10, 30), (10, -25))
        assert renege.penalty.payers == (1,)
        assert "if proved before the next hand begins (Smartt §11.1)" in renege.ruling

    def test_who_pays_in_a_partnership_and_deduct50(self) -> None:
        # Four players, deduct50: P3 draws 1 at event 4 and plays it (5-1), then at event 8 shows 5-3,
        # which fitted the 5s open when P3 drew: proved. P1 & P3 pay: 50 off their side when the hand
        # ends (Smartt §11.1's alternative); the hand is still in play, so the engine takes nothing yet.
        events = [{"play": "5-5"}, {"play": "5-6", "at": "left"}, {"play": "6-6", "at": "left"}, {"draw": 1}]
        events += [{"play": "5-1", "at": "right"}, {"play": "6-2", "at": "left"}, {"play": "1-1", "at": "right"}]
        events += [{"play": "2-2", "at": "left"}, {"play": "5-3", "at": "up"}]
        match = replayed(record([{"setter": 0, "events": events}], players=4, options={"renege": "deduct50"}))
        (found,) = analyse_match(match).hands
        (renege,) = [f for f in hand_findings(match, found) if f.kind == FindingKind.RENEGE]
        assert renege.penalty is not None and renege.penalty.payers == (1, 3)
        assert renege.penalty.scores_after == renege.penalty.scores_now
        assert "P1 & P3 pay for P3's renege. P1 & P3 lose 50 when the hand ends" in renege.penalty.words

    def test_missed_score_miscall_and_missed_automatic(self) -> None:
        # smartt-2p-game-to-250, hand 2: Ann's 0-4 left would have kept the 10 (the Sniff automatic,
        # Smartt §7.3) and she laid 4-3 (event 4); Bob called 10 on a count of 15 (event 5), which
        # stood (§7.2); Ann did not call the 20 her 0-5 made (event 10): lost.
        match = replay(load_record((DATA / "smartt-2p-game-to-250.json").read_text()))
        found = analyse_match(match).hands[1]
        kinds = [(f.event, f.kind) for f in hand_findings(match, found)]
        assert kinds == [
            (4, FindingKind.MISSED_AUTOMATIC),
            (5, FindingKind.MISCALL),
            (10, FindingKind.MISSED_SCORE),
        ]

    def test_on_the_command_line(self, capsys: pytest.CaptureFixture[str]) -> None:
        path = str(DATA / "analysis" / "renege-draw-two.json")
        assert main(["analyse", path, "--hand", "1", "--findings"]) == 0
        out = capsys.readouterr().out
        assert out.startswith("Hand 1: 1 finding\n  event 3, renege: Renege by Bob, proved\n")
        assert "evidence: 3-5, 4-5" in out
        assert main(["analyse", path, "--hand", "1", "--findings", "--json"]) == 0
        data = json.loads(capsys.readouterr().out)
        (finding,) = data["hands"][0]["findings"]
        assert (finding["kind"], finding["event"], finding["penalty"]["scores_after"]) == ("renege", 3, [10, -25])

    def test_a_hand_the_record_does_not_have(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert main(["analyse", str(DATA / "analysis" / "renege-draw-two.json"), "--hand", "2", "--findings"]) == 2
        out = capsys.readouterr()
        assert out.out == "" and out.err == "--hand 2: the record has only hand 1\n"


DATA_PARTNERS = json.loads((DATA / "contract" / "smartt-4p-partners-blocked.json").read_text())
