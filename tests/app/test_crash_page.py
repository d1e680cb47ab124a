"""A page that crashes is dead (issue 11): wired in-process, a bug injected, then everything the page still has tried.

Each test injects a bug (a view-model method that raises), lets it happen
through the page as a client would (a tap, a route change, a live update,
``main`` itself), then checks that the page shows only the sentence with an
error id and Reload, that the taps the client may still send to the dead
page's old controls and every write through its store objects change
nothing in the stored match, and that no message sent to the page holds a
traceback, a path or SQL. The expected answers (a database fault, a rule
refused, bad input) are checked to leave the page alive.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from pathlib import Path
from typing import Any

import msgpack
import pytest

from scorepad.access import Caller
from scorepad.app.models.desk import Desk
from scorepad.app.models.ports import PageRevoked
from scorepad.app.models.state import ScorePad
from scorepad.app.models.table import Table
from scorepad.app.models.tournament import Hall
from scorepad.app.shell.guard import DEAD_ID, RELOAD_ID
from scorepad.app.shell.live import screen_of
from scorepad.store import Store, StoreError, open_store
from scorepad.tournament import TournamentService
from tests.app.test_live_server import new_match as stored_match
from tests.flet_client import EVENT, FletClient, WebServer

from .app_hands import GO_OUT_HAND
from .test_tournament import PASSWORD, event  # noqa: F401  (the paired four-player event)
from .wiring import Wired

pytestmark = pytest.mark.asyncio

LEAKS = ("Traceback", 'File "', ".py", "SELECT", "RuntimeError", "injected")
CRASHED = 6  # Flet's SESSION_CRASHED message ("Error running app" with the traceback)
SHIM = Path(__file__).parent / "bug_shim"  # the served score-pad's injected bug (SCOREPAD_TEST_BUG)
BUG = "injected bug: SELECT secret FROM matches in /srv/scorepad/app/models/table.py"


def bug(*_args: Any, **_kw: Any) -> Any:
    """What an injected bug does: raise with a message full of things a page must never see."""
    raise RuntimeError(BUG)


def new_match(store: Store) -> int:
    """A two-player match with its first hand started (Ann sets)."""
    match_id = store.create_match(players=["Ann", "Bob"], caller=Caller.local())
    store.start_hand(match_id, setter=0, caller=Caller.local())
    return match_id


def stored(store: Store, match_id: int) -> tuple[Any, ...]:
    """Everything stored of a match: its revision, its audit (every entry and undo) and its record."""
    return store.load(match_id).revision, store.audit(match_id), store.export_record(match_id)


def old_ids(wired: Wired) -> dict[str, int]:
    """The control ids of the page's identified controls now (a client keeps them until the next patch)."""
    return {name: control.content._i for name, control in wired.identified().items() if control.content is not None}


def messages(wired: Wired) -> list[tuple[int, Any]]:
    """Every message sent to the page, decoded."""
    return [tuple(msgpack.unpackb(raw, strict_map_key=False, raw=False)) for raw in wired.connection.sent]


def assert_nothing_leaked(wired: Wired) -> None:
    """No message to the page is Flet's crash message, and none holds a traceback, a path or SQL."""
    for action, _body in messages(wired):
        assert action != CRASHED, "Flet's crash message reached the page"
    for raw in wired.connection.sent:
        for leak in LEAKS:
            assert leak.encode() not in raw, f"{leak!r} reached the page: {raw[:300]!r}"


def assert_dead(wired: Wired, caplog: pytest.LogCaptureFixture) -> str:
    """The page shows only the sentence and Reload; the server log has the traceback with the same id."""
    assert set(wired.identified()) == {DEAD_ID, RELOAD_ID}, sorted(wired.identified())
    words = wired.text(DEAD_ID)
    found = re.fullmatch(
        r"Something went wrong on this page \(error ([0-9A-F]{6})\)\. "
        r"Nothing more can be entered here: reload the page to go on\.",
        words,
    )
    assert found, words
    error_id = found.group(1)
    reload = wired.find(RELOAD_ID).content
    assert reload.url.url == (wired.page.route or "/") and reload.url.target.value == "_self"
    assert reload.height >= 48
    logged = [r for r in caplog.records if r.levelno >= logging.ERROR and error_id in r.getMessage()]
    assert logged, "the error id is not in the server log"
    assert any(r.exc_info is not None or "Traceback" in r.getMessage() for r in logged), "no traceback in the log"
    assert_nothing_leaked(wired)
    return error_id


async def tap_old(wired: Wired, ids: dict[str, int], *names: str) -> None:
    """Fire clicks at controls the dead page showed before (a client that has not drawn the new page yet)."""
    assert wired.session is not None
    for name in names:
        await wired.session.dispatch_event(ids[name], "click", None)
        await wired.settle()


