"""The table screen: board count, scores, the layout picture, the tile picker and the panels.

Drawn entirely from the ``Table`` view-model; taps are forwarded to it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from scorepad.app.components.common import (
    TOUCH,
    button,
    card,
    heading,
    ident,
    note,
    tappable,
    tile_face,
    wrap_row,
)
from scorepad.app.components.picture import layout_picture
from scorepad.app.table import GAME_OVER, HAND_OVER, NO_HAND, PLAY, SETTLE, Table

Act = Callable[..., Callable[[], None]]
POSITION_WORDS = {
    "left": "Left end",
    "right": "Right end",
    "up": "Up (Sniff short end)",
    "down": "Down (Sniff short end)",
}


def status_panel(table: Table, act: Act) -> ft.Control:
    """The board count, large, beside the scores; then whose turn, tiles held and the boneyard.

    Each side shows its score, its start-of-hand score and the points it still needs.
    """
    board = table.board()
    # Tapping the count shows where it comes from; its own text stays the bare number.
    count = ft.Container(
        content=ident("board-count", ft.Text(str(board.count), size=56, weight=ft.FontWeight.BOLD)),
        on_click=lambda _e: act(table.toggle_breakdown)(),
        border_radius=8,
    )
    count_column = ft.Column(
        [
            heading("Board count"),
            count,
            button(
                "breakdown", "Hide" if table.breakdown_open else "Breakdown", act(table.toggle_breakdown), kind="text"
            ),
        ],
        spacing=0,
        tight=True,
        horizontal_alignment=ft.CrossAxisAlignment.START,
    )
    side_rows: list[ft.Control] = [heading(f"Scores to {table.rules.target}")]
    for side in table.sides():
        side_rows.append(
            ft.Row(
                [
                    ft.Icon(ft.Icons.PLAY_ARROW, size=16, color=ft.Colors.PRIMARY, opacity=1 if side.to_move else 0),
                    ft.Column(
                        [
                            ft.Text(side.names, size=15, weight=ft.FontWeight.W_600, no_wrap=False),
                            ft.Text(f"start {side.start} · needs {side.needed}", size=12),
                        ],
                        spacing=0,
                        tight=True,
                        expand=True,
                    ),
                    ident(f"score-{side.side}", ft.Text(str(side.score), size=26, weight=ft.FontWeight.BOLD)),
                ],
                spacing=4,
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            )
        )
    seats = [
        ft.Container(
            content=ft.Text(
                f"{seat.name}: {seat.tiles_held} tile{'s' if seat.tiles_held != 1 else ''}",
                size=13,
                weight=ft.FontWeight.BOLD if seat.to_move else None,
            ),
            bgcolor=ft.Colors.PRIMARY_CONTAINER if seat.to_move else None,
            border_radius=8,
            padding=ft.Padding.symmetric(horizontal=8, vertical=4),
        )
        for seat in table.seats()
    ]
    rows: list[ft.Control] = [
        ft.Row(
            [count_column, ft.Column(side_rows, spacing=4, tight=True, expand=True)],
            vertical_alignment=ft.CrossAxisAlignment.START,
            spacing=12,
        ),
    ]
    if table.breakdown_open:
        parts = [f"{label}: {points}" for label, points in board.breakdown] or ["nothing on the table"]
        rows.append(note(" + ".join(parts) + f" = {board.count}", identifier="count-breakdown", size=13))
    rows += [
        _lines(note(board.sniff_stage, identifier="sniff-stage", size=13), 3),
        note(table.turn_words(), identifier="turn", size=16),
        wrap_row(seats, spacing=6),
        _lines(note(f"{table.boneyard_words()} · open ends: {board.open_ends}", identifier="boneyard", size=13), 2),
    ]
    return card(*rows)


def _lines(control: ft.Control, lines: int) -> ft.Control:
    """Keep a line of changing text at a steady height so what lies below does not jump."""
    return ft.Container(content=control, height=18 * lines, alignment=ft.Alignment.CENTER_LEFT)


def message_bar(text: str | None) -> ft.Control | None:
    """The engine's refusal or a hint, in a coloured bar."""
    if not text:
        return None
    return ident(
        "message",
        ft.Container(
            content=ft.Text(text, color=ft.Colors.ON_ERROR_CONTAINER, size=14),
            bgcolor=ft.Colors.ERROR_CONTAINER,
            border_radius=8,
            padding=10,
        ),
    )


