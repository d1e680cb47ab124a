"""Wiring a Flet page to the view-model: one ``ScorePad`` per page, one store per process."""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from typing import Any

import flet as ft

from scorepad.app.models.callers import page_caller
from scorepad.app.models.notices import revision_of
from scorepad.app.models.state import DISPUTE, HISTORY, HOME, NEW, SHEET, TABLE, ScorePad
from scorepad.app.screens.common import ThemeButton, icon_button
from scorepad.app.screens.dispute import dispute_screen
from scorepad.app.screens.home import history_screen, home_screen, new_match_screen
from scorepad.app.screens.kept import KeptParts
from scorepad.app.screens.matches import match_details, remember_device_match
from scorepad.app.screens.paper import paper_view
from scorepad.app.screens.sheet import sheet_screen
from scorepad.app.screens.table_screen import PAGE_PAD, table_screen
from scorepad.app.shell.event_pages import event_page
from scorepad.app.shell.guard import PageGuard, reload_view
from scorepad.app.shell.live import LiveScreen, log_from_env, relay_for
from scorepad.app.shell.pages import SESSION_TIMEOUT_SECONDS, PageCounter, Sweeper, refusal_words
from scorepad.app.shell.router import is_event_route, open_pad_route
from scorepad.app.shell.taps import Dispatch, home_during_outage, page_dispatch
from scorepad.rules.wording import sentence
from scorepad.store import DatabaseUnavailable, Store, open_store
from scorepad.store.faults import told

log = logging.getLogger("scorepad.live")
# The page a process that cannot reach its database shows instead of any screen.
UNAVAILABLE_ID = "database-unavailable"
_stores: dict[str | None, Store] = {}
_stores_lock = threading.Lock()


def shared_store(db_url: str | None) -> Store:
    """The store for ``db_url``, opened once per process and shared by every page.

    Raises ``DatabaseUnavailable`` (one sentence) when the database cannot be
    reached; the next page tries again.
    """
    with _stores_lock:
        if db_url not in _stores:
            with told(saving=False):
                _stores[db_url] = open_store(url=db_url)
        return _stores[db_url]


