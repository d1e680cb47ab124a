"""The tournament's pages: ``/event/ID/director``, ``/event/ID/table``, ``/event/ID/hall``, ``/event/ID/watch/T``,
``/event/ID/audit[/T]``.

Each page draws a view-model of ``scorepad.app.models.tournament`` and forwards
taps to it; every action reaches ``TournamentService`` with the page's own
credential, so the server refuses what the role may not do. The table
device scores with the normal table screen over a store guarded by its
code. Pages that show a round follow its matches live (the store's commit
listeners through ``LiveHub``, across server processes on PostgreSQL), and
a confirmation is announced the same way, so the hall redraws within a
moment of a confirmed hand; the hall's rotation timer also re-reads the
event (a pairing or a lock is no match entry).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import flet as ft

from scorepad.app.models import timing
from scorepad.app.models.audit import DirectorNews, audit_route
from scorepad.app.models.desk import Desk, signed_in_desk
from scorepad.app.models.notices import revision_of
from scorepad.app.models.state import TABLE, ScorePad
from scorepad.app.models.table import Table
from scorepad.app.models.tournament import (
    HALL_SECONDS,
    NO_SUCH_EVENT,
    NO_SUCH_TABLE,
    Creation,
    Hall,
    TableDevice,
    Watch,
    event_number,
    query_value,
    service_for,
    table_number,
    words_of,
)
from scorepad.app.screens.audit import audit_link
from scorepad.app.screens.common import ThemeButton, button, framed, heading, ident, message_line, note, with_theme
from scorepad.app.screens.hall import HallScreen
from scorepad.app.screens.new_event import NewEventScreen
from scorepad.app.screens.table_screen import PAGE_PAD, table_screen
from scorepad.app.screens.watch import WatchScreen
from scorepad.app.shell.audit_page import open_audit
from scorepad.app.shell.board import BoardPage, Follower, close_page
from scorepad.app.shell.director import DirectorPage
from scorepad.app.shell.guard import PageGuard
from scorepad.app.shell.live import LiveScreen, relay_for
from scorepad.app.shell.pages import PageTasks
from scorepad.app.shell.router import resolve
from scorepad.app.shell.taps import Dispatch, page_dispatch
from scorepad.store import Store, StoreError
from scorepad.tournament.errors import TournamentError

log = logging.getLogger("scorepad.live")
# Seconds added to a spectator's wait for the next state due, so it is due when the page looks.
DUE_MARGIN = 0.05


def event_page(
    page: ft.Page,
    store: Store,
    *,
    on_gone: Callable[[], None] | None = None,
    on_route: Callable[[str], None] | None = None,
) -> None:
    """Draw the tournament page the route names (called by ``main`` for ``/event/...``).

    ``on_gone`` is called once when the page closes (the page counter's
    leave). ``on_route(route)`` is called when the page's address changes
    while it is open (Back, Forward, a link in the same tab): the caller
    closes what is drawn here (``page.on_close``) and opens what the router
    finds at the new address.
    """
    drawn = [page.route]

    def moved(route: str) -> None:
        # The page went to ``route`` by itself (a new event's desk): that route change is no news.
        drawn[0] = route

    _draw_event_page(page, store, moved)
    drawn_close: Any = page.on_close
    if on_gone is not None:
        left = [False]

        def closed(e: Any) -> None:
            if drawn_close is not None:
                drawn_close(e)
            if not left[0]:
                left[0] = True
                on_gone()

        page.on_close = closed
    if on_route is not None:

        def route_changed(e: ft.RouteChangeEvent) -> None:
            if e.route != drawn[0]:
                on_route(e.route)

        page.on_route_change = route_changed


def keep_on_close(page: ft.Page, before: Any) -> None:
    """Have ``page.on_close`` also call ``before`` (the handler it had), after the one it has now."""
    now: Any = page.on_close

    def closed(e: Any) -> None:
        if now is not None:
            now(e)
        if before is not None:
            before(e)

    page.on_close = closed


def _draw_event_page(page: ft.Page, store: Store, moved: Callable[[str], None]) -> None:
    """Draw the tournament's page the router finds at the page's address (``shell/router.py``).

    ``moved(route)`` is told of an address the page goes to by itself.
    """
    where = resolve(page.route)
    page.title = "Sniff tournament"
    if where.page == "new-event":
        CreatePage(page, Creation(service_for(store), source=page.client_ip or "web"), store, moved).start()
        return
    event_id = event_number(where.part("event"))
    if event_id is None:  # a number no event can have (thousands of digits, letters, 0)
        _no_event(page, NO_SUCH_EVENT)
        return
    table_text = where.part("table")
    table = table_number(table_text)
    if table_text is not None and table is None:
        _no_event(page, NO_SUCH_TABLE)
        return
    service = service_for(store)
    try:
        service.event_info(None, event_id)
    except TournamentError as err:
        _no_event(page, words_of(err))
        return
    source = page.client_ip or "web"
    if where.page == "director":
        DirectorPage(page, Desk(service, event_id, source=source), store).start()
    elif where.page == "table":
        # A table's QR code (the director's page) opens this address with the table code: join at once.
        TablePage(page, TableDevice(service, event_id, source=source), store).start(_query(page, "code"))
    elif where.page == "audit":
        open_audit(page, service, event_id, table, _query(page, "round"))
    elif where.page == "hall":
        hide = _query(page, "hide_last") in ("1", "yes", "true")
        HallPage(page, Hall(service, event_id, hide_last=hide), store).start()
    else:
        delay = _query(page, "delay") or "0"
        seconds = float(delay) if delay.isascii() and delay.replace(".", "", 1).isdigit() else 0.0
        WatchPage(page, Watch(service, event_id, table or 0, delay=seconds), store).start()


def _query(page: ft.Page, name: str) -> str | None:
    """A query parameter of the page's address (``?delay=30``), from the route or Flet's own parse."""
    found = query_value(page.route or "", name)
    if found is None:
        try:
            found = page.query.to_dict.get(name)
        except Exception:  # no URL known yet
            found = None
    return found


def _no_event(page: ft.Page, words: str) -> None:
    """The page says there is no such event (in place of what it showed: a home page's tab may come here)."""
    page.controls = [note(words, identifier="event-missing", size=16)]
    page.update()


@dataclass(frozen=True)
class Joined:
    """What a table phone holds once it has joined: its score-pad, its table, its live updates and its tap guard."""

    pad: ScorePad
    table: Table
    live: LiveScreen
    act: Dispatch


class TablePage:
    """A table's phone: the code first, then the normal table screen with the opposing side's confirmation.

    The page is a component (``TableDeviceScreen``), as the table app's is:
    each redraw is compared with the last control by control, and only what
    changed goes to the phone (an entry changes a few of the screen's
    hundreds of controls). ``draw`` asks for a redraw.
    """

    def __init__(self, page: ft.Page, device: TableDevice, store: Store) -> None:
        self.page = page
        self.device = device
        self.store = store
        self.code = ""
        self.joined: Joined | None = None  # once the phone has joined its table
        self.bump: Callable[[], None] | None = None
        self.news = DirectorNews(device.service, device.event_id)
        self.round_number: int | None = None

    def start(self, code: str | None) -> None:
        """Draw the join form; given the code of a table's QR link, join with it at once (its refusal is said)."""
        if code:
            self.code = code
            if self.device.join(code):
                self._open()
        self.page.render(TableDeviceScreen, self)

    def draw(self) -> None:
        """Redraw the page (the join form, or the table) at the next turn of the page's event loop."""
        if self.bump is not None:
            self.bump()

    def view(self) -> ft.Control:
        """What the page shows now: the join form, or the table."""
        if self.joined is None:
            body: list[ft.Control | None] = [
                with_theme(heading(f"Event {self.device.event_id}: join your table", size=20)),
                ident(
                    "table-code",
                    ft.TextField(label="Table code (e.g. 3-K7QM2X)", value=self.code, width=260, on_change=self._typed),
                ),
                button("join", "Join the table", self._join, kind="filled", expand=False),
                message_line(self.device.message),
            ]
            return framed(body)
        return self._table(self.joined)

    async def drawn(self, table: Table | None, state: Any) -> None:
        """The page's redraw of ``state`` has gone to its connection: the timing log's ``sent``, then the page's answer.

        A state the partner's phone (or the director) made becomes what this
        phone's writes are checked against once the phone has answered a
        round trip sent after drawing it (``LiveScreen.confirm_shown``), as
        on the score-pad's pages: until then a tap on it was made on what the
        phone showed before.
        """
        if table is None:
            return
        if timing.ENABLED:
            timing.sent(self.page.session.id, table.match_id, revision_of(state))
        if self.joined is not None:
            await self.joined.live.confirm_shown(table, state)

    def _typed(self, e: Any) -> None:
        self.code = e.control.value or ""

    def _join(self) -> None:
        if self.device.join(self.code):
            self._open()
        self.draw()

    def _open(self) -> None:
        # Every write of this page names the table's credential: the store's door lets it into this
        # table's match only, while its round is current and unlocked and the table not forfeited.
        caller = self.device.caller(view=f"web:{self.page.session.id[:8]}")
        match_id = self.device.match_id
        if match_id is None:  # a bye has no match: ``caller`` has refused it already
            return
        self.round_number = caller.round_number
        pad = ScorePad(self.store, caller=caller)
        live = LiveScreen(self.page, pad, relay_for(self.store))
        pad.store.follow(live)
        table = pad.table = Table(self.device.guarded(pad.store), match_id, caller=caller, tournament=True)
        pad.screen = TABLE
        # A page that fails unexpectedly loses its table's credential too (``PageGuard``).
        guard = PageGuard.of(self.page)
        guard.revokes(self._leave_table)
        act = page_dispatch(guard, pad, live)
        act.redraw = live.redraw = self.draw
        # A hand confirmed on the other phone (or changes missed): the confirmations are read again.
        live.resynced = self.device.forget
        # The director's act at this table (a correction, a hand settled again, a forfeit) is said in one
        # line with its reason, in place of the stale notices; what was done before the phone joined is not news.
        if self.device.table_number is not None:
            self.news.joined(self.device.table_number)
        live.explain = self._director_said
        self.joined = Joined(pad, table, live, act)

        def gone(_e: Any) -> None:
            if not live.gone:
                live.stop()

        before: Any = self.page.on_close
        self.page.on_close = gone
        keep_on_close(self.page, before)
        self.page.on_disconnect = gone
        self.page.on_connect = lambda _e: live.back()
        self.page.on_resize = lambda _e: self.draw()

    def _director_said(self, change: Any) -> str | None:
        said = self.news.heard(self.device.table_number, change.device)
        if said is not None:
            self.device.message = None  # "Hand 1 confirmed by ..." is stale once the director has changed it
            return said
        # A later entry of the act just said, while the phone still says it: the line stays.
        again = self.news.still(change.device)
        if again is not None and self.joined is not None and self.joined.table.notice == again:
            return again
        return None

    def _leave_table(self) -> None:
        # The confirmation goes to the service with the device's credential, not through the store.
        self.device.token = None

    def _confirm_bar(self, joined: Joined) -> ft.Control | None:
        table = joined.table
        try:
            waiting = self.device.waiting(table.state, kept=True)
        except TournamentError as err:
            return note(words_of(err), identifier="confirm-refused", size=14, color=ft.Colors.ERROR)
        if not waiting:
            return None
        number = waiting[0]
        confirmers = self.device.confirmers(table.state, number)
        names = " & ".join(confirmers)
        verb = "confirms" if len(confirmers) == 1 else "confirm"
        return ft.Container(
            content=ft.Column(
                [
                    note(
                        f"Hand {number} is provisional until {names} {verb} it on this phone.",
                        identifier="provisional",
                        size=14,
                    ),
                    button(
                        "confirm-hand",
                        f"{names}: confirm hand {number}",
                        functools.partial(self._confirm, joined, number),
                        kind="filled",
                        icon=ft.Icons.VERIFIED,
                        expand=False,
                    ),
                ],
                spacing=4,
                tight=True,
            ),
            bgcolor=ft.Colors.TERTIARY_CONTAINER,
            padding=8,
            border_radius=8,
        )

    def _confirm(self, joined: Joined, number: int) -> None:
        table = joined.table
        table.refresh()
        # The service tells every other page on the match (the other phone drops its confirmation
        # bar, the hall shows the hand confirmed), here and in the other processes.
        if self.device.confirm(table.state, number, view=joined.pad.device):
            # A refusal shown for want of this confirmation (Next hand tapped too soon) is answered now.
            table.message = None
            if timing.ENABLED:
                timing.confirmed(table.match_id, number)
        self.draw()

    def _table(self, joined: Joined) -> ft.Control:
        page = self.page
        joined.live.follow()
        title = f"Table {self.device.table_number}: {joined.table.title()}"
        audit = audit_route(self.device.event_id, self.device.table_number, self.round_number)
        parts = [
            ft.Row(
                [
                    ft.Container(content=note(title, identifier="table-title", size=15), expand=True),
                    # The title, the audit and the theme on one line at 360 px: the audit is its icon, named.
                    audit_link("table-audit", "Audit", audit, icon_only=True),
                    ThemeButton(),
                ],
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            ),
            self._confirm_bar(joined),
            message_line(self.device.message, "device-message"),
        ]
        header = ft.Column([c for c in parts if c is not None], spacing=4, tight=True)
        body = table_screen(joined.table, joined.act, header, width=page.width or 0, height=page.height or 0)
        framed = ft.Container(content=body, padding=ft.Padding.symmetric(horizontal=PAGE_PAD, vertical=4), expand=True)
        return ft.SafeArea(content=framed, expand=True)


@ft.component
def TableDeviceScreen(screen: TablePage) -> ft.Control:
    """A table phone's page (``TablePage``): redrawn by ``screen.draw()``; a dead page shows ``PageGuard``'s view."""
    _draws, set_draws = ft.use_state(0)
    screen.bump = lambda: set_draws(lambda n: n + 1)
    table = screen.joined.table if screen.joined is not None else None
    state = table.state if table is not None else None

    async def drawn() -> None:
        await screen.drawn(table, state)

    # After the redraw of a new revision has been handed to the connection (Flet runs effects after its patch).
    ft.use_effect(drawn, dependencies=[id(table), revision_of(state)])
    guard = PageGuard.of(screen.page)
    if guard.dead:
        return guard.view()
    try:
        return screen.view()
    except Exception as err:
        # A failure while drawing: Flet would leave the page as it was, still taking taps.
        guard.fail(err, "drawing the table", show=False)
        return guard.view()


class HallPage(BoardPage):
    """The hall's big screen (1920x1080): pairings by table, by name, standings, results, in turn.

    The lifecycle lives here (reading the event, following its round,
    rotating, ending with the page); the drawing is ``screens.hall.HallScreen``.
    """

    def __init__(self, page: ft.Page, hall: Hall, store: Store) -> None:
        self.hall = hall
        self.board = hall
        super().__init__(page, store)
        self.guard = PageGuard.of(page)
        self.bump: Callable[[], None] | None = None
        self.session_id = page.session.id
        # A page that comes back after its connection dropped follows its round again.
        page.on_connect = lambda _e: self.follower.changed()
        # A window made narrower (or a phone turned) is drawn for its new width.
        page.on_resize = lambda _e: self.draw()

    def start(self) -> None:
        """Read the event, follow its round, draw and start rotating."""
        self.reload()
        self.page.render(HallScreen, self.hall, self._listen, self._dead, self._drawn)
        self.tasks.run(self._rotate)

    def _listen(self, bump: Callable[[], None]) -> None:
        self.bump = bump

    def _dead(self) -> ft.Control | None:
        return self.guard.view() if self.guard.dead else None

    async def _drawn(self, draw: int) -> None:
        if timing.ENABLED:
            timing.hall(self.session_id, draw, self.hall.loaded_at)

    async def _rotate(self) -> None:
        while not self.tasks.closed and not self.guard.dead:
            await asyncio.sleep(HALL_SECONDS)
            try:
                self.hall.rotate()
                # Read again (a new round or a lock is no match entry), by the follower's one reload at a time.
                self.follower.changed()
            except Exception as err:  # Flet reports no failure of a task it runs: the page dies here
                self.guard.fail(err, "the hall's rotation")

    def draw(self) -> None:
        """Redraw the hall as it stands (at the next turn of the page's event loop)."""
        if self.bump is not None:
            self.bump()


class WatchPage:
    """A spectator's page: one table, tile by tile, ``delay`` seconds behind from its first drawing.

    The lifecycle lives here (finding the table, following its match, the
    timers of delayed entries, ending with the page); the drawing is
    ``screens.watch.WatchScreen``.
    """

    def __init__(self, page: ft.Page, watch: Watch, store: Store) -> None:
        self.page = page
        self.watch = watch
        self.guard = PageGuard.of(page)
        self.tasks = PageTasks(page)
        self.follower = Follower(page, store, self._changed, self.tasks)
        self.bump: Callable[[], None] | None = None
        page.on_disconnect = lambda _e: self.follower.stop()
        page.on_close = lambda _e: close_page(page, self.tasks, self.follower)
        # A page that comes back after its connection dropped follows its table again and reads what it missed.
        page.on_connect = lambda _e: self._back()

    def _back(self) -> None:
        if self.watch.match_id is not None:
            self.follower.follow([self.watch.match_id])
            self.follower.changed()

    def start(self) -> None:
        """Find the table (as it stood ``delay`` seconds ago), follow it and draw."""
        try:
            found = self.watch.find()
        except (TournamentError, StoreError) as err:
            self.page.add(note(words_of(err), identifier="watch-missing", size=16))
            return
        if not found:
            self.page.add(note(f"There is no table {self.watch.table} to follow.", identifier="watch-missing"))
            return
        self.follower.follow([self.watch.match_id] if self.watch.match_id is not None else [])
        self.page.render(WatchScreen, self.watch, self._listen, self._dead)
        self._wait()

    def _listen(self, bump: Callable[[], None]) -> None:
        self.bump = bump

    def _dead(self) -> ft.Control | None:
        return self.guard.view() if self.guard.dead else None

    async def _changed(self) -> None:
        self.changed()

    def changed(self) -> None:
        """The table's match changed: keep it, draw now or once its delay has passed."""
        self.watch.saw()
        self.draw()
        self._wait()

    def _wait(self) -> None:
        due = self.watch.next_due()
        if due is not None:
            self.tasks.run(self._later, due)

    async def _later(self, seconds: float) -> None:
        # asyncio may wake a timer up to its clock's resolution early: a margin, then look again.
        await asyncio.sleep(seconds + DUE_MARGIN)
        if self.guard.dead or self.tasks.closed:
            return
        try:
            self.draw()
            due = self.watch.next_due()
        except Exception as err:  # Flet reports no failure of a task it runs: the page dies here
            self.guard.fail(err, "the spectator's delayed view")
            return
        if due is not None:
            self.tasks.run(self._later, due)

    def draw(self) -> None:
        """Redraw the table as it stood ``delay`` seconds ago (at the next turn of the page's event loop)."""
        if self.bump is not None:
            self.bump()


class CreatePage:
    """``/event/new``: a director creates an event, then lands on its director's page, signed in.

    The lifecycle lives here (the taps, guarded; the hand-over to the desk);
    the drawing is ``screens.new_event.NewEventScreen``.
    """

    def __init__(self, page: ft.Page, creation: Creation, store: Store, moved: Callable[[str], None]) -> None:
        self.page = page
        self.creation = creation
        self.store = store
        self.moved = moved
        self.guard = PageGuard.of(page)
        self.bump: Callable[[], None] | None = None
        self.director: DirectorPage | None = None  # once the event is created
        self._act = Dispatch(self.guard, said=self._said, redraw=self.draw, where="a tap on the new event's page")

    def start(self) -> None:
        """Draw the form."""
        self.page.render(NewEventScreen, self.creation, self._act, self._act(self._create), self._listen, self._dead)

    def _listen(self, bump: Callable[[], None]) -> None:
        self.bump = bump

    def _dead(self) -> ft.Control | None:
        return self.guard.view() if self.guard.dead else None

    def _said(self, words: str) -> None:
        self.creation.message = words

    def draw(self) -> None:
        """Redraw the form as the view-model stands (the director's page once the event is created)."""
        if self.director is not None:
            self.director.draw()
        elif self.bump is not None:
            self.bump()

    def _create(self) -> None:
        if not self.creation.create():
            return
        event_id = self.creation.event_id
        before: Any = self.page.on_close
        director = DirectorPage(self.page, signed_in_desk(self.creation), self.store)
        # The director's page stops following its round on close; the page counter still hears of it.
        keep_on_close(self.page, before)
        director.start()
        # The address follows the page to the desk (a reload comes back to it), as no news of a new page.
        self.moved(f"/event/{event_id}/director")
        self.page.run_task(self.page.push_route, f"/event/{event_id}/director")
        self.director = director
