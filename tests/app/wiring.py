"""In-process wiring of the app: a real Flet Session with a fake Connection, no client, no browser.

The connection msgpack-encodes each message as the real transport does (the
encoding is what snapshots state for the next diff). Controls are found by
their semantic identifiers and events are fired at them the way the client
would. This uses Flet internals, so it is pinned to flet 1.0.5.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import flet as ft
import msgpack
from flet.controls.base_control import BaseControl
from flet.controls.context import _context_page
from flet.messaging.connection import Connection
from flet.messaging.protocol import (
    Message,
    MessageAction,
    RegisterClientResponseBody,
    configure_encode_object_for_msgpack,
)
from flet.messaging.session import Session
from flet.pubsub.pubsub_hub import PubSubHub

from scorepad.app.shell.page import make_main


class FakeConnection(Connection):
    """A connection that encodes every message like the web transport and keeps the bytes."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[bytes] = []

    def send_message(self, message: Message) -> None:
        """Encode the message as the real transport does."""
        self.sent.append(
            msgpack.packb([message.action, message.body], default=configure_encode_object_for_msgpack(BaseControl))
        )


def children(control: Any) -> Iterator[Any]:
    """The controls directly inside ``control`` (a component's rendered body included)."""
    rendered = getattr(control, "_b", None)
    if rendered is not None:
        yield from rendered if isinstance(rendered, list) else [rendered]
    if not dataclasses.is_dataclass(control):
        return
    for field in dataclasses.fields(control):
        if field.name.startswith("_") or field.name == "parent":
            continue
        value = getattr(control, field.name, None)
        if isinstance(value, BaseControl):
            yield value
        elif isinstance(value, list):
            yield from (v for v in value if isinstance(v, BaseControl))


def walk(control: Any) -> Iterator[Any]:
    """Every control under ``control``, depth first."""
    yield control
    for child in children(control):
        yield from walk(child)


class Wired:
    """One page of the app in this process, driven by identifiers."""

    def __init__(
        self, store: Any, *, route: str = "/", width: int = 412, height: int = 900, db_url: str | None = None
    ) -> None:
        self.store = store
        self.db_url = db_url  # with no ``store``: the page opens the database itself, as a server's first page
        self.route = route
        self.width, self.height = width, height
        self.connection = FakeConnection()
        self.session: Session | None = None

    async def open(self) -> Wired:
        """Register the client and run ``main(page)`` as the web server would."""
        conn = self.connection
        conn.loop = asyncio.get_running_loop()
        conn.executor = ThreadPoolExecutor(max_workers=2)
        conn.pubsubhub = PubSubHub(loop=conn.loop, executor=conn.executor)
        self.session = session = Session(conn)
        session.apply_page_patch({"route": self.route, "width": self.width, "height": self.height})
        conn.send_message(
            Message(
                MessageAction.REGISTER_CLIENT,
                RegisterClientResponseBody(session_id=session.id, page_patch=session.get_page_patch(), error=""),
            )
        )
        _context_page.set(session.page)
        OPENED.append(self)
        make_main(store=self.store, db_url=self.db_url)(session.page)
        await self.settle()
        return self

    async def settle(self) -> None:
        """Let the components re-render after an event."""
        for _ in range(3):
            await asyncio.sleep(0)

    @property
    def page(self) -> ft.Page:
        """The page under test."""
        assert self.session is not None
        return self.session.page

    def all(self) -> list[Any]:
        """Every control on the page now."""
        return list(walk(self.page.views[0]))

    def identified(self) -> dict[str, ft.Semantics]:
        """Every control with a semantic identifier, by identifier."""
        return {c.identifier: c for c in self.all() if isinstance(c, ft.Semantics) and c.identifier}

    def find(self, identifier: str) -> ft.Semantics:
        """The control with this identifier. Raises KeyError naming what is there instead."""
        found = self.identified()
        if identifier not in found:
            raise KeyError(f"no {identifier!r}; the page has {sorted(found)}")
        return found[identifier]

    def exists(self, identifier: str) -> bool:
        """Whether a control with this identifier is on the page."""
        return identifier in self.identified()

    def text(self, identifier: str) -> str:
        """The text of the Text control behind an identifier."""
        inner = self.find(identifier).content
        assert isinstance(inner, ft.Text), (identifier, inner)
        return str(inner.value)

    async def tap(self, identifier: str) -> None:
        """Fire a click at the control behind an identifier, as the client does."""
        inner = self.find(identifier).content
        assert inner is not None
        assert not getattr(inner, "disabled", False), f"{identifier} is disabled"
        assert self.session is not None
        await self.session.dispatch_event(inner._i, "click", None)
        await self.settle()

    async def type(self, identifier: str, value: str) -> None:
        """Type into the text field behind an identifier, as the client does."""
        inner = self.find(identifier).content
        assert isinstance(inner, ft.TextField), (identifier, inner)
        assert self.session is not None
        self.session.apply_patch(inner._i, {"value": value})
        await self.session.dispatch_event(inner._i, "change", value)
        await self.settle()

    async def submit(self, identifier: str) -> None:
        """Press the keyboard's Done key in the text field behind an identifier, as the client does."""
        inner = self.find(identifier).content
        assert isinstance(inner, ft.TextField), (identifier, inner)
        assert self.session is not None
        await self.session.dispatch_event(inner._i, "submit", inner.value)
        await self.settle()

    def close(self) -> None:
        """Close the page as its end would: it stops following its match, and the executor is released.

        Idempotent; every page opened is closed after its test (``close_all``),
        so a test that leaves one open does not leave its subscription to the next.
        """
        from scorepad.app.shell.live import screen_of

        live = screen_of(self.session.id) if self.session is not None else None
        if live is not None and not live.gone:
            live.stop()
        self.connection.executor.shutdown(wait=False)
        if self in OPENED:
            OPENED.remove(self)


# Every page opened and not yet closed (``tests/app/conftest.py`` closes them after each test).
OPENED: list[Wired] = []


def close_all() -> None:
    """Close every page a test left open."""
    for wired in list(OPENED):
        wired.close()
