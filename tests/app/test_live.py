"""Live updates between pages of one server process, in-process (real Flet sessions, no browser).

Pages share one Flet pub-sub hub as the pages of one server do. Each page's
fake client answers the server's round trips (``get_device_info``) only when
the test lets it, so a test can hold a page on what it drew last and tap it.
Every wait is bounded by progress (a control's text), not by a fixed sleep.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import pytest_asyncio
from flet.controls.context import _context_page
from flet.messaging.protocol import Message, MessageAction, RegisterClientResponseBody
from flet.messaging.session import Session
from flet.pubsub.pubsub_hub import PubSubHub

from scorepad.access import Caller
from scorepad.app.models.desk import Desk
from scorepad.app.models.notices import change_words, entry_words
from scorepad.app.shell import live as sessions
from scorepad.app.shell.live import subscriptions
from scorepad.app.shell.page import make_main
from scorepad.app.shell.pages import PageCounter
from scorepad.store import Store
from scorepad.tournament import TournamentService

from .app_hands import GO_OUT_COUNTS, GO_OUT_HAND
from .wiring import FakeConnection, Wired

pytestmark = pytest.mark.asyncio

DIRECTOR_PASSWORD = "a long director password"


class AnsweringConnection(FakeConnection):
    """A fake client that answers the server's method calls, unless held."""

    def __init__(self) -> None:
        super().__init__()
        self.session: Session | None = None
        self.held: list[Any] = []
        self.hold = False

    def send_message(self, message: Message) -> None:
        super().send_message(message)
        if message.action == MessageAction.INVOKE_METHOD:
            if self.hold:
                self.held.append(message.body)
            else:
                self.loop.call_soon(self.answer, message.body)

    def answer(self, body: Any) -> None:
        assert self.session is not None
        self.session.handle_invoke_method_results(body.control_id, body.call_id, {}, None)

    def release(self) -> None:
        """Answer every call held back, in order."""
        self.hold = False
        held, self.held = self.held, []
        for body in held:
            self.answer(body)


class LivePage(Wired):
    """A ``Wired`` page whose session uses a pub-sub hub shared with the other pages of the test."""

    def __init__(self, store: Store, hub: PubSubHub, main: Callable[[Any], None], **kw: Any) -> None:
        super().__init__(store, **kw)
        self.connection = AnsweringConnection()
        self.hub = hub
        self.main = main

    async def open(self) -> LivePage:
        conn = self.connection
        conn.loop = asyncio.get_running_loop()
        conn.executor = ThreadPoolExecutor(max_workers=2)
        conn.pubsubhub = self.hub
        self.session = session = Session(conn)
        conn.session = session
        session.apply_page_patch({"route": self.route, "width": self.width, "height": self.height})
        conn.send_message(
            Message(
                MessageAction.REGISTER_CLIENT,
                RegisterClientResponseBody(session_id=session.id, page_patch=session.get_page_patch(), error=""),
            )
        )
        _context_page.set(session.page)
        self.main(session.page)
        await self.settle()
        return self

    async def wait_text(self, identifier: str, want: str, timeout: float = 10.0) -> float:
        """Wait until the control's text is ``want``; returns the seconds it took."""
        started = time.monotonic()
        while time.monotonic() - started < timeout:
            if self.exists(identifier) and self.text(identifier) == want:
                return time.monotonic() - started
            await asyncio.sleep(0.005)
        got = self.text(identifier) if self.exists(identifier) else None
        raise AssertionError(f"{identifier} is {got!r}, not {want!r}, after {timeout} s")

    async def drawn(self, timeout: float = 10.0) -> None:
        """Wait until the server knows the page has drawn the match as it holds it (the page answered)."""
        assert self.session is not None
        live = sessions.screen_of(self.session.id)
        assert live is not None
        started = time.monotonic()
        while time.monotonic() - started < timeout:
            if live.pad.table is None or live.shown is live.pad.table.state:
                return
            await asyncio.sleep(0.005)
        raise AssertionError(f"the page did not confirm what it shows within {timeout} s")

    def message(self) -> str | None:
        if not self.exists("message"):
            return None
        return str(self.find("message").content.content.value)

    async def disconnect(self) -> None:
        assert self.session is not None
        await self.session.disconnect(30)
        await self.settle()

    async def reconnect(self) -> None:
        assert self.session is not None
        await self.session.connect(self.connection)
        await self.settle()


@pytest_asyncio.fixture
async def pages(store: Store) -> Any:
    """A factory of pages on one store and one pub-sub hub, closed after the test."""
    loop = asyncio.get_running_loop()
    hub = PubSubHub(loop=loop, executor=ThreadPoolExecutor(max_workers=2))
    mains: list[Callable[[Any], None]] = []  # made at the first page, after the test's settings
    opened: list[LivePage] = []

    async def page(route: str = "/") -> LivePage:
        if not mains:
            mains.append(make_main(store=store))
        made = await LivePage(store, hub, mains[0], route=route).open()
        opened.append(made)
        return made

    yield page
    for made in opened:
        if made.session is not None and made.session.connection is not None:
            await made.disconnect()
        made.close()
    assert subscriptions(store) == 0


