"""The hall's big screen (1920x1080, read from five metres): one of four pages at a time, in large type and columns.

Drawn from the flet-free ``Hall`` view-model: pairings by table with each
table's live score and hand, pairings by name in alphabetical order,
standings as a table whose rows open their working when tapped, and the
latest results with the games' scores. The page shell (``HallPage``) reads
the event, rotates the pages and asks for a redraw through ``listen``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import flet as ft

from scorepad.app.models.audit import audit_route
from scorepad.app.models.tournament import Hall, HallTable
from scorepad.app.screens.audit import audit_link
from scorepad.app.screens.common import TOUCH, ThemeButton, ident, note, tappable, with_theme
from scorepad.rules.wording import count_words

# Rows of names in one column before the next column begins.
NAME_ROWS = 16
# Standings rows shown before the rest is cut (the hall shows the top of a long list).
STANDING_ROWS = 18
# Cards of tables a row, by how many cards there are at most (the last for any more), and the gap between them.
CARDS_PER_ROW = ((4, 2), (9, 3), (16, 4), (10_000, 5))
CARD_GAP = 16
# The width the hall is drawn for when the page does not say (a 1920-pixel screen).
HALL_WIDTH = 1920
# Below this width (a phone, a small window) the hall is drawn small, in one column that scrolls.
NARROW_BELOW = 900


@dataclass(frozen=True)
class Sizes:
    """Type sizes and widths in pixels for one kind of screen."""

    title: int
    page: int
    big: int
    text: int
    small: int
    margin: int
    # Column widths of the standings table (place, name, each figure) and of a name in the names' page.
    place: int
    name: int
    figure: int
    name_column: int
    narrow: bool


# A 1080-line screen read across a room (a capital of 40 px is about 3 cm on a 50" set).
HALL = Sizes(
    title=52,
    page=40,
    big=36,
    text=30,
    small=24,
    margin=32,
    place=90,
    name=420,
    figure=150,
    name_column=360,
    narrow=False,
)
# A phone held upright or a small window: the phone's sizes (docs/app.md), read at arm's length.
NARROW = Sizes(
    title=24, page=20, big=18, text=16, small=14, margin=12, place=36, name=150, figure=64, name_column=160, narrow=True
)


def sizes_for(width: float) -> Sizes:
    """The sizes for a page ``width`` pixels wide."""
    return NARROW if width < NARROW_BELOW else HALL


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
    page_width = ft.context.page.width or HALL_WIDTH
    size = sizes_for(page_width)
    shown = hall.page()
    if shown == "tables":
        width = page_width - 2 * size.margin
        number = hall.round.number if hall.round is not None else None
        body = _tables(hall.hall_tables(), width, size, lambda table: audit_route(hall.event_id, table, number))
    elif shown == "names":
        body = _names(hall.name_rows(), size)
    elif shown == "standings":
        body = _standings(hall, opened, lambda index: set_opened(-1 if index == opened else index), size)
    else:
        body = _results(hall.result_rows(), size)
    provisional = sum(t.provisional for t in hall.hall_tables())
    title = note(hall.title(), identifier="hall-title", size=size.title)

    def pick(page: str) -> None:
        hall.pick_page(page)
        set_draws(lambda n: n + 1)

    tabs = _tabs(hall.pages(), shown, size, pick)
    audit = audit_link("hall-audit", "Audit", audit_route(hall.event_id))
    if size.narrow:
        # The title on a line of its own, the tabs wrapping under it: a row holding all three
        # would leave the title no room at all.
        head: list[ft.Control] = [
            with_theme(title),
            ft.Row([tabs, audit], wrap=True, spacing=8, run_spacing=4),
        ]
    else:
        head = [
            ft.Row(
                [ft.Container(content=title, expand=True), tabs, audit, ThemeButton()],
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            )
        ]
    return ft.Container(
        content=ft.Column(
            [
                *head,
                ident(
                    "hall-page",
                    ft.Text(PAGE_TITLES[shown], size=size.page, weight=ft.FontWeight.BOLD, color=ft.Colors.PRIMARY),
                ),
                # On a big screen the page fills what is left; on a narrow one the whole column scrolls.
                body if size.narrow else ft.Container(content=body, expand=True),
                note(
                    f"{count_words(provisional, 'table')} provisional",
                    identifier="hall-provisional",
                    size=size.small,
                    color=ft.Colors.OUTLINE,
                ),
                # The draw count for tests and benchmarks: a label, nothing on the screen.
                ft.Semantics(identifier="hall-draws", label=str(draws), content=ft.Container(width=0, height=0)),
            ],
            spacing=8 if size.narrow else 14,
            expand=True,
            scroll=ft.ScrollMode.AUTO if size.narrow else None,
        ),
        padding=ft.Padding.symmetric(horizontal=size.margin, vertical=12 if size.narrow else 24),
        expand=True,
    )


def _tabs(pages: list[str], shown: str, size: Sizes, pick: Callable[[str], None]) -> ft.Control:
    """Which page is shown of the rotation, as a row of names (the shown one filled); a tap shows that page."""
    return ft.Row(
        [
            # In the hall's own type size (read across the room), at least 48 px high.
            tappable(
                f"hall-tab-{page}",
                (ft.FilledButton if page == shown else ft.TextButton)(
                    content=ft.Text(TAB_NAMES[page], size=size.small),
                    on_click=lambda _e, chosen=page: pick(chosen),
                    height=max(TOUCH, 2 * size.small),
                ),
            )
            for page in pages
        ],
        spacing=8,
        wrap=size.narrow,
        run_spacing=4,
    )


def _tables(tables: list[HallTable], width: float, size: Sizes, audit: Callable[[int], str]) -> ft.Control:
    """A card a table: its number and hand, then each side with its live score; a bye in one line.

    The fewer the tables, the wider the cards and the larger their type: two
    a row up to four cards, three up to nine, four up to sixteen, five beyond;
    on a narrow screen, one card a row.
    """
    per_row = next((n for limit, n in CARDS_PER_ROW if len(tables) <= limit), CARDS_PER_ROW[-1][1])
    if size.narrow:
        per_row = 1
    card = (width - CARD_GAP * (per_row - 1)) / per_row
    big = size.big + 12 if per_row <= 3 and not size.narrow else size.big
    return ft.Row(
        [_table_card(t, card, big, size, audit(t.number)) for t in tables],
        wrap=True,
        spacing=CARD_GAP,
        run_spacing=CARD_GAP,
        vertical_alignment=ft.CrossAxisAlignment.START,
    )


def _table_card(table: HallTable, width: float, big: int, size: Sizes, audit: str) -> ft.Control:
    if table.bye:
        # In the type of a table's head line, so it does not wrap as a card's names would.
        rows: list[ft.Control] = [note(table.line, identifier=f"hall-table-{table.number}", size=size.text)]
    else:
        head = ft.Row(
            [
                ft.Text(f"Table {table.number}", size=size.text, weight=ft.FontWeight.BOLD),
                note(table.hand, identifier=f"hall-hand-{table.number}", size=size.small + 4, color=ft.Colors.OUTLINE),
                # The table's audit (what the director changed there, and why), in a tab of its own.
                audit_link(f"hall-audit-{table.number}", "Audit", audit),
            ],
            alignment=ft.MainAxisAlignment.SPACE_BETWEEN,
        )
        sides = ft.Row(
            [
                ident(
                    f"hall-table-{table.number}",
                    ft.Text("\n".join(table.sides), size=big, no_wrap=True, overflow=ft.TextOverflow.ELLIPSIS),
                    label=table.line,
                ),
                # The live score, a line a side beside its names; blank before the first hand.
                note(
                    "\n".join(str(score) for score in table.scores),
                    identifier=f"hall-score-{table.number}",
                    size=big,
                ),
            ],
            alignment=ft.MainAxisAlignment.SPACE_BETWEEN,
            vertical_alignment=ft.CrossAxisAlignment.START,
        )
        rows = [head, sides]
        if table.games:
            games = f"games won {'-'.join(str(g) for g in table.games)}"
            rows.append(note(games, identifier=f"hall-games-{table.number}", size=size.small, color=ft.Colors.OUTLINE))
    return ft.Container(
        content=ft.Column(rows, spacing=6, tight=True),
        width=width,
        padding=12 if size.narrow else 16,
        border_radius=12,
        bgcolor=ft.Colors.SURFACE_CONTAINER,
        border=ft.Border.all(3, ft.Colors.TERTIARY) if table.provisional else None,
    )


def _names(rows: list[tuple[str, str]], size: Sizes) -> ft.Control:
    """Everyone in alphabetical order with their table, in columns of ``NAME_ROWS`` (one column on a narrow screen)."""
    per_column = (len(rows) or 1) if size.narrow else NAME_ROWS
    columns = [rows[i : i + per_column] for i in range(0, len(rows), per_column)]
    return ft.Row(
        [
            ft.Column(
                [
                    ident(
                        f"hall-name-{start + n + 1}",
                        ft.Row(
                            [
                                ft.Text(
                                    name,
                                    size=size.big,
                                    width=size.name_column,
                                    no_wrap=True,
                                    overflow=ft.TextOverflow.ELLIPSIS,
                                ),
                                ft.Text(where, size=size.big, weight=ft.FontWeight.BOLD),
                            ]
                        ),
                        label=f"{name}: {where}",
                    )
                    for n, (name, where) in enumerate(column)
                ],
                spacing=4,
            )
            for start, column in zip(range(0, len(rows), per_column), columns, strict=True)
        ],
        spacing=64,
        vertical_alignment=ft.CrossAxisAlignment.START,
    )


def _cell(text: str, width: int, *, size: int, bold: bool = False) -> ft.Text:
    return ft.Text(
        text,
        size=size,
        width=width,
        weight=ft.FontWeight.BOLD if bold else None,
        no_wrap=True,
        overflow=ft.TextOverflow.ELLIPSIS,
    )


def _widths(columns: tuple[str, ...], size: Sizes) -> list[int]:
    return [size.place, size.name, *([size.figure] * (len(columns) - 2))]


def _standings(hall: Hall, opened: int, open_working: Callable[[int], None], size: Sizes) -> ft.Control:
    """The standings as a table with columns; a tapped row shows its working beside it (under it when narrow)."""
    columns = hall.standing_columns()
    widths = _widths(columns, size)
    head = ft.Container(
        content=ft.Row(
            [_cell(c, w, bold=True, size=size.small) for c, w in zip(columns, widths, strict=True)], spacing=8
        ),
        padding=ft.Padding.symmetric(horizontal=4),
    )
    # The rule under the head is as wide as the columns, not the screen.
    rows: list[ft.Control] = [head, ft.Container(ft.Divider(height=2), width=sum(widths) + 8 * len(widths))]
    for index, row in enumerate(hall.standing_rows()[:STANDING_ROWS]):
        line = ft.Container(
            content=ft.Row(
                [_cell(v, w, bold=i == 1, size=size.text) for i, (v, w) in enumerate(zip(row, widths, strict=True))],
                spacing=8,
            ),
            on_click=lambda _e, i=index: open_working(i),
            bgcolor=ft.Colors.SECONDARY_CONTAINER if index == opened else None,
            border_radius=6,
            # A row is a tap target: at least TOUCH high, whatever its type.
            height=max(TOUCH, size.text + 18),
            alignment=ft.Alignment.CENTER_LEFT,
            padding=ft.Padding.symmetric(horizontal=4),
        )
        rows.append(tappable(f"standing-{index + 1}", line, label=" ".join(row)))
    table: ft.Control = ft.Column(
        [*rows, note("Tap a row for its working; * provisional.", size=size.small, color=ft.Colors.OUTLINE)],
        spacing=4,
    )
    if size.narrow:
        # Wider than a phone with its figures: the table scrolls sideways on its own.
        table = ft.Row([table], scroll=ft.ScrollMode.AUTO)
    if not 0 <= opened < len(hall.standings):
        return table
    name, working = hall.working(opened)
    panel = ft.Container(
        content=ft.Column(
            [
                ft.Text(name, size=size.big, weight=ft.FontWeight.BOLD),
                *(ft.Text(line, size=size.small) for line in working or ("No rounds played yet.",)),
            ],
            spacing=6,
            scroll=None if size.narrow else ft.ScrollMode.AUTO,
        ),
        padding=12 if size.narrow else 20,
        border_radius=12,
        bgcolor=ft.Colors.SURFACE_CONTAINER,
        expand=not size.narrow,
    )
    if size.narrow:
        return ft.Column([table, ident("standing-working", panel)], spacing=12)
    return ft.Row(
        [table, ident("standing-working", panel)],
        spacing=32,
        vertical_alignment=ft.CrossAxisAlignment.START,
        expand=True,
    )


def _results(rows: list[tuple[str, str]], size: Sizes) -> ft.Control:
    """A table's result a block: its sides, then the confirmed figures and the games' scores.

    Two columns, one on a narrow screen.
    """
    half = len(rows) if size.narrow else (len(rows) + 1) // 2
    blocks: list[ft.Control] = [
        ident(
            f"hall-result-{n + 1}",
            ft.Column(
                [ft.Text(title, size=size.big, weight=ft.FontWeight.BOLD), ft.Text(figures, size=size.text)],
                spacing=2,
                tight=True,
            ),
            label=f"{title}: {figures}",
        )
        for n, (title, figures) in enumerate(rows)
    ]
    if size.narrow:
        return ft.Column(blocks, spacing=10)
    return ft.Row(
        [ft.Column(blocks[:half], spacing=14, expand=True), ft.Column(blocks[half:], spacing=14, expand=True)],
        spacing=48,
        vertical_alignment=ft.CrossAxisAlignment.START,
    )
