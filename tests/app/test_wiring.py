"""Taps wired to the view-model in-process: identifiers, labels, touch targets, reload by address."""

from __future__ import annotations

import flet as ft
import pytest

from scorepad.access import Caller
from scorepad.store import Store

from .app_hands import GO_OUT_HAND
from .wiring import Wired, walk

pytestmark = pytest.mark.asyncio


async def open_table(store: Store, **kw: int) -> Wired:
    """Home, New match, Start: the defaults start at once."""
    wired = await Wired(store, **kw).open()
    await wired.tap("new-match")
    await wired.tap("start-match")
    assert wired.text("board-count") == "0"
    return wired


async def lay(wired: Wired, tile: str, at: str | None) -> None:
    low, high = sorted(int(v) for v in tile.split("-"))
    await wired.tap(f"tile-{low}-{high}")
    if at is not None and wired.exists(f"at-{at}"):
        # Asked only when the ends differ; otherwise the app wrote an equivalent end itself.
        await wired.tap(f"at-{at}")
    assert not any(wired.exists(f"at-{end}") for end in ("left", "right", "up", "down"))
    assert not wired.exists("message"), wired.find("message").content.content.value


async def test_home_offers_new_resume_and_history(store: Store) -> None:
    wired = await Wired(store).open()
    assert {"new-match", "resume-latest", "history"} <= set(wired.identified())
    await wired.tap("new-match")
    ids = set(wired.identified())
    assert {
        "players-2",
        "players-3",
        "players-4",
        "rules-smartt",
        "rules-american",
        "rules-jaques",
        "start-match",
    } <= ids
    await wired.tap("players-4")
    assert "Ann & Cy against Bob & Di" in wired.text("rules-summary")
    wired.close()


async def test_taps_lay_tiles_and_the_count_follows(store: Store) -> None:
    wired = await open_table(store)
    assert len([i for i in wired.identified() if i.startswith("tile-")]) == 28
    await wired.tap("tile-5-5")
    assert wired.text("board-count") == "10"
    assert wired.text("score-0") == "10"
    assert wired.text("turn") == "Bob to play"
    assert wired.find("tile-5-5").content.opacity < 1, "a played tile is dimmed"
    await wired.tap("tile-3-5")
    assert not wired.exists("at-left"), "either long side of the Sniff gives the same: nothing to ask"
    assert wired.text("board-count") == "13"
    await wired.tap("tile-5-6")
    # Left 3 + right 6 + the Sniff's two short ends 10 = 19; the 3-6 fits left and right.
    assert wired.text("board-count") == "19"
    await wired.tap("tile-3-6")
    assert wired.exists("at-left") and wired.exists("at-right")
    assert not wired.exists("at-up")
    assert wired.text("board-count") == "19"
    await wired.tap("end-right")
    assert not wired.exists("at-left"), "the end can also be chosen on the picture"
    assert wired.text("board-count") == "16"
    await wired.tap("undo")
    assert wired.text("board-count") == "19"
    await wired.tap("redo")
    assert wired.text("board-count") == "16"
    wired.close()


async def test_a_tap_redraws_only_the_picker_keys_it_changed(store: Store) -> None:
    """Unchanged keys stay the same controls (Flet skips them); they keep working as the screen around them changes."""
    wired = await open_table(store)
    kept = wired.find("tile-1-2")
    sent = len(wired.connection.sent)
    await wired.tap("tile-5-5")
    assert wired.find("tile-1-2") is kept, "a key the entry did not change is not drawn again"
    assert wired.find("tile-5-5").content.opacity < 1, "the key of the tile laid is drawn again, dimmed"
    patch = b"".join(wired.connection.sent[sent:])
    assert b"tile 5-5, played" in patch and b"tile 1-2" not in patch, "only the changed key goes to the page"
    # A refusal puts the message bar above the picker; the kept keys still take taps.
    await wired.tap("tile-1-2")
    assert "fits no open end" in wired.find("message").content.content.value
    await wired.tap("tile-3-5")
    assert not wired.exists("message")
    assert wired.text("board-count") == "13"
    # Off the table and back: the keys were taken off the page, so they are drawn afresh and work.
    await wired.tap("show-sheet")
    assert not wired.exists("tile-1-2")
    await wired.tap("show-table")
    assert wired.find("tile-1-2") is not kept
    await wired.tap("undo")
    assert wired.text("board-count") == "10"
    assert wired.find("tile-3-5").content.opacity == 1
    wired.close()


