"""``scorepad backup`` and ``restore-backup`` (issue 17, item 10): a backup taken while entries flow keeps them all.

The writer is a real second thread writing through the store while the
backup is taken; the test waits on the entries it acknowledges, never on a
clock. Every entry acknowledged before the backup began must come back from
the backup (copying ``scorepad.db`` alone missed those still in the ``-wal``).
"""

from __future__ import annotations

import argparse
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from scorepad.access import Caller
from scorepad.rules import Play
from scorepad.store import Store, open_store
from scorepad.store.backup import BackupRefused, back_up, restore
from scorepad.store.cli import add_commands

# Only a failure waits this long: each wait ends as soon as the writer has acknowledged enough.
PROGRESS_TIMEOUT = 60.0


def run(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="scorepad")
    add_commands(parser.add_subparsers(dest="command"))
    args = parser.parse_args(list(argv))
    return int(args.func(args))


class Writer:
    """A thread entering a new match and its first play, again and again; what was acknowledged, in order."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.acknowledged: list[int] = []
        self.errors: list[BaseException] = []
        self._changed = threading.Condition()
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                match_id = self.store.create_match(
                    rules="smartt", options={}, players=["Ann", "Bob"], caller=Caller.local("w")
                )
                self.store.start_hand(match_id, setter=0, caller=Caller.local("w"))
                self.store.append(match_id, Play("5-5"), caller=Caller.local("w"))
                with self._changed:
                    self.acknowledged.append(match_id)
                    self._changed.notify_all()
        except BaseException as err:  # the test fails on it below
            self.errors.append(err)
            with self._changed:
                self._changed.notify_all()

    def wait_for(self, count: int) -> list[int]:
        """Block until ``count`` matches are acknowledged; a copy of them."""
        with self._changed:
            assert self._changed.wait_for(
                lambda: len(self.acknowledged) >= count or bool(self.errors), PROGRESS_TIMEOUT
            ), "the writer made no progress"
            assert not self.errors, self.errors
            return list(self.acknowledged)

    def stop(self) -> None:
        self._stop.set()
        self.thread.join(PROGRESS_TIMEOUT)
        assert not self.errors, self.errors


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "scorepad.db"


@pytest.fixture
def serving(db_path: Path) -> Iterator[Store]:
    opened = open_store(str(db_path))
    try:
        yield opened
    finally:
        opened.close()


def _stored(db_path: Path) -> dict[int, int]:
    """Each stored match and its revision (the number of its entries)."""
    with open_store(str(db_path)) as store:
        return {s.id: store.load(s.id).revision for s in store.list_matches()}


def test_a_backup_taken_while_entries_flow_restores_every_acknowledged_entry(
    serving: Store, db_path: Path, tmp_path: Path
) -> None:
    writer = Writer(serving)
    writer.thread.start()
    try:
        before = writer.wait_for(20)
        done = back_up(db_path, tmp_path / "evening.db")
        writer.wait_for(len(before) + 20)  # the server went on writing during and after the backup
    finally:
        writer.stop()
    assert done.matches >= len(before)
    # Put back as another club's database: every entry acknowledged before the backup began is there, whole.
    restored = tmp_path / "restored.db"
    assert restore(done.path, restored).kept_aside is None
    kept = _stored(restored)
    assert set(before) <= set(kept)
    assert {kept[match_id] for match_id in before} == {2}, kept  # its hand started and its first play
    assert not Path(f"{done.path}-wal").exists()  # one self-contained file


def test_restore_refuses_while_the_database_is_open_and_keeps_the_old_one_aside(
    serving: Store, db_path: Path, tmp_path: Path
) -> None:
    first = serving.create_match(rules="smartt", options={}, players=["Ann", "Bob"], caller=Caller.local("t"))
    backup = back_up(db_path, tmp_path / "one.db").path
    serving.create_match(rules="smartt", options={}, players=["Cy", "Dee"], caller=Caller.local("t"))
    with pytest.raises(BackupRefused, match=r"is in use .* stop it, then restore"):
        restore(backup, db_path)
    assert set(_stored(db_path)) == {first, first + 1}  # nothing changed
    serving.close()
    done = restore(backup, db_path)
    assert set(_stored(db_path)) == {first}
    assert done.kept_aside is not None and set(_stored(done.kept_aside)) == {first, first + 1}


@pytest.mark.parametrize("bad", ["missing", "not a database", "another sqlite file"])
def test_restore_refuses_what_is_not_a_scorepad_backup(serving: Store, db_path: Path, tmp_path: Path, bad: str) -> None:
    serving.create_match(rules="smartt", options={}, players=["Ann", "Bob"], caller=Caller.local("t"))
    serving.close()
    source = tmp_path / "bad.db"
    if bad == "not a database":
        source.write_bytes(b"hello" * 1000)
    elif bad == "another sqlite file":
        with open_store(str(tmp_path / "x.db")):
            pass
        (tmp_path / "x.db").rename(source)
        with closing(sqlite3.connect(source)) as other:
            other.execute("DROP TABLE audit")
            other.execute("DROP TABLE events")
            other.commit()
    with pytest.raises(BackupRefused):
        restore(source, db_path)
    assert len(_stored(db_path)) == 1


def test_the_commands_say_what_they_did(
    serving: Store, db_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    serving.create_match(rules="smartt", options={}, players=["Ann", "Bob"], caller=Caller.local("t"))
    target = tmp_path / "b.db"
    assert run("backup", str(target), "--db", str(db_path)) == 0
    assert capsys.readouterr().out == f"backed up {db_path} to {target} (1 match)\n"
    assert run("backup", str(target), "--db", str(db_path)) == 2
    assert capsys.readouterr().err == f"{target} exists already: give the backup a new name\n"
    assert run("restore-backup", str(target), "--db", str(db_path)) == 2
    assert "is in use" in capsys.readouterr().err
    serving.close()
    assert run("restore-backup", str(target), "--db", str(db_path)) == 0
    said = capsys.readouterr().out
    assert said.startswith(f"restored {target} into {db_path} (1 match); the database as it was is kept in {db_path}.")


@pytest.mark.postgres
@pytest.mark.parametrize(("command", "tool"), [("backup", "pg_dump"), ("restore-backup", "pg_restore")])
def test_on_postgresql_the_commands_name_its_own_tools(
    pg_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, tool: str
) -> None:
    assert run(command, str(tmp_path / "b.db"), "--db", pg_url) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.splitlines()) == 1
    assert "this database is on PostgreSQL: " in captured.err and tool in captured.err
