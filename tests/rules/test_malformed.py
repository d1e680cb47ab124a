"""Malformed records through `scorepad referee RECORD --json` in-process: exit 2 or 1, one line, no traceback."""

from __future__ import annotations

import contextlib
import copy
import io
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorepad.cli import main
from scorepad.rules import IllegalRecordError, RecordFormatError, load_record, replay

from .support import hyp, record
from .test_examples import RECORDS
from .test_golden import GOLDEN

GOOD = record(
    [
        {
            "setter": 0,
            "events": [
                {"play": "5-5"},
                {"play": "5-0", "at": "left", "call": 0},
                {"draw": 2},
                {"play": "5-3", "at": "right"},
            ],
        }
    ]
)
BASES = [GOOD] + [json.loads(p.read_text()) for p in [*RECORDS, *GOLDEN]]


def run_referee(content: str | bytes | dict | list | Any) -> tuple[int, str, str]:
    """Write ``content`` to a file, run the referee on it in-process; return (status, stdout, stderr)."""
    if not isinstance(content, str | bytes):
        content = json.dumps(content)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "record.json"
        path.write_bytes(content.encode() if isinstance(content, str) else content)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(["referee", str(path), "--json"])
    return status, out.getvalue(), err.getvalue()


def check_clean(status: int, out: str, err: str) -> None:
    """What every outcome must look like: a known status, no traceback, one line on error, nothing else."""
    assert status in (0, 1, 2), (status, err)
    assert "Traceback" not in err and "internal error" not in err, err
    if status == 0:
        assert err == ""
        report = json.loads(out)
        assert isinstance(report["hands"], list) and isinstance(report["games"], list)
    else:
        assert out == ""
        assert err.endswith("\n") and err.count("\n") == 1, err
        assert err.strip()


def unreadable(obj: Any) -> bool:
    """records.md §6: the faults that make a file not a readable sniff-record/1 (exit 2)."""
    if not isinstance(obj, dict) or obj.get("format") != "sniff-record/1":
        return True
    players = obj.get("players")
    if not isinstance(players, list) or not 2 <= len(players) <= 4:
        return True
    if not all(isinstance(p, str) and p.strip() for p in players):
        return True
    if not isinstance(obj.get("hands"), list):
        return True
    if obj.get("rules", "smartt") not in ("smartt", "american", "jaques"):
        return True
    options = obj.get("options")
    if options is None:
        return False
    if not isinstance(options, dict):
        return True
    kinds = {"target": int, "muggins": bool, "sniff": bool, "set": str, "partners": bool, "renege": str}
    for key, value in options.items():
        if key not in kinds:
            return True
        if kinds[key] is int and (isinstance(value, bool) or not isinstance(value, int) or value <= 0):
            return True
        if kinds[key] is not int and not isinstance(value, kinds[key]):
            return True
        if key == "set" and value not in ("double-six", "double-nine"):
            return True
        if key == "renege" and value not in ("rollback25", "deduct50"):
            return True
    return False


