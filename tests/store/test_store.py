"""The store's API on SQLite and PostgreSQL: entries, resume, undo/redo, audit, listing."""

from __future__ import annotations

import pytest

from scorepad.access import Caller
from scorepad.rules import Draw, Play, RecordFormatError, report
from scorepad.store import (
    MatchFinished,
    NothingToUndo,
    Store,
    open_store,
)
from scorepad.store.models import LogEntry

from .store_helpers import example_records, load_json, snapshot


def _new_match(store: Store) -> int:
    return store.create_match(rules="smartt", options={}, players=["Ann", "Bob"], caller=Caller.local("t1"))


def _play_opening(store: Store, match_id: int) -> None:
    store.start_hand(match_id, setter=0, caller=Caller.local("t1"))
    store.append(match_id, Play("5-5"), caller=Caller.local("t1"))
    store.append(match_id, Play("5-3", at="left", call=10), caller=Caller.local("t1"))


class TestEntries:
    def test_a_new_match_has_no_hands(self, store: Store) -> None:
        state = store.load(_new_match(store))
        assert state.hands == []
        assert state.players == ["Ann", "Bob"]

    def test_append_returns_the_engine_state(self, store: Store) -> None:
        match_id = _new_match(store)
        _play_opening(store, match_id)
        state = store.load(match_id)
        assert state.scores == [10, 10]
        assert state.current is not None and state.current.turn == 0

    def test_events_may_be_given_as_record_dicts(self, store: Store) -> None:
        match_id = _new_match(store)
        store.start_hand(match_id, setter=1, caller=Caller.local())
        state = store.append(match_id, {"play": "6-6"}, caller=Caller.local())
        assert state.current is not None and state.current.events == [Play("6-6")]

    def test_resume_in_a_new_store_rebuilds_the_same_state(self, store: Store, db_url: str) -> None:
        match_id = _new_match(store)
        _play_opening(store, match_id)
        store.append(match_id, Draw(2), caller=Caller.local("t1"))
        before = report(store.load(match_id))
        with open_store(db_url) as other:
            resumed = other.load(match_id)
            assert report(resumed) == before
            assert resumed.current is not None
            assert resumed.current.turn == store.load(match_id).current.turn  # type: ignore[union-attr]
            assert resumed.current.boneyard == store.load(match_id).current.boneyard  # type: ignore[union-attr]

    def test_sequence_numbers_run_1_2_3_per_hand(self, store: Store) -> None:
        match_id = _new_match(store)
        _play_opening(store, match_id)
        with store.engine.connect() as conn:
            seqs = conn.execute(LogEntry.__table__.select().order_by("seq")).all()
        assert [row.seq for row in seqs] == [1, 2, 3]

    def test_settle_then_next_hand(self, store: Store) -> None:
        record = load_json(next(p for p in example_records() if "2p-go-out" in p.name))
        match_id = store.create_match(rules="smartt", players=record["players"], caller=Caller.local())
        hand = record["hands"][0]
        store.start_hand(match_id, setter=hand["setter"], caller=Caller.local())
        for event in hand["events"]:
            store.append(match_id, event, caller=Caller.local())
        assert store.load(match_id).current.needs_settlement  # type: ignore[union-attr]
        assert store.list_matches()[0].status == "settling"
        state = store.settle(match_id, hand["remaining"], caller=Caller.local())
        assert state.current is not None and state.current.finished
        state = store.start_hand(match_id, setter=None, caller=Caller.local())  # Smartt §10: the set alternates
        assert state.current is not None and state.current.setter == 0


