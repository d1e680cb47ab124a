"""Bounds on what one client can hold open: the time to send a request's head, and connections per address.

A phone on the pub's Wi-Fi could otherwise open connections and never
finish a request (uvicorn waits for the rest of a request's head for good),
until the server runs out of file descriptors and every new connection, the
honest pages' included, is reset. So

- ``HeadTimed`` (uvicorn's HTTP protocol, one per connection) closes a
  connection that has not sent a whole request head ``HEAD_SECONDS`` after it
  opened or after its last response, and lets at most
  ``CONNECTIONS_PER_PEER`` connections of one network peer open at once
  (one more is closed at once). A trusted proxy (uvicorn's
  ``forwarded_allow_ips``, 127.0.0.1 by default) is not counted here: its
  clients are told apart by ``X-Forwarded-For``, below;
- ``PerAddress`` (ASGI, after uvicorn has read ``X-Forwarded-For``) lets one
  client address have at most ``connections_per_address`` requests and
  WebSockets in hand at once: one more request gets a plain 503 and the
  connection is closed; one more WebSocket is refused.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from scorepad.app.host.surface import plain_response, refuse_socket
from scorepad.app.shell.pages import PageCounter

log = logging.getLogger(__name__)

# Seconds a connection has to send a whole request head (a phone on a slow Wi-Fi takes well under one).
HEAD_SECONDS = 5.0
# Connections one network peer (not a trusted proxy) may have open at once, WebSockets aside.
CONNECTIONS_PER_PEER = 64
# Requests and WebSockets one client address may have in hand at once, beyond its pages.
SPARE_PER_ADDRESS = 32


# One process's connections by peer (uvicorn makes a protocol per connection: the count is shared).
_peers = PageCounter(CONNECTIONS_PER_PEER)


class HeadTimed(HttpToolsProtocol):
    """uvicorn's HTTP protocol with a deadline for each request head and a cap on connections per peer."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_deadline: asyncio.TimerHandle | None = None
        self._peer: str | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Count the connection against its peer (closing it over the cap) and start the head's clock."""
        super().connection_made(transport)
        peer = self.client[0] if self.client else ""
        if not _is_trusted_proxy(peer, self.config.forwarded_allow_ips):
            if not _peers.admit(peer):
                log.warning("connection from %s closed: it has %d open already", peer, _peers.cap)
                transport.abort()
                return
            self._peer = peer
        self._start_head_clock()

    def connection_lost(self, exc: Exception | None) -> None:
        """Give the peer's count back."""
        self._stop_head_clock()
        self._release_peer()
        super().connection_lost(exc)

    def on_headers_complete(self) -> None:
        """A whole request head arrived in time."""
        self._stop_head_clock()
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        """The next request's head has ``HEAD_SECONDS`` too."""
        super().on_response_complete()
        if not self.transport.is_closing():
            self._start_head_clock()

    def handle_websocket_upgrade(self) -> None:
        """The connection becomes a WebSocket (``PerAddress`` and ``PageEnds`` keep those)."""
        self._stop_head_clock()
        self._release_peer()
        super().handle_websocket_upgrade()

    def _start_head_clock(self) -> None:
        self._stop_head_clock()
        self._head_deadline = self.loop.call_later(HEAD_SECONDS, self._head_late)

    def _stop_head_clock(self) -> None:
        if self._head_deadline is not None:
            self._head_deadline.cancel()
            self._head_deadline = None

    def _head_late(self) -> None:
        self._head_deadline = None
        if not self.transport.is_closing() and (self.cycle is None or self.cycle.response_complete):
            self.transport.close()

    def _release_peer(self) -> None:
        if self._peer is not None:
            _peers.leave(self._peer)
            self._peer = None


def _is_trusted_proxy(peer: str, allowed: list[str] | str) -> bool:
    """Whether ``peer`` is one of uvicorn's ``forwarded_allow_ips`` (whose ``X-Forwarded-For`` it believes)."""
    names = allowed if isinstance(allowed, list) else allowed.split(",")
    listed = {name.strip() for name in names}
    return "*" in listed or peer in listed


class PerAddress:
    """ASGI middleware: at most ``cap`` requests and WebSockets in hand per client address at once."""

    def __init__(self, app: Any, cap: int) -> None:
        self.app = app
        self.open = PageCounter(cap)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Serve ``scope`` counted against its client address, or refuse it over the cap."""
        kind = scope.get("type")
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        address = (scope.get("client") or ("", 0))[0]
        if not self.open.admit(address):
            log.warning("%s from %s refused: it has %d open already", kind, address, self.open.cap)
            if kind == "websocket":
                await refuse_socket(receive, send)
            else:
                await plain_response(
                    send,
                    503,
                    "Too many connections from this device: close some pages and try again.",
                    [(b"connection", b"close")],
                )
            return
        try:
            await self.app(scope, receive, send)
        finally:
            self.open.leave(address)
