"""A small event in Chromium: director, one table's phone, the hall screen (1920x1080), on one server.

The event is created in the store first (the web has no creation form
yet); everything after goes through the pages: the director signs in
(after a wrong password), registers eight players, pairs round 1 (four
tables); table 1's phone joins by its code, plays a hand and the opposing
side confirms it; the hall page updates (the delay is measured); the
director corrects the settlement with a reason, the standings change and
the audit shows the correction; the round is locked and round 2 pairs with
no rematch. Every wait is on an element. With SCOREPAD_SCREENSHOTS=DIR the
screens are saved there.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from scorepad.store import open_store
from scorepad.tournament import TournamentService
from tests.app.app_hands import GO_OUT_HAND
from tests.browser import CHROMIUM, PHONE, AppServer, TablePage, launch_chromium, sel

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason=f"needs Debian's chromium at {CHROMIUM} (apt-get install -y chromium)"
    ),
]

PASSWORD = "a long director password"
PLAYERS = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal")
HALL = {"width": 1920, "height": 1080}
DIRECTOR = {"width": 1280, "height": 1000}
# The hall must show a confirmed hand within this many seconds (issue 9 §6).
HALL_SECONDS = 2.0


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[AppServer, int]]:
    """A server on a fresh SQLite file holding one 2-round singles event."""
    url = f"sqlite:///{tmp_path / 'event.db'}"
    store = open_store(url)
    try:
        event_id = TournamentService(store).create_event(
            name="Club night", password=PASSWORD, rounds=2, rules="smartt", kind="singles", seed="browser"
        )
    finally:
        store.close()
    renderer = "canvaskit" if os.environ.get("SCOREPAD_SCREENSHOTS") else None
    app = AppServer(url, renderer=renderer).start(log_path=tmp_path / "server.log")
    try:
        yield app, event_id
    finally:
        app.stop()


@pytest.fixture
def chromium() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        yield browser
        browser.close()


def tap_until(page: TablePage, identifier: str, done: Callable[[float], None], *, tries: int = 3) -> None:
    """Tap, then wait for ``done(timeout)`` to see the tap's effect; tap again if it never came.

    A tap that reaches the page while it is being redrawn is dropped by design
    (``common.tappable``); the tournament pages redraw whole, so a test taps again.
    """
    for attempt in range(tries):
        page.tap(identifier)
        try:
            done(8.0 if attempt < tries - 1 else 20.0)
            return
        except Exception:
            if attempt == tries - 1:
                raise


def lay(page: TablePage, tile: str) -> None:
    """Tap a tile and wait until the picker marks it played (or the hand is over)."""
    low, high = sorted(int(v) for v in tile.split("-"))
    name = f"tile-{low}-{high}"

    def played(timeout: float) -> None:
        page.page.wait_for_function(
            "s => { const e = document.querySelector(s);"
            " return e === null || ((e.getAttribute('aria-label') || '') + e.textContent).includes('played'); }",
            arg=sel(name),
            timeout=timeout * 1000,
        )

    tap_until(page, name, played)


def pairs_of(director: TablePage, tables: int) -> list[frozenset[str]]:
    """Each table's two names as the director's screen shows them."""
    out = []
    for number in range(1, tables + 1):
        text = director.text(f"table-{number}")
        names = re.match(r"Table \d+: (\w+) v (\w+)", text)
        assert names is not None, text
        out.append(frozenset(names.groups()))
    return out


def shoot(page: TablePage, name: str) -> None:
    folder = os.environ.get("SCOREPAD_SCREENSHOTS")
    if folder:
        page.page.wait_for_timeout(400)  # the frame after the last change (compared by eye, not by test)
        page.screenshot(Path(folder) / name)


@pytest.fixture
def pages(chromium: Any, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[dict[str, TablePage]]:
    """The test's pages by name; on failure each one's screenshot is kept in the test's folder."""
    opened: dict[str, TablePage] = {}
    yield opened
    report = getattr(request.node, "rep_call", None)
    for name, page in opened.items():
        if report is not None and report.failed:
            page.screenshot(tmp_path / f"failure-{name}.png")
        page.close()


