"""Database faults injected for real: each is told in one plain sentence and changes nothing.

SQLite: a write lock held by another process (a real second process in
``BEGIN IMMEDIATE``), a read-only file (``chattr +i``, which binds root too,
and ``PRAGMA query_only`` on the store's connections, a refusal by SQLite
itself), the file renamed away or deleted, a full disk (a small tmpfs filled
up). PostgreSQL: the store's backend terminated (``pg_terminate_backend``)
mid-entry, during the COMMIT, and while idle in the pool. Each checks that
the snapshot the caller holds, every row of the store and the audit trail are
unchanged, that the error is a ``StoreError`` with one plain sentence, and
that the next write works once the fault is healed.
"""

from __future__ import annotations

import os
import select
import shutil
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, event, text
from sqlalchemy.orm.session import SessionTransaction

from scorepad.access import Caller
from scorepad.rules import Draw, Play, report
from scorepad.store import (
    ConnectionLost,
    DatabaseGone,
    DatabaseLocked,
    DatabaseUnavailable,
    DiskFull,
    ReadOnlyDatabase,
    SaveUncertain,
    Store,
    StoreConflict,
    StoreError,
    open_store,
)
from scorepad.store import repository as repo
from scorepad.store.settings import StoreSettings

from .store_helpers import snapshot

# Only a failure waits this long: every wait below ends as soon as its line arrives.
PROGRESS_TIMEOUT = 60.0


def _opening(store: Store) -> int:
    match_id = store.create_match(rules="smartt", options={}, players=["Ann", "Bob"], caller=Caller.local("t1"))
    store.start_hand(match_id, setter=0, caller=Caller.local("t1"))
    store.append(match_id, Play("5-5"), caller=Caller.local("t1"))
    return match_id


def _picture(state: Any) -> tuple[Any, ...]:
    return (state.revision, report(state), [list(h.events) for h in state.hands])


class Before:
    """What a screen holds and what the store holds, taken before a fault."""

    def __init__(self, store: Store, match_id: int) -> None:
        self.store, self.match_id = store, match_id
        self.held = store.load(match_id, device="t1")
        self.picture = _picture(self.held)
        self.rows = snapshot(store)
        self.trail = store.audit(match_id)

    def unchanged(self, *, reading: bool = True) -> None:
        """The held snapshot, every row and the audit trail are as they were."""
        assert _picture(self.held) == self.picture
        if reading:
            assert snapshot(self.store) == self.rows
            assert self.store.audit(self.match_id) == self.trail
            assert _picture(self.store.load(self.match_id, device="t1")) == self.picture

    def next_write_works(self) -> None:
        state = self.store.append(self.match_id, Play("5-3", at="left", call=10), caller=Caller.local("t1"))
        assert state.revision == self.held.revision + 1
        assert list(state.current.events) == [Play("5-5"), Play("5-3", at="left", call=10)]  # type: ignore[union-attr]


def _told(err: BaseException, *words: str) -> str:
    """The error is the store's, one plain sentence, naming the fault, never the driver's text."""
    message = str(err)
    assert isinstance(err, StoreError), repr(err)
    assert "\n" not in message and message.endswith("."), message
    for jargon in ("sqlite", "psycopg", "OperationalError", "SQL", "Traceback", "[", "another screen"):
        assert jargon not in message, message
    for word in words:
        assert word in message, message
    return message


def _readline(stream: Any) -> str:
    """One line from a child process, waiting for it to arrive (bounded only against a hang)."""
    ready, _, _ = select.select([stream], [], [], PROGRESS_TIMEOUT)
    assert ready, "the child process wrote nothing"
    return stream.readline().strip()


# -- SQLite ---------------------------------------------------------------------------

