"""The command line answers every bad input with one plain line and the contract's status (issue 11 §4, §6, §8).

Each case runs the installed ``scorepad`` command in a subprocess, as a user
would, and checks the status, that stderr is one line without a traceback,
and that nothing a name holds reaches the terminal as a control character.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from scorepad.printable import printable
from scorepad.rules import RecordFormatError, load_record
from scorepad.rules.names import MAX_NAME_LENGTH, check_name
from scorepad.rules.records import MAX_RECORD_BYTES
from scorepad.store import open_store

ROOT = Path(__file__).resolve().parents[1]
RECORD = ROOT / "tests" / "data" / "contract" / "smartt-2p-go-out.json"
SCOREPAD = Path(sys.executable).with_name("scorepad")


def scorepad(*args: str, env: dict[str, str] | None = None, stdout: object = subprocess.PIPE) -> tuple[int, str, str]:
    """Run ``scorepad ARGS``: status, stdout, stderr."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith("SCOREPAD_")}
    done = subprocess.run(
        [str(SCOREPAD), *args],
        env={**environment, **(env or {})},
        stdout=stdout,  # type: ignore[arg-type]
        stderr=subprocess.PIPE,
        timeout=120,
    )
    out = done.stdout.decode("utf-8", "replace") if isinstance(done.stdout, bytes) else ""
    return done.returncode, out, done.stderr.decode("utf-8", "replace")


def one_line(err: str) -> str:
    """The single line of a refusal (fails on a traceback or several lines)."""
    lines = err.splitlines()
    assert len(lines) == 1 and "Traceback" not in err and "internal error" not in err, err
    assert "\x1b" not in err
    return lines[0]


def record_with(tmp_path: Path, **changes: object) -> Path:
    obj = {**json.loads(RECORD.read_text()), **changes}
    path = tmp_path / "r.json"
    path.write_text(json.dumps(obj))
    return path


# -- names ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["Ann\nHand 2 (game 1), Bob sets", "\x1b[2JBob", "Bob\u202e", "A" * (MAX_NAME_LENGTH + 1), "   ", "\ud800"],
)
def test_a_name_that_could_forge_output_is_refused(name: str) -> None:
    with pytest.raises(RecordFormatError):
        check_name(name, seat=1)


def test_names_of_any_script_up_to_the_limit_are_kept() -> None:
    for name in ("Åsa 👋", "Бьорн", "李", "O'Brien [club]", "A" * MAX_NAME_LENGTH):
        assert check_name(name) == name


@pytest.mark.parametrize(
    ("command", "name"),
    [("referee", "Ann\x1b[2J"), ("referee", "\ud800"), ("import", "Ann\nHand 2"), ("import", "x" * 10_000)],
)
def test_referee_and_import_refuse_a_bad_name_in_one_line(command: str, name: str, tmp_path: Path) -> None:
    path = record_with(tmp_path, players=[name, "Bob"])
    extra = ["--db", str(tmp_path / "s.db")] if command == "import" else []
    status, out, err = scorepad(command, str(path), *extra)
    assert status == 2 and out == ""
    assert "name" in one_line(err)


@pytest.mark.parametrize(
    "players",
    [["Ann", "ann"], ["Ann", "Ann "], ["Jos\u00e9", "Jose\u0301"], ["\u3164", "Bob"], ["Ann", "\u2800"]],
)
def test_import_refuses_names_the_form_refuses(players: list[str], tmp_path: Path) -> None:
    """Two players alike (case, spaces, Unicode form aside) or a blank-looking name, as the form (issue 17)."""
    path = record_with(tmp_path, players=players)
    status, out, err = scorepad("import", str(path), "--db", str(tmp_path / "s.db"))
    assert status == 2 and out == ""
    line = one_line(err)
    assert "two players are called" in line or "is blank" in line


