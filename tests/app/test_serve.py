"""The served page's door, seen as a browser or a stranger sees it: headers, compression, caching, the socket.

Each test talks HTTP (and WebSocket) to a real ``scorepad web`` subprocess.
"""

from __future__ import annotations

import gzip
import http.client
import os
import re
import socket
import subprocess
import sys
import time
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from scorepad.app.host.join import lan_addresses
from tests.browser import free_port, wait_for_page


@dataclass
class Served:
    """A running server: its port, the lines it printed first, and the process."""

    port: int
    printed: list[str]
    process: subprocess.Popen[str]


def _serve(tmp_path: Path, *args: str) -> Iterator[Served]:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "FLET_WEB_NO_CDN")}
    process = subprocess.Popen(
        [sys.executable, "-m", "scorepad.app", "web", "--port", str(port), "--db", str(tmp_path / "s.db"), *args],
        env=dict(env, PYTHONUNBUFFERED="1"),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        printed = [first]
        if "join code" not in first and "--host" in args:
            printed += [process.stdout.readline(), process.stdout.readline()]
        wait_for_page(f"http://127.0.0.1:{port}/", process, timeout=120)  # type: ignore[arg-type]
        yield Served(port=port, printed=printed, process=process)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="module")
def local(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """``scorepad web`` on 127.0.0.1."""
    yield from _serve(tmp_path_factory.mktemp("local"))


def get(
    port: int, path: str, headers: dict[str, str] | None = None, method: str = "GET"
) -> tuple[int, dict[str, str], bytes]:
    """One HTTP request to 127.0.0.1:``port``: status, headers (lower-case names), body."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(method, path, headers=headers or {})
        reply = conn.getresponse()
        return reply.status, {k.lower(): v for k, v in reply.getheaders()}, reply.read()
    finally:
        conn.close()


def test_the_framework_pages_are_gone(local: Served) -> None:
    for path in ("/docs", "/redoc", "/openapi.json", "/docs/oauth2-redirect", "/oauth_callback"):
        status, _, body = get(local.port, path)
        assert status == 404, path
        assert b"swagger" not in body.lower() and b"openapi" not in body.lower()


def test_every_response_is_quiet_and_unframeable(local: Served) -> None:
    for path in ("/", "/match/1", "/tiles/h/5-3.svg", "/flutter_bootstrap.js", "/no-such-file.js", "/docs"):
        _, headers, _ = get(local.port, path, {"Origin": "http://evil.example"})
        assert "access-control-allow-origin" not in headers, path
        assert "server" not in headers, path
        assert headers.get("x-frame-options") == "DENY", path
        assert "frame-ancestors 'none'" in headers.get("content-security-policy", ""), path


def test_the_big_runtime_files_come_compressed_and_the_shell_points_at_versioned_addresses(local: Served) -> None:
    status, headers, body = get(local.port, "/", {"Accept-Encoding": "gzip"})
    assert status == 200 and headers.get("content-encoding") == "gzip"
    assert headers.get("cache-control") == "no-cache"
    shell = gzip.decompress(body).decode()
    versioned = re.search(r'flet\.entrypointBaseUrl="(/_v/[0-9a-f]+/)"', shell)
    assert versioned, "the shell does not point Flutter at versioned addresses"
    prefix = versioned.group(1)
    assert f'flet.canvasKitBaseUrl="{prefix}canvaskit/"' in shell

    # On a first start the copies are made in the background: wait for this one (progress, not time).
    deadline = time.monotonic() + 120
    while (
        get(local.port, prefix + "main.dart.wasm", {"Accept-Encoding": "gzip"}, "HEAD")[1].get("content-encoding")
        != "gzip"
    ):
        assert time.monotonic() < deadline, "main.dart.wasm was never served compressed"
        time.sleep(0.5)
    status, headers, body = get(local.port, prefix + "main.dart.wasm", {"Accept-Encoding": "gzip, deflate, br"})
    assert status == 200 and headers.get("content-encoding") == "gzip"
    assert headers.get("cache-control") == "public, max-age=31536000, immutable"
    assert headers.get("content-type") == "application/wasm"
    wasm = gzip.decompress(body)
    assert wasm[:4] == b"\0asm" and len(body) < len(wasm) / 2
    # The same file for a client that takes no compression, and a 304 for one that has it.
    status, headers, plain = get(local.port, prefix + "main.dart.wasm")
    assert status == 200 and "content-encoding" not in headers and plain == wasm
    etag = get(local.port, prefix + "main.dart.wasm", {"Accept-Encoding": "gzip"})[1]["etag"]
    status, _, body = get(local.port, prefix + "main.dart.wasm", {"Accept-Encoding": "gzip", "If-None-Match": etag})
    assert status == 304 and body == b""
    # The pictures are served under the versioned prefix too (Flutter asks for them there).
    status, headers, body = get(local.port, prefix + "tiles/h/5-3.svg")
    assert status == 200 and body.startswith(b"<svg")


def _ws_url(port: int) -> str:
    return f"ws://127.0.0.1:{port}/ws"


def _ws_as(host: str, port: int, *, cookie: str | None = None) -> Any:
    """A WebSocket to this computer's server as a page from ``host`` would open it (Host and Origin)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=20)
    headers = {"Cookie": cookie} if cookie else None
    return connect(
        f"ws://{host}:{port}/ws", sock=sock, origin=f"http://{host}:{port}", additional_headers=headers, open_timeout=20
    )  # type: ignore[arg-type]


def test_the_socket_refuses_a_page_from_another_origin(local: Served) -> None:
    with pytest.raises(InvalidStatus) as refused:
        connect(_ws_url(local.port), origin="http://evil.example:8000", open_timeout=20).close()  # type: ignore[arg-type]
    assert refused.value.response.status_code == 403
    with pytest.raises(InvalidStatus):
        connect(_ws_url(local.port), origin="null", open_timeout=20).close()  # type: ignore[arg-type]
    # The page's own origin is let in.
    with connect(_ws_url(local.port), origin=f"http://127.0.0.1:{local.port}", open_timeout=20):  # type: ignore[arg-type]
        pass


def test_a_page_on_this_computer_under_another_name_is_refused(local: Served) -> None:
    # A DNS-rebinding page: this computer's address, a stranger's host name.
    status, _, _ = get(local.port, "/", {"Host": f"evil.example:{local.port}"})
    assert status == 403


@pytest.fixture(scope="module")
def lan(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """``scorepad web --host 0.0.0.0``."""
    yield from _serve(tmp_path_factory.mktemp("lan"), "--host", "0.0.0.0")


def _code(served: Served) -> str:
    found = re.search(r"join code (\d+)", "".join(served.printed))
    assert found, served.printed
    return found.group(1)


def test_served_to_the_network_it_prints_real_addresses_and_a_join_code(lan: Served) -> None:
    text = "".join(lan.printed)
    assert "0.0.0.0" not in text
    for address in lan_addresses():
        assert f"http://{address}:{lan.port}/" in text
    assert len(_code(lan)) == 6


def test_beyond_this_computer_the_door_asks_for_the_join_code(lan: Served) -> None:
    stranger = {"Host": f"192.0.2.7:{lan.port}"}
    status, headers, body = get(lan.port, "/match/3", stranger)
    assert status == 401 and b'name="code"' in body and b'value="/match/3"' in body
    assert get(lan.port, "/main.dart.wasm", stranger)[0] == 401
    assert get(lan.port, "/tiles/h/5-3.svg", stranger)[0] == 401
    with pytest.raises(InvalidStatus):
        _ws_as("192.0.2.7", lan.port).close()

    # The QR link's code lets the browser in, with a cookie, and back to where it was going.
    status, headers, _ = get(lan.port, f"/join?code={_code(lan)}&next=/match/3", stranger)
    assert status == 303 and headers["location"] == "/match/3"
    cookie = headers["set-cookie"].split(";")[0]
    assert "HttpOnly" in headers["set-cookie"] and "SameSite=Lax" in headers["set-cookie"]
    joined = {**stranger, "Cookie": cookie}
    assert get(lan.port, "/", joined)[0] == 200
    with _ws_as("192.0.2.7", lan.port, cookie=cookie):
        pass
    # A made-up cookie is not a join.
    assert get(lan.port, "/", {**stranger, "Cookie": "scorepad_join=made-up"})[0] == 401
    # This computer itself needs no code.
    assert get(lan.port, "/")[0] == 200


def test_wrong_codes_are_rate_limited(lan: Served) -> None:
    stranger = {"Host": f"192.0.2.8:{lan.port}", "Content-Type": "application/x-www-form-urlencoded"}
    right = _code(lan)
    wrong = "000000" if right != "000000" else "111111"
    statuses = []
    for _ in range(6):
        conn = http.client.HTTPConnection("127.0.0.1", lan.port, timeout=30)
        conn.request("POST", "/join", body=urllib.parse.urlencode({"code": wrong, "next": "/"}), headers=stranger)
        reply = conn.getresponse()
        statuses.append(reply.status)
        body = reply.read()
        conn.close()
    assert statuses == [403] * 5 + [429], statuses
    assert b"Too many wrong codes" in body
    # Even the right code waits now: guessing gets nowhere.
    assert get(lan.port, f"/join?code={right}", stranger)[0] == 429


_OPEN_SOCKET = """(url) => new Promise((resolve) => {
  const ws = new WebSocket(url);
  ws.onopen = () => { ws.close(); resolve("open"); };
  ws.onerror = () => resolve("refused");
})"""


@pytest.mark.browser
def test_a_page_from_another_origin_cannot_open_the_socket_in_chromium(local: Served, tmp_path: Path) -> None:
    import threading
    from functools import partial
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    from tests.browser import CHROMIUM, launch_chromium

    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    (tmp_path / "index.html").write_text("<html><body>another site</body></html>")
    stranger = ThreadingHTTPServer(("127.0.0.1", 0), partial(SimpleHTTPRequestHandler, directory=str(tmp_path)))
    threading.Thread(target=stranger.serve_forever, daemon=True).start()
    try:
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            try:
                page = browser.new_page()
                page.goto(f"http://127.0.0.1:{stranger.server_address[1]}/")
                assert page.evaluate(_OPEN_SOCKET, _ws_url(local.port)) == "refused"
                # The score-pad's own page opens it (the same call, from the page's origin).
                page.goto(f"http://127.0.0.1:{local.port}/flutter_bootstrap.js")
                assert page.evaluate(_OPEN_SOCKET, _ws_url(local.port)) == "open"
            finally:
                browser.close()
    finally:
        stranger.shutdown()
        stranger.server_close()


def test_a_sent_message_is_not_written_out_for_a_debug_line_nobody_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    """Flet formats each outgoing message for its debug log before dropping the line: its text is kept cheap."""
    from flet.messaging.protocol import Message, MessageAction

    from scorepad.app.host.tuning import cheap_message_text

    monkeypatch.setattr(Message, "__repr__", Message.__repr__)  # restored after the test
    message = Message(MessageAction.PATCH_CONTROL, {"controls": ["x" * 1000]})
    assert len(f"{message}") > 1000  # the dataclass's own text: the whole patch
    cheap_message_text()
    assert f"{message}" == f"Message({MessageAction.PATCH_CONTROL!r})"


def _start(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``scorepad web`` with ``args`` that should stop it before it serves: its status and output."""
    clean = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    return subprocess.run(
        [sys.executable, "-m", "scorepad.app", "web", "--db", str(tmp_path / "s.db"), *args],
        env={**clean, **(env or {})},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_server_that_cannot_serve_says_why_in_one_line(tmp_path: Path) -> None:
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    taken = busy.getsockname()[1]
    unwritable = tmp_path / "cache"
    unwritable.write_text("a file where the cache directory should be")
    try:
        cases = [
            (["--port", "99999"], {}, "--port takes a port number from 1 to 65535, not 99999"),
            (["--port", "0"], {}, "--port takes a port number from 1 to 65535, not 0"),
            (["--port", str(taken)], {}, f"port {taken} on 127.0.0.1 is in use by another program"),
            (["--host", "999.1.1.1", "--port", str(free_port())], {}, "--host 999.1.1.1 is not an address"),
            (
                ["--port", str(free_port())],
                {"SCOREPAD_PAGES_PER_ADDRESS": "abc"},
                "SCOREPAD_PAGES_PER_ADDRESS takes a whole number of pages from 1 to 10,000, not 'abc'",
            ),
            (["--port", str(free_port())], {"SCOREPAD_CACHE_DIR": str(unwritable)}, "set SCOREPAD_CACHE_DIR to"),
        ]
        for args, env, words in cases:
            result = _start(tmp_path, *args, env=env)
            assert result.returncode == 2, (args, result.stdout, result.stderr)
            assert result.stdout == "", (args, result.stdout)  # never "serving ..." first
            lines = result.stderr.splitlines()
            assert len(lines) == 1 and lines[0].startswith("scorepad: ") and words in lines[0], (args, lines)
    finally:
        busy.close()
