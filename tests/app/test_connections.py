"""What one client can hold open or send, tried with real sockets against ``scorepad web`` in a subprocess.

A client address on the LAN is played by ``X-Forwarded-For`` sent from
127.0.0.1: uvicorn believes that header from 127.0.0.1 only (its
``forwarded_allow_ips``), as from a proxy in front of the server. The server
runs with 1,024 open files at most, as the issue's probe did.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from scorepad.app.host.connections import HEAD_SECONDS, SPARE_PER_ADDRESS
from scorepad.app.host.pages import REGISTER_SECONDS
from scorepad.app.shell.pages import PAGES_PER_ADDRESS
from tests.app.test_session_memory import rss_kib
from tests.flet_client import UPDATE, FletClient, WebServer

HALF_SENT = 1000
OPEN_FILES = 1024
STRANGER = "198.51.100.7"  # TEST-NET-2: the pub-goer's phone, as the proxy header names it


@pytest.fixture
def served(tmp_path: Path) -> Iterator[WebServer]:
    """``scorepad web --host 0.0.0.0`` (the door on) with 1,024 open files at most."""
    server = WebServer(
        f"sqlite:///{tmp_path / 's.db'}", tmp_path / "server.log", host="0.0.0.0", open_files=OPEN_FILES
    ).start()
    yield server
    server.stop()


def page_status(port: int, *, timeout: float) -> int:
    """A page load by this computer (another address than the stranger's): its status."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", "/")
        reply = conn.getresponse()
        reply.read()
        return reply.status
    finally:
        conn.close()


def closed_by_server(held: list[socket.socket], *, within: float) -> int:
    """How many of ``held`` the server closed (or answered and closed) within ``within`` seconds."""
    deadline = time.monotonic() + within
    closed = 0
    for sock in held:
        try:
            sock.settimeout(max(0.01, deadline - time.monotonic()))
            while sock.recv(65536):
                pass
            closed += 1
        except OSError:
            continue
    return closed


def test_half_sent_requests_from_one_address_are_closed_and_others_still_load(served: WebServer) -> None:
    port = int(served.url.rsplit(":", 1)[1].strip("/"))
    held: list[socket.socket] = []
    try:
        for _ in range(HALF_SENT):
            sock = socket.create_connection(("127.0.0.1", port), timeout=10)
            # A request head that never ends (no blank line).
            sock.sendall(f"GET / HTTP/1.1\r\nHost: 192.0.2.7:{port}\r\nX-Forwarded-For: {STRANGER}\r\n".encode())
            held.append(sock)
        started = time.monotonic()
        assert page_status(port, timeout=30) == 200
        print(f"page loaded {time.monotonic() - started:.2f} s after {HALF_SENT} half-sent requests")
        assert closed_by_server(held, within=HEAD_SECONDS + 20) == HALF_SENT
    finally:
        for sock in held:
            sock.close()


def _join_cookie(server: WebServer, port: int, address: str) -> str:
    code = re.search(r"join code (\d+)", server.log())
    assert code, server.log()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        headers = {"Host": f"192.0.2.7:{port}", "X-Forwarded-For": address}
        conn.request("GET", f"/join?code={code.group(1)}", headers=headers)
        reply = conn.getresponse()
        reply.read()
        assert reply.status == 303
        return reply.getheader("set-cookie", "").split(";")[0]
    finally:
        conn.close()


def test_requests_held_open_by_one_address_are_capped(served: WebServer) -> None:
    port = int(served.url.rsplit(":", 1)[1].strip("/"))
    held: list[socket.socket] = []
    head = (
        f"POST /join HTTP/1.1\r\nHost: 192.0.2.7:{port}\r\nX-Forwarded-For: {STRANGER}\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\ncode="
    ).encode()
    try:
        for _ in range(HALF_SENT):
            sock = socket.create_connection(("127.0.0.1", port), timeout=10)
            sock.sendall(head)  # the head whole, the body never
            held.append(sock)
        assert page_status(port, timeout=30) == 200
        refused = 0
        deadline = time.monotonic() + 20
        for sock in held:
            sock.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                answer = sock.recv(65536)
            except OSError:
                continue
            refused += answer.startswith(b"HTTP/1.1 503") and b"Too many connections" in answer
        cap = PAGES_PER_ADDRESS + SPARE_PER_ADDRESS
        assert refused >= HALF_SENT - cap, f"{refused} of {HALF_SENT} refused"
    finally:
        for sock in held:
            sock.close()


def _socket_as(port: int, address: str, cookie: str) -> Any:
    sock = socket.create_connection(("127.0.0.1", port), timeout=20)
    headers = {"X-Forwarded-For": address, "Cookie": cookie}
    return connect(f"ws://192.0.2.7:{port}/ws", sock=sock, additional_headers=headers, open_timeout=20, close_timeout=2)  # type: ignore[arg-type]


@pytest.mark.asyncio
async def test_sockets_that_never_register_are_capped_and_closed(served: WebServer) -> None:
    port = int(served.url.rsplit(":", 1)[1].strip("/"))
    cookie = await asyncio.to_thread(_join_cookie, served, port, STRANGER)
    before = rss_kib(served.process.pid)  # type: ignore[union-attr]
    accepted: list[Any] = []
    refused = 0
    with contextlib.ExitStack() as held:
        for _ in range(200):
            try:
                accepted.append(held.enter_context(await asyncio.to_thread(_socket_as, port, STRANGER, cookie)))
            except InvalidStatus as err:
                assert err.response.status_code == 403
                refused += 1
        assert len(accepted) <= PAGES_PER_ADDRESS and refused >= 200 - PAGES_PER_ADDRESS
        # Another address opens a page meanwhile.
        page = await FletClient(served.url).open(ready="new-match")
        await page.close()
        # The unregistered ones are closed by the server.
        deadline = time.monotonic() + REGISTER_SECONDS + 15
        for ws in accepted:
            with pytest.raises(ConnectionClosed):
                ws.recv(timeout=max(0.01, deadline - time.monotonic()))
        after = rss_kib(served.process.pid)  # type: ignore[union-attr]
        print(f"server memory {before / 1024:.0f} MB before 200 unregistered sockets, {after / 1024:.0f} MB after")


@pytest.fixture
def local(tmp_path: Path) -> Iterator[WebServer]:
    server = WebServer(f"sqlite:///{tmp_path / 's.db'}", tmp_path / "server.log").start()
    yield server
    server.stop()


@pytest.mark.asyncio
async def test_a_huge_property_update_closes_its_page_cleanly_and_memory_returns(local: WebServer) -> None:
    page = await FletClient(local.url).open(ready="new-match")
    before = rss_kib(local.process.pid)  # type: ignore[union-attr]
    # A property update of 1 MiB: no field takes that much; dropped, and the page goes on.
    await page._send(UPDATE, {"id": page.ids["new-match"], "props": {"value": "x" * (1 << 20)}})
    await page.tap("new-match")
    assert not page.crashed
    # 15 MiB in one message: the connection is closed (1009, too big), nothing kept.
    for _ in range(3):
        victim = await FletClient(local.url).open(ready="new-match")
        await victim._send(UPDATE, {"id": victim.ids["new-match"], "props": {"value": "x" * (15 << 20)}})
        await asyncio.wait_for(victim._reader, 30)  # type: ignore[arg-type]
        assert victim._ws.close_code == 1009
    after = rss_kib(local.process.pid)  # type: ignore[union-attr]
    print(f"server memory {before / 1024:.0f} MB before 3 updates of 15 MiB, {after / 1024:.0f} MB after")
    assert after - before < 32 * 1024
    # The server goes on.
    again = await FletClient(local.url).open(ready="new-match")
    await again.close()
    await page.close()
    assert "Traceback" not in local.log()


@pytest.mark.asyncio
async def test_each_garbage_frame_logs_one_line(local: WebServer) -> None:
    for garbage in (b"\x00\xc1\xc1", b"\x00" + b"\x92\x63\x80", b"\x00\x92\x01\x90"):
        page = await FletClient(local.url).open(ready="new-match")
        await page._ws.send(garbage)
        await asyncio.wait_for(page._reader, 30)  # type: ignore[arg-type]
    deadline = time.monotonic() + 10
    while local.log().count("could not be read") < 3 and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    log = local.log()
    assert log.count("could not be read") == 3, log[-3000:]
    assert "Traceback" not in log
