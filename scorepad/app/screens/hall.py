"""The hall's big screen (1920x1080, read from five metres): one of four pages at a time, in large type and columns.

Drawn from the flet-free ``Hall`` view-model: pairings by table with each
table's live score and hand, pairings by name in alphabetical order,
standings as a table whose rows open their working when tapped, and the
latest results with the games' scores. The page shell (``HallPage``) reads
the event, rotates the pages and asks for a redraw through ``listen``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import flet as ft

from scorepad.app.models.audit import audit_route
from scorepad.app.models.tournament import Hall, HallTable
from scorepad.app.screens.audit import audit_link
from scorepad.app.screens.common import ident, note, tappable
from scorepad.rules.wording import count_words

# Type sizes in pixels: a 1080-line screen read across a room (a capital of 40 px is about 3 cm on a 50" set).
TITLE = 52
PAGE = 40
BIG = 36
TEXT = 30
SMALL = 24
# Cards of tables a row, by how many cards there are at most (the last for any more), and the gap between them.
CARDS_PER_ROW = ((4, 2), (9, 3), (16, 4), (10_000, 5))
CARD_GAP = 16
# The width the hall is drawn for when the page does not say (a 1920-pixel screen less its margins).
HALL_WIDTH = 1920
MARGIN = 32
# Rows of names in one column before the next column begins.
NAME_ROWS = 16
# Standings rows shown before the rest is cut (the hall shows the top of a long list).
STANDING_ROWS = 18
# Column widths of the standings table (place, name, figures).
PLACE_WIDTH, NAME_WIDTH, FIGURE_WIDTH = 90, 420, 150

TAB_NAMES = {"tables": "Tables", "names": "Names", "standings": "Standings", "results": "Results"}
PAGE_TITLES = {
    "tables": "Pairings by table",
    "names": "Pairings by name",
    "standings": "Standings",
    "results": "Latest results",
}


@ft.component
def HallScreen(
    hall: Hall,
    listen: Callable[[Callable[[], None]], None],
    dead: Callable[[], ft.Control | None],
    drawn: Callable[[int], Awaitable[None]],
) -> ft.Control:
    """The hall as ``hall`` stands; ``listen`` receives the redraw, ``dead`` gives a dead page's view, if dead.

    ``drawn(draw)`` is called once each redraw has gone to the page (the timing log).
    """
    draws, set_draws = ft.use_state(0)
    listen(lambda: set_draws(lambda n: n + 1))
    opened, set_opened = ft.use_state(-1)  # the standing whose working is shown (-1: none)

    async def after() -> None:
        await drawn(draws)

    ft.use_effect(after, dependencies=[draws])
    gone = dead()
    if gone is not None:
        return gone
    shown = hall.page()
    if shown == "tables":
        width = (ft.context.page.width or HALL_WIDTH) - 2 * MARGIN
        number = hall.round.number if hall.round is not None else None
        body = _tables(hall.hall_tables(), width, lambda table: audit_route(hall.event_id, table, number))
    elif shown == "names":
        body = _names(hall.name_rows())
    elif shown == "standings":
        body = _standings(hall, opened, lambda index: set_opened(-1 if index == opened else index))
    else:
        body = _results(hall.result_rows())
    provisional = sum(t.provisional for t in hall.hall_tables())
    return ft.Container(
        content=ft.Column(
            [
                ft.Row(
                    [
                        ft.Container(
                            content=note(hall.title(), identifier="hall-title", size=TITLE),
                            expand=True,
                        ),
                        _tabs(hall.pages(), shown),
                        audit_link("hall-audit", "Audit", audit_route(hall.event_id)),
                    ],
                    vertical_alignment=ft.CrossAxisAlignment.CENTER,
                ),
                ident(
                    "hall-page",
                    ft.Text(PAGE_TITLES[shown], size=PAGE, weight=ft.FontWeight.BOLD, color=ft.Colors.PRIMARY),
                ),
                ft.Container(content=body, expand=True),
                note(
                    f"{count_words(provisional, 'table')} provisional",
                    identifier="hall-provisional",
                    size=SMALL,
                    color=ft.Colors.OUTLINE,
                ),
                # The draw count for tests and benchmarks: a label, nothing on the screen.
                ft.Semantics(identifier="hall-draws", label=str(draws), content=ft.Container(width=0, height=0)),
            ],
            spacing=14,
            expand=True,
        ),
        padding=ft.Padding.symmetric(horizontal=MARGIN, vertical=24),
        expand=True,
    )


def _tabs(pages: list[str], shown: str) -> ft.Control:
    """Which page is shown of the rotation, as a row of names (the shown one filled)."""
    return ft.Row(
        [
            ft.Container(
                content=ft.Text(
                    TAB_NAMES[page],
                    size=SMALL,
                    color=ft.Colors.ON_PRIMARY if page == shown else ft.Colors.OUTLINE,
                ),
                bgcolor=ft.Colors.PRIMARY if page == shown else None,
                border_radius=8,
                padding=ft.Padding.symmetric(horizontal=12, vertical=4),
            )
            for page in pages
        ],
        spacing=8,
    )


def _tables(tables: list[HallTable], width: float, audit: Callable[[int], str]) -> ft.Control:
    """A card a table: its number and hand, then each side with its live score; a bye in one line.

    The fewer the tables, the wider the cards and the larger their type: two
    a row up to four cards, three up to nine, four up to sixteen, five beyond.
    """
    per_row = next((n for limit, n in CARDS_PER_ROW if len(tables) <= limit), CARDS_PER_ROW[-1][1])
    card = (width - CARD_GAP * (per_row - 1)) / per_row
    size = BIG + 12 if per_row <= 3 else BIG
    return ft.Row(
        [_table_card(t, card, size, audit(t.number)) for t in tables], wrap=True, spacing=CARD_GAP, run_spacing=CARD_GAP
    )


def _table_card(table: HallTable, width: float, size: int, audit: str) -> ft.Control:
    if table.bye:
        rows: list[ft.Control] = [note(table.line, identifier=f"hall-table-{table.number}", size=size)]
    else:
        head = ft.Row(
            [
                ft.Text(f"Table {table.number}", size=TEXT, weight=ft.FontWeight.BOLD),
                note(table.hand, identifier=f"hall-hand-{table.number}", size=SMALL + 4, color=ft.Colors.OUTLINE),
                # The table's audit (what the director changed there, and why), in a tab of its own.
                audit_link(f"hall-audit-{table.number}", "Audit", audit),
            ],
            alignment=ft.MainAxisAlignment.SPACE_BETWEEN,
        )
        sides = ft.Row(
            [
                ident(
                    f"hall-table-{table.number}",
                    ft.Text("\n".join(table.sides), size=size, no_wrap=True, overflow=ft.TextOverflow.ELLIPSIS),
                    label=table.line,
                ),
                # The live score, a line a side beside its names; blank before the first hand.
                note(
                    "\n".join(str(score) for score in table.scores),
                    identifier=f"hall-score-{table.number}",
                    size=size,
                ),
            ],
            alignment=ft.MainAxisAlignment.SPACE_BETWEEN,
            vertical_alignment=ft.CrossAxisAlignment.START,
        )
        rows = [head, sides]
        if table.games:
            games = f"games won {'-'.join(str(g) for g in table.games)}"
            rows.append(note(games, identifier=f"hall-games-{table.number}", size=SMALL, color=ft.Colors.OUTLINE))
    return ft.Container(
        content=ft.Column(rows, spacing=6, tight=True),
        width=width,
        padding=16,
        border_radius=12,
        bgcolor=ft.Colors.SURFACE_CONTAINER,
        border=ft.Border.all(3, ft.Colors.TERTIARY) if table.provisional else None,
    )


def _names(rows: list[tuple[str, str]]) -> ft.Control:
    """Everyone in alphabetical order with their table, in columns of ``NAME_ROWS``."""
    columns = [rows[i : i + NAME_ROWS] for i in range(0, len(rows), NAME_ROWS)]
    return ft.Row(
        [
            ft.Column(
                [
                    ident(
                        f"hall-name-{start + n + 1}",
                        ft.Row(
                            [
                                ft.Text(name, size=BIG, width=360, no_wrap=True, overflow=ft.TextOverflow.ELLIPSIS),
                                ft.Text(where, size=BIG, weight=ft.FontWeight.BOLD),
                            ]
                        ),
                        label=f"{name}: {where}",
                    )
                    for n, (name, where) in enumerate(column)
                ],
                spacing=4,
            )
            for start, column in zip(range(0, len(rows), NAME_ROWS), columns, strict=True)
        ],
        spacing=64,
        vertical_alignment=ft.CrossAxisAlignment.START,
    )


def _cell(text: str, width: int, *, bold: bool = False, size: int = TEXT) -> ft.Text:
    return ft.Text(
        text,
        size=size,
        width=width,
        weight=ft.FontWeight.BOLD if bold else None,
        no_wrap=True,
        overflow=ft.TextOverflow.ELLIPSIS,
    )


def _widths(columns: tuple[str, ...]) -> list[int]:
    return [PLACE_WIDTH, NAME_WIDTH, *([FIGURE_WIDTH] * (len(columns) - 2))]


def _standings(hall: Hall, opened: int, open_working: Callable[[int], None]) -> ft.Control:
    """The standings as a table with columns; a tapped row shows its working beside it."""
    columns = hall.standing_columns()
    widths = _widths(columns)
    head = ft.Container(
        content=ft.Row([_cell(c, w, bold=True, size=SMALL) for c, w in zip(columns, widths, strict=True)], spacing=8),
        padding=ft.Padding.symmetric(horizontal=4),
    )
    rows: list[ft.Control] = [head, ft.Divider(height=2)]
    for index, row in enumerate(hall.standing_rows()[:STANDING_ROWS]):
        line = ft.Container(
            content=ft.Row(
                [_cell(v, w, bold=i == 1) for i, (v, w) in enumerate(zip(row, widths, strict=True))], spacing=8
            ),
            on_click=lambda _e, i=index: open_working(i),
            bgcolor=ft.Colors.SECONDARY_CONTAINER if index == opened else None,
            border_radius=6,
            padding=ft.Padding.symmetric(horizontal=4, vertical=2),
        )
        rows.append(tappable(f"standing-{index + 1}", line, label=" ".join(row)))
    table = ft.Column(
        [*rows, note("Tap a row for its working; * provisional.", size=SMALL, color=ft.Colors.OUTLINE)],
        spacing=4,
    )
    if not 0 <= opened < len(hall.standings):
        return table
    name, working = hall.working(opened)
    panel = ft.Container(
        content=ft.Column(
            [
                ft.Text(name, size=BIG, weight=ft.FontWeight.BOLD),
                *(ft.Text(line, size=SMALL) for line in working or ("No rounds played yet.",)),
            ],
            spacing=6,
            scroll=ft.ScrollMode.AUTO,
        ),
        padding=20,
        border_radius=12,
        bgcolor=ft.Colors.SURFACE_CONTAINER,
        expand=True,
    )
    return ft.Row(
        [table, ident("standing-working", panel)],
        spacing=32,
        vertical_alignment=ft.CrossAxisAlignment.START,
        expand=True,
    )


def _results(rows: list[tuple[str, str]]) -> ft.Control:
    """A table's result a block: its sides, then the confirmed figures and the games' scores; two columns."""
    half = (len(rows) + 1) // 2
    blocks: list[ft.Control] = [
        ident(
            f"hall-result-{n + 1}",
            ft.Column(
                [ft.Text(title, size=BIG, weight=ft.FontWeight.BOLD), ft.Text(figures, size=TEXT)],
                spacing=2,
                tight=True,
            ),
            label=f"{title}: {figures}",
        )
        for n, (title, figures) in enumerate(rows)
    ]
    return ft.Row(
        [ft.Column(blocks[:half], spacing=14, expand=True), ft.Column(blocks[half:], spacing=14, expand=True)],
        spacing=48,
        vertical_alignment=ft.CrossAxisAlignment.START,
    )
