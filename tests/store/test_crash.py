"""Crash safety: a writer SIGKILLed in the middle of its writes leaves the SQLite store whole.

Each trial forks a writer (the imports are already loaded, so a trial costs
milliseconds, not an interpreter start) that opens the store and keeps
importing records and entering matches event by event, acknowledging every
call that returned on a pipe. The parent reads the acknowledgements and kills
the writer once it has acknowledged a counted number of writes (drawn per
trial, so the kill lands in the next write, wherever it then is; every tenth
trial kills it at once, while it starts up). No wait depends on the machine's
speed: the parent waits for lines on the pipe, and a bound only turns a hung
writer into a failure. Then it checks: every acknowledged write is there, every match is either complete
(imports) or a clean prefix of its script (live entry), every log replays,
and ``PRAGMA integrity_check`` says ok. Afterwards writing goes on: a new
import, and every interrupted match takes its next entry. A shorter run does
the same on PostgreSQL.
"""

from __future__ import annotations

import json
import os
import random
import select
import signal
import sqlite3
import sys
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from scorepad.access import Caller
from scorepad.store import Store, open_store

from .store_helpers import enter_step, example_records, load_json, record_steps

TRIALS = 120
# Most writes a trial lets through before its kill.
MOST_WRITES = 12
# Only a hung writer (or server) waits this long: every wait ends when its progress arrives.
PROGRESS_TIMEOUT = 120.0
RECORDS = [load_json(p) for p in example_records()]

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(sys.platform == "win32", reason="needs fork and SIGKILL"),
]


def _writer(db: str, ack_fd: int, seed: int) -> None:
    """The child: write forever, acknowledging each write that returned."""
    rng = random.Random(seed)

    def ack(line: str) -> None:
        os.write(ack_fd, f"{line}\n".encode())

    store = open_store(db)
    ack("ready")
    while True:
        index = rng.randrange(len(RECORDS))
        record = RECORDS[index]
        device = f"crash-{index}"
        if rng.random() < 0.4:
            ack(f"import {store.import_record(json.dumps(record), caller=Caller.local(device))}")
            continue
        match_id = store.create_match(
            rules=record.get("rules", "smartt"),
            options=record.get("options"),
            players=record["players"],
            caller=Caller.local(device),
        )
        ack(f"create {match_id} 0")
        for done, step in enumerate(record_steps(record["hands"]), 1):
            enter_step(store, match_id, step, device=device)
            ack(f"entry {match_id} {done}")


def _run_trial(db: str, seed: int, *, kill_after: int | None) -> list[str]:
    """Fork a writer; SIGKILL it once it has acknowledged ``kill_after`` writes, or at once (None).

    Returns every line the writer sent. The count is of acknowledged writes
    read from the pipe, so the kill lands during the next write however fast
    or slow the machine is.
    """
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child never returns into pytest
        os.close(read_fd)
        try:
            _writer(db, write_fd, seed)
        except BaseException as err:  # reported to the parent, which fails the test
            os.write(write_fd, f"error {type(err).__name__}: {err}\n".encode())
        finally:
            os._exit(0)
    os.close(write_fd)
    received = b""
    try:
        if kill_after is not None:
            while not _acknowledged(received, kill_after):
                ready, _, _ = select.select([read_fd], [], [], PROGRESS_TIMEOUT)
                assert ready, f"the writer acknowledged nothing for {PROGRESS_TIMEOUT:.0f} s"
                chunk = os.read(read_fd, 65536)
                if not chunk:  # the writer stopped by itself: its error line says why
                    break
                received += chunk
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    while chunk := os.read(read_fd, 65536):
        received += chunk
    os.close(read_fd)
    return received.decode().splitlines()


def _acknowledged(received: bytes, count: int) -> bool:
    """Whether the writer is ready and has acknowledged ``count`` writes (whole lines only)."""
    lines = received.decode().split("\n")[:-1]
    return "ready" in lines and sum(1 for line in lines if line != "ready") >= count


def _check_new_matches(store: Store, acks: list[str], after: int, unfinished: dict[int, tuple[str, Any]]) -> int:
    """Check every match stored since id ``after``; returns the highest id seen.

    Matches cut short are put in ``unfinished`` with the write they still need.
    """
    acked_imports: set[int] = set()
    acked_steps: dict[int, int] = {}
    for line in acks:
        word, *rest = line.split()
        if word == "import":
            acked_imports.add(int(rest[0]))
        elif word in ("create", "entry"):
            acked_steps[int(rest[0])] = int(rest[1])
    new = sorted(m.id for m in store.list_matches() if m.id > after)
    assert acked_imports | set(acked_steps) <= set(new), "an acknowledged match is missing"
    for match_id in new:
        first = store.audit(match_id)[0]
        record = RECORDS[int(str(first.device).removeprefix("crash-"))]
        exported = store.export_record(match_id)  # replays the stored log
        if first.action == "import":
            assert exported["hands"] == record["hands"], f"import {match_id} half-written"
            continue
        stored, script = record_steps(exported["hands"]), record_steps(record["hands"])
        assert stored == script[: len(stored)], f"match {match_id} is not a prefix"
        acked = acked_steps.get(match_id, 0)
        # Everything acknowledged is there; at most the write in flight beyond it.
        assert acked <= len(stored) <= acked + 1, (match_id, acked, len(stored))
        if len(stored) < len(script):
            unfinished[match_id] = script[len(stored)]
    return max([after, *new])