class TestUnreadable:
    """Exit 2: not JSON, not an object, wrong format, bad players, hands not a list, unknown rules/options."""

    @pytest.mark.parametrize(
        "text",
        ["", "{", "nul", "{'format': 1}", "[1,]", '{"a": 1} {"b": 2}', b"\xff\xfe\x00", b'{"format": "\xff"}'],
    )
    def test_not_json(self, text, tmp_path, capsys):
        path = tmp_path / "r.json"
        path.write_bytes(text.encode() if isinstance(text, str) else text)
        assert main(["referee", str(path), "--json"]) == 2
        captured = capsys.readouterr()
        check_clean(2, captured.out, captured.err)

    def test_no_such_file(self, tmp_path, capsys):
        assert main(["referee", str(tmp_path / "missing.json"), "--json"]) == 2
        captured = capsys.readouterr()
        check_clean(2, captured.out, captured.err)

    @pytest.mark.parametrize(
        "obj",
        [
            [],
            5,
            "sniff-record/1",
            None,
            True,
            {**GOOD, "format": "sniff-record/2"},
            {**GOOD, "format": 1},
            {k: v for k, v in GOOD.items() if k != "format"},
            {**GOOD, "players": []},
            {**GOOD, "players": ["A"]},
            {**GOOD, "players": ["A", "B", "C", "D", "E"]},
            {**GOOD, "players": "AB"},
            {**GOOD, "players": [1, 2]},
            {**GOOD, "players": ["A", ""]},
            {**GOOD, "players": ["A", None]},
            {k: v for k, v in GOOD.items() if k != "players"},
            {**GOOD, "hands": {}},
            {**GOOD, "hands": None},
            {k: v for k, v in GOOD.items() if k != "hands"},
            {**GOOD, "rules": "Smartt"},
            {**GOOD, "rules": None},
            {**GOOD, "rules": ["smartt"]},
            {**GOOD, "options": {"speed": 1}},
            {**GOOD, "options": {"target": 0}},
            {**GOOD, "options": {"target": True}},
            {**GOOD, "options": {"target": 2.5}},
            {**GOOD, "options": {"muggins": "yes"}},
            {**GOOD, "options": {"set": "double-twelve"}},
            {**GOOD, "options": {"renege": 25}},
            {**GOOD, "options": []},
            {**GOOD, "options": "muggins"},
        ],
    )
    def test_exit_2(self, obj, capsys, tmp_path):
        path = tmp_path / "r.json"
        path.write_text(json.dumps(obj))
        assert unreadable(obj)
        assert main(["referee", str(path), "--json"]) == 2
        captured = capsys.readouterr()
        check_clean(2, captured.out, captured.err)
        with pytest.raises(RecordFormatError):
            replay(load_record(json.dumps(obj)))


def with_hand(hand: Any, **top: Any) -> dict:
    return {**GOOD, **top, "hands": [hand]}


