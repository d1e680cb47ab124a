"""In Chromium at 360x640, the second evening at the table (issue 19): a misdeal each way then the hand to its
true end, a play-out renege (−50) from New match to its settlement line, an end named by what lies there after
a silent pick, the score sheet with a won game and the day's series after Next game, and the words on the
table (whom game points go to, one answer where nothing scored, a muggins claim's ruling).

The numbers each test waits for were worked out with the engine (``scorepad.rules``) on the same plays.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser import CHROMIUM, AppServer, TablePage, sel

from .app_hands import GO_OUT_HAND, JAQUES_SCORING_GO_OUT
from .test_browser import chromium, lay  # noqa: F401 - the module's browser fixture
from .test_phone import SMALL, off_screen

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"needs Debian's chromium at {CHROMIUM}"),
]
SHOWN = ("board-count", "turn", "tiles-held", "message", "irregular-preview", "end-pending", "hand-result")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    """One app server for the module (each test opens its own page, so its own session and match)."""
    folder: Path = tmp_path_factory.mktemp("evening")
    app = AppServer(f"sqlite:///{folder / 'table.db'}").start(timeout=120, log_path=folder / "server.log")
    yield app
    app.stop()


@pytest.fixture
def phone(
    chromium: Any,  # noqa: F811
    server: AppServer,
    request: pytest.FixtureRequest,
    tmp_path: Path,
) -> Iterator[TablePage]:
    """A fresh 360x640 page on the home screen; on failure what it showed is printed and a screenshot kept."""
    page = TablePage(chromium, server.url, viewport=SMALL)
    page.open()
    yield page
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        page.screenshot(tmp_path / "failure.png")
        print(f"the page showed {said(page)}; screenshot {tmp_path / 'failure.png'}")
    page.close()


def said(page: TablePage) -> dict[str, str | None]:
    """What the page shows in the controls a failure is read by."""
    return {i: page.page.locator(sel(i)).first.text_content() for i in SHOWN if page.exists(i)}


def label_of(page: TablePage, identifier: str) -> str:
    """The words a control shows (a button's are in its label, a text's in its content)."""
    page.wait_for(identifier)
    node = page.page.locator(sel(identifier)).first
    return f"{node.get_attribute('aria-label') or ''}{node.text_content() or ''}"


def misdeal(page: TablePage, seat: int, kind: str, *preview: str) -> None:
    """Enter a misdeal of ``seat`` (``plus``: a tile too few, taken; ``minus``: one too many, kept) and confirm it
    once its preview says each part of ``preview``."""
    page.tap("irregular")
    page.tap("misdeal")
    page.tap(f"misdeal-seat-{seat}")
    page.tap(f"misdeal-{kind}")
    for part in preview:
        page.wait_contains("irregular-preview", part)
    page.tap("confirm-irregular")


def test_a_misdeal_each_way_then_the_hand_played_to_its_true_end(phone: TablePage) -> None:
    """Item 1: Bob dealt a tile short takes one (holds 7); Ann dealt a tile too many keeps it (holds 8).

    The hand then goes on past Ann's seventh tile (she still holds one) until Bob lays his seventh and is out;
    Ann's last tile is settled as the engine says: 8 pips round to 10 for Bob (Smartt §9.1-9.2).
    With the labels the wrong way round Ann held 6 and "went out" on her sixth tile.
    """
    phone.tap("new-match")
    phone.tap("start-match")
    phone.wait_text("board-count", "0")
    # A tile too few: the seat takes the missing tile now and holds what the deal gives (Smartt §11.4).
    misdeal(phone, 1, "plus", "Bob was dealt one tile too few and takes the missing tile", "Bob holds 7 tiles")
    phone.wait_contains("tiles-held", "Ann 7 · Bob 7")
    # A tile too many: an overdraw keeps every tile drawn; the boneyard is one short.
    misdeal(phone, 0, "minus", "Ann was dealt one tile too many and keeps every tile drawn", "Ann holds 8 tiles")
    phone.wait_contains("tiles-held", "Ann 8 · Bob 7")
    phone.wait_contains("tiles-held", "boneyard 13")
    phone.wait_text("turn", "Ann to set")

    # Every tile of the go-out hand: on her seventh, the 1-5, Ann still holds a tile and the hand goes on.
    for tile, at in GO_OUT_HAND:
        lay(phone, tile, at)
    phone.wait_text("turn", "Bob to play")
    phone.wait_contains("tiles-held", "Ann 1 · Bob 1")
    assert not phone.exists("settle"), said(phone)
    assert (phone.number("score-0"), phone.number("score-1")) == (40, 10)
    lay(phone, "2-6")  # Bob's seventh: he is out, and Ann's last tile is counted
    phone.wait_contains("end-pending", "Bob went out")
    phone.fill("remaining-0", "8")
    phone.wait_contains("settle-preview", "8 rounds to 10")
    phone.tap("settle")
    phone.wait_contains("hand-result", "Bob went out. Ann holds 8 pips. 8 rounds to 10 (Smartt §9.2).")
    phone.wait_contains("hand-result", "Bob scores 10 (Smartt §9.1). Scores: Ann 40, Bob 20.")
    phone.wait_text("score-1", "20")
    assert phone.number("score-0") == 40


def test_a_minus_50_match_from_new_match_to_its_settlement_line(phone: TablePage) -> None:
    """Item 3: the play-out renege chosen on New match, said pending while the hand goes on, then taken off
    after the settlement in its own line (Smartt §11.1): Bob 10 − 50 = −40."""
    phone.tap("new-match")
    phone.tap("renege-procedure-deduct50")
    phone.wait_contains("rules-summary", "Smartt, 2 players, to 250; a renege is played out, −50")
    phone.tap("start-match")
    phone.wait_text("board-count", "0")
    lay(phone, "5-5")
    lay(phone, "0-5")
    phone.tap("renege")
    phone.tap("offender-1")
    phone.wait_contains("renege-preview", "Play goes on; Bob loses 50 when the hand ends")
    phone.tap("confirm-renege")
    phone.wait_contains("renege-pending", "Renege proved: 50 off Bob when the hand ends, after its settlement")
    phone.wait_text("turn", "Ann to play")
    assert (phone.number("score-0"), phone.number("score-1")) == (10, 10), "nothing comes off before the end"
    for tile, at in GO_OUT_HAND[2:]:
        lay(phone, tile, at)
    phone.wait_contains("renege-pending", "50 off Bob")  # still pending at the hand's last tile
    phone.fill("remaining-1", "8")
    # The keyboard's Done (Enter here) in the last figure settles: on a phone the keyboard covers Settle.
    phone.page.keyboard.press("Enter")
    phone.wait_contains("hand-result", "Ann scores 10 (Smartt §9.1).")
    phone.wait_contains("hand-result", "Renege by Bob: 50 off Bob, 10 − 50 = -40 (Smartt §11.1).")
    phone.wait_contains("hand-result", "Scores: Ann 50, Bob -40.")
    phone.wait_text("score-1", "-40")
    assert phone.number("score-0") == 50
    assert not phone.exists("renege-pending")


def test_an_end_is_named_by_what_lies_there_after_a_silent_pick(phone: TablePage) -> None:
    """Item 5: the 3-5 fits either long side of the Sniff alike, so the app writes one without asking; the
    3-3 goes on it. The 3-6 then fits the 3-3 or the 6 of the 5-6, and the buttons say so, with each count."""
    phone.tap("new-match")
    phone.tap("start-match")
    phone.wait_text("board-count", "0")
    for tile in ("5-5", "3-5", "3-3", "5-6"):
        lay(phone, tile)
    phone.tap("tile-3-6")
    phone.wait_for("at-left")
    assert "on the 3-3 · count 22" in label_of(phone, "at-left")
    assert "on the 6 of 5-6 · count 19" in label_of(phone, "at-right")
    assert off_screen(phone, ["at-left", "at-right"]) == []
    phone.tap("at-left")
    phone.wait_text("board-count", "22")


def test_the_sheet_at_360_with_a_won_game_and_the_series_after_next_game(phone: TablePage) -> None:
    """Item 6: every side's column inside 360 px, the winning hand's row names the winner (not its setter,
    who here is the winner too: game 2's setter is Bob), and the day's series is still there after Next game,
    on the sheet and in History."""
    phone.tap("new-match")
    phone.fill("target", "20")
    phone.wait_contains("rules-summary", "to 20")
    phone.tap("start-match")
    phone.wait_text("board-count", "0")
    for tile, at in GO_OUT_HAND[:3]:
        lay(phone, tile, at)
    phone.wait_contains("game-result", "Ann won game 1")
    phone.tap("next-game")
    phone.wait_text("turn", "Bob to set")
    phone.tap("show-sheet")
    phone.wait_for("score-sheet")
    for side in range(2):
        assert off_screen(phone, [f"sheet-side-{side}"]) == [], side
    phone.wait_contains("sheet-hand-1", "Ann won the game")
    assert "20" in phone.text("sheet-hand-1") and "10" in phone.text("sheet-hand-1")
    phone.tap("sheet-hand-1")  # the working, a tap away
    phone.wait_contains("sheet-working-1", "Set by Ann. Ann: 0 to 20. Bob: 0 to 10.")
    phone.wait_contains("series-0", "Ann · games 1 · game points 14 · Rubed 0")
    phone.wait_contains("series-1", "Bob · games 0 · game points 0 · Rubed 1")
    phone.scroll_into_view("series-1")
    assert off_screen(phone, ["series-0", "series-1"]) == []
    # History keeps the same series, as `scorepad matches` writes it.
    match_id = phone.page.url.split("/match/")[1].split("/")[0]
    phone.tap("home")
    phone.tap("history")
    phone.wait_contains(f"match-{match_id}", "games 1 : 0; game points 14 : 0; Rubed 0 : 1")


def test_the_words_on_the_table_say_whom_and_where(phone: TablePage) -> None:
    """Items 9 and 10 on the page: a target too long refused with what is allowed, by Start; the call on a
    winning tile changeable until the next game (not "the next tile"); game points said to whom, cited; a play
    that scores nothing offers one answer ("No score", no "Not called")."""
    phone.tap("new-match")
    phone.fill("target", "99999")
    phone.tap("start-match")
    phone.wait_contains("message", "whole number from 1 to")
    assert "positive" not in phone.text("message")
    assert off_screen(phone, ["message", "start-match"]) == []
    phone.fill("target", "20")
    phone.wait_contains("rules-summary", "to 20")
    phone.tap("start-match")
    phone.wait_text("board-count", "0")
    for tile, at in GO_OUT_HAND[:3]:
        lay(phone, tile, at)
    phone.wait_contains("end-pending", "Until the next game starts the call on it can still be changed")
    phone.wait_contains("game-result", "Game points: 14 to Ann (Smartt §14). Rubed: Bob.")
    phone.tap("next-game")
    phone.wait_text("turn", "Bob to set")
    lay(phone, "1-2")
    lay(phone, "2-3")  # 1 and 3 on the ends: nothing scored
    phone.wait_for("call-ok")
    assert "No score" in label_of(phone, "call-ok")
    assert not phone.exists("call-none"), "two answers that mean the same"


def test_a_muggins_claim_says_its_ruling(phone: TablePage) -> None:
    """Item 9: after a claim a line says who took what, with the book's section (Jaques' muggins variation)."""
    phone.tap("new-match")
    phone.tap("rules-jaques")
    phone.tap("muggins")
    phone.wait_contains("rules-summary", "muggins")
    phone.tap("start-match")
    phone.wait_text("board-count", "0")
    for tile in JAQUES_SCORING_GO_OUT:
        lay(phone, tile)
    phone.tap("call-none")
    phone.tap("muggins-1")
    phone.wait_contains(
        "last-entry", "Muggins: Bob claims the 5 Ann did not call; Bob has 15 (Jaques, 'Variations: Muggins')."
    )
    assert off_screen(phone, ["last-entry"]) == []


def test_the_sheet_at_360_has_room_for_four_sides(phone: TablePage) -> None:
    """Item 6: four players each for himself, one with a long name: every column heading and score on screen."""
    phone.tap("new-match")
    phone.tap("players-4")
    phone.wait_for("name-3")
    phone.tap("partners")  # four sides
    phone.fill("name-1", "Bartholomew")
    phone.fill("target", "10")
    phone.wait_contains("rules-summary", "to 10")
    phone.tap("start-match")
    phone.wait_text("board-count", "0")
    phone.tap("tile-5-5")  # Ann's set makes 10: game 1 is won
    phone.wait_contains("game-result", "Ann won game 1")
    phone.tap("show-sheet")
    phone.wait_contains("sheet-hand-1", "Ann won the game")
    assert off_screen(phone, [f"sheet-side-{side}" for side in range(4)] + ["sheet-hand-1"]) == []
    phone.wait_contains("series-1", "Bartholomew · games 0")
