"""The web server's pages coming and going, and several server processes: raw WebSocket pages, no browser.

Each test starts ``python -m scorepad.app web`` with ``SCOREPAD_LIVE_LOG=1``,
so the server logs every page that opens, follows a match, leaves or is
dropped, with the count of pages that follow a match; the tests read that
log and wait on progress (a patch, a log line), bounded by timeouts.
"""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from scorepad.access import Caller
from scorepad.simulate import simulate
from scorepad.store import open_store
from scorepad.tournament import TournamentService
from tests.app.test_tournament_browser import PASSWORD, director_plays_table_one, registered
from tests.flet_client import FletClient, WebServer

LIVE_LOG = {"SCOREPAD_LIVE_LOG": "1", "SCOREPAD_PAGES_PER_ADDRESS": "200"}
FOLLOW_S = 1.0  # an entry must reach the other pages within this


def new_match(db_url: str) -> int:
    """A two-player match with its first hand started (Ann sets)."""
    store = open_store(db_url)
    try:
        match_id = store.create_match(players=["Ann", "Bob"], caller=Caller.local())
        store.start_hand(match_id, setter=0, caller=Caller.local())
        return match_id
    finally:
        store.close()


def followers(log: str) -> int | None:
    """The number of pages following a match, as the server last logged it."""
    counts = re.findall(r"(\d+) page\(s\) follow a match", log)
    return int(counts[-1]) if counts else None


async def wait_log(server: WebServer, pattern: str, *, timeout: float = 30.0) -> str:
    """Wait until the server log matches ``pattern``; returns the log."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        log = server.log()
        if re.search(pattern, log):
            return log
        await asyncio.sleep(0.05)
    raise AssertionError(f"the server never logged {pattern!r}; log ends: {server.log()[-1500:]}")


async def all_left(server: WebServer, opened: int, *, timeout: float = 30.0) -> str:
    """Wait until ``opened`` pages have left and none follows a match; returns the log."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        log = server.log()
        if log.count(" left; ") >= opened and followers(log) == 0:
            return log
        await asyncio.sleep(0.05)
    raise AssertionError(f"pages still follow a match; log ends: {server.log()[-1500:]}")


async def followed(pages: list[FletClient], before: list[int], *, timeout: float = 10.0) -> float:
    """Wait until every page has had a patch since ``before``; returns the seconds it took."""
    started = time.perf_counter()
    while any(page.patches <= count for page, count in zip(pages, before, strict=True)):
        if time.perf_counter() - started > timeout:
            raise AssertionError("a page never showed the entry")
        await asyncio.sleep(0.002)
    return time.perf_counter() - started


@pytest.fixture
def sqlite_server(tmp_path: Path) -> Iterator[tuple[WebServer, int]]:
    db_url = f"sqlite:///{tmp_path / 'live.db'}"
    match_id = new_match(db_url)
    server = WebServer(db_url, tmp_path / "server.log", env=LIVE_LOG).start()
    yield server, match_id
    server.stop()


@pytest.mark.asyncio
async def test_fifty_pages_opened_and_closed_leave_nothing_behind(sqlite_server: tuple[WebServer, int]) -> None:
    server, match_id = sqlite_server
    route = f"/match/{match_id}"
    for batch in range(5):
        pages = await asyncio.gather(*(FletClient(server.url, route).open(ready="tile-4-6") for _ in range(10)))
        await asyncio.gather(*(page.close() for page in pages))
        await all_left(server, 10 * (batch + 1))
    assert server.log().count(" opened") == 50
    # Then a tile on one of two new pages: the other shows it, nothing else is called.
    one, two = [await FletClient(server.url, route).open(ready="tile-4-6") for _ in range(2)]
    before = [two.patches]
    await one.tap("tile-4-6")
    took = await followed([two], before)
    assert took < FOLLOW_S
    log = server.log()
    assert "Traceback" not in log and "AttributeError" not in log and "ERROR" not in log, log[-3000:]
    assert followers(log) == 2
    await one.close()
    await two.close()