def tile_picker(table: Table, act: Act, *, settling: bool) -> ft.Control:
    """Every tile of the set; played ones dimmed. Tap the tile that was laid (or, settling, held)."""
    size = 22 if table.rules.max_pip == 6 else 18
    keys: list[ft.Control] = []
    for tile in table.tiles():
        state = "played" if tile.played else ("listed" if tile.chosen else "in hand or boneyard")
        face = tile_face(tile.low, tile.high, flat=False, size=size, label=None)
        keys.append(
            tappable(
                f"tile-{tile.name}",
                ft.Container(
                    content=face,
                    width=TOUCH,
                    height=max(TOUCH, 2 * size + 8),
                    alignment=ft.Alignment.CENTER,
                    opacity=0.25 if tile.played else 1.0,
                    border=ft.Border.all(3, ft.Colors.PRIMARY) if tile.chosen else None,
                    border_radius=8,
                    on_click=lambda _e, a=tile.low, b=tile.high: act(table.tap_tile, a, b)(),
                    ink=True,
                ),
                label=f"tile {tile.name}, {state}",
            )
        )
    title = "Tap the tiles a seat still holds" if settling else "Tap the tile that was laid"
    return card(heading(title), wrap_row(keys, spacing=4))


def end_choice(table: Table, act: Act) -> ft.Control | None:
    """Buttons for the end the pending tile goes on, when it fits more than one."""
    choices = table.end_choices()
    if not choices or table.pending is None:
        return None
    low, high = table.pending
    buttons = [button(f"at-{at}", POSITION_WORDS[at], act(table.choose_end, at), kind="filled") for at in choices]
    buttons.append(button("cancel-tile", "Cancel", act(table.cancel_pending), kind="text"))
    return card(heading(f"{low}-{high} fits more than one end: where was it laid?"), wrap_row(buttons),
                ft.Text("Or tap the end in the picture of the layout.", size=12))


def actions_row(table: Table, act: Act) -> ft.Control:
    """Draw, pass, undo, redo and renege, in one row that never wraps (the picker stays put)."""
    hand = table.hand
    playing = table.phase == PLAY
    drawable = hand.drawable if hand and playing else 0
    controls = [
        # Every action stays tappable: a tap sent before the screen caught up still
        # counts, and one the rules refuse is answered with the engine's reason.
        button(
            "draw", "Draw", act(table.draw), kind="filled" if playing and drawable > 0 else "outlined", compact=True
        ),
        button(
            "pass",
            "Pass",
            act(table.pass_turn),
            kind="tonal" if playing and hand is not None and hand.can_pass else "outlined",
            compact=True,
        ),
        button("undo", "Undo", act(table.undo), kind="outlined", compact=True),
        button("redo", "Redo", act(table.redo), kind="outlined", compact=True),
        button("renege", "Renege", act(table.start_renege), kind="outlined", compact=True),
    ]
    return ft.Row([ft.Container(content=c, expand=True) for c in controls], spacing=4)


def call_panel(table: Table, act: Act) -> ft.Control | None:
    """Called right, another number, or not called; flags with their consequence; muggins claims."""
    panel = table.call_panel()
    if panel is None:
        return None
    if panel.score:
        what = f"{panel.player}'s play made {panel.board_count}: scores {panel.score}."
    else:
        what = f"{panel.player}'s play made {panel.board_count}: no score."
    called = "nothing" if panel.call == 0 else str(panel.call)
    rows: list[ft.Control] = [
        heading("Call"),
        ft.Text(what, size=14),
        note(f"Called: {called}. {panel.consequence}", identifier="call-result", size=14),
    ]
    if panel.flags:
        rows.append(note("Flags: " + ", ".join(panel.flags), identifier="call-flags", size=14, color=ft.Colors.ERROR))
    ok_text = f"Called {panel.score}" if panel.score else "Called nothing (right)"
    choices = [
        button("call-ok", ok_text, act(table.call, None), kind="filled"),
        button("call-none", "Not called", act(table.call, 0), kind="outlined"),
    ]
    choices += [button(f"call-{n}", str(n), act(table.call, n), kind="outlined", width=64) for n in panel.calls]
    rows.append(wrap_row(choices, spacing=6))
    if panel.can_fix:
        rows.append(
            button(
                "call-fix", f"Corrected before the next tile: record {panel.score}", act(table.fix_call), kind="tonal"
            )
        )
    if panel.claimants:
        rows.append(
            wrap_row(
                [
                    button(
                        f"muggins-{seat}",
                        f"Muggins: {table.player(seat)} claims {panel.score}",
                        act(table.claim_muggins, seat),
                        kind="filled",
                    )
                    for seat in panel.claimants
                ]
            )
        )
    rows.append(button("call-close", "Hide", act(table.close_call), kind="text"))
    return card(*rows)


def renege_panel(table: Table, act: Act) -> ft.Control | None:
    """Pick the offender; the rollback and penalty are shown before they are applied."""
    if not table.renege_open:
        return None
    offenders = [
        button(
            f"offender-{seat.seat}",
            seat.name,
            act(table.pick_offender, seat.seat),
            kind="filled" if table.offender == seat.seat else "outlined",
        )
        for seat in table.seats()
    ]
    rows: list[ft.Control] = [heading("Renege: who reneged?"), wrap_row(offenders)]
    preview = table.renege_preview()
    if preview is not None:
        rows.append(note(preview.words, identifier="renege-preview"))
    rows.append(
        wrap_row(
            [
                button("confirm-renege", "Apply the renege", act(table.confirm_renege), kind="filled"),
                button("cancel-renege", "Cancel", act(table.cancel_renege), kind="text"),
            ]
        )
    )
    return card(*rows)


