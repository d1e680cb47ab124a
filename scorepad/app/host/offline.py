"""Keeping the served page on this machine: a Content-Security-Policy on every HTTP response.

The Flet 1.0.5 web client always adds a ``<script>`` for ``rive_native.js``
from cdn.jsdelivr.net (an animation library the app does not use; the address
is compiled into ``main.dart.js``). The policy below lets the page load
scripts, styles, fonts, pictures, workers and connections only from the
address it was served from (plus ``blob:`` and ``data:``, which Flutter makes
itself), so the browser refuses that script before any request leaves the
machine. What Flutter genuinely needs, checked in Chromium with the default
(skwasm) and CanvasKit renderers (without either of the first two the page
never renders; without the third skwasm's worker is refused):

- ``'unsafe-inline'`` scripts: Flet's ``index.html`` configures the client in
  inline ``<script>`` blocks (their text depends on the server's settings);
- ``'wasm-unsafe-eval'``: CanvasKit and skwasm are WebAssembly;
- ``blob:`` workers: skwasm renders in a worker made from a blob;
- ``'unsafe-inline'`` styles: Flutter styles its elements inline.

No ``'unsafe-eval'`` and no ``blob:`` scripts are needed. ``'self'`` also
covers the page's websocket (``ws://`` to the same host and port), wherever
the page is reached from (127.0.0.1, or the laptop's address on the local
network).

Chromium still reports the refused script as a request (Playwright's
``request`` event, then ``requestfailed`` with the reason ``csp``), but
refuses it before any connection is made.
"""

from __future__ import annotations

from typing import Any

Scope = dict[str, Any]
Message = dict[str, Any]

POLICY: dict[str, str] = {
    "default-src": "'self'",
    "script-src": "'self' 'unsafe-inline' 'wasm-unsafe-eval'",
    "worker-src": "'self' blob:",
    "connect-src": "'self' blob: data:",
    "style-src": "'self' 'unsafe-inline'",
    "img-src": "'self' blob: data:",
    "font-src": "'self' blob: data:",
    "media-src": "'self' blob: data:",
    "manifest-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    # No other page may frame the score-pad (clickjacking a tap); X-Frame-Options says it too.
    "frame-ancestors": "'none'",
}


def content_security_policy() -> str:
    """The policy as a header value."""
    return "; ".join(f"{name} {sources}" for name, sources in POLICY.items())


class LocalOnly:
    """ASGI middleware: adds the Content-Security-Policy header to every HTTP response of ``app``.

    Websocket traffic and lifespan events pass through untouched.
    """

    def __init__(self, app: Any, *, policy: str | None = None) -> None:
        self.app = app
        self.header = (b"content-security-policy", (policy or content_security_policy()).encode("ascii"))

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        """Serve the request through ``app``, adding the header to the response start."""
        if scope.get("type") != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_policy(message: Message) -> None:
            if message.get("type") == "http.response.start":
                headers = [h for h in message.get("headers", []) if h[0].lower() != self.header[0]]
                message = {**message, "headers": [*headers, self.header]}
            await send(message)

        await self.app(scope, receive, send_with_policy)
