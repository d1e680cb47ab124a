"""The layout as a picture: the line, the Sniff crosswise with its short arms, open ends marked.

Long layouts wrap onto more rows, so the picture stays readable on a phone.
"""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from scorepad.app.components.common import card, heading, ident, tile_face, wrap_row
from scorepad.app.views import OpenEnd, Picture, Piece

PIECE = 26
_ARROWS = {
    "left": ft.Icons.ARROW_LEFT,
    "right": ft.Icons.ARROW_RIGHT,
    "up": ft.Icons.ARROW_DROP_UP,
    "down": ft.Icons.ARROW_DROP_DOWN,
}


def _piece(piece: Piece) -> ft.Control:
    face = tile_face(piece.first, piece.second, flat=not piece.crosswise, size=PIECE, label=piece.label)
    if not piece.sniff:
        return face
    # The Sniff is outlined so it is told apart from ordinary doubles at a glance.
    return ft.Container(
        content=face,
        border=ft.Border.all(3, ft.Colors.TERTIARY),
        border_radius=8,
        padding=2,
        tooltip="the Sniff",
    )


def _end_mark(end: OpenEnd | None, at: str, on_tap: Callable[[], None] | None) -> ft.Control | None:
    """An open end, marked with its value; tappable (48 px) when the pending tile may go there."""
    if end is None:
        return None
    colour = ft.Colors.ON_PRIMARY if on_tap else ft.Colors.ON_TERTIARY_CONTAINER
    arrow = ft.Icon(_ARROWS[at], size=16, color=colour)
    value = ft.Text(str(end.value), size=13, weight=ft.FontWeight.BOLD, color=colour)
    label = f"open end {at}, shows {end.value}" + (": lay the tile here" if on_tap else "")
    return ident(
        f"end-{at}",
        ft.Container(
            content=ft.Row([value, arrow] if at == "right" else [arrow, value], spacing=2, tight=True),
            bgcolor=ft.Colors.PRIMARY if on_tap else ft.Colors.TERTIARY_CONTAINER,
            border_radius=12,
            padding=ft.Padding.symmetric(horizontal=8, vertical=4),
            height=48 if on_tap else None,
            on_click=(lambda _e: on_tap()) if on_tap else None,
        ),
        label=label,
    )


def layout_picture(picture: Picture, choose: dict[str, Callable[[], None]] | None = None) -> ft.Container:
    """Draw the layout: the line wrapping left to right, then the up and down arms of the Sniff.

    ``choose`` maps the ends a pending tile fits to the tap that lays it there.
    """
    ends = {end.at: end for end in picture.open_ends}
    choose = choose or {}
    if not picture.line:
        body: list[ft.Control] = [ft.Text("No tiles yet: tap the set below.", italic=True)]
    else:
        line: list[ft.Control] = []
        left = _end_mark(ends.get("left"), "left", choose.get("left"))
        if left:
            line.append(left)
        line += [_piece(p) for p in picture.line]
        right = _end_mark(ends.get("right"), "right", choose.get("right"))
        if right:
            line.append(right)
        body = [wrap_row(line, spacing=4)]
        for at, pieces in (("up", picture.up), ("down", picture.down)):
            mark = _end_mark(ends.get(at), at, choose.get(at))
            if not pieces and mark is None:
                continue
            label = ft.Text(f"{at} from the Sniff {picture.sniff}", size=12, italic=True)
            row: list[ft.Control] = [label, *[_piece(p) for p in pieces]]
            if mark:
                row.append(mark)
            body.append(wrap_row(row, spacing=4))
    return card(heading("Layout"), *body)
