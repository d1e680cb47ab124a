"""The table on a phone, end to end in Debian's Chromium (issue 8).

Whole hands at 360x640 and 1280x800: every call and claim on the last and the
winning tile, keystrokes and double taps that must not wedge the page, and a
layout check that what the next tap needs is on screen without scrolling.
"""

from __future__ import annotations

from typing import Any

import pytest

from scorepad.app.screens.common import COMPACT_PAD, TOUCH
from tests.browser import CHROMIUM, DESKTOP, AppServer, TablePage, sel

from .app_hands import GO_OUT_HAND, JAQUES_SCORING_GO_OUT
from .test_browser import chromium, lay, server  # noqa: F401 - the module's browser and app fixtures
from .test_tournament_browser import tap_until

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"needs Debian's chromium at {CHROMIUM}"),
]
SMALL = {"width": 360, "height": 640}
NEXT_TAP = ["board-count", "score-0", "score-1", "turn", "draw", "pass", "undo", "call-ok", "call-none"]
TILES = [f"tile-{a}-{b}" for a in range(7) for b in range(a, 7)]


def boxes(page: TablePage, identifiers: list[str]) -> dict[str, dict[str, float] | None]:
    """The bounding box of each identified node of the accessibility tree (None: not in the page)."""
    return {
        identifier: (page.page.locator(sel(identifier)).first.bounding_box() if page.exists(identifier) else None)
        for identifier in identifiers
    }


def off_screen(page: TablePage, identifiers: list[str]) -> list[str]:
    """The identifiers not wholly inside the viewport (or missing)."""
    view = page.page.viewport_size
    assert view is not None
    outside = []
    for identifier, box in boxes(page, identifiers).items():
        inside = (
            box is not None
            and box["x"] >= -0.5
            and box["y"] >= -0.5
            and box["x"] + box["width"] <= view["width"] + 0.5
            and box["y"] + box["height"] <= view["height"] + 0.5
        )
        if not inside:
            outside.append(f"{identifier} {box}")
    return outside


def open_new(chromium: Any, server: AppServer, viewport: dict[str, int], **form: str) -> TablePage:  # noqa: F811
    """A fresh page at ``viewport``, a new match with ``form`` (rules, target, muggins) started."""
    page = TablePage(chromium, server.url, viewport=viewport)
    page.open()
    page.tap("new-match")
    if "rules" in form:
        page.tap(f"rules-{form['rules']}")
        page.wait_contains("rules-summary", form["rules"].capitalize())  # the book as the summary names it
    if "target" in form:
        page.fill("target", form["target"])
    if form.get("muggins"):
        page.tap("muggins")
        page.wait_contains("rules-summary", "muggins")
    page.tap("start-match")
    page.wait_text("board-count", "0")
    return page


def test_at_360x640_the_header_the_whole_picker_and_the_call_row_need_no_scrolling(
    chromium: Any,  # noqa: F811
    server: AppServer,  # noqa: F811
) -> None:
    page = open_new(chromium, server, SMALL)
    lay(page, "5-5")
    lay(page, "0-5")  # a scoring play: the call row is up
    page.wait_for("call-ok")
    assert off_screen(page, NEXT_TAP + TILES + [f"call-{n}" for n in range(5, 40, 5)]) == []
    address = page.page.url.split("/", 3)[3]
    page.close()
    # The same match at the other sizes the issue names, and sideways: the picker and the call row stay in view.
    sideways = {"width": 640, "height": 360}
    for viewport in ({"width": 390, "height": 664}, {"width": 412, "height": 900}, DESKTOP, sideways):
        other = TablePage(chromium, server.url, viewport=viewport)
        other.open(address, ready="call-ok")
        assert off_screen(other, NEXT_TAP + TILES) == [], viewport
        other.close()