async def lay(page: LivePage, tile: str) -> None:
    """Tap a tile; where it fits both ends of the line, lay it right."""
    await page.tap(f"tile-{tile}")
    if page.exists("at-right"):
        await page.tap("at-right")


async def start_match(page: LivePage) -> int:
    await page.tap("new-match")
    await page.tap("start-match")
    assert page.text("board-count") == "0"
    table = page_table(page)
    return int(table.match_id)


def page_table(page: LivePage) -> Any:
    """The page's view-model table."""
    assert page.session is not None
    live = sessions.screen_of(page.session.id)
    assert live is not None and live.pad.table is not None
    return live.pad.table


async def test_an_entry_on_one_page_shows_on_the_other_with_a_notice(pages: Any, store: Store) -> None:
    first = await pages()
    match_id = await start_match(first)
    second = await pages(f"/match/{match_id}")
    assert second.text("board-count") == "0"
    assert subscriptions(store) == 2
    await first.tap("tile-5-5")
    took = await second.wait_text("board-count", "10")
    assert took < 1.0
    assert second.message() == "Entered on another screen: Ann sets 5-5."
    assert first.message() is None, "the page that entered it is not told of its own entry"
    await second.drawn()
    await lay(second, "5-6")
    await first.wait_text("board-count", "16")  # 5-6 on the 5-5 Sniff: 6 + 10
    assert first.message() is not None and first.message().startswith("Entered on another screen: Bob plays 5-6")


