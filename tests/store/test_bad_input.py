"""Bad input: one plain error, and the store exactly as it was."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from scorepad.access import Caller
from scorepad.rules import (
    Draw,
    IllegalEventError,
    IllegalRecordError,
    Play,
    RecordFormatError,
)
from scorepad.store import BrokenLog, Store, UnknownMatch, open_store
from scorepad.store.models import LogEntry

from .store_helpers import example_records, load_json, snapshot


def _one_plain_line(err: BaseException) -> None:
    message = str(err)
    assert message and "\n" not in message and "Traceback" not in message


@pytest.fixture
def match_id(store: Store) -> int:
    match_id = store.create_match(rules="smartt", players=["Ann", "Bob"], caller=Caller.local("t1"))
    store.start_hand(match_id, setter=0, caller=Caller.local())
    store.append(match_id, Play("5-5"), caller=Caller.local())
    return match_id


class TestIllegalEntries:
    @pytest.mark.parametrize(
        "write",
        [
            lambda s, m: s.append(m, Play("6-6", at="left"), caller=Caller.local()),  # fits no open end
            lambda s, m: s.append(m, Play("5-5", at="left"), caller=Caller.local()),  # already played
            lambda s, m: s.append(m, {"play": "9-9"}, caller=Caller.local()),  # no such tile
            lambda s, m: s.append(m, {"jump": True}, caller=Caller.local()),  # no such event
            lambda s, m: s.start_hand(m, setter=1, caller=Caller.local()),  # the hand is not over
            lambda s, m: s.settle(m, [[], []], caller=Caller.local()),  # nor ended
            lambda s, m: s.settle(m, [object(), 0], caller=Caller.local()),  # not a record's value
        ],
        ids=[
            "no-fit",
            "played",
            "no-tile",
            "no-event",
            "start-too-early",
            "settle-too-early",
            "settle-unstorable",
        ],
    )
    def test_refused_and_nothing_written(self, store: Store, match_id: int, write: Callable[[Store, int], Any]) -> None:
        before = snapshot(store)
        state_before = store.load(match_id).to_record()
        with pytest.raises(IllegalEventError) as caught:
            write(store, match_id)
        _one_plain_line(caught.value)
        assert snapshot(store) == before
        assert store.load(match_id).to_record() == state_before
        # And the next legal entry still goes in.
        store.append(match_id, Play("5-3", at="left", call=10), caller=Caller.local())

    def test_a_wrong_setter_is_refused(self, store: Store) -> None:
        match_id = store.create_match(rules="smartt", players=["Ann", "Bob"], caller=Caller.local())
        before = snapshot(store)
        with pytest.raises(IllegalEventError, match="seat"):
            store.start_hand(match_id, setter=5, caller=Caller.local())
        with pytest.raises(IllegalEventError, match="setter must be named"):
            store.start_hand(match_id, caller=Caller.local())
        assert snapshot(store) == before

    @pytest.mark.parametrize(
        ("kwargs", "error"),
        [
            ({"rules": "chess", "players": ["A", "B"]}, RecordFormatError),
            ({"rules": "smartt", "players": ["A"]}, RecordFormatError),
            ({"rules": "smartt", "players": None}, RecordFormatError),
            ({"rules": "smartt", "options": {"colour": 1}, "players": ["A", "B"]}, RecordFormatError),
            (
                {"rules": "smartt", "options": {"partners": True}, "players": ["A", "B"]},
                (RecordFormatError, IllegalRecordError),
            ),
        ],
    )
    def test_bad_new_match(self, store: Store, kwargs: dict[str, Any], error: Any) -> None:
        before = snapshot(store)
        with pytest.raises(error) as caught:
            store.create_match(**kwargs, caller=Caller.local())
        _one_plain_line(caught.value)
        assert snapshot(store) == before


class TestBrokenImports:
    @pytest.mark.parametrize(
        ("text", "error"),
        [
            ("{not json", RecordFormatError),
            ("[]", RecordFormatError),
            ('{"format": "sniff-record/2", "players": ["A", "B"], "hands": []}', RecordFormatError),
            ('{"format": "sniff-record/1", "players": ["A"], "hands": []}', RecordFormatError),
            ('{"format": "sniff-record/1", "players": ["A", "B"], "hands": {}}', RecordFormatError),
            ('{"format": "sniff-record/1", "rules": "go", "players": ["A", "B"], "hands": []}', RecordFormatError),
            ('{"format": "sniff-record/1", "players": ["A", "B"], "hands": [{"events": []}]}', IllegalRecordError),
        ],
        ids=["not-json", "not-object", "format", "players", "hands", "rules", "no-setter"],
    )
    def test_unreadable_or_refused(self, store: Store, text: str, error: type) -> None:
        before = snapshot(store)
        with pytest.raises(error) as caught:
            store.import_record(text, caller=Caller.local())
        _one_plain_line(caught.value)
        assert snapshot(store) == before

    def test_an_illegal_event_deep_in_a_record_stores_nothing(self, store: Store) -> None:
        record = load_json(max(example_records(), key=lambda p: p.stat().st_size))
        record["hands"][-1]["events"].append({"play": "0-0", "at": "up"})
        before = snapshot(store)
        with pytest.raises(IllegalRecordError) as caught:
            store.import_record(json.dumps(record), caller=Caller.local())
        assert str(caught.value).startswith(f"hand {len(record['hands'])}")
        assert snapshot(store) == before
        assert store.list_matches() == []


class TestUnknownMatch:
    @pytest.mark.parametrize(
        "call",
        [
            lambda s: s.load(999),
            lambda s: s.append(999, Draw(1), caller=Caller.local()),
            lambda s: s.start_hand(999, setter=0, caller=Caller.local()),
            lambda s: s.settle(999, [0, 0], caller=Caller.local()),
            lambda s: s.undo(999, caller=Caller.local()),
            lambda s: s.redo(999, caller=Caller.local()),
            lambda s: s.export_record(999),
            lambda s: s.audit(999),
            lambda s: s.finish(999, caller=Caller.local()),
        ],
        ids=["load", "append", "start", "settle", "undo", "redo", "export", "audit", "finish"],
    )
    def test_plain_error_store_unchanged(self, store: Store, match_id: int, call: Callable[[Store], Any]) -> None:
        before = snapshot(store)
        with pytest.raises(UnknownMatch, match="no match with id 999 is stored") as caught:
            call(store)
        _one_plain_line(caught.value)
        assert snapshot(store) == before


class TestTamperedLog:
    """A log edited behind the store's back is reported, not replayed wrongly."""

    def _rewrite_payload(self, store: Store, seq: int, kind: str, payload: dict[str, Any]) -> None:
        table = LogEntry.__table__
        with store.engine.begin() as conn:
            conn.execute(table.update().where(table.c.seq == seq).values(kind=kind, payload=payload))

    def test_an_illegal_stored_event(self, store: Store, db_url: str, match_id: int) -> None:
        self._rewrite_payload(store, 2, "play", {"play": "5-5", "at": "left"})
        with open_store(db_url) as fresh, pytest.raises(BrokenLog, match="hand 1 entry 2") as caught:
            fresh.load(match_id)
        _one_plain_line(caught.value)

    def test_an_undo_of_the_wrong_entry(self, store: Store, db_url: str, match_id: int) -> None:
        self._rewrite_payload(store, 2, "undo", {"seq": 7})
        with open_store(db_url) as fresh, pytest.raises(BrokenLog, match="inconsistent"):
            fresh.load(match_id)