class TestUndoRedo:
    def test_undo_and_redo_keep_the_trail(self, store: Store) -> None:
        match_id = _new_match(store)
        _play_opening(store, match_id)
        state = store.undo(match_id, caller=Caller.local("t2"))
        assert state.scores == [10, 0]
        state = store.redo(match_id, caller=Caller.local("t2"))
        assert state.scores == [10, 10]
        actions = [(a.action, a.device, a.seq) for a in store.audit(match_id)]
        assert actions == [
            ("create", "t1", None),
            ("start", "t1", 1),
            ("append", "t1", 2),
            ("append", "t1", 3),
            ("undo", "t2", 4),
            ("redo", "t2", 5),
        ]
        undo = store.audit(match_id)[4]
        assert undo.detail["target"]["payload"] == {"play": "5-3", "at": "left", "call": 10}
        with store.engine.connect() as conn:
            assert conn.execute(LogEntry.__table__.select()).all().__len__() == 5

    def test_undo_reaches_a_settlement_and_a_hand_start(self, store: Store) -> None:
        record = load_json(next(p for p in example_records() if "2p-go-out" in p.name))
        match_id = store.import_record(record, caller=Caller.local())
        store.start_hand(match_id, caller=Caller.local())
        assert len(store.undo(match_id, caller=Caller.local()).hands) == 1  # the start of hand 2
        state = store.undo(match_id, caller=Caller.local())  # the settlement of hand 1
        assert state.current is not None and state.current.needs_settlement
        assert store.redo(match_id, caller=Caller.local()).current.finished  # type: ignore[union-attr]
        assert len(store.redo(match_id, caller=Caller.local()).hands) == 2
        with pytest.raises(NothingToUndo):
            store.redo(match_id, caller=Caller.local())

    def test_a_new_entry_ends_redo(self, store: Store) -> None:
        match_id = _new_match(store)
        _play_opening(store, match_id)
        store.undo(match_id, caller=Caller.local())
        store.append(match_id, Play("5-1", at="left", call=0), caller=Caller.local())
        with pytest.raises(NothingToUndo, match="nothing to redo"):
            store.redo(match_id, caller=Caller.local())

    def test_nothing_to_undo_in_a_new_match(self, store: Store) -> None:
        with pytest.raises(NothingToUndo, match="nothing to undo"):
            store.undo(_new_match(store), caller=Caller.local())

    def test_undone_match_resumes_the_same_elsewhere(self, store: Store, db_url: str) -> None:
        match_id = _new_match(store)
        _play_opening(store, match_id)
        store.undo(match_id, caller=Caller.local())
        with open_store(db_url) as other:
            assert report(other.load(match_id)) == report(store.load(match_id))


class TestListingAndFinish:
    def test_list_matches(self, store: Store) -> None:
        first = _new_match(store)
        second = store.create_match(rules="american", players=["A", "B", "C"], caller=Caller.local())
        _play_opening(store, first)
        listed = {m.id: m for m in store.list_matches()}
        assert [m.id for m in store.list_matches()] == [second, first]
        assert listed[first].players == ["Ann", "Bob"]
        assert listed[first].scores == [10, 10]
        assert listed[first].status == "playing"
        assert listed[second].status == "new"
        assert listed[second].rules == "american"
        assert listed[second].started.tzinfo is not None

    def test_finished_match_takes_no_entries(self, store: Store) -> None:
        match_id = _new_match(store)
        _play_opening(store, match_id)
        store.finish(match_id, caller=Caller.local("t1"))
        with pytest.raises(MatchFinished):
            store.append(match_id, Draw(1), caller=Caller.local())
        listed = store.list_matches()[0]
        assert listed.status == "finished" and listed.finished is not None
        assert store.audit(match_id)[-1].action == "finish"


def test_listing_keeps_awkward_names(store: Store) -> None:
    names = ['Ann, "the Bones"', "Zoë", "O'Brien", "李"]
    match_id = store.create_match(rules="smartt", players=names, caller=Caller.local())
    other = store.create_match(rules="jaques", players=["A", "B"], caller=Caller.local())
    listed = store.list_matches()
    assert [m.id for m in listed] == [other, match_id]
    assert listed[1].players == names
    assert listed[1].to_dict()["players"] == names


def test_long_names_and_device_labels(store: Store) -> None:
    """Names up to the engine's 40 characters, device labels of any length: neither breaks a write."""
    names = ["A" * 40, "B"]
    match_id = store.create_match(rules="smartt", players=names, caller=Caller.local("d" * 500))
    store.start_hand(match_id, setter=0, caller=Caller.local("d" * 500))
    assert store.list_matches()[0].players == names
    assert store.audit(match_id)[-1].device == "d" * 500
    rows = snapshot(store)
    with pytest.raises(RecordFormatError, match="at most 40"):
        store.create_match(rules="smartt", players=["A" * 500, "B"], caller=Caller.local())
    assert snapshot(store) == rows
