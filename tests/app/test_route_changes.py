"""A page whose address changes while it is open (Back, Forward, a link in the same tab) shows what the router
finds there, whichever shell drew it before: the score-pad's pages and the tournament's, both ways.

Before, a tournament page ignored a route change: Back from the New event form to ``/`` changed the browser's
address and left the form on screen.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from scorepad.app.shell.guard import DEAD_ID
from scorepad.app.shell.live import subscriptions
from scorepad.store import Store, open_store
from scorepad.tournament import TournamentService

from .wiring import Wired

PASSWORD = "a long enough password"
pytestmark = pytest.mark.asyncio


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = open_store(f"sqlite:///{tmp_path / 'routes.db'}")
    yield opened
    opened.close()


async def go(wired: Wired, route: str) -> None:
    """Change the open page's address as the browser does: its new route, then the route_change event."""
    assert wired.session is not None
    wired.connection.page_url = "http://127.0.0.1:8550"  # the address a web server's connection knows
    wired.session.apply_page_patch({"route": route})
    await wired.page._trigger_event("route_change", {"route": route})
    await wired.settle()


async def test_back_from_the_new_event_form_to_the_home_screen(store: Store) -> None:
    wired = await Wired(store).open()
    try:
        await wired.tap("new-event")
        assert wired.exists("create-event") and not wired.exists("new-match")
        await go(wired, "/")
        assert wired.exists("new-match") and not wired.exists("create-event")
        await go(wired, "/event/new")  # and Forward again
        assert wired.exists("create-event") and not wired.exists("new-match")
        assert not wired.exists(DEAD_ID)
    finally:
        wired.close()


async def test_between_tournament_pages_and_back_to_history(store: Store) -> None:
    service = TournamentService(store)
    event_id = service.create_event(name="Open", password=PASSWORD, rounds=1, seed="r")
    token = service.login_director(event_id, PASSWORD)
    for name in ("Ann", "Bob", "Cy", "Dee"):
        service.register(token, event_id, [name])
    service.pair_round(token, event_id)
    wired = await Wired(store, route=f"/event/{event_id}/hall", width=1920, height=1080).open()
    try:
        assert wired.exists("hall-title")
        following = subscriptions(store)
        assert following > 0, "the hall follows its round's matches"
        await go(wired, f"/event/{event_id}/audit")
        assert wired.exists("audit-title") and not wired.exists("hall-title")
        assert subscriptions(store) == 0, "the hall stopped following when its page went"
        await go(wired, "/history")
        assert not wired.exists("audit-title") and wired.exists("show-archived")
        assert not wired.exists(DEAD_ID)
    finally:
        wired.close()
