"""Every write takes ``expected_revision``; commit listeners hear of every successful commit."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm.session import SessionTransaction

from scorepad.access import Caller
from scorepad.rules import Draw, IllegalEventError, Play
from scorepad.store import StoreConflict, StoreError
from scorepad.store.store import Store

from .store_helpers import snapshot


def _opening(store: Store) -> int:
    match_id = store.create_match(rules="smartt", options={}, players=["Ann", "Bob"], caller=Caller.local("t1"))
    store.start_hand(match_id, setter=0, caller=Caller.local("t1"))
    store.append(match_id, Play("5-5"), caller=Caller.local("t1"))
    return match_id


def _writes(store: Store, match_id: int) -> dict[str, Callable[[int], Any]]:
    """Each write of the store, made by screen t2 on the state at a given revision."""
    return {
        "append": lambda rev: store.append(
            match_id, Play("5-3", at="left", call=10), caller=Caller.local("t2"), expected_revision=rev
        ),
        "undo": lambda rev: store.undo(match_id, caller=Caller.local("t2"), expected_revision=rev),
        "redo": lambda rev: store.redo(match_id, caller=Caller.local("t2"), expected_revision=rev),
        "settle": lambda rev: store.settle(match_id, [[], []], caller=Caller.local("t2"), expected_revision=rev),
        "start_hand": lambda rev: store.start_hand(
            match_id, setter=1, caller=Caller.local("t2"), expected_revision=rev
        ),
        "finish": lambda rev: store.finish(match_id, caller=Caller.local("t2"), expected_revision=rev),
    }


class TestExpectedRevision:
    @pytest.mark.parametrize("write", ["append", "undo", "redo", "settle", "start_hand", "finish"])
    def test_a_write_on_a_state_the_match_moved_past_is_refused(self, store: Store, write: str) -> None:
        match_id = _opening(store)
        seen = store.load(match_id, device="t2")  # what screen t2 shows
        store.append(match_id, Play("5-3", at="left", call=10), caller=Caller.local("Bob's phone"))
        held = store.load(match_id, device="t2")
        rows, trail = snapshot(store), store.audit(match_id)
        with pytest.raises(StoreConflict) as refused:
            _writes(store, match_id)[write](seen.revision)
        message = str(refused.value)
        assert message.startswith("Bob's phone entered 5-3 first"), message
        assert "\n" not in message and message.endswith(".")
        assert refused.value.revision == seen.revision + 1
        assert refused.value.device == "Bob's phone"
        assert snapshot(store) == rows
        assert store.audit(match_id) == trail
        assert store.load(match_id, device="t2").revision == held.revision

    def test_the_revision_of_the_state_held_is_accepted(self, store: Store) -> None:
        match_id = _opening(store)
        store.load(match_id, device="t2")
        # Another screen writes; t2's view is stale, but the screen was told and reloaded (say, elsewhere).
        store.append(match_id, Play("5-3", at="left", call=10), caller=Caller.local("t1"))
        current = store.load(match_id, device="t1")
        state = store.append(match_id, Draw(1), caller=Caller.local("t2"), expected_revision=current.revision)
        assert state.revision == current.revision + 1
        assert list(state.current.events)[-1] == Draw(1)  # type: ignore[union-attr]

    def test_without_expected_revision_a_write_builds_on_the_devices_view(self, store: Store) -> None:
        match_id = _opening(store)
        store.load(match_id, device="t2")
        store.append(match_id, Play("5-3", at="left", call=10), caller=Caller.local("t1"))
        with pytest.raises(StoreConflict, match="t1 entered 5-3 first"):
            store.append(match_id, Play("5-3", at="left", call=10), caller=Caller.local("t2"))
        # The refusal reloaded t2's view: entering again builds on the match as it is.
        assert store.append(match_id, Draw(1), caller=Caller.local("t2")).revision == 4

    def test_a_refusal_of_the_rules_still_comes_before_nothing_changed(self, store: Store) -> None:
        match_id = _opening(store)
        state = store.load(match_id, device="t1")
        rows = snapshot(store)
        with pytest.raises(IllegalEventError):
            store.append(match_id, Play("4-4", at="left"), caller=Caller.local("t1"), expected_revision=state.revision)
        assert snapshot(store) == rows

    def test_a_start_described(self, store: Store) -> None:
        match_id = store.create_match(rules="smartt", options={}, players=["Ann", "Bob"], caller=Caller.local())
        store.start_hand(match_id, setter=0, caller=Caller.local("table"))
        with pytest.raises(StoreConflict, match=r"^table entered the start of hand 1 first"):
            store.start_hand(match_id, setter=0, caller=Caller.local("t2"), expected_revision=0)


class TestCommitListeners:
    def test_each_commit_is_heard_once_with_its_revision_and_device(self, store: Store) -> None:
        heard: list[tuple[int, int, str | None]] = []
        store.add_commit_listener(lambda *args: heard.append(args))
        match_id = _opening(store)
        store.undo(match_id, caller=Caller.local("t2"))
        store.redo(match_id, caller=Caller.local())
        imported = store.import_record(store.export_record(match_id), caller=Caller.local("imp"))
        store.finish(match_id, caller=Caller.local("t1"))
        store.finish(match_id, caller=Caller.local("t1"))  # already finished: nothing committed, nothing heard
        assert heard == [
            (match_id, 0, "t1"),
            (match_id, 1, "t1"),
            (match_id, 2, "t1"),
            (match_id, 3, "t2"),
            (match_id, 4, None),
            (imported, 2, "imp"),
            (match_id, 5, "t1"),
        ]

    def test_failed_and_refused_writes_are_not_heard(self, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
        match_id = _opening(store)
        heard: list[tuple[int, int, str | None]] = []
        store.add_commit_listener(lambda *args: heard.append(args))
        with pytest.raises(IllegalEventError):
            store.append(match_id, Play("4-4", at="left"), caller=Caller.local("t1"))
        with pytest.raises(StoreConflict):
            store.append(match_id, Draw(1), caller=Caller.local("t1"), expected_revision=0)

        def failing_commit(self: SessionTransaction, *args: Any, **kwargs: Any) -> None:
            raise OperationalError("COMMIT", {}, Exception("disk I/O error"))

        with monkeypatch.context() as patch:
            patch.setattr(SessionTransaction, "commit", failing_commit)
            with pytest.raises(StoreError):
                store.append(match_id, Draw(1), caller=Caller.local("t1"))
        assert heard == []
        store.append(match_id, Draw(1), caller=Caller.local("t1"))
        assert heard == [(match_id, 3, "t1")]

    def test_a_failing_listener_is_logged_and_never_breaks_the_write(
        self, store: Store, caplog: pytest.LogCaptureFixture
    ) -> None:
        match_id = _opening(store)
        heard: list[int] = []

        def broken(match_id: int, revision: int, device: str | None) -> None:
            raise RuntimeError("listener bug")

        store.add_commit_listener(broken)
        store.add_commit_listener(lambda _m, revision, _d: heard.append(revision))
        with caplog.at_level(logging.ERROR, logger="scorepad.store"):
            state = store.append(match_id, Draw(1), caller=Caller.local("t1"))
        assert state.revision == 3 and heard == [3]
        assert "listener bug" in caplog.text
        store.remove_commit_listener(broken)
        caplog.clear()
        store.undo(match_id, caller=Caller.local("t1"))
        assert heard == [3, 4] and "listener bug" not in caplog.text