@pytest.mark.asyncio
async def test_a_half_open_websocket_does_not_hold_up_sigterm(sqlite_server: tuple[WebServer, int]) -> None:
    from websockets.asyncio.client import connect

    server, _match_id = sqlite_server
    never_registers = await connect(server.url.replace("http://", "ws://") + "ws")
    page = await FletClient(server.url).open(ready="new-match")
    assert server.process is not None
    started = time.monotonic()
    server.terminate()
    while server.process.poll() is None and time.monotonic() - started < 15:
        await asyncio.sleep(0.05)
    took = time.monotonic() - started
    assert server.process.poll() is not None, "still running 15 s after SIGTERM"
    assert took < 5.0, f"took {took:.1f} s to stop"
    assert "Traceback" not in server.log()
    await never_registers.close()
    await page.close()


@pytest.mark.asyncio
async def test_a_disconnected_page_is_dropped(tmp_path: Path) -> None:
    db_url = f"sqlite:///{tmp_path / 'live.db'}"
    match_id = new_match(db_url)
    # Flet evicts every 10 s; a 1 s timeout shows the mechanism without a minute's wait.
    server = WebServer(db_url, tmp_path / "server.log", env={**LIVE_LOG, "FLET_SESSION_TIMEOUT": "1"}).start()
    try:
        page = await FletClient(server.url, f"/match/{match_id}").open(ready="tile-4-6")
        await page.close()
        log = await wait_log(server, r"page \w+ dropped", timeout=30)
        assert followers(log) == 0
    finally:
        server.stop()


def test_the_default_keeps_a_disconnected_page_under_a_minute() -> None:
    from scorepad.app.shell.pages import SESSION_TIMEOUT_SECONDS

    # Flet's eviction runs every 10 s: dropped within timeout + 10 s.
    assert SESSION_TIMEOUT_SECONDS + 10 <= 60


def test_workers_need_postgresql(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "scorepad.app", "web", "--workers", "2", "--db", f"sqlite:///{tmp_path / 'x.db'}"],
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ, FLET_WEB_NO_CDN="1"),
    )
    assert result.returncode == 2
    assert result.stderr.strip() == (
        "scorepad: --workers needs a PostgreSQL database (--db postgresql://...):"
        " an SQLite file is served by one process"
    )


