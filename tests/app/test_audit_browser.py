"""The audit in Chromium at 360x640: the director settles a hand again, the table's phone says so in one line,
and the phone's Audit link opens its table's audit; the hall links to the event's and each table's.

The director's act is made through the service in this process, on PostgreSQL: the server hears it as it
would hear another server process (the store's commits and its announcement of the audited act, over NOTIFY).
With SCOREPAD_SCREENSHOTS=DIR the phone and the audit page are saved there.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from scorepad.store import open_store
from scorepad.tournament import TournamentService
from tests.app.test_tournament_browser import (  # noqa: F401 (the fixtures are used by name)
    HALL,
    PASSWORD,
    PLAYERS,
    SMALL_PHONE,
    Pages,
    chromium,
    confirm,
    pages,
    pg_base_url,
    pg_url,
    play_a_hand,
    registered,
    shoot,
)
from tests.browser import CHROMIUM, AppServer, TablePage, _local_only, sel

pytestmark = [
    pytest.mark.browser,
    pytest.mark.postgres,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"needs Debian's chromium at {CHROMIUM}"),
]


def _label(page: TablePage, identifier: str) -> str:
    """What a screen reader reads of a control: its label, else its text."""
    found = page.page.locator(sel(identifier)).first
    return (found.get_attribute("aria-label") or found.text_content() or "").strip()


def _tab(opener: TablePage, page: Any, url: str) -> TablePage:
    """A tab the page ``opener`` opened, driven as the test's other pages (it shares the opener's context)."""
    tab = TablePage.__new__(TablePage)
    tab.context, tab.page, tab.url, tab.ready_seconds = opener.context, page, url, None
    return tab


def test_the_phone_says_what_the_director_changed_and_opens_its_tables_audit(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    pages: Pages,  # noqa: F811 (the fixture imported above)
) -> None:
    url = request.getfixturevalue("pg_url")
    event_id, code = registered(url, "Club night", PLAYERS[:4], seed="audit", pair=True)
    assert code is not None
    renderer = "canvaskit" if os.environ.get("SCOREPAD_SCREENSHOTS") else None
    app = AppServer(url, renderer=renderer).start(log_path=tmp_path / "server.log", timeout=120)
    store = open_store(url)
    # This process serves no pages: its store alone tells the server's pages of each write (over PostgreSQL).
    try:
        phone = pages.open("phone", app.url, f"event/{event_id}/table", ready="table-code", viewport=SMALL_PHONE)
        play_a_hand(phone, code)
        confirm(phone)
        phone.wait_contains("device-message", "Hand 1 confirmed by")
        service = TournamentService(store)
        director = service.login_director(event_id, PASSWORD)
        names = service.round_view(None, event_id).tables[0].names
        done = service.resettle(director, event_id, 1, remaining="0, 6", reason="miscounted")
        old, new = done.scores_before[0], done.scores_after[0]
        assert old != new
        said = f"The director settled hand 1 at table 1 again: {names[0]} {old} -> {new}"
        phone.wait_contains("message", said, timeout=20)
        line = phone.text("message")
        assert line.endswith("(reason: miscounted).") and "Entered on another screen" not in line, line
        # The stale confirmation is gone with it.
        phone.wait_for("device-message", gone=True)
        shoot(phone, "tournament-audit-phone.png")
        # The phone's Audit link opens its table's audit in a tab of its own (the phone keeps its table).
        phone.context.route("**/*", _local_only)
        with phone.context.expect_page() as opened:
            phone.tap("table-audit")
        tab = _tab(phone, opened.value, app.url)
        tab._wait_ready("audit-line-1", 30)
        assert tab.page.url.endswith(f"/event/{event_id}/audit/1?round=1")
        assert tab.text("audit-title") == "Club night: table 1 of round 1, its audit, newest first, times UTC"
        latest = _label(tab, "audit-line-1")
        assert f"the director settled hand 1 at table 1 again: {names[0]} {old} -> {new}" in latest, latest
        assert "(reason: miscounted)" in latest, latest
        assert "table 1 took " in _label(tab, "audit-line-2") and "confirmation of hand 1" in _label(
            tab, "audit-line-2"
        )
        assert tab.exists("audit-event")
        shoot(tab, "tournament-audit-table.png")
        # The hall links to the event's audit and each table's.
        hall = pages.open("hall", app.url, f"event/{event_id}/hall", ready="hall-hand-1", viewport=HALL)
        assert hall.exists("hall-audit") and hall.exists("hall-audit-1") and hall.exists("hall-audit-2")
        whole = pages.open("audit", app.url, f"event/{event_id}/audit", ready="audit-line-1", viewport=SMALL_PHONE)
        assert whole.text("audit-title") == "Club night: the audit, newest first, times UTC"
        assert "settled hand 1 at table 1 again" in _label(whole, "audit-line-1")
        assert not whole.exists("audit-event")
        shoot(whole, "tournament-audit-event.png")
    finally:
        store.close()
        app.stop()
