"""The one tap guard of every page: a view-model action becomes a handler that runs it, says a refusal, redraws.

Every shell's taps pass here (the score-pad, the table phone, the director's
desk, the new-event form): a refusal (a ``StoreError`` from the store or its
door, a ``TournamentError`` from the service) is one sentence where the page
shows messages and the page goes on; anything else is a bug and the page
dies (``PageGuard``), never a traceback on it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from scorepad.app.models.state import ScorePad
from scorepad.app.models.tournament import words_of
from scorepad.app.shell.guard import PageGuard
from scorepad.app.shell.live import LiveScreen
from scorepad.store import StoreError
from scorepad.tournament.errors import TournamentError

log = logging.getLogger("scorepad.app")


def _logged(words: str) -> None:
    log.warning("a tap was refused: %s", words)


class Dispatch:
    """Turns a view-model action into a tap handler that runs it and redraws the page.

    One per page, so memoised parts of the screen see the same object on every draw.
    ``said`` gets a refusal's sentence; ``after`` runs after an action that
    went through (the live path's bookkeeping); ``redraw`` after every tap
    the page survives. ``where`` names the page's taps in the log of a bug.
    """

    def __init__(
        self,
        guard: PageGuard,
        *,
        said: Callable[[str], None] = _logged,
        redraw: Callable[[], None] = lambda: None,
        where: str = "a tap",
    ) -> None:
        self.guard = guard
        self.said = said
        self.redraw = redraw
        self.where = where
        self.after: Callable[[], None] = lambda: None

    def __call__(self, fn: Callable[..., Any], *args: Any) -> Callable[[], None]:
        """The handler for a tap that calls ``fn(*args)``."""

        def handler() -> None:
            if self.guard.dead:
                return  # a tap the client sent on a control it drew before the page died
            try:
                fn(*args)
                self.after()
            except (StoreError, TournamentError) as err:
                # An expected answer (a refusal, a database fault): said, and the page goes on.
                self.said(words_of(err))
            except Exception as err:
                self.guard.fail(err, self.where)
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
    act = Dispatch(guard, said=lambda words: say_fault(pad, words))
    act.after = live.after_tap
    return act


def say_fault(pad: ScorePad, words: str) -> None:
    """A refusal or a database fault that reached the tap's guard: its sentence, where the screen shows messages."""
    if pad.table is not None:
        pad.table.message = words
    else:
        pad.message = words


def home_during_outage(pad: ScorePad, err: StoreError) -> None:
    """A page opened, or sent to a screen, while the database is unavailable: home, with the store's sentence.

    The home screen draws without the database; the page's address opens as
    it should once the database is back (a reload, or a tap on Resume).
    """
    pad.go_home()
    say_fault(pad, words_of(err))
