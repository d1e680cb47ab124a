"""The audit readable by everyone: ``scorepad tournament audit EVENT [--table T]`` and the audit view in words.

A director's day on the command line (SQLite): a hand settled again, a call
corrected, a forfeit given and taken back, a withdrawal, the round locked and
reopened; the audit prints every act whole, oldest first, with who did it, the
players' names, the reason and the figures before and after.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from scorepad.cli import main
from scorepad.store import open_store
from scorepad.tournament import TournamentService
from scorepad.tournament.audit import director_act, director_line
from scorepad.tournament.wording import audit_what

from .conftest import PASSWORD
from .helpers import game_hands, play_hands

# "2026-12-04 16:33:18 " at the head of every line: the time, UTC.
WHEN = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d ")
HANDS = (("target", 60),)


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("SCOREPAD_DIRECTOR_PASSWORD", PASSWORD)
    return str(tmp_path / "club.db")


def _ok(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    status = main(["tournament", *argv])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    return captured.out


def _untimed(out: str) -> list[str]:
    """The output's lines, each line's time taken off (checked to be there)."""
    lines = out.splitlines()
    for line in lines[1:]:
        assert WHEN.match(line), line
    return [lines[0], *(WHEN.sub("", line) for line in lines[1:])]


def _a_day(capsys: pytest.CaptureFixture[str], db: str) -> tuple[Any, Any]:
    """Event 1, five players, round 1 paired; every act of the director's day done. Returns tables 1 and 2."""
    _ok(
        capsys,
        "create",
        "Open",
        "--rounds",
        "2",
        "--pairing",
        "swiss",
        "--seed",
        "s",
        "--option",
        "target=60",
        "--db",
        db,
    )
    for name in ("Ann", "Bob", "Cy", "Dee", "Eve"):
        _ok(capsys, "register", "1", name, "--db", db)
    _ok(capsys, "pair", "1", "--db", db)
    hand = game_hands("smartt", 2, 3, HANDS)[0]
    with open_store(db) as store:
        service = TournamentService(store)
        director = service.login_director(1, PASSWORD)
        one, two = service.round_view(None, 1).tables[:2]
        # Table 1 plays hand 1 (seat 1 was counted 11 pips); table 2 lays three tiles, the last called nothing.
        play_hands(service, director, 1, one.match_id, [hand])
        service.start_hand(director, 1, two.match_id, hand["setter"])
        for event in hand["events"][:3]:
            service.append(director, 1, two.match_id, event)
        service.correct(director, 1, two.match_id, reason="she called 10", amend={**hand["events"][2], "call": 10})
    _ok(capsys, "resettle", "1", "1", "--remaining", "0, 14", "--reason", "the 2-2 was a 3-3", "--db", db)
    _ok(capsys, "forfeit", "1", "2", "--loser", two.names[0], "--reason", "did not turn up", "--db", db)
    _ok(capsys, "unforfeit", "1", "2", "--reason", "came back from the bar", "--db", db)
    _ok(capsys, "withdraw", "1", "Eve", "--db", db)
    _ok(capsys, "lock", "1", "--reason", "time is up", "--db", db)
    _ok(capsys, "reopen", "1", "--reason", "table 2 has a hand to enter", "--db", db)
    return one, two