def pad_of(wired: Wired) -> ScorePad:
    """The page's view-model (through its live dispatcher)."""
    assert wired.session is not None
    live = screen_of(wired.session.id)
    assert live is not None
    return live.pad


def assert_refused(writes: dict[str, Any], refusals: Any = PageRevoked) -> None:
    """Every write named is refused (raises one of ``refusals``) before it reaches the store."""
    for name, write in writes.items():
        with pytest.raises(refusals):
            write()
            pytest.fail(f"{name} was not refused")


def assert_still_dead(wired: Wired) -> None:
    """The page still shows only the dead page, and nothing leaked to it; then it is closed."""
    assert set(wired.identified()) == {DEAD_ID, RELOAD_ID}
    assert_nothing_leaked(wired)
    finish(wired)


def finish(*pages: Wired) -> None:
    """Close pages as their end would: a page still following its match stops (the process's count stays true)."""
    for wired in pages:
        wired.close()


async def wait_for(check: Any, what: str, *, timeout: float = 10.0) -> None:
    """Let the loop run until ``check()`` holds; fails after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} within {timeout} s")
        await asyncio.sleep(0.01)


async def test_a_bug_in_a_tap_kills_the_page_and_nothing_it_had_can_write(
    store: Store, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    match_id = new_match(store)
    wired = await Wired(store, route=f"/match/{match_id}", width=360, height=640).open()
    await wired.tap("tile-5-5")
    await wired.tap("tile-0-5")
    ids = old_ids(wired)
    pad = pad_of(wired)
    table = pad.table
    assert table is not None
    page_store = pad.store
    before = stored(store, match_id)

    monkeypatch.setattr(Table, "tap_tile", bug)
    await wired.tap("tile-5-6")
    assert_dead(wired, caplog)
    assert stored(store, match_id) == before
    monkeypatch.undo()

    # The client may still send taps on the controls it drew before the dead page reached it.
    await tap_old(wired, ids, "undo", "tile-5-6", "draw", "redo")
    assert stored(store, match_id) == before
    # And whatever the page's objects still hold, the store refuses them at its boundary.
    writes = {
        "store undo": lambda: page_store.undo(match_id, caller=Caller.local(pad.device)),
        "store append": lambda: page_store.append(match_id, {"play": "5-6"}, caller=Caller.local(pad.device)),
        "store settle": lambda: page_store.settle(match_id, [0, 0], caller=Caller.local(pad.device)),
        "store start_hand": lambda: page_store.start_hand(match_id, setter=1, caller=Caller.local(pad.device)),
        "store create_match": lambda: page_store.create_match(players=["Eve", "Fay"], caller=Caller.local()),
        "store load": lambda: page_store.load(match_id),
        "table undo": table.undo,
        "table draw": table.draw,
        "table tile": lambda: table.tap_tile(5, 6),
        "match book": lambda: pad.book.store.create_match(players=["Eve", "Fay"], caller=Caller.local()),
    }
    assert_refused(writes)
    assert stored(store, match_id) == before
    assert len(store.list_matches()) == 1
    assert_still_dead(wired)


async def test_a_dead_page_stops_following_its_match(
    store: Store, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    match_id = new_match(store)
    one = await Wired(store, route=f"/match/{match_id}").open()
    two = await Wired(store, route=f"/match/{match_id}").open()
    assert one.session is not None
    live = screen_of(one.session.id)
    assert live is not None and live.topic is not None
    # A bug in the live update's redraw: page one dies when page two's entry reaches it.
    monkeypatch.setattr(Table, "refresh", bug)
    await two.tap("tile-5-5")
    await wait_for(lambda: one.exists(DEAD_ID), "page one never died")
    assert_dead(one, caplog)
    assert live.topic is None and live.ended
    monkeypatch.undo()
    # It hears nothing more, even when it comes back from a lost connection. A third page follows the
    # match as a witness: once it shows page two's next entry, page one would have heard it too.
    three = await Wired(store, route=f"/match/{match_id}").open()
    sent = len(one.connection.sent)
    live.back()
    held = three.text("tiles-held")
    await two.tap("tile-0-5")
    await wait_for(lambda: three.text("tiles-held") != held, "page three never heard page two's entry")
    assert live.topic is None
    assert set(one.identified()) == {DEAD_ID, RELOAD_ID}
    assert_nothing_leaked(one)
    # Page two goes on: it is not dead, and its entries are stored.
    assert two.text("board-count") == "10"
    assert store.load(match_id).revision is not None
    assert len(one.connection.sent) >= sent
    finish(one, two, three)


async def test_a_bug_in_a_route_change_is_caught_before_flet_sends_its_crash(
    store: Store, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    match_id = new_match(store)
    wired = await Wired(store).open()
    monkeypatch.setattr(ScorePad, "show", bug)
    assert wired.session is not None
    # The browser's back button or an address typed: Flet's own handler path, not a tap of ours.
    await wired.session.dispatch_event(wired.page._i, "route_change", {"route": f"/match/{match_id}"})
    await wired.settle()
    assert_dead(wired, caplog)
    finish(wired)


async def test_a_bug_while_drawing_kills_the_page(
    store: Store, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    match_id = new_match(store)
    wired = await Wired(store, route=f"/match/{match_id}").open()
    ids = old_ids(wired)
    before = stored(store, match_id)
    monkeypatch.setattr(Table, "board", bug)
    await wired.tap("tile-5-5")  # stored, then the redraw fails
    assert_dead(wired, caplog)
    after = stored(store, match_id)
    monkeypatch.undo()
    assert after != before
    await tap_old(wired, ids, "undo", "tile-0-5")
    assert stored(store, match_id) == after
    finish(wired)


async def test_a_bug_in_main_shows_the_dead_page(
    store: Store, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    match_id = new_match(store)
    monkeypatch.setattr(ScorePad, "show", bug)
    wired = await Wired(store, route=f"/match/{match_id}").open()
    assert_dead(wired, caplog)
    finish(wired)


async def test_a_database_fault_is_said_and_the_page_lives(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    match_id = new_match(store)
    wired = await Wired(store, route=f"/match/{match_id}").open()

    def full(*_args: Any, **_kw: Any) -> Any:
        raise StoreError("The score-pad can't save right now: the disk is full. Nothing was lost; try again.")

    monkeypatch.setattr(store, "append", full)
    await wired.tap("tile-5-5")
    assert not wired.exists(DEAD_ID)
    assert "the disk is full" in wired.find("message").content.content.value
    monkeypatch.undo()
    await wired.tap("tile-5-5")  # the next entry heals
    assert wired.text("board-count") == "10"
    assert_nothing_leaked(wired)
    finish(wired)


@pytest.mark.parametrize("typed", ["²", "⑧", "5" * 5000])
async def test_the_issues_inputs_are_answered_in_words(store: Store, typed: str) -> None:
    wired = await Wired(store, route="/match/99999999999999999999").open()
    assert not wired.exists(DEAD_ID)
    assert "no match" in wired.find("message").content.content.value
    await wired.tap("new-match")
    await wired.type("target", typed)
    assert not wired.exists(DEAD_ID)
    assert wired.exists("start-match")
    # The pip field, on a fresh table at the end of a hand.
    table = await Wired(store, route=f"/match/{new_match(store)}").open()
    for tile, at in GO_OUT_HAND:
        low, high = sorted(int(v) for v in tile.split("-"))
        await table.tap(f"tile-{low}-{high}")
        if at is not None and table.exists(f"at-{at}"):
            await table.tap(f"at-{at}")
    await table.type("remaining-1", typed)
    assert not table.exists(DEAD_ID)
    assert table.text("settle-problem").startswith("Bob holds 1 tile: ")
    assert_nothing_leaked(wired)
    assert_nothing_leaked(table)
    finish(wired, table)


async def test_a_tournament_table_page_that_crashes_is_dead(
    store: Store, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    _service, event_id, _desk, codes = request.getfixturevalue("event")
    wired = await Wired(store, route=f"/event/{event_id}/table").open()
    await wired.type("table-code", codes[1])
    await wired.tap("join")
    pad = pad_of(wired)
    table = pad.table
    assert table is not None
    match_id = table.match_id
    guarded = table.store
    await wired.tap("setter-0")  # the round's first hand: Ann sets
    await wired.tap("next-hand")
    ids = old_ids(wired)
    tiles = sorted(name for name in ids if name.startswith("tile-"))
    assert tiles, sorted(ids)
    before = stored(store, match_id)

    monkeypatch.setattr(Table, "tap_tile", bug)
    await wired.tap(tiles[-1])
    assert_dead(wired, caplog)
    monkeypatch.undo()
    assert stored(store, match_id) == before
    await tap_old(wired, ids, *[n for n in ("undo", tiles[-1], "draw") if n in ids])
    # The guarded store refuses first (the table's code was dropped), the page's store behind it too.
    writes = {
        "guarded append": lambda: guarded.append(match_id, {"play": tiles[-1][5:]}, caller=pad.caller),
        "guarded undo": lambda: guarded.undo(match_id, caller=pad.caller),
        "page store": lambda: pad.store.start_hand(match_id, setter=0, caller=Caller.local(pad.device)),
    }
    assert_refused(writes, (PageRevoked, StoreError))
    assert stored(store, match_id) == before
    assert_still_dead(wired)


async def test_a_director_page_that_crashes_is_dead_and_signed_out(
    store: Store, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    service = TournamentService(store)
    event_id = service.create_event(name="Open", password=PASSWORD, rounds=2, options={"target": 60}, seed="s")
    wired = await Wired(store, route=f"/event/{event_id}/director").open()
    await wired.type("password", PASSWORD)
    await wired.tap("sign-in")
    for name in ("Ann", "Bob"):
        await wired.type("player", name)
        await wired.tap("register")
    assert wired.text("entrants") == "Ann, Bob"
    await wired.type("player", "Cy")  # typed, not yet registered
    ids = old_ids(wired)
    desks: list[Desk] = []

    def broken_load(desk: Desk) -> None:
        desks.append(desk)
        bug()

    # Read again after the pairing is made (outside the desk's own guard of the service's refusals).
    monkeypatch.setattr(Desk, "load", broken_load)
    await wired.tap("pair")
    assert_dead(wired, caplog)
    monkeypatch.undo()
    await tap_old(wired, ids, "register", "pair")
    # The dead page's own desk has lost its credential: the service refuses it.
    (desk,) = desks
    assert not desk.signed_in
    assert not desk.register("Cy") and not desk.pair()
    other = Desk(service, event_id, source="another-phone")
    assert other.sign_in(PASSWORD), other.message
    assert other.entrants() == ["Ann", "Bob"]
    assert_still_dead(wired)


async def test_a_bug_in_the_halls_rotation_kills_the_hall_page(
    store: Store, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The rotation is a task Flet runs and reports no failure of: the page dies there, not in asyncio's log."""
    from scorepad.app.shell import event_pages as tournament_screens

    service = TournamentService(store)
    event_id = service.create_event(name="Open", password=PASSWORD, rounds=2, options={"target": 60}, seed="s")
    monkeypatch.setattr(tournament_screens, "HALL_SECONDS", 0.05)  # the next turn of the rotation now
    turns: list[int] = []

    def broken_rotate(_hall: Any) -> None:
        turns.append(1)
        bug()

    monkeypatch.setattr(Hall, "rotate", broken_rotate)
    wired = await Wired(store, route=f"/event/{event_id}/hall").open()
    await wait_for(lambda: DEAD_ID in wired.identified(), "the hall page died")
    assert_dead(wired, caplog)
    count = len(turns)
    await asyncio.sleep(0.3)  # several turns' worth: a dead hall's rotation has stopped
    assert len(turns) == count
    assert_still_dead(wired)


