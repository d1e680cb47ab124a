"""Pages that come and go: the cap on pages per client address, freeing the memory of dropped pages, and ending
the background tasks of closed ones."""

from __future__ import annotations

import asyncio
import contextvars
import ctypes
import ctypes.util
import gc
import os
import sys
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import Future
from typing import Any

import flet as ft

from scorepad.app.shell.live import live_pages, log

# Seconds a page that lost its connection is kept for it to come back
# (Flet's default is 3,600). Flet evicts every 10 s, so it is gone within 40 s.
SESSION_TIMEOUT_SECONDS = 30


# Pages one client address may have connected at once (SCOREPAD_PAGES_PER_ADDRESS), and the most it may say.
PAGES_PER_ADDRESS = 20
PAGES_ENV = "SCOREPAD_PAGES_PER_ADDRESS"
MAX_PAGES_PER_ADDRESS = 10_000


class PageCounter:
    """Connected pages per client address, and the cap on them (the server counts its connections with one too)."""

    def __init__(self, cap: int | None = None) -> None:
        self.cap = cap if cap is not None else pages_per_address()
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
            live_pages(),
            sys.getallocatedblocks(),
        )


def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim`` (hands free heap memory back to the system), or None where there is none."""
    name = ctypes.util.find_library("c")
    try:
        return getattr(ctypes.CDLL(name), "malloc_trim", None) if name else None
    except OSError:
        return None


def pages_per_address() -> int:
    """The cap on pages per client address: ``SCOREPAD_PAGES_PER_ADDRESS``, else 20.

    Raises ``ValueError`` with a sentence naming the setting when it is set to
    anything but a whole number from 1 to 10,000 (``serve_web`` asks before serving).
    """
    text = os.environ.get(PAGES_ENV, "").strip()
    if not text:
        return PAGES_PER_ADDRESS
    if text.isascii() and text.isdigit() and len(text) <= 6 and 0 < int(text) <= MAX_PAGES_PER_ADDRESS:
        return int(text)
    shown = text if len(text) <= 20 else f"{text[:20]}..."
    raise ValueError(f"{PAGES_ENV} takes a whole number of pages from 1 to {MAX_PAGES_PER_ADDRESS:,}, not {shown!r}")


def refusal_words(cap: int) -> str:
    """What a refused page says."""
    return (
        f"This device already has {cap} score-pad pages open, the most allowed at once: "
        "close one of them, then reload this page."
    )


class PageTasks:
    """The background tasks of one page (timers, live reloads), ended when the page closes.

    A task Flet runs for a page outlives it unless it is cancelled: a hall's
    rotation or a spectator's delayed drawing would wake on a page whose
    session is gone and fail there. ``run`` starts one, unless the page has
    closed; ``close`` cancels every one still running and refuses new ones.
    """

    def __init__(self, page: ft.Page) -> None:
        self.page = page
        self.closed = False
        self._running: set[Future[Any]] = set()

    def run(self, fn: Callable[..., Awaitable[Any]], *args: Any) -> bool:
        """Run ``fn(*args)`` on the page's event loop; returns whether it was started.

        Nothing is started while the page has no connection (a phone or a hall screen whose
        Wi-Fi dropped: its session waits for it to come back, and the page's ``on_connect``
        asks again), nor once the page has closed.
        """
        if self.closed:
            return False
        try:
            if self.page.session.connection is None:
                return False  # Flet's run_task would need the connection's loop; the tasks stay for its return
            future = self.page.run_task(fn, *args)
        except RuntimeError:
            # The session is destroyed: the page is gone.
            self.close()
            return False
        self._running.add(future)
        future.add_done_callback(self._running.discard)
        return True

    def close(self) -> int:
        """The page has closed: cancel what runs; returns how many tasks were cancelled."""
        self.closed = True
        running, self._running = list(self._running), set()
        return sum(future.cancel() for future in running)
