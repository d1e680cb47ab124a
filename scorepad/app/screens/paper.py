"""The paper views of the scores: the American stroke tally and the Jaques 61/121-hole track.

Drawn from ``scorepad.app.models.paper``; each side's view is identified
``paper-tally-S`` or ``paper-track-S`` and labelled with the score it shows.
"""

from __future__ import annotations

import flet as ft

from scorepad.app.models.paper import Tally, Track, hole_track, stroke_tally
from scorepad.app.screens.common import card, heading, ident, wrap_row
from scorepad.rules.presets import Paper

MARK = 18
HOLE = 7


def _mark(text: str, size: int) -> ft.Control:
    return ft.Container(
        content=ft.Text(text, size=size, weight=ft.FontWeight.BOLD),
        width=MARK,
        height=MARK,
        alignment=ft.Alignment.CENTER,
    )


def _fifty(large_x: bool, small_x: int) -> ft.Control:
    """One 50 symbol, whole or being built: the large X in the middle, small x's in the four spaces."""
    corners = [_mark("x" if i < small_x else "", 11) for i in range(4)]
    middle = _mark("X" if large_x else "", 16)
    blank = ft.Container(width=MARK, height=MARK)
    rows = [[corners[0], blank, corners[1]], [blank, middle, blank], [corners[2], blank, corners[3]]]
    return ft.Container(
        content=ft.Column([ft.Row(r, spacing=0) for r in rows], spacing=0, tight=True),
        border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
        border_radius=4,
    )


def tally_view(tally: Tally) -> list[ft.Control]:
    """The tally's marks: whole 50s, the 50 being built, a lone stroke."""
    marks: list[ft.Control] = []
    if tally.negative:
        marks.append(_mark("−", 16))
    marks += [_fifty(True, 4) for _ in range(tally.fifties)]
    if tally.large_x:
        marks.append(_fifty(True, tally.small_x))
    if tally.stroke:
        marks.append(_mark("|", 16))
    if tally.odd:
        marks.append(ft.Text(f"+{tally.odd}", size=12))
    return marks


def track_view(track: Track) -> list[ft.Control]:
    """The holes in groups of five, the peg's hole filled."""
    groups: list[ft.Control] = []
    for group in track.groups:
        holes: list[ft.Control] = [
            ft.Container(
                width=HOLE,
                height=HOLE,
                border_radius=HOLE,
                bgcolor=ft.Colors.PRIMARY
                if n == track.peg
                else (ft.Colors.PRIMARY_CONTAINER if n < track.peg else None),
                border=ft.Border.all(1, ft.Colors.OUTLINE),
            )
            for n in group
        ]
        groups.append(ft.Row(holes, spacing=2, tight=True))
    return groups


def paper_view(paper: Paper, target: int, sides: list[str], scores: list[int]) -> ft.Control | None:
    """The paper view the book in play keeps (its preset's ``paper``): strokes or holes; None for figures."""
    rows: list[ft.Control] = []
    for side, (names, score) in enumerate(zip(sides, scores, strict=True)):
        if paper == Paper.STROKES:
            body = wrap_row(tally_view(stroke_tally(score)), spacing=4)
            rows.append(
                ident(
                    f"paper-tally-{side}",
                    ft.Column([ft.Text(f"{names}: {score}"), body], tight=True),
                    label=f"{names}: {score} in strokes",
                )
            )
        elif paper == Paper.HOLES:
            body = wrap_row(track_view(hole_track(score, target)), spacing=6)
            rows.append(
                ident(
                    f"paper-track-{side}",
                    ft.Column([ft.Text(f"{names}: {score} of {target}"), body], tight=True),
                    label=f"{names}: peg in hole {score}",
                )
            )
    if not rows:
        return None
    title = "Stroke tally" if paper == Paper.STROKES else f"The {target}-hole board"
    return card(heading(title), *rows)
