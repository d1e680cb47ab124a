"""``scorepad import / export / matches`` through their handlers."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from scorepad.access import Caller
from scorepad.rules import parse_record, replay, report
from scorepad.store.cli import add_commands

from .store_helpers import example_records, load_json

RECORD = max(example_records(), key=lambda p: p.stat().st_size)


def run(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="scorepad")
    add_commands(parser.add_subparsers(dest="command"))
    args = parser.parse_args(list(argv))
    return args.func(args)


def _one_line_error(capsys: pytest.CaptureFixture[str]) -> str:
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and "Traceback" not in captured.err
    return lines[0]


def test_import_prints_the_id_alone_on_the_last_line(db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert run("import", str(RECORD), "--db", db_url) == 0
    first = capsys.readouterr().out.splitlines()[-1]
    assert run("import", str(RECORD), "--db", db_url) == 0
    second = capsys.readouterr().out.splitlines()[-1]
    assert first.isdigit() and int(second) == int(first) + 1


def test_export_replays_as_the_import(db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run("import", str(RECORD), "--db", db_url)
    match_id = capsys.readouterr().out.split()[-1]
    out = tmp_path / "out.json"
    assert run("export", match_id, "--db", db_url, "-o", str(out)) == 0
    exported = json.loads(out.read_text())
    assert report(replay(parse_record(exported))) == report(replay(parse_record(load_json(RECORD))))
    assert run("export", match_id, "--db", db_url) == 0
    assert json.loads(capsys.readouterr().out) == exported


def test_matches_table_and_json(db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    run("import", str(RECORD), "--db", db_url)
    match_id = int(capsys.readouterr().out.split()[-1])
    assert run("matches", "--db", db_url, "--json") == 0
    [listed] = json.loads(capsys.readouterr().out)
    assert listed["id"] == match_id
    assert listed["players"] == load_json(RECORD)["players"]
    assert {"rules", "started", "status", "scores"} <= set(listed)
    assert run("matches", "--db", db_url) == 0
    table = capsys.readouterr().out
    assert str(match_id) in table and listed["status"] in table


class TestErrors:
    def test_missing_file_is_status_2(
        self, sqlite_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        assert run("import", str(tmp_path / "none.json"), "--db", sqlite_url) == 2
        assert "cannot read" in _one_line_error(capsys)

    def test_not_a_record_is_status_2(
        self, sqlite_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        bad = tmp_path / "bad.json"
        bad.write_text('{"format": "sniff-record/1", "players": "Ann"}')
        assert run("import", str(bad), "--db", sqlite_url) == 2
        assert "players" in _one_line_error(capsys)

    def test_illegal_record_is_status_1_and_stores_nothing(
        self, sqlite_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        record = load_json(RECORD)
        record["hands"][0]["events"].insert(1, {"play": "9-9"})
        bad = tmp_path / "illegal.json"
        bad.write_text(json.dumps(record))
        assert run("import", str(bad), "--db", sqlite_url) == 1
        assert "hand 1 event 2" in _one_line_error(capsys)
        assert run("matches", "--db", sqlite_url, "--json") == 0
        assert json.loads(capsys.readouterr().out) == []

    @pytest.mark.parametrize("match_id", ["42", "x"])
    def test_unknown_match_is_status_1(
        self, sqlite_url: str, match_id: str, capsys: pytest.CaptureFixture[str]
    ) -> None:
        assert run("export", match_id, "--db", sqlite_url) == 1
        assert "no match with id" in _one_line_error(capsys)

    def test_unusable_database_is_status_2(self, capsys: pytest.CaptureFixture[str]) -> None:
        # Checked before anything else (scorepad.store.health): an unusable database is status 2.
        assert run("matches", "--db", "mysql://nobody@nowhere/db") == 2
        assert "cannot open the database" in _one_line_error(capsys)

    def test_unwritable_output_is_status_2(
        self, sqlite_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        run("import", str(RECORD), "--db", sqlite_url)
        match_id = capsys.readouterr().out.split()[-1]
        target = tmp_path / "missing-dir" / "out.json"
        assert run("export", match_id, "--db", sqlite_url, "-o", str(target)) == 2
        assert "cannot write" in _one_line_error(capsys)
        assert not target.parent.exists()


# What a damaged row can hold: text that is not JSON (SQLite only: PostgreSQL's JSON column refuses it),
# JSON that breaks the one-array decode, JSON of the wrong shape.
CORRUPT = [
    pytest.param("sqlite", "not json {", id="sqlite-not-json"),
    pytest.param("sqlite", '1},{"x": 2', id="sqlite-splits-the-array"),
    pytest.param("sqlite", "[]", id="sqlite-wrong-shape"),
    pytest.param("postgres", '{"players": ["Ann"]}', id="postgres-missing-fields", marks=pytest.mark.postgres),
]


@pytest.mark.parametrize(("database", "corrupt"), CORRUPT)
def test_one_corrupt_listing_row_does_not_hide_the_others(
    request: pytest.FixtureRequest, database: str, corrupt: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The listing cache is a copy of the log: a bad row is rebuilt from its match's log."""
    from sqlalchemy import create_engine, text

    from scorepad.store.settings import normalize_url

    db_url = request.getfixturevalue("sqlite_url" if database == "sqlite" else "pg_url")
    ids = []
    for _ in range(3):
        run("import", str(RECORD), "--db", db_url)
        ids.append(int(capsys.readouterr().out.split()[-1]))
    engine = create_engine(normalize_url(db_url))
    with engine.begin() as conn:
        conn.execute(text("UPDATE matches SET summary = :bad WHERE id = :id"), {"bad": corrupt, "id": ids[1]})
    engine.dispose()
    assert run("matches", "--db", db_url, "--json") == 0
    listed = json.loads(capsys.readouterr().out)
    assert [m["id"] for m in listed[:3]] == ids[::-1]
    assert listed[1]["players"] == load_json(RECORD)["players"], "rebuilt from the log"
    assert run("matches", "--db", db_url) == 0


def test_export_of_a_hand_awaiting_its_settlement_is_one_line_and_writes_nothing(
    db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A hand gone out but not settled has no ``remaining`` yet, so no record the referee would take (§3)."""
    from scorepad.store import AwaitsSettlement, open_store
    from tests.app.app_hands import GO_OUT_HAND

    # The 0-5 fits either long side of the Sniff alike: the record says which (§3).
    plays = [{"play": tile, "at": "left"} if tile == "0-5" else {"play": tile} for tile, _end in GO_OUT_HAND]
    record = {
        "format": "sniff-record/1",
        "rules": "smartt",
        "players": ["Ann", "Bob"],
        "hands": [{"setter": 0, "events": plays[:-1]}],
    }
    with open_store(db_url) as store:
        match_id = store.import_record(record, caller=Caller.local("test"))
        store.append(match_id, plays[-1], caller=Caller.local("test"))
        assert store.load(match_id).current.needs_settlement
        with pytest.raises(AwaitsSettlement, match="hand 1 went out and awaits its settlement"):
            store.export_record(match_id, complete=True)
        # Inside the score-pad the log is still read as it stands.
        assert store.export_record(match_id)["hands"][0]["events"] == plays
    out = tmp_path / "out.json"
    assert run("export", str(match_id), "--db", db_url, "-o", str(out)) == 1
    line = _one_line_error(capsys)
    assert line.startswith(f"match {match_id}'s hand 1 went out and awaits its settlement"), line
    assert not out.exists() and not list(tmp_path.glob("*.partial"))
