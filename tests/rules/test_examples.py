"""The contract's example records replay to exactly their expected --json output.

They are copies of shared/spec/examples and shared/spec/amendments, kept in tests/data/contract.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorepad.rules import load_record, replay, report

EXAMPLES = Path(__file__).resolve().parents[1] / "data" / "contract"


def _example_records() -> list[Path]:
    return sorted(p for p in EXAMPLES.glob("*.json") if not p.name.endswith(".expected.json"))


RECORDS = _example_records()


class TestContractExamples:
    def test_every_example_has_an_expected_output(self):
        assert len(RECORDS) >= 7, f"the contract's examples are missing from {EXAMPLES}"
        for path in RECORDS:
            assert path.with_name(path.stem + ".expected.json").is_file(), path.name

    @pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
    def test_replay_matches_expected_json(self, path: Path):
        expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())
        got = report(replay(load_record(path.read_text())))
        # Through JSON text, as the referee prints it: tuples and lists alike become arrays.
        assert json.loads(json.dumps(got)) == expected

    @pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
    def test_replay_from_bytes_is_the_same(self, path: Path):
        assert report(replay(load_record(path.read_bytes()))) == report(replay(load_record(path.read_text())))

    @pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
    def test_the_command_prints_the_expected_json(self, path: Path, capsys):
        from scorepad.cli import main

        assert main(["referee", str(path), "--json"]) == 0
        captured = capsys.readouterr()
        assert captured.err == ""
        assert json.loads(captured.out) == json.loads(path.with_name(path.stem + ".expected.json").read_text())