def test_sideways_the_actions_row_keeps_48_px_and_room_for_drew_2_plus_on_one_line(
    chromium: Any,  # noqa: F811
    server: AppServer,  # noqa: F811
) -> None:
    """At 640x360 the actions row is about 270 px wide: each button keeps 48 px, and the draw stepper
    keeps room for its label on one line (seen in screenshots: whole in 54 px of text room, wrapped in 50)."""
    sideways = {"width": 640, "height": 360}
    page = open_new(chromium, server, sideways, rules="american")
    page.wait_for("draw-more")
    found = boxes(page, ["draw", "draw-more", "pass", "undo", "redo"])
    for identifier, box in found.items():
        assert box is not None and box["width"] >= TOUCH and box["height"] >= TOUCH, (identifier, box)
    stepper = found["draw-more"]
    assert stepper is not None and stepper["width"] - 2 * COMPACT_PAD >= 52, stepper
    page.close()


def test_sideways_the_settlement_and_next_hand_take_the_pickers_place(
    chromium: Any,  # noqa: F811
    server: AppServer,  # noqa: F811
) -> None:
    """At 640x360, once Ann has gone out the pip fields stand where the picker stood, in view with no
    scrolling (under the call row in the narrow right column they began at y=570), and Undo heads
    the right column (under the call row it fell below the fold); after the settlement, Next hand
    takes that place too."""
    sideways = {"width": 640, "height": 360}
    page = open_new(chromium, server, sideways)
    for tile, at in GO_OUT_HAND:
        lay(page, tile, at)
    page.wait_for("remaining-1")
    found = boxes(page, ["remaining-0", "remaining-1", "remaining-tiles-1", "undo"])
    # A box cut by the window's edge is cut with it (the accessibility tree clips): whole means 48 high.
    assert off_screen(page, list(found)) == [] and all(
        b is not None and b["height"] >= TOUCH for b in found.values()
    ), found
    page.fill("remaining-1", "12")
    page.page.keyboard.press("Enter")  # the keyboard's Done settles once every figure is in
    page.wait_for("next-hand")
    assert off_screen(page, ["next-hand", "hand-result"]) == []
    page.close()


@pytest.mark.parametrize("viewport", [SMALL, {"width": 640, "height": 360}], ids=["360x640", "640x360"])
def test_while_a_seats_tiles_are_tapped_its_done_is_in_view(
    chromium: Any,  # noqa: F811
    server: AppServer,  # noqa: F811
    viewport: dict[str, int],
) -> None:
    """Tapping Bob's tiles in the picker, his Done is on screen beside the tiles (it was at y=756 at
    360x640, under the call row and the actions), and the tile tapped is counted."""
    page = open_new(chromium, server, viewport)
    for tile, at in GO_OUT_HAND:
        lay(page, tile, at)
    page.tap("remaining-tiles-1")
    page.wait_for("tapping")
    page.tap("tile-1-6")
    page.wait_contains("tapping", "1-6 = 7 pips")
    found = boxes(page, ["remaining-tiles-1", "tile-1-6"])
    assert off_screen(page, list(found)) == [] and all(
        b is not None and b["height"] >= TOUCH for b in found.values()
    ), found
    page.tap("remaining-tiles-1")
    page.wait_for("tapping", gone=True)
    page.wait_contains("settle-preview", "7 rounds to 5")
    page.close()