async def test_a_refused_tile_shows_the_reason(store: Store) -> None:
    wired = await open_table(store)
    await wired.tap("tile-5-5")
    await wired.tap("tile-1-2")
    message = wired.find("message").content.content.value
    assert "fits no open end" in message
    assert wired.text("board-count") == "10"
    wired.close()


async def test_calls_renege_settle_and_next_hand_are_wired(store: Store) -> None:
    wired = await open_table(store)
    await wired.tap("tile-5-5")
    await wired.tap("tile-0-5")
    assert not wired.exists("at-left"), "either long side of the Sniff gives the same: nothing to ask"
    assert {"call-ok", "call-none", "call-15", "call-5"} <= set(wired.identified())
    await wired.tap("call-15")
    assert wired.text("score-1") == "15"
    await wired.tap("call-ok")
    assert wired.text("score-1") == "10"
    await wired.tap("renege")
    await wired.tap("offender-1")
    assert "less 25 = -25" in wired.text("renege-preview")
    await wired.tap("confirm-renege")
    assert wired.text("score-1") == "-25"
    assert "Renege by Bob" in wired.text("hand-result")
    await wired.tap("next-hand")
    assert wired.text("turn") == "Bob to set"
    wired.close()


async def test_going_out_settles_through_the_pip_field(store: Store) -> None:
    wired = await open_table(store)
    for tile, at in GO_OUT_HAND:
        await lay(wired, tile, at)
    assert wired.exists("remaining-1") and wired.exists("settle")
    await wired.type("remaining-1", "8")
    await wired.tap("settle")
    result = wired.text("hand-result")
    assert "Ann went out" in result and "8 rounds to 10" in result
    assert wired.text("score-0") == "50"
    assert wired.exists("next-hand")
    wired.close()


async def test_the_keyboards_done_settles_once_every_figure_is_in(store: Store) -> None:
    # On a phone the keyboard covers Settle: Done in the last pips field settles in its place.
    wired = await open_table(store)
    for tile, at in GO_OUT_HAND:
        await lay(wired, tile, at)
    await wired.type("remaining-1", "")
    await wired.submit("remaining-1")  # a figure still missing: nothing happens
    assert wired.exists("settle") and not wired.exists("hand-result")
    await wired.type("remaining-1", "8")
    await wired.submit("remaining-1")
    assert "8 rounds to 10" in wired.text("hand-result")
    assert wired.text("score-0") == "50"
    wired.close()


async def test_remaining_tiles_can_be_tapped_instead_of_typed(store: Store) -> None:
    wired = await open_table(store)
    for tile, at in GO_OUT_HAND:
        await lay(wired, tile, at)
    assert not wired.exists("tile-6-6"), "the picker is put away at the end of the hand"
    await wired.tap("remaining-tiles-1")
    await wired.tap("tile-6-6")
    assert "12 rounds to 10" in wired.text("settle-preview")
    await wired.tap("settle")
    assert wired.text("score-0") == "50"
    wired.close()


async def test_a_game_won_offers_the_next_game(store: Store) -> None:
    wired = await Wired(store).open()
    await wired.tap("new-match")
    await wired.type("target", "20")
    await wired.tap("start-match")
    for tile, at in GO_OUT_HAND[:3]:
        await lay(wired, tile, at)
    assert "Ann won game 1" in wired.text("game-result")
    await wired.tap("next-game")
    assert wired.text("score-0") == "0"
    wired.close()


