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
import contextlib
import logging
import os
import threading
import weakref
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

import flet as ft
from flet.pubsub.pubsub_hub import PubSubHub

from scorepad.app.models.notices import notice_from_elsewhere, refused_as_stale, revision_of
from scorepad.app.models.state import SHEET, TABLE, ScorePad
from scorepad.store import Store, StoreError
from scorepad.store.notify import Change, LiveHub, libpq_url

log = logging.getLogger("scorepad.live")

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

    def __init__(self, store: Store) -> None:
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


# Keyed by the store itself (weakly): a store closed and another opened never share a relay.
_relays: weakref.WeakKeyDictionary[Store, Relay] = weakref.WeakKeyDictionary()
_relays_lock = threading.Lock()


def relay_for(store: Store) -> Relay:
    """The one relay of ``store`` in this process (made on first use)."""
    with _relays_lock:
        relay = _relays.get(store)
        if relay is None:
            relay = _relays[store] = Relay(store)
        return relay


_screens: weakref.WeakValueDictionary[str, LiveScreen] = weakref.WeakValueDictionary()


def screen_of(session_id: str) -> LiveScreen | None:
    """The live dispatcher of the page with this Flet session id, while the page exists (for tests)."""
    return _screens.get(session_id)


def live_pages() -> int:
    """How many pages of this process are still in memory (for the sweeper's log)."""
    return len(_screens)


def subscriptions(store: Store | None = None) -> int:
    """How many pages of this process follow a match now, of ``store`` or of every store (tests, the debug log)."""
    with _relays_lock:
        relays = list(_relays.values()) if store is None else [r for s, r in _relays.items() if s is store]
    return sum(relay.hub.watchers() for relay in relays)


class Subscriptions:
    """The one live path of a page: the matches it follows, and the changes of them delivered to it.

    Every page that follows matches (the score-pad's and the table phone's
    one match, the director's and the hall's round, a spectator's table)
    subscribes here: on Flet's pub-sub, whose handlers run on the page's own
    loop, and in the store's ``LiveHub``, which counts what this process
    follows and, on PostgreSQL, hears the other processes' entries to it.
    """

    def __init__(self, page: ft.Page, relay: Relay, heard: Callable[[str, Change], Awaitable[None]]) -> None:
        self.page = page
        self.relay = relay
        self.heard = heard
        self.key = page.session.id
        self.matches: frozenset[int] = frozenset()
        relay.flet_hubs.add(page.session.connection.pubsubhub)

    def follow(self, match_ids: Iterable[int]) -> None:
        """Follow exactly these matches (none: the page hears nothing)."""
        wanted = frozenset(match_ids)
        for match_id in self.matches - wanted:
            self.page.pubsub.unsubscribe_topic(topic_of(match_id))
            self.relay.hub.unwatch(f"{self.key}:{match_id}")
        for match_id in wanted - self.matches:
            self.page.pubsub.subscribe_topic(topic_of(match_id), self.heard)
            self.relay.hub.watch(f"{self.key}:{match_id}", match_id)
        self.matches = wanted

    def stop(self) -> None:
        """The page has gone: follow nothing (its session may be destroyed already, with its subscriptions)."""
        for match_id in self.matches:
            self.relay.hub.unwatch(f"{self.key}:{match_id}")
        self.matches = frozenset()
        # A destroyed session raises here: Flet unsubscribed it when it closed.
        with contextlib.suppress(RuntimeError):
            self.page.pubsub.unsubscribe_all()


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
        self.screen = page.session.id
        self.following = Subscriptions(page, relay, self.on_change)
        self.gone = False
        self.redraw: Callable[[], None] = lambda: None
        # Called before the redraw of a change without a revision (``Change.resync``: a hand confirmed
        # elsewhere, or missed changes): what the page keeps beside the match is read again.
        self.resynced: Callable[[], None] = lambda: None
        # What the page says of a change another screen made, in place of "Entered on another screen"
        # (a tournament table's phone: the director's act and its reason), or None for the usual notice.
        self.explain: Callable[[Change], str | None] = lambda _change: None
        self.table: Any = None
        self.shown: Any = None
        self.stale: Any = None
        self.ended = False
        # What an unexpected failure of a live update does (main: the page dies, ``PageGuard``).
        self.failed: Callable[[BaseException], None] = lambda err: log.error("a live update failed", exc_info=err)
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
        wanted = frozenset() if match_id is None else frozenset([match_id])
        if wanted != self.following.matches:
            self.following.follow(wanted)
            log.debug("page %s follows %s; %d page(s) follow a match", self.screen[:8], match_id, subscriptions())

    @property
    def topic(self) -> str | None:
        """The pub-sub topic of the match the page follows now (None: it follows none)."""
        return next((topic_of(match_id) for match_id in self.following.matches), None)

    def stop(self) -> None:
        """The page disconnected or closed: it hears nothing more until it comes back."""
        self.gone = True
        self.following.stop()
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
        said = self.explain(change)
        if said is not None:
            table.message = None
            table.notice = said
        elif revision_of(table.state) != revision_of(before) or revision_of(before) is None:
            # News, not a refusal: drawn in plain colours and gone with this screen's next tap.
            table.message = None
            table.notice = notice_from_elsewhere(before, table.state)
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
