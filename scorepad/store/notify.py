"""Live updates: every screen on a match hears of each entry saved, in this process and in the others.

A ``LiveHub`` per server process knows which screen watches which match and
hands each change to a ``deliver`` callback (the app fans it out to the
screens on that match; in the web app that is Flet's pub-sub). The store
tells the hub of its own commits (``Store.add_commit_listener``).

On PostgreSQL several processes may write one database: the server's
workers, and the command line or an import beside them. Every store on
PostgreSQL, in whichever process, sends each change it commits or announces
with ``NOTIFY`` (its ``Notifier``), and a server process's ``PostgresLink``
listens on one dedicated autocommit connection (psycopg 3, a background
thread), so a change made by any process reaches the screens of every
process. A notification carries ids only (match, revision, device, and the
sending process, so a process does not hear its own changes twice); the screens
reload the match from the store, which stays the one truth. When the
listening connection is lost the link reconnects by itself and then
resynchronises: every watched match is delivered as a ``Change`` without a
revision, and its screens reload it (a change committed while the link was
down is then shown too). On SQLite one process serves the database, so the
hub alone is enough.

No Flet here; psycopg is imported only when a link is made.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import psycopg
from sqlalchemy.engine import make_url

log = logging.getLogger("scorepad.live")

CHANNEL_PREFIX = "scorepad_"
# A device name is cut to this length in a notification (PostgreSQL allows 8000 bytes).
DEVICE_CHARS = 100
# Seconds between checks that the listening connection is still alive.
PING_SECONDS = 5.0
# Longest wait for a notification before looking at the stop flag again.
WAIT_SECONDS = 0.5
# Seconds to wait before trying to reconnect, doubling up to the last.
RECONNECT_SECONDS = (0.1, 0.2, 0.5, 1.0, 2.0)


@dataclass(frozen=True)
class Change:
    """A match changed: its new ``revision`` and the ``device`` that wrote it.

    ``revision`` None means "read it again": something may have been missed
    (the link to the other processes was down, and ``device`` is None), or
    something shown with the match changed beside its entries (a tournament
    hand confirmed, by ``device``: ``Store.announce``); reload the match.
    """

    match_id: int
    revision: int | None
    device: str | None

    @property
    def resync(self) -> bool:
        """Whether this is a resynchronisation rather than one known entry."""
        return self.revision is None


class LiveHub:
    """One server process's live updates: who watches which match, and delivery of each change.

    ``deliver(change)`` is called once per change of a match that some screen
    of this process watches, from whichever thread committed it (or the
    link's thread); it must hand the change on without blocking. Thread-safe.
    """

    def __init__(self, deliver: Callable[[Change], None]) -> None:
        self._deliver = deliver
        self._watching: dict[str, int] = {}
        self._lock = threading.Lock()
        self._link: PostgresLink | None = None

    # -- who watches what ----------------------------------------------------------

    def watch(self, screen: str, match_id: int | None) -> None:
        """Screen ``screen`` now shows ``match_id`` (None: no match, it watches nothing)."""
        with self._lock:
            if match_id is None:
                self._watching.pop(screen, None)
            else:
                self._watching[screen] = match_id

    def unwatch(self, screen: str) -> None:
        """Screen ``screen`` has gone (closed or disconnected): it hears nothing more."""
        self.watch(screen, None)

    def watchers(self, match_id: int | None = None) -> int:
        """How many screens watch ``match_id`` (or any match, when None)."""
        with self._lock:
            if match_id is None:
                return len(self._watching)
            return sum(1 for watched in self._watching.values() if watched == match_id)

    def watched(self) -> set[int]:
        """The matches at least one screen of this process watches."""
        with self._lock:
            return set(self._watching.values())

    # -- changes -----------------------------------------------------------------

    def committed(self, match_id: int, revision: int | None, device: str | None) -> None:
        """The store of this process committed ``revision`` of ``match_id`` (None: announced): tell the screens here.

        The signature is the store's commit listener's. The store itself
        tells the other processes (``Notifier``).
        """
        self.arrived(Change(match_id, revision, device))

    def arrived(self, change: Change) -> None:
        """A change reached this process (its own store, or another process): deliver it if watched."""
        if change.match_id not in self.watched():
            return
        try:
            self._deliver(change)
        except Exception:
            log.exception("live update of match %s could not be delivered", change.match_id)

    def resync(self) -> None:
        """Tell every watched match's screens to reload it (called after the link reconnects)."""
        for match_id in sorted(self.watched()):
            self.arrived(Change(match_id, None, None))

    # -- across processes -----------------------------------------------------------

    def link(self, conninfo: str, *, timeout: float = 10.0, origin: str | None = None) -> PostgresLink:
        """Hear the other processes' changes on the PostgreSQL database at ``conninfo`` (a libpq URL).

        Returns once this process listens, so no change committed after this
        call is missed. ``origin``: the sender whose notifications are this
        process's own (``process_origin()``; tests name two in one process).
        Raises psycopg's ``OperationalError`` if the database cannot be
        reached within ``timeout`` seconds.
        """
        link = PostgresLink(conninfo, on_change=self.arrived, on_reconnect=self.resync, origin=origin)
        link.start(timeout=timeout)
        self._link = link
        return link

    @property
    def linked(self) -> bool:
        """Whether changes also travel to and from other processes (PostgreSQL)."""
        return self._link is not None

    def close(self) -> None:
        """Stop listening to other processes and forget every screen."""
        link, self._link = self._link, None
        if link is not None:
            link.stop()
        with self._lock:
            self._watching.clear()


def channel_for(database: str, schema: str) -> str:
    """The NOTIFY channel of one scorepad database: its database and schema, hashed.

    Channels are database-wide in PostgreSQL while matches live in a schema;
    two scorepads in two schemas of one database (tests do this) must not
    hear each other.
    """
    digest = hashlib.sha1(f"{database}\x00{schema}".encode()).hexdigest()[:16]
    return CHANNEL_PREFIX + digest


_origin: tuple[int, str] | None = None


def process_origin() -> str:
    """This process's name in notifications: its own are not heard back. A forked child gets its own."""
    global _origin
    pid = os.getpid()
    if _origin is None or _origin[0] != pid:
        _origin = (pid, uuid.uuid4().hex[:12])
    return _origin[1]


def encode(change: Change, origin: str) -> str:
    """A notification's payload: the ids of a change and of the process that sent it."""
    device = None if change.device is None else change.device[:DEVICE_CHARS]
    return json.dumps({"m": change.match_id, "r": change.revision, "d": device, "o": origin}, separators=(",", ":"))


def decode(payload: str) -> tuple[Change, str] | None:
    """The change and sending process a payload names, or None for a payload that is not ours."""
    try:
        data = json.loads(payload)
        match_id, revision, device, origin = data["m"], data["r"], data["d"], data["o"]
    except (ValueError, KeyError, TypeError):
        return None
    if not isinstance(match_id, int) or not (revision is None or isinstance(revision, int)):
        return None
    return Change(match_id, revision, device if isinstance(device, str) else None), str(origin)


class Notifier:
    """A store's changes told to the other processes on its PostgreSQL database (one ``NOTIFY`` each).

    Sends on its own autocommit connection, made at the first change, after
    the change's transaction has committed. Thread-safe.
    """

    def __init__(self, conninfo: str, *, origin: str | None = None) -> None:
        self.conninfo = conninfo
        # Who sends, in each notification (None: this process, ``process_origin()``).
        self.origin = origin
        self._lock = threading.Lock()
        self._conn: Any = None
        self._channel: str | None = None
        self._closed = False

    def send(self, change: Change) -> None:
        """Tell the other processes of ``change``; logs, never raises, when it cannot.

        The change is saved whatever happens here; a server whose link was
        down resynchronises when it comes back.
        """
        payload = encode(change, self.origin or process_origin())
        with self._lock:
            for attempt in (1, 2):
                if self._closed:
                    return
                try:
                    if self._conn is None or self._conn.closed:
                        self._conn = _connect(self.conninfo)
                        self._channel = channel_of(self._conn)
                    self._conn.execute("SELECT pg_notify(%s, %s)", (self._channel, payload))
                    return
                except Exception as err:
                    _quietly(getattr(self._conn, "close", lambda: None))
                    self._conn = None
                    if attempt == 2:
                        log.warning("live update of match %s not sent to other processes: %s", change.match_id, err)

    def close(self) -> None:
        """Close the connection; nothing is sent afterwards."""
        with self._lock:
            self._closed = True
            if self._conn is not None:
                _quietly(self._conn.close)
                self._conn = None


def channel_of(conn: Any) -> str:
    """The NOTIFY channel of the database and schema a psycopg connection is on."""
    database, schema = conn.execute("SELECT current_database(), current_schema()").fetchone()
    return channel_for(database, schema)


def _connect(conninfo: str) -> Any:
    return psycopg.connect(conninfo, autocommit=True, connect_timeout=5)


class PostgresLink:
    """The other processes' changes on one PostgreSQL database, heard by LISTEN.

    One thread owns one autocommit connection that listens. ``on_change``
    gets each change another process sent; ``on_reconnect`` is called after
    the listening connection was lost and made again, from the link's thread.
    """

    def __init__(
        self,
        conninfo: str,
        *,
        on_change: Callable[[Change], None],
        on_reconnect: Callable[[], None],
        origin: str | None = None,
    ) -> None:
        self.conninfo = conninfo
        # The sender whose notifications are this process's own (None: ``process_origin()``).
        self.origin = origin
        self.channel: str | None = None
        self.reconnects = 0
        self._on_change = on_change
        self._on_reconnect = on_reconnect
        self._stop = threading.Event()
        self._listening = threading.Event()
        # Set once the first attempt to listen has succeeded or failed.
        self._ready = threading.Event()
        self._thread: threading.Thread | None = None
        self._listener: Any = None
        self._first_error: BaseException | None = None

    def start(self, *, timeout: float = 10.0) -> None:
        """Start listening; returns once LISTEN is in force. Raises ``OperationalError`` if it is not."""
        self._thread = threading.Thread(target=self._run, name="scorepad-live-listen", daemon=True)
        self._thread.start()
        self._ready.wait(timeout)
        if not self._listening.is_set():
            self.stop()
            error = self._first_error
            if error is not None:
                raise error
            raise psycopg.OperationalError(f"could not listen for live updates within {timeout} s")

    def stop(self) -> None:
        """Stop listening and close the connection (waits at most a few seconds for the thread)."""
        self._stop.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=5)

    # -- the listening thread -------------------------------------------------------

    def _run(self) -> None:
        delays = iter(RECONNECT_SECONDS)
        delay = RECONNECT_SECONDS[0]
        first = True
        while not self._stop.is_set():
            try:
                self._listener = conn = _connect(self.conninfo)
                self.channel = channel_of(conn)
                conn.execute(f'LISTEN "{self.channel}"')
                if not first:
                    self.reconnects += 1
                    log.info("live updates: link to the other processes back (reconnect %d)", self.reconnects)
                    self._on_reconnect()
                first = False
                self._listening.set()
                self._ready.set()
                delays = iter(RECONNECT_SECONDS)
                self._listen(conn)
            except Exception as err:
                if self._stop.is_set():
                    break
                if first:
                    # Not even one connection: the caller hears of it and decides.
                    self._first_error = err
                    self._ready.set()
                    return
                log.warning("live updates: link to the other processes lost (%s); reconnecting", err)
                delay = next(delays, RECONNECT_SECONDS[-1])
            finally:
                if self._listener is not None:
                    _quietly(self._listener.close)
                    self._listener = None
            self._stop.wait(delay)

    def _listen(self, conn: Any) -> None:
        """Hand on every notification until the connection fails or the link stops."""
        quiet_since = time.monotonic()
        while not self._stop.is_set():
            for notify in conn.notifies(timeout=WAIT_SECONDS):
                quiet_since = time.monotonic()
                decoded = decode(notify.payload)
                if decoded is None:
                    continue
                change, origin = decoded
                if origin != (self.origin or process_origin()):
                    self._on_change(change)
            if time.monotonic() - quiet_since > PING_SECONDS:
                # A quiet spell: a connection dropped without a word (a cable, a
                # NAT timeout) only shows itself when it is used.
                conn.execute("SELECT 1")
                quiet_since = time.monotonic()


def _quietly(fn: Callable[[], Any]) -> None:
    try:
        fn()
    except Exception:
        log.debug("closing a live-update connection failed", exc_info=True)


def libpq_url(sqlalchemy_url: Any) -> str | None:
    """The libpq URL (for psycopg) of an SQLAlchemy URL on PostgreSQL, or None for another database."""
    url = make_url(sqlalchemy_url) if isinstance(sqlalchemy_url, str) else sqlalchemy_url
    if url.get_backend_name() != "postgresql":
        return None
    return url.set(drivername="postgresql").render_as_string(hide_password=False)
