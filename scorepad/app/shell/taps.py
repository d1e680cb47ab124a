"""The one tap guard of every page: a view-model action becomes a handler that runs it, says a refusal, redraws."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from scorepad.app.models.state import ScorePad
from scorepad.app.shell.guard import PageGuard
from scorepad.app.shell.live import LiveScreen
from scorepad.rules.wording import sentence
from scorepad.store import StoreError

log = logging.getLogger("scorepad.app")


class Dispatch:
    """Turns a view-model action into a tap handler that runs it and redraws the page.

    One per page, so memoised parts of the screen see the same object on every draw.
    A tap that fails unexpectedly kills the page through its ``guard``.
    """

    def __init__(self, guard: PageGuard) -> None:
        self.guard = guard
        self.redraw: Callable[[], None] = lambda: None
        self.after: Callable[[], None] = lambda: None
        self.said: Callable[[StoreError], None] = lambda err: log.warning("a tap was refused: %s", err)

    def __call__(self, fn: Callable[..., Any], *args: Any) -> Callable[[], None]:
        """The handler for a tap that calls ``fn(*args)``."""

        def handler() -> None:
            if self.guard.dead:
                return  # a tap the client sent on a control it drew before the page died
            # The guard around every tap. A database fault is an expected answer: said in the
            # store's sentence, the page goes on. Anything else is a bug: the page dies
            # (``PageGuard``) and is not drawn again from what it holds.
            try:
                fn(*args)
                self.after()
            except StoreError as err:
                self.said(err)
            except Exception as err:
                self.guard.fail(err, "a tap")
                return
            self.redraw()

        return handler


def page_dispatch(guard: PageGuard, pad: ScorePad, live: LiveScreen) -> Dispatch:
    """The tap dispatcher of a page whose ``pad`` writes through a ``PageStore`` and follows ``live``.

    If the page dies (``guard``), its store is revoked first and its live
    updates end; a live update that fails unexpectedly kills it too.
    """
    guard.revokes(pad.store.revoke)
    guard.stops(live.end)
    live.failed = lambda err: guard.fail(err, "a live update")
    act = Dispatch(guard)
    act.after = live.after_tap
    act.said = lambda err: say_fault(pad, err)
    return act


def say_fault(pad: ScorePad, err: StoreError) -> None:
    """A database fault that reached the tap's guard: the store's sentence, where the screen shows messages."""
    if pad.table is not None:
        pad.table.message = sentence(str(err))
    else:
        pad.message = sentence(str(err))


def home_during_outage(pad: ScorePad, err: StoreError) -> None:
    """A page opened, or sent to a screen, while the database is unavailable: home, with the store's sentence.

    The home screen draws without the database; the page's address opens as
    it should once the database is back (a reload, or a tap on Resume).
    """
    pad.go_home()
    say_fault(pad, err)
