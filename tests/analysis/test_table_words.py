"""The words the table screen may show as they happen (Smartt §15), and none that hint at a play (§12)."""

from __future__ import annotations

from pathlib import Path

from scorepad.analysis.table_words import table_words, training_hints
from scorepad.analysis.values import Word
from scorepad.rules import load_record, parse_record, replay
from tests.rules.support import record

DATA = Path(__file__).parent.parent / "data" / "analysis"


def test_episcopal_and_come_off_ence_after_the_play_that_makes_them() -> None:
    match = replay(load_record((DATA / "episcopal.json").read_text()))
    words = [s.word for s in table_words(match)]
    assert words == [Word.EPISCOPAL, Word.COME_OFF_ENCE]


def test_moonfaced_and_shunk_shunk_at_the_end() -> None:
    match = replay(load_record((DATA / "moonfaced.json").read_text()))
    assert [s.words for s in table_words(match)] == [
        "Moonfaced! Bob scored nothing in the hand (Smartt §15).",
        "Shunk shunk! the game is over: Ann won game 1 (Smartt §15).",
    ]


def test_the_bell_rings_while_a_side_leads_by_100() -> None:
    # Each hand: the setter's 5-5 scores 10, then a renege by P1 is proved (Smartt §11.1: P1 goes
    # back to the hand's start less 25). After hand 1: 10 to -25 (lead 35); hand 2, P1 sets: P1's
    # 10 is lost, -50 (lead 60); hand 3: 20 to -75 (lead 95, silent); hand 4: 20 to -100, lead 120.
    hands = [{"setter": 0, "events": [{"play": "5-5"}, {"renege": 1}]}]
    hands += [{"events": [{"play": "5-5"}, {"renege": 1}]} for _ in range(3)]
    silent = replay(parse_record(record(hands[:3])))
    assert not any(s.word == Word.BELL for s in table_words(silent))
    match = replay(parse_record(record(hands)))
    (bell,) = [s for s in table_words(match) if s.word == Word.BELL]
    assert bell.words == "Bell is ringing! P0 is 120 ahead of P1 (Smartt §15)."


def test_no_hints_at_the_table() -> None:
    # The Pet record's second play missed an automatic; the table must not say so (Smartt §12).
    match = replay(load_record((DATA / "missed-automatic.json").read_text()))
    assert all(s.word in {Word.EPISCOPAL, Word.COME_OFF_ENCE, Word.SHEDAPOTOMUS, Word.BELL} for s in table_words(match))
    assert not any("Automatic" in s.words or "choice" in s.words for s in table_words(match))


def test_training_hints_only_with_the_switch_and_never_in_a_tournament() -> None:
    match = replay(load_record((DATA / "missed-automatic.json").read_text()))
    assert training_hints(match, training=False, tournament=False) == ()
    assert training_hints(match, training=True, tournament=True) == ()
    hints = training_hints(match, training=True, tournament=False)
    # After the 1-6 left the ends are left 6 and right 5 (count 11): 0-6 left makes 0 + 5 = 5,
    # 5-6 left 5 + 5 = 10, 4-5 right 6 + 4 = 10; all three are still unplayed.
    assert hints[0].startswith("Tiles not yet seen that would score now")
    for part in ("0-6 left: count 5, scores 5", "5-6 (Catherwood) left: count 10", "4-5 (Reverse Catherwood) right"):
        assert part in hints[0]
    assert hints[-1].startswith("clutches unseen: 0s 7, 1s 5")


def test_training_names_the_better_end_for_the_tile_just_laid() -> None:
    # Ann's 4-1 right at event 8 of the cleared record made 14; on the left it would have made 20.
    match = replay(load_record((DATA / "renege-cleared.json").read_text()))
    record_so_far = match.to_record()
    record_so_far["hands"][0]["events"] = record_so_far["hands"][0]["events"][:8]
    del record_so_far["hands"][0]["remaining"]
    early = replay(parse_record(record_so_far))
    (first, *_) = training_hints(early, training=True, tournament=False)
    assert first == "The 4-1 could have gone left: count 20, scores 20."
