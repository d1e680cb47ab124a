"""A page that fails unexpectedly is dead: its store refused, one sentence with an error id, Reload only.

The expected answers are no failures: a rule refused is said in one
sentence by the engine, a database fault (``StoreError``) in one sentence by
the store, and the page goes on. Anything else a page raises is a bug, and
after a bug nothing the page holds can be trusted (a half-made entry, a
stale revision). So the page dies, in this order:

1. its access to the store is revoked (``PageStore.revoke``, the director's
   credential dropped ...): a tap the client still sends, to a control the
   page has not yet replaced, writes nothing;
2. its live updates stop for good;
3. the traceback goes to the server log with a short error id;
4. the page shows one sentence with that id and a Reload button that loads
   the page's address afresh (a new page, with the match as stored).

Flet's own crash path (``Session.error``: a handler, an effect or ``main``
that raised) sends the traceback to the page as "Error running app"; every
page's session is given ``PageGuard.flet_error`` in its place, so whatever
Flet catches kills the page the same way and nothing of the traceback
leaves the server.
"""

from __future__ import annotations

import logging
import secrets
import threading
import weakref
from collections.abc import Callable

import flet as ft

from scorepad.app.screens.common import TOUCH, note, tappable

log = logging.getLogger(__name__)

DEAD_ID = "page-dead"
RELOAD_ID = "reload"


def dead_words(error_id: str) -> str:
    """The one sentence a dead page shows."""
    return (
        f"Something went wrong on this page (error {error_id}). "
        "Nothing more can be entered here: reload the page to go on."
    )


def dead_view(error_id: str, route: str) -> ft.Control:
    """A dead page's content: the sentence and a Reload button that loads ``route`` afresh in the same tab.

    The button opens the address in the browser itself, with no round trip
    through the dead page's session.
    """
    return reload_view(dead_words(error_id), DEAD_ID, route)


def reload_view(words: str, identifier: str, route: str) -> ft.Control:
    """A page that can only say ``words`` (identified ``identifier``) and offer Reload, which loads ``route`` afresh."""
    reload = ft.FilledButton(
        content="Reload",
        icon=ft.Icons.REFRESH,
        url=ft.Url(route or "/", target=ft.UrlTarget.SELF),
        height=TOUCH,
    )
    body = ft.Column([note(words, identifier=identifier, size=18), tappable(RELOAD_ID, reload)], spacing=16)
    return ft.SafeArea(content=ft.Container(content=body, padding=24), expand=True)


_guards: weakref.WeakValueDictionary[str, PageGuard] = weakref.WeakValueDictionary()
_guards_lock = threading.Lock()


def is_dead_session(session_id: str) -> bool:
    """Whether the Flet session ``session_id`` is a dead page's (while the session lives)."""
    guard = _guards.get(session_id)
    return guard is not None and guard.dead


class PageGuard:
    """One page's guard: the first unexpected failure kills the page (see the module's docstring).

    The page registers what to revoke (``revokes``) and what to stop
    (``stops``) as it builds itself; ``fail`` runs them once.
    """

    def __init__(self, page: ft.Page) -> None:
        self.page = page
        # Kept for the log: a page whose session has been destroyed can no longer give it.
        self.session_id = page.session.id
        self.error_id: str | None = None
        self._revoke: list[Callable[[], None]] = []
        self._stop: list[Callable[[], None]] = []
        self._lock = threading.Lock()
        # Flet's crash path ends here instead of sending a traceback to the page (an
        # instance attribute in front of the method; the installed package is unchanged).
        page.session.error = self.flet_error  # type: ignore[method-assign]

    @classmethod
    def of(cls, page: ft.Page) -> PageGuard:
        """The guard of ``page`` (made and installed on first use; it lives as long as the page's session)."""
        with _guards_lock:
            guard = _guards.get(page.session.id)
            if guard is None:
                guard = _guards[page.session.id] = cls(page)
            return guard

    @property
    def dead(self) -> bool:
        """Whether the page has failed."""
        return self.error_id is not None

    def revokes(self, revoke: Callable[[], None]) -> None:
        """Call ``revoke`` first when the page dies (it takes away the page's access to the store)."""
        self._revoke.append(revoke)

    def stops(self, stop: Callable[[], None]) -> None:
        """Call ``stop`` when the page dies (it ends the page's live updates)."""
        self._stop.append(stop)

    def fail(self, error: BaseException | str, where: str, *, show: bool = True) -> None:
        """Kill the page after ``error`` (an exception, or Flet's text of one) raised in ``where``. Never raises.

        ``show=False`` leaves the drawing to the caller (a component that
        failed while drawing returns ``view()`` itself). A page already
        dead only logs the new error, briefly.
        """
        with self._lock:
            if self.error_id is not None:
                log.info("dead page %s (error %s): %s failed too", self.session_id[:8], self.error_id, where)
                return
            self.error_id = secrets.token_hex(3).upper()
            revoke, stop = list(self._revoke), list(self._stop)
        for step in revoke + stop:
            try:
                step()
            except Exception:
                log.exception("page %s: ending the page after error %s failed", self.session_id[:8], self.error_id)
        exc_info = error if isinstance(error, BaseException) else None
        told = "" if exc_info is not None else f": {error}"
        log.error(
            "page %s is dead (error %s): %s failed%s",
            self.session_id[:8],
            self.error_id,
            where,
            told,
            exc_info=exc_info,
        )
        # The page's own handlers would draw it again (a route change, a new size).
        self.page.on_route_change = None
        self.page.on_resize = None
        if show:
            self.show()

    def view(self) -> ft.Control:
        """The dead page's content (``dead_view``) for this page's address."""
        return dead_view(self.error_id or "?", self.page.route or "/")

    def show(self) -> None:
        """Replace the page's content with the dead page's."""
        page = self.page
        try:
            page.controls = [self.view()]
            page.update()
        except Exception:
            # The client may have gone; the store is revoked already, which is what matters.
            log.exception("page %s: drawing the dead page (error %s) failed", self.session_id[:8], self.error_id)

    def flet_error(self, message: str) -> None:
        """What Flet calls when a handler, an effect or ``main`` of this page raised: the page dies."""
        self.fail(message, "a handler Flet caught")
