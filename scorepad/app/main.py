"""Wiring a Flet page to the view-model: one ``ScorePad`` per page, one store per process."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import flet as ft

from scorepad.app.components.home import history_screen, home_screen, new_match_screen
from scorepad.app.components.sheet import sheet_screen
from scorepad.app.components.table_screen import table_screen
from scorepad.app.state import HISTORY, HOME, NEW, SHEET, TABLE, ScorePad

WIDE = 900  # pixels: from here on the table screen uses two columns
_stores: dict[str | None, Any] = {}
_stores_lock = threading.Lock()


def shared_store(db_url: str | None) -> Any:
    """The store for ``db_url``, opened once per process and shared by every page."""
    from scorepad.store import open_store

    with _stores_lock:
        if db_url not in _stores:
            _stores[db_url] = open_store(url=db_url)
        return _stores[db_url]


class Dispatch:
    """Turns a view-model action into a tap handler that runs it and redraws the page.

    One per page, so memoised parts of the screen see the same object on every draw.
    """

    def __init__(self) -> None:
        self.redraw: Callable[[], None] = lambda: None

    def __call__(self, fn: Callable[..., Any], *args: Any) -> Callable[[], None]:
        """The handler for a tap that calls ``fn(*args)``."""

        def handler() -> None:
            fn(*args)
            self.redraw()

        return handler


def make_main(*, db_url: str | None = None, store: Any = None) -> Callable[[ft.Page], None]:
    """The ``main(page)`` for ``ft.run``: each page gets its own ScorePad over the shared store."""

    def main(page: ft.Page) -> None:
        pad = ScorePad(store if store is not None else shared_store(db_url), device=f"web:{page.session.id[:8]}")
        setup_page(page)
        bump: dict[str, Callable[[], None]] = {}

        def on_route_change(e: ft.RouteChangeEvent) -> None:
            if e.route != pad.route:
                pad.open_route(e.route)
                if "redraw" in bump:
                    bump["redraw"]()

        def on_resize(_e: Any) -> None:
            if "redraw" in bump:
                bump["redraw"]()

        def on_other_screen(message: Any) -> None:
            # Called from the pub-sub hub's thread: hop onto the page's loop first.
            match_id, device = message

            async def show_it() -> None:
                if pad.match_saved_elsewhere(match_id, device) and "redraw" in bump:
                    bump["redraw"]()

            page.run_task(show_it)

        pad.on_saved = lambda match_id, device: page.pubsub.send_others((match_id, device))
        page.pubsub.subscribe(on_other_screen)
        page.on_route_change = on_route_change
        page.on_resize = on_resize
        if page.route and page.route != "/":
            pad.open_route(page.route)
        page.render(App, pad, bump, Dispatch())

    return main


def setup_page(page: ft.Page) -> None:
    """Title, light and dark themes, and the page padding."""
    page.title = "Sniff score-pad"
    page.theme = ft.Theme(color_scheme_seed=ft.Colors.GREEN)
    page.dark_theme = ft.Theme(color_scheme_seed=ft.Colors.GREEN)
    page.padding = 0


@ft.component
def App(pad: ScorePad, bump: dict[str, Callable[[], None]], act: Dispatch) -> ft.Control:
    """The app: draws the screen the view-model names and forwards taps to it."""
    _revision, set_revision = ft.use_state(0)
    page = ft.context.page
    dark, set_dark = ft.use_state(lambda: page.platform_brightness == ft.Brightness.DARK)

    def redraw() -> None:
        set_revision(lambda r: r + 1)
        if page.route != pad.route:
            page.route = pad.route
            page.navigate(pad.route)

    bump["redraw"] = redraw
    act.redraw = redraw

    def toggle_theme() -> None:
        page.theme_mode = ft.ThemeMode.LIGHT if dark else ft.ThemeMode.DARK
        set_dark(not dark)
        page.update()

    def on_text(seat: int, text: str) -> None:
        assert pad.table is not None
        pad.table.set_remaining_text(seat, text)
        redraw()

    def on_name(seat: int, text: str) -> None:
        pad.name_player(seat, text)
        redraw()

    def on_target(text: str) -> None:
        pad.form.target = text
        redraw()

    header = _header(pad, act, toggle_theme, dark)
    wide = (page.width or 0) >= WIDE
    if pad.screen == TABLE and pad.table is not None:
        body = table_screen(pad.table, act, on_text, header, wide=wide)
    elif pad.screen == SHEET and pad.table is not None:
        body = sheet_screen(pad.table.sheet(), header)
    elif pad.screen == NEW:
        body = new_match_screen(pad, act, on_name, on_target, header)
    elif pad.screen == HISTORY:
        body = history_screen(pad, act, header)
    else:
        body = home_screen(pad, act, header)
    return ft.SafeArea(
        content=ft.Column(
            [ft.Container(content=body, padding=12)],
            scroll=ft.ScrollMode.AUTO,
            expand=True,
        ),
        expand=True,
    )


def _icon_button(identifier: str, icon: Any, label: str, on_tap: Callable[[], None]) -> ft.Control:
    from scorepad.app.components.common import tappable

    return tappable(
        identifier,
        ft.IconButton(icon=icon, tooltip=label, on_click=lambda _e: on_tap(), width=48, height=48),
        label=label,
    )


def _header(
    pad: ScorePad, act: Callable[..., Callable[[], None]], toggle_theme: Callable[[], None], dark: bool
) -> ft.Control:
    title = pad.table.title() if pad.table is not None and pad.screen in (TABLE, SHEET) else "Sniff score-pad"
    controls: list[ft.Control] = []
    if pad.screen != HOME:
        controls.append(_icon_button("home", ft.Icons.HOME, "Home", act(pad.go_home)))
    controls.append(ft.Text(title, size=15, weight=ft.FontWeight.BOLD, expand=True))
    if pad.screen == TABLE:
        controls.append(_icon_button("show-sheet", ft.Icons.TABLE_CHART, "Score sheet", act(pad.show_sheet)))
    elif pad.screen == SHEET:
        controls.append(_icon_button("show-table", ft.Icons.GRID_VIEW, "Back to the table", act(pad.show_table)))
    controls.append(
        _icon_button(
            "theme",
            ft.Icons.LIGHT_MODE if dark else ft.Icons.DARK_MODE,
            "Light theme" if dark else "Dark theme",
            toggle_theme,
        )
    )
    return ft.Row(controls, vertical_alignment=ft.CrossAxisAlignment.CENTER, spacing=4)
