"""In Chromium at 360x640: matches that belong to someone (issue 8, item 4 and 9).

Two browser contexts are two devices. A duplicate name is refused with a
sentence, a label is given on New match, a player is renamed after Start, and
Resume on each device opens that device's own match although another device's
match is newer.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser import CHROMIUM, AppServer, TablePage, _local_only, launch_chromium, sel

from .test_browser import lay

SMALL = {"width": 360, "height": 640}
SHOWN = ("board-count", "turn", "message", "resume-words")  # printed when a test fails

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
def server(tmp_path: Path) -> Iterator[AppServer]:
    """The app served on a free port with its own database."""
    app = AppServer(f"sqlite:///{tmp_path / 'table.db'}").start(log_path=tmp_path / "server.log")
    yield app
    app.stop()


def come_back(device: TablePage) -> None:
    """The same device opens the score-pad again later: a new tab, the same browser storage.

    (A reload would let Flet re-attach the tab to its old session, which is not
    what a scorer coming back to the table does.)
    """
    device.page.close()
    device.page = device.context.new_page()
    device.page.route("**/*", _local_only)
    device.open()


def _shots(tmp_path: Path, pages: list[TablePage]) -> None:
    """Keep a picture of each page beside the server log when a test fails."""
    for n, page in enumerate(pages):
        page.screenshot(tmp_path / f"failure-{n}.png")
        shown = {i: page.page.locator(sel(i)).first.text_content() for i in SHOWN if page.exists(i)}
        print(f"page {n} at {page.page.url}: {shown}")
    print(f"screenshots in {tmp_path}")


def test_names_labels_and_each_devices_own_resume(chromium: Any, server: AppServer, tmp_path: Path) -> None:
    ann_phone = TablePage(chromium, server.url, viewport=SMALL)
    other_phone = TablePage(chromium, server.url, viewport=SMALL)
    try:
        ann_phone.open()
        ann_phone.tap("new-match")
        ann_phone.fill("name-1", "ann ")
        ann_phone.fill("match-label", "Table 1")
        ann_phone.tap("start-match")
        ann_phone.wait_contains("message", "Two players are called ann: give each player a different name.")
        assert not ann_phone.exists("board-count")
        ann_phone.fill("name-1", "Bbo")
        ann_phone.tap("start-match")
        ann_phone.wait_text("board-count", "0")
        lay(ann_phone, "6-4")
        ann_phone.wait_text("board-count", "10")

        # Bbo was mistyped: put right after Start, on the score sheet.
        ann_phone.tap("show-sheet")
        ann_phone.fill("rename-1", "Bob")
        ann_phone.tap("save-names")
        ann_phone.wait_contains("message", "Names saved.")
        ann_phone.tap("show-table")
        ann_phone.wait_text("turn", "Bob to play")
        # The page goes on writing after the rename (it is not told another screen changed the match).
        lay(ann_phone, "4-1")
        ann_phone.wait_text("board-count", "7")
        assert not ann_phone.exists("message")

        # Another table starts a match later: it is the newest on the server.
        other_phone.open()
        other_phone.tap("new-match")
        other_phone.fill("name-0", "Cy")
        other_phone.fill("name-1", "Di")
        other_phone.tap("start-match")
        other_phone.wait_text("board-count", "0")
        lay(other_phone, "3-3")
        other_phone.wait_text("board-count", "6")

        # Each device resumes its own match, not the newest one.
        come_back(ann_phone)
        ann_phone.wait_contains("resume-words", "Table 1 · Ann, Bob")
        ann_phone.tap("resume-latest")
        ann_phone.wait_text("board-count", "7")
        assert ann_phone.text("turn") == "Ann to play"
        come_back(other_phone)
        other_phone.wait_contains("resume-words", "Cy, Di")
        other_phone.tap("resume-latest")
        other_phone.wait_text("board-count", "6")
        assert other_phone.text("turn") == "Di to play"

        # The history tells them apart by label and filters by player.
        come_back(ann_phone)
        ann_phone.wait_contains("resume-words", "Table 1")  # the browser's storage has answered
        ann_phone.tap("history")
        ann_phone.fill("filter-player", "cy")
        ann_phone.wait_for("match-1", gone=True)
        assert ann_phone.text("match-2").startswith("Cy, Di · Smartt")
        ann_phone.fill("filter-player", "")
        ann_phone.wait_contains("match-1", "Table 1 · Ann, Bob · Smartt")
    except BaseException:
        _shots(tmp_path, [ann_phone, other_phone])
        raise
    finally:
        ann_phone.close()
        other_phone.close()
