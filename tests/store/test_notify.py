"""Live updates (scorepad.store.notify): the hub in one process, LISTEN/NOTIFY across processes.

The PostgreSQL tests put two processes on one fresh schema, each a hub with
its own link and a store's sender (``Notifier``), named apart as two server
processes are, and wait on what arrives, bounded by a timeout, never by a
fixed sleep. The last ones use real stores: a store in a process with no
screens (the command line) is heard by a server's.
"""

from __future__ import annotations

import queue
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from scorepad.access import Caller, Who
from scorepad.store import open_store
from scorepad.store.notify import Change, LiveHub, Notifier, channel_for, decode, encode, libpq_url, process_origin

WAIT = 10.0  # seconds: the most any arrival may take on a loaded machine


class Inbox:
    """A hub's ``deliver``: keeps every change it is handed, to be waited on."""

    def __init__(self) -> None:
        self.changes: queue.Queue[Change] = queue.Queue()

    def __call__(self, change: Change) -> None:
        self.changes.put(change)

    def next(self, timeout: float = WAIT) -> Change:
        return self.changes.get(timeout=timeout)

    def empty(self) -> bool:
        return self.changes.empty()


# -- one process ------------------------------------------------------------------


def test_a_change_goes_only_to_a_watched_match() -> None:
    inbox = Inbox()
    hub = LiveHub(inbox)
    hub.watch("screen-a", 1)
    hub.watch("screen-b", 1)
    hub.watch("screen-c", 2)
    hub.committed(3, 5, "web:x")  # nobody shows match 3
    hub.committed(1, 7, "web:a")
    assert inbox.next(0) == Change(1, 7, "web:a")
    assert inbox.empty()
    assert (hub.watchers(1), hub.watchers(2), hub.watchers(3), hub.watchers()) == (2, 1, 0, 3)


def test_a_screen_that_leaves_or_moves_on_is_not_counted() -> None:
    hub = LiveHub(Inbox())
    hub.watch("screen-a", 1)
    hub.watch("screen-a", 2)  # the screen opened another match
    hub.watch("screen-b", 1)
    hub.unwatch("screen-b")
    hub.unwatch("screen-b")  # twice is harmless
    hub.watch("screen-c", None)
    assert (hub.watchers(1), hub.watchers(2), hub.watchers(), hub.watched()) == (0, 1, 1, {2})


def test_a_delivery_that_fails_does_not_reach_the_writer(caplog: pytest.LogCaptureFixture) -> None:
    def broken(_change: Change) -> None:
        raise RuntimeError("the screen went away")

    hub = LiveHub(broken)
    hub.watch("screen-a", 1)
    hub.committed(1, 2, "web:a")  # must not raise: the entry is saved whatever the screens do
    assert "could not be delivered" in caplog.text


def test_resync_names_every_watched_match_once() -> None:
    inbox = Inbox()
    hub = LiveHub(inbox)
    for screen, match_id in (("a", 4), ("b", 4), ("c", 9)):
        hub.watch(screen, match_id)
    hub.resync()
    got = {inbox.next(0), inbox.next(0)}
    assert got == {Change(4, None, None), Change(9, None, None)}
    assert all(change.resync for change in got)
    assert inbox.empty()


def test_an_announcement_asks_the_matchs_screens_to_read_it_again(tmp_path: Path) -> None:
    """Something shown with a match changed beside its entries (a confirmed hand): no revision, the device."""
    inbox = Inbox()
    hub = LiveHub(inbox)
    store = open_store(f"sqlite:///{tmp_path / 'a.db'}")
    try:
        store.add_commit_listener(hub.committed)
        hub.watch("screen-a", 4)
        store.announce(4, "web:a")
        store.announce(5, "web:a")  # nobody shows match 5
    finally:
        store.close()
    change = inbox.next(0)
    assert change == Change(4, None, "web:a") and change.resync
    assert decode(encode(change, "p1")) == (change, "p1")
    assert inbox.empty()


def test_each_process_names_itself_apart() -> None:
    assert process_origin() == process_origin()
    assert len(process_origin()) == 12


