"""Golden analyses: hand-made records in tests/data/analysis, each result worked out from Smartt's book.

Every expectation below was reasoned by hand before the analysis was run; the
reasoning is in the comments. Hands and events are numbered from 1.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorepad.analysis import (
    AutomaticKind,
    MatchAnalysis,
    Safety,
    SeatVerdict,
    Shown,
    Use,
    Verdict,
    Word,
    analyse_match,
)
from scorepad.rules import load_record, replay

DATA = Path(__file__).parent.parent / "data" / "analysis"


def analysed(name: str) -> MatchAnalysis:
    return analyse_match(replay(load_record((DATA / f"{name}.json").read_text())))


def words_of(analysis: MatchAnalysis) -> list[tuple[int, Word]]:
    return [(s.event, s.word) for hand in analysis.hands for s in hand.sayings]


class TestRenege:
    def test_proved_by_counting(self) -> None:
        # Ann sets 5-5 (the Sniff); the open ends are left 5 and right 5. Bob draws 1 (event 2) and
        # plays it, 5-1 (event 3): a play straight after a draw is the tile drawn. He then plays 5-3
        # (event 5) with no draw in between. 5-3 fitted a 5 when he drew, and no tile came into his
        # rack after his visit: it was there when he went to the boneyard, a renege (Smartt §11.1, §5.1).
        (hand,) = analysed("renege-proved").hands
        (evidence,) = hand.reneges
        assert (evidence.event, evidence.seat, evidence.moment) == (2, 1, "draw")
        assert evidence.verdict == Verdict.PROVED
        assert evidence.fitting == ("3-5",)
        assert evidence.open_ends == (("left", 5), ("right", 5))
        assert "no tile came into Bob's rack between event 3 and event 5" in evidence.reasoning
        assert "Smartt §11.1" in evidence.reasoning
        ann, bob = hand.verdicts
        assert (ann.verdict, bob.verdict) == (SeatVerdict.CLEAN, SeatVerdict.PROVED)
        assert bob.tiles == (Shown("3-5", 5, 2),)

    def test_cleared_when_the_rack_is_known(self) -> None:
        # Ann sets 6-6; Bob draws 2 (event 2) and passes (event 3) with only 6s open: one visit. The
        # hand goes out (Ann's 2-6 at event 14) and Bob's remaining tiles are listed: 0-2, 0-3, 2-2, 3-3.
        # Every tile Bob held at the visit was either played later (5-0, 0-1, 1-2, 1-1, 5-2) or listed,
        # and none has a 6: he held nothing that fitted, so the visit is cleared and Bob is clean.
        (hand,) = analysed("renege-cleared").hands
        assert [(e.event, e.moment, e.verdict) for e in hand.reneges] == [(2, "draw", Verdict.CLEARED)]
        assert all(e.fitting == () for e in hand.reneges)
        assert [v.verdict for v in hand.verdicts] == [SeatVerdict.CLEAN, SeatVerdict.CLEAN]

    def test_possible_when_the_rack_is_hidden(self) -> None:
        # The same hand with Bob's remaining given as a pip total (15). His plays still show no 6,
        # but the four tiles he kept are unknown, and three 6s were never seen by anyone (0-6, 1-6,
        # 3-6; Ann showed 2-6, 4-6 and 5-6): he might have held one. The record cannot tell.
        (hand,) = analysed("renege-possible").hands
        assert [(e.event, e.verdict) for e in hand.reneges] == [(2, Verdict.POSSIBLE)]
        assert "0-6, 1-6 (Pet) and 3-6" in hand.reneges[0].reasoning
        assert "given only as 15 pips" in hand.reneges[0].reasoning
        bob = hand.verdicts[1]
        assert (bob.verdict, bob.events) == (SeatVerdict.CANT_TELL, (2,))


class TestPlays:
    def test_missed_automatic_the_pet(self) -> None:
        # Ann sets 1-4: 1 + 4 = 5, scored (Smartt §4.2). Bob holds the 1-6 (he plays it at event 4
        # without drawing). On the single 1 the Pet turns 5 into 6 + 4 = 10 (Smartt §7.3). Bob plays
        # 4-3 right instead: 1 + 3 = 4, no score. An automatic missed, and a missed chance worth 10.
        (hand,) = analysed("missed-automatic").hands
        review = hand.plays[1]
        assert (review.event, review.tile, review.at, review.board_count, review.score) == (2, "4-3", "right", 4, 0)
        auto = review.automatic
        assert auto is not None
        assert (auto.use, auto.kind) == (Use.MISSED, AutomaticKind.PET)
        assert (auto.placing.tile, auto.placing.at, auto.placing.board_count, auto.placing.score) == (
            "1-6",
            "left",
            10,
            10,
        )
        assert [(p.tile, p.at, p.score) for p in review.missed] == [("1-6", "left", 10)]

    def test_episcopal_and_come_off_ence(self) -> None:
        # Ann sets 4-4 (Sniff, 8). Bob 4-1 left: 1 + 8 = 9. Ann 4-2 right: 1 + 2 + 8 = 11, both long
        # sides covered so the short ends open (Smartt §6.2). Bob 4-3 up: 1 + 2 + 3 + the one short
        # end still open, 4: a count of 10 with the extremities 1, 2, 3 and 4, Episcopal (§15). It
        # is also the third side of the Sniff covered: Come-off-ence (§15.2).
        analysis = analysed("episcopal")
        (hand,) = analysis.hands
        assert (hand.plays[3].board_count, hand.plays[3].score) == (10, 10)
        assert (4, Word.EPISCOPAL) in words_of(analysis)
        assert (4, Word.COME_OFF_ENCE) in words_of(analysis)
        # After the set only the 2-4 can score (2 + 8 = 10), and Ann holds it (she plays it at
        # event 3 without drawing): bulletproof against Bob (§7.4).
        assert hand.plays[0].safety == Safety.BULLETPROOF

    def test_moonfaced_and_shunk_shunk(self) -> None:
        # Played to 10: Ann's set 5-5 scores 10 and wins at once (Smartt §9.3). Bob gained nothing
        # in the hand: Moonfaced; the game is over: Shunk shunk (§15).
        analysis = analysed("moonfaced")
        (hand,) = analysis.hands
        moon = [s for s in hand.sayings if s.word == Word.MOONFACED]
        assert [s.words for s in moon] == ["Moonfaced! Bob scored nothing in the hand (Smartt §15)."]
        assert (0, Word.SHUNK_SHUNK) in words_of(analysis)

    def test_unscoreaponable(self) -> None:
        # After Ann's 2-4 (event 10) the ends are left 4, right 1 and the Sniff 6-6 with both short
        # ends open (count 4 + 1 + 12 = 17). On the right, 1-x adds x - 1: only x = 4 makes 20, and
        # 1-4 is down. On the left, 4-x makes 13 + x: x = 2 (2-4) is down. On a short end 6-x makes
        # 11 + x: x = 4 (4-6) is down. No unplayed tile can score (§15.2, Unscoreaponable).
        analysis = analysed("renege-cleared")
        (review,) = [p for p in analysis.hands[0].plays if p.event == 10]
        assert review.safety == Safety.UNSCOREAPONABLE
        assert (10, Word.UNSCOREAPONABLE) in words_of(analysis)

    def test_clutches(self) -> None:
        # After the Pet record's four plays (1-4, 4-3, 3-5, 1-6): 1s seen twice, 3s twice, 4s twice,
        # 5s once, 6s once: seven minus each (Smartt §2.1).
        (hand,) = analysed("missed-automatic").hands
        assert hand.plays[-1].unseen == (7, 5, 7, 5, 5, 6, 6)


@pytest.mark.parametrize("name", sorted(p.stem for p in DATA.glob("*.json")))
def test_every_golden_record_serialises(name: str) -> None:
    data = json.loads(json.dumps(analysed(name).to_dict()))
    assert data["hands"][0]["number"] == 1
