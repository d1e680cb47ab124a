"""Two server processes on one PostgreSQL database, a Chromium page on each: they stay in step.

Each test gets a fresh schema. The pages are driven by their semantic
identifiers only; every wait is on an element (Playwright's own waits), and
the delay from a tap on one page to its entry on the other is measured.
"""

from __future__ import annotations

import os
import socket
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from scorepad.access import Caller
from scorepad.store import open_store
from tests.browser import CHROMIUM, PHONE, TablePage, launch_chromium
from tests.flet_client import WebServer

pytestmark = [
    pytest.mark.browser,
    pytest.mark.postgres,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason=f"needs Debian's chromium at {CHROMIUM} (apt-get install -y chromium)"
    ),
]

FOLLOW_S = 1.0


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A URL on a fresh PostgreSQL schema (dropped after the test); skips where no server listens."""
    base = os.environ.get("SCOREPAD_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
    parsed = make_url(base)
    try:
        socket.create_connection((parsed.host or "127.0.0.1", parsed.port or 5432), timeout=3).close()
    except OSError as err:
        pytest.skip(f"PostgreSQL unreachable ({err})")
    schema = f"scorepad_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(base)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield parsed.update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(hide_password=False)
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture
def two_servers(pg_url: str, tmp_path: Path) -> Iterator[tuple[WebServer, WebServer, int]]:
    """Two separate server processes on the one database, and a match with its first hand started."""
    store = open_store(pg_url)
    try:
        match_id = store.create_match(players=["Ann", "Bob"], caller=Caller.local())
        store.start_hand(match_id, setter=0, caller=Caller.local())
    finally:
        store.close()
    first = WebServer(pg_url, tmp_path / "first.log").start()
    try:
        second = WebServer(pg_url, tmp_path / "second.log").start()
    except BaseException:
        first.stop()
        raise
    yield first, second, match_id
    for server in (first, second):
        server.stop()
        log = server.log()
        assert "Traceback" not in log, log[-3000:]


@pytest.fixture
def chromium() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        yield browser
        browser.close()


def audit_actions(pg_url: str, match_id: int) -> list[tuple[str, str | None]]:
    """The match's writes after its creation and first hand, as (action, device), oldest first."""
    store = open_store(pg_url)
    try:
        return [(item.action, item.device) for item in store.audit(match_id)][2:]
    finally:
        store.close()


def standing(pg_url: str, match_id: int) -> list[dict[str, Any]]:
    store = open_store(pg_url)
    try:
        return store.export_record(match_id)["hands"][0]["events"]
    finally:
        store.close()


def test_an_entry_on_one_server_shows_on_the_other_within_a_second(
    chromium: Any, two_servers: tuple[WebServer, WebServer, int], pg_url: str
) -> None:
    first, second, match_id = two_servers
    ann = TablePage(chromium, first.url, viewport=PHONE)
    bob = TablePage(chromium, second.url, viewport=PHONE)
    try:
        ann.open(f"match/{match_id}", ready="board-count")
        bob.open(f"match/{match_id}", ready="board-count")
        delays, totals = [], []
        # Sequential interleaving: each tap is made once the page shows the entry before it.
        steps = [(ann, "tile-4-6", "10"), (bob, "undo", "0"), (ann, "redo", "10"), (bob, "undo", "0")]
        for page, control, count in steps:
            other = bob if page is ann else ann
            box = page.scroll_into_view(control)
            clicked = time.monotonic()
            page.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            page.wait_text("board-count", count)
            shown = time.monotonic()  # the entry is saved and on the page that made it
            other.wait_text("board-count", count, timeout=10)
            delays.append(time.monotonic() - shown)
            totals.append(time.monotonic() - clicked)
        print(
            "entry shown on its page -> on the other server's page: "
            + ", ".join(f"{d * 1000:.0f} ms" for d in delays)
            + "; from the click: "
            + ", ".join(f"{t * 1000:.0f} ms" for t in totals)
        )
        assert max(delays) < FOLLOW_S, delays
        assert "Entered on another screen" in ann.text("message")
        actions = audit_actions(pg_url, match_id)
        assert [a for a, _ in actions] == ["append", "undo", "redo", "undo"]
        devices = [d for _, d in actions]
        assert devices[0] == devices[2] != devices[1] == devices[3], "each entry from the page that made it"
        assert standing(pg_url, match_id) == []
    finally:
        ann.close()
        bob.close()


def test_taps_at_the_same_moment_on_two_servers_store_one_entry(
    chromium: Any, two_servers: tuple[WebServer, WebServer, int], pg_url: str
) -> None:
    first, second, match_id = two_servers
    ann = TablePage(chromium, first.url, viewport=PHONE)
    bob = TablePage(chromium, second.url, viewport=PHONE)
    try:
        ann.open(f"match/{match_id}", ready="board-count")
        bob.open(f"match/{match_id}", ready="board-count")
        for round_ in range(3):
            # Both set a different tile on the same empty table, one straight after the other.
            before = len(audit_actions(pg_url, match_id))
            ann_box = ann.scroll_into_view("tile-5-5")
            bob_box = bob.scroll_into_view("tile-3-3")
            ann.page.mouse.click(ann_box["x"] + ann_box["width"] / 2, ann_box["y"] + ann_box["height"] / 2)
            bob.page.mouse.click(bob_box["x"] + bob_box["width"] / 2, bob_box["y"] + bob_box["height"] / 2)
            # One set stands, whichever came first; both pages come to show it.
            deadline = time.monotonic() + 10
            while len(audit_actions(pg_url, match_id)) == before and time.monotonic() < deadline:
                ann.page.wait_for_timeout(20)
            events = standing(pg_url, match_id)
            assert len(events) == 1, f"round {round_}: {events}"
            count = "10" if events[0] == {"play": "5-5"} else "6"
            ann.wait_text("board-count", count)
            bob.wait_text("board-count", count)
            loser = bob if count == "10" else ann
            # The other tap was either refused as stale (named) or made on the new table and refused by the rules.
            message = loser.text("message")
            assert "first" in message or "5-5" in message or "3-3" in message, message
            assert len(audit_actions(pg_url, match_id)) == before + 1, "the losing tap wrote nothing"
            # Back to an empty table for the next round.
            ann.tap("undo")
            ann.wait_text("board-count", "0")
            bob.wait_text("board-count", "0")
        actions = [a for a, _ in audit_actions(pg_url, match_id)]
        assert actions == ["append", "undo"] * 3
    finally:
        ann.close()
        bob.close()
