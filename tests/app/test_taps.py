"""The one tap guard (``shell.taps.Dispatch``) that every page's taps pass through.

The score-pad, the table phone, the director's desk and the new-event form
all turn their actions into handlers here: a refusal from the store (its
door, a database fault) or from the tournament service is one sentence and
the page goes on; anything else kills the page.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from scorepad.app.shell.guard import PageGuard
from scorepad.app.shell.taps import Dispatch
from scorepad.store import StoreError
from scorepad.tournament.errors import TournamentError


class _Page(SimpleNamespace):
    """The parts of a Flet page the guard touches: its session and the handlers it clears."""

    def __init__(self) -> None:
        super().__init__(session=SimpleNamespace(id="0123456789abcdef", error=None), route="/", controls=[])
        self.updates = 0

    def update(self) -> None:
        self.updates += 1


def _dispatch() -> tuple[Dispatch, PageGuard, list[str], list[str]]:
    page: Any = _Page()
    guard = PageGuard(page)
    said: list[str] = []
    drawn: list[str] = []
    act = Dispatch(guard, said=said.append, redraw=lambda: drawn.append("drawn"), where="a test's tap")
    return act, guard, said, drawn


@pytest.mark.parametrize(
    "refusal",
    [
        StoreError("this phone joined table 1, not table 2; it cannot enter tiles in another table's match"),
        TournamentError("round 2 is locked: its results are final"),
    ],
)
def test_a_refusal_from_the_store_or_the_service_is_one_sentence_and_the_page_goes_on(refusal: Exception) -> None:
    act, guard, said, drawn = _dispatch()
    after: list[str] = []
    act.after = lambda: after.append("after")

    def refused() -> None:
        raise refusal

    act(refused)()
    assert said == [str(refusal)[0].upper() + str(refusal)[1:] + "."]
    assert after == [], "the live path's bookkeeping runs only after an action that went through"
    assert drawn == ["drawn"] and not guard.dead


def test_an_action_that_goes_through_runs_with_its_arguments_then_the_page_redraws() -> None:
    act, guard, said, drawn = _dispatch()
    done: list[tuple[int, str]] = []
    act.after = lambda: drawn.append("after")
    act(lambda n, s: done.append((n, s)), 3, "x")()
    assert done == [(3, "x")] and said == [] and drawn == ["after", "drawn"] and not guard.dead


def test_a_bug_kills_the_page_and_a_later_tap_is_dropped() -> None:
    act, guard, said, drawn = _dispatch()

    def bug() -> None:
        raise KeyError("no such seat")

    act(bug)()
    assert guard.dead and said == [] and drawn == [], "a bug is never said as a refusal, nor drawn over"
    later: list[str] = []
    act(lambda: later.append("tapped"))()
    assert later == [], "a tap sent on a control drawn before the page died does nothing"
