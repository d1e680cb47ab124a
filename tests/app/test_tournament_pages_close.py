"""Closed hall and spectator pages leave nothing behind them on a served subprocess (issue 18 §6).

Twenty pages of the hall and of a delayed spectator are opened and closed
on a real ``scorepad web`` process (``FletClient``: Flet's protocol without a
browser); once the server has dropped all twenty, a hall page kept open
rotates three times (every closed hall's rotation, and every spectator's
delayed drawing, would have woken meanwhile); the server's log then holds
no traceback and no dead page.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from scorepad.access import Caller, Who
from scorepad.store import open_store
from scorepad.tournament import TournamentService
from tests.app.test_tournament import PASSWORD, first_game_hand
from tests.flet_client import FletClient, WebServer

PAGES = 20


def paired_event(url: str) -> int:
    """A four-player event, round 1 paired, with table 1's first hand half entered just now; its id."""
    store = open_store(url)
    try:
        service = TournamentService(store)
        event_id = service.create_event(name="Closing", password=PASSWORD, rounds=2, seed="close")
        director = service.login_director(event_id, PASSWORD)
        for name in ("Ann", "Bob", "Cy", "Dee"):
            service.register(director, event_id, [name])
        service.pair_round(director, event_id)
        match_id = service.round_view(None, event_id).tables[0].match_id
        assert match_id is not None
        hand = first_game_hand()
        store.start_hand(match_id, hand["setter"], caller=Caller(Who.DIRECTOR, device="test", event_id=event_id))
        for event in hand["events"][:6]:
            store.append(match_id, event, caller=Caller(Who.DIRECTOR, device="test", event_id=event_id))
        return event_id
    finally:
        store.close()


def dropped(log: str) -> int:
    """How many pages the server has dropped so far (the sweeper's debug lines)."""
    return sum(int(n) for n in re.findall(r"swept (\d+) dropped page", log))


async def open_and_close(server: WebServer, event_id: int) -> None:
    for n in range(PAGES):
        if n % 2 == 0:
            page = await FletClient(server.url, f"/event/{event_id}/hall", width=1920, height=1080).open(
                ready="hall-title"
            )
        else:
            # A spectator 3 s behind: it has drawings due after the page is gone.
            page = await FletClient(server.url, f"/event/{event_id}/watch/1?delay=3").open(ready="watch-lines")
        await page.close()


async def until_dropped_then_rotated(server: WebServer, event_id: int) -> None:
    kept = await FletClient(server.url, f"/event/{event_id}/hall", width=1920, height=1080).open(ready="hall-title")
    try:
        await open_and_close(server, event_id)
        while dropped(server.log()) < PAGES:
            # Progress: the next patch of the kept page (it rotates every 12 s) or the server's sweep.
            await kept.redrawn(len(kept.drawn_at), timeout=60)
        # Three rotations of the kept hall: at least 24 s after the last page was dropped.
        seen = len(kept.drawn_at)
        await kept.redrawn(seen + 2, timeout=60)
    finally:
        await kept.close()


def test_twenty_closed_hall_and_spectator_pages_leave_no_traceback(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'event.db'}"
    event_id = paired_event(url)
    # Flet drops a disconnected page after 1 s (checked every 10 s); the sweeper's lines count the drops; the
    # closed pages stay counted against the address until they are dropped, so the cap is raised.
    env = {"SCOREPAD_LIVE_LOG": "1", "FLET_SESSION_TIMEOUT": "1", "SCOREPAD_PAGES_PER_ADDRESS": "100"}
    server = WebServer(url, tmp_path / "server.log", env=env).start()
    try:
        asyncio.run(until_dropped_then_rotated(server, event_id))
        log = server.log()
    finally:
        server.stop()
    assert dropped(log) >= PAGES
    assert "Traceback" not in log, log[-4000:]
    assert "is dead" not in log, log[-4000:]
    assert "never awaited" not in log, log[-4000:]