class TestIllegal:
    """Exit 1: a readable record the rules refuse; one line naming the hand (and event)."""

    @pytest.mark.parametrize(
        ("obj", "start"),
        [
            (with_hand({"setter": 2, "events": []}), "hand 1: "),
            (with_hand({"setter": -1, "events": []}), "hand 1: "),
            (with_hand({"setter": 10**30, "events": []}), "hand 1: "),
            (with_hand({"setter": True, "events": []}), "hand 1: "),
            (with_hand({"setter": "0", "events": []}), "hand 1: "),
            (with_hand({"events": [{"play": "5-5"}]}), "hand 1: "),
            (with_hand({"setter": 0}), "hand 1: "),
            (with_hand({"setter": 0, "events": {}}), "hand 1: "),
            (with_hand([]), "hand 1: "),
            (with_hand("hand"), "hand 1: "),
            (with_hand({"setter": 0, "events": ["5-5"]}), "hand 1 event 1: "),
            (with_hand({"setter": 0, "events": [None]}), "hand 1 event 1: "),
            (with_hand({"setter": 0, "events": [{}]}), "hand 1 event 1: "),
            (with_hand({"setter": 0, "events": [{"play": "5-5", "draw": 1}]}), "hand 1 event 1: "),
            (with_hand({"setter": 0, "events": [{"play": "5-5", "colour": "red"}]}), "hand 1 event 1: "),
            (with_hand({"setter": 0, "events": [{"play": 55}]}), "hand 1 event 1: "),
            (
                with_hand({"setter": 0, "events": [{"play": "5-5"}, {"play": "5-3", "at": "middle"}]}),
                "hand 1 event 2: ",
            ),
            (
                with_hand({"setter": 0, "events": [{"play": "5-5"}, {"play": "5-0", "at": "left", "call": 7}]}),
                "hand 1 event 2: ",
            ),
            (
                with_hand({"setter": 0, "events": [{"play": "5-5"}, {"play": "5-0", "at": "left", "call": True}]}),
                "hand 1 event 2: ",
            ),
            (
                with_hand({"setter": 0, "events": [{"play": "5-5"}, {"play": "5-0", "at": "left", "call": -5}]}),
                "hand 1 event 2: ",
            ),
            (
                with_hand({"setter": 0, "events": [{"play": "5-5"}, {"play": "5-0", "at": "left", "fix": 1}]}),
                "hand 1 event 2: ",
            ),
            (with_hand({"setter": 0, "events": [{"play": "5-5"}, {"draw": True}]}), "hand 1 event 2: "),
            (with_hand({"setter": 0, "events": [{"play": "5-5"}, {"draw": 0}]}), "hand 1 event 2: "),
            (with_hand({"setter": 0, "events": [{"play": "5-5"}, {"draw": 10**30}]}), "hand 1 event 2: "),
            (with_hand({"setter": 0, "events": [{"play": "5-5"}, {"draw": 1.0}]}), "hand 1 event 2: "),
            (with_hand({"setter": 0, "events": [{"play": "5-5"}, {"pass": 1}]}), "hand 1 event 2: "),
            (with_hand({"setter": 0, "events": [{"play": "5-5"}, {"muggins": True}]}), "hand 1 event 2: "),
            (with_hand({"setter": 0, "events": [{"play": "5-5"}, {"renege": 7}]}), "hand 1 event 2: "),
            (with_hand({"setter": 0, "events": [{"adjust": 0}]}), "hand 1 event 1: "),
            (with_hand({"setter": 0, "events": [{"adjust": 0, "count": 0}]}), "hand 1 event 1: "),
            (with_hand({"setter": 0, "events": [{"adjust": -3, "count": 1}]}), "hand 1 event 1: "),
            (with_hand({"setter": 0, "events": [{"void": False}]}), "hand 1 event 1: "),
            (with_hand({"setter": 0, "events": [{"play": "5-5", "by": 1}]}), "hand 1 event 1: "),
            (with_hand({"setter": 0, "events": [{"play": "5-5", "by": -1}]}), "hand 1 event 1: "),
            (with_hand({"setter": 0, "events": [{"play": "5-5"}, {"play": "6-2"}]}), "hand 1 event 2: "),
            (with_hand({"setter": 0, "events": [{"play": "5-5"}, {"play": "5-5"}]}), "hand 1 event 2: "),
            (with_hand({"setter": 0, "events": [{"play": "5-5"}, {"play": "5-3"}]}), "hand 1 event 2: "),
            (with_hand({"setter": 0, "events": [{"play": "7-7"}]}), "hand 1 event 1: "),
            (with_hand({"setter": 0, "events": [{"play": "5-5"}], "remaining": [1, 2]}), "hand 1: "),
            (
                with_hand({"setter": 0, "events": [{"play": "5-5"}, {"renege": 1}]}, rules="american"),
                "hand 1 event 2: ",
            ),
        ],
    )
    def test_exit_1(self, obj, start, capsys, tmp_path):
        path = tmp_path / "r.json"
        path.write_text(json.dumps(obj))
        assert not unreadable(obj)
        assert main(["referee", str(path), "--json"]) == 1
        captured = capsys.readouterr()
        check_clean(1, captured.out, captured.err)
        assert captured.err.startswith(start), captured.err
        with pytest.raises(IllegalRecordError):
            replay(load_record(json.dumps(obj)))

    def test_partners_with_three_players_is_refused(self, capsys, tmp_path):
        obj = {**GOOD, "players": ["A", "B", "C"], "options": {"partners": True}}
        path = tmp_path / "r.json"
        path.write_text(json.dumps(obj))
        assert main(["referee", str(path), "--json"]) in (1, 2)
        captured = capsys.readouterr()
        check_clean(1, captured.out, captured.err)


