"""A page's WebSocket as the server holds it: a closed socket ends its page quietly; a dead page reloads afresh."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import msgpack  # type: ignore[import-untyped]  # flet's own wire format, installed with flet
from starlette.websockets import WebSocketDisconnect

from scorepad.app.host.surface import refuse_socket
from scorepad.app.models import timing
from scorepad.app.shell.guard import is_dead_session
from scorepad.app.shell.pages import PageCounter

log = logging.getLogger("scorepad.live")

# Flet's WebSocket frames: a 0 byte, then msgpack [action, body]; action 1 registers the page,
# action 4 updates a control's properties (a field's text as typed).
MESSAGE_FRAME, REGISTER_CLIENT, UPDATE_CONTROL_PROPS = 0, 1, 4
# The most a property update may take: a field's text is at most a few hundred bytes (names are 40
# characters), and what a page sends in larger messages (a record file picked in Dispute) is no property.
UPDATE_MAX_BYTES = 64 * 1024


# Seconds a page's handler may go on after its WebSocket closed before it is ended.
LINGER_SECONDS = 2.0
# Seconds a WebSocket has to register its page (Flet's client does it at once) before it is closed.
REGISTER_SECONDS = 10.0


class PageEnds:
    """ASGI wrapper: a page's WebSocket that closes ends its handler, quietly.

    Flet's handler waits for good on a WebSocket that connected but never
    registered (so the server could not shut down), and when a page goes
    away while the server is writing to it, it ends with a traceback and
    leaves the page's session connected (subscribed, never dropped). Here a
    closed socket is a disconnect: a write to it is dropped, so Flet reads
    the disconnect and ends the session; a handler still running
    ``LINGER_SECONDS`` after the close is cancelled; neither is logged as an
    error. A dead page's client that registers again (a reload keeps the
    session id in the browser tab) is given a new page instead of its dead
    session (``fresh_after_death``). A WebSocket that has not registered its
    page ``REGISTER_SECONDS`` after it opened is closed, and one client
    address may have at most ``unregistered_cap`` of those at once (one more
    is refused): sockets that never register would otherwise be held for
    good. Other requests pass straight through.
    """

    def __init__(self, app: Any, unregistered_cap: int) -> None:
        self.app = app
        self.unregistered = PageCounter(unregistered_cap)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope.get("type") != "websocket":
            await self.app(scope, receive, send)
            return
        address = (scope.get("client") or ("", 0))[0]
        if not self.unregistered.admit(address):
            log.warning(
                "a WebSocket from %s refused: %d of its sockets have not registered yet", address, self.unregistered.cap
            )
            await refuse_socket(receive, send)
            return
        closed = asyncio.Event()
        reaped = False
        registered = False

        def register() -> None:
            nonlocal registered
            if not registered:
                registered = True
                self.unregistered.leave(address)

        async def watched() -> Any:
            message = await receive()
            while is_oversized_update(message):
                # Flet would keep the value on the control for as long as the page lives.
                log.warning("a page from %s sent a property value over %d bytes: dropped", address, UPDATE_MAX_BYTES)
                message = await receive()
            if timing.ENABLED:
                timing.arrived()  # the tap's handler, a task made next, inherits the stamp
            if message.get("type") == "websocket.disconnect":
                closed.set()
            elif not registered and message.get("bytes"):
                register()  # the client's first message is its registration
                message = fresh_after_death(message)
            return message

        async def sending(message: Any) -> None:
            try:
                await send(message)
            except OSError:
                # The page has gone while the server wrote to it. Flet would end its
                # handler on the error without ever disconnecting the page's session
                # (still subscribed, never dropped); the closed socket's disconnect,
                # which the handler reads next, ends the session as it should.
                log.debug("a page went away while the server was writing to it")

        handler = asyncio.ensure_future(self.app(scope, watched, sending))

        async def reap() -> None:
            nonlocal reaped
            await closed.wait()
            done, _ = await asyncio.wait({handler}, timeout=LINGER_SECONDS)
            if not done:
                reaped = True
                handler.cancel()

        async def unregistered_ends() -> None:
            nonlocal reaped
            await asyncio.sleep(REGISTER_SECONDS)
            if not registered and not handler.done():
                log.info("a WebSocket from %s never registered its page: closed", address)
                reaped = True
                handler.cancel()
                with contextlib.suppress(Exception):
                    await send({"type": "websocket.close", "code": 1008})

        reaper = asyncio.ensure_future(reap())
        timer = asyncio.ensure_future(unregistered_ends())
        try:
            await handler
        except asyncio.CancelledError:
            if not reaped:
                raise
            log.debug("a page's handler outlived its closed WebSocket and was ended")
        except Exception as err:
            if not _is_disconnect(err):
                raise
            log.debug("a page went away while the server was writing to it")
        finally:
            reaper.cancel()
            timer.cancel()
            register()  # counted no more, whatever became of it


def is_oversized_update(message: dict[str, Any]) -> bool:
    """Whether ``message`` is a control property update longer than ``UPDATE_MAX_BYTES`` (read from its head only)."""
    data = message.get("bytes")
    # A two-element msgpack array (0x92) whose first element, the action, is a small integer.
    return (
        isinstance(data, bytes)
        and len(data) > UPDATE_MAX_BYTES
        and data[:3] == bytes([MESSAGE_FRAME, 0x92, UPDATE_CONTROL_PROPS])
    )


def fresh_after_death(message: dict[str, Any]) -> dict[str, Any]:
    """A client's registration, asking for a new session if the one it names belongs to a dead page.

    The browser tab keeps its session id, and Flet would attach a reloaded
    page to that session again, dead page and all; without the id Flet
    starts a new page on the address (with the match as stored).
    """
    data = message["bytes"]
    if data[0] != MESSAGE_FRAME:
        return message
    try:
        action, body = msgpack.unpackb(data[1:], strict_map_key=False)
    except (ValueError, TypeError, msgpack.UnpackException):
        return message  # not a registration Flet could read either: Flet answers it
    session_id = body.get("session_id") if action == REGISTER_CLIENT and isinstance(body, dict) else None
    if not isinstance(session_id, str) or not is_dead_session(session_id):
        return message
    log.info("page %s was dead; its reload gets a new page", session_id[:8])
    body["session_id"] = ""
    return {**message, "bytes": bytes([MESSAGE_FRAME]) + msgpack.packb([action, body])}


def _is_disconnect(err: BaseException) -> bool:
    return isinstance(err, WebSocketDisconnect)
