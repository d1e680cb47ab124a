"""Hand-made golden records (tests/data): each expected output was worked out by hand from the rules.

- smartt-2p-game-to-250: three hands to 310-70 (the game won through a go-out award), game points 12, Rube.
- american-2p-block-debits: every 0 played, all ends dead, a block; each seat's pips rounded and debited;
  the next setter named in the record.
- jaques-4p-partners: a Sniff developed short end first (still 2n), the award leaving out the partner's pips,
  the game won by a set, the next game led by the seat whose score won.
- smartt-2p-renege-deduct50: play goes on after the renege; 50 comes off after the award; pending in progress.
- smartt-3p-void: a hand thrown in (scores back), the same setter again, an overdraw adjusted before the set.
- jaques-2p-all-fives-block: All Fives with a double set (2n at its open side), a block paid to the lowest.
- jaques-2p-double-nine: a play worth 45 (no 35 ceiling with double-nine), the game won mid-hand.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorepad.rules import load_record, replay, report, report_text
from scorepad.simulate import simulate

DATA = Path(__file__).resolve().parents[1] / "data"
GOLDEN = sorted(p for p in DATA.glob("*.json") if not p.name.endswith(".expected.json"))


class TestGoldenRecords:
    def test_there_are_golden_records(self):
        assert len(GOLDEN) >= 7

    @pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
    def test_replay_matches_the_hand_worked_output(self, path: Path):
        expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())
        assert json.loads(json.dumps(report(replay(load_record(path.read_text()))))) == expected


class TestReportText:
    """``report_text`` (the command's JSON, made without copying the accounts) is ``report`` written as JSON."""

    @pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
    def test_same_text_as_the_report(self, path: Path):
        match = replay(load_record(path.read_text()))
        before = json.dumps(report(match))
        assert report_text(match) == before
        assert json.dumps(report(match)) == before  # and the match's own accounts are unchanged

    @pytest.mark.parametrize("rules", ["smartt", "american", "jaques"])
    def test_same_text_on_simulated_matches_with_miscalls(self, rules: str):
        match, _ = simulate(rules, 3, 200, seed=5)
        assert any(o.get("flags") for h in match.hands for o in h.outcomes)  # flags are written too
        assert report_text(match) == json.dumps(report(match))


class TestThroughTheCommand:
    """`scorepad referee RECORD --json` prints the same object; the readable account prints without error."""

    @pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
    def test_json(self, path: Path, capsys):
        from scorepad.cli import main

        assert main(["referee", str(path), "--json"]) == 0
        captured = capsys.readouterr()
        assert captured.err == ""
        assert json.loads(captured.out) == json.loads(path.with_name(path.stem + ".expected.json").read_text())

    @pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
    def test_readable(self, path: Path, capsys):
        from scorepad.cli import main

        assert main(["referee", str(path)]) == 0
        captured = capsys.readouterr()
        assert captured.err == ""
        assert "Hand 1" in captured.out
