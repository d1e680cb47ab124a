"""In Chromium at 360x640: irregularities at the table (issue 8, item 8), each previewed, saved and undone.

One whole hand: a misdeal before the set (Bob was dealt 6), a tile that stood
(its flag and the count it made), then the hand thrown in and the next hand
set by the same setter.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser import CHROMIUM, AppServer, TablePage, launch_chromium, sel

from .test_browser import lay, start

SMALL = {"width": 360, "height": 640}
SHOWN = ("board-count", "turn", "tiles-held", "message", "irregular-preview", "call-flags")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason=f"needs Debian's chromium at {CHROMIUM} (apt-get install -y chromium)"
    ),
]


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """One headless Chromium for the module."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        yield browser
        browser.close()


@pytest.fixture
def phone(chromium: Any, tmp_path: Path) -> Iterator[TablePage]:
    """The app on its own database, on a 360x640 page (what it showed is printed if the test fails)."""
    app = AppServer(f"sqlite:///{tmp_path / 'table.db'}").start(log_path=tmp_path / "server.log")
    page = TablePage(chromium, app.url, viewport=SMALL)
    try:
        page.open()
        yield page
    except BaseException:
        raise
    finally:
        page.close()
        app.stop()


def _said(page: TablePage) -> dict[str, str | None]:
    return {i: page.page.locator(sel(i)).first.text_content() for i in SHOWN if page.exists(i)}


def test_a_misdeal_a_tile_that_stood_and_a_hand_thrown_in(phone: TablePage, tmp_path: Path) -> None:
    try:
        start(phone)
        # Bob was dealt 6 tiles: he takes the missing one before the set (Smartt §11.4).
        phone.tap("irregular")
        phone.tap("misdeal")
        phone.tap("misdeal-seat-1")
        phone.wait_contains(
            "irregular-preview",
            "Misdeal: Bob was dealt one tile too few and takes the missing tile from the boneyard before the set",
        )
        phone.wait_contains("irregular-preview", "Bob holds 7 tiles")
        phone.tap("confirm-irregular")
        # The short deal and the tile taken: Bob holds what the deal gives.
        phone.wait_contains("tiles-held", "Ann 7 · Bob 7")
        phone.wait_text("turn", "Ann to set")

        # Ann sets 5-5; Bob lays 2-0 against the right 5 and nobody catches it (§11.5).
        lay(phone, "5-5")
        phone.wait_text("board-count", "10")
        phone.tap("irregular")
        phone.tap("stands")
        phone.tap("stands-at-right")
        phone.tap("stands-tile-0-2")
        phone.wait_contains("irregular-preview", "Tile stood: Bob's 0-2 stays on the 5-5 (long side, right)")
        phone.tap("stands-flip")
        phone.wait_contains("irregular-preview", "Bob's 2-0")
        phone.wait_contains("irregular-preview", "The board count is then 10: scores 10.")
        phone.tap("confirm-irregular")
        phone.wait_text("board-count", "10")
        phone.wait_text("score-1", "10")
        phone.wait_contains("call-flags", "stood")
        phone.wait_contains("tiles-held", "Bob 6")
        phone.wait_text("turn", "Ann to play")

        # Then the hand is thrown in (§11.3): every score back to the start of the hand.
        phone.tap("irregular")
        phone.tap("void")
        phone.wait_contains(
            "irregular-preview",
            "Throw in game 1, hand 1: every score goes back to its start-of-hand value and Ann sets again"
            " (Smartt §11.3).",
        )
        phone.tap("confirm-irregular")
        phone.wait_contains("hand-result", "thrown in")
        phone.wait_text("score-0", "0")
        phone.wait_text("score-1", "0")
        # Undo takes the throw-in back: the tile that stood and its 10 are there again.
        phone.tap("undo")  # TablePage.tap keeps the control clear of the sticky header
        phone.wait_text("score-1", "10")
        phone.wait_contains("call-flags", "stood")
    except BaseException:
        phone.screenshot(tmp_path / "failure.png")
        print(f"the page showed {_said(phone)}; screenshot {tmp_path / 'failure.png'}")
        raise
