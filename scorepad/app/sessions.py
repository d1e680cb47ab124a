"""Pages that come and go: live updates per page, and the cap on pages per address.

Each page (a Flet session) gets one ``LiveScreen``: it subscribes, on Flet's
pub-sub, to the one match the page shows, reloads that match from the store
when another screen (here or in another server process) saves an entry, and
unsubscribes as soon as the page disconnects or closes, so a page that has
gone is never called again. The process's ``LiveHub``
(``scorepad.store.notify``) carries the store's commits to Flet's pub-sub,
and on PostgreSQL to and from the other server processes.

``PageCounter`` refuses a page when one client address already has too many
connected: a plain sentence, no session work.
"""

from __future__ import annotations

import asyncio
import contextvars
import ctypes
import ctypes.util
import gc
import inspect
import logging
import os
import sys
import threading
import weakref
from collections.abc import Callable
from typing import Any

import flet as ft
import msgpack  # type: ignore[import-untyped]  # flet's own wire format, installed with flet
from flet.pubsub.pubsub_hub import PubSubHub

from scorepad.app import timing
from scorepad.app.live import notice_from_elsewhere, refused_as_stale, revision_of
from scorepad.app.state import SHEET, TABLE, ScorePad
from scorepad.store import StoreConflict, StoreError
from scorepad.store.notify import Change, LiveHub, libpq_url

log = logging.getLogger("scorepad.live")

# Seconds a page that lost its connection is kept for it to come back
# (Flet's default is 3,600). Flet evicts every 10 s, so it is gone within 40 s.
SESSION_TIMEOUT_SECONDS = 30
# Pages one client address may have connected at once (SCOREPAD_PAGES_PER_ADDRESS).
PAGES_PER_ADDRESS = 20
# Seconds to wait for the page to confirm it has drawn a state another screen made.
CONFIRM_SECONDS = 3.0


def log_from_env() -> None:
    """With ``SCOREPAD_LIVE_LOG=1``, every page's subscriptions are logged to stderr (tests read them)."""
    if os.environ.get("SCOREPAD_LIVE_LOG") != "1" or log.handlers:
        return
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(name)s %(levelname)s pid=%(process)d %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.DEBUG)


def topic_of(match_id: int) -> str:
    """The pub-sub topic of one match."""
    return f"scorepad.match.{match_id}"


class Relay:
    """A store's live updates in this process: its ``LiveHub`` and the Flet pub-sub hubs it feeds."""

    def __init__(self, store: Any) -> None:
        self.flet_hubs: weakref.WeakSet[PubSubHub] = weakref.WeakSet()
        self.hub = LiveHub(self.deliver)
        # Every commit of the store, whichever page (or import) made it.
        store.add_commit_listener(self.hub.committed)
        conninfo = libpq_url(store.engine.url)
        if conninfo is not None:
            try:
                self.hub.link(conninfo)
            except Exception as err:
                # The store itself works: pages on this process still follow each other.
                log.warning("live updates from other server processes are off: %s", err)

    def deliver(self, change: Change) -> None:
        """Hand a change to every page subscribed to its match (Flet calls them on the page's loop)."""
        for flet_hub in list(self.flet_hubs):
            flet_hub.send_all_on_topic(topic_of(change.match_id), change)


_relays: dict[int, Relay] = {}
_relays_lock = threading.Lock()


def relay_for(store: Any) -> Relay:
    """The one relay of ``store`` in this process (made on first use)."""
    with _relays_lock:
        relay = _relays.get(id(store))
        if relay is None:
            relay = _relays[id(store)] = Relay(store)
        return relay


_screens: weakref.WeakValueDictionary[str, LiveScreen] = weakref.WeakValueDictionary()


def screen_of(session_id: str) -> LiveScreen | None:
    """The live dispatcher of the page with this Flet session id, while the page exists (for tests)."""
    return _screens.get(session_id)


