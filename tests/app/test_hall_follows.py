"""The hall follows its round: entries at most once a gap, an announced change (a confirmed hand) at once.

In process (real Flet sessions, no browser, SQLite). The gap between two
readings of the round is made a minute long here, so a confirmation shown
within seconds can only have been read without waiting it out (the hall's
rotation asks for a reading within the gap too, and cannot help).
"""

from __future__ import annotations

from typing import Any

import pytest

from scorepad.app.models.tournament import Hall
from scorepad.app.shell import board, event_pages
from scorepad.store import Store

from .test_crash_page import wait_for
from .test_tournament import device_on, event, first_game_hand, play_hand  # noqa: F401 (event: a fixture)
from .wiring import Wired

pytestmark = pytest.mark.asyncio


async def open_hall(store: Store, event_id: int) -> Wired:
    """The event's hall page at 1920x1080, in this process."""
    return await Wired(store, route=f"/event/{event_id}/hall", width=1920, height=1080).open()


async def table_two_starts(made: Any, store: Store, hall: Wired) -> None:
    """Table 2's phone starts its hand (``made``: the ``event`` fixture); the hall shows it in play."""
    service, event_id, _desk, codes = made
    _device, second = device_on(service, event_id, codes[2], store)
    second.store.start_hand(second.match_id, 0, caller=second.caller)
    await wait_for(lambda: "in play" in hall.text("hall-hand-2"), "the hall showed table 2's entry")


async def test_a_confirmed_hand_reaches_the_hall_without_waiting_out_the_gap(
    store: Store,
    event: Any,  # noqa: F811 (the fixture imported above)
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(board, "BOARD_GAP_SECONDS", 60.0)
    service, event_id, _desk, codes = event
    device, table = device_on(service, event_id, codes[1], store)
    play_hand(table, first_game_hand())
    hall = await open_hall(store, event_id)
    try:
        assert hall.text("hall-provisional") == "1 table provisional"
        # Table 2 starts its hand: an entry, read after the burst settles; the next reading waits the gap.
        await table_two_starts(event, store, hall)
        # Table 1's hand is confirmed by the opposing side: the hall shows it within seconds, not the gap.
        assert device.confirm(table.state, 1), device.message
        await wait_for(lambda: hall.text("hall-provisional") == "0 tables provisional", "the confirmation shown")
    finally:
        hall.close()


async def test_the_hall_follows_again_after_its_connection_came_back(
    store: Store,
    event: Any,  # noqa: F811 (the fixture imported above)
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The hall's rotation asks for a reading every few seconds, here every twentieth of one. While the
    # screen's Wi-Fi is down that reading cannot run, and it must not end the page's tasks for good.
    monkeypatch.setattr(event_pages, "HALL_SECONDS", 0.05)
    rotations: list[int] = []
    rotate = Hall.rotate

    def counted(hall: Hall) -> None:
        rotate(hall)
        rotations.append(1)

    monkeypatch.setattr(Hall, "rotate", counted)
    monkeypatch.setattr(Hall, "page", lambda _hall: "tables")  # the tables' page stays up as the rotation turns
    hall = await open_hall(store, event[1])
    try:
        assert hall.session is not None
        await hall.session.disconnect(30)
        away = len(rotations)
        await wait_for(lambda: len(rotations) > away + 1, "the rotation came round while the page was away")
        await hall.session.connect(hall.connection)
        await table_two_starts(event, store, hall)
    finally:
        hall.close()


async def test_a_tap_on_a_pages_name_shows_that_page(store: Store, event: Any) -> None:  # noqa: F811
    """The hall's page names are buttons (48 px): a spectator need not wait out the rotation."""
    _service, event_id, _desk, _codes = event
    hall = await open_hall(store, event_id)
    try:
        assert hall.text("hall-page") == "Pairings by table"
        await hall.tap("hall-tab-standings")
        await wait_for(lambda: hall.text("hall-page") == "Standings", "the hall showed the standings")
        await hall.tap("hall-tab-names")
        await wait_for(lambda: hall.text("hall-page") == "Pairings by name", "the hall showed the names")
    finally:
        hall.close()