async def test_over_the_real_transport_no_traceback_is_sent_and_old_taps_write_nothing(tmp_path: Path) -> None:
    """A served page (the bug from ``bug_shim``), a raw WebSocket client: Flet's crash message never comes."""
    db_url = f"sqlite:///{tmp_path / 'crash.db'}"
    match_id = stored_match(db_url)
    env = {"PYTHONPATH": str(SHIM), "SCOREPAD_TEST_BUG": "6-6", "SCOREPAD_LIVE_LOG": "1"}
    server = WebServer(db_url, tmp_path / "server.log", env=env).start()
    frames: list[bytes] = []
    checked = open_store(db_url)
    try:
        page = await FletClient(server.url, f"/match/{match_id}").open(ready="tile-6-6")
        receive = page._ws.recv

        async def recorded(*args: Any, **kwargs: Any) -> Any:
            frame = await receive(*args, **kwargs)
            frames.append(frame if isinstance(frame, bytes) else frame.encode())
            return frame

        page._ws.recv = recorded  # every frame from here on is kept
        await page.tap("tile-5-5")
        old = dict(page.ids)
        before = stored(checked, match_id)
        await page.tap("tile-6-6")
        await wait_for(lambda: DEAD_ID in page.ids, "the page never died")
        assert page.crashed is None, page.crashed
        left = server.log().count(" left; ")  # the dead page stopped following its match
        for name in ("undo", "tile-0-5", "draw"):
            await page._send(EVENT, {"target": old[name], "name": "click", "data": None})
        # Frames on one socket are handled in order: once its close is, so were the taps before it.
        await page.close()
        await wait_for(lambda: server.log().count(" left; ") > left, "the server never saw the page go", timeout=30)
        assert stored(checked, match_id) == before
    finally:
        checked.close()
        server.stop()
    log = server.log()
    assert "Traceback" in log and "is dead (error " in log
    assert frames
    for frame in frames:
        for leak in LEAKS:
            assert leak.encode() not in frame, leak