async def test_a_reload_by_address_resumes_the_hand(store: Store) -> None:
    wired = await open_table(store)
    await wired.tap("tile-4-6")
    route = wired.page.route
    assert route.startswith("/match/")
    again = await Wired(store, route=route).open()
    assert again.text("board-count") == "10"
    assert again.text("turn") == "Bob to play"
    wired.close()
    again.close()


@pytest.mark.parametrize("width", [412, 1280])
async def test_every_identified_control_is_labelled_and_big_enough(store: Store, width: int) -> None:
    wired = await open_table(store, width=width)
    for tile in ("5-5", "0-5", "5-6"):
        await wired.tap(f"tile-{tile}")
    await wired.tap("tile-0-6")  # left shows 0, right 6: a real choice, so the end buttons show
    assert wired.exists("at-left") and wired.exists("at-right")
    await wired.tap("renege")
    for identifier, semantics in wired.identified().items():
        inner = semantics.content
        label = semantics.label or _words(inner)
        assert label, f"{identifier} has no readable label"
        if isinstance(inner, (ft.Button, ft.IconButton)) or getattr(inner, "on_click", None):
            assert (inner.height or 0) >= 48, f"{identifier} is {inner.height} px high"
            if isinstance(inner, (ft.Container, ft.IconButton)):
                assert (inner.width or 0) >= 48, f"{identifier} is {inner.width} px wide"
    wired.close()


def _words(control: ft.Control) -> str:
    for c in walk(control):
        for name in ("value", "content", "label", "semantics_label", "tooltip"):
            value = getattr(c, name, None)
            if isinstance(value, str) and value.strip():
                return value
    return ""


async def test_every_identifier_of_the_issue_appears_where_it_should(store: Store) -> None:
    seen: set[str] = set()
    wired = await Wired(store).open()
    seen |= set(wired.identified())
    await wired.tap("new-match")
    seen |= set(wired.identified())
    await wired.type("target", "60")
    await wired.tap("start-match")
    seen |= set(wired.identified())
    for tile in ("5-5", "4-5", "5-6", "2-5", "3-5"):
        await lay(wired, tile, None)
    # Up shows 2 and down 3: the 2-3 counts differently on each short end, so the app asks.
    await wired.tap("tile-2-3")
    seen |= set(wired.identified())
    assert wired.exists("at-up") and wired.exists("at-down") and not wired.exists("at-left")
    await wired.tap("at-up")
    await wired.tap("tile-4-6")
    seen |= set(wired.identified())
    assert wired.exists("at-left") and wired.exists("at-right")
    await wired.tap("at-left")
    await wired.tap("renege")
    await wired.tap("offender-1")
    seen |= set(wired.identified())
    await wired.tap("cancel-renege")
    await wired.tap("undo")
    await wired.tap("redo")
    # Smartt §6.2: left 6 + right 6 + up 3 + down 3, and the Sniff with all four sides covered, 0.
    assert wired.text("board-count") == "18"
    wired.close()

    settle = await Wired(store).open()
    await settle.tap("new-match")
    await settle.tap("start-match")
    for tile, at in GO_OUT_HAND:
        await lay(settle, tile, at)
    seen |= set(settle.identified())
    await settle.type("remaining-1", "8")
    await settle.tap("settle")
    seen |= set(settle.identified())
    settle.close()

    won = await Wired(store).open()
    await won.tap("new-match")
    await won.type("target", "20")
    await won.tap("start-match")
    for tile, at in GO_OUT_HAND[:3]:
        await lay(won, tile, at)
    seen |= set(won.identified())
    won.close()

    required = {
        "new-match",
        "start-match",
        "resume-latest",
        "players-2",
        "players-3",
        "players-4",
        "rules-smartt",
        "rules-american",
        "rules-jaques",
        "at-left",
        "at-right",
        "at-up",
        "at-down",
        "draw",
        "pass",
        "undo",
        "redo",
        "board-count",
        "score-0",
        "score-1",
        "turn",
        "call-ok",
        "call-none",
        "call-5",
        "call-35",
        "renege",
        "offender-0",
        "offender-1",
        "confirm-renege",
        "remaining-0",
        "remaining-1",
        "settle",
        "hand-result",
        "next-hand",
        "game-result",
        "next-game",
    } | {f"tile-{a}-{b}" for a in range(7) for b in range(a, 7)}
    assert required - seen == set()


