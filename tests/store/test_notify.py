"""Live updates (scorepad.store.notify): the hub in one process, LISTEN/NOTIFY across processes.

The PostgreSQL tests put two hubs with their own links (as two server
processes would have) on one fresh schema and wait on what arrives, bounded
by a timeout, never by a fixed sleep.
"""

from __future__ import annotations

import queue
import uuid
from collections.abc import Iterator

import psycopg
import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from scorepad.store.notify import Change, LiveHub, channel_for, decode, encode, libpq_url

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


def test_an_announcement_asks_the_matchs_screens_to_read_it_again() -> None:
    """Something shown with a match changed beside its entries (a confirmed hand): no revision, the device."""
    inbox = Inbox()
    hub = LiveHub(inbox)
    hub.watch("screen-a", 4)
    hub.announce(4, "web:a")
    hub.announce(5, "web:a")  # nobody shows match 5
    change = inbox.next(0)
    assert change == Change(4, None, "web:a") and change.resync
    assert decode(encode(change, "p1")) == (change, "p1")
    assert inbox.empty()


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


@pytest.fixture
def two_processes(schema_conninfo: str) -> Iterator[tuple[LiveHub, Inbox, LiveHub, Inbox]]:
    """Two hubs, each linked to the database as a server process would be."""
    inbox_a, inbox_b = Inbox(), Inbox()
    hub_a, hub_b = LiveHub(inbox_a), LiveHub(inbox_b)
    try:
        hub_a.link(schema_conninfo)
        hub_b.link(schema_conninfo)
        yield hub_a, inbox_a, hub_b, inbox_b
    finally:
        hub_a.close()
        hub_b.close()


def _terminate(conninfo: str, pid: int) -> None:
    with psycopg.connect(conninfo, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))


@pytest.mark.postgres
def test_a_change_committed_in_one_process_reaches_the_other_once(
    two_processes: tuple[LiveHub, Inbox, LiveHub, Inbox],
) -> None:
    hub_a, inbox_a, hub_b, inbox_b = two_processes
    hub_a.watch("a1", 7)
    hub_b.watch("b1", 7)
    hub_b.watch("b2", 8)
    for revision in range(1, 21):
        hub_a.committed(7, revision, "web:a1")
    got = [inbox_b.next() for _ in range(20)]
    # In order, each once: NOTIFY delivers in commit order, one sender here.
    assert got == [Change(7, r, "web:a1") for r in range(1, 21)]
    # Process A heard its own changes at once and not again through the database.
    assert [inbox_a.next(0) for _ in range(20)] == got
    hub_b.committed(8, 3, "web:b2")
    assert inbox_b.next() == Change(8, 3, "web:b2")
    # A round trip back (A watches 7 only): B's change to 7 reaches A, then nothing more is queued.
    hub_b.committed(7, 21, "web:b1")
    assert inbox_a.next() == Change(7, 21, "web:b1")
    assert inbox_b.next() == Change(7, 21, "web:b1")
    assert inbox_a.empty() and inbox_b.empty()


@pytest.mark.postgres
def test_two_schemas_do_not_hear_each_other(pg_base_url: str, schema_conninfo: str) -> None:
    other = make_url(pg_base_url).update_query_dict({"options": "-csearch_path=public"})
    inbox_a, inbox_b = Inbox(), Inbox()
    hub_a, hub_b = LiveHub(inbox_a), LiveHub(inbox_b)
    try:
        hub_a.link(schema_conninfo)
        hub_b.link(libpq_url(other) or "")
        assert hub_a._link is not None and hub_b._link is not None
        assert hub_a._link.channel != hub_b._link.channel
        hub_a.watch("a", 1)
        hub_b.watch("b", 1)
        hub_a.committed(1, 1, "web:a")
        hub_b.committed(1, 2, "web:b")  # the round trip that proves B's link works...
        assert inbox_a.next(0) == Change(1, 1, "web:a")
        assert inbox_b.next(0) == Change(1, 2, "web:b")
        # ...and a NOTIFY of A's channel by hand, after which B has still heard nothing of A.
        with psycopg.connect(schema_conninfo, autocommit=True) as conn:
            conn.execute("SELECT pg_notify(%s, %s)", (hub_a._link.channel, encode(Change(1, 3, "web:x"), "hand")))
        assert inbox_a.next() == Change(1, 3, "web:x")
        assert inbox_b.empty()
    finally:
        hub_a.close()
        hub_b.close()


@pytest.mark.postgres
def test_a_lost_listening_connection_reconnects_and_resynchronises(
    schema_conninfo: str, two_processes: tuple[LiveHub, Inbox, LiveHub, Inbox]
) -> None:
    hub_a, _inbox_a, hub_b, inbox_b = two_processes
    hub_b.watch("b1", 5)
    hub_b.watch("b2", 6)
    link = hub_b._link
    assert link is not None and link._listener is not None
    _terminate(schema_conninfo, link._listener.info.backend_pid)
    # Every watched match is reloaded once the link is back: what was sent
    # while it was down is not lost, it is read from the store.
    got = {inbox_b.next(), inbox_b.next()}
    assert got == {Change(5, None, None), Change(6, None, None)}
    assert link.reconnects == 1
    # And the link works again: A's next change arrives as one entry.
    hub_a.committed(5, 9, "web:a")
    assert inbox_b.next() == Change(5, 9, "web:a")


@pytest.mark.postgres
def test_a_lost_sending_connection_is_made_again_for_the_next_change(
    schema_conninfo: str, two_processes: tuple[LiveHub, Inbox, LiveHub, Inbox]
) -> None:
    hub_a, inbox_a, hub_b, inbox_b = two_processes
    hub_a.watch("a", 3)
    hub_b.watch("b", 3)
    hub_a.committed(3, 1, "web:a")
    assert inbox_b.next() == Change(3, 1, "web:a")
    link = hub_a._link
    assert link is not None and link._sender is not None
    _terminate(schema_conninfo, link._sender.info.backend_pid)
    hub_a.committed(3, 2, "web:a")
    assert inbox_b.next() == Change(3, 2, "web:a")
    assert inbox_a.next(0) == Change(3, 1, "web:a") and inbox_a.next(0) == Change(3, 2, "web:a")


@pytest.mark.postgres
def test_a_link_to_a_database_that_is_not_there_fails_at_once() -> None:
    hub = LiveHub(Inbox())
    with pytest.raises(psycopg.OperationalError):
        hub.link("postgresql://postgres@127.0.0.1:5432/scorepad_no_such_database", timeout=10)
    assert not hub.linked