LOCKER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
sys.stdin.readline()
conn.execute("ROLLBACK")
conn.close()
print("released", flush=True)
"""


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "store.db"


@pytest.fixture
def quick_store(db_path: Path) -> Iterator[Store]:
    """An SQLite store that waits only 200 ms for a lock (the default is 5 s)."""
    opened = open_store(str(db_path), settings=StoreSettings(busy_timeout_ms=200))
    try:
        yield opened
    finally:
        opened.close()


class TestSQLite:
    def test_a_lock_held_by_another_process(self, quick_store: Store, db_path: Path) -> None:
        match_id = _opening(quick_store)
        before = Before(quick_store, match_id)
        locker = subprocess.Popen(
            [sys.executable, "-c", LOCKER, str(db_path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        try:
            assert _readline(locker.stdout) == "locked"
            with pytest.raises(DatabaseLocked) as failure:
                quick_store.append(match_id, Play("5-3", at="left", call=10), caller=Caller.local("t1"))
            _told(failure.value, "another program is holding the database (locked)", "try again")
            assert not isinstance(failure.value, StoreConflict)
            before.unchanged()  # reading goes on while another program holds the write lock (WAL)
            assert locker.stdin is not None
            locker.stdin.write("\n")
            locker.stdin.flush()
            assert _readline(locker.stdout) == "released"
        finally:
            locker.kill()
            locker.wait()
        before.next_write_works()

    def test_a_file_made_immutable(self, quick_store: Store, db_path: Path) -> None:
        if shutil.which("chattr") is None:
            pytest.skip("chattr is not installed")
        match_id = _opening(quick_store)
        before = Before(quick_store, match_id)
        files = [p for p in (db_path, Path(f"{db_path}-wal"), Path(f"{db_path}-shm")) if p.exists()]
        if subprocess.run(["chattr", "+i", *map(str, files)], capture_output=True).returncode != 0:
            pytest.skip("this file system does not take chattr +i")
        try:
            for _ in range(2):  # told every time, and the process lives on
                with pytest.raises(ReadOnlyDatabase) as failure:
                    quick_store.append(match_id, Play("5-3", at="left", call=10), caller=Caller.local("t1"))
                _told(failure.value, "read-only")
            # Reading is refused too while the -shm may not be written (SQLite writes into it to read).
            before.unchanged(reading=False)
        finally:
            subprocess.run(["chattr", "-i", *map(str, files)], check=True)
        before.unchanged()
        before.next_write_works()

    def test_sqlite_refusing_to_write(self, quick_store: Store) -> None:
        """``PRAGMA query_only``: SQLite's own "attempt to write a readonly database"."""
        match_id = _opening(quick_store)
        before = Before(quick_store, match_id)

        def query_only(dbapi_connection: Any, _record: Any) -> None:
            dbapi_connection.execute("PRAGMA query_only=1")

        quick_store.engine.dispose()
        event.listen(quick_store.engine, "connect", query_only)
        try:
            with pytest.raises(ReadOnlyDatabase) as failure:
                quick_store.undo(match_id, caller=Caller.local("t1"))
            _told(failure.value, "read-only")
            before.unchanged()
        finally:
            event.remove(quick_store.engine, "connect", query_only)
            quick_store.engine.dispose()
        before.next_write_works()

    def test_the_file_renamed_away_and_back(self, quick_store: Store, db_path: Path) -> None:
        match_id = _opening(quick_store)
        before = Before(quick_store, match_id)
        away = db_path.with_name("moved.db")
        db_path.rename(away)
        try:
            with pytest.raises(DatabaseGone) as failure:
                quick_store.append(match_id, Play("5-3", at="left", call=10), caller=Caller.local("t1"))
            _told(failure.value, "the database file has disappeared")
            with pytest.raises(DatabaseGone):
                quick_store.list_matches()
            before.unchanged(reading=False)
        finally:
            away.rename(db_path)
        before.unchanged()
        before.next_write_works()

    def test_the_file_deleted(self, quick_store: Store, db_path: Path) -> None:
        match_id = _opening(quick_store)
        before = Before(quick_store, match_id)
        for name in (db_path, Path(f"{db_path}-wal"), Path(f"{db_path}-shm")):
            name.unlink(missing_ok=True)
        for _ in range(3):  # no write ever goes into the deleted file
            with pytest.raises(DatabaseGone) as failure:
                quick_store.append(match_id, Draw(1), caller=Caller.local("t1"))
            _told(failure.value, "disappeared")
        with pytest.raises(DatabaseGone):
            quick_store.load(match_id + 1)
        before.unchanged(reading=False)
        # A new file in its place (another store created it) is not taken for the old one.
        open_store(str(db_path)).close()
        with pytest.raises(DatabaseGone) as failure:
            quick_store.append(match_id, Draw(1), caller=Caller.local("t1"))
        _told(failure.value, "replaced")

    def test_a_full_disk(self, tmp_path: Path) -> None:
        mount = tmp_path / "small"
        mount.mkdir()
        if (
            os.geteuid() != 0
            or subprocess.run(
                ["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(mount)], capture_output=True
            ).returncode
        ):
            pytest.skip("cannot mount a small tmpfs here (needs root)")
        try:
            store = open_store(str(mount / "store.db"))
            try:
                match_id = _opening(store)
                with store.engine.connect() as conn:
                    # An empty WAL: the next commit must take new blocks on the disk.
                    conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
                before = Before(store, match_id)
                filler = mount / "filler"
                fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
                try:
                    while os.write(fd, b"\0" * 4096):
                        pass
                except OSError:
                    pass  # the disk is full now
                finally:
                    os.close(fd)
                with pytest.raises(DiskFull) as failure:
                    store.append(match_id, Play("5-3", at="left", call=10), caller=Caller.local("t1"))
                _told(
                    failure.value, "The score-pad can't save right now: the disk is full. Nothing was lost; try again."
                )
                before.unchanged()
                filler.unlink()
                before.next_write_works()
            finally:
                store.close()
        finally:
            subprocess.run(["umount", "-l", str(mount)], check=False)


# -- PostgreSQL -----------------------------------------------------------------------


@pytest.fixture
def pg_store(pg_url: str) -> Iterator[tuple[Store, str]]:
    """A store on PostgreSQL whose connections carry an application name of their own."""
    app = f"scorepad_faults_{uuid.uuid4().hex[:8]}"
    url = pg_url + ("&" if "?" in pg_url else "?") + f"application_name={app}"
    opened = open_store(url)
    try:
        yield opened, app
    finally:
        opened.close()


@pytest.fixture
def admin(pg_base_url: str) -> Iterator[Callable[[str, dict[str, Any]], Any]]:
    engine = create_engine(pg_base_url, isolation_level="AUTOCOMMIT")

    def run(sql: str, params: dict[str, Any]) -> Any:
        with engine.connect() as conn:
            return conn.execute(text(sql), params).all()

    try:
        yield run
    finally:
        engine.dispose()


def _terminate(admin: Callable[[str, dict[str, Any]], Any], session_or_conn: Any) -> None:
    """End the server process behind this session, waiting (PostgreSQL 14+) until it is gone."""
    pid = session_or_conn.execute(text("SELECT pg_backend_pid()")).scalar_one()
    admin("SELECT pg_terminate_backend(:pid, 10000)", {"pid": pid})


@pytest.mark.postgres
class TestPostgres:
    def test_terminated_mid_entry_on_every_try(
        self, pg_store: tuple[Store, str], admin: Any, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        store, _app = pg_store
        match_id = _opening(store)
        before = Before(store, match_id)
        real = repo.append_entry
        tries: list[int] = []

        def killed(*, session: Any, **kwargs: Any) -> int:
            tries.append(1)
            _terminate(admin, session)
            return real(session=session, **kwargs)

        with monkeypatch.context() as patch:
            patch.setattr(repo, "append_entry", killed)
            with pytest.raises(ConnectionLost) as failure:
                store.append(match_id, Play("5-3", at="left", call=10), caller=Caller.local("t1"))
        _told(failure.value, "the connection to the database was lost", "Nothing was lost")
        assert len(tries) == 2  # one automatic retry, then told
        before.unchanged()
        before.next_write_works()

    def test_terminated_once_the_retry_saves_it_once(
        self, pg_store: tuple[Store, str], admin: Any, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        store, _app = pg_store
        match_id = _opening(store)
        held = store.load(match_id, device="t1")
        real = repo.append_entry
        tries: list[int] = []

        def killed_once(*, session: Any, **kwargs: Any) -> int:
            tries.append(1)
            if len(tries) == 1:
                _terminate(admin, session)
            return real(session=session, **kwargs)

        with monkeypatch.context() as patch:
            patch.setattr(repo, "append_entry", killed_once)
            state = store.append(match_id, Play("5-3", at="left", call=10), caller=Caller.local("t1"))
        assert len(tries) == 2
        assert state.revision == held.revision + 1
        with open_store(store.engine.url.render_as_string(hide_password=False)) as other:
            events = other.export_record(match_id)["hands"][0]["events"]
        assert events == [{"play": "5-5"}, {"play": "5-3", "at": "left", "call": 10}]
        assert [line.action for line in store.audit(match_id)].count("append") == 2

    def test_terminated_during_the_commit(
        self, pg_store: tuple[Store, str], admin: Any, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        store, _app = pg_store
        match_id = _opening(store)
        before = Before(store, match_id)
        real_commit = SessionTransaction.commit

        def killed_commit(self: SessionTransaction, *args: Any, **kwargs: Any) -> Any:
            # Only the writing transaction's COMMIT: the door's check before it is a read (REPEATABLE READ).
            bind = self.session.get_bind()
            if bind.get_execution_options().get("isolation_level") != "REPEATABLE READ":
                _terminate(admin, self.session)
            return real_commit(self, *args, **kwargs)

        with monkeypatch.context() as patch:
            patch.setattr(SessionTransaction, "commit", killed_commit)
            with pytest.raises(SaveUncertain) as failure:
                store.append(match_id, Play("5-3", at="left", call=10), caller=Caller.local("t1"))
        # The COMMIT may have landed, so it is not retried; the user is told to look again.
        _told(failure.value, "reload the match")
        assert isinstance(failure.value, DatabaseUnavailable)
        # The commit never reached the server here: the store shows what the database kept.
        before.unchanged()
        before.next_write_works()

    def test_an_idle_connection_terminated_between_taps(self, pg_store: tuple[Store, str], admin: Any) -> None:
        store, app = pg_store
        match_id = _opening(store)
        before = Before(store, match_id)
        ended = admin(
            "SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity WHERE application_name = :app",
            {"app": app},
        )
        assert ended, "the store held no connection to end"
        # The first statement finds its connection dead; the retry takes a fresh one: the next tap simply works.
        before.next_write_works()
