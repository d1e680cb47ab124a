"""A page that crashes is dead, in Debian's Chromium at 360x640: the sentence, the error id, Reload, and back to work.

The served score-pad gets a bug from ``tests/app/bug_shim`` (on the server's
``PYTHONPATH``, with ``SCOREPAD_TEST_BUG=6-6``: tapping the 6-6 raises);
nothing of it is in the score-pad itself.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from scorepad.store import open_store
from tests.app.test_browser import chromium  # noqa: F401  (one headless Chromium for the module)
from tests.app.test_live_server import new_match
from tests.browser import CHROMIUM, TablePage, sel
from tests.flet_client import WebServer

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason=f"needs Debian's chromium at {CHROMIUM} (apt-get install -y chromium)"
    ),
]

SHIM = Path(__file__).parent / "bug_shim"
SMALL_PHONE = {"width": 360, "height": 640}
DEAD = re.compile(
    r"Something went wrong on this page \(error ([0-9A-F]{6})\)\. "
    r"Nothing more can be entered here: reload the page to go on\."
)


def stored(db_url: str, match_id: int) -> tuple[Any, ...]:
    """The match's revision and audit as stored now."""
    store = open_store(db_url)
    try:
        return store.load(match_id).revision, store.audit(match_id)
    finally:
        store.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_crashed_page_says_so_offers_reload_and_reload_works(
    request: pytest.FixtureRequest, tmp_path: Path, scheme: str
) -> None:
    browser = request.getfixturevalue("chromium")
    db_url = f"sqlite:///{tmp_path / 'crash.db'}"
    match_id = new_match(db_url)
    server = WebServer(
        db_url, tmp_path / "server.log", env={"PYTHONPATH": str(SHIM), "SCOREPAD_TEST_BUG": "6-6"}
    ).start()
    page = TablePage(browser, server.url, viewport=SMALL_PHONE, color_scheme=scheme)
    try:
        page.open(f"/match/{match_id}", ready="tile-5-5")
        page.tap("tile-5-5")
        page.wait_text("board-count", "10")
        before = stored(db_url, match_id)

        page.tap("tile-6-6")  # the injected bug
        page.wait_for("page-dead")
        found = DEAD.fullmatch(page.text("page-dead"))
        assert found, page.text("page-dead")
        error_id = found.group(1)
        assert not page.exists("board-count") and not page.exists("undo")
        reload = page.page.locator(sel("reload")).first
        box = reload.bounding_box()
        assert box is not None and box["height"] >= 48 and box["width"] >= 48, box
        assert "Reload" in (reload.text_content() or "") or reload.get_attribute("aria-label") == "Reload"
        # Everything the page says (its accessibility tree: every text and label drawn).
        said = page.page.evaluate(
            "() => Array.from(document.querySelectorAll('flt-semantics'))"
            ".map(e => (e.textContent || '') + ' ' + (e.getAttribute('aria-label') || '')).join(' ')"
        )
        assert error_id in said
        for leak in ("Traceback", 'File "', ".py", "SELECT", "RuntimeError", "Error running app"):
            assert leak not in said, leak
        assert stored(db_url, match_id) == before
        log = server.log()
        assert f"(error {error_id})" in log and "Traceback" in log, log[-2000:]

        # A new page load at the same address, in the same tab; then the table (accessibility turned on again).
        with page.page.expect_navigation(timeout=30_000):
            page.tap("reload")
        page._wait_ready("board-count", 30)
        assert page.page.url.rstrip("/").endswith(f"/match/{match_id}")
        page.wait_text("board-count", "10")
        page.tap("tile-0-5")
        page.wait_text("turn", "Ann to play")
        assert not page.exists("page-dead")
        assert stored(db_url, match_id)[0] != before[0]
    finally:
        page.close()
        server.stop()
