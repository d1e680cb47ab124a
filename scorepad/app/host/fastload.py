"""A page that loads fast on a phone: precompressed runtime, long-lived caching, a small shell.

The Flet web client is about 14 MB uncompressed (``main.dart.wasm`` 8.5 MB,
``skwasm.wasm`` 3.6 MB, the icon font 1.3 MB), and Flet serves it without
compression or cache headers. ``FastLoad`` wraps the Flet app and

- serves the large static files gzip-compressed, from copies compressed once
  (``precompress``: in the background from the first start, kept in the
  user's cache directory, keyed by each file's path, size and modification
  time, so a later start costs nothing); a client that does not accept gzip
  gets the file as it is;
- gives the runtime versioned addresses: the HTML shell is rewritten so that
  Flutter loads its code and assets from ``/_v/<key>/...``, where the key
  changes whenever the Flet runtime or the score-pad's pictures change; those
  responses are ``immutable`` for a year, so a warm reload asks for them
  nothing at all. Everything else (the HTML shell, the bootstrap script, the
  manifest) is ``no-cache``: revalidated each time (a 304 without a body), so
  an upgrade is seen at the next load;
- compresses the HTML shell itself.
"""

from __future__ import annotations

import gzip
import hashlib
import logging
import mimetypes
import os
import re
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from platformdirs import user_cache_dir

from scorepad.app.host.surface import header

Scope = dict[str, Any]
Message = dict[str, Any]
log = logging.getLogger(__name__)

VERSIONED_PREFIX = "/_v/"
IMMUTABLE = b"public, max-age=31536000, immutable"
REVALIDATE = b"no-cache"
# Worth compressing: code, WebAssembly, fonts, JSON, SVG. (PNG and woff2 are compressed already.)
COMPRESSIBLE = frozenset({".js", ".mjs", ".wasm", ".json", ".otf", ".ttf", ".svg", ".css", ".bin", ".html"})
MIN_SIZE = 1024
# A compressed copy no start has used for this long is removed.
STALE_DAYS = 30
# Flet writes patched copies of these per process: never serve the package's own.
PATCHED = frozenset({"index.html", "manifest.json", "assets/FontManifest.json"})
# Parts of the Flet runtime a served page never loads (Pyodide is for apps run in the browser).
SKIPPED_DIRS = ("pyodide/",)
SKIPPED_SUFFIXES = (".symbols", ".map")

mimetypes.add_type("application/wasm", ".wasm")
mimetypes.add_type("text/javascript", ".mjs")


@dataclass(frozen=True)
class Compressed:
    """A static file and its gzip copy."""

    original: Path
    gz: Path
    etag: str


@dataclass
class Precompressed:
    """The gzip copies of the served static files, by URL path (without the leading slash)."""

    key: str
    files: dict[str, Compressed] = field(default_factory=dict)


# The setting that says where the compressed copies are kept.
CACHE_ENV = "SCOREPAD_CACHE_DIR"


def cache_dir() -> Path:
    """Where the compressed copies are kept (``SCOREPAD_CACHE_DIR``, else the user's cache directory)."""
    return Path(os.environ.get(CACHE_ENV) or user_cache_dir("scorepad", appauthor=False)) / "gz"


def _static_files(roots: Iterable[Path]) -> dict[str, Path]:
    """URL path -> file for every servable static file, the first root winning (as Flet looks them up)."""
    found: dict[str, Path] = {}
    for root in roots:
        for path in sorted(root.rglob("*")):
            if not path.is_file():
                continue
            rel = path.relative_to(root).as_posix()
            if rel in PATCHED or rel.startswith(SKIPPED_DIRS) or rel.endswith(SKIPPED_SUFFIXES):
                continue
            found.setdefault(rel, path)
    return found


# Compressed first, in this order: what every page loads (skwasm and its code, the fonts).
FIRST = ("main.dart.wasm", "canvaskit/skwasm.wasm", "assets/fonts/", "main.dart.mjs", "canvaskit/skwasm.js")


