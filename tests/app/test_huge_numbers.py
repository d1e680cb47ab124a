"""Numbers of thousands of digits in a page's address or a typed table code: a plain sentence, never a dead page.

Python refuses to turn more than 4,300 digits into an int (a ValueError), so
each such number is checked by its length first.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from scorepad.app.models.tournament import NO_SUCH_EVENT, TABLE_CODE_SHAPE, event_number
from scorepad.app.shell.guard import DEAD_ID
from scorepad.app.shell.router import Shell, resolve
from scorepad.store import open_store
from scorepad.tournament import TournamentService

from .wiring import Wired

HUGE = "9" * 4301
ROUTES = [f"/event/{HUGE}/hall", f"/event/{HUGE}/director", f"/event/{HUGE}/table", f"/event/{HUGE}/watch/1"]


@pytest.mark.parametrize("route", ROUTES)
def test_a_huge_event_number_is_no_event(route: str) -> None:
    where = resolve(route)
    assert where.shell is Shell.EVENT and event_number(where.part("event")) is None
    assert event_number("4611686018427387904") == 2**62, "the largest still reads"
    assert event_number(str(2**62 + 1)) is None and event_number("3") == 3


@pytest.mark.asyncio
@pytest.mark.parametrize("route", ROUTES)
async def test_a_page_opened_at_a_huge_event_number_says_there_is_none(tmp_path: Path, route: str) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'w.db'}")
    wired = await Wired(store, route=route).open()
    try:
        assert not wired.exists(DEAD_ID)
        assert wired.text("event-missing") == NO_SUCH_EVENT
    finally:
        wired.close()
        store.close()


@pytest.mark.asyncio
async def test_a_route_change_to_a_huge_event_number_says_there_is_none(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'w.db'}")
    wired = await Wired(store).open()
    try:
        assert wired.exists("new-match")
        route = ROUTES[0]
        assert wired.session is not None
        wired.connection.page_url = "http://127.0.0.1:8550"
        wired.session.apply_page_patch({"route": route})
        await wired.page._trigger_event("route_change", {"route": route})
        await wired.settle()
        assert not wired.exists(DEAD_ID)
        assert wired.text("event-missing") == NO_SUCH_EVENT
    finally:
        wired.close()
        store.close()


@pytest.mark.asyncio
@pytest.mark.parametrize("code", ["9" * 5000 + "-AAAAAA", "1-" + "A" * 5000])
async def test_a_huge_table_code_is_refused_in_a_sentence(tmp_path: Path, code: str) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'w.db'}")
    event_id = TournamentService(store).create_event(name="Open", password="a long enough password", rounds=1)
    wired = await Wired(store, route=f"/event/{event_id}/table").open()
    try:
        await wired.type("table-code", code)
        await wired.tap("join")
        assert not wired.exists(DEAD_ID)
        assert wired.text("message") == TABLE_CODE_SHAPE
        # The same code in the table's link (?code=...) is refused the same way.
        linked = await Wired(store, route=f"/event/{event_id}/table?code={code}").open()
        try:
            assert not linked.exists(DEAD_ID) and linked.text("message") == TABLE_CODE_SHAPE
        finally:
            linked.close()
    finally:
        wired.close()
        store.close()