class TestAcceptedOddities:
    def test_unicode_names_and_extra_fields(self, capsys, tmp_path):
        # A newline in a name is refused now (scorepad.rules.names): tests/test_cli_hardening.py.
        obj = {**GOOD, "players": ["Åsa 👋", "Bjørn Ø"], "note": {"deep": [1, 2, 3]}}
        path = tmp_path / "r.json"
        path.write_text(json.dumps(obj, ensure_ascii=False))
        assert main(["referee", str(path), "--json"]) == 0
        captured = capsys.readouterr()
        check_clean(0, captured.out, captured.err)

    def test_a_huge_call_stands(self, capsys, tmp_path):
        obj = with_hand({"setter": 0, "events": [{"play": "5-5"}, {"play": "5-0", "at": "left", "call": 10**30}]})
        path = tmp_path / "r.json"
        path.write_text(json.dumps(obj))
        assert main(["referee", str(path), "--json"]) == 0
        captured = capsys.readouterr()
        check_clean(0, captured.out, captured.err)
        assert json.loads(captured.out)["hands"][0]["scores_after"] == [10, 10**30]


class TestDeepNesting:
    @pytest.mark.parametrize("depth", [50, 500, 990, 1000, 5000, 100_000])
    def test_deep_lists_in_an_event(self, depth):
        text = json.dumps(GOOD).replace('{"play": "5-5"}', "[" * depth + "]" * depth, 1)
        status, out, err = run_referee(text)
        check_clean(status, out, err)
        assert status in (1, 2)

    @pytest.mark.parametrize("depth", [500, 100_000])
    def test_a_deep_record(self, depth):
        status, out, err = run_referee('{"a":' * depth + "1" + "}" * depth)
        check_clean(status, out, err)
        assert status == 2


# -- fuzzing ------------------------------------------------------------------------------------------

junk_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.integers(-5, 60),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.sampled_from(["5-3", "7-7", "left", "up", "set", "sniff-record/1", "smartt", "jaques", "５-５", "\u0000", "🀱"]),
)
junk = st.recursive(
    junk_scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "play",
                    "at",
                    "call",
                    "fix",
                    "by",
                    "draw",
                    "pass",
                    "muggins",
                    "renege",
                    "adjust",
                    "count",
                    "void",
                    "setter",
                    "events",
                    "remaining",
                    "format",
                    "players",
                    "hands",
                    "x",
                ]
            )
            | st.text(max_size=5),
            inner,
            max_size=4,
        )
    ),
    max_leaves=12,
)


def paths(obj: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path to a value inside a JSON object."""
    out = [prefix]
    if isinstance(obj, dict):
        for key, value in obj.items():
            out += paths(value, (*prefix, key))
    elif isinstance(obj, list):
        for index, value in enumerate(obj):
            out += paths(value, (*prefix, index))
    return out


@st.composite
def mutated_records(draw) -> tuple[dict, tuple]:
    """A valid record with one place changed: a key deleted, a value replaced with junk, or a list item duplicated."""
    base = copy.deepcopy(draw(st.sampled_from(BASES)))
    path = draw(st.sampled_from(paths(base)[1:]))
    parent = base
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    how = draw(st.sampled_from(["delete", "replace", "replace", "duplicate"]))
    if how == "delete":
        del parent[last]
    elif how == "duplicate" and isinstance(parent, list):
        parent.insert(last, copy.deepcopy(parent[last]))
    else:
        parent[last] = draw(junk)
    return base, path


class TestFuzz:
    @hyp(120)
    @given(junk)
    def test_junk_json_values(self, value):
        status, out, err = run_referee(value)
        check_clean(status, out, err)
        assert status == (2 if unreadable(value) else status)

    @hyp(200)
    @given(mutated_records())
    def test_mutated_records(self, case):
        obj, path = case
        status, out, err = run_referee(obj)
        check_clean(status, out, err)
        if unreadable(obj):
            assert status == 2, err
        else:
            assert status in (0, 1), err
            if status == 1 and path[0] == "hands" and len(path) > 1 and "partners" not in err:
                assert err.startswith("hand "), err
