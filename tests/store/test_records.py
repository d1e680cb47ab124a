"""Import and export: records replay identically after a trip through either database."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorepad.access import Caller
from scorepad.rules import parse_record, replay, report
from scorepad.store import Store, open_store
from scorepad.store import repository as repo

from .store_helpers import example_records, load_json, snapshot

EXAMPLES = example_records()


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_import_export_replay_identical(store: Store, db_url: str, path: Path) -> None:
    original = load_json(path)
    expected = report(replay(parse_record(original)))
    match_id = store.import_record(path.read_text(), caller=Caller.local("test"))
    exported = store.export_record(match_id)
    assert exported["format"] == "sniff-record/1"
    assert report(replay(parse_record(exported))) == expected
    assert exported["hands"] == original["hands"]
    assert exported["players"] == original["players"]
    # Resumed from the database alone (a fresh store, no cache), the same match.
    with open_store(db_url) as other:
        assert report(other.load(match_id)) == expected
        # And a second trip changes nothing.
        again = other.export_record(other.import_record(json.dumps(exported), caller=Caller.local()))
    assert again == exported


def test_import_accepts_decoded_objects_and_parsed_records(store: Store) -> None:
    original = load_json(EXAMPLES[0])
    from_dict = store.export_record(store.import_record(original, caller=Caller.local()))
    from_record = store.export_record(store.import_record(parse_record(original), caller=Caller.local()))
    assert from_dict == from_record


def test_an_import_is_one_transaction(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """A failure after the match row is written leaves nothing behind."""
    before = snapshot(store)

    def fail(**_: object) -> None:
        raise RuntimeError("disk full")

    monkeypatch.setattr(repo, "append_entries", fail)
    with pytest.raises(RuntimeError, match="disk full"):
        store.import_record(EXAMPLES[0].read_text(), caller=Caller.local())
    assert snapshot(store) == before


def test_imported_match_is_audited(store: Store) -> None:
    match_id = store.import_record(EXAMPLES[0].read_text(), caller=Caller.local("laptop"))
    [entry] = store.audit(match_id)
    assert (entry.action, entry.device) == ("import", "laptop")
    assert entry.detail["hands"] == len(load_json(EXAMPLES[0])["hands"])
