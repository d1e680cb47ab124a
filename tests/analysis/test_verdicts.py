"""Renege verdicts that follow each book to the end (issue 20, items 1-4), on hand-made records.

Each expectation was reasoned from the books before the analysis was run; the
reasoning is in the comments. Hands and events are numbered from 1.
"""

from __future__ import annotations

import json
from pathlib import Path

from scorepad.analysis import SeatVerdict, Shown, Verdict, Word, analyse_match
from scorepad.analysis.values import HandAnalysis
from scorepad.rules import load_record, replay
from scorepad.simulate import simulate

DATA = Path(__file__).parent.parent / "data" / "analysis"


def hand_of(name: str) -> HandAnalysis:
    (hand,) = analyse_match(replay(load_record((DATA / f"{name}.json").read_text()))).hands
    return hand


class TestMultiTileDraws:
    def test_smartt_two_drawn_and_two_fitting_shown(self) -> None:
        # Bob was dealt 6 (adjust -1, event 1); Ann sets 5-5 (event 2): ends 5 and 5. Bob draws 2
        # (event 3) and plays 5-1 (event 4), the second tile drawn. Of two tiles drawn only the last
        # may fit (Smartt §8.1), and it was played, so the rack he kept held no 5. Yet he later shows
        # 5-3 (event 7) and 5-4 (event 9), and only one tile came into his rack after his visit (the
        # missing tile taken at event 6): at least one of the two was in his rack when he drew.
        hand = hand_of("renege-draw-two")
        (evidence,) = hand.reneges
        assert (evidence.event, evidence.verdict, evidence.fitting) == (3, Verdict.PROVED, ("3-5", "4-5"))
        bob = hand.verdicts[1]
        assert bob.verdict == SeatVerdict.PROVED
        # Each tile of the proof, where it was shown and which visit's ends it fitted.
        assert bob.tiles == (Shown("3-5", 7, 3), Shown("4-5", 9, 3))
        assert "3-5 (played at event 7, fitting the ends of event 3)" in bob.reasoning
        assert "4-5 (Reverse Catherwood) (played at event 9, fitting the ends of event 3)" in bob.reasoning
        assert "only 1 tile came into Bob's rack between event 4 and event 9" in bob.reasoning

    def test_american_draw_of_three(self) -> None:
        # American: draw one at a time until a tile plays ('Draw, pass, and block'). Bob draws 3
        # (event 2) and plays the third, 5-1 (event 3); the first two fitted nothing. He then plays
        # 5-3 (event 5) with no draw in between: it was in his rack at the visit. Proved, citing
        # the American book and not Smartt's.
        hand = hand_of("renege-american-draw-three")
        (evidence,) = hand.reneges
        assert evidence.verdict == Verdict.PROVED
        bob = hand.verdicts[1]
        assert (bob.verdict, bob.tiles) == (SeatVerdict.PROVED, (Shown("3-5", 5, 2),))
        assert "American, 'Draw, pass, and block'" in bob.reasoning and "Smartt" not in bob.reasoning


class TestNotationOfRemaining:
    def test_zero_and_an_empty_list_read_the_same(self) -> None:
        # The same hand, Bob's empty rack written 0 in one record and [] in the other (records.md §4).
        # Bob set 0-0 and played no other 0 (Bareass, Smartt §15); both racks are known at the end,
        # so every visit is cleared and both players are clean, whichever way it is written.
        zero, listed = hand_of("empty-rack-as-0"), hand_of("empty-rack-as-list")
        assert zero == listed
        assert [v.verdict for v in zero.verdicts] == [SeatVerdict.CLEAN, SeatVerdict.CLEAN]
        assert [s.word for s in zero.sayings if s.event == 1] == [Word.BAREASS]


class TestReturnedTiles:
    def test_a_tile_sent_back_and_drawn_by_another_is_not_cleared(self) -> None:
        # Four players. Ann sets 6-6; Bob draws 2 and passes (events 2-3) facing only 6s. At event 4
        # Bob sends a tile back to the boneyard (adjust -1). Every 6 is later shown by someone else,
        # but Dan draws at event 10 and plays 1-6 at event 11: it may be the very tile Bob sent
        # back, held while he passed. The record cannot tell.
        hand = hand_of("renege-returned-tile")
        bob_visit = next(e for e in hand.reneges if e.seat == 1)
        assert bob_visit.verdict == Verdict.POSSIBLE
        assert "sent a tile back to the boneyard at event 4, and it may have been 1-6 (Pet)" in bob_visit.reasoning
        assert hand.verdicts[1].verdict == SeatVerdict.CANT_TELL


class TestNoise:
    def test_a_draw_then_the_drawn_tile_played_is_no_suspicion(self) -> None:
        # In the empty-rack hand each of the three visits is a draw of 1 followed by that tile played
        # (events 12, 14, 16); the rest of each rack is shown later and none of it fitted then. The
        # tile played is the tile drawn (Smartt §8.1), so there is nothing to suspect: cleared.
        hand = hand_of("empty-rack-as-list")
        assert [e.verdict for e in hand.reneges] == [Verdict.CLEARED] * 3
        assert all("drew 1" in e.reasoning and "and played it" in e.reasoning for e in hand.reneges)

    def test_clean_simulated_matches_are_mostly_clean(self) -> None:
        # Legal random play (scorepad simulate) never reneges: nothing is proved. A player's hand is
        # left open only where the record hides tiles (a game won mid-hand) or where a tile that fitted
        # was shown after a draw that may have brought it: most hands are clean.
        seats = []
        for seed, (rules, players) in enumerate([("smartt", 2), ("american", 3), ("jaques", 4), ("smartt", 4)]):
            match, _ = simulate(rules, players, 10, seed)
            for found in analyse_match(match).hands:
                assert all(v.verdict != SeatVerdict.PROVED for v in found.verdicts)
                seats += [v.verdict for v in found.verdicts]
        assert seats.count(SeatVerdict.CLEAN) > 0.8 * len(seats)


def test_every_verdict_serialises() -> None:
    hand = hand_of("renege-draw-two")
    data = json.loads(
        json.dumps(analyse_match(replay(load_record((DATA / "renege-draw-two.json").read_text()))).to_dict())
    )
    assert data["hands"][0]["verdicts"][1]["verdict"] == "proved"
    assert data["hands"][0]["verdicts"][1]["tiles"][0] == {"tile": "3-5", "event": 7, "fitted": 3}
    assert hand.verdicts[0].reasoning == "Clean: Ann never went to the boneyard or passed."
