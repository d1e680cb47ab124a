"""The irregularities menu on the table screen: throw in the hand, a misdeal, a tile that stood.

Drawn from ``Table.irregular`` (``scorepad.app.models.irregular``); every choice is
previewed in the players' names before **Record it** saves it.
"""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from scorepad.app.models.irregular import KIND_WORDS, MISDEAL, STANDS
from scorepad.app.models.table import Table
from scorepad.app.screens.common import TOUCH, button, card, heading, note, tappable, tile_face, wrap_row
from scorepad.rules.misdeal import MISDEAL_CHOICES, Misdeal
from scorepad.rules.wording import sentence

Act = Callable[..., Callable[[], None]]


def irregular_panel(table: Table, act: Act, shown: ft.Control | None = None) -> ft.Control | None:
    """The menu's opener while a hand is under way, or the open menu with its preview.

    ``shown``: the refusal of the menu's last tap, drawn just above its buttons.
    """
    menu = table.irregular
    if not menu.available():
        return None
    if not menu.open:
        return button("irregular", "Irregularity…", act(menu.toggle), kind="text", icon=ft.Icons.REPORT_PROBLEM)
    kinds = wrap_row(
        [
            button(kind, words, act(menu.choose, kind), kind="filled" if menu.kind == kind else "outlined")
            for kind, words in KIND_WORDS.items()
        ],
        spacing=6,
    )
    rows: list[ft.Control] = [heading("Irregularity at the table"), kinds]
    if menu.kind == MISDEAL:
        rows += _misdeal_rows(table, act)
    elif menu.kind == STANDS:
        rows += _stood_rows(table, act)
    preview = menu.preview()
    if preview is not None:
        rows.append(
            note(
                preview.words,
                identifier="irregular-preview",
                size=14,
                color=None if preview.allowed else ft.Colors.ERROR,
            )
        )
    if shown is not None:
        rows.append(shown)
    rows.append(
        wrap_row(
            [
                button(
                    "confirm-irregular",
                    "Record it",
                    # An entry: a tap drawn on an older screen (a double tap) is ignored.
                    act(table.entry, table.revision, menu.confirm),
                    kind="filled",
                    disabled=preview is None or not preview.allowed,
                ),
                button("cancel-irregular", "Cancel", act(menu.toggle), kind="text"),
            ]
        )
    )
    return card(*rows)


def _misdeal_rows(table: Table, act: Act) -> list[ft.Control]:
    menu = table.irregular
    seats = wrap_row(
        [
            button(
                f"misdeal-seat-{seat.seat}",
                seat.name,
                act(menu.pick_seat, seat.seat),
                kind="filled" if menu.seat == seat.seat else "outlined",
            )
            for seat in table.seats()
        ],
        spacing=6,
    )
    # Smartt §11.4: the book's two cases, labelled and explained by the engine (scorepad.rules.misdeal).
    ids = {Misdeal.TOO_FEW: "misdeal-plus", Misdeal.TOO_MANY: "misdeal-minus"}
    counts = wrap_row(
        [
            button(
                ids[choice.kind],
                choice.label,
                act(menu.pick_misdeal, choice.kind),
                kind="filled" if menu.misdeal is choice.kind else "outlined",
            )
            for choice in MISDEAL_CHOICES
        ],
        spacing=6,
    )
    explained = next(choice.explanation for choice in MISDEAL_CHOICES if choice.kind is menu.misdeal)
    return [ft.Text("Who holds the wrong number of tiles?", size=13), seats, counts, note(explained)]


def _stood_rows(table: Table, act: Act) -> list[ft.Control]:
    menu = table.irregular
    names = menu.end_names()
    ends = wrap_row(
        [
            button(
                f"stands-at-{at}",
                f"{sentence(names[at])} ({value})",
                act(menu.pick_end, at),
                kind="filled" if menu.at == at else "outlined",
            )
            for at, value in menu.open_ends()
        ],
        spacing=6,
    )
    rows: list[ft.Control] = [ft.Text("Which open end was the tile laid against?", size=13), ends]
    if menu.at is None:
        return rows
    chosen = {menu.tile, menu.tile[::-1]} if menu.tile is not None else set()
    keys: list[ft.Control] = []
    for low, high in menu.misfits():
        picked = (low, high) in chosen
        keys.append(
            tappable(
                f"stands-tile-{low}-{high}",
                ft.Container(
                    content=tile_face(low, high, flat=False, size=18, label=None),
                    width=TOUCH,
                    height=TOUCH,
                    alignment=ft.Alignment.CENTER,
                    border=ft.Border.all(3, ft.Colors.PRIMARY) if picked else None,
                    border_radius=8,
                    on_click=lambda _e, a=low, b=high: act(menu.pick_tile, a, b)(),
                    ink=True,
                ),
                label=f"tile {low}-{high}{', chosen' if picked else ''}",
            )
        )
    rows += [ft.Text("Which tile stood there? (tiles that do not match that end)", size=13), wrap_row(keys, spacing=4)]
    if menu.tile is not None and menu.tile[0] != menu.tile[1]:
        against, outward = menu.tile
        rows.append(
            button(
                "stands-flip",
                f"{against} lies against the end, {outward} faces out: turn it",
                act(menu.flip),
                kind="tonal",
            )
        )
    return rows
