"""The table at 360x640 keeps still under the thumb (issue 19): fields keep their keystrokes,
numbers fit, refusals and the next tap stay in view, a new form starts fresh, old notices go."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser import CHROMIUM, DESKTOP, AppServer, TablePage, sel

from .app_hands import GO_OUT_HAND, JAQUES_SCORING_GO_OUT
from .test_browser import block_four, chromium, lay, start  # noqa: F401 - the module's browser fixture
from .test_phone import SMALL, off_screen, open_new

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"needs Debian's chromium at {CHROMIUM}"),
]
KEY_DELAY = 60  # ms between keystrokes, a quick thumb
# The layout items are checked at the three sizes: the small phone, a common phone and a desktop.
SIZES = [
    pytest.param(SMALL, id="360x640"),
    pytest.param({"width": 390, "height": 664}, id="390x664"),
    pytest.param(DESKTOP, id="1280x800"),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    """One app server for the module (each test opens its own page, so its own session and matches).

    Started once, with time to spare: the machine is shared and a start can take 30 s when it is busy.
    """
    folder: Path = tmp_path_factory.mktemp("steady")
    app = AppServer(f"sqlite:///{folder / 'table.db'}").start(timeout=120, log_path=folder / "server.log")
    yield app
    app.stop()


def small_page(chromium: Any, server: AppServer, viewport: dict[str, int] = SMALL) -> TablePage:  # noqa: F811
    """A fresh page on the home screen, 360x640 unless told."""
    page = TablePage(chromium, server.url, viewport=viewport)
    page.open()
    return page


def type_into(page: TablePage, identifier: str, keys: str) -> None:
    """Tap a text field and, once it has the keyboard, type ``keys`` one key at a time, as a thumb does."""
    page.take_field(identifier)
    page.page.keyboard.type(keys, delay=KEY_DELAY)


def field_value(page: TablePage, identifier: str) -> str:
    """What the text field with this identifier holds now."""
    return str(page.page.locator(f"{sel(identifier)} input, {sel(identifier)} textarea").first.input_value())


def test_every_seat_s_pip_field_takes_two_digits_typed_quickly(chromium: Any, server: AppServer) -> None:  # noqa: F811
    """Item 2: "29" at 60 ms a key stays "29" in each field; the field is not moved or rebuilt."""
    page = small_page(chromium, server)
    block_four(page)
    for seat in range(4):
        type_into(page, f"remaining-{seat}", "29")
        page.page.wait_for_function(
            "([s, want]) => { const e = document.querySelector(s + ' input'); return e !== null && e.value === want; }",
            arg=[sel(f"remaining-{seat}"), "29"],
            timeout=5_000,
        )
        assert field_value(page, f"remaining-{seat}") == "29", seat
    # Every total reached the view-model whole: the preview replaces what was wrong, and Settle takes it.
    page.wait_for("settle-preview")
    assert not page.exists("settle-problem"), page.text("settle-problem")
    page.tap("settle")
    page.wait_contains("hand-result", "The hand is blocked")
    page.close()


def inside(inner: dict[str, float] | None, outer: dict[str, float] | None) -> bool:
    """Whether box ``inner`` lies wholly within box ``outer`` (half a pixel of rounding allowed)."""
    if inner is None or outer is None:
        return False
    return (
        inner["x"] >= outer["x"] - 0.5
        and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 0.5
        and inner["y"] >= outer["y"] - 0.5
    )


def box(page: TablePage, identifier: str) -> dict[str, float] | None:
    """The box of the identified control (None: not drawn)."""
    page.wait_for(identifier)
    found: dict[str, float] | None = page.page.locator(sel(identifier)).first.bounding_box()
    return found


@pytest.mark.parametrize("viewport", SIZES)
@pytest.mark.parametrize("players", [3, 4])
def test_three_and_four_score_cards_show_whole_numbers(
    chromium: Any,  # noqa: F811
    server: AppServer,
    players: int,
    viewport: dict[str, int],
) -> None:
    """Item 4: at 360 px (and wider) each side's "needs 250" ends before the next card (or the screen's edge)."""
    page = small_page(chromium, server, viewport)
    page.tap("new-match")
    page.tap(f"players-{players}")
    page.wait_contains("rules-summary", f"{players} players")
    if players == 4:
        page.tap("partners")  # four sides: every player for himself
        page.wait_for("name-3")
        page.page.wait_for_function(
            "s => !document.querySelector(s).textContent.includes(' against ')", arg=sel("rules-summary")
        )
    page.tap("start-match")
    page.wait_text("board-count", "0")
    width = viewport["width"]
    for side in range(players):
        page.wait_text(f"needs-{side}", "needs 250")
        needs, score = box(page, f"needs-{side}"), box(page, f"score-{side}")
        assert needs is not None and score is not None
        # The page's accessibility tree cannot show a clipped glyph ("needs 25(" has the whole text):
        # what it shows is where the words are. Beside the score a quarter of 360 px left "needs 250"
        # about 50 px; on a line of its own under the score it has the card's whole width.
        assert needs["y"] >= score["y"] + score["height"] - 1, (side, needs, score)
        # The next card's score starts at least its padding further on: "needs 25(" ran under it.
        edge = box(page, f"score-{side + 1}")["x"] if side + 1 < players else width  # type: ignore[index]
        assert needs["x"] + needs["width"] <= edge - 2, (side, needs, edge)
    page.close()


def in_view(page: TablePage, identifier: str) -> None:
    """Fail unless the identified control is wholly inside the viewport, as the page stands (no scrolling)."""
    assert off_screen(page, [identifier]) == [], identifier


@pytest.mark.parametrize("viewport", SIZES)
def test_refusals_are_shown_where_the_tap_was(chromium: Any, server: AppServer, viewport: dict[str, int]) -> None:  # noqa: F811
    """Item 7: the renege panel's and Start's refusals appear inside the viewport, by the button tapped."""
    page = small_page(chromium, server, viewport)
    start(page, players=3)
    lay(page, "6-6")
    page.tap("renege")  # a swipe down, in the details
    page.tap("confirm-renege")  # nobody picked yet
    page.wait_contains("message", "Pick who reneged first.")
    in_view(page, "message")
    in_view(page, "confirm-renege")
    page.close()
    # A long New match form: the refusal of two names alike is by Start, not at the top.
    page = small_page(chromium, server, viewport)
    page.tap("new-match")
    page.tap("players-4")
    page.wait_for("name-3")
    page.fill("name-2", "ann")
    page.tap("start-match")
    page.wait_contains("message", "Two players are called")
    in_view(page, "message")
    in_view(page, "start-match")
    page.close()


@pytest.mark.parametrize("viewport", SIZES)
def test_the_next_tap_is_never_below_the_fold(chromium: Any, server: AppServer, viewport: dict[str, int]) -> None:  # noqa: F811
    """Item 8: after a miscall Draw and Undo, after a winning tile Next game, stay in view; a refusal
    does not move the picker. At 1280x800 nothing scrolls at all: the picker never moves."""
    page = small_page(chromium, server, viewport)
    page.tap("new-match")
    page.fill("target", "20")
    page.wait_contains("rules-summary", "20")
    page.tap("start-match")
    page.wait_text("board-count", "0")
    first = box(page, "tile-0-0")
    lay(page, "5-5")
    before = box(page, "tile-0-0")
    page.tap("tile-1-2")  # fits no end: refused
    page.wait_for("message")
    assert box(page, "tile-0-0") == before, "the refusal moved the picker"
    lay(page, "0-5")
    page.tap("call-15")  # an overcall: the call panel grows
    page.wait_for("call-fix")
    for identifier in ("draw", "undo", "call-ok", "call-fix"):
        in_view(page, identifier)
    assert box(page, "tile-0-0") == before, "the call panel moved the picker"
    page.tap("call-ok")
    page.wait_for("call-fix", gone=True)
    if viewport == DESKTOP:
        # A desktop needs no scrolling: the picker (gone with the game) is where it was before the set.
        assert box(page, "tile-0-0") == first, "the desktop page scrolled"
        assert off_screen(page, [f"tile-{a}-{b}" for a in range(7) for b in range(a, 7)]) == []
    lay(page, "0-0")  # Ann reaches 20: the game is won
    page.wait_for("next-game")
    in_view(page, "next-game")
    page.close()


@pytest.mark.parametrize("viewport", SIZES)
def test_the_muggins_claim_is_in_view_after_the_last_tile(
    chromium: Any,  # noqa: F811
    server: AppServer,
    viewport: dict[str, int],
) -> None:
    """Item 8: Ann goes out with a 5 nobody called (Jaques, muggins): Bob's claim is on screen as the page
    stands, before any scrolling, and takes the 5."""
    page = open_new(chromium, server, viewport, rules="jaques", muggins="on")
    for tile in JAQUES_SCORING_GO_OUT:
        lay(page, tile)
    page.wait_contains("end-pending", "went out with 0-1")
    before = page.number("score-1")
    page.tap("call-none")
    page.wait_for("muggins-1")
    in_view(page, "muggins-1")
    page.tap("muggins-1")
    page.wait_text("score-1", str(before + 5))
    page.close()


def test_new_match_starts_from_a_fresh_form(chromium: Any, server: AppServer) -> None:  # noqa: F811
    """Item 11: muggins, double-nine, a typed target and the draw for the set do not carry over."""
    page = small_page(chromium, server)
    page.tap("new-match")
    fresh = page.text("rules-summary")
    page.fill("target", "99")
    page.tap("muggins")
    page.tap("double-nine")
    page.wait_contains("rules-summary", "double-nine")
    page.tap("draw-for-set")
    page.fill("drawn-0", "1-2")
    page.tap("start-match")
    page.wait_text("board-count", "0")
    page.tap("home")
    page.tap("new-match")
    page.wait_for("rules-summary")
    assert page.text("rules-summary") == fresh
    assert not page.exists("drawn-0"), "the draw for the set opened with last match's tiles"
    page.tap("draw-for-set")
    page.wait_for("drawn-0")
    assert field_value(page, "drawn-0") == ""
    page.close()


def test_draw_and_pass_are_off_before_the_set_and_after_the_hand(chromium: Any, server: AppServer) -> None:  # noqa: F811
    """Item 12: greyed out (disabled) while nobody may draw or pass."""
    page = small_page(chromium, server)
    start(page)

    def disabled(identifier: str) -> bool:
        # Flutter marks a button that can be pressed ``flt-tappable`` (with a tab stop); a disabled one has neither.
        page.wait_for(identifier)
        return not page.page.locator(sel(identifier)).first.evaluate("e => e.hasAttribute('flt-tappable')")

    assert disabled("draw") and disabled("pass"), "before the set"
    lay(page, "5-5")
    page.page.wait_for_function(
        "s => document.querySelector(s) !== null && document.querySelector(s).hasAttribute('flt-tappable')",
        arg=sel("draw"),
    )
    for tile, at in GO_OUT_HAND[1:]:
        lay(page, tile, at)
    page.wait_for("settle")
    assert disabled("draw") and disabled("pass"), "after the hand's end"
    page.close()


def test_names_saved_is_not_said_of_another_match(chromium: Any, server: AppServer) -> None:  # noqa: F811
    """Item 12: "Names saved." on one match's sheet is gone on the next match's."""
    page = small_page(chromium, server)
    start(page)
    page.tap("show-sheet")
    page.fill("rename-1", "Bert")
    page.tap("save-names")
    page.wait_contains("message", "Names saved.")
    page.tap("home")
    start(page)
    page.tap("show-sheet")
    page.wait_for("save-names")
    assert not page.exists("message"), page.text("message")
    page.close()
