"""Amend: the last entry replaced (a call corrected) or withdrawn (a muggins claim), undone by one Undo."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import func, select

from scorepad.access import Caller
from scorepad.rules import Draw, IllegalEventError, Muggins, Play, report
from scorepad.store import NothingToAmend, Store, StoreConflict, open_store
from scorepad.store.models import LogEntry

from .store_helpers import EXAMPLES, enter_step, load_json, record_steps, snapshot

MUGGINS = load_json(EXAMPLES / "jaques-2p-muggins-match.json")


def _log_count(store: Store) -> int:
    with store.engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(LogEntry)).scalar_one()


def _opening(store: Store) -> int:
    match_id = store.create_match(rules="smartt", options={}, players=["Ann", "Bob"], caller=Caller.local("t1"))
    store.start_hand(match_id, setter=0, caller=Caller.local("t1"))
    store.append(match_id, Play("5-5"), caller=Caller.local("t1"))
    store.append(match_id, Play("5-3", at="left", call=0), caller=Caller.local("t1"))
    return match_id


def _events(state: Any) -> list[Any]:
    return list(state.current.events)


def _to_claim(store: Store) -> tuple[int, Any]:
    """The muggins record entered up to and including hand 2's claim; returns the match and the claim."""
    match_id = store.create_match(
        rules=MUGGINS["rules"], options=MUGGINS["options"], players=MUGGINS["players"], caller=Caller.local()
    )
    steps = record_steps(MUGGINS["hands"])
    claim_at = next(i for i, (kind, arg) in enumerate(steps) if kind == "event" and "muggins" in arg)
    for step in steps[: claim_at + 1]:
        enter_step(store, match_id, step, device="t1")
    return match_id, steps[claim_at][1]


class TestCallCorrected:
    def test_one_entry_one_audit_line_and_undo_restores_the_call(self, store: Store) -> None:
        match_id = _opening(store)
        before = store.load(match_id, device="t1")
        entries, trail = _log_count(store), len(store.audit(match_id))
        amended = store.amend(match_id, Play("5-3", at="left", call=10), caller=Caller.local("t1"))
        assert _events(amended)[-1] == Play("5-3", at="left", call=10)
        assert _events(amended)[:-1] == _events(before)[:-1]
        assert amended.scores == [10, 10] and before.scores == [10, 0]
        assert amended.revision == before.revision + 1
        assert _log_count(store) == entries + 1
        audit = store.audit(match_id)
        assert len(audit) == trail + 1
        line = audit[-1]
        assert line.action == "amend" and line.device == "t1"
        assert line.detail["payload"]["event"] == {"play": "5-3", "at": "left", "call": 10}
        assert line.detail["target"]["payload"] == {"play": "5-3", "at": "left", "call": 0}
        # The held snapshot never moved.
        assert _events(before)[-1] == Play("5-3", at="left", call=0)
        undone = store.undo(match_id, caller=Caller.local("t1"))
        assert _events(undone) == _events(before)
        assert report(undone) == report(before)
        redone = store.redo(match_id, caller=Caller.local("t1"))
        assert _events(redone) == _events(amended)

    def test_amending_twice_keeps_every_version(self, store: Store) -> None:
        match_id = _opening(store)
        store.amend(match_id, Play("5-3", at="left", call=10), caller=Caller.local("t1"))
        store.amend(match_id, Play("5-3", at="left", call=5), caller=Caller.local("t1"))
        assert _events(store.load(match_id))[-1] == Play("5-3", at="left", call=5)
        assert _events(store.undo(match_id, caller=Caller.local()))[-1] == Play("5-3", at="left", call=10)
        assert _events(store.undo(match_id, caller=Caller.local()))[-1] == Play("5-3", at="left", call=0)
        assert _events(store.undo(match_id, caller=Caller.local())) == [Play("5-5")]

    def test_an_amendment_then_later_entries_undo_in_order(self, store: Store) -> None:
        match_id = _opening(store)
        store.amend(match_id, Play("5-3", at="left", call=10), caller=Caller.local("t1"))
        store.append(match_id, Draw(1), caller=Caller.local("t1"))
        assert _events(store.undo(match_id, caller=Caller.local()))[-1] == Play("5-3", at="left", call=10)
        assert _events(store.undo(match_id, caller=Caller.local()))[-1] == Play("5-3", at="left", call=0)

    def test_the_amended_log_resumes_and_exports(self, store: Store, db_url: str) -> None:
        match_id = _opening(store)
        state = store.amend(match_id, Play("5-3", at="left", call=10), caller=Caller.local("t1"))
        with open_store(db_url) as other:
            resumed = other.load(match_id)
            assert report(resumed) == report(state) and resumed.revision == state.revision
            events = other.export_record(match_id)["hands"][0]["events"]
        assert events == [{"play": "5-5"}, {"play": "5-3", "at": "left", "call": 10}]
        store.undo(match_id, caller=Caller.local())
        with open_store(db_url) as other:
            assert other.export_record(match_id)["hands"][0]["events"][-1] == {"play": "5-3", "at": "left", "call": 0}


