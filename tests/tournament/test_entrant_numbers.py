"""One entrant number everywhere: every ``scorepad tournament`` command reads and prints the event's own.

The event's entrants are registered after another event's, so their database
ids (5 to 10) are not their entrant numbers (1 to 6): a command that read or
printed an id would name the wrong player, or a number nobody has.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorepad.cli import main
from scorepad.store import open_store
from scorepad.tournament import TournamentService

from .conftest import PASSWORD

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("SCOREPAD_DIRECTOR_PASSWORD", PASSWORD)
    return str(tmp_path / "club.db")


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["tournament", *argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _ok(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    status, out, err = _run(capsys, *argv)
    assert status == 0, err
    return out


def _refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    status, out, err = _run(capsys, *argv)
    assert status == 1 and not out and "Traceback" not in err
    return err.strip()


def _event_after_another(capsys: pytest.CaptureFixture[str], db: str) -> str:
    """Event 2 with six entrants (numbers 1-6) whose database ids are 5-10: event 1 took ids 1-4."""
    assert _ok(capsys, "create", "Warm-up", "--rounds", "1", "--db", db).strip() == "1"
    for name in ("W1", "W2", "W3", "W4"):
        _ok(capsys, "register", "1", name, "--db", db)
    status, out, err = _run(
        capsys, "create", "Club night", "--rounds", "3", "--hands", "1", "--pairing", "swiss", "--db", db
    )
    assert status == 0 and out.strip() == "2"
    # How the event pairs is said at once, on stderr (stdout stays the id scripts read).
    assert err.strip() == "pairing: Swiss, as the director chose. Late entries join from the next round paired."
    registered = [_ok(capsys, "register", "2", name, "--db", db).strip() for name in NAMES]
    assert registered == [f"registered {name} (entrant {n})" for n, name in enumerate(NAMES, 1)]
    with open_store(db) as store:
        ids = [e.id for e in TournamentService(store).entrants(None, 2)]
    assert ids != list(range(1, 7)), "the entrants' ids must differ from their numbers for this test"
    return "2"


def test_every_command_reads_and_prints_the_events_own_entrant_number(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    event = _event_after_another(capsys, db)
    # Entrant 9 does not exist in event 2, though a row with id 9 (Eve) does.
    assert _refused(capsys, "withdraw", event, "9", "--db", db) == (
        "nobody called or numbered '9' is registered in this event"
    )
    said = _ok(capsys, "forbid", event, "1", "2", "--reason", "family", "--db", db)
    assert said.strip() == "Ann (entrant 1) and Bob (entrant 2) will not be paired together"
    paired = _ok(capsys, "pair", event, "--db", db)
    assert "  pairing: Swiss, as the director chose." in paired
    assert "Ann v Bob" not in paired and "Bob v Ann" not in paired
    # A re-pairing by entrant numbers, and its refusal naming who.
    twice = _refused(capsys, "repair", event, "--table", "1,3", "--table", "1,4", "--reason", "x", "--db", db)
    assert twice == "Ann is listed at two tables; seat each entrant once"
    repaired = _ok(
        capsys, "repair", event, "--table", "1,3", "--table", "2,4", "--table", "5,6", "--reason", "seen", "--db", db
    )
    assert "table 1: Ann v Cy" in repaired and "table 2: Bob v Dee" in repaired and "table 3: Eve v Fay" in repaired
    tables = json.loads(_ok(capsys, "pairings", event, "--json", "--db", db))["tables"]
    assert [t["entrants"] for t in tables] == [[1, 3], [2, 4], [5, 6]]
    with open_store(db) as store:
        assert TournamentService(store).table_view(None, int(event), 2).numbers == (2, 4)
    # Forfeit and take-back by entrant number, the replies by name.
    forfeited = _ok(capsys, "forfeit", event, "1", "--loser", "3", "--reason", "did not turn up", "--db", db)
    assert forfeited.startswith("table 1: forfeited by Cy (did not turn up);")
    taken = _ok(capsys, "unforfeit", event, "1", "--reason", "he came", "--db", db)
    assert taken.startswith("table 1: the forfeit by Cy (did not turn up) is taken back")
    _ok(capsys, "lock", event, "--reason", "the night is over", "--db", db)
    withdrawn = _ok(capsys, "withdraw", event, "4", "--db", db)
    assert withdrawn.strip() == "Dee (entrant 4) withdrawn from round 2 on"
    # A late entry, numbered after the others.
    assert _ok(capsys, "register", event, "Gio", "--db", db).strip() == "registered Gio (entrant 7)"
    standings = json.loads(_ok(capsys, "standings", event, "--json", "--db", db))
    assert sorted(s["entrant"] for s in standings) == [1, 2, 3, 4, 5, 6]
    assert all(s["entrant"] == s["number"] for s in standings)
    assert [s["withdrawn_from"] for s in standings if s["name"] == "Dee"] == [2]
    text = _ok(capsys, "standings", event, "--db", db)
    (dee,) = [line for line in text.splitlines() if " Dee: " in line]
    assert dee.endswith("(withdrawn from round 2)")
    two = _ok(capsys, "pair", event, "--db", db)
    assert "Dee" not in two and "Gio" in two
    # Round 2 seated Gio: the standings list Gio from round 2 on, never through round 1.
    through_one = json.loads(_ok(capsys, "standings", event, "--round", "1", "--json", "--db", db))
    assert "Gio" not in {s["name"] for s in through_one}
    assert "Gio" in {s["name"] for s in json.loads(_ok(capsys, "standings", event, "--json", "--db", db))}
