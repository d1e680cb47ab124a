"""The shell shared by the boards that follow a round (the director's desk, the hall): tap guard, live follower.

``BoardPage`` reads its board (a view-model of ``scorepad.app.models``),
follows the round's matches live through ``Follower`` (on the pages' one
live path, ``live.Subscriptions``: the store's commit listeners through
``LiveHub``, across server processes on PostgreSQL) and redraws.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

import flet as ft

from scorepad.app.models.tournament import Board, BoardData, words_of
from scorepad.app.shell.guard import PageGuard
from scorepad.app.shell.live import Subscriptions, relay_for
from scorepad.app.shell.pages import PageTasks
from scorepad.store import Store, StoreError
from scorepad.store.notify import Change
from scorepad.tournament.errors import TournamentError

log = logging.getLogger("scorepad.live")
# Seconds to gather a burst of changes (a whole hand entered quickly) into one redraw of a board.
SETTLE_SECONDS = 0.2
# The least seconds between the starts of two reloads of a board (the hall, the director's), which read
# the whole round: with 100 tables entering, a change comes every few milliseconds.
BOARD_GAP_SECONDS = 1.0
# The least seconds between the starts of two reloads when an announcement came (a hand confirmed, a
# correction, a forfeit: what the standings are made of, about one a hand): it is read without waiting
# out the gap, so a confirmed hand is on the hall within a reading of the round or two.
ANNOUNCED_GAP_SECONDS = 0.25


class Follower:
    """A page that follows several matches live (the round's tables) and reloads on any change of them.

    A burst of changes (100 tables entering at once) makes bounded work: at
    most one reload of the page runs at a time, the next begins ``gap``
    seconds after the last began at the soonest (``ANNOUNCED_GAP_SECONDS``
    when an announcement came: a change without a revision, such as a
    confirmed hand), and every change heard while one is waiting or running
    is covered by the next, which begins its reads after that change (the
    newest wins; none is lost).
    """

    def __init__(
        self,
        page: ft.Page,
        store: Store,
        on_change: Callable[[], Awaitable[None]],
        tasks: PageTasks,
        *,
        gap: float = 0.0,
    ) -> None:
        self.page = page
        self.tasks = tasks
        self.guard = PageGuard.of(page)
        self.subscriptions = Subscriptions(page, relay_for(store), self._heard)
        self.on_change = on_change
        # The least seconds between the starts of two reloads.
        self.gap = gap
        # A change is waiting for a reload (an announcement among them); a reload is waiting or
        # running; when the last one began; set when an announcement cuts a reload's wait short.
        self.dirty = False
        self.announced = False
        self.running = False
        self.began = float("-inf")
        self.woken = asyncio.Event()
        self.key = page.session.id
        self.guard.stops(self.stop)

    def follow(self, match_ids: list[int]) -> None:
        """Follow exactly these matches."""
        self.subscriptions.follow(match_ids)

    def stop(self) -> None:
        """The page has gone: follow nothing."""
        self.subscriptions.stop()

    async def _heard(self, _topic: str, change: Change) -> None:
        self.changed(announced=change.revision is None)

    def changed(self, *, announced: bool = False) -> None:
        """Something the page shows changed: reload it soon (once for a whole burst of changes).

        ``announced``: a change beside the entries (a confirmed hand), read without waiting out the gap.
        """
        self.dirty = True
        if announced:
            self.announced = True
            self.woken.set()
        if not self.running:
            # While the page is away no reload starts; the change stays dirty for its return.
            self.running = self.tasks.run(self._reload)

    async def _reload(self) -> None:
        try:
            while self.dirty and not self.tasks.closed:
                await self._turn()
                self.dirty = self.announced = False
                self.began = time.monotonic()
                await self.on_change()
        except Exception as err:  # Flet reports no failure of a task it runs: the page dies here
            self.guard.fail(err, "a live update")
        finally:
            self.running = False

    async def _turn(self) -> None:
        """Wait for the next reload's turn: the burst settled, and the gap since the last began over."""
        settled = time.monotonic() + SETTLE_SECONDS
        while True:
            gap = ANNOUNCED_GAP_SECONDS if self.announced else self.gap
            left = max(settled, self.began + gap) - time.monotonic()
            if left <= 0:
                return
            self.woken.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.woken.wait(), left)


def close_page(page: ft.Page, tasks: PageTasks, follower: Follower) -> None:
    """A tournament page has closed: end its background tasks and its live updates; nothing of it runs again."""
    ended = tasks.close()
    follower.stop()
    log.debug("event page %s closed: %d background task(s) ended", follower.key[:8], ended)


class BoardPage:
    """Shared by the director's and the hall's pages: load the board, follow its round, redraw."""

    board: Board

    def __init__(self, page: ft.Page, store: Store) -> None:
        self.page = page
        self.store = store
        self.tasks = PageTasks(page)
        self.follower = Follower(page, store, self.refresh, self.tasks, gap=BOARD_GAP_SECONDS)
        page.on_disconnect = lambda _e: self.follower.stop()
        page.on_close = lambda _e: close_page(page, self.tasks, self.follower)

    def reload(self) -> None:
        """Read the event again and redraw (after the page's own action)."""
        try:
            data = self.board.read()
        except (TournamentError, StoreError) as err:
            data = None
            self._unreadable(err)
        self._show(data)

    async def refresh(self) -> None:
        """Read the event again in a worker thread, then redraw (after a change of a followed match).

        The round's reads take a while with many tables; the server's event
        loop goes on serving the other pages meanwhile.
        """
        try:
            data = await asyncio.to_thread(self.board.read)
        except (TournamentError, StoreError) as err:
            data = None
            self._unreadable(err)
        self._show(data)

    def _unreadable(self, err: Exception) -> None:
        # The page stays up and says why.
        log.warning("the tournament board could not be read: %s", err)
        self.board.message = words_of(err)

    def _show(self, data: BoardData | None) -> None:
        if data is not None:
            self.board.show(data)
        self.follower.follow(self.board.match_ids())
        self.draw()

    def draw(self) -> None:  # pragma: no cover - each page draws itself
        raise NotImplementedError