def settle_panel(table: Table, act: Act, on_text: Callable[[int, str], None]) -> ft.Control | None:
    """Enter each seat's remaining pips (or tap its tiles), see the rounding, then settle."""
    if table.phase != SETTLE:
        return None
    hand = table.hand
    assert hand is not None
    rows: list[ft.Control] = [heading(f"{table.end_words()}: what is left in each hand?")]
    for seat in table.seats():
        listed = table.remaining_tiles.get(seat.seat, [])
        value = table.remaining_text.get(seat.seat, "" if seat.tiles_held else "0")
        field = ident(
            f"remaining-{seat.seat}",
            ft.TextField(
                label=f"{seat.name}'s pips ({seat.tiles_held} tiles)",
                value=value,
                keyboard_type=ft.KeyboardType.NUMBER,
                width=190,
                on_change=lambda e, s=seat.seat: on_text(s, e.control.value or ""),
                disabled=bool(listed),
            ),
        )
        tapping = table.settle_seat == seat.seat
        tap_button = button(
            f"remaining-tiles-{seat.seat}",
            "Done" if tapping else "Tap tiles",
            act(table.pick_settle_seat, None if tapping else seat.seat),
            kind="filled" if tapping else "outlined",
            disabled=seat.tiles_held == 0,
        )
        shown = ft.Text(", ".join(listed), size=13) if listed else None
        rows.append(wrap_row([c for c in (field, tap_button, shown) if c is not None]))
    preview = table.settle_preview()
    if preview:
        rows.append(note(preview, identifier="settle-preview", size=13))
    rows.append(button("settle", "Settle the hand", act(table.settle), kind="filled"))
    return card(*rows)


def hand_over_panel(table: Table, act: Act) -> ft.Control | None:
    """How the hand ended with the rounding and award, then the next hand or game.

    With no hand at all (the first one undone), it offers to start one.
    """
    if table.phase not in (HAND_OVER, GAME_OVER, NO_HAND):
        return None
    settled = table.settlement()
    title = f"Hand {table.hand.number} is over" if table.hand else "No hand under way"
    rows: list[ft.Control] = [heading(title)]
    if settled is not None:
        rows.append(note(settled.words, identifier="hand-result"))
    result = table.game_result()
    if result is not None:
        rows.append(ft.Text(f"{result.winner_names} win!", size=24, weight=ft.FontWeight.BOLD, color=ft.Colors.PRIMARY))
        rows.append(note(result.words, identifier="game-result", size=15))
    rows.append(note(table.next_setter_words(), size=13))
    choices = table.setter_choices()
    if choices:
        rows.append(
            wrap_row(
                [
                    button(
                        f"setter-{seat}",
                        table.player(seat),
                        act(table.choose_next_setter, seat),
                        kind="filled" if table.next_setter_choice == seat else "outlined",
                    )
                    for seat in choices
                ]
            )
        )
    if result is not None:
        rows.append(button("next-game", "Next game", act(table.next_hand), kind="filled", icon=ft.Icons.REPLAY))
    else:
        rows.append(button("next-hand", "Next hand", act(table.next_hand), kind="filled", icon=ft.Icons.ARROW_FORWARD))
    return card(*rows)


def table_screen(
    table: Table, act: Act, on_text: Callable[[int, str], None], header: ft.Control, *, wide: bool
) -> ft.Control:
    """The whole table screen, drawn so the tile picker does not move when panels come and go.

    Phone: status, actions, picker, then the panels, then the picture.
    Wide: status and picture on the left; actions, picker and panels on the right.
    """
    phase = table.phase
    fixed: list[Any] = [actions_row(table, act)]
    if phase == PLAY or (phase == SETTLE and table.settle_seat is not None):
        fixed.append(tile_picker(table, act, settling=phase == SETTLE))
    panels: list[Any] = [
        message_bar(table.message),
        end_choice(table, act),
        call_panel(table, act) if phase == PLAY else None,
        renege_panel(table, act),
        settle_panel(table, act, on_text),
        hand_over_panel(table, act),
    ]
    doing = [c for c in fixed + panels if c is not None]
    status = status_panel(table, act)
    taps = {at: act(table.choose_end, at) for at in table.end_choices()}
    picture = layout_picture(table.picture(), taps, room=520 if wide else 340)
    if not wide:
        return ft.Column([header, status, *doing, picture], spacing=10)
    return ft.Column(
        [
            header,
            ft.Row(
                [
                    ft.Column([status, picture], spacing=10, expand=5),
                    ft.Column(doing, spacing=10, expand=6),
                ],
                vertical_alignment=ft.CrossAxisAlignment.START,
                spacing=12,
            ),
        ],
        spacing=10,
    )