def subscriptions() -> int:
    """How many pages of this process follow a match now (for tests and the debug log)."""
    with _relays_lock:
        relays = list(_relays.values())
    return sum(relay.hub.watchers() for relay in relays)


class LiveScreen:
    """One page's dispatcher of live updates: follows the match the page shows, while the page is there.

    It also knows what the page shows (``shown``): the state last drawn and,
    for a state another screen made, confirmed by the page. Every write the
    page makes carries that state's revision (``PageStore``), so a tap made
    on a state another screen has moved past is refused, never applied to
    the next turn.
    """

    def __init__(self, page: ft.Page, pad: ScorePad, relay: Relay) -> None:
        self.page = page
        self.pad = pad
        self.relay = relay
        self.screen = page.session.id
        self.topic: str | None = None
        self.gone = False
        self.redraw: Callable[[], None] = lambda: None
        # Called before the redraw of a change without a revision (``Change.resync``: a hand confirmed
        # elsewhere, or missed changes): what the page keeps beside the match is read again.
        self.resynced: Callable[[], None] = lambda: None
        self.table: Any = None
        self.shown: Any = None
        self.stale: Any = None
        self.ended = False
        # What an unexpected failure of a live update does (main: the page dies, ``PageGuard``).
        self.failed: Callable[[BaseException], None] = lambda err: log.error("a live update failed", exc_info=err)
        relay.flet_hubs.add(page.session.connection.pubsubhub)
        _screens[self.screen] = self
        log.debug("page %s opened", self.screen[:8])

    def follow(self) -> None:
        """Subscribe to the match shown now (and only to it); called at every draw."""
        table = self.pad.table
        if table is not self.table:
            # A match opened (or left): the page shows it as loaded.
            self.table, self.shown = table, (table.state if table is not None else None)
        if self.gone:
            return
        match_id = table.match_id if table is not None and self.pad.screen in (TABLE, SHEET) else None
        topic = None if match_id is None else topic_of(match_id)
        if topic == self.topic:
            return
        if self.topic is not None:
            self.page.pubsub.unsubscribe_topic(self.topic)
        if topic is not None:
            self.page.pubsub.subscribe_topic(topic, self.on_change)
        self.topic = topic
        self.relay.hub.watch(self.screen, match_id)
        log.debug("page %s follows %s; %d page(s) follow a match", self.screen[:8], topic, subscriptions())

    def stop(self) -> None:
        """The page disconnected or closed: it hears nothing more until it comes back."""
        self.gone = True
        self.page.pubsub.unsubscribe_all()
        self.topic = None
        self.relay.hub.unwatch(self.screen)
        log.debug("page %s left; %d page(s) follow a match", self.screen[:8], subscriptions())

    def end(self) -> None:
        """The page died (``PageGuard``): it hears nothing more, even if it reconnects."""
        self.ended = True
        if not self.gone:
            self.stop()

    def back(self) -> None:
        """The page reconnected: follow its match again, reloaded (entries may have come meanwhile)."""
        if self.ended:
            return
        self.gone = False
        table = self.pad.table
        if table is not None and self._reload(table):
            self.shown = table.state
        self.follow()
        self.redraw()

    def _reload(self, table: Any) -> bool:
        """Reload the table from the store; a database fault is said in one sentence, not raised."""
        try:
            table.refresh()
        except StoreError as err:
            log.warning("page %s could not reload match %s: %s", self.screen[:8], table.match_id, err)
            table.message = f"The table could not be brought up to date: {err}"
            return False
        return True

    # -- what the page shows ---------------------------------------------------------

    def expected_revision(self, match_id: Any) -> int | None:
        """The revision a write to ``match_id`` from this page is made on (None: the page shows no state of it)."""
        table = self.pad.table
        if table is None or table.match_id != match_id or table is not self.table:
            return None
        return revision_of(self.shown)

    def wrote(self, match_id: Any, state: Any) -> None:
        """This page's own write to ``match_id`` was saved: the page goes on from the state it made."""
        if state is not None and self.table is not None and self.table.match_id == match_id:
            self.shown = state

    def refused(self) -> None:
        """This page's write was refused as made on a stale state (another screen was first)."""
        self.stale = self.shown

    def after_tap(self) -> None:
        """After a tap: a refusal as stale names what the other screen did, and the page shows the match now."""
        before, self.stale = self.stale, None
        table = self.pad.table
        if before is None or table is None:
            return
        table.message = refused_as_stale(before, table.state)
        self.shown = table.state

    async def on_change(self, _topic: str, change: Change) -> None:
        """Another screen saved an entry in the match shown: reload it, say so, redraw (on the page's own task)."""
        if self.gone or self.page.session.connection is None:
            return
        # Flet's pub-sub runs this outside the page's context; run_task draws on the right page.
        self.page.run_task(self._show, change)

    async def _show(self, change: Change) -> None:
        # Flet reports no failure of a task it runs to the page: this is the guard around the redraw.
        try:
            self._shown(change)
        except Exception as err:
            self.failed(err)

    def _shown(self, change: Change) -> None:
        table = self.pad.table
        if self.gone or table is None or table.match_id != change.match_id:
            return
        if change.device is not None and change.device == self.pad.device:
            return  # this page's own entry, drawn already
        if change.resync:
            self.resynced()
        else:
            now = revision_of(table.state)
            if now is not None and change.revision is not None and now >= change.revision:
                return  # already showing it (or later)
        before = table.state
        if not self._reload(table):
            self.redraw()
            return
        if revision_of(table.state) != revision_of(before) or revision_of(before) is None:
            table.message = notice_from_elsewhere(before, table.state)
        self.redraw()

    async def confirm_shown(self, table: Any, state: Any) -> None:
        """Mark ``state`` as shown once the page has answered a round trip sent after drawing it.

        Messages on one connection arrive in order: a tap that reaches the
        server after the page's answer was made on a page already showing
        ``state``; a tap that arrives before it was made on what the page
        showed until then, and is checked against that.
        """
        if self.shown is state or table is not self.table:
            return
        try:
            await asyncio.wait_for(self.page.get_device_info(), CONFIRM_SECONDS)
        except Exception as err:
            # No answer: the page is slow or gone; do not hold every tap back for it.
            log.debug("page %s did not confirm revision %s: %s", self.screen[:8], revision_of(state), err)
        if self.table is table and table.state is state:
            self.shown = state


