"""The files SQLite keeps beside the database (``-wal``, ``-shm``), tampered with while a store serves (issue 17).

Each fault is injected for real into a store running in a child process,
which answers one line per request, so the test waits on its answers and
never on a clock. The child is then killed with SIGKILL (no clean close
that could copy the ``-wal`` into the database on its way out), and the
database is reopened: every entry the child acknowledged must be there.
A read after a fault on the ``-shm`` must be told in a sentence, never kill
the process (SQLite maps the ``-shm`` into memory: SIGBUS).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from scorepad.store import open_store

from .test_faults import _readline

# A store in a child process: "write" creates a match (an entry acknowledged by its id), "read" lists
# the matches, "flow" writes until stdin closes; each answer is one line: "ok ID", "read N", "told ...".
CHILD = """
import sys
from scorepad.access import Caller
from scorepad.store import StoreError, open_store

store = open_store(sys.argv[1])
print("ready", flush=True)


def write():
    try:
        made = store.create_match(rules="smartt", options={}, players=["Ann", "Bob"], caller=Caller.local("child"))
        print("ok", made, flush=True)
    except StoreError as err:
        print("told", err, flush=True)


for line in sys.stdin:
    asked = line.strip()
    if asked == "write":
        write()
    elif asked == "read":
        try:
            print("read", len(store.list_matches()), flush=True)
        except StoreError as err:
            print("told", err, flush=True)
    elif asked == "flow":
        while True:
            write()
    elif asked == "close":
        store.close()
        print("closed", flush=True)
"""


class Child:
    """The store in a child process, spoken to one line at a time."""

    def __init__(self, db_path: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(db_path)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert self.answer() == "ready"

    def ask(self, what: str) -> str:
        assert self.process.stdin is not None
        self.process.stdin.write(what + "\n")
        self.process.stdin.flush()
        return self.answer()

    def answer(self) -> str:
        line = _readline(self.process.stdout)
        if not line:
            status = self.process.wait()
            said = self.process.stderr.read() if self.process.stderr else ""
            raise AssertionError(f"the child died: {status} {said}")
        return line

    def kill(self) -> None:
        self.process.kill()
        self.process.wait()

    def __enter__(self) -> Child:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.kill()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "scorepad.db"


@pytest.fixture
def child(db_path: Path) -> Iterator[Child]:
    with Child(db_path) as started:
        yield started


def _stored(db_path: Path) -> set[int]:
    with open_store(str(db_path)) as store:
        return {summary.id for summary in store.list_matches()}


def _acknowledged(line: str) -> int:
    word, _, match_id = line.partition(" ")
    assert word == "ok", line
    return int(match_id)


class TestTheWalDeleted:
    def test_told_once_and_nothing_acknowledged_is_lost(self, child: Child, db_path: Path) -> None:
        acknowledged = [_acknowledged(child.ask("write")) for _ in range(5)]
        os.remove(f"{db_path}-wal")
        told = child.ask("write")
        assert told == (
            "told The score-pad can't save right now: the file scorepad.db-wal beside the database disappeared."
            " Nothing was lost; try again."
        )
        # The fault heals at once: the store reopened the database on fresh files.
        acknowledged += [_acknowledged(child.ask("write")) for _ in range(5)]
        assert child.ask("read") == "read 10"
        child.kill()
        assert _stored(db_path) == set(acknowledged)

    def test_deleted_while_entries_flow(self, child: Child, db_path: Path) -> None:
        """The -wal goes while a write may be under way: whatever was acknowledged is kept."""
        assert child.process.stdin is not None
        child.process.stdin.write("flow\n")
        child.process.stdin.flush()
        lines = [child.answer() for _ in range(5)]
        os.remove(f"{db_path}-wal")
        lines += [child.answer() for _ in range(20)]
        child.kill()
        acknowledged = {int(line.split()[1]) for line in lines if line.startswith("ok ")}
        assert all(line.startswith(("ok ", "told ")) for line in lines), lines
        assert len(acknowledged) >= 20
        assert acknowledged <= _stored(db_path)


def _shm_fault(kind: str, db_path: Path) -> list[str]:
    """The command that breaks the -shm, or skips the test where it cannot be done here."""
    if kind == "immutable":
        if shutil.which("chattr") is None:
            pytest.skip("chattr is not installed")
        return ["chattr", "+i", f"{db_path}-shm"]
    return ["truncate", "-s", "0", f"{db_path}-shm"]


class TestTheShmBroken:
    @pytest.mark.parametrize("kind", ["truncated", "immutable"])
    def test_a_read_is_told_and_the_process_lives(self, child: Child, db_path: Path, kind: str) -> None:
        acknowledged = [_acknowledged(child.ask("write")) for _ in range(3)]
        fault = subprocess.run(_shm_fault(kind, db_path), capture_output=True)
        if fault.returncode != 0:
            pytest.skip(f"this file system does not take {' '.join(_shm_fault(kind, db_path)[:2])}")
        try:
            told = child.ask("read")
            assert told.startswith("told The score-pad can't read the database right now: the file scorepad.db-shm")
            assert told.endswith("; try again."), told
            if kind == "immutable":
                assert "read-only" in told
                assert child.ask("write").startswith("told The score-pad can't save right now:")
        finally:
            subprocess.run(["chattr", "-i", f"{db_path}-shm"], capture_output=True)
        # Healed: read and write again, then close and leave without a signal.
        assert child.ask("read") == "read 3"
        acknowledged.append(_acknowledged(child.ask("write")))
        assert child.ask("close") == "closed"
        assert child.process.stdin is not None
        child.process.stdin.close()
        assert child.process.wait() == 0, -child.process.returncode == signal.SIGBUS
        assert _stored(db_path) == set(acknowledged)
