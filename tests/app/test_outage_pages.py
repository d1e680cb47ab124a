"""A page opened while the database is unavailable: the store's sentence, never a dead page; back when it is.

The fault is real: the SQLite file is renamed away under an open store, as
the issue's probe did, and renamed back.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from scorepad.app.shell import page as page_module
from scorepad.app.shell.guard import DEAD_ID, RELOAD_ID
from scorepad.app.shell.page import UNAVAILABLE_ID
from scorepad.store import DatabaseGone, open_store

from .wiring import Wired


@pytest.mark.asyncio
@pytest.mark.parametrize("where", ["/match/{id}", "/match/{id}/sheet", "/history", "/dispute/{id}"])
async def test_a_page_opened_while_the_file_is_away_says_so_and_opens_once_it_is_back(
    tmp_path: Path, where: str
) -> None:
    path = tmp_path / "scorepad.db"
    store = open_store(f"sqlite:///{path}")
    first = await Wired(store).open()
    try:
        await first.tap("new-match")
        await first.tap("start-match")
        match_id = first.page.route.rsplit("/", 1)[-1]
        route = where.format(id=match_id)
        shown = set((await _opened(store, route)).identified())
        path.rename(tmp_path / "away.db")
        during = await _wired(store, route)
        try:
            assert not during.exists(DEAD_ID)
            assert _said(during) == str(DatabaseGone(saving=False))
        finally:
            during.close()
        (tmp_path / "away.db").rename(path)
        after = await _wired(store, route)
        try:
            assert not after.exists(DEAD_ID) and not after.exists("message")
            assert set(after.identified()) == shown, "the address opens as it did before the outage"
        finally:
            after.close()
    finally:
        first.close()
        store.close()


def _said(wired: Wired) -> str:
    """The sentence in the page's message bar."""
    return str(wired.find("message").content.content.value)  # type: ignore[union-attr]


async def _wired(store: object, route: str) -> Wired:
    """A page opened at ``route`` with the address a web server's connection knows (a redraw may set the route)."""
    wired = Wired(store, route=route)
    wired.connection.page_url = "http://127.0.0.1:8550"
    return await wired.open()


async def _opened(store: object, route: str) -> Wired:
    wired = await _wired(store, route)
    wired.close()
    return wired


@pytest.mark.asyncio
async def test_a_route_change_during_the_outage_says_so(tmp_path: Path) -> None:
    path = tmp_path / "scorepad.db"
    store = open_store(f"sqlite:///{path}")
    wired = await Wired(store).open()
    try:
        await wired.tap("new-match")
        await wired.tap("start-match")
        route = wired.page.route
        await wired.tap("home")
        path.rename(tmp_path / "away.db")
        assert wired.session is not None
        wired.connection.page_url = "http://127.0.0.1:8550"
        wired.session.apply_page_patch({"route": route})
        await wired.page._trigger_event("route_change", {"route": route})
        await wired.settle()
        assert not wired.exists(DEAD_ID)
        assert _said(wired) == str(DatabaseGone(saving=False))
    finally:
        wired.close()
        store.close()


@pytest.mark.asyncio
async def test_a_first_page_while_the_database_server_refuses_says_so(tmp_path: Path) -> None:
    """The process has never reached its database (PostgreSQL refusing it): the store's sentence and Reload, no
    dead page; nothing is kept, so the next page tries again."""
    refused = "postgresql+psycopg://postgres@127.0.0.1:5432/scorepad_no_such_database"
    wired = await Wired(None, route="/history", db_url=refused).open()
    try:
        assert not wired.exists(DEAD_ID)
        words = wired.find(UNAVAILABLE_ID).content.value  # type: ignore[union-attr]
        assert words.startswith("The score-pad can't read the database right now: "), words
        assert wired.exists(RELOAD_ID)
    finally:
        wired.close()
    assert refused not in page_module._stores
