"""``analysis_json`` writes exactly the text ``json.dumps`` makes of the analysis's plain data."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from scorepad.analysis import MatchAnalysis, analyse_match
from scorepad.analysis.json_text import analysis_json
from scorepad.analysis.narrate import summary
from scorepad.cli import main
from scorepad.rules import load_record, replay

DATA = Path(__file__).parent.parent / "data"
RECORDS = sorted(p for p in DATA.rglob("*.json") if not p.name.endswith(".expected.json"))


def dumped(analysis: MatchAnalysis) -> str:
    out = analysis.to_dict()
    out["summary"] = summary(analysis)
    return json.dumps(out)


def replayed_or_none(text: str) -> MatchAnalysis | None:
    try:
        return analyse_match(replay(load_record(text)))
    except ValueError:
        return None  # a record the tests keep to be refused


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: str(p.relative_to(DATA)))
def test_every_record_in_tests_data(path: Path) -> None:
    analysis = replayed_or_none(path.read_text())
    if analysis is None:
        pytest.skip("a record the rules refuse")
    assert analysis_json(analysis, summary(analysis)) == dumped(analysis)


@pytest.mark.parametrize(("rules", "players"), [(r, p) for r in ("smartt", "american", "jaques") for p in (2, 3, 4)])
def test_simulated_records_of_every_preset(rules: str, players: int, tmp_path: Path) -> None:
    path = tmp_path / "record.json"
    args = ["simulate", "--rules", rules, "--players", str(players), "--hands", "60", "--seed", "11"]
    with contextlib.redirect_stdout(io.StringIO()):
        assert main([*args, "--record", str(path)]) == 0
    analysis = analyse_match(replay(load_record(path.read_text())))
    assert analysis_json(analysis, summary(analysis)) == dumped(analysis)


def test_names_json_escapes() -> None:
    # Quotes, a backslash and letters outside ASCII are escaped as json.dumps escapes them.
    record = json.loads((DATA / "analysis" / "renege-proved.json").read_text())
    record["players"] = ['Zoë "Z"', "Bo\\b ☃"]
    analysis = analyse_match(replay(load_record(json.dumps(record))))
    text = analysis_json(analysis, summary(analysis))
    assert text == dumped(analysis)
    assert "\\u00eb" in text and '\\"Z\\"' in text