# -- several processes on PostgreSQL ---------------------------------------------------


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A URL on a fresh PostgreSQL schema (dropped after the test); skips where no server listens."""
    import socket

    base = os.environ.get("SCOREPAD_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
    parsed = make_url(base)
    try:
        socket.create_connection((parsed.host or "127.0.0.1", parsed.port or 5432), timeout=3).close()
    except OSError as err:
        pytest.skip(f"PostgreSQL unreachable ({err})")
    schema = f"scorepad_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(base)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield parsed.update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(hide_password=False)
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@pytest.mark.postgres
@pytest.mark.asyncio
async def test_workers_serve_one_address_and_pages_follow_across_them(pg_url: str, tmp_path: Path) -> None:
    match_id = new_match(pg_url)
    server = WebServer(pg_url, tmp_path / "server.log", workers=2, env=LIVE_LOG).start()
    try:
        route = f"/match/{match_id}"
        pages: list[FletClient] = []
        # Connections go to whichever worker accepts them: open pages until both have some.
        while len(pages) < 40:
            pages.append(await FletClient(server.url, route).open(ready="tile-4-6"))
            pids = set(re.findall(r"pid=(\d+) page \w+ opened", server.log()))
            if len(pids) == 2 and len(pages) >= 4:
                break
        assert len(pids) == 2, "every page went to one worker"
        others = pages[1:]
        before = [page.patches for page in others]
        await pages[0].tap("tile-4-6")
        took = await followed(others, before)
        assert took < FOLLOW_S, f"the last page followed after {took:.3f} s"
        store = open_store(pg_url)
        try:
            assert store.export_record(match_id)["hands"][0]["events"] == [{"play": "4-6"}]
        finally:
            store.close()
        assert "Traceback" not in server.log()
        for page in pages:
            await page.close()
    finally:
        server.stop()


@pytest.mark.browser
@pytest.mark.asyncio
async def test_browser_pages_opened_and_closed_leave_nothing_behind(sqlite_server: tuple[WebServer, int]) -> None:
    """The same with Chromium pages (fewer: each costs a second or two here)."""
    from playwright.async_api import async_playwright

    from tests.browser import CHROMIUM, CHROMIUM_ARGS, PHONE, sel

    if not CHROMIUM.exists():
        pytest.skip(f"needs Debian's chromium at {CHROMIUM}")
    server, match_id = sqlite_server
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            for _ in range(10):
                context = await browser.new_context(viewport=PHONE)
                page = await context.new_page()
                await page.goto(f"{server.url}match/{match_id}")
                await page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=60_000)
                await page.locator("flt-semantics-placeholder").evaluate("e => e.click()")
                await page.wait_for_selector(sel("board-count"), state="attached", timeout=60_000)
                await context.close()
        finally:
            await browser.close()
    await all_left(server, 10)
    assert server.log().count(" opened") == 10
    one, two = [await FletClient(server.url, f"/match/{match_id}").open(ready="tile-4-6") for _ in range(2)]
    before = [two.patches]
    await one.tap("tile-4-6")
    assert await followed([two], before) < FOLLOW_S
    log = server.log()
    assert "Traceback" not in log and "AttributeError" not in log and "ERROR" not in log, log[-3000:]
    assert followers(log) == 2
    await one.close()
    await two.close()


SCOREPAD = Path(sys.executable).with_name("scorepad")


async def gone(page: FletClient, identifier: str, *, timeout: float) -> float:
    """Wait until the page's latest draw no longer holds ``identifier``; returns the seconds it took."""
    started = time.monotonic()
    while identifier in page.drawn:
        left = timeout - (time.monotonic() - started)
        assert left > 0, f"{identifier} still shown {timeout} s later"
        await page.redrawn(len(page.drawn_at), timeout=left)
    return time.monotonic() - started


@pytest.mark.postgres
@pytest.mark.asyncio
async def test_the_command_line_beside_a_server_reaches_its_pages(pg_url: str, tmp_path: Path) -> None:
    """The director confirms a hand with ``scorepad tournament confirm`` on the server's database: the table's
    phone drops its confirmation bar at once. It has no timer of its own: before, a process that served no
    pages told no other process of its changes (``tests/store/test_notify.py`` has an entry's case)."""
    event, code = registered(pg_url, "Club", ("Ann", "Bob", "Cy", "Dee"), seed="cli", pair=True)
    assert code is not None
    store = open_store(pg_url)
    try:
        director_plays_table_one(
            TournamentService(store), event, simulate("smartt", 2, 200, 3, {})[0].to_record()["hands"][0]
        )
    finally:
        store.close()
    server = WebServer(pg_url, tmp_path / "server.log", env=LIVE_LOG).start()
    try:
        phone = await FletClient(server.url, f"/event/{event}/table").open(ready="table-code")
        await phone.type("table-code", code, answered=False)
        await phone.tap("join")
        await phone.showing("confirm-hand")
        environment = {k: v for k, v in os.environ.items() if not k.startswith("SCOREPAD_")}
        done = subprocess.run(
            [str(SCOREPAD), "tournament", "confirm", str(event), "1", "--db", pg_url],
            env={**environment, "SCOREPAD_DIRECTOR_PASSWORD": PASSWORD},
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0 and "hand 1 confirmed" in done.stdout, (done.stdout, done.stderr)
        took = await gone(phone, "confirm-hand", timeout=10.0)
        assert "hand-result" in phone.drawn
        print(f"the phone dropped its confirmation bar {took * 1000:.0f} ms after the command returned")
        assert "Traceback" not in server.log()
        await phone.close()
    finally:
        server.stop()