async def test_only_pages_on_the_match_are_subscribed_and_leaving_unsubscribes(
    pages: Any, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    home = await pages()
    assert subscriptions(store) == 0, "the home screen follows no match"
    match_id = await start_match(home)
    other_id = store.create_match(players=["Ann", "Bob"], caller=Caller.local())
    store.start_hand(other_id, setter=0, caller=Caller.local())
    elsewhere = await pages(f"/match/{other_id}")
    watchers = [await pages(f"/match/{match_id}") for _ in range(3)]
    assert subscriptions(store) == 5
    await home.tap("home")
    assert subscriptions(store) == 4
    for page in watchers[:2]:
        await page.disconnect()
    assert subscriptions(store) == 2
    with caplog.at_level(logging.DEBUG):
        store.append(match_id, {"play": "6-6"}, caller=Caller.local("cli"))
        await watchers[2].wait_text("board-count", "12")
    assert elsewhere.text("board-count") == "0"
    assert "Traceback" not in caplog.text and "AttributeError" not in caplog.text
    # A page that comes back follows again, and shows what it missed.
    await watchers[0].reconnect()
    await watchers[0].wait_text("board-count", "12")
    assert subscriptions(store) == 3


async def test_a_tap_made_on_a_state_another_page_moved_past_is_refused(pages: Any, store: Store) -> None:
    if not _takes_expected_revision(store):
        pytest.skip("the store does not take expected_revision= yet")
    first = await pages()
    match_id = await start_match(first)
    second = await pages(f"/match/{match_id}")
    # The second page's client is slow: it has not drawn what the first page enters.
    second.connection.hold = True
    await first.tap("tile-5-5")
    await second.wait_text("board-count", "10")  # sent to the page, not yet confirmed drawn
    await second.tap("tile-3-3")  # made on the empty table the page still showed
    assert second.message() is not None and "Ann sets 5-5" in second.message()
    assert "not applied" in second.message()
    assert [e for h in store.export_record(match_id)["hands"] for e in h["events"]] == [{"play": "5-5"}]
    assert second.text("board-count") == "10"
    # Once the page has drawn it, its taps go through.
    second.connection.release()
    await second.drawn()
    await lay(second, "5-6")
    assert second.message() is None
    assert [e["play"] for h in store.export_record(match_id)["hands"] for e in h["events"]] == ["5-5", "5-6"]


async def test_a_tournament_phone_taps_after_its_partners_entry_without_a_refusal(pages: Any, store: Store) -> None:
    """Both phones of a table follow the match; the one that did not enter must not be refused as stale.

    The entry the partner's phone made becomes what this phone's writes are
    checked against once this phone has drawn it (it answers a round trip),
    as on the score-pad's pages; its next tap then goes through.
    """
    service = TournamentService(store)
    event_id = service.create_event(name="Open", password=DIRECTOR_PASSWORD, rounds=2, seed="s")
    desk = Desk(service, event_id, source="director-phone")
    assert desk.sign_in(DIRECTOR_PASSWORD), desk.message
    for name in ("Ann", "Bob", "Cy", "Dee"):
        assert desk.register(name), desk.message
    assert desk.pair(), desk.message
    one = await pages(f"/event/{event_id}/table?code={desk.codes[1]}")
    two = await pages(f"/event/{event_id}/table?code={desk.codes[1]}")
    await one.tap("setter-0")
    await one.tap("next-hand")
    await two.wait_text("turn", one.text("turn"))
    # The two phones take turns, as two players scoring their own tiles: each taps once it shows the other's.
    phones = (one, two)
    for n, ((tile, _end), count) in enumerate(zip(GO_OUT_HAND, GO_OUT_COUNTS, strict=True)):
        phone, other = phones[n % 2], phones[(n + 1) % 2]
        await phone.wait_text("turn", other.text("turn"))  # whose turn moves with every tile
        await phone.drawn()
        await lay(phone, tile)
        assert phone.message() is None, (tile, phone.message())
        assert phone.text("board-count") == str(count)
    match_id = next(t.match_id for t in desk.round.tables if t.number == 1)
    plays = [e["play"] for h in store.export_record(match_id)["hands"] for e in h["events"]]
    assert plays == [tile for tile, _end in GO_OUT_HAND]
    # The last tile's phone settles; the other side confirms on the other phone; the first starts the next hand.
    scorer, partner = phones[(len(GO_OUT_HAND) - 1) % 2], phones[len(GO_OUT_HAND) % 2]
    await scorer.type("remaining-1", "8")
    await scorer.tap("settle")
    assert scorer.message() is None and scorer.exists("next-hand")
    for _ in range(1000):
        if partner.exists("confirm-hand"):
            break
        await asyncio.sleep(0.005)
    await partner.drawn()
    await partner.tap("confirm-hand")
    assert "confirmed" in partner.text("device-message"), partner.text("device-message")
    for _ in range(1000):
        if not scorer.exists("confirm-hand") and not scorer.exists("provisional"):
            break
        await asyncio.sleep(0.005)
    await scorer.drawn()
    await scorer.tap("next-hand")
    assert scorer.message() is None, scorer.message()
    assert len(store.export_record(match_id)["hands"]) == 2


async def test_a_page_over_the_cap_for_its_address_is_refused(pages: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCOREPAD_PAGES_PER_ADDRESS", "2")
    first, second = await pages(), await pages()
    assert first.exists("new-match") and second.exists("new-match")
    third = await pages()
    assert third.exists("refused") and not third.exists("new-match")
    await first.disconnect()
    fourth = await pages()
    assert fourth.exists("new-match")


async def test_the_counter_counts_per_address() -> None:
    counter = PageCounter(cap=2)
    assert counter.admit("10.0.0.5") and counter.admit("10.0.0.5")
    assert not counter.admit("10.0.0.5")
    assert counter.admit("10.0.0.6")
    counter.leave("10.0.0.5")
    assert counter.admit("10.0.0.5")
    assert (counter.connected("10.0.0.5"), counter.connected()) == (2, 3)


async def test_change_words_name_what_changed(store: Store) -> None:
    match_id = store.create_match(players=["Ann", "Bob"], caller=Caller.local())
    empty = store.load(match_id)
    started = store.start_hand(match_id, setter=1, caller=Caller.local())
    assert change_words(empty, started) == "hand 1 started, Bob to set"
    set_ = store.append(match_id, {"play": "4-4"}, caller=Caller.local())
    assert entry_words(set_) == "Bob sets 4-4"
    played = store.append(match_id, {"play": "4-6", "at": "right"}, caller=Caller.local())
    assert change_words(set_, played) == "Ann plays 4-6 right"
    undone = store.undo(match_id, caller=Caller.local())
    assert change_words(played, undone) == "the last entry was taken back"


def _takes_expected_revision(store: Store) -> bool:
    import inspect

    return "expected_revision" in inspect.signature(store.append).parameters


async def test_a_reload_that_fails_is_said_and_the_next_entry_heals_it(
    pages: Any, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    from scorepad.store import StoreError

    first = await pages()
    match_id = await start_match(first)
    second = await pages(f"/match/{match_id}")
    real_load = store.load
    failing = [True]
    assert second.session is not None
    live = sessions.screen_of(second.session.id)
    assert live is not None
    device = live.pad.device

    def load(*args: Any, **kwargs: Any) -> Any:
        if failing[0] and kwargs.get("device") == device:
            failing[0] = False
            raise StoreError("the database is not answering")
        return real_load(*args, **kwargs)

    monkeypatch.setattr(store, "load", load)
    store.append(match_id, {"play": "5-5"}, caller=Caller.local("cli"))
    deadline = time.monotonic() + 10
    while second.message() is None and time.monotonic() < deadline:
        await asyncio.sleep(0.005)
    assert second.message() == "The table could not be brought up to date: the database is not answering"
    assert second.text("board-count") == "0"
    store.append(match_id, {"play": "5-6", "at": "right"}, caller=Caller.local("cli"))
    await second.wait_text("board-count", "16")