# The store's writes that a page makes; each carries the revision the page shows.
WRITES = frozenset({"append", "settle", "undo", "redo", "start_hand", "amend", "finish"})


class PageRevoked(Exception):
    """A dead page used its store: the access was revoked when the page failed (``PageGuard``)."""


class PageStore:
    """The store as one page uses it: every write carries the revision of the state the page shows.

    Everything else passes straight to the shared store. A write the store
    refuses as stale (``StoreConflict``) is noted on the page's ``LiveScreen``
    so the page can say which entry was first. Once ``revoke`` is called
    (the page died) every use raises ``PageRevoked``, the writes already
    handed out included.
    """

    def __init__(self, store: Any, live: LiveScreen) -> None:
        self._store = store
        self._live = live
        self._revoked = False

    def revoke(self) -> None:
        """Refuse every use of the store from now on (the page failed)."""
        self._revoked = True

    def _check(self, name: str) -> None:
        if self._revoked:
            raise PageRevoked(f"{name}: this page's access to the store was revoked when it failed")

    def __getattr__(self, name: str) -> Any:
        self._check(name)
        value = getattr(self._store, name)
        if name not in WRITES or not _takes_expected_revision(value):
            return value

        def write(match_id: Any, *args: Any, **kwargs: Any) -> Any:
            self._check(name)
            kwargs.setdefault("expected_revision", self._live.expected_revision(match_id))
            try:
                state = value(match_id, *args, **kwargs)
            except StoreConflict:
                self._live.refused()
                raise
            self._live.wrote(match_id, state)
            if timing.ENABLED:
                timing.committed(match_id, revision_of(state))
            return state

        return write