def test_a_payload_carries_ids_only_and_foreign_payloads_are_ignored() -> None:
    payload = encode(Change(12, 40, "web:abcd1234"), "p1")
    assert decode(payload) == (Change(12, 40, "web:abcd1234"), "p1")
    assert len(encode(Change(1, 1, "x" * 10_000), "p1")) < 200
    for foreign in ("", "hello", "[]", '{"m": "1", "r": 1, "d": null, "o": "p"}', '{"m": 1}'):
        assert decode(foreign) is None


def test_channels_differ_by_database_and_schema() -> None:
    names = {channel_for("test", "a"), channel_for("test", "b"), channel_for("other", "a")}
    assert len(names) == 3
    assert all(len(name) < 63 for name in names)  # PostgreSQL identifiers are at most 63 bytes


def test_libpq_url_only_for_postgresql() -> None:
    assert libpq_url("sqlite:///x.db") is None
    url = libpq_url("postgresql+psycopg://postgres@127.0.0.1:5432/test?options=-csearch_path%3Ds1")
    assert url is not None and url.startswith("postgresql://postgres@127.0.0.1:5432/test")
    assert "search_path" in url


# -- across processes on PostgreSQL --------------------------------------------------


@pytest.fixture
def schema_conninfo(pg_base_url: str) -> Iterator[str]:
    """A libpq URL on a fresh schema (dropped after the test)."""
    schema = f"scorepad_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(pg_base_url)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = make_url(pg_base_url).update_query_dict({"options": f"-csearch_path={schema}"})
    try:
        conninfo = libpq_url(url)
        assert conninfo is not None
        yield conninfo
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


class Process:
    """What a server process has for live updates: a hub linked to the database, and its store's sender."""

    def __init__(self, conninfo: str, name: str) -> None:
        self.inbox = Inbox()
        self.hub = LiveHub(self.inbox)
        self.notifier = Notifier(conninfo, origin=name)
        self.hub.link(conninfo, origin=name)

    def committed(self, match_id: int, revision: int | None, device: str | None) -> None:
        """What the store does after a commit: its listeners (this hub), then ``NOTIFY`` (``Store._committed``)."""
        self.hub.committed(match_id, revision, device)
        self.notifier.send(Change(match_id, revision, device))

    def close(self) -> None:
        self.notifier.close()
        self.hub.close()


@pytest.fixture
def two_processes(schema_conninfo: str) -> Iterator[tuple[Process, Process]]:
    """Two processes on one schema, as two server processes would be."""
    a = Process(schema_conninfo, "process-a")
    try:
        b = Process(schema_conninfo, "process-b")
        try:
            yield a, b
        finally:
            b.close()
    finally:
        a.close()


def _terminate(conninfo: str, pid: int) -> None:
    with psycopg.connect(conninfo, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))


@pytest.mark.postgres
def test_a_change_committed_in_one_process_reaches_the_other_once(two_processes: tuple[Process, Process]) -> None:
    a, b = two_processes
    a.hub.watch("a1", 7)
    b.hub.watch("b1", 7)
    b.hub.watch("b2", 8)
    for revision in range(1, 21):
        a.committed(7, revision, "web:a1")
    got = [b.inbox.next() for _ in range(20)]
    # In order, each once: NOTIFY delivers in commit order, one sender here.
    assert got == [Change(7, r, "web:a1") for r in range(1, 21)]
    # Process A heard its own changes at once and not again through the database.
    assert [a.inbox.next(0) for _ in range(20)] == got
    b.committed(8, 3, "web:b2")
    assert b.inbox.next() == Change(8, 3, "web:b2")
    # A round trip back (A watches 7 only): B's change to 7 reaches A, then nothing more is queued.
    b.committed(7, 21, "web:b1")
    assert a.inbox.next() == Change(7, 21, "web:b1")
    assert b.inbox.next() == Change(7, 21, "web:b1")
    assert a.inbox.empty() and b.inbox.empty()


