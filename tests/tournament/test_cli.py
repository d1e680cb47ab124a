"""``scorepad tournament ...`` through the main command line (SQLite)."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook

from scorepad.cli import main
from scorepad.rules import parse_record, replay
from scorepad.store import open_store
from scorepad.tournament import TournamentService

from .conftest import PASSWORD
from .helpers import game_hands, play_hands


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("SCOREPAD_DIRECTOR_PASSWORD", PASSWORD)
    return str(tmp_path / "club.db")


def _ok(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    status = main(["tournament", *argv])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    return captured.out


def _refused(capsys: pytest.CaptureFixture[str], status: int, *argv: str) -> str:
    assert main(["tournament", *argv]) == status
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1 and "Traceback" not in captured.err
    return lines[0]


def _table_one_played(capsys: pytest.CaptureFixture[str], db: str, seed: int, *, hands: int | None = None) -> Any:
    """Event 1 created, four players registered and round 1 paired from the command line (games to 60), and
    table 1's first ``hands`` hands (None: its first game) of a simulated match entered as its phone would.

    Returns table 1 as the service shows it.
    """
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
    for name in ("Ann", "Bob", "Cy", "Dee"):
        _ok(capsys, "register", "1", name, "--db", db)
    _ok(capsys, "pair", "1", "--db", db)
    with open_store(db) as store:
        service = TournamentService(store)
        director = service.login_director(1, PASSWORD)
        table = service.round_view(None, 1).tables[0]
        played = game_hands("smartt", 2, seed, (("target", 60),))
        play_hands(service, director, 1, table.match_id, played[:hands] if hands else played)
    return table


def test_a_director_scripts_an_event_from_create_to_export(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    event = _ok(capsys, "create", "Club night", "--rounds", "2", "--seed", "s", "--option", "target=60", "--db", db)
    event = event.strip()
    assert event == "1"
    for name in ("Ann", "Bob", "Cy", "Dee", "Eve"):
        _ok(capsys, "register", event, name, "--db", db)
    paired = _ok(capsys, "pair", event, "--db", db)
    assert "round 1 (round-robin)" in paired and "bye:" in paired and "code 1-" in paired
    table = json.loads(_ok(capsys, "pairings", event, "--json", "--db", db))
    assert table["round"] == 1 and sum(t["bye"] for t in table["tables"]) == 1
    assert "inputs match" in _ok(capsys, "verify-pairings", event, "--db", db)
    assert "has no finished hand" in _refused(capsys, 1, "confirm", event, "1", "--db", db)
    # Table 1 plays its game (as its phone would), then the director confirms it from the command line.
    with open_store(db) as store:
        service = TournamentService(store)
        director = service.login_director(1, PASSWORD)
        match_id = service.round_view(None, 1).tables[0].match_id
        hands = game_hands("smartt", 2, 1, (("target", 60),))
        play_hands(service, director, 1, match_id, hands)
    before = json.loads(_ok(capsys, "standings", event, "--json", "--db", db))
    assert sum(s["provisional"] for s in before) == 2 and sum(s["games_won"] for s in before) == 1  # the bye's
    confirmed = _ok(capsys, "confirm", event, "1", "--db", db)
    said = "hand 1" if len(hands) == 1 else f"hands {', '.join(str(n) for n in range(1, len(hands) + 1))}"
    assert confirmed.strip() == f"table 1: {said} confirmed"
    standings = json.loads(_ok(capsys, "standings", event, "--json", "--db", db))
    assert standings[0]["games_won"] == 1 and standings[0]["game_points"] > 0 and not standings[0]["provisional"]
    assert "nothing new to confirm" in _ok(capsys, "confirm", event, "1", "--db", db)
    out = tmp_path / "out"
    files = _ok(capsys, "export", event, "--to", str(out), "--db", db).split()
    names = sorted(Path(f).name for f in files)
    assert names == [
        "event.pdf",
        "event.xlsx",
        "results.csv",
        "round-1-table-1.json",
        "round-1-table-2.json",
        "standings.csv",
    ]
    with (out / "standings.csv").open() as f:
        rows = list(csv.reader(f))
    assert rows[0][:3] == ["place", "number", "name"] and len(rows) == 6
    book = load_workbook(out / "event.xlsx")
    assert book.sheetnames == ["Standings", "Results"] and book["Standings"].max_row == 6
    assert (out / "event.pdf").read_bytes().startswith(b"%PDF")
    record = json.loads((out / "round-1-table-1.json").read_text())
    assert replay(parse_record(record)).players == record["players"]


def test_bad_input_is_one_line_with_status_2_and_refusals_status_1(
    db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert "NAME=VALUE" in _refused(capsys, 2, "create", "x", "--rounds", "2", "--option", "target", "--db", db)
    assert "rounds" in _refused(capsys, 1, "create", "x", "--rounds", "0", "--db", db)
    assert "unknown rules" in _refused(capsys, 1, "create", "x", "--rounds", "2", "--rules", "chess", "--db", db)
    _ok(capsys, "create", "x", "--rounds", "2", "--db", db)
    assert "nobody" in _refused(capsys, 1, "withdraw", "1", "Zed", "--db", db)
    assert "no event 7" in _refused(capsys, 1, "standings", "7", "--db", db)
    monkeypatch.setenv("SCOREPAD_DIRECTOR_PASSWORD", "not the password")
    assert "wrong password" in _refused(capsys, 1, "register", "1", "Ann", "--db", db)
    with pytest.raises(SystemExit) as exit_:
        main(["tournament", "pair", "one", "--db", db])
    assert exit_.value.code == 2
    capsys.readouterr()


def test_verify_pairings_exits_1_when_a_result_changed_after_the_next_round(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    match_id = _table_one_played(capsys, db, 2).match_id
    _ok(capsys, "confirm", "1", "1", "--db", db)
    _ok(capsys, "lock", "1", "--reason", "table 2 did not play", "--db", db)
    _ok(capsys, "pair", "1", "--db", db)
    assert "inputs match" in _ok(capsys, "verify-pairings", "1", "--round", "2", "--db", db)
    with open_store(db) as store:
        service = TournamentService(store)
        service.undo(service.login_director(1, PASSWORD), 1, match_id)
    assert main(["tournament", "verify-pairings", "1", "--round", "2", "--db", db]) == 1
    captured = capsys.readouterr()
    assert "inputs differ" in captured.out
    assert captured.err.strip() == "the pairing does not re-run to the stored round"


def test_repair_reseats_the_round_and_says_why_in_the_audit(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    _ok(capsys, "create", "Open", "--rounds", "2", "--pairing", "swiss", "--seed", "s", "--db", db)
    for name in ("Ann", "Bob", "Cy", "Dee"):
        _ok(capsys, "register", "1", name, "--db", db)
    _ok(capsys, "pair", "1", "--db", db)
    out = _ok(capsys, "repair", "1", "--table", "Ann,Dee", "--table", "Cy, Bob", "--reason", "Ann's lift", "--db", db)
    assert "table 1: Ann v Dee  code 1-" in out and "table 2: Cy v Bob  code 2-" in out
    assert "may not meet" not in out
    _ok(capsys, "forbid", "1", "Ann", "Bob", "--reason", "family", "--db", db)
    line = _refused(capsys, 1, "repair", "1", "--table", "Ann,Bob", "--table", "Cy,Dee", "--reason", "x", "--db", db)
    assert line == "Ann and Bob may not meet (family)"
    with open_store(db) as store:
        (repair,) = [a for a in TournamentService(store).audit(None, 1) if a.action == "repair"]
    assert repair.detail["reason"] == "Ann's lift" and repair.detail["tables"] == [["Ann", "Dee"], ["Cy", "Bob"]]


def test_a_fours_event_and_a_forfeit_from_the_command_line(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    _ok(capsys, "create", "Fours", "--kind", "fours", "--rounds", "2", "--seed", "s", "--db", db)
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
    for name in names:
        _ok(capsys, "register", "1", name, "--db", db)
    paired = _ok(capsys, "pair", "1", "--db", db)
    assert "round 1 (fours)" in paired
    tables = json.loads(_ok(capsys, "pairings", "1", "--json", "--db", db))["tables"]
    first = tables[0]
    seats = first["names"]
    # Partners crosswise: seats 1 and 3 against 2 and 4.
    assert first["sides"] == [[seats[0], seats[2]], [seats[1], seats[3]]]
    assert f"table 1: {seats[0]} & {seats[2]} v {seats[1]} & {seats[3]}  code 1-" in paired
    # --reason is required (status 2, argparse's); a table the loser does not sit at is refused (status 1).
    with pytest.raises(SystemExit) as exit_:
        main(["tournament", "forfeit", "1", "1", "--loser", seats[0], "--db", db])
    assert exit_.value.code == 2
    capsys.readouterr()
    elsewhere = tables[1]["names"][0]
    line = _refused(capsys, 1, "forfeit", "1", "1", "--loser", elsewhere, "--reason", "x", "--db", db)
    assert line == f"{elsewhere} does not play at table 1 in this round"
    number = str(names.index(seats[0]) + 1)
    out = _ok(capsys, "forfeit", "1", "1", "--loser", number, "--reason", "did not turn up", "--db", db)
    assert out.strip() == (
        f"table 1: forfeited by {seats[0]} (did not turn up); the others score a forfeit win of 2 game points"
    )
    shown = _ok(capsys, "pairings", "1", "--db", db)
    assert f"forfeited by {seats[0]} (did not turn up)" in shown
    standings = _ok(capsys, "standings", "1", "--working", "--db", db)
    assert "game points 2 = R1 2 (forfeit win)" in standings and "game points 0 = R1 0 (forfeited)" in standings


def test_unforfeit_and_reopen_from_the_command_line(
    db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _ok(capsys, "create", "Open", "--rounds", "2", "--pairing", "swiss", "--seed", "s", "--db", db)
    for name in ("Ann", "Bob", "Cy", "Dee"):
        _ok(capsys, "register", "1", name, "--db", db)
    _ok(capsys, "pair", "1", "--db", db)
    loser = json.loads(_ok(capsys, "pairings", "1", "--json", "--db", db))["tables"][0]["names"][0]
    # --reason is required (status 2, argparse's); a table without a forfeit is refused (status 1).
    for command in (["unforfeit", "1", "1"], ["reopen", "1"]):
        with pytest.raises(SystemExit) as exit_:
            main(["tournament", *command, "--db", db])
        assert exit_.value.code == 2
    capsys.readouterr()
    assert _refused(capsys, 1, "unforfeit", "1", "1", "--reason", "x", "--db", db) == (
        "table 1 has no forfeit to take back"
    )
    _ok(capsys, "forfeit", "1", "1", "--loser", loser, "--reason", "did not turn up", "--db", db)
    out = _ok(capsys, "unforfeit", "1", "1", "--reason", "came back from the bar", "--db", db)
    assert out.strip() == (
        f"table 1: the forfeit by {loser} (did not turn up) is taken back; the table plays on and its hands count"
    )
    assert "forfeited" not in _ok(capsys, "pairings", "1", "--db", db)
    assert _refused(capsys, 1, "reopen", "1", "--reason", "x", "--db", db) == (
        "round 1 is not locked: it is still in play"
    )
    _ok(capsys, "lock", "1", "--reason", "nobody played", "--db", db)
    out = _ok(capsys, "reopen", "1", "--reason", "table 2 has a hand to enter", "--db", db)
    assert out.strip() == ("round 1 reopened: its table codes work again; lock it again before pairing the next round")
    assert "locked" not in _ok(capsys, "pairings", "1", "--db", db).splitlines()[0]
    with open_store(db) as store:
        audit = TournamentService(store).audit(None, 1)
    assert [(a.action, a.detail["reason"]) for a in audit if a.action in ("unforfeit", "reopen")] == [
        ("unforfeit", "came back from the bar"),
        ("reopen", "table 2 has a hand to enter"),
    ]
    # The password is checked as for every director's command.
    monkeypatch.setenv("SCOREPAD_DIRECTOR_PASSWORD", "not the password")
    assert _refused(capsys, 1, "reopen", "1", "--reason", "x", "--db", db) == "wrong password for this event"


def test_resettle_from_the_command_line_says_the_new_scores(
    db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Table 1 plays a hand that goes out (as its phone would): seat 1 was counted 11 pips, 10 to seat 0.
    table = _table_one_played(capsys, db, 3, hands=1)
    with open_store(db) as store:
        before = store.load(table.match_id)
    first, second = table.names
    old = before.hands[0].scores_after
    # --remaining and --reason are required (status 2, argparse's); a figure the engine refuses is status 1.
    for missing in (["--remaining", "0,14"], ["--reason", "recount"]):
        with pytest.raises(SystemExit) as exit_:
            main(["tournament", "resettle", "1", "1", *missing, "--db", db])
        assert exit_.value.code == 2
    capsys.readouterr()
    line = _refused(capsys, 1, "resettle", "1", "1", "--remaining", "0,99", "--reason", "recount", "--db", db)
    assert line == (
        f"hand 1 at table 1 keeps its settlement: {second} holds 2 tiles, which can weigh 2 to 20 pips, not 99"
    )
    out = _ok(capsys, "resettle", "1", "1", "--remaining", "0, 14", "--reason", "the 2-2 was a 3-3", "--db", db)
    assert out.strip() == (
        f"hand 1 at table 1 is settled again: {first} {old[0] + 5}, {second} {old[1]}"
        f" (it was {first} {old[0]}, {second} {old[1]}); the hand counts once confirmed again"
    )
    with open_store(db) as store:
        service = TournamentService(store)
        (audit,) = [a for a in service.audit(None, 1) if a.action == "resettle"]
        assert store.export_record(table.match_id)["hands"][0]["remaining"] == [0, 14]
    assert audit.detail["reason"] == "the 2-2 was a 3-3" and audit.detail["after"]["remaining"] == [0, 14]
    line = _refused(capsys, 1, "resettle", "1", "1", "--remaining", "0,9", "--hand", "2", "--reason", "x", "--db", db)
    assert line == "table 1 has no hand 2"
    monkeypatch.setenv("SCOREPAD_DIRECTOR_PASSWORD", "not the password")
    assert _refused(capsys, 1, "resettle", "1", "1", "--remaining", "0,9", "--reason", "x", "--db", db) == (
        "wrong password for this event"
    )


def test_cards_give_every_table_a_new_code_on_its_page(
    db: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _ok(capsys, "create", "Open", "--rounds", "2", "--seed", "s", "--db", db)
    for name in ("Ann", "Bob", "Cy", "Dee", "Eve"):
        _ok(capsys, "register", "1", name, "--db", db)
    paired = _ok(capsys, "pair", "1", "--db", db)
    old = dict(line.split()[1:4:2] for line in paired.splitlines() if line.strip().startswith("table"))
    out = tmp_path / "cards.pdf"
    said = _ok(capsys, "cards", "1", "--out", str(out), "--address", "http://192.168.1.5:8550/", "--db", db)
    lines = said.splitlines()
    assert lines[-1] == f"{out} (2 table cards; the codes given before no longer join)"
    new = {line.split()[1].rstrip(":"): line.split()[-1] for line in lines[:-1]}
    assert set(new) == {"1", "2"} and all(new[t] != old[f"{t}:"] for t in new)
    pdf = out.read_bytes()
    assert pdf.startswith(b"%PDF") and pdf.count(b"/Type /Page\n") + pdf.count(b"/Type /Page ") >= 2
    store = open_store(db)
    try:
        service = TournamentService(store)
        assert service.join_table(1, new["1"])
        with pytest.raises(Exception, match="wrong"):
            service.join_table(1, old["1:"])
    finally:
        store.close()
    # No round in play: one line, status 1, nothing written.
    _ok(capsys, "lock", "1", "--reason", "done", "--db", db)
    refused = _refused(capsys, 1, "cards", "1", "--out", str(tmp_path / "none.pdf"), "--db", db)
    assert "Traceback" not in refused