class TestClaimWithdrawn:
    def test_withdrawing_a_claim_and_undoing_the_withdrawal(self, store: Store) -> None:
        match_id, claim = _to_claim(store)
        claimed = store.load(match_id, device="t1")
        assert _events(claimed)[-1] == Muggins(claim["muggins"])
        withdrawn = store.amend(match_id, None, caller=Caller.local("t1"))
        assert _events(withdrawn) == _events(claimed)[:-1]
        # The store keeps what it handed out: the next load is that very snapshot, not a replay.
        assert store.load(match_id, device="t1") is withdrawn
        assert store.audit(match_id)[-1].action == "amend"
        assert store.audit(match_id)[-1].detail["target"]["payload"] == claim
        with pytest.raises(NothingToAmend, match="already withdrawn"):
            store.amend(match_id, None, caller=Caller.local("t1"))
        restored = store.undo(match_id, caller=Caller.local("t1"))
        assert _events(restored) == _events(claimed)
        assert report(restored) == report(claimed)
        # The withdrawn claim's place is empty, and a record export leaves it out.
        store.redo(match_id, caller=Caller.local("t1"))
        hands = store.export_record(match_id)["hands"]
        assert claim not in hands[-1]["events"]
        assert _events(store.undo(match_id, caller=Caller.local()))[-1] == Muggins(claim["muggins"])


class TestRefused:
    def test_an_amendment_the_rules_refuse_changes_nothing(self, store: Store) -> None:
        match_id = _opening(store)
        held = store.load(match_id, device="t1")
        rows = snapshot(store)
        with pytest.raises(IllegalEventError):
            store.amend(match_id, Play("4-4", at="left"), caller=Caller.local("t1"))
        assert snapshot(store) == rows
        assert _events(held)[-1] == Play("5-3", at="left", call=0)
        assert report(store.load(match_id, device="t1")) == report(held)

    def test_nothing_to_amend_after_a_start(self, store: Store) -> None:
        match_id = store.create_match(rules="smartt", options={}, players=["Ann", "Bob"], caller=Caller.local())
        with pytest.raises(NothingToAmend, match="nothing has been entered"):
            store.amend(match_id, Play("5-5"), caller=Caller.local())
        store.start_hand(match_id, setter=0, caller=Caller.local())
        rows = snapshot(store)
        with pytest.raises(NothingToAmend, match="the start of hand 1"):
            store.amend(match_id, Play("5-5"), caller=Caller.local())
        assert snapshot(store) == rows

    def test_an_amendment_on_an_old_revision_is_refused(self, store: Store) -> None:
        match_id = _opening(store)
        seen = store.load(match_id, device="t2")
        store.append(match_id, Draw(1), caller=Caller.local("t1"))
        rows = snapshot(store)
        with pytest.raises(StoreConflict, match="t1 entered a draw first"):
            store.amend(
                match_id, Play("5-3", at="left", call=10), caller=Caller.local("t2"), expected_revision=seen.revision
            )
        assert snapshot(store) == rows


def test_last_entry_names_what_an_undo_would_take_back(store: Store) -> None:
    match_id = store.create_match(rules="smartt", options={}, players=["Ann", "Bob"], caller=Caller.local("t1"))
    assert store.last_entry(match_id, device="t1")[1] is None
    match_id = _opening(store)
    state, kind = store.last_entry(match_id, device="t1")
    assert kind == "play" and state.revision == store.load(match_id).revision
    store.amend(match_id, Play("5-3", at="left", call=10), caller=Caller.local("t1"))
    assert store.last_entry(match_id, device="t2")[1] == "amend", "another device reads the match as it stands"
    store.undo(match_id, caller=Caller.local("t1"))
    store.undo(match_id, caller=Caller.local("t1"))
    store.undo(match_id, caller=Caller.local("t1"))
    assert store.last_entry(match_id, device="t1")[1] == "start"
