"""Matches that belong to someone, on SQLite and PostgreSQL: labels, renames, archive, delete, history filters."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from scorepad.access import Caller
from scorepad.rules import Play
from scorepad.store import Store, StoreConflict, UnknownMatch, open_store
from scorepad.store.matches import (
    MatchEditRefused,
    archive_match,
    audit_trail,
    delete_match,
    label_match,
    match_label,
    match_lines,
    rename_player,
)


def _match(store: Store, players: list[str] | None = None) -> int:
    match_id = store.create_match(rules="smartt", players=players or ["Ann", "Bob"], caller=Caller.local("t1"))
    store.start_hand(match_id, setter=0, caller=Caller.local("t1"))
    store.append(match_id, Play("5-5"), caller=Caller.local("t1"))
    return match_id


def _actions(store: Store, match_id: int) -> list[tuple[str, str | None, dict]]:
    return [(item.action, item.device, item.detail) for item in audit_trail(store, match_id)]


class TestLabel:
    def test_a_label_is_stored_trimmed_and_audited(self, store: Store) -> None:
        match_id = _match(store)
        assert label_match(store, match_id, "  Table 3 ", caller=Caller.local("t1")) == "Table 3"
        assert match_label(store, match_id) == "Table 3"
        assert _actions(store, match_id)[-1] == ("label", "t1", {"from": None, "to": "Table 3"})

    def test_blank_clears_it_and_the_same_label_twice_writes_one_line(self, store: Store) -> None:
        match_id = _match(store)
        label_match(store, match_id, "Pub", caller=Caller.local("t1"))
        label_match(store, match_id, "Pub", caller=Caller.local("t1"))
        label_match(store, match_id, "  ", caller=Caller.local("t2"))
        assert match_label(store, match_id) is None
        labels = [a for a in _actions(store, match_id) if a[0] == "label"]
        assert labels == [("label", "t1", {"from": None, "to": "Pub"}), ("label", "t2", {"from": "Pub", "to": None})]

    def test_a_long_label_is_refused_with_a_sentence(self, store: Store) -> None:
        match_id = _match(store)
        with pytest.raises(MatchEditRefused, match="at most 40 characters"):
            label_match(store, match_id, "x" * 41, caller=Caller.local())
        assert match_label(store, match_id) is None

    def test_an_unknown_match(self, store: Store) -> None:
        with pytest.raises(UnknownMatch):
            label_match(store, 999, "A", caller=Caller.local())


class TestRename:
    def test_a_rename_shows_in_the_state_the_listing_and_the_export(self, store: Store) -> None:
        match_id = _match(store)
        store.load(match_id, device="t1")
        assert rename_player(store, match_id, 1, " Robert ", caller=Caller.local("t1")) == ["Ann", "Robert"]
        assert store.load(match_id, device="t1").players == ["Ann", "Robert"]
        assert store.list_matches()[0].players == ["Ann", "Robert"]
        assert store.export_record(match_id)["players"] == ["Ann", "Robert"]
        assert _actions(store, match_id)[-1] == ("rename", "t1", {"seat": 1, "from": "Bob", "to": "Robert"})
        # The log is untouched: the hand goes on where it was.
        state = store.append(match_id, Play("5-0", at="left"), caller=Caller.local("t1"))
        assert state.current is not None and len(state.current.events) == 2

    def test_a_screen_that_has_not_seen_the_rename_is_told_to_reload(self, store: Store) -> None:
        match_id = _match(store)
        store.load(match_id, device="t2")
        rename_player(store, match_id, 0, "Annie", caller=Caller.local("t1"))
        with pytest.raises(StoreConflict):
            store.append(match_id, Play("5-0", at="left"), caller=Caller.local("t2"))
        assert store.load(match_id, device="t2").players == ["Annie", "Bob"]

    @pytest.mark.parametrize("name", ["ann", " ANN ", "Ann"])
    def test_a_duplicate_name_is_refused_case_aside(self, store: Store, name: str) -> None:
        match_id = _match(store)
        with pytest.raises(MatchEditRefused, match="Two players are called"):
            rename_player(store, match_id, 1, name, caller=Caller.local())
        assert store.load(match_id).players == ["Ann", "Bob"]
        assert "rename" not in [a[0] for a in _actions(store, match_id)]

    def test_a_name_too_long_or_blank_is_refused(self, store: Store) -> None:
        match_id = _match(store)
        too_long = r"^Player 2's name is 41 characters long; at most 40 are allowed\.$"
        with pytest.raises(MatchEditRefused, match=too_long):
            rename_player(store, match_id, 1, "B" * 41, caller=Caller.local())
        with pytest.raises(MatchEditRefused, match=r"^Player 2's name is blank\.$"):
            rename_player(store, match_id, 1, "   ", caller=Caller.local())
        with pytest.raises(MatchEditRefused, match="control character"):
            rename_player(store, match_id, 1, "Bob\x1b[2J", caller=Caller.local())
        with pytest.raises(MatchEditRefused, match="seats 0 to 1"):
            rename_player(store, match_id, 2, "Cy", caller=Caller.local())

    def test_renaming_one_match_leaves_another_with_the_same_player(self, store: Store) -> None:
        first, second = _match(store), _match(store)
        rename_player(store, first, 1, "Robert", caller=Caller.local())
        assert store.load(second).players == ["Ann", "Bob"]


class TestArchiveAndDelete:
    def test_archive_hides_from_the_default_history_and_comes_back(self, store: Store) -> None:
        kept, archived = _match(store), _match(store)
        archive_match(store, archived, caller=Caller.local("t1"))
        archive_match(store, archived, caller=Caller.local("t1"))
        assert [line.id for line in match_lines(store)] == [kept]
        assert [line.id for line in match_lines(store, archived=True)] == [archived]
        assert [line.id for line in match_lines(store, archived=None)] == [archived, kept]
        archive_match(store, archived, archived=False, caller=Caller.local("t2"))
        assert [line.id for line in match_lines(store)] == [archived, kept]
        actions = [a[:2] for a in _actions(store, archived) if a[0] in ("archive", "unarchive")]
        assert actions == [("archive", "t1"), ("unarchive", "t2")]
        # An archived match still loads and takes entries.
        assert store.load(archived).current is not None

    def test_delete_removes_it_everywhere_but_keeps_the_audit(self, store: Store) -> None:
        kept, gone = _match(store), _match(store, ["Cy", "Di"])
        label_match(store, gone, "Table 9", caller=Caller.local())
        store.load(gone, device="t2")
        delete_match(store, gone, caller=Caller.local("t1"))
        assert [s.id for s in store.list_matches()] == [kept]
        assert [line.id for line in match_lines(store, archived=None)] == [kept]
        with pytest.raises(UnknownMatch):
            store.load(gone, device="t2")
        # A screen still showing it is refused: its write finds the revision moved.
        with pytest.raises((UnknownMatch, StoreConflict)):
            store.append(gone, Play("5-0", at="left"), caller=Caller.local("t2"))
        with pytest.raises(UnknownMatch):
            delete_match(store, gone, caller=Caller.local())
        action, device, detail = _actions(store, gone)[-1]
        assert (action, device) == ("delete", "t1")
        assert detail == {"players": ["Cy", "Di"], "label": "Table 9", "status": "playing"}


class TestHistoryFilters:
    def test_by_label_player_and_day(self, store: Store) -> None:
        a = _match(store, ["Ann", "Bob"])
        b = _match(store, ["Cy", "Di"])
        label_match(store, a, "Table 1", caller=Caller.local())
        label_match(store, b, "Garden", caller=Caller.local())
        assert [line.id for line in match_lines(store, label="table")] == [a]
        assert [line.label for line in match_lines(store, player="di")] == ["Garden"]
        today = datetime.now(UTC).date()
        assert [line.id for line in match_lines(store, since=today, until=today)] == [b, a]
        assert match_lines(store, since=today + timedelta(days=1)) == []
        assert match_lines(store, until=today - timedelta(days=1)) == []
        assert match_lines(store, label="table", player="cy") == []

    def test_a_line_as_json_gains_the_label(self, store: Store) -> None:
        match_id = _match(store)
        label_match(store, match_id, "Bar", caller=Caller.local())
        (line,) = match_lines(store)
        out = line.to_dict()
        assert out["label"] == "Bar" and out["archived"] is False and out["players"] == ["Ann", "Bob"]


def test_a_rename_tells_the_commit_listeners(store: Store) -> None:
    match_id = _match(store)
    heard: list[tuple[int, int, str | None]] = []
    store.add_commit_listener(lambda *told: heard.append(told))
    revision = store.load(match_id).revision
    rename_player(store, match_id, 0, "Annie", caller=Caller.local("t1"))
    assert heard == [(match_id, revision + 1, "t1")]
    assert store.load(match_id).revision == revision + 1


def test_scorepad_matches_shows_the_label(db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    from .test_cli import run

    with open_store(db_url) as opened:
        labelled, plain = _match(opened), _match(opened, ["Cy", "Di"])
        label_match(opened, labelled, "Table 7", caller=Caller.local())
    assert run("matches", "--db", db_url, "--json") == 0
    listed = {m["id"]: m for m in json.loads(capsys.readouterr().out)}
    assert (listed[labelled]["label"], listed[plain]["label"]) == ("Table 7", None)
    assert {"id", "players", "rules", "started", "status", "scores"} <= set(listed[plain])
    assert run("matches", "--db", db_url) == 0
    out = capsys.readouterr().out
    assert "label" in out and "Table 7" in out
