"""End to end in Debian's Chromium: the served page driven only by its semantic identifiers.

Each test starts ``python -m scorepad.app web`` on 127.0.0.1 with its own SQLite
file, with no CDN (every request that does not go to 127.0.0.1 is aborted,
except in the test that shows the page asks for nothing off this machine).
"""

from __future__ import annotations

import socketserver
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser import CHROMIUM, DESKTOP, PHONE, AppServer, TablePage, launch_chromium, sel

from .app_hands import GO_OUT_COUNTS, GO_OUT_HAND

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


@pytest.fixture
def table(chromium: Any, server: AppServer, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TablePage]:
    """A phone-sized page on the app's home screen (on failure, a screenshot is kept beside the server log)."""
    page = TablePage(chromium, server.url, viewport=PHONE)
    page.open()
    yield page
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        shot = tmp_path / "failure.png"
        page.screenshot(shot)
        print(f"screenshot: {shot}; server log: {server.log_path}")
    page.close()


def start(page: TablePage, *, players: int = 2) -> None:
    """New match with the defaults (or another player count), then Start."""
    page.tap("new-match")
    if players != 2:
        page.tap(f"players-{players}")
        page.wait_contains("rules-summary", f"{players} players")
    page.tap("start-match")
    page.wait_text("board-count", "0")


def lay(page: TablePage, tile: str, at: str | None = None) -> None:
    """Tap the tile laid (and its end), then wait until the page shows it played."""
    low, high = sorted(int(v) for v in tile.split("-"))
    name = f"tile-{low}-{high}"
    page.tap(name)
    if at is not None:
        page.tap(f"at-{at}")
    # Played: the picker marks the tile, or (the hand over) the picker has gone.
    page.page.wait_for_function(
        "s => { const e = document.querySelector(s);"
        " return e === null || ((e.getAttribute('aria-label') || '') + e.textContent).includes('played'); }",
        arg=sel(name),
        timeout=20_000,
    )


def test_a_two_player_smartt_hand_from_the_set_to_a_go_out_settlement(table: TablePage) -> None:
    start(table)
    assert table.text("turn") == "Ann to set"
    assert table.page.get_attribute(sel("board-count"), "role") is None, "the count is text, not a button"
    for (tile, at), count in zip(GO_OUT_HAND[:4], GO_OUT_COUNTS, strict=False):
        lay(table, tile, at)
        table.wait_text("board-count", str(count))
    assert (table.number("score-0"), table.number("score-1")) == (20, 10)
    table.tap("board-count")
    table.wait_contains("count-breakdown", "= 11")
    # A wrong tile entered by mistake is taken back.
    lay(table, "2-5")
    table.wait_text("board-count", "13")
    table.tap("undo")
    table.wait_text("board-count", str(GO_OUT_COUNTS[3]))
    for (tile, at), count in zip(GO_OUT_HAND[4:], GO_OUT_COUNTS[4:], strict=True):
        lay(table, tile, at)
        table.wait_text("board-count", str(count))
    assert (table.number("score-0"), table.number("score-1")) == (40, 10)
    table.fill("remaining-1", "8")
    table.wait_contains("settle-preview", "8 rounds to 10")
    table.tap("settle")
    table.wait_contains("hand-result", "8 rounds to 10")
    assert "Ann went out" in table.text("hand-result")
    table.wait_text("score-0", "50")
    table.tap("next-hand")
    table.wait_text("turn", "Bob to set")
    assert (table.number("score-0"), table.number("score-1")) == (50, 10)


def block_four(page: TablePage) -> None:
    """A four-player hand blocked after the set: each player draws the two allowed and passes."""
    start(page, players=4)
    lay(page, "6-6")
    for seat in (1, 2, 3, 0):
        page.wait_contains("turn", "to play")
        page.tap("draw")
        page.wait_contains("boneyard", "may draw 1")
        page.tap("draw")
        page.wait_contains("boneyard", "may draw 0")
        page.tap("pass")
        if seat != 0:
            page.wait_contains("boneyard", "may draw 2")
    page.wait_for("settle")