@pytest.mark.postgres
def test_two_schemas_do_not_hear_each_other(pg_base_url: str, schema_conninfo: str) -> None:
    other = libpq_url(make_url(pg_base_url).update_query_dict({"options": "-csearch_path=public"}))
    assert other is not None
    a, b = Process(schema_conninfo, "process-a"), Process(other, "process-b")
    try:
        assert a.hub._link is not None and b.hub._link is not None
        assert a.hub._link.channel != b.hub._link.channel
        a.hub.watch("a", 1)
        b.hub.watch("b", 1)
        a.committed(1, 1, "web:a")
        b.committed(1, 2, "web:b")  # the round trip that proves B's link works...
        assert a.inbox.next(0) == Change(1, 1, "web:a")
        assert b.inbox.next(0) == Change(1, 2, "web:b")
        # ...and a NOTIFY of A's channel by hand, after which B has still heard nothing of A.
        with psycopg.connect(schema_conninfo, autocommit=True) as conn:
            conn.execute("SELECT pg_notify(%s, %s)", (a.hub._link.channel, encode(Change(1, 3, "web:x"), "hand")))
        assert a.inbox.next() == Change(1, 3, "web:x")
        assert b.inbox.empty()
    finally:
        a.close()
        b.close()


@pytest.mark.postgres
def test_a_lost_listening_connection_reconnects_and_resynchronises(
    schema_conninfo: str, two_processes: tuple[Process, Process]
) -> None:
    a, b = two_processes
    b.hub.watch("b1", 5)
    b.hub.watch("b2", 6)
    link = b.hub._link
    assert link is not None and link._listener is not None
    _terminate(schema_conninfo, link._listener.info.backend_pid)
    # Every watched match is reloaded once the link is back: what was sent
    # while it was down is not lost, it is read from the store.
    got = {b.inbox.next(), b.inbox.next()}
    assert got == {Change(5, None, None), Change(6, None, None)}
    assert link.reconnects == 1
    # And the link works again: A's next change arrives as one entry.
    a.committed(5, 9, "web:a")
    assert b.inbox.next() == Change(5, 9, "web:a")


@pytest.mark.postgres
def test_a_lost_sending_connection_is_made_again_for_the_next_change(
    schema_conninfo: str, two_processes: tuple[Process, Process]
) -> None:
    a, b = two_processes
    a.hub.watch("a", 3)
    b.hub.watch("b", 3)
    a.committed(3, 1, "web:a")
    assert b.inbox.next() == Change(3, 1, "web:a")
    assert a.notifier._conn is not None
    _terminate(schema_conninfo, a.notifier._conn.info.backend_pid)
    a.committed(3, 2, "web:a")
    assert b.inbox.next() == Change(3, 2, "web:a")
    assert a.inbox.next(0) == Change(3, 1, "web:a") and a.inbox.next(0) == Change(3, 2, "web:a")


@pytest.mark.postgres
def test_a_link_to_a_database_that_is_not_there_fails_at_once() -> None:
    hub = LiveHub(Inbox())
    with pytest.raises(psycopg.OperationalError):
        hub.link("postgresql://postgres@127.0.0.1:5432/scorepad_no_such_database", timeout=10)
    assert not hub.linked


@pytest.mark.postgres
def test_a_store_with_no_screens_is_heard_by_a_server(pg_url: str) -> None:
    """The command line or an import beside a running server (a process with no hub of its own): the server's
    screens hear each entry it commits and each announcement it makes, once."""
    command_line = open_store(pg_url)
    server = Process(libpq_url(command_line.engine.url) or "", "server")
    try:
        caller = Caller(Who.LOCAL)
        match_id = command_line.create_match(players=["Ann", "Bob"], caller=caller)
        server.hub.watch("table", match_id)
        command_line.start_hand(match_id, 0, caller=caller)
        command_line.append(match_id, {"play": "5-5"}, caller=caller)
        command_line.announce(match_id, "director:1")
        heard = [server.inbox.next() for _ in range(3)]
        if heard[0] == Change(match_id, 0, None):  # the match's creation, when it arrived after the watch
            heard = [*heard[1:], server.inbox.next()]
        assert heard == [
            Change(match_id, 1, None),
            Change(match_id, 2, None),
            Change(match_id, None, "director:1"),
        ]
        assert server.inbox.empty()
    finally:
        server.close()
        command_line.close()