def test_tournament_create_with_bytes_that_are_not_text_is_one_line(tmp_path: Path) -> None:
    """A name the terminal passes as bytes that are not UTF-8 (Python: a lone surrogate) is told, not a crash."""
    done = subprocess.run(
        [str(SCOREPAD), "tournament", "create", b"Cup \xff", "--rounds", "3", "--db", str(tmp_path / "s.db")],
        env={**os.environ, "SCOREPAD_DIRECTOR_PASSWORD": "a long password"},
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 1 and done.stdout == b""
    line = one_line(done.stderr.decode("utf-8", "replace"))
    assert line.startswith("an event needs a name of 1 to 80 characters") and "(U+DCFF)" in line


def test_printable_escapes_what_a_terminal_would_act_on() -> None:
    assert printable("Ann\x1b[2J\nBob\u202e\ud800") == "Ann\\x1b[2J\\nBob\\u202e\\ud800"
    assert printable("Åsa 👋 [b]\\") == "Åsa 👋 [b]\\"


# -- sizes -----------------------------------------------------------------------------------------


def test_referee_stops_reading_dev_zero() -> None:
    status, out, err = scorepad("referee", "/dev/zero")
    assert status == 2 and out == ""
    assert "larger than" in one_line(err)


def test_import_stops_reading_dev_zero(tmp_path: Path) -> None:
    status, _, err = scorepad("import", "/dev/zero", "--db", str(tmp_path / "s.db"))
    assert status == 2 and "larger than" in one_line(err)


HUGE = "1" + "0" * 5000  # more digits than Python's int() converts (4,300)


def record_with_number(tmp_path: Path, where: str) -> Path:
    """The contract's record with a 5,001-digit number written raw (JSON allows it) at ``where``."""
    obj = json.loads(RECORD.read_text())
    if where == "setter":
        obj["hands"][0]["setter"] = "@@HUGE@@"
    elif where == "call":
        obj["hands"][0]["events"][1]["call"] = "@@HUGE@@"
    else:
        obj["options"] = {"target": "@@HUGE@@"}
    path = tmp_path / "r.json"
    path.write_text(json.dumps(obj).replace('"@@HUGE@@"', HUGE))
    return path


@pytest.mark.parametrize("where", ["setter", "call", "target"])
@pytest.mark.parametrize("command", ["referee", "analyse", "import"])
def test_a_number_of_thousands_of_digits_is_an_unreadable_record(command: str, where: str, tmp_path: Path) -> None:
    path = record_with_number(tmp_path, where)
    extra = ["--db", str(tmp_path / "s.db")] if command == "import" else []
    status, out, err = scorepad(command, str(path), *extra)
    assert status == 2 and out == ""
    assert one_line(err) == f"{path}: not a record: a number of 5001 digits is too long; at most 4300 digits are read"


def test_an_option_of_thousands_of_digits_is_one_line(tmp_path: Path) -> None:
    status, _, err = scorepad(
        "tournament", "create", "Cup", "--rounds", "3", "--option", f"target={HUGE}", "--db", str(tmp_path / "s.db")
    )
    assert status == 2
    assert "a number of 5001 digits is too long" in one_line(err)


@pytest.mark.parametrize("number", [HUGE, "99999999999999999999", "٣"])
def test_an_event_id_of_any_size_is_one_line(number: str, tmp_path: Path) -> None:
    status, _, err = scorepad("tournament", "standings", number, "--db", str(tmp_path / "s.db"))
    assert status == 2 and "Traceback" not in err
    # argparse's usage lines, then its one error line, short whatever was typed.
    line = err.splitlines()[-1]
    assert "argument EVENT: the value must be a whole number from 0 to 2147483647" in line and len(line) < 200


# -- export, output and ids ------------------------------------------------------------------------


@pytest.fixture
def stored(tmp_path: Path) -> tuple[str, str]:
    """A database holding the contract's go-out record: (db path, match id)."""
    db = str(tmp_path / "s.db")
    status, out, err = scorepad("import", str(RECORD), "--db", db)
    assert status == 0, err
    return db, out.strip()


@pytest.mark.parametrize("match_id", ["99999999999999999999", "٣", "abc", HUGE])
def test_export_of_an_id_that_cannot_exist_is_one_line(stored: tuple[str, str], match_id: str) -> None:
    status, out, err = scorepad("export", match_id, "--db", stored[0])
    assert status == 1 and out == ""
    assert "no match with id" in one_line(err)


def test_export_to_a_full_disk_says_it_cannot_write(stored: tuple[str, str]) -> None:
    with open("/dev/full", "wb") as full:
        status, _, err = scorepad("export", stored[1], "--db", stored[0], stdout=full)
    assert status == 2
    assert "cannot write" in one_line(err)


def test_matches_to_a_full_disk_says_it_cannot_write(stored: tuple[str, str]) -> None:
    with open("/dev/full", "wb") as full:
        status, _, err = scorepad("matches", "--db", stored[0], stdout=full)
    assert status == 2 and "cannot write" in one_line(err)


def test_a_log_payload_that_is_not_json_is_one_line(stored: tuple[str, str]) -> None:
    db, match_id = stored
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE events SET payload = 'not json {' WHERE id = (SELECT MIN(id) FROM events)")
    status, out, err = scorepad("export", match_id, "--db", db)
    assert status in (1, 2) and out == ""
    one_line(err)


def test_control_characters_stored_in_a_listing_are_escaped(stored: tuple[str, str]) -> None:
    db, _ = stored
    with sqlite3.connect(db) as conn:
        (summary,) = conn.execute("SELECT summary FROM matches").fetchone()
        cache = json.loads(summary)
        cache["players"] = ["Ann\x1b[2J", "Bob\nHand 9"]
        conn.execute("UPDATE matches SET summary = ?", (json.dumps(cache),))
    status, out, err = scorepad("matches", "--db", db, env={"COLUMNS": "80"})
    assert status == 0, err
    assert "\x1b[2J" not in out and "Bob\nHand" not in out
    assert "Ann\\x1b[2J" in out and "Bob\\nHand 9" in out


def test_referee_text_output_holds_no_control_character() -> None:
    status, out, _ = scorepad("referee", str(RECORD))
    assert status == 0 and "\x1b" not in out


# -- settings and databases --------------------------------------------------------------------------


def test_a_bad_setting_is_named_with_its_allowed_values(tmp_path: Path) -> None:
    status, _, err = scorepad("matches", "--db", str(tmp_path / "s.db"), env={"SCOREPAD_SQLITE_SYNCHRONOUS": "fast"})
    assert status == 2
    line = one_line(err)
    assert "SCOREPAD_SQLITE_SYNCHRONOUS" in line and "'FULL'" in line and "'NORMAL'" in line


def test_a_busy_timeout_below_zero_is_named(tmp_path: Path) -> None:
    status, _, err = scorepad("matches", "--db", str(tmp_path / "s.db"), env={"SCOREPAD_BUSY_TIMEOUT_MS": "-5"})
    assert status == 2
    assert one_line(err).endswith(
        ": SCOREPAD_BUSY_TIMEOUT_MS is '-5'; allowed: a whole number from 0 to 3600000 (milliseconds)"
    )


@pytest.mark.parametrize("url", ["postgresql://::::", "mysql://nobody@nowhere/db"])
def test_a_database_url_that_cannot_be_read_is_one_line(url: str) -> None:
    status, _, err = scorepad("matches", "--db", url)
    assert status == 2 and "cannot open the database" in one_line(err)


def _newer_schema(path: Path) -> None:
    open_store(str(path)).close()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE alembic_version SET version_num = '9999_from_the_future'")


def _unusable(tmp_path: Path, kind: str) -> str:
    """A database URL of each unusable kind the server must refuse at start."""
    if kind == "random file":
        (tmp_path / "random.db").write_bytes(os.urandom(4096))
        return str(tmp_path / "random.db")
    if kind == "text file":
        (tmp_path / "notes.db").write_text("not a database\n" * 50)
        return str(tmp_path / "notes.db")
    if kind == "missing folder":
        return str(tmp_path / "no-such-folder" / "s.db")
    if kind == "newer schema":
        _newer_schema(tmp_path / "new.db")
        return str(tmp_path / "new.db")
    assert kind == "refused port"
    return "postgresql://127.0.0.1:9/test"


KINDS = ["random file", "text file", "missing folder", "newer schema", "refused port"]


@pytest.mark.parametrize("kind", KINDS)
def test_web_does_not_start_on_an_unusable_database(tmp_path: Path, kind: str) -> None:
    status, out, err = scorepad("web", "--port", "9", "--db", _unusable(tmp_path, kind))
    assert status == 2
    assert "serving" not in out
    assert "database" in one_line(err)


@pytest.mark.parametrize("kind", ["text file", "newer schema"])
def test_store_commands_do_not_start_on_an_unusable_database(tmp_path: Path, kind: str) -> None:
    status, _, err = scorepad("matches", "--db", _unusable(tmp_path, kind))
    assert status == 2 and "database" in one_line(err)


@pytest.mark.postgres
def test_web_does_not_start_on_a_postgres_database_that_does_not_exist() -> None:
    base = os.environ.get("SCOREPAD_TEST_POSTGRES_URL", "postgresql://127.0.0.1:5432/test")
    try:
        import psycopg

        psycopg.connect(base.replace("+psycopg", ""), connect_timeout=5).close()
    except Exception as err:  # the server is not there: the marker's skip
        pytest.skip(f"PostgreSQL is not reachable at {base}: {err}")
    wrong = base.rsplit("/", 1)[0] + "/no_such_database_here"
    status, out, err = scorepad("web", "--port", "9", "--db", wrong)
    assert status == 2 and "serving" not in out
    assert "does not exist" in one_line(err)


def test_one_size_limit_for_every_door_a_record_comes_in_by() -> None:
    """``load_record`` (the app's file picker reads through it) stops where the command line's files stop."""
    record = b'{"format": "sniff-record/1", "players": ["A", "B"], "hands": []}'
    with pytest.raises(RecordFormatError, match="larger than 4 MB, which no record is"):
        load_record(record + b" " * (MAX_RECORD_BYTES - len(record) + 1))
    assert load_record(record + b" " * (MAX_RECORD_BYTES - len(record))).players == ("A", "B")
