"""The layout as a picture: the line, the Sniff crosswise with its short arms, open ends marked.

While the line fits the card, the Sniff's short arms are drawn as a cross,
running up and down from the Sniff. A longer layout wraps onto more rows,
with the short arms in rows of their own, so it stays readable on a phone.
"""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from scorepad.app.models.views import OpenEnd, Picture, Piece
from scorepad.app.screens.common import card, heading, ident, keyed, tappable, tile_face, wrap_row

PIECE = 26
GAP = 4
MARK = 48
SNIFF_FRAME = 5  # border and padding around the Sniff, each side
_ARROWS = {
    "left": ft.Icons.ARROW_LEFT,
    "right": ft.Icons.ARROW_RIGHT,
    "up": ft.Icons.ARROW_DROP_UP,
    "down": ft.Icons.ARROW_DROP_DOWN,
}
Taps = dict[str, Callable[[], None]]


def _framed(face: ft.Control, sniff: bool) -> ft.Control:
    if not sniff:
        return face
    # The Sniff is outlined so it is told apart from ordinary doubles at a glance.
    return ft.Container(content=face, border=ft.Border.all(3, ft.Colors.TERTIARY), border_radius=8, padding=2)


def _piece(piece: Piece) -> ft.Control:
    """A tile on the line: singles lie along it, doubles (the Sniff too) across it."""
    face = tile_face(piece.first, piece.second, flat=not piece.crosswise, size=PIECE, label=piece.label)
    return keyed(_framed(face, piece.sniff), _tile_key(piece))


def _arm_piece(piece: Piece, at: str) -> ft.Control:
    """A tile on a short arm, which runs across the line: singles stand, doubles lie flat."""
    top, bottom = (piece.second, piece.first) if at == "up" else (piece.first, piece.second)
    return keyed(tile_face(top, bottom, flat=piece.crosswise, size=PIECE, label=piece.label), _tile_key(piece))


def _tile_key(piece: Piece) -> str:
    """The key of a tile's control: its tile, each lying once in a layout.

    Flet pairs the items of a list by key, else by place: a tile laid at the left
    end or at the top of an arm would otherwise move every tile after it onto
    another's place, and each would be sent again; keyed, only the new one is.
    """
    low, high = sorted((piece.first, piece.second))
    return f"piece-{low}-{high}"


def _width(piece: Piece) -> int:
    base = PIECE if piece.crosswise else 2 * PIECE
    return base + (2 * SNIFF_FRAME if piece.sniff else 0)


def _end_mark(end: OpenEnd | None, at: str, on_tap: Callable[[], None] | None) -> ft.Control | None:
    """An open end, marked with its value; tappable (48 px) when the pending tile may go there."""
    if end is None:
        return None
    colour = ft.Colors.ON_PRIMARY if on_tap else ft.Colors.ON_TERTIARY_CONTAINER
    arrow = ft.Icon(_ARROWS[at], size=16, color=colour)
    value = ft.Text(str(end.value), size=14, weight=ft.FontWeight.BOLD, color=colour)
    label = f"open end {at}, shows {end.value}" + (": lay the tile here" if on_tap else "")
    mark = tappable if on_tap else ident
    return keyed(
        mark(
            f"end-{at}",
            ft.Container(
                content=ft.Row(
                    [value, arrow] if at == "right" else [arrow, value],
                    spacing=2,
                    tight=True,
                    alignment=ft.MainAxisAlignment.CENTER,
                ),
                bgcolor=ft.Colors.PRIMARY if on_tap else ft.Colors.TERTIARY_CONTAINER,
                border_radius=12,
                width=MARK,
                height=MARK if on_tap else 28,
                alignment=ft.Alignment.CENTER,
                on_click=(lambda _e: on_tap()) if on_tap else None,
            ),
            label=label,
        ),
        f"end-{at}",  # paired with itself among the tiles (see ``_tile_key``)
    )


def _line(picture: Picture, ends: dict[str, OpenEnd], taps: Taps) -> list[ft.Control]:
    line: list[ft.Control] = []
    left = _end_mark(ends.get("left"), "left", taps.get("left"))
    if left:
        line.append(left)
    line += [_piece(p) for p in picture.line]
    right = _end_mark(ends.get("right"), "right", taps.get("right"))
    if right:
        line.append(right)
    return line


def _line_width(picture: Picture, ends: dict[str, OpenEnd]) -> int:
    marks = sum(1 for at in ("left", "right") if at in ends)
    items = len(picture.line) + marks
    return sum(_width(p) for p in picture.line) + marks * MARK + GAP * max(0, items - 1)


def _sniff_centre(picture: Picture, ends: dict[str, OpenEnd]) -> int | None:
    """How far from the line's left edge the middle of the Sniff lies."""
    x = MARK + GAP if "left" in ends else 0
    for piece in picture.line:
        if piece.sniff:
            return x + _width(piece) // 2
        x += _width(piece) + GAP
    return None


def _cross(picture: Picture, ends: dict[str, OpenEnd], taps: Taps, centre: int) -> list[ft.Control]:
    """The line in one row, with the short arms standing up and down from the Sniff."""

    def arm(at: str, pieces: tuple[Piece, ...]) -> ft.Control | None:
        mark = _end_mark(ends.get(at), at, taps.get(at))
        if not pieces and mark is None:
            return None
        tiles = [_arm_piece(p, at) for p in pieces]  # outward from the Sniff
        ending = [mark] if mark else []
        column = ending + tiles[::-1] if at == "up" else tiles + ending
        return ft.Row(
            [
                ft.Container(width=max(0, centre - MARK // 2)),
                ft.Column(
                    column, spacing=GAP, tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER, width=MARK
                ),
            ],
            spacing=0,
        )

    rows: list[ft.Control | None] = [
        arm("up", picture.up),
        ft.Row(_line(picture, ends, taps), spacing=GAP, vertical_alignment=ft.CrossAxisAlignment.CENTER),
        arm("down", picture.down),
    ]
    return [r for r in rows if r is not None]


def _rows(picture: Picture, ends: dict[str, OpenEnd], taps: Taps) -> list[ft.Control]:
    """The line wrapping left to right, then each short arm in a row of its own."""
    body: list[ft.Control] = [wrap_row(_line(picture, ends, taps), spacing=GAP)]
    for at, pieces in (("up", picture.up), ("down", picture.down)):
        mark = _end_mark(ends.get(at), at, taps.get(at))
        if not pieces and mark is None:
            continue
        label = ft.Text(f"{at} from the Sniff {picture.sniff}", size=14, italic=True)
        row: list[ft.Control] = [label, *[_piece(p) for p in pieces]]
        if mark:
            row.append(mark)
        body.append(wrap_row(row, spacing=GAP))
    return body


def layout_picture(
    picture: Picture, taps: Taps | None = None, *, room: int = 340, empty: str = "No tiles yet."
) -> ft.Container:
    """Draw the layout in ``room`` pixels of width: a cross while the line fits, else wrapped rows.

    ``taps`` maps the ends a pending tile fits to the tap that lays it there; ``empty`` is
    said while no tile is on the table.
    """
    ends = {end.at: end for end in picture.open_ends}
    taps = taps or {}
    if not picture.line:
        body: list[ft.Control] = [ft.Text(empty, italic=True)]
    else:
        centre = _sniff_centre(picture, ends)
        fits = _line_width(picture, ends) <= room
        body = _cross(picture, ends, taps, centre) if fits and centre is not None else _rows(picture, ends, taps)
    return card(heading("Layout"), *body)