def _takes_expected_revision(method: Any) -> bool:
    try:
        return "expected_revision" in inspect.signature(method).parameters
    except (TypeError, ValueError):
        return False


class PageCounter:
    """Connected pages per client address, and the cap on them."""

    def __init__(self, cap: int | None = None) -> None:
        self.cap = cap if cap is not None else _cap_from_env()
        self._count: dict[str, int] = {}
        self._lock = threading.Lock()

    def admit(self, address: str | None) -> bool:
        """Count one more page from ``address``; False (nothing counted) when it already has the most allowed."""
        key = address or ""
        with self._lock:
            if self._count.get(key, 0) >= self.cap:
                return False
            self._count[key] = self._count.get(key, 0) + 1
            return True

    def leave(self, address: str | None) -> None:
        """One page from ``address`` disconnected or closed."""
        key = address or ""
        with self._lock:
            left = self._count.get(key, 0) - 1
            if left > 0:
                self._count[key] = left
            else:
                self._count.pop(key, None)

    def connected(self, address: str | None = None) -> int:
        """Pages connected now from ``address`` (or from everywhere)."""
        with self._lock:
            return sum(self._count.values()) if address is None else self._count.get(address or "", 0)


# Seconds after a page is dropped before the memory of the dropped pages is collected (Flet
# drops them in batches, every 10 s: one collection a batch).
SWEEP_DELAY_SECONDS = 1.0


class Sweeper:
    """Frees the memory of dropped pages soon after they go.

    A page's controls, view-model and Flet session are a web of reference
    cycles, which only a full garbage collection frees; ``serve`` makes
    those rare so that no tap waits for one, and 200 dropped pages would
    then stay in memory (about 75 MB) until one came. So a moment after
    pages are dropped, one full collection runs, and the C allocator is
    asked to give back to the system what it no longer uses (glibc's
    ``malloc_trim``; elsewhere nothing). The log (``SCOREPAD_LIVE_LOG``)
    says how many objects were freed, how many pages are still in memory
    and how many memory blocks Python's objects hold.
    """

    def __init__(self) -> None:
        self._pending: asyncio.TimerHandle | None = None
        self._dropped = 0
        self._trim = _malloc_trim()

    def dropped(self) -> None:
        """A page was dropped (its session closed): sweep shortly, once for the whole batch."""
        self._dropped += 1
        if self._pending is None:
            # In a context of its own: the dropped page's (Flet's current page) would keep that page alive.
            self._pending = asyncio.get_running_loop().call_later(
                SWEEP_DELAY_SECONDS, self.sweep, context=contextvars.Context()
            )

    def sweep(self) -> None:
        """Collect the dropped pages' cycles now and hand the freed memory back."""
        self._pending = None
        dropped, self._dropped = self._dropped, 0
        freed = gc.collect()
        if self._trim is not None:
            self._trim(0)
        log.debug(
            "swept %d dropped page(s): %d objects freed; %d page(s) in memory; %d blocks allocated",
            dropped,
            freed,
            len(_screens),
            sys.getallocatedblocks(),
        )