def make_main(*, db_url: str | None = None, store: Store | None = None) -> Callable[[ft.Page], None]:
    """The ``main(page)`` for ``ft.run``: each page gets its own ScorePad over the shared store.

    Also sets how long Flet keeps a disconnected page (``FLET_SESSION_TIMEOUT``,
    unless set already): a page that has gone is dropped within a minute.
    """
    os.environ.setdefault("FLET_SESSION_TIMEOUT", str(SESSION_TIMEOUT_SECONDS))
    log_from_env()
    pages = PageCounter()
    sweeper = Sweeper()

    def main(page: ft.Page) -> None:
        # Installed first, so that even a failure in here reaches the page as a sentence, never a traceback.
        guard = PageGuard.of(page)
        try:
            open_page(page, guard)
        except Exception as err:
            guard.fail(err, "opening the page")

    def open_page(page: ft.Page, guard: PageGuard) -> None:
        address = page.client_ip
        setup_page(page)
        if not pages.admit(address):
            log.info("page refused: %d pages connected from %s", pages.cap, address)
            page.add(ft.Semantics(identifier="refused", content=ft.Text(refusal_words(pages.cap), size=16)))
            return
        try:
            chosen = store if store is not None else shared_store(db_url)
        except DatabaseUnavailable as err:
            # This process has never reached the database: no screen can draw, the store's sentence can.
            pages.leave(address)
            page.add(reload_view(sentence(str(err)), UNAVAILABLE_ID, page.route or "/"))
            return

        def reopen(route: str) -> None:
            # The page's address changed to another shell's page (Back, Forward, New event, a link in the
            # same tab): what is drawn closes as a page closes, and the page opens again at the new address.
            closing: Any = page.on_close
            page.on_route_change = page.on_connect = page.on_disconnect = page.on_resize = page.on_close = None
            if closing is not None:
                closing(None)
            page.route = route
            open_page(page, guard)

        if is_event_route(page.route):
            # The tournament's pages (director, table device, hall, spectator): their own view-models.
            def gone() -> None:
                pages.leave(address)
                sweeper.dropped()

            event_page(page, chosen, on_gone=gone, on_route=reopen)
            return
        # Who this page is, as the door marked its connection: every write it makes names that caller.
        pad = ScorePad(chosen, caller=page_caller(page.client_user_agent, f"web:{page.session.id[:8]}"))
        relay = relay_for(chosen)
        live = LiveScreen(page, pad, relay)
        pad.store.follow(live)
        act = page_dispatch(guard, pad, live)
        bump: dict[str, Callable[[], None]] = {}

        def redraw() -> None:
            if "redraw" in bump:
                bump["redraw"]()

        live.redraw = redraw

        def to_event_page(route: str) -> None:
            # This page becomes a tournament page: New event was tapped, or an event's address was
            # opened in this tab (the browser came back to this page's session with a new route).
            bump.clear()  # nothing late (the browser's storage answering) redraws the home screen over it
            reopen(route)

        def new_event() -> None:
            to_event_page("/event/new")
            page.run_task(page.push_route, "/event/new")

        bump["new_event"] = new_event

        def on_route_change(e: ft.RouteChangeEvent) -> None:
            if is_event_route(e.route):
                to_event_page(e.route)
                return
            if e.route != pad.route:
                try:
                    open_pad_route(pad, e.route)
                except DatabaseUnavailable as err:
                    home_during_outage(pad, err)
                redraw()

        counted = [True]  # whether this page is in the count of its address now

        def leave() -> None:
            if counted[0]:
                pages.leave(address)
                counted[0] = False

        def on_disconnect(_e: Any) -> None:
            live.stop()
            leave()

        def on_connect(_e: Any) -> None:
            # Coming back over the cap still shows the page (it was admitted once), uncounted.
            counted[0] = pages.admit(address)
            live.back()

        def on_close(_e: Any) -> None:
            # Closed after a disconnect (Flet's timeout): already stopped and not counted.
            if not live.gone:
                live.stop()
            leave()
            log.debug("page %s dropped", page.session.id[:8])
            sweeper.dropped()

        remember_device_match(page, pad, redraw)
        page.on_route_change = on_route_change
        page.on_resize = lambda _e: redraw()
        page.on_disconnect = on_disconnect
        page.on_connect = on_connect
        page.on_close = on_close
        if page.route and page.route != "/":
            try:
                open_pad_route(pad, page.route)
            except DatabaseUnavailable as err:
                home_during_outage(pad, err)
        page.render(App, pad, bump, act, live, guard)

    return main


def setup_page(page: ft.Page) -> None:
    """Title, light and dark themes, and the page padding."""
    page.title = "Sniff score-pad"
    page.theme = ft.Theme(color_scheme_seed=ft.Colors.GREEN)
    page.dark_theme = ft.Theme(color_scheme_seed=ft.Colors.GREEN)
    page.padding = 0


@ft.component
def App(
    pad: ScorePad, bump: dict[str, Callable[[], None]], act: Dispatch, live: LiveScreen, guard: PageGuard
) -> ft.Control:
    """The app: draws the screen the view-model names and forwards taps to it (a dead page: ``guard.view()``).

    After each draw the page follows (live updates) the match it shows, and
    a state another screen made is marked seen once the page confirms it.
    """
    if guard.dead:
        return guard.view()
    try:
        try:
            return _app(pad, bump, act, live)
        except DatabaseUnavailable as err:
            # A screen that reads the store as it is drawn (History) during an outage.
            home_during_outage(pad, err)
            return _app(pad, bump, act, live)
    except Exception as err:
        # A failure while drawing: Flet would leave the page as it was, still taking taps.
        guard.fail(err, "drawing the page", show=False)
        return guard.view()


