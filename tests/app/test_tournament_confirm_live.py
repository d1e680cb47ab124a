"""A hand confirmed on one phone of a table: the table's other phone redraws without it.

Raw WebSocket pages (``tests/flet_client.py``) on real servers over
PostgreSQL: the table's two phones in one server process, and in two
server processes on one database (their live updates travel by NOTIFY).
The first phone plays a hand to its end as a scorekeeper taps it (the load
test's own scorekeeper, ``benchmarks/tournament_load.py``); both phones
then show the confirmation bar; the first confirms, and the second must
drop the bar by itself, with no entry after it.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from benchmarks.tournament_load import TableRun, join, make_event
from tests.flet_client import FletClient, WebServer

# The store tests' PostgreSQL fixtures (a fresh schema per test), as tests/app/test_tournament.py uses them.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from store.conftest import pg_base_url, pg_url  # noqa: F401

# A bound on a slow, loaded machine: the page is expected well within a second.
REDRAW_TIMEOUT_S = 20.0
SEED = 3


async def without(page: FletClient, identifier: str, *, timeout: float) -> float:
    """Wait until the page's latest draw lacks ``identifier``; the seconds it took. Raises TimeoutError."""
    started = time.monotonic()
    while identifier in page.drawn:
        await page.redrawn(len(page.drawn_at), timeout=max(0.01, started + timeout - time.monotonic()))
    return time.monotonic() - started


@pytest.mark.postgres
@pytest.mark.asyncio
@pytest.mark.parametrize("processes", [1, 2], ids=["one-process", "two-processes"])
async def test_the_other_phone_drops_the_confirmation_bar_when_a_hand_is_confirmed(
    request: pytest.FixtureRequest, tmp_path: Path, processes: int
) -> None:
    db_url = request.getfixturevalue("pg_url")
    event, seats, rules = make_event(db_url, 1)
    seat = seats[0]
    servers = [WebServer(db_url, tmp_path / f"server{n}.log").start() for n in range(processes)]
    try:
        run = TableRun(seat, rules, SEED, hands=1, timeout=REDRAW_TIMEOUT_S)
        run.phone = await join(servers[0].url, event, seat.code)
        run.other = await join(servers[-1].url, event, seat.code)
        # The scorekeeper taps the hand to its end (the settlement, if it needs one).
        while (step := run.next_step()) is not None and step.write is not None:
            await run.perform(step)
        assert step is not None and step.taps[0].identifier == "confirm-hand", step
        await run.other.showing("confirm-hand", timeout=REDRAW_TIMEOUT_S)
        await run.phone.showing("confirm-hand", timeout=REDRAW_TIMEOUT_S)
        await run.phone.tap("confirm-hand", timeout=REDRAW_TIMEOUT_S)
        took = await without(run.other, "confirm-hand", timeout=REDRAW_TIMEOUT_S)
        assert "table-title" in run.other.drawn and "provisional" not in run.other.drawn
        print(f"the other phone dropped the confirmation bar {took * 1000:.0f} ms after the confirmation")
        for page in (run.phone, run.other):
            await page.close()
        for server in servers:
            assert "Traceback" not in server.log()
    finally:
        for server in servers:
            server.stop()