def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim`` (hands free heap memory back to the system), or None where there is none."""
    name = ctypes.util.find_library("c")
    try:
        return getattr(ctypes.CDLL(name), "malloc_trim", None) if name else None
    except OSError:
        return None


# Seconds a page's handler may go on after its WebSocket closed before it is ended.
LINGER_SECONDS = 2.0


class PageEnds:
    """ASGI wrapper: a page's WebSocket that closes ends its handler, quietly.

    Flet's handler waits for good on a WebSocket that connected but never
    registered (so the server could not shut down), and when a page goes
    away while the server is writing to it, it ends with a traceback and
    leaves the page's session connected (subscribed, never dropped). Here a
    closed socket is a disconnect: a write to it is dropped, so Flet reads
    the disconnect and ends the session; a handler still running
    ``LINGER_SECONDS`` after the close is cancelled; neither is logged as an
    error. A dead page's client that registers again (a reload keeps the
    session id in the browser tab) is given a new page instead of its dead
    session (``fresh_after_death``). Other requests pass straight through.
    """

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope.get("type") != "websocket":
            await self.app(scope, receive, send)
            return
        closed = asyncio.Event()
        reaped = False
        registered = False

        async def watched() -> Any:
            nonlocal registered
            message = await receive()
            if timing.ENABLED:
                timing.arrived()  # the tap's handler, a task made next, inherits the stamp
            if message.get("type") == "websocket.disconnect":
                closed.set()
            elif not registered and message.get("bytes"):
                registered = True  # the client's first message is its registration
                message = fresh_after_death(message)
            return message

        async def sending(message: Any) -> None:
            try:
                await send(message)
            except OSError:
                # The page has gone while the server wrote to it. Flet would end its
                # handler on the error without ever disconnecting the page's session
                # (still subscribed, never dropped); the closed socket's disconnect,
                # which the handler reads next, ends the session as it should.
                log.debug("a page went away while the server was writing to it")

        handler = asyncio.ensure_future(self.app(scope, watched, sending))

        async def reap() -> None:
            nonlocal reaped
            await closed.wait()
            done, _ = await asyncio.wait({handler}, timeout=LINGER_SECONDS)
            if not done:
                reaped = True
                handler.cancel()

        reaper = asyncio.ensure_future(reap())
        try:
            await handler
        except asyncio.CancelledError:
            if not reaped:
                raise
            log.debug("a page's handler outlived its closed WebSocket and was ended")
        except Exception as err:
            if not _is_disconnect(err):
                raise
            log.debug("a page went away while the server was writing to it")
        finally:
            reaper.cancel()


# Flet's WebSocket frames: a 0 byte, then msgpack [action, body]; action 1 registers the page.
MESSAGE_FRAME, REGISTER_CLIENT = 0, 1


def fresh_after_death(message: dict[str, Any]) -> dict[str, Any]:
    """A client's registration, asking for a new session if the one it names belongs to a dead page.

    The browser tab keeps its session id, and Flet would attach a reloaded
    page to that session again, dead page and all; without the id Flet
    starts a new page on the address (with the match as stored).
    """
    from scorepad.app.guard import is_dead_session

    data = message["bytes"]
    if data[0] != MESSAGE_FRAME:
        return message
    try:
        action, body = msgpack.unpackb(data[1:], strict_map_key=False)
    except (ValueError, TypeError, msgpack.UnpackException):
        return message  # not a registration Flet could read either: Flet answers it
    session_id = body.get("session_id") if action == REGISTER_CLIENT and isinstance(body, dict) else None
    if not isinstance(session_id, str) or not is_dead_session(session_id):
        return message
    log.info("page %s was dead; its reload gets a new page", session_id[:8])
    body["session_id"] = ""
    return {**message, "bytes": bytes([MESSAGE_FRAME]) + msgpack.packb([action, body])}


def _is_disconnect(err: BaseException) -> bool:
    from starlette.websockets import WebSocketDisconnect

    return isinstance(err, WebSocketDisconnect)


def _cap_from_env() -> int:
    text = os.environ.get("SCOREPAD_PAGES_PER_ADDRESS", "").strip()
    if text.isascii() and text.isdigit() and 0 < int(text) <= 10_000:
        return int(text)
    return PAGES_PER_ADDRESS


def refusal_words(cap: int) -> str:
    """What a refused page says."""
    return (
        f"This device already has {cap} score-pad pages open, the most allowed at once: "
        "close one of them, then reload this page."
    )