def _app(pad: ScorePad, bump: dict[str, Callable[[], None]], act: Dispatch, live: LiveScreen) -> ft.Control:
    _draws, set_draws = ft.use_state(0)
    page = ft.context.page
    live.follow()
    table = pad.table
    state = table.state if table is not None else None

    async def confirm_shown() -> None:
        if table is not None:
            await live.confirm_shown(table, state)

    # A snapshot's revision only grows (an undo is an entry too), so it names the state drawn.
    ft.use_effect(confirm_shown, dependencies=[id(table), revision_of(state)])
    kept = _kept(ft.use_ref(KeptParts))

    def redraw() -> None:
        set_draws(lambda r: r + 1)
        if page.route != pad.route:
            page.route = pad.route
            page.navigate(pad.route)

    bump["redraw"] = redraw
    act.redraw = redraw

    def on_name(seat: int, text: str) -> None:
        pad.name_player(seat, text)
        redraw()

    def on_target(text: str) -> None:
        pad.form.target = text
        redraw()

    # The header is the same control while its screen and title are (``kept``): Flet skips it (its theme
    # button is a component of its own, redrawn by itself).
    title = _title(pad)
    header = kept.part("header", (pad.screen, title), lambda: _header(pad, act, title))
    if pad.screen == TABLE and pad.table is not None:
        body = table_screen(pad.table, act, header, width=page.width or 0, height=page.height or 0)
    elif pad.screen == SHEET and pad.table is not None:
        table = pad.table
        state = table.state
        paper = paper_view(
            state.rules.preset.paper,
            state.rules.target,
            [state.side_name(s) for s in range(state.rules.sides)],
            list(state.scores),
        )
        body = sheet_screen(table.sheet(), header, match_details(pad, act), paper)
    elif pad.screen == NEW:
        body = new_match_screen(pad, act, on_name, on_target, header)
    elif pad.screen == DISPUTE and pad.dispute is not None:
        body = dispute_screen(pad.dispute, act, header, width=page.width or 360)
    elif pad.screen == HISTORY:
        body = history_screen(pad, act, header)
    else:
        body = home_screen(pad, act, header, new_event=bump.get("new_event"))
    if (
        (pad.screen == TABLE and pad.table is not None)
        or (pad.screen == DISPUTE and pad.dispute is not None)
        or pad.screen == NEW
    ):
        # The table, the dispute and the new match form scroll inside themselves between parts that stay put.
        framed = ft.Container(content=body, padding=ft.Padding.symmetric(horizontal=PAGE_PAD, vertical=4), expand=True)
        return ft.SafeArea(content=framed, expand=True)
    return ft.SafeArea(
        content=ft.Column(
            [ft.Container(content=body, padding=12)],
            scroll=ft.ScrollMode.AUTO,
            expand=True,
        ),
        expand=True,
    )


def _kept(ref: Any) -> KeptParts:
    """The page's kept parts, held by a ``use_ref`` of ``App``."""
    if not isinstance(ref.current, KeptParts):
        ref.current = KeptParts()
    return ref.current


def _title(pad: ScorePad) -> str:
    return pad.table.title() if pad.table is not None and pad.screen in (TABLE, SHEET) else "Sniff score-pad"


def _header(pad: ScorePad, act: Callable[..., Callable[[], None]], title: str) -> ft.Control:
    controls: list[ft.Control] = []
    if pad.screen != HOME:
        controls.append(icon_button("home", ft.Icons.HOME, "Home", act(pad.go_home)))
    # Two lines fit beside the 48 px icons: "Smartt to 250 · game 1, hand 1" is whole at 360 px, not "h...".
    controls.append(
        ft.Text(title, size=15, weight=ft.FontWeight.BOLD, expand=True, max_lines=2, overflow=ft.TextOverflow.ELLIPSIS)
    )
    if pad.screen == TABLE:
        controls.append(icon_button("show-sheet", ft.Icons.TABLE_CHART, "Score sheet", act(pad.show_sheet)))
    elif pad.screen == SHEET:
        controls.append(icon_button("show-table", ft.Icons.GRID_VIEW, "Back to the table", act(pad.show_table)))
    controls.append(ThemeButton())
    return ft.Row(controls, vertical_alignment=ft.CrossAxisAlignment.CENTER, spacing=4)