async def test_the_draw_for_the_set_picks_the_first_setter(store: Store) -> None:
    wired = await Wired(store).open()
    await wired.tap("new-match")
    assert wired.exists("draw-for-set") and not wired.exists("drawn-0"), "the helper starts folded"
    await wired.tap("draw-for-set")
    assert wired.exists("drawn-0") and wired.exists("drawn-1") and not wired.exists("drawn-2")
    await wired.type("drawn-0", "2-3")
    await wired.type("drawn-1", "9-9")
    await wired.tap("draw-decide")
    assert wired.text("draw-error") == "Bob: 9-9 is not in a double-six set"
    assert not wired.exists("draw-result")
    assert isinstance(wired.find("first-setter-0").content, ft.FilledButton), "nothing changed"
    # Tapping instead of typing: Bob drew 6-5.
    await wired.tap("drawn-tiles-1")
    assert len([i for i in wired.identified() if i.startswith("drawn-tile-")]) == 28
    await wired.tap("drawn-tile-5-6")
    assert not wired.exists("drawn-tile-5-6"), "both seats have a tile: the picker folds away"
    assert wired.find("drawn-1").content.value == "6-5"
    assert not wired.exists("draw-error")
    await wired.tap("draw-decide")
    assert wired.text("draw-result").startswith("Bob sets first: the heaviest tile (11 pips)")
    assert isinstance(wired.find("first-setter-1").content, ft.FilledButton)
    assert isinstance(wired.find("first-setter-0").content, ft.OutlinedButton)
    await wired.tap("start-match")
    assert wired.text("turn") == "Bob to set"
    wired.close()


async def test_under_jaques_the_helper_asks_for_the_highest_doubles(store: Store) -> None:
    wired = await Wired(store).open()
    await wired.tap("new-match")
    await wired.tap("rules-jaques")
    assert "Highest double leads" in _words(wired.find("draw-for-set"))
    await wired.tap("draw-for-set")
    await wired.type("drawn-0", "3-3")
    await wired.type("drawn-1", "5-5")
    await wired.tap("draw-decide")
    assert "highest double, 5-5" in wired.text("draw-result")
    await wired.tap("first-setter-0")
    await wired.tap("start-match")
    assert wired.text("turn") == "Ann to set", "the scorer may overrule the helper"
    wired.close()


async def test_the_helper_controls_are_labelled_and_big_enough(store: Store) -> None:
    wired = await Wired(store).open()
    await wired.tap("new-match")
    await wired.tap("draw-for-set")
    await wired.tap("drawn-tiles-0")
    await wired.type("drawn-1", "x")
    await wired.tap("draw-decide")
    found = {i: s for i, s in wired.identified().items() if i.startswith("draw")}
    assert {
        "draw-for-set",
        "drawn-0",
        "drawn-1",
        "drawn-tiles-0",
        "drawn-tile-0-0",
        "draw-decide",
        "draw-error",
    } <= set(found)
    for identifier, semantics in found.items():
        inner = semantics.content
        assert semantics.label or _words(inner), f"{identifier} has no readable label"
        if getattr(inner, "on_click", None) or isinstance(inner, ft.Button):
            assert (inner.height or 0) >= 48, f"{identifier} is {inner.height} px high"
            if isinstance(inner, ft.Container):
                assert (inner.width or 0) >= 48, f"{identifier} is {inner.width} px wide"
    wired.close()


