"""A closed, quiet HTTP surface for the served page (issue 11, "A quiet, closed surface").

Flet's web server is a FastAPI app: it exposes FastAPI's ``/docs``, ``/redoc``
and ``/openapi.json`` (``/docs`` loads Swagger from a CDN), answers every
response with ``Access-Control-Allow-Origin: *``, and uvicorn names itself in
a ``Server`` header. ``Surface`` wraps that app and

- answers those paths (and Flet's unused OAuth callback) with a plain 404;
- drops ``Access-Control-Allow-Origin`` and ``Server`` from every response and
  adds ``X-Frame-Options: DENY``, ``X-Content-Type-Options: nosniff``,
  ``Referrer-Policy: no-referrer`` and, where no policy is sent yet, a
  Content-Security-Policy of ``frame-ancestors 'none'`` (no page may frame the
  score-pad and trick a tap);
- refuses a WebSocket whose ``Origin`` is not the page's own (scheme, host and
  port of the ``Host`` it was asked on): a page from another origin, opened in
  a browser on the same network, must not be able to open the app's socket and
  send taps. Browsers always send ``Origin`` on a WebSocket; a client without
  one is not a web page, and the join code (``scorepad.app.host.join``) still
  applies to it.
"""

from __future__ import annotations

import urllib.parse
from typing import Any

Scope = dict[str, Any]
Message = dict[str, Any]

HIDDEN_PATHS = frozenset({"/docs", "/docs/oauth2-redirect", "/redoc", "/openapi.json", "/oauth_callback"})
DROPPED_HEADERS = frozenset({b"access-control-allow-origin", b"server"})
ADDED_HEADERS = (
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)
CSP = b"content-security-policy"
NO_FRAMING = b"frame-ancestors 'none'"


def header(scope: Scope, name: bytes) -> str | None:
    """The value of request header ``name`` (lower-case bytes), decoded as Latin-1; None when absent."""
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


def same_origin(scope: Scope) -> bool:
    """Whether a WebSocket request comes from the page's own origin (or from no web page at all).

    The page's origin is the scheme and ``Host`` it was served on; the
    socket's ``Origin`` must name exactly that (``http://`` for ``ws://``,
    ``https://`` for ``wss://``).
    """
    origin = header(scope, b"origin")
    if origin is None:
        return True
    if not header(scope, b"host"):
        return False
    return origin.lower().rstrip("/") == _own_origin(scope)


def cross_site(scope: Scope) -> bool:
    """Whether a form was posted from another site's page (``Sec-Fetch-Site``, else ``Origin``, else ``Referer``).

    A browser says where a request comes from in ``Sec-Fetch-Site`` (every
    current one); an older one is judged by its ``Origin`` or ``Referer``,
    which must then name the page's own origin. Our own pages send no
    referrer (``Referrer-Policy: no-referrer``), so their form posts carry
    ``Origin: null``, which is taken as our own; a request without any of
    these headers is no web page's (the join code still applies to it).
    """
    site = header(scope, b"sec-fetch-site")
    if site is not None:
        return site.strip().lower() not in ("same-origin", "none")
    own = _own_origin(scope)
    origin = header(scope, b"origin")
    if origin is not None and origin.strip() != "null":
        return origin.strip().lower().rstrip("/") != own
    referer = header(scope, b"referer")
    if referer is not None:
        try:
            parts = urllib.parse.urlsplit(referer.strip())
        except ValueError:  # a malformed address ("http://[::1"): no page of ours
            return True
        return f"{parts.scheme}://{parts.netloc}".lower() != own
    return False


def _own_origin(scope: Scope) -> str:
    """The origin the page was asked for on: scheme and ``Host`` (lower-case)."""
    scheme = "https" if scope.get("scheme") in ("wss", "https") else "http"
    return f"{scheme}://{(header(scope, b'host') or '').lower()}"


async def refuse_socket(receive: Any, send: Any) -> None:
    """Refuse a WebSocket before accepting it (the client sees HTTP 403)."""
    message = await receive()
    if message.get("type") == "websocket.connect":
        await send({"type": "websocket.close", "code": 1008})


async def plain_response(send: Any, status: int, text: str, headers: list[tuple[bytes, bytes]] | None = None) -> None:
    """Send a short plain-text HTTP response."""
    body = text.encode("utf-8")
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
                (b"cache-control", b"no-store"),
                *(headers or []),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class Surface:
    """ASGI middleware: hide the framework's pages, scrub the headers, keep strangers off the socket."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        """Serve ``scope`` through the wrapped app, or refuse it."""
        kind = scope.get("type")
        if kind == "websocket":
            if not same_origin(scope):
                await refuse_socket(receive, send)
                return
            await self.app(scope, receive, send)
            return
        if kind != "http":
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        if path.rstrip("/") in HIDDEN_PATHS or path in HIDDEN_PATHS:
            await plain_response(_scrubbing(send), 404, "Not Found")
            return
        await self.app(scope, receive, _scrubbing(send))


def _scrubbing(send: Any) -> Any:
    async def send_scrubbed(message: Message) -> None:
        if message.get("type") == "http.response.start":
            headers = [(k, v) for k, v in message.get("headers", []) if k.lower() not in DROPPED_HEADERS]
            if not any(k.lower() == CSP for k, _ in headers):
                headers.append((CSP, NO_FRAMING))
            present = {k.lower() for k, _ in headers}
            headers.extend((k, v) for k, v in ADDED_HEADERS if k not in present)
            message = {**message, "headers": headers}
        await send(message)

    return send_scrubbed