def precompress(roots: Iterable[Path], *, cache: Path | None = None, background: bool = True) -> Precompressed:
    """The gzip copies of the large static files under ``roots``, and the version key of those files.

    ``roots`` in lookup order (the app's assets, then Flet's web directory).
    Copies already in ``cache`` from an earlier start are used at once; the
    others are made in a background thread (``background``), what every page
    loads first, and join ``files`` as each is done: until then that file is
    served as it is. Raises ``OSError`` only if the cache directory cannot be
    made (then nothing is compressed and the files are served as they are).
    """
    cache = cache or cache_dir()
    cache.mkdir(parents=True, exist_ok=True)
    files = _static_files(roots)
    identity = hashlib.sha256()
    result = Precompressed(key="")
    todo: list[tuple[str, Path, Path, str]] = []
    for rel, path in files.items():
        stat = path.stat()
        identity.update(f"{rel}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
        if path.suffix not in COMPRESSIBLE or stat.st_size < MIN_SIZE:
            continue
        digest = hashlib.sha256(f"{path.resolve()}\0{stat.st_size}\0{stat.st_mtime_ns}".encode()).hexdigest()[:32]
        gz = cache / f"{digest}.gz"
        if gz.exists():
            os.utime(gz)  # in use: kept by ``_prune``
            _add(result, rel, path, gz, digest)
        else:
            todo.append((rel, path, gz, digest))
    result.key = identity.hexdigest()[:12]
    todo.sort(key=lambda item: next((i for i, first in enumerate(FIRST) if item[0].startswith(first)), len(FIRST)))

    def compress_all() -> None:
        for rel, path, gz, digest in todo:
            try:
                partial = gz.with_suffix(f".{os.getpid()}.{threading.get_ident()}.partial")
                # Level 6: within 0.1% of level 9 on main.dart.wasm, three times faster. mtime=0: the
                # same bytes every time, so the copy is its own stable validator.
                partial.write_bytes(gzip.compress(path.read_bytes(), compresslevel=6, mtime=0))
                os.replace(partial, gz)
            except OSError as err:
                log.warning("cannot keep a compressed copy of %s (%s): it is served as it is", rel, err)
                continue
            _add(result, rel, path, gz, digest)

    _prune(cache)
    if background:
        threading.Thread(target=compress_all, name="scorepad-precompress", daemon=True).start()
    else:
        compress_all()
    return result


def _prune(cache: Path) -> None:
    """Remove copies no start has used for ``STALE_DAYS`` (of an older Flet, or a venv since deleted)."""
    stale = time.time() - STALE_DAYS * 86400
    for old in cache.glob("*.gz"):
        try:
            if old.stat().st_mtime < stale:
                old.unlink()
        except OSError:
            continue


def _add(result: Precompressed, rel: str, path: Path, gz: Path, digest: str) -> None:
    if gz.stat().st_size < path.stat().st_size:
        result.files[rel] = Compressed(original=path, gz=gz, etag=f'"{digest}-gz"')


def accepts_gzip(scope: Scope) -> bool:
    """Whether the request's ``Accept-Encoding`` allows gzip (and does not refuse it with q=0)."""
    accepted = header(scope, b"accept-encoding") or ""
    for part in accepted.split(","):
        name, _, params = part.strip().partition(";")
        if name.strip().lower() in ("gzip", "*"):
            return params.replace(" ", "").lower() not in ("q=0", "q=0.0", "q=0.00", "q=0.000")
    return False


# Flutter's engine writes a viewport that forbids zooming (user-scalable=no, maximum-scale=1): a
# player who needs larger print must be able to pinch-zoom the page (issue 8). The shell keeps the
# viewport zoomable whenever the engine (re)writes it. Inline, as Flet's own shell scripts are (CSP).
ZOOMABLE_VIEWPORT = "width=device-width, initial-scale=1.0"
ZOOMABLE = (
    "<script>(() => { const want = '" + ZOOMABLE_VIEWPORT + "';"
    " const keep = () => { for (const m of document.querySelectorAll('meta[name=\"viewport\"]'))"
    " { if (m.content !== want) m.content = want; } };"
    " new MutationObserver(keep).observe(document.documentElement,"
    " {subtree: true, childList: true, attributes: true, attributeFilter: ['content']}); keep(); })();</script>"
)


class FastLoad:
    """ASGI middleware: precompressed files, versioned immutable addresses, a compressed HTML shell."""

    def __init__(self, app: Any, static: Precompressed) -> None:
        self.app = app
        self.static = static
        self.prefix = f"{VERSIONED_PREFIX}{static.key}/"
        # The shell's settings that tell Flutter where to load from (patch_index.py writes them).
        self._bases = re.compile(r'(flet\.(?:entrypointBaseUrl|assetBase|canvasKitBaseUrl)=")/')

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        """Serve ``scope``: a precompressed copy where one fits, else the app with cache headers."""
        if scope.get("type") != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "/")
        versioned = path.startswith(self.prefix)
        if versioned:
            path = "/" + path[len(self.prefix) :]
            scope = {**scope, "path": path, "raw_path": path.encode()}
        elif path.startswith(VERSIONED_PREFIX):
            # An address of an older version (a page cached before an upgrade): serve the file as it is now.
            rest = path[len(VERSIONED_PREFIX) :].partition("/")[2]
            path = "/" + rest
            scope = {**scope, "path": path, "raw_path": path.encode()}
        caching = IMMUTABLE if versioned else REVALIDATE
        found = self.static.files.get(path.lstrip("/"))
        if found is not None and scope.get("method") in ("GET", "HEAD") and accepts_gzip(scope):
            await self._send_compressed(found, caching, scope, send)
            return
        await self.app(scope, receive, self._decorating(scope, send, caching))

    async def _send_compressed(self, found: Compressed, caching: bytes, scope: Scope, send: Any) -> None:
        media = mimetypes.guess_type(found.original.name)[0] or "application/octet-stream"
        headers = [
            (b"content-type", media.encode()),
            (b"content-encoding", b"gzip"),
            (b"vary", b"Accept-Encoding"),
            (b"etag", found.etag.encode()),
            (b"cache-control", caching),
            # As Flet sends them on its own responses: the page is cross-origin isolated (skwasm's threads).
            (b"cross-origin-opener-policy", b"same-origin"),
            (b"cross-origin-embedder-policy", b"require-corp"),
        ]
        if found.etag in (header(scope, b"if-none-match") or ""):
            await send({"type": "http.response.start", "status": 304, "headers": headers})
            await send({"type": "http.response.body", "body": b""})
            return
        size = found.gz.stat().st_size
        headers.append((b"content-length", str(size).encode()))
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        if scope.get("method") == "HEAD":
            await send({"type": "http.response.body", "body": b""})
            return
        with open(found.gz, "rb") as stream:
            while chunk := stream.read(256 * 1024):
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
        await send({"type": "http.response.body", "body": b""})

    def _decorating(self, scope: Scope, send: Any, caching: bytes) -> Any:
        """A ``send`` that adds the cache header, and rewrites and compresses the HTML shell."""
        gzip_ok = accepts_gzip(scope)
        held: dict[str, Any] = {}

        async def send_decorated(message: Message) -> None:
            kind = message.get("type")
            if kind == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"cache-control"]
                headers.append((b"cache-control", caching))
                media = next((v for k, v in headers if k.lower() == b"content-type"), b"")
                message = {**message, "headers": headers}
                if message.get("status") == 200 and media.startswith(b"text/html") and scope.get("method") != "HEAD":
                    held["start"], held["body"] = message, []
                    return
                await send(message)
                return
            if kind == "http.response.body" and "start" in held:
                held["body"].append(message.get("body", b""))
                if message.get("more_body"):
                    return
                await self._send_shell(held["start"], b"".join(held["body"]), gzip_ok, send)
                return
            await send(message)

        return send_decorated

    async def _send_shell(self, start: Message, body: bytes, gzip_ok: bool, send: Any) -> None:
        text = self._bases.sub(lambda m: f"{m.group(1)}{self.prefix}", body.decode("utf-8"))
        text = text.replace("</head>", ZOOMABLE + "</head>", 1)
        data = text.encode("utf-8")
        headers = [(k, v) for k, v in start["headers"] if k.lower() not in (b"content-length", b"etag")]
        if gzip_ok:
            data = gzip.compress(data, mtime=0)
            headers += [(b"content-encoding", b"gzip"), (b"vary", b"Accept-Encoding")]
        headers.append((b"content-length", str(len(data)).encode()))
        await send({**start, "headers": headers})
        await send({"type": "http.response.body", "body": data})
