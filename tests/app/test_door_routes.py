"""A table's phone on the tournament's Wi-Fi reaches no other table's match by any route of the served app.

A raw client (tests/flet_client.py) from a LAN address (``X-Forwarded-For``,
which uvicorn takes from 127.0.0.1), holding the door's join cookie as a
phone that scanned the join code does: it joins table 1 with its code and
scores there; then, from the same browser, opens table 2's match through the
ordinary score-pad (``/match/ID`` in a fresh tab) and lays a tile, opens it
from History and lays a tile, reaches it by a route change on that open page
(Back and Forward) and lays a tile, and asks History to delete it. Each is
refused in one sentence on the page, and table 2's match keeps its revision,
its log and its audit.
"""

from __future__ import annotations

import asyncio
import http.client
import re
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scorepad.store import open_store
from scorepad.tournament import TournamentService
from tests.flet_client import FletClient, WebServer

PASSWORD = "a long director password"
LAN = "192.168.77.10"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[WebServer, dict[str, Any]]]:
    """A two-table tournament round in a database, served beyond this computer; both tables' hands started."""
    db_url = f"sqlite:///{tmp_path / 'club.db'}"
    store = open_store(db_url)
    try:
        service = TournamentService(store)
        event = service.create_event(name="Open", password=PASSWORD, rounds=1, options={"target": 60}, seed="s")
        director = service.login_director(event, PASSWORD)
        for name in ("Ann", "Bob", "Cy", "Dee"):
            service.register(director, event, [name])
        view = service.pair_round(director, event)
        for table in view.tables:
            service.start_hand(service.join_table(event, view.codes[table.number]), event, table.match_id, 0)
        facts = {"event": event, "tables": view.tables, "codes": view.codes}
    finally:
        store.close()
    web = WebServer(db_url, tmp_path / "server.log", host="0.0.0.0").start(timeout=120)
    try:
        yield web, facts
    finally:
        web.stop()


def joined_cookie(web: WebServer) -> str:
    """The cookie a LAN phone gets for the right join code (read from what the server printed)."""
    found = re.search(r"join code (\d+)", web.log())
    assert found, web.log()
    body = urllib.parse.urlencode({"code": found.group(1), "next": "/"})
    connection = http.client.HTTPConnection("127.0.0.1", web.port, timeout=30)
    try:
        connection.request(
            "POST",
            "/join",
            body=body,
            headers={"Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": LAN},
        )
        reply = connection.getresponse()
        cookie = reply.getheader("set-cookie") or ""
    finally:
        connection.close()
    assert reply.status == 303 and cookie, (reply.status, cookie)
    return cookie.split(";", 1)[0]


def stored(db_url: str, match_id: int) -> tuple[int, dict[str, Any], int]:
    """Table 2's match as stored: its revision, its record and the length of its audit."""
    store = open_store(db_url)
    try:
        return store.load(match_id).revision, store.export_record(match_id, complete=True), len(store.audit(match_id))
    finally:
        store.close()


async def said(page: FletClient, words: str, *, timeout: float = 60.0) -> str:
    """Wait until the page's message bar says ``words``; returns what it says."""
    await page.showing("message", timeout=timeout)
    assert page.tree is not None
    text = str(page.tree.index[page.tree.shown["message"]])
    deadline = asyncio.get_running_loop().time() + timeout
    while words not in text and asyncio.get_running_loop().time() < deadline:
        await page.redrawn(page.patches + 1, timeout=timeout)
        text = str(page.tree.index[page.tree.shown["message"]])
    assert words in text, text
    return text


async def lay_refused(page: FletClient, words: str) -> None:
    """Lay 5-5 on the match the page shows: the door refuses it, saying ``words``."""
    await page.showing("tile-5-5", timeout=60)
    await page.tap("tile-5-5", timeout=60)
    await said(page, words)


def test_table_one_s_phone_reaches_no_other_match(served: tuple[WebServer, dict[str, Any]]) -> None:
    web, facts = served
    event, (first, second), codes = facts["event"], facts["tables"], facts["codes"]
    headers = {"Cookie": joined_cookie(web), "X-Forwarded-For": LAN}
    before = stored(web.db_url, second.match_id)

    async def run() -> None:
        # Table 1's phone: its code in the QR link joins at once, and it scores its own match.
        phone = await FletClient(web.url, f"/event/{event}/table?code={codes[first.number]}", headers=headers).open(
            ready="tile-5-5", timeout=90
        )
        try:
            await phone.tap("tile-5-5", timeout=60)
            await phone.showing("board-count", timeout=60)
        finally:
            await phone.close()
        # The same browser, a fresh tab on the ordinary score-pad: table 2's match, read-only.
        page = await FletClient(web.url, f"/match/{second.match_id}", headers=headers).open(
            ready="tile-5-5", timeout=90
        )
        refused = f"table {second.number}'s"
        try:
            await lay_refused(page, refused)
        finally:
            await page.close()
        # History: table 2's match opened from its list is read-only too, and a delete of it is refused.
        history = await FletClient(web.url, "/history", headers=headers).open(
            ready=f"delete-{second.match_id}", timeout=90
        )
        try:
            await history.tap(f"open-{second.match_id}", timeout=60)
            await lay_refused(history, refused)
            # A route change on the open page (Back, then Forward to the match's address): read-only again.
            for route in ("/history", f"/match/{second.match_id}", "/history"):
                await history.go(route, timeout=60)
                if route != "/history":
                    await lay_refused(history, refused)
            await history.showing(f"delete-{second.match_id}", timeout=60)
            await history.tap(f"delete-{second.match_id}", timeout=60)
            await history.tap("confirm-match-action", timeout=60)
            await said(history, "never deleted")
        finally:
            await history.close()

    asyncio.run(run())
    assert stored(web.db_url, second.match_id) == before
    # Table 1's own tile was taken: the phone's route to its own match works.
    assert stored(web.db_url, first.match_id)[0] == 2
