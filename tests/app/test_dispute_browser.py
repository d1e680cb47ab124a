"""In Chromium at 360x640: a stored match opened from History on the Dispute screen.

Step to an event, read its count breakdown (with the rule behind each part)
and the hand's ruling, step back, and keep a screenshot of the screen.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scorepad.access import Caller
from scorepad.store import open_store
from tests.browser import CHROMIUM, AppServer, TablePage, launch_chromium, sel

SMALL = {"width": 360, "height": 640}
RECORD = Path(__file__).parent.parent / "data" / "analysis" / "renege-cleared.json"
LONG = RECORD.parent / "renege-proved-long.json"  # 20 events; Bob's renege proved at event 2

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason=f"needs Debian's chromium at {CHROMIUM} (apt-get install -y chromium)"
    ),
]


def serve(tmp_path: Path, record: Path) -> Iterator[tuple[AppServer, int]]:
    """The app served over a database holding a hand-made record as a match."""
    url = f"sqlite:///{tmp_path / 'table.db'}"
    store = open_store(url=url)
    try:
        match_id = store.import_record(record.read_text(), caller=Caller.local())
    finally:
        store.close()
    # A loaded machine may take a while to start the server: wait on its answer, longer than the default.
    app = AppServer(url).start(timeout=120, log_path=tmp_path / "server.log")
    yield app, match_id
    app.stop()


@pytest.fixture
def stored(tmp_path: Path) -> Iterator[tuple[AppServer, int]]:
    yield from serve(tmp_path, RECORD)


@pytest.fixture
def long_hand(tmp_path: Path) -> Iterator[tuple[AppServer, int]]:
    yield from serve(tmp_path, LONG)


@pytest.fixture
def chromium() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        yield browser
        browser.close()


def test_step_to_an_event_and_read_the_count_and_the_ruling(
    chromium: Any, stored: tuple[AppServer, int], tmp_path: Path
) -> None:
    server, match_id = stored
    page = TablePage(chromium, server.url, viewport=SMALL)
    page.open()
    try:
        page.tap("history")
        page.tap(f"dispute-{match_id}")
        page.wait_contains("dispute-where", "event 1 of 14")
        for event in range(2, 10):
            page.tap("dispute-next")
            page.wait_contains("dispute-where", f"event {event} of 14")
        # Event 9, Bob's 1-2 left: 2 + 1 + the Sniff 6-6 with both short ends open, 12 = 15.
        page.wait_contains("dispute-event", "Bob plays 1-2 left: count 15, scores 15")
        assert page.text("dispute-count") == (
            "left 2 [Smartt §7.1] + right 1 [Smartt §7.1] + Sniff 6-6 (both short ends uncovered: 12) [Smartt §6] = 15"
        )
        assert page.text("dispute-call") == "Called right: 15 scored."
        assert page.text("dispute-ruling") == "Hand 1: Ann went out, and Ann takes 15; Ann 15, Bob 15."
        shots = Path(os.environ.get("SCOREPAD_SHOTS", tmp_path))
        page.screenshot(shots / "dispute-phone.png")
        page.scroll_into_view("dispute-ruling")
        page.screenshot(shots / "dispute-phone-ruling.png")
        page.tap("dispute-back")
        page.wait_contains("dispute-where", "event 8 of 14")
        page.wait_contains("dispute-event", "Ann plays 4-1 right")
        assert page.exists("dispute-hand-1")
    finally:
        page.close()


def test_a_record_file_chosen_on_the_phone_opens_on_the_dispute_screen(
    chromium: Any, stored: tuple[AppServer, int], tmp_path: Path
) -> None:
    server, _match_id = stored
    page = TablePage(chromium, server.url, viewport=SMALL)
    page.open()
    try:
        page.tap("history")
        page.wait_for("dispute-record-file")
        with page.page.expect_file_chooser(timeout=20_000) as chooser:
            page.tap("dispute-record-file")
        chooser.value.set_files(str(RECORD.parent / "episcopal.json"))
        page.wait_contains("dispute-where", "event 1 of 4")
        for event in (2, 3, 4):
            page.tap("dispute-next")
            page.wait_contains("dispute-where", f"event {event} of 4")
        # 1 + 2 + 3 + the Sniff's last open short end, 4: Episcopal (Smartt §15).
        assert page.text("dispute-count").endswith("= 10")
        page.wait_contains("dispute-note-1", "Episcopal! a count of 10 with the ends 1, 2, 3 and 4")
        assert page.text("dispute-ruling") == "Hand 1 is still in play, Ann to move: Ann 0, Bob 10."
    finally:
        page.close()


def thumb_tap(page: TablePage, identifier: str) -> None:
    """Tap a control where it is, without scrolling: it must lie wholly inside the viewport."""
    box = page.page.locator(sel(identifier)).first.bounding_box()
    assert box is not None, f"{identifier} is not drawn"
    assert box["y"] >= 0 and box["y"] + box["height"] <= SMALL["height"], f"{identifier} is out of view: {box}"
    assert box["x"] >= 0 and box["x"] + box["width"] <= SMALL["width"], f"{identifier} is out of view: {box}"
    page.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def test_a_proved_renege_one_tap_from_the_findings_and_back_and_next_at_the_thumb(
    chromium: Any, long_hand: tuple[AppServer, int], tmp_path: Path
) -> None:
    server, match_id = long_hand
    page = TablePage(chromium, server.url, viewport=SMALL)
    page.open()
    try:
        page.tap("history")
        page.tap(f"dispute-{match_id}")
        page.wait_contains("dispute-where", "event 1 of 20")
        assert page.text("finding-0") == "Event 2 · Renege by Bob, proved"
        assert page.text("finding-0-pays") == "Bob pays"
        assert page.page.get_by_role("img", name="tile 3-5").count() == 1  # the evidence, as a tile
        thumb_tap(page, "finding-0")  # one tap: the event and the ruling it leads to
        page.wait_contains("dispute-where", "event 2 of 20")
        page.wait_contains("dispute-event", "Bob draws")
        ruling = page.text("finding-0-ruling")
        assert "The hand stops (Smartt §11.1). Bob goes back to 0 (start of hand) less 25 = -25" in ruling
        assert "Scores: Ann 40, Bob -25, instead of Ann 40, Bob 0." in ruling
        shots = Path(os.environ.get("SCOREPAD_SHOTS", tmp_path))
        page.screenshot(shots / "dispute-finding-phone.png")
        # Next to the end and Back to the start, each tap where the thumb is, at every event, after
        # reading the event down to its ruling (the foot of what scrolls), as a referee would.
        for event in range(3, 21):
            page.scroll_into_view("dispute-ruling")
            thumb_tap(page, "dispute-next")
            page.wait_contains("dispute-where", f"event {event} of 20")
        for event in range(19, -1, -1):
            page.scroll_into_view("dispute-ruling")
            thumb_tap(page, "dispute-back")
            page.wait_contains("dispute-where", f"event {event} of 20")
    finally:
        page.close()