def test_a_small_event_from_sign_in_to_round_two(
    chromium: Any, served: tuple[AppServer, int], pages: dict[str, TablePage]
) -> None:
    app, event_id = served
    base = f"event/{event_id}"
    director = TablePage(chromium, app.url, viewport=DIRECTOR)
    pages["director"] = director
    director.open(f"{base}/director", ready="password")
    director.fill("password", "not it")
    director.tap("sign-in")
    director.wait_contains("message", "password")
    director.fill("password", PASSWORD)
    director.tap("sign-in")
    director.wait_contains("event-title", "Club night: no round paired yet")
    for name in PLAYERS:
        director.fill("player", name)
        director.tap("register")
        director.wait_contains("message", f"{name} registered")
    director.wait_contains("entrants", "Hal")
    director.tap("pair")
    director.wait_contains("event-title", "round 1 of 2")
    first = pairs_of(director, 4)
    code = re.search(r"code (\d-[A-Z0-9]+)", director.text("table-1"))
    assert code is not None, director.text("table-1")
    shoot(director, "tournament-director.png")

    hall = TablePage(chromium, app.url, viewport=HALL)
    pages["hall"] = hall
    hall.open(f"{base}/hall", ready="hall-title")
    hall.wait_contains("hall-title", "round 1 of 2")
    hall.wait_text("hall-provisional", "0 tables provisional")

    watcher = TablePage(chromium, app.url, viewport=PHONE)
    pages["watcher"] = watcher
    watcher.open(f"{base}/watch/1?delay=1", ready="watch-title")
    watcher.wait_contains("watch-title", "(1 s behind)")

    table = TablePage(chromium, app.url, viewport=PHONE)
    pages["table"] = table
    table.open(f"{base}/table", ready="table-code")
    table.fill("table-code", "1-WRONG1")
    table.tap("join")
    table.wait_for("message")
    table.fill("table-code", code.group(1))
    table.tap("join")
    table.wait_for("table-title")
    for _ in range(3):
        # The first setter, then the first hand (either tap may be dropped mid-redraw: both again).
        table.tap("setter-0")
        try:
            tap_until(table, "next-hand", lambda t: table.wait_contains("turn", "to set", timeout=t), tries=1)
            break
        except Exception:
            continue
    table.wait_contains("turn", "to set")
    for tile, _at in GO_OUT_HAND:
        lay(table, tile)
    table.fill("remaining-1", "8")
    table.wait_contains("settle-preview", "8 rounds to 10")
    tap_until(table, "settle", lambda t: table.wait_contains("hand-result", "8 rounds to 10", timeout=t))
    # The next hand waits for the opposing side: its button is refused by the server until then.
    table.wait_for("confirm-hand")
    table.wait_contains("provisional", "provisional until")
    hall.wait_text("hall-provisional", "1 table provisional")
    # The spectator follows tile by tile, a second behind: the whole hand and its scores.
    setter = re.match(r"Table 1: (\w+) v", director.text("table-1"))
    assert setter is not None
    watcher.wait_contains("watch-lines", f"Scores: {setter.group(1)} 50,", timeout=20)
    shoot(table, "tournament-table.png")
    tap_until(table, "next-hand", lambda t: table.wait_contains("message", "confirmation first", timeout=t))
    assert table.exists("confirm-hand")
    tapped = [0.0]

    def confirmed(timeout: float) -> None:
        table.wait_for("confirm-hand", gone=True, timeout=timeout)

    def tap_confirm() -> None:
        # The delay is timed from the click itself, not from finding the button on screen.
        box = table.scroll_into_view("confirm-hand")
        tapped[0] = time.monotonic()
        table.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)

    for attempt in range(3):
        tap_confirm()
        try:
            confirmed(8.0 if attempt < 2 else 20.0)
            break
        except Exception:
            if attempt == 2:
                raise
    hall.wait_text("hall-provisional", "0 tables provisional", timeout=20)
    hall_delay = time.monotonic() - tapped[0]
    shoot(hall, "tournament-hall.png")
    print(f"hall updated {hall_delay * 1000:.0f} ms after the confirmation tap")
    assert hall_delay < HALL_SECONDS, f"the hall took {hall_delay:.2f} s"

    # The director sees the confirmed result, then corrects the settlement with a reason.
    director.wait_contains("table-1", "1 confirmed")  # the director's page has followed the confirmation
    director.wait_contains("standings", "gp")
    before = director.text("standings")
    director.fill("correct-table", "1")
    director.fill("correct-reason", "remaining pips misread")
    director.tap("correct")
    director.wait_contains("message", "Table 1 corrected")
    director.wait_contains("audit", "correct table 1 - remaining pips misread")
    after = director.text("standings")
    assert after != before
    table.wait_for("settle", timeout=20)  # the phone follows: the hand waits for its settlement again

    # Lock (a reason, the other tables never played) and pair round 2: nobody meets again.
    director.fill("lock-reason", "club closing")
    tap_until(director, "lock", lambda t: director.wait_contains("message", "Round locked", timeout=t))
    tap_until(director, "pair", lambda t: director.wait_contains("event-title", "round 2 of 2", timeout=t))
    second = pairs_of(director, 4)
    assert not set(first) & set(second), (first, second)


def test_the_director_gives_a_forfeit_from_the_page(
    chromium: Any, served: tuple[AppServer, int], pages: dict[str, TablePage]
) -> None:
    app, event_id = served
    director = TablePage(chromium, app.url, viewport=DIRECTOR)
    pages["director"] = director
    director.open(f"event/{event_id}/director", ready="password")
    director.fill("password", PASSWORD)
    director.tap("sign-in")
    director.wait_contains("event-title", "no round paired yet")
    for name in PLAYERS[:4]:
        director.fill("player", name)
        director.tap("register")
        director.wait_contains("message", f"{name} registered")
    director.tap("pair")
    director.wait_contains("event-title", "round 1 of 2")
    absent = re.match(r"Table 2: (\w+) v (\w+)", director.text("table-2"))
    assert absent is not None, director.text("table-2")
    director.fill("forfeit-table", "2")
    director.fill("forfeit-losers", absent.group(1))
    director.fill("forfeit-reason", "did not turn up")
    tap_until(director, "forfeit", lambda t: director.wait_contains("message", "Table 2 forfeited", timeout=t))
    director.wait_contains("table-2", f"forfeited by {absent.group(1)} (did not turn up)")
    director.wait_contains("audit", "forfeit table 2 - did not turn up")
    director.wait_contains("standings", "R1 2 (forfeit win)")
