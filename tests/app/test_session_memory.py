"""Two hundred pages opened and dropped: none is kept, no entry logs a traceback, the memory comes back.

A real ``scorepad web`` subprocess with ``SCOREPAD_LIVE_LOG=1`` (it logs
every page that opens, leaves and is dropped, and each sweep of the dropped
pages' memory), raw WebSocket pages (``FletClient``), and the server's
resident memory read from ``/proc``. The pages are dropped abruptly (the TCP
connection cut, no close handshake), as a phone that walks out of the Wi-Fi
does, and Flet's own session timeout (``SESSION_TIMEOUT_SECONDS``) ends
them: the test waits on the log's count of dropped and swept pages, bounded
by a minute after the drop, as the issue asks.

What comes back, and what does not (measured; see docs/app.md): after the
sweep no page object is left but the one Flet's eviction loop still names,
and the memory Python's objects hold (``sys.getallocatedblocks``) is back
within 10% of idle. The process's RSS is not: CPython's small-object
allocator keeps every 1 MiB arena that still holds a live object, and the
few objects made while the pages were open (caches, a grown dict) pin
arenas all over; a second round of 200 pages reuses them, so the RSS after
it is checked within 10% of the RSS after the first: memory does not grow
round after round. The figures against idle are printed.
"""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path

import pytest

from scorepad.app.shell.pages import SESSION_TIMEOUT_SECONDS
from tests.app.test_live_server import new_match
from tests.flet_client import FletClient, WebServer

PAGES = 200
MATCHES = 4  # the pages share a few matches, so every entry is broadcast to many of them
AT_ONCE = 20  # pages opened together (one client address: under the cap set below)
WARM_UP = 10
# Flet evicts every 10 s: a dropped page is gone within its timeout plus 10 s; a minute is the bound.
DROPPED_WITHIN_S = 60.0
SLACK = 0.10
ENV = {"SCOREPAD_LIVE_LOG": "1", "SCOREPAD_PAGES_PER_ADDRESS": str(PAGES + WARM_UP)}
SWEPT = re.compile(
    r"swept (\d+) dropped page\(s\): (\d+) objects freed; (\d+) page\(s\) in memory; (\d+) blocks allocated"
)


def rss_kib(pid: int) -> int:
    """The process's resident memory in KiB (``VmRSS`` in ``/proc/PID/status``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError(f"no VmRSS for process {pid}")


def dropped(server: WebServer) -> int:
    """How many pages the server has dropped (Flet's timeout closed them), as its log says."""
    return server.log().count(" dropped")


def sweeps(server: WebServer) -> list[tuple[int, int, int, int]]:
    """The server's sweeps so far: (pages dropped, objects freed, match pages in memory, blocks allocated)."""
    return [(int(a), int(b), int(c), int(d)) for a, b, c, d in SWEPT.findall(server.log())]


async def wait_swept(server: WebServer, count: int, *, timeout: float) -> float:
    """Wait until ``count`` pages have been dropped and swept; returns the seconds it took. Fails at ``timeout``."""
    started = time.monotonic()
    while dropped(server) < count or sum(s[0] for s in sweeps(server)) < count:
        if time.monotonic() - started > timeout:
            raise AssertionError(
                f"{dropped(server)} of {count} pages dropped after {timeout:.0f} s; log ends: {server.log()[-1500:]}"
            )
        await asyncio.sleep(0.25)
    return time.monotonic() - started


def cut(page: FletClient) -> None:
    """Drop a page abruptly: the TCP connection is cut without a WebSocket close."""
    assert page._ws is not None
    page._ws.transport.abort()
    if page._reader is not None:
        page._reader.cancel()


async def open_and_cut(server: WebServer, routes: list[str]) -> None:
    """Open a page on each route, ``AT_ONCE`` at a time, each showing its table, then cut them all."""
    opened: list[FletClient] = []
    for start in range(0, len(routes), AT_ONCE):
        batch = routes[start : start + AT_ONCE]
        opened += await asyncio.gather(*(FletClient(server.url, r).open(ready="tile-4-6", timeout=60) for r in batch))
    for page in opened:
        cut(page)


async def round_of_pages(server: WebServer, routes: list[str], already: int) -> tuple[int, float]:
    """Open and drop one page per route; returns the RSS once they are all dropped and swept, and the seconds."""
    assert server.process is not None
    await open_and_cut(server, routes)
    took = await wait_swept(server, already + len(routes), timeout=DROPPED_WITHIN_S)
    return rss_kib(server.process.pid), took


@pytest.mark.asyncio
async def test_two_hundred_dropped_pages_leave_nothing_behind(tmp_path: Path) -> None:
    db_url = f"sqlite:///{tmp_path / 'memory.db'}"
    matches = [new_match(db_url) for _ in range(MATCHES)]
    routes = [f"/match/{matches[i % MATCHES]}" for i in range(PAGES)]
    server = WebServer(db_url, tmp_path / "server.log", env=ENV).start()
    try:
        assert server.process is not None
        pid = server.process.pid
        # Warm-up: the first pages bring in the lazy imports and caches; idle is measured once they are swept.
        await open_and_cut(server, routes[:WARM_UP])
        await wait_swept(server, WARM_UP, timeout=SESSION_TIMEOUT_SECONDS + DROPPED_WITHIN_S)
        idle, idle_sweep = rss_kib(pid), sweeps(server)[-1]

        first, took = await round_of_pages(server, routes, WARM_UP)
        swept = sweeps(server)[-1]
        log = server.log()
        assert log.count(" opened") == WARM_UP + PAGES
        assert "Traceback" not in log, log[-3000:]
        # No page is kept, but the one Flet's session eviction loop still names (its loop variable).
        assert swept[2] <= 1, swept
        # The memory Python's objects hold is back: nothing of the 200 pages is reachable.
        assert swept[3] <= idle_sweep[3] * (1 + SLACK), (idle_sweep, swept)

        # One fresh page makes entries on the match most dropped pages showed: no page is called for them.
        page = await FletClient(server.url, routes[0]).open(ready="tile-4-6")
        await page.tap("tile-4-6")
        await page.tap("undo")
        await page.tap("tile-4-6")
        await page.close()
        log = server.log()
        assert "Traceback" not in log and "ERROR" not in log, log[-3000:]

        # A second round reuses the memory of the first: it does not grow round after round.
        second, _ = await round_of_pages(server, routes, WARM_UP + PAGES + 1)
        print(
            f"RSS idle {idle} KiB; {PAGES} pages dropped and swept in {took:.0f} s: {first} KiB "
            f"({(first - idle) / idle:+.1%} on idle); after a second round {second} KiB "
            f"({(second - first) / first:+.1%} on the first). Blocks allocated: idle {idle_sweep[3]}, "
            f"after {swept[3]} ({(swept[3] - idle_sweep[3]) / idle_sweep[3]:+.1%}); "
            f"pages in memory after the sweep: {swept[2]}"
        )
        assert second <= first * (1 + SLACK), f"RSS {second} KiB after a second round, {first} KiB after the first"
    finally:
        server.stop()