def test_the_audit_command_prints_every_act_whole_with_names_reasons_and_figures(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    one, two = _a_day(capsys, db)
    a, b = one.names
    c, d = two.names
    lines = _untimed(_ok(capsys, "audit", "1", "--db", db))
    assert lines[0] == "Open: the audit, oldest first, times UTC"
    assert lines[1].startswith("the director created the event 'Open' (singles, ")
    assert lines[2:7] == [
        f"the director registered {n} as entrant {i} (plays from round 1)"
        for i, n in enumerate(("Ann", "Bob", "Cy", "Dee", "Eve"), 1)
    ]
    assert lines[7:] == [
        f"the director paired round 1 (swiss): table 1 {a} v {b}; table 2 {c} v {d}; bye Eve",
        f"the director corrected an entry of hand 1 at table 2: {_layer(two, 2)} plays 5-5 left, no call"
        f" -> {_layer(two, 2)} plays 5-5 left, called 10 (reason: she called 10)",
        f"the director settled hand 1 at table 1 again: {a} 25 -> 30; held {a} nothing, {b} 1-6 2-2 -> {a} 0, {b} 14"
        " (reason: the 2-2 was a 3-3)",
        f"the director gave a forfeit at table 2: {c} forfeits, {d} wins by forfeit, after 1 hand played"
        " (reason: did not turn up)",
        f"the director took back the forfeit of {c} at table 2: forfeit given by the director (did not turn up)"
        " -> no forfeit (reason: came back from the bar)",
        "the director withdrew Eve from round 2 on",
        "the director locked round 1 with tables 1, 2 unfinished (reason: time is up)",
        "the director reopened round 1 (locked at " + lines[-1].split("(locked at ")[1].split(")")[0] + ")"
        " (reason: table 2 has a hand to enter)",
    ]


def _layer(table: Any, seat: int) -> str:
    """Who lays a hand's ``seat``-th tile (0-based) at a two-player table: the setter's side alternates."""
    hand = game_hands("smartt", 2, 3, HANDS)[0]
    return table.names[(hand["setter"] + seat) % 2]


def test_a_tables_audit_holds_its_acts_and_its_rounds_newest_first(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    _one, two = _a_day(capsys, db)
    c, _d = two.names
    lines = _untimed(_ok(capsys, "audit", "1", "--table", "2", "--newest-first", "--db", db))
    assert lines[0] == "Open: table 2 of round 1, its audit, newest first, times UTC"
    actions = [line.split(" (")[0] for line in lines[1:]]
    assert actions[0].startswith("the director reopened round 1")
    assert actions[1] == "the director locked round 1 with tables 1, 2 unfinished"
    assert actions[2] == f"the director took back the forfeit of {c} at table 2: forfeit given by the director"
    assert lines[-1].startswith("the director paired round 1")
    # Nothing of table 1, nor the event's registrations and withdrawal.
    assert not [line for line in lines if "table 1 again" in line or "registered" in line or "withdrew" in line]
    # The JSON form carries the same lines, with each act's parts.
    rows = json.loads(_ok(capsys, "audit", "1", "--table", "2", "--json", "--db", db))
    assert [WHEN.sub("", r["sentence"]) for r in rows] == lines[1:][::-1]
    assert rows[-1]["action"] == "reopen" and rows[-1]["reason"] == "table 2 has a hand to enter"


def test_the_phones_line_is_the_directors_latest_act_at_its_table(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    one, _two = _a_day(capsys, db)
    a, b = one.names
    with open_store(db) as store:
        entries = TournamentService(store).audit_view(None, 1, table=1)
    act = director_act(entries, 1, 1)
    assert act is not None and act.action == "resettle"
    assert director_line(act) == (
        f"The director settled hand 1 at table 1 again: {a} 25 -> 30; held {a} nothing, {b} 1-6 2-2 -> {a} 0, {b} 14"
        " (reason: the 2-2 was a 3-3)."
    )
    # Table 3 is Eve's bye: nothing the director did there.
    assert director_act(entries, 3, 1) is None


def test_an_event_with_nothing_yet_and_an_unknown_event(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    _ok(capsys, "create", "Open", "--rounds", "2", "--db", db)
    out = _ok(capsys, "audit", "1", "--table", "4", "--db", db)
    assert out.splitlines() == ["Open: table 4, its audit (no round paired yet)", "Nothing has been recorded yet."]
    assert main(["tournament", "audit", "9", "--db", db]) == 1
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "Traceback" not in err


def test_a_confirmation_names_its_table_once() -> None:
    """A table's own confirmation does not say its table twice; the director's taking one names the table."""
    detail = {"table": 1, "by": "Cy", "hands": [1]}
    assert audit_what("confirm", detail, "table 1") == "took Cy's confirmation of hand 1"
    assert audit_what("confirm", detail, "the director") == "took Cy's confirmation of hand 1 at table 1"
