"""The words the table screen may show as they happen (Smartt §15), and none that hint at a play (§12)."""

from __future__ import annotations

from pathlib import Path

from scorepad.analysis.table_words import table_words
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
    assert bell.words == "Bell is ringing! P0 leads P1 by 120 (Smartt §15)."


def test_no_hints_at_the_table() -> None:
    # The Pet record's second play missed an automatic; the table must not say so (Smartt §12).
    match = replay(load_record((DATA / "missed-automatic.json").read_text()))
    assert all(s.word in {Word.EPISCOPAL, Word.COME_OFF_ENCE, Word.SHEDAPOTOMUS, Word.BELL} for s in table_words(match))
    assert not any("Automatic" in s.words or "choice" in s.words for s in table_words(match))