async def test_a_double_tap_on_draw_is_one_draw_and_a_second_draw_says_so(store: Store) -> None:
    wired = await open_table(store)
    await wired.tap("tile-5-5")
    draw = wired.find("draw").content
    assert wired.session is not None
    # Both taps of a double tap reach the server before the page has redrawn.
    await wired.session.dispatch_event(draw._i, "click", None)
    await wired.session.dispatch_event(draw._i, "click", None)
    await wired.settle()
    assert "Boneyard 13" in wired.text("boneyard")
    # ... or after it has redrawn: the Draw the page showed is not the one drawn now.
    assert wired.find("draw").content._i != draw._i
    await wired.session.dispatch_event(draw._i, "click", None)
    await wired.settle()
    assert "Boneyard 13" in wired.text("boneyard")
    assert wired.text("last-entry").startswith("Bob drew 1 tile on this visit")
    await wired.tap("draw")
    assert "Boneyard 12" in wired.text("boneyard")
    assert wired.text("last-entry").startswith("Bob drew 2 tiles on this visit")
    await wired.tap("undo")
    assert "Boneyard 13" in wired.text("boneyard")
    wired.close()


async def test_a_pip_field_takes_any_keystroke_and_answers_in_words(store: Store) -> None:
    wired = await open_table(store)
    for tile, at in GO_OUT_HAND:
        await lay(wired, tile, at)
    for typed in ("²", "abc", "99999"):
        await wired.type("remaining-1", typed)
        # Said under the fields, not in a banner above them (issue 19: the banner moved the field mid-word).
        assert wired.text("settle-problem").startswith("Bob holds 1 tile: ")
        assert not wired.exists("message") and not wired.exists("settle-preview")
    await wired.type("remaining-1", "8")
    assert not wired.exists("settle-problem")
    assert wired.exists("settle-preview")
    await wired.tap("settle")
    assert wired.exists("hand-result")
    wired.close()


async def test_double_nine_tiles_are_at_least_32_px_wide_on_a_360_px_phone(store: Store) -> None:
    wired = await Wired(store, width=360, height=640).open()
    await wired.tap("new-match")
    switch = wired.find("double-nine").content
    assert wired.session is not None
    wired.session.apply_patch(switch._i, {"value": True})
    await wired.session.dispatch_event(switch._i, "change", True)
    await wired.settle()
    await wired.tap("start-match")
    keys = {i: c for i, c in wired.identified().items() if i.startswith("tile-")}
    assert len(keys) == 55
    for identifier, semantics in keys.items():
        key = semantics.content
        face = key.content
        assert isinstance(face, ft.Image), identifier
        assert face.width >= 32 and key.width >= face.width, (identifier, face.width, key.width)
    # Ten keys in the widest row, within the 348 px the page leaves at 360.
    widest = max(len(row.controls) for row in wired.all() if isinstance(row, ft.Row) and _is_picker_row(row))
    assert widest == 10 and 10 * keys["tile-0-9"].content.width + 9 * 2 <= 348
    wired.close()


def _is_picker_row(row: ft.Row) -> bool:
    return bool(row.controls) and all(
        isinstance(c, ft.MergeSemantics) and str(getattr(c.content, "identifier", "")).startswith("tile-")
        for c in row.controls
    )


async def test_before_the_first_hand_the_screen_says_nothing_of_a_picker_or_a_boneyard(store: Store) -> None:
    # A match with no hand yet (a tournament table's, or one whose first hand was undone): the setter
    # is chosen first; no picker is up, so the layout does not send the scorer to it, the details
    # line has no boneyard to put a separator after, and the button starts hand 1, not a "next" one.
    match_id = store.create_match(players=["Ann", "Bob"], caller=Caller.local())
    wired = await Wired(store, route=f"/match/{match_id}", width=360, height=640).open()
    try:
        assert not wired.exists("picker")
        words = [str(c.value) for c in wired.all() if isinstance(c, ft.Text)]
        assert "No tiles yet." in words and not any("picker" in w for w in words), words
        assert wired.text("boneyard") == "open ends: none (no set yet)"
        assert wired.find("next-hand").content.content == "Start hand 1"
    finally:
        wired.close()
