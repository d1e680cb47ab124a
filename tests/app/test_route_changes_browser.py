"""In Chromium at 360x640: the browser's Back and Forward between the home screen and the New event form show
the page at each address (before, Back left the form on screen under the home screen's address)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser import CHROMIUM, AppServer, TablePage

from .test_browser import chromium  # noqa: F401 - the module's browser fixture
from .test_phone import SMALL

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"needs Debian's chromium at {CHROMIUM}"),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    folder: Path = tmp_path_factory.mktemp("routes")
    app = AppServer(f"sqlite:///{folder / 'routes.db'}").start(timeout=120, log_path=folder / "server.log")
    yield app
    app.stop()


def test_back_and_forward_between_home_and_the_new_event_form(chromium: Any, server: AppServer) -> None:  # noqa: F811
    page = TablePage(chromium, server.url, viewport=SMALL)
    page.open()
    page.tap("new-event")
    page.wait_for("create-event")
    page.page.wait_for_url("**/event/new", timeout=20_000)
    page.page.go_back()
    page.wait_for("new-match")
    page.wait_for("create-event", gone=True)
    page.page.go_forward()
    page.wait_for("create-event")
    page.wait_for("new-match", gone=True)
    page.close()
