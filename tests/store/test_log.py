"""Folding a log: what stands after undo and redo (no database, no rules)."""

from __future__ import annotations

import pytest

from scorepad.store.log import Entry, fold

_rev = iter(range(1, 10_000))


def entry(hand: int, seq: int, kind: str, **payload: object) -> Entry:
    return Entry(hand=hand, seq=seq, revision=next(_rev), kind=kind, payload=dict(payload))


def undo(hand: int, seq: int, of: int) -> Entry:
    return Entry(hand=hand, seq=seq, revision=next(_rev), kind="undo", payload={"seq": of})


def redo(hand: int, seq: int, of: int) -> Entry:
    return Entry(hand=hand, seq=seq, revision=next(_rev), kind="redo", payload={"seq": of})


class TestFold:
    def test_events_stand_in_order(self) -> None:
        log = fold([entry(1, 1, "start", setter=0), entry(1, 2, "play", play="5-5")])
        assert [e.seq for _, es in log.started_hands() for e in es] == [1, 2]
        assert log.next_seq(1) == 3
        assert log.next_seq(2) == 1

    def test_undo_then_redo_puts_the_entry_back(self) -> None:
        start, play = entry(1, 1, "start", setter=0), entry(1, 2, "play", play="5-5")
        log = fold([start, play, undo(1, 3, of=2)])
        assert log.started_hands() == [(1, [start])]
        assert log.redo_target() == play
        log.add(redo(1, 4, of=2))
        assert log.started_hands() == [(1, [start, play])]
        assert log.redo_target() is None
        assert log.next_seq(1) == 5

    def test_a_new_entry_ends_redo(self) -> None:
        log = fold(
            [
                entry(1, 1, "start", setter=0),
                entry(1, 2, "play", play="5-5"),
                undo(1, 3, of=2),
                entry(1, 4, "play", play="6-6"),
            ]
        )
        assert log.redo_target() is None
        assert [e.payload for e in log.started_hands()[0][1]][1] == {"play": "6-6"}

    def test_undo_reaches_back_into_the_previous_hand(self) -> None:
        settle = entry(1, 3, "settle", remaining=[0, 5])
        log = fold(
            [
                entry(1, 1, "start", setter=0),
                entry(1, 2, "play", play="5-5"),
                settle,
                entry(2, 1, "start", setter=None),
                undo(2, 2, of=1),
            ]
        )
        assert [n for n, _ in log.started_hands()] == [1]
        assert log.undo_target() == settle
        log.add(undo(1, 4, of=3))
        assert "remaining" not in log.record_hands()[0]
        # Redo comes back in the reverse order of the undos.
        assert log.redo_target() == settle

    def test_record_hands_omit_a_setter_not_given(self) -> None:
        log = fold([entry(1, 1, "start", setter=None), entry(1, 2, "play", play="5-5")])
        assert log.record_hands() == [{"events": [{"play": "5-5"}]}]

    def test_an_undo_not_on_top_is_a_broken_log(self) -> None:
        with pytest.raises(ValueError, match="undo"):
            fold([entry(1, 1, "start", setter=0), entry(1, 2, "play", play="5-5"), undo(1, 3, of=1)])

    def test_nothing_to_undo(self) -> None:
        assert fold([]).undo_target() is None
