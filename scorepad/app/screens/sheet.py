"""The score sheet: hand by hand per side, start-of-hand scores, and the race to the target."""

from __future__ import annotations

import flet as ft
import flet_charts as fch

from scorepad.app.models.views import Sheet
from scorepad.app.models.words import hand_in_game
from scorepad.app.screens.common import card, heading, ident

SIDE_COLOURS = (ft.Colors.BLUE, ft.Colors.ORANGE, ft.Colors.GREEN, ft.Colors.PURPLE)


def _race_chart(sheet: Sheet, game: int) -> ft.Control:
    rows = [row for row in sheet.rows if row.game == game]
    series = []
    for side in range(len(sheet.sides)):
        points = [fch.LineChartDataPoint(0, rows[0].start[side] if rows else 0)]
        points += [fch.LineChartDataPoint(i + 1, row.end[side]) for i, row in enumerate(rows)]
        series.append(fch.LineChartData(points=points, color=SIDE_COLOURS[side % 4], stroke_width=3, point=True))
    top = max([sheet.target, *(max(r.end) for r in rows)]) if rows else sheet.target
    bottom = min([0, *(min(r.end) for r in rows)]) if rows else 0
    last = max(1, len(rows))
    series.append(
        fch.LineChartData(
            points=[fch.LineChartDataPoint(0, sheet.target), fch.LineChartDataPoint(last, sheet.target)],
            color=ft.Colors.ERROR,
            stroke_width=1,
            dash_pattern=[6, 4],
            point=False,
        )
    )
    chart = fch.LineChart(
        data_series=series,
        min_x=0,
        max_x=last,
        min_y=-(-bottom // 50) * 50 if bottom >= 0 else (bottom // 50) * 50,
        max_y=-(-top // 50) * 50,
        height=220,
        horizontal_grid_lines=fch.ChartGridLines(interval=50, color=ft.Colors.OUTLINE_VARIANT, width=1),
        left_axis=fch.ChartAxis(label_size=40, label_spacing=50),
        bottom_axis=fch.ChartAxis(label_size=24, label_spacing=1),
        interactive=False,
    )
    legend = ft.Row(
        [
            ft.Row(
                [
                    ft.Container(width=14, height=14, bgcolor=SIDE_COLOURS[i % 4], border_radius=3),
                    ft.Text(name, size=13),
                ],
                spacing=4,
                tight=True,
            )
            for i, name in enumerate(sheet.sides)
        ]
        + [ft.Text(f"dashed: the target, {sheet.target}", size=13)],
        wrap=True,
    )
    return ident(
        f"race-chart-{game}", ft.Column([chart, legend], tight=True), label=f"Race to {sheet.target} in game {game}"
    )


def sheet_screen(
    sheet: Sheet, header: ft.Control, details: ft.Control | None = None, paper: ft.Control | None = None
) -> ft.Control:
    """Every hand in lines that fit a 360 px phone, and for each game a chart of the race to the target.

    ``paper`` (the book's own paper view, ``components.paper``) comes right after the table,
    ``details`` (the match's label and names, ``components.matches``) after that.
    """
    table = ident("score-sheet", ft.Column([_sheet_heading(sheet), *_sheet_rows(sheet)], spacing=0, tight=True))
    series = _series(sheet)
    games = sorted({row.game for row in sheet.rows}) or [1]
    charts = [card(heading(f"Game {g}: the race to {sheet.target}"), _race_chart(sheet, g)) for g in games]
    # The match's label and names come after the sheet: a rename is rare, the sheet is read often.
    extra = [c for c in (paper, details) if c is not None]
    sheets = [card(heading("Score sheet"), table)] + ([series] if series is not None else [])
    return ft.Column([header, *sheets, *extra, *charts], spacing=12)


# The hand's number, then one equal share of the card per side: four sides fit a 360 px phone.
HAND_WIDTH = 40
# Room for the row's expand arrow, so the columns of the heading line up with the rows' scores.
ARROW_WIDTH = 36


def _score_cells(first: ft.Control, cells: list[ft.Control]) -> ft.Row:
    return ft.Row([ft.Container(first, width=HAND_WIDTH), *cells], spacing=4)


def _sheet_heading(sheet: Sheet) -> ft.Control:
    """The sheet's first line: "Hand", then each side's name over its column (``sheet-side-S``)."""
    names: list[ft.Control] = [
        ft.Container(
            ident(
                f"sheet-side-{s}",
                ft.Text(name, size=13, weight=ft.FontWeight.BOLD, text_align=ft.TextAlign.RIGHT, max_lines=2),
            ),
            expand=1,
            alignment=ft.Alignment.CENTER_RIGHT,
        )
        for s, name in enumerate(sheet.sides)
    ]
    line = _score_cells(ft.Text("Hand", size=13, weight=ft.FontWeight.BOLD), names)
    return ft.Container(line, padding=ft.Padding.only(left=4, right=4 + ARROW_WIDTH, bottom=4))


def _sheet_rows(sheet: Sheet) -> list[ft.Control]:
    """One line a hand (``sheet-hand-N``): its number and each side's score at its end, how it ended under
    them; a tap opens the working (``sheet-working-N``: who set, each side's score from its start to its end)."""
    # Hands are numbered within their game ("2.1": game 2, hand 1), not across the match.
    in_game = {row.number: hand_in_game(sheet.rows, row) for row in sheet.rows}
    lines: list[ft.Control] = []
    for row in sheet.rows:
        scores: list[ft.Control] = [
            ft.Text(str(row.end[s]), size=14, text_align=ft.TextAlign.RIGHT, expand=1) for s in range(len(sheet.sides))
        ]
        working = [f"Set by {row.setter}."] + [
            f"{name}: {row.start[s]} to {row.end[s]}." for s, name in enumerate(sheet.sides)
        ]
        tile = ft.ExpansionTile(
            title=_score_cells(ft.Text(f"{row.game}.{in_game[row.number]}", size=14), scores),
            subtitle=ft.Text(row.how, size=12),
            controls=[ident(f"sheet-working-{row.number}", ft.Text(" ".join(working), size=13))],
            tile_padding=ft.Padding.only(left=4, right=4),
            controls_padding=ft.Padding.only(left=4 + HAND_WIDTH, right=4, bottom=8),
            expanded_alignment=ft.Alignment.CENTER_LEFT,
            expanded_cross_axis_alignment=ft.CrossAxisAlignment.START,
            dense=True,
        )
        lines.append(ident(f"sheet-hand-{row.number}", tile))
    return lines


def _series(sheet: Sheet) -> ft.Control | None:
    """The day's series (Smartt §14): each game won in words, then one line of running totals per side (``series-S``).

    Lines, not columns: they fit a 360 px phone with four sides.
    """
    if not sheet.series:
        return None
    lines: list[ft.Control] = [ft.Text(line, size=13) for line in sheet.series_lines]
    for s, row in enumerate(sheet.series):
        parts = [row.side, f"games {row.wins}"]
        if row.game_points is not None and row.rubed is not None:
            parts += [f"game points {row.game_points}", f"Rubed {row.rubed}"]
        lines.append(ident(f"series-{s}", ft.Text(" · ".join(parts), size=14, weight=ft.FontWeight.BOLD)))
    return card(heading("The day's series"), ident("series", ft.Column(lines, spacing=4)))