def test_a_four_player_partnership_hand_that_blocks(table: TablePage) -> None:
    block_four(table)
    for seat, pips in enumerate((20, 30, 25, 28)):
        table.fill(f"remaining-{seat}", str(pips))
    table.wait_contains("settle-preview", "rounds to 60")
    table.tap("settle")
    table.wait_contains("hand-result", "The hand is blocked")
    assert "58 rounds to 60" in table.text("hand-result")
    table.wait_text("score-0", "60")
    assert table.number("score-1") == 0


def test_a_renege_is_previewed_then_rolled_back(table: TablePage) -> None:
    start(table)
    for tile, at in GO_OUT_HAND[:3]:
        lay(table, tile, at)
    table.wait_text("score-0", "20")
    assert table.number("score-1") == 10
    table.tap("renege")
    table.tap("offender-1")
    table.wait_contains("renege-preview", "less 25 = -25")
    assert table.number("score-1") == 10, "nothing changes before the renege is confirmed"
    table.tap("confirm-renege")
    table.wait_text("score-1", "-25")
    assert table.number("score-0") == 20
    assert "Renege by Bob" in table.text("hand-result")


def test_a_game_won_shows_the_result_and_starts_the_next_game(table: TablePage) -> None:
    table.tap("new-match")
    table.fill("target", "20")
    table.wait_contains("rules-summary", "to 20")
    table.tap("start-match")
    table.wait_text("board-count", "0")
    for tile, at in GO_OUT_HAND[:3]:
        lay(table, tile, at)
    table.wait_contains("game-result", "Ann won game 1")
    result = table.text("game-result")
    assert "Final scores: Ann 20, Bob 10" in result and "Game points: 14" in result and "Rubed: Bob" in result
    table.tap("next-game")
    table.wait_text("score-0", "0")
    assert table.number("score-1") == 0
    assert table.text("turn") == "Bob to set"


def test_the_draw_for_the_set_chooses_who_sets(table: TablePage) -> None:
    table.tap("new-match")
    table.tap("draw-for-set")
    table.fill("drawn-0", "1-2")
    table.fill("drawn-1", "6-6")
    table.tap("draw-decide")
    table.wait_contains("draw-result", "Bob sets first")
    table.tap("start-match")
    table.wait_text("turn", "Bob to set")


def test_a_reload_and_a_server_restart_mid_hand_lose_nothing(table: TablePage, server: AppServer) -> None:
    start(table)
    for tile, at in GO_OUT_HAND[:5]:
        lay(table, tile, at)
    table.tap("draw")
    table.wait_contains("boneyard", "may draw 1")
    expected = (table.text("board-count"), table.text("score-0"), table.text("score-1"), table.text("turn"))
    assert expected == ("12", "20", "10", "Bob to play")

    table.reload(ready="board-count")
    table.wait_text("board-count", "12")
    assert (table.text("score-0"), table.text("score-1"), table.text("turn")) == expected[1:]
    assert "may draw 1" in table.text("boneyard")

    server.stop()
    server.start()
    table.reload(ready="board-count")
    table.wait_text("board-count", "12")
    assert (table.text("score-0"), table.text("score-1"), table.text("turn")) == expected[1:]
    lay(table, "1-2")
    table.wait_text("board-count", "12")
    assert table.text("turn") == "Ann to play"


def test_a_second_screen_on_the_match_follows_each_entry(chromium: Any, server: AppServer) -> None:
    scorer = TablePage(chromium, server.url, viewport=PHONE)
    scorer.open()
    start(scorer)
    watcher = TablePage(chromium, server.url, viewport=DESKTOP)
    # Another device opens the match from the history (Resume is only for this device's own match).
    watcher.open()
    watcher.tap("history")
    watcher.tap("open-1")
    watcher.wait_text("board-count", "0")
    lay(scorer, "4-6")
    watcher.wait_text("board-count", "10")
    watcher.wait_text("score-0", "10")
    scorer.close()
    watcher.close()


