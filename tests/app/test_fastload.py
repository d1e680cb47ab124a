"""The fast-load middleware in process: compressed copies, versioned addresses, cache headers, the shell."""

from __future__ import annotations

import asyncio
import gzip
import os
import time
from pathlib import Path
from typing import Any

import pytest

from scorepad.app.host.fastload import IMMUTABLE, REVALIDATE, STALE_DAYS, FastLoad, accepts_gzip, precompress
from scorepad.app.host.surface import same_origin

SHELL = b'<html><script>flet.entrypointBaseUrl="/";flet.assetBase="/";flet.canvasKitBaseUrl="/canvaskit/";</script>'


def _scope(path: str, headers: dict[str, str] | None = None, method: str = "GET") -> dict[str, Any]:
    return {
        "type": "http",
        "method": method,
        "path": path,
        "raw_path": path.encode(),
        "headers": [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()],
    }


async def _downstream(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Stands in for Flet: the shell for a page address, a file's bytes otherwise."""
    page = "." not in scope["path"].rsplit("/", 1)[-1]
    body = SHELL if page else b"plain:" + scope["path"].encode()
    kind = b"text/html; charset=utf-8" if page else b"application/octet-stream"
    start = {"type": "http.response.start", "status": 200, "headers": [(b"content-type", kind)]}
    await send(start)
    await send({"type": "http.response.body", "body": body})


def _call(app: FastLoad, scope: dict[str, Any]) -> tuple[int, dict[str, str], bytes]:
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    asyncio.run(app(scope, receive, send))
    headers = {k.decode(): v.decode() for k, v in sent[0]["headers"]}
    return sent[0]["status"], headers, b"".join(m.get("body", b"") for m in sent[1:])


@pytest.fixture
def served(tmp_path: Path) -> FastLoad:
    web = tmp_path / "web"
    (web / "canvaskit").mkdir(parents=True)
    (web / "main.dart.wasm").write_bytes(b"\0asm" + bytes(50_000))
    (web / "canvaskit" / "skwasm.js").write_text("var x = 1;\n" * 500)
    (web / "index.html").write_bytes(SHELL)  # Flet's own copy is patched per process: never precompressed
    (web / "icon.png").write_bytes(os.urandom(5000))
    static = precompress([web], cache=tmp_path / "cache", background=False)
    assert set(static.files) == {"main.dart.wasm", "canvaskit/skwasm.js"}
    return FastLoad(_downstream, static)


def test_the_shell_points_flutter_at_versioned_addresses_and_is_revalidated(served: FastLoad) -> None:
    status, headers, body = _call(served, _scope("/match/3", {"Accept-Encoding": "gzip"}))
    assert status == 200 and headers["content-encoding"] == "gzip" and headers["cache-control"] == REVALIDATE.decode()
    shell = gzip.decompress(body).decode()
    prefix = served.prefix
    assert f'flet.entrypointBaseUrl="{prefix}"' in shell and f'flet.canvasKitBaseUrl="{prefix}canvaskit/"' in shell
    assert int(headers["content-length"]) == len(body)


def test_versioned_files_are_compressed_and_immutable(served: FastLoad) -> None:
    status, headers, body = _call(served, _scope(served.prefix + "main.dart.wasm", {"Accept-Encoding": "br, gzip"}))
    assert status == 200 and headers["cache-control"] == IMMUTABLE.decode()
    assert headers["content-encoding"] == "gzip" and gzip.decompress(body).startswith(b"\0asm")
    assert headers["content-type"] == "application/wasm" and headers["vary"] == "Accept-Encoding"
    status, _, body = _call(
        served, _scope(served.prefix + "main.dart.wasm", {"Accept-Encoding": "gzip", "If-None-Match": headers["etag"]})
    )
    assert status == 304 and body == b""


def test_without_gzip_or_for_other_files_the_app_answers(served: FastLoad) -> None:
    status, headers, body = _call(served, _scope(served.prefix + "main.dart.wasm"))
    assert body == b"plain:/main.dart.wasm" and "content-encoding" not in headers
    assert headers["cache-control"] == IMMUTABLE.decode()
    status, headers, body = _call(served, _scope("/icon.png", {"Accept-Encoding": "gzip"}))
    assert body == b"plain:/icon.png" and headers["cache-control"] == REVALIDATE.decode()
    # An address of an older version is served as the file is now, and not promised immutable.
    status, headers, body = _call(served, _scope("/_v/0123456789ab/main.dart.wasm", {"Accept-Encoding": "gzip"}))
    assert status == 200 and headers["cache-control"] == REVALIDATE.decode()


@pytest.mark.parametrize(
    ("accept", "ok"),
    [("gzip", True), ("br, gzip;q=0.5", True), ("*", True), ("gzip;q=0", False), ("br", False), ("", False)],
)
def test_accept_encoding(accept: str, ok: bool) -> None:
    assert accepts_gzip(_scope("/", {"Accept-Encoding": accept})) is ok


def test_stale_copies_are_pruned_and_used_ones_kept(tmp_path: Path) -> None:
    web = tmp_path / "web"
    web.mkdir()
    (web / "a.js").write_text("x" * 5000)
    cache = tmp_path / "cache"
    precompress([web], cache=cache, background=False)
    (used,) = cache.glob("*.gz")
    old = time.time() - (STALE_DAYS + 1) * 86400
    orphan = cache / "orphan.gz"
    orphan.write_bytes(b"x")
    os.utime(orphan, (old, old))
    os.utime(used, (old, old))
    precompress([web], cache=cache, background=False)
    assert used.exists() and not orphan.exists()


@pytest.mark.parametrize(
    ("origin", "host", "ok"),
    [
        (None, "127.0.0.1:8550", True),
        ("http://127.0.0.1:8550", "127.0.0.1:8550", True),
        ("http://192.168.1.5:8550", "192.168.1.5:8550", True),
        ("http://evil.example", "127.0.0.1:8550", False),
        ("http://127.0.0.1:9999", "127.0.0.1:8550", False),
        ("null", "127.0.0.1:8550", False),
        ("https://127.0.0.1:8550", "127.0.0.1:8550", False),
    ],
)
def test_the_socket_takes_only_the_page_own_origin(origin: str | None, host: str, ok: bool) -> None:
    headers = {"Host": host, **({"Origin": origin} if origin else {})}
    scope = {**_scope("/ws", headers), "type": "websocket", "scheme": "ws"}
    assert same_origin(scope) is ok