def _integrity(db_path: Path) -> str:
    with sqlite3.connect(db_path) as conn:
        return conn.execute("PRAGMA integrity_check").fetchone()[0]


def _kill_writers(db: str, trials: int, *, integrity: Callable[[], None], writer_db: str | None = None) -> None:
    """``trials`` writers killed after counted writes; every check after each, then write on.

    The writers use ``writer_db`` (default ``db``), the checks ``db``.
    """
    rng = random.Random(20261130)
    checker: Store | None = None
    highest = 0
    writes = 0
    counted = 0
    unfinished: dict[int, tuple[str, Any]] = {}
    for trial in range(trials):
        if checker is not None:
            # No inherited database connection may live on in the child.
            checker.engine.dispose()
        # Every tenth kill lands while the writer starts up (and, the first
        # time, while it creates the schema).
        kill_after = None if trial % 10 == 0 else rng.randint(0, MOST_WRITES)
        acks = _run_trial(writer_db or db, seed=trial, kill_after=kill_after)
        assert not [line for line in acks if line.startswith("error")], acks[-3:]
        writes += sum(1 for line in acks if line != "ready")
        counted += kill_after or 0
        integrity()
        if checker is None:
            checker = open_store(db)
        highest = _check_new_matches(checker, acks, highest, unfinished)
    assert checker is not None
    assert writes >= counted > trials, (writes, counted)
    # Writing continues: a new import, and every interrupted match takes its next entry.
    match_id = checker.import_record(json.dumps(RECORDS[0]), caller=Caller.local("after"))
    assert checker.export_record(match_id)["hands"] == RECORDS[0]["hands"]
    assert unfinished, "no kill interrupted a match being entered"
    for match_id, step in unfinished.items():
        enter_step(checker, match_id, step, device="after")
    integrity()
    checker.close()


def test_sigkill_at_random_moments(tmp_path: Path) -> None:
    db_path = tmp_path / "crash.db"

    def integrity() -> None:
        if db_path.exists():  # the first kill may come before the file is made
            assert _integrity(db_path) == "ok"

    _kill_writers(f"sqlite:///{db_path}", TRIALS, integrity=integrity)


# Unique to this run: another run of this test on the same server (another checkout, CI)
# has writers of its own, which this one must neither end nor wait for.
WRITER_APP = f"scorepad-crash-{os.getpid()}-{uuid.uuid4().hex[:8]}"


@pytest.mark.postgres
def test_sigkill_on_postgresql(pg_url: str) -> None:
    """The same on PostgreSQL, fewer trials: a killed client's transaction is rolled back.

    A COMMIT that reached the server before the kill still completes there, a
    moment after the client is gone; so each check first ends the killed
    writer's server session (the writers connect under their own application
    name), then reads a settled database.
    """
    from sqlalchemy import create_engine, text

    # Autocommit: PostgreSQL snapshots pg_stat_activity once per transaction, so passes in one
    # transaction would see the first pass's (ended) sessions again and again.
    monitor = create_engine(pg_url, isolation_level="AUTOCOMMIT")

    def writer_sessions_ended() -> None:
        # A session left behind (for instance waiting on a lock, where the server does
        # not notice its client is gone) is ended as the server would end it; a COMMIT
        # it had received is atomic either way, and every acknowledged write was
        # acknowledged only after its COMMIT returned.
        # pg_terminate_backend(pid, timeout) returns once the session has ended (PostgreSQL 14+).
        # A connection the writer had begun may still be starting up on the server: it shows
        # up a moment later and is ended in the next pass. The passes only ever end sessions;
        # the bound on them turns sessions that keep appearing into a failure.
        with monitor.connect() as conn:
            for _ in range(1000):
                ended = conn.execute(
                    text(
                        "SELECT pg_terminate_backend(pid, :ms) FROM pg_stat_activity"
                        " WHERE application_name = :app AND pid <> pg_backend_pid()"
                    ),
                    {"app": WRITER_APP, "ms": int(PROGRESS_TIMEOUT * 1000)},
                ).all()
                if not ended:
                    return
            raise AssertionError("a killed writer's sessions did not end")

    writer_url = pg_url + ("&" if "?" in pg_url else "?") + f"application_name={WRITER_APP}"
    try:
        _kill_writers(pg_url, 30, integrity=writer_sessions_ended, writer_db=writer_url)
    finally:
        monitor.dispose()