def test_a_match_by_address_and_the_desktop_layout(chromium: Any, server: AppServer) -> None:
    phone = TablePage(chromium, server.url, viewport=PHONE)
    phone.open()
    start(phone)
    lay(phone, "4-6")
    phone.close()
    desk = TablePage(chromium, server.url, viewport=DESKTOP, color_scheme="dark")
    # The match's address opens it on any device (Resume is the device's own: test_matches_browser.py).
    desk.open("/match/1", ready="board-count")
    desk.wait_text("board-count", "10")
    assert desk.number("score-0") == 10
    desk.close()


class RecordingProxy:
    """A stand-in for the internet: an HTTP proxy on 127.0.0.1 that records each request line and refuses it.

    A page whose context uses it can reach nothing off this machine, and every
    attempt to is written down here.
    """

    def __init__(self) -> None:
        self.seen: list[str] = []
        self.heard = threading.Event()  # set at the first request
        self.server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        """The proxy's address for the browser."""
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def _handler(self) -> type[socketserver.StreamRequestHandler]:
        seen, heard = self.seen, self.heard

        class Handler(socketserver.StreamRequestHandler):
            def handle(self) -> None:
                seen.append(self.rfile.readline().decode("latin-1").strip())
                heard.set()
                self.wfile.write(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")

        return Handler

    def close(self) -> None:
        """Stop listening."""
        self.server.shutdown()
        self.server.server_close()


def _local(url: str) -> bool:
    return url.startswith(("http://127.0.0.1:", "ws://127.0.0.1:", "blob:", "data:"))


def test_the_page_requests_nothing_from_off_this_machine(chromium: Any, server: AppServer) -> None:
    """Nothing routed or aborted by the test: the page itself asks for nothing off this machine.

    The Flet 1.0.5 client adds a script tag for rive_native.js from jsdelivr;
    the server's Content-Security-Policy makes Chromium refuse it before any
    connection (the request is reported, then fails with the reason "csp").
    The context's proxy stands for the internet and must hear nothing from the page.
    """
    proxy = RecordingProxy()
    page = TablePage(chromium, server.url, viewport=PHONE, local_only=False, proxy=proxy.url)
    requested: list[str] = []
    refused_by_policy: list[str] = []
    answered: list[str] = []
    page.page.on("request", lambda r: requested.append(r.url))
    page.page.on("requestfailed", lambda r: refused_by_policy.append(r.url) if r.failure == "csp" else None)
    page.page.on("response", lambda r: answered.append(r.url))
    try:
        page.open()
        start(page)
        lay(page, "5-5")
        page.wait_text("board-count", "10")
        # Every request the page makes by itself has been made once the network is quiet.
        page.page.wait_for_load_state("networkidle")
        assert requested and all(_local(url) for url in answered), answered
        off_machine = [url for url in requested if not _local(url)]
        assert all(url in refused_by_policy for url in off_machine), (off_machine, refused_by_policy)
        assert proxy.seen == [], f"the page reached for the internet: {proxy.seen}"
        # The witness works: a request the policy does not cover reaches the proxy.
        blank = page.context.new_page()
        blank.evaluate("fetch('http://offline.invalid/witness').catch(() => null)")
        assert proxy.heard.wait(timeout=20), "the witness's request never reached the proxy"
        assert proxy.seen == ["GET http://offline.invalid/witness HTTP/1.1"], proxy.seen
    finally:
        page.close()
        proxy.close()


def test_identifiers_sit_on_the_controls_that_act(table: TablePage) -> None:
    """A click sent straight to the identified element (as a screen reader does) presses it."""
    for identifier in ("new-match", "resume-latest", "history"):
        assert table.page.get_attribute(sel(identifier), "role") == "button", identifier
    table.page.locator(sel("new-match")).evaluate("e => e.click()")
    table.wait_for("start-match")
    assert table.page.get_attribute(sel("players-3"), "role") == "button"
    table.page.locator(sel("start-match")).evaluate("e => e.click()")
    table.wait_text("board-count", "0")
    for identifier in ("tile-0-0", "tile-5-6", "draw", "pass", "undo", "redo", "renege"):
        assert table.page.get_attribute(sel(identifier), "role") == "button", identifier
    table.page.locator(sel("tile-4-6")).evaluate("e => e.click()")
    table.wait_text("board-count", "10")
    table.page.locator(sel("undo")).evaluate("e => e.click()")
    table.wait_text("board-count", "0")