def test_a_jaques_hand_with_every_call_claim_keystroke_and_double_tap_at_360x640(
    chromium: Any,  # noqa: F811
    server: AppServer,  # noqa: F811
) -> None:
    page = open_new(chromium, server, SMALL, rules="jaques", muggins="on")
    for tile in JAQUES_SCORING_GO_OUT[:4]:
        lay(page, tile)
    # Hide never loses the call panel: it comes back with call-reopen.
    page.tap("call-close")
    page.wait_for("call-reopen")
    page.tap("call-reopen")
    page.wait_for("call-ok")
    # A double tap on Draw is one draw, said on the page and undone with one Undo.
    page.wait_contains("tiles-held", "boneyard 14")
    box = page.scroll_into_view("draw")
    page.page.mouse.dblclick(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_contains("last-entry", "drew 1 tile on this visit")
    page.wait_contains("tiles-held", "boneyard 13")
    page.tap("undo")
    page.wait_contains("tiles-held", "boneyard 14")
    for tile in JAQUES_SCORING_GO_OUT[4:-1]:
        lay(page, tile)
    before = (page.number("score-0"), page.number("score-1"))
    lay(page, JAQUES_SCORING_GO_OUT[-1])
    # Ann went out with a score; the call on that last tile is still open, and so is a claim.
    page.wait_contains("end-pending", "went out with 0-1")
    page.tap("call-none")
    page.wait_for("muggins-1")
    page.tap("muggins-1")
    page.wait_text("score-1", str(before[1] + 5))
    # Keystrokes that are not a pip total are answered in the player's name under the fields (no banner
    # that would move the field), never wedge the page.
    for typed in ("²", "⑧", "abc", "-5", "12.5", "99999"):
        page.fill("remaining-1", typed)
        page.wait_contains("settle-problem", "Bob holds 1 tile: ")
    page.tap("theme")  # the page still answers every tap
    page.fill("remaining-1", "6")
    page.wait_for("message", gone=True)
    page.wait_contains("settle-preview", "6 rounds to 5")
    # Tap tiles refuses a played tile by name and shows whose tiles and the pip sum.
    page.tap("remaining-tiles-1")
    page.wait_contains("tapping", "Tapping Bob's tiles (0 of 1)")
    # A tap that reaches the page while it is redrawn is dropped (``tap_until``): tapped again if nothing
    # came of it. None may have listed another tile: the count of Bob's tiles is still 0 after it.
    tap_until(page, "tile-5-6", lambda t: page.wait_contains("message", "5-6 has been played in this hand", timeout=t))
    page.wait_contains("tapping", "Tapping Bob's tiles (0 of 1)")
    page.tap("tile-1-5")
    page.wait_contains("tapping", "1-5 = 6 pips")
    page.tap("remaining-tiles-1")
    page.wait_for("tapping", gone=True)
    page.tap("settle")
    page.wait_for("hand-result")
    # Jaques: Ann's missed 5 went to Bob, then Bob's 6 pips round to 5 for Ann.
    assert (page.number("score-0"), page.number("score-1")) == (before[0] + 5, before[1] + 5)
    page.close()


def test_a_winning_play_not_called_is_lost_and_play_goes_on_at_1280x800(
    chromium: Any,  # noqa: F811
    server: AppServer,  # noqa: F811
) -> None:
    page = open_new(chromium, server, DESKTOP, target="20")
    for tile, at in GO_OUT_HAND[:3]:
        lay(page, tile, at)
    page.wait_contains("end-pending", "reached 20 with 0-0")
    page.wait_for("call-none")
    page.tap("call-none")  # Smartt §7.2: the 10 was not called, so it is lost
    page.wait_text("turn", "Bob to play")
    assert (page.number("score-0"), page.number("score-1")) == (10, 10)
    assert not page.exists("game-result")
    page.tap("undo")  # the amendment was one entry
    page.wait_contains("game-result", "Ann won game 1")
    page.tap("call-close")
    page.tap("call-reopen")
    page.wait_for("call-ok")
    page.tap("next-game")
    page.wait_text("turn", "Bob to set")
    page.close()


def test_the_page_can_be_zoomed(chromium: Any, server: AppServer) -> None:  # noqa: F811
    """Flutter writes user-scalable=no; the served shell keeps the viewport zoomable (issue 8)."""
    page = open_new(chromium, server, SMALL)
    try:
        contents = page.page.evaluate(
            "() => [...document.querySelectorAll('meta[name=\"viewport\"]')].map(m => m.content)"
        )
        assert contents, "the page has no viewport"
        assert all("user-scalable=no" not in c and "maximum-scale" not in c for c in contents), contents
    finally:
        page.close()
