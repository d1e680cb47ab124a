"""Two writers on one hand: each sequence number is taken once, the loser gets StoreConflict."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import select

from scorepad.access import Caller
from scorepad.rules import event_from_dict
from scorepad.store import Store, StoreConflict, open_store
from scorepad.store import repository as repo
from scorepad.store.db import session_scope, writer
from scorepad.store.models import Hand, LogEntry, utcnow

from .store_helpers import example_records, load_json


def _race(*actions: Callable[[], Any]) -> list[Any]:
    """Run the actions at the same moment in threads; each result or the error raised."""
    barrier = threading.Barrier(len(actions))
    results: list[Any] = [None] * len(actions)

    def run(index: int) -> None:
        barrier.wait()
        try:
            results[index] = actions[index]()
        except BaseException as err:  # collected for the assertions
            results[index] = err

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(actions))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def _log_rows(store: Store, match_id: int) -> list[tuple[int, int, str]]:
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(Hand.number, LogEntry.seq, LogEntry.kind)
            .join(Hand, LogEntry.hand_id == Hand.id)  # type: ignore[arg-type]
            .where(Hand.match_id == match_id)  # type: ignore[arg-type]
            .order_by(LogEntry.revision)  # type: ignore[arg-type]
        ).all()
    return [tuple(row) for row in rows]  # type: ignore[misc]


def test_the_unique_constraint_refuses_a_taken_seq(store: Store) -> None:
    """Below the API: two sessions that both computed seq 2 for the same hand."""
    match_id = store.create_match(rules="smartt", players=["Ann", "Bob"], caller=Caller.local())
    store.start_hand(match_id, setter=0, caller=Caller.local())

    def insert(kind: str) -> str:
        with repo.conflicts_reported(), session_scope(writer(store.engine)) as session:
            repo.append_entry(
                session=session,
                match_id=match_id,
                number=1,
                seq=2,
                revision=2,
                kind=kind,
                payload={"play": "6-6"},
                device=kind,
                now=utcnow(),
            )
        return kind

    results = _race(lambda: insert("a"), lambda: insert("b"))
    assert sorted(type(r).__name__ for r in results) == ["StoreConflict", "str"]
    assert [seq for _, seq, _ in _log_rows(store, match_id)] == [1, 2]


def test_two_devices_entering_the_same_hand(db_url: str) -> None:
    """Both scorers enter every event; each lands once, nothing is lost or doubled."""
    record = load_json(max(example_records(), key=lambda p: p.stat().st_size))
    hand = record["hands"][0]
    with open_store(db_url) as table_a, open_store(db_url) as table_b:
        match_id = table_a.create_match(
            rules=record.get("rules", "smartt"),
            options=record.get("options"),
            players=record["players"],
            caller=Caller.local(),
        )
        table_a.start_hand(match_id, setter=hand["setter"], caller=Caller.local())
        acknowledged = 1
        conflicts = 0
        for raw in hand["events"]:
            event = event_from_dict(raw)
            # Each device shows the match as it last saw it, then both tap.
            table_a.load(match_id)
            table_b.load(match_id)
            results = _race(
                lambda event=event: table_a.append(match_id, event, caller=Caller.local("a")),
                lambda event=event: table_b.append(match_id, event, caller=Caller.local("b")),
            )
            errors = [r for r in results if isinstance(r, BaseException)]
            assert len(errors) == 1, results
            assert isinstance(errors[0], StoreConflict)
            assert "try again" in str(errors[0])
            conflicts += 1
            acknowledged += 1
            # The loser reloads and sees the event already there.
            assert table_a.load(match_id).current.events[-1] == event  # type: ignore[union-attr]
            assert table_b.load(match_id).current.events[-1] == event  # type: ignore[union-attr]
        rows = _log_rows(table_a, match_id)
        assert [seq for _, seq, _ in rows] == list(range(1, acknowledged + 1))
        assert table_b.export_record(match_id)["hands"][0]["events"] == [
            event_from_dict(e).to_dict() for e in hand["events"]
        ]
        assert conflicts == len(hand["events"])


def test_a_conflict_is_retryable(db_url: str) -> None:
    with open_store(db_url) as table_a, open_store(db_url) as table_b:
        match_id = table_a.create_match(rules="smartt", players=["Ann", "Bob"], caller=Caller.local())
        table_a.start_hand(match_id, setter=0, caller=Caller.local())
        table_b.load(match_id)
        table_a.append(match_id, {"play": "5-5"}, caller=Caller.local())
        with pytest.raises(StoreConflict):
            table_b.append(match_id, {"play": "5-3", "at": "left", "call": 10}, caller=Caller.local())
        # Retrying re-reads the match and the entry goes in after A's.
        state = table_b.append(match_id, {"play": "5-3", "at": "left", "call": 10}, caller=Caller.local())
        assert [e.to_dict()["play"] for e in state.current.events] == ["5-5", "5-3"]  # type: ignore[union-attr]


def test_an_undo_racing_the_next_hand_start(db_url: str) -> None:
    """Different hands, so different seq spaces: the match revision keeps them apart."""
    record = load_json(next(p for p in example_records() if "2p-go-out" in p.name))
    with open_store(db_url) as table_a, open_store(db_url) as table_b:
        match_id = table_a.import_record(record, caller=Caller.local())
        table_a.load(match_id)
        table_b.load(match_id)
        results = _race(
            lambda: table_a.undo(match_id, caller=Caller.local("a")),  # takes back hand 1's settlement
            lambda: table_b.start_hand(match_id, caller=Caller.local("b")),  # starts hand 2
        )
        errors = [r for r in results if isinstance(r, BaseException)]
        assert len(errors) == 1 and isinstance(errors[0], StoreConflict), results
        with open_store(db_url) as fresh:
            state = fresh.load(match_id)  # the stored log replays
            assert len(state.hands) in (1, 2)


def test_two_screens_sharing_one_store(store: Store) -> None:
    """The web app serves every page from one store: each device still has its own view."""
    match_id = store.create_match(rules="smartt", players=["Ann", "Bob"], caller=Caller.local())
    store.start_hand(match_id, setter=0, caller=Caller.local("page-a"))
    store.load(match_id, device="page-a")
    store.load(match_id, device="page-b")
    store.append(match_id, {"play": "5-5"}, caller=Caller.local("page-a"))
    # Page B still shows the empty hand: its tap on the same tile is not a second set.
    with pytest.raises(StoreConflict):
        store.append(match_id, {"play": "5-5"}, caller=Caller.local("page-b"))
    state = store.load(match_id, device="page-b")
    assert len(state.current.events) == 1  # type: ignore[union-attr]
    store.append(match_id, {"play": "5-3", "at": "left", "call": 10}, caller=Caller.local("page-b"))
    with pytest.raises(StoreConflict):
        store.undo(match_id, caller=Caller.local("page-a"))
