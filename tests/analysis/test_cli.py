"""``scorepad analyse``: text and JSON, exit statuses as the referee's, names printed safely."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorepad.cli import main

DATA = Path(__file__).parent.parent / "data" / "analysis"


def test_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", str(DATA / "renege-proved.json")]) == 0
    out = capsys.readouterr()
    assert out.err == ""
    assert "renege proved: Bob drew 1 at event 2 and played it (left 5, right 5) while holding a tile" in out.out
    assert "Renege proved: Bob held a tile that could be played and did not play it" in out.out
    assert "Players' hands: 1 renege proved, 1 clean, 0 can't tell" in out.out


def test_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", str(DATA / "missed-automatic.json"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    play = data["hands"][0]["plays"][1]
    assert play["automatic"]["use"] == "missed"
    assert play["automatic"]["kind"] == "pet"
    assert play["missed"] == [{"tile": "1-6", "at": "left", "board_count": 10, "score": 10}]
    assert data["summary"]["automatics_missed"] == 1


def test_unreadable_is_status_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["analyse", str(bad)]) == 2
    out = capsys.readouterr()
    assert out.out == "" and len(out.err.splitlines()) == 1 and "Traceback" not in out.err
    assert main(["analyse", str(tmp_path / "missing.json")]) == 2


def test_illegal_is_status_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = json.loads((DATA / "episcopal.json").read_text())
    record["hands"][0]["events"].append({"play": "6-6", "at": "left"})
    bad = tmp_path / "illegal.json"
    bad.write_text(json.dumps(record))
    assert main(["analyse", str(bad)]) == 1
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err.startswith("hand 1 event 5:") and len(out.err.splitlines()) == 1


def test_control_characters_in_names_never_reach_the_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The record reader refuses such a name (exit 2, as the referee); the one line says so escaped.
    record = json.loads((DATA / "renege-proved.json").read_text())
    record["players"] = ["Ann", "B\x1b[2Jb"]
    path = tmp_path / "names.json"
    path.write_text(json.dumps(record))
    for extra in ([], ["--json"]):
        assert main(["analyse", str(path), *extra]) == 2
        out = capsys.readouterr()
        assert out.out == ""
        assert "\x1b" not in out.err and "U+001B" in out.err and len(out.err.splitlines()) == 1


def test_a_jaques_record_is_analysed_without_smartt(capsys: pytest.CaptureFixture[str]) -> None:
    # The clutches and words are Smartt's ideas: shown for any game, cited only under Smartt, and in
    # another book's game each word of Smartt's table is marked as his (issue 20, item 5).
    assert main(["analyse", str(DATA.parent / "jaques-2p-double-nine.json")]) == 0
    out = capsys.readouterr().out
    assert "Smartt §" not in out
    assert (
        "Come-off-ence! Bob plays on the third side of the Sniff (a word of Smartt's table, not of this book)." in out
    )
    # §7.3's automatics are Smartt's: a Jaques play that keeps the count a multiple of five is a counter-score.
    assert "Counter-score missed: 3-8 down would have turned the count of 45 into 50" in out
    assert "Automatic" not in out and "Pet" not in out
