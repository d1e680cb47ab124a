"""The director's desk in Chromium, on a laptop (1280x800) and a phone (360x640), by tapping only.

Pair a round, print the table cards (a PDF download, a page a table), swap
two players' seats, reload the page and sign in again (the codes are gone:
only their hashes are stored), give every table a new code in one tap, then
at a table that played a hand settle it again and correct it, give a forfeit
and take it back, keep two players apart and withdraw one: each from a
table's or an entrant's menu, nothing typed but a reason, the figures of a
hand and the password. Every wait is on an element. With
SCOREPAD_SCREENSHOTS=DIR the desk is saved there at each size.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from scorepad.simulate import simulate
from scorepad.store import open_store
from scorepad.tournament import TournamentService
from tests.app.test_tournament_browser import (  # noqa: F401  (the fixtures: a server, Chromium, the pages)
    PASSWORD,
    PLAYERS,
    Pages,
    chromium,
    director_plays_table_one,
    pages,
    registered,
    shoot,
    tap_until,
)
from tests.browser import CHROMIUM, AppServer, TablePage

# The store tests' PostgreSQL fixtures (a fresh schema per test), as tests/tournament uses them.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from store.conftest import pg_base_url, pg_url  # noqa: F401

pytestmark = [
    pytest.mark.browser,
    pytest.mark.postgres,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"needs Debian's chromium at {CHROMIUM}"),
]

SIZES = {"laptop": {"width": 1280, "height": 800}, "phone": {"width": 360, "height": 640}}


@pytest.fixture
def served_pg(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[AppServer]:
    """A server on a fresh PostgreSQL schema: a hand entered by another process reaches the desk live."""
    renderer = "canvaskit" if os.environ.get("SCOREPAD_SCREENSHOTS") else None
    app = AppServer(request.getfixturevalue("pg_url"), renderer=renderer).start(
        log_path=tmp_path / "server.log", timeout=120
    )
    try:
        yield app
    finally:
        app.stop()


def play_a_hand_at_table_one(url: str, event_id: int) -> None:
    """Table 1 plays a hand that goes out (seat 1's two tiles counted 11 pips), as its phone would."""
    hand = simulate("smartt", 2, 200, 3, {})[0].to_record()["hands"][0]
    store = open_store(url)
    # This process serves no pages: its store alone tells the server of each entry (over PostgreSQL).
    try:
        director_plays_table_one(TournamentService(store), event_id, hand)
    finally:
        store.close()


def sign_in(director: TablePage) -> None:
    director.fill("password", PASSWORD)
    tap_until(director, "sign-in", lambda t: director.wait_for("event-title", timeout=t))


def menu(director: TablePage, opener: str, act: str) -> None:
    """Open a table's or an entrant's menu and tap one of its acts."""
    tap_until(director, opener, lambda t: director.wait_for(act, timeout=t))
    director.tap(act)


def code_of(director: TablePage, number: int) -> str:
    found = re.search(r"code (\d+-[A-Z0-9]+)", director.text(f"table-code-{number}"))
    assert found is not None, director.text(f"table-code-{number}")
    return found.group(1)


@pytest.mark.parametrize("size", list(SIZES))
def test_the_desk_runs_a_round_by_tapping(
    served_pg: AppServer,
    pages: Pages,  # noqa: F811  (the fixture)
    tmp_path: Path,
    size: str,
) -> None:
    app = served_pg
    event_id, _ = registered(app.db_url, "Club night", PLAYERS[:4], seed="desk")
    director = pages.open("director", app.url, f"event/{event_id}/director", ready="password", viewport=SIZES[size])
    sign_in(director)
    director.wait_contains("event-title", "no round paired yet")
    tap_until(director, "pair", lambda t: director.wait_contains("event-title", "round 1 of 2", timeout=t))
    director.wait_contains("message", "Round paired")
    first = code_of(director, 1)
    assert director.text("table-state-1") == "not started"
    # Every control of the desk is a full touch target.
    for identifier in ("table-menu-1", "entrant-menu-1", "cards", "lock"):
        assert director.scroll_into_view(identifier)["height"] >= 48, identifier
    shoot(director, f"desk-{size}-paired.png")

    # The table cards: a PDF with a page a table (two tables), offered as a download.
    with director.page.expect_download(timeout=30_000) as download:
        director.tap("cards")
    saved = tmp_path / "cards.pdf"
    download.value.save_as(saved)
    pdf = saved.read_bytes()
    assert pdf.startswith(b"%PDF") and len(re.findall(rb"/Type /Page\b", pdf)) == 2
    director.wait_contains("message", "Table cards for round 1: 2 pages")
    assert code_of(director, 1) == first, "the codes this page holds are printed as they are"

    # Swap two players' seats (before the first hand): the round is re-paired, with new codes.
    seated = director.text("table-1")
    menu(director, "entrant-menu-1", "repair-1")
    director.tap("repair-with-3")
    director.fill("repair-reason", "Ann's lift")
    tap_until(director, "repair", lambda t: director.wait_contains("message", "re-paired by hand", timeout=t))
    director.wait_contains("message", "Ann and Cy swap seats")
    assert director.text("table-1") != seated
    assert code_of(director, 1) != first

    # A reload goes back to the page's own session (Flet keeps it): the codes are still on screen.
    swapped = code_of(director, 1)
    director.reload(ready="table-code-1")
    assert code_of(director, 1) == swapped
    # A fresh sign-in (another tab, another device, a session that ended) has no codes, as only their
    # hashes are stored: one tap gives every table a new one, with its QR code.
    director = pages.open("again", app.url, f"event/{event_id}/director", ready="password", viewport=SIZES[size])
    sign_in(director)
    director.wait_contains("message", "Show every table's code again")
    assert not director.exists("table-code-1")
    tap_until(director, "codes-back", lambda t: director.wait_for("table-code-1", timeout=t))
    director.wait_contains("message", "2 tables have a new code")
    director.wait_for("table-qr-2")
    assert not director.exists("codes-back")
    shoot(director, f"desk-{size}-codes-back.png")

    # Table 1 plays a hand; the desk follows it. Settle it again (the engine refuses wrong figures), then correct it.
    play_a_hand_at_table_one(app.db_url, event_id)
    director.wait_text("table-state-1", "hand 1 finished", timeout=20)
    menu(director, "table-menu-1", "resettle-1")
    director.fill("resettle-seat-0", "0")
    director.fill("resettle-seat-1", "99")
    director.fill("resettle-reason", "the 2-2 was a 3-3")
    tap_until(director, "resettle", lambda t: director.wait_contains("message", "keeps its settlement", timeout=t))
    director.fill("resettle-seat-1", "14")
    tap_until(director, "resettle", lambda t: director.wait_contains("message", "is settled again", timeout=t))
    menu(director, "table-menu-1", "correct-1")
    director.fill("correct-reason", "a tile misread")
    tap_until(director, "correct", lambda t: director.wait_contains("message", "Table 1 corrected", timeout=t))
    director.wait_contains("audit", "(reason: a tile misread)")

    # A forfeit at table 2, from its menu, and taken back.
    players = director.text("table-2")
    loser = re.match(r"Table 2: (\w+) v", players)
    assert loser is not None, players
    tap_until(director, "table-menu-2", lambda t: director.wait_for("forfeit-2", timeout=t))
    shoot(director, f"desk-{size}-menu.png")
    director.tap("forfeit-2")
    director.tap("forfeit-loser-0")
    director.fill("forfeit-reason", "did not turn up")
    shoot(director, f"desk-{size}-forfeit-form.png")
    tap_until(director, "forfeit", lambda t: director.wait_contains("message", "Table 2 forfeited", timeout=t))
    director.wait_contains("message", f"forfeited by {loser.group(1)}")
    director.wait_text("table-state-2", "forfeit")
    menu(director, "table-menu-2", "unforfeit-2")
    director.fill("unforfeit-reason", "at the bar")
    tap_until(director, "unforfeit", lambda t: director.wait_contains("message", "is taken back", timeout=t))
    director.wait_text("table-state-2", "not started")

    # Keep Ann apart from Bob, then withdraw Dee: from their menus, the other player picked from a list.
    menu(director, "entrant-menu-1", "forbid-1")
    director.tap("forbid-with-2")
    director.fill("forbid-reason", "husband and wife")
    tap_until(director, "forbid", lambda t: director.wait_contains("message", "never be paired", timeout=t))
    director.wait_contains("entrant-where-1", "kept apart from Bob")
    menu(director, "entrant-menu-4", "withdraw-4")
    tap_until(director, "withdraw", lambda t: director.wait_contains("message", "Dee withdrawn", timeout=t))
    director.wait_contains("entrant-where-4", "withdrawn")
    shoot(director, f"desk-{size}-players.png")
    # The desk in a dark theme (the phone's own setting): the same page, the theme's colours.
    dark = TablePage(pages.browser, app.url, viewport=SIZES[size], color_scheme="dark")
    pages.opened["dark"] = dark
    dark.open(f"event/{event_id}/director", ready="password")
    sign_in(dark)
    tap_until(dark, "table-menu-1", lambda t: dark.wait_for("correct-1", timeout=t))
    shoot(dark, f"desk-{size}-dark.png")
