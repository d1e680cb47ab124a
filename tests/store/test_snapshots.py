"""Snapshots: what the store hands out never changes, and a failed write changes nothing anywhere."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm.session import SessionTransaction

from scorepad.access import Caller
from scorepad.rules import Draw, IllegalEventError, Play, report
from scorepad.store import MatchSnapshot, ReadOnlySnapshot, Store, StoreError

from .store_helpers import EXAMPLES, enter_step, load_json, record_steps, snapshot


def _opening(store: Store) -> int:
    match_id = store.create_match(rules="smartt", options={}, players=["Ann", "Bob"], caller=Caller.local("t1"))
    store.start_hand(match_id, setter=0, caller=Caller.local("t1"))
    store.append(match_id, Play("5-5"), caller=Caller.local("t1"))
    return match_id


def _picture(state: MatchSnapshot) -> tuple[Any, ...]:
    """Everything a screen reads of a state, to compare before and after."""
    hand = state.current
    return (
        state.revision,
        report(state),
        [list(h.events) for h in state.hands],
        None if hand is None else (hand.turn, hand.boneyard, list(hand.scores), hand.how, hand.layout.board_count),
    )


GO_OUT = load_json(EXAMPLES / "smartt-2p-go-out.json")


def _match_before(store: Store, write: str) -> tuple[int, Callable[[], Any]]:
    """A match entered from a one-hand record, up to just before ``write``; and that write."""
    record = GO_OUT
    match_id = store.create_match(
        rules=record["rules"], options=record.get("options"), players=record["players"], caller=Caller.local()
    )
    steps = record_steps(record["hands"])
    hand = record["hands"][0]
    upto = {"append": len(steps) - 2, "settle": len(steps) - 1}.get(write, len(steps))
    for step in steps[:upto]:
        enter_step(store, match_id, step, device="t1")
    if write == "redo":
        store.undo(match_id, caller=Caller.local("t1"))
    writes: dict[str, Callable[[], Any]] = {
        "append": lambda: store.append(match_id, hand["events"][-1], caller=Caller.local("t1")),
        "settle": lambda: store.settle(match_id, hand["remaining"], caller=Caller.local("t1")),
        "start_hand": lambda: store.start_hand(match_id, caller=Caller.local("t1")),
        "undo": lambda: store.undo(match_id, caller=Caller.local("t1")),
        "redo": lambda: store.redo(match_id, caller=Caller.local("t1")),
        "finish": lambda: store.finish(match_id, caller=Caller.local("t1")),
    }
    return match_id, writes[write]


WRITES = ["append", "settle", "start_hand", "undo", "redo", "finish"]


class TestHeldSnapshots:
    def test_a_held_snapshot_does_not_change_after_later_writes(self, store: Store) -> None:
        match_id = _opening(store)
        held = store.load(match_id, device="t1")
        before = _picture(held)
        after_play = store.append(match_id, Play("5-3", at="left", call=10), caller=Caller.local("t1"))
        store.append(match_id, Draw(1), caller=Caller.local("t1"))
        store.undo(match_id, caller=Caller.local("t1"))
        store.undo(match_id, caller=Caller.local("t1"))
        store.redo(match_id, caller=Caller.local("t1"))
        assert _picture(held) == before
        assert after_play is not held
        assert after_play.revision == held.revision + 1
        assert list(after_play.current.events) == [Play("5-5"), Play("5-3", at="left", call=10)]  # type: ignore[union-attr]

    def test_every_read_and_write_carries_the_revision(self, store: Store) -> None:
        match_id = store.create_match(rules="smartt", options={}, players=["Ann", "Bob"], caller=Caller.local())
        assert store.load(match_id).revision == 0
        assert store.start_hand(match_id, setter=0, caller=Caller.local()).revision == 1
        assert store.append(match_id, Play("5-5"), caller=Caller.local()).revision == 2
        assert store.undo(match_id, caller=Caller.local()).revision == 3
        assert store.load(match_id).revision == 3
        assert store.load(match_id).match_id == match_id

    def test_a_snapshot_refuses_to_be_changed(self, store: Store) -> None:
        held = store.load(_opening(store))
        before = _picture(held)
        with pytest.raises(ReadOnlySnapshot, match="never changes"):
            held.apply(Play("5-3", at="left"))
        with pytest.raises(ReadOnlySnapshot):
            held.start_hand(1)
        with pytest.raises(ReadOnlySnapshot):
            held.undo()
        assert _picture(held) == before

    def test_finished_hands_are_shared_not_copied(self, store: Store) -> None:
        match_id = _opening(store)
        for tile, at in (("5-3", "left"), ("5-6", "right"), ("3-3", "left")):
            store.append(match_id, Play(tile, at=at), caller=Caller.local("t1"))
        store.append(match_id, {"void": True}, caller=Caller.local("t1"))
        first = store.start_hand(match_id, setter=0, caller=Caller.local("t1"))
        second = store.append(match_id, Play("6-6"), caller=Caller.local("t1"))
        assert second.hands[0] is first.hands[0]
        assert second.hands[1] is not first.hands[1]
        assert list(first.hands[1].events) == []


class TestFailedWrites:
    def test_a_refused_entry_changes_nothing(self, store: Store) -> None:
        match_id = _opening(store)
        held = store.load(match_id, device="t1")
        before, rows = _picture(held), snapshot(store)
        with pytest.raises(IllegalEventError):
            store.append(match_id, Play("4-4", at="left"), caller=Caller.local("t1"))
        with pytest.raises(IllegalEventError):
            store.settle(match_id, [[], []], caller=Caller.local("t1"))
        with pytest.raises(IllegalEventError):
            store.start_hand(match_id, setter=1, caller=Caller.local("t1"))
        assert _picture(held) == before
        assert snapshot(store) == rows
        assert _picture(store.load(match_id, device="t1")) == before

    @pytest.mark.parametrize("write", WRITES)
    def test_a_failed_commit_leaves_everything_as_it_was(
        self, store: Store, write: str, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        match_id, action = _match_before(store, write)
        held = store.load(match_id, device="t1")
        before, rows, trail = _picture(held), snapshot(store), store.audit(match_id)

        def failing_commit(self: SessionTransaction, *args: Any, **kwargs: Any) -> None:
            raise OperationalError("COMMIT", {}, Exception("disk I/O error"))

        with monkeypatch.context() as patch:
            patch.setattr(SessionTransaction, "commit", failing_commit)
            with pytest.raises(StoreError) as failure:
                action()
        assert "\n" not in str(failure.value) and "OperationalError" not in str(failure.value)
        assert _picture(held) == before
        assert snapshot(store) == rows
        assert store.audit(match_id) == trail
        assert _picture(store.load(match_id, device="t1")) == before
        # The same write then works, on top of what was stored.
        after = action()
        if write != "finish":
            assert after.revision == held.revision + 1
        assert _picture(held) == before
