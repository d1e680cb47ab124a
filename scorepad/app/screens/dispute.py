"""The Dispute screen: one match, event by event, with why every count and ruling is what it is.

Phone first (360 px wide): the moving buttons on top, the layout picture, the
board count part by part with the rule behind each, the call judged, what the
analysis found, the settlement and the hand's ruling. It only draws a
``DisputeView`` and forwards taps to the ``Dispute`` model.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from scorepad.app.models.dispute import Dispute, DisputeView
from scorepad.app.screens.common import TOUCH, button, card, heading, ident, note, tappable, wrap_row
from scorepad.app.screens.picture import layout_picture

Act = Callable[..., Callable[[], None]]
HAND_BUTTONS = 9  # hand buttons around the one shown; a long match is not a wall of buttons


def hand_numbers(view: DisputeView) -> list[int]:
    """The hands offered to jump to: the first, the last, and those around the one shown."""
    half = HAND_BUTTONS // 2
    start = max(1, min(view.hand - half, view.hands - HAND_BUTTONS + 1))
    near = range(start, min(view.hands, start + HAND_BUTTONS - 1) + 1)
    return sorted({1, view.hands, *near})


def dispute_screen(dispute: Dispute, act: Act, header: ft.Control, *, width: float = 360) -> ft.Control:
    """Draw the dispute at the event shown."""
    view = dispute.view()
    moves = ft.Row(
        [
            button("dispute-back", "Back", act(dispute.back), icon=ft.Icons.CHEVRON_LEFT, disabled=not view.can_back),
            button(
                "dispute-next",
                "Next",
                act(dispute.next),
                icon=ft.Icons.CHEVRON_RIGHT,
                kind="filled",
                disabled=not view.can_next,
            ),
        ],
        spacing=8,
    )
    hands = wrap_row(
        [
            button(
                f"dispute-hand-{n}",
                str(n),
                act(dispute.jump, n),
                kind="filled" if n == view.hand else "outlined",
                width=56,
            )
            for n in hand_numbers(view)
        ],
        spacing=4,
    )
    parts = [note(f"{p.label}: {p.points}" + (f" ({p.section})" if p.section else ""), size=13) for p in view.parts]
    count = card(
        heading(f"Board count {view.count}"),
        ident("dispute-count", ft.Text(view.count_words, size=13)),
        *parts,
    )
    judged: list[ft.Control] = []
    if view.call:
        judged.append(note(view.call, identifier="dispute-call", size=13))
    found = [note(line, identifier=f"dispute-note-{i}", size=13) for i, line in enumerate(view.notes)]
    rows: list[ft.Control] = [
        header,
        heading(view.title, size=16),
        note(view.where, identifier="dispute-where", size=13),
        moves,
        hands,
        ident("dispute-event", ft.Text(view.event, size=15, weight=ft.FontWeight.BOLD)),
        layout_picture(view.picture, room=int(max(width, 320)) - 48),
        count,
    ]
    if judged:
        rows.append(card(heading("The call"), *judged))
    if found:
        rows.append(card(heading("What the record shows"), *found))
    if view.settlement:
        rows.append(
            card(
                heading("Settlement"),
                *[note(step, identifier=f"dispute-settlement-{i}", size=13) for i, step in enumerate(view.settlement)],
            )
        )
    rows.append(note(f"Scores: {view.scores}", identifier="dispute-scores", size=13))
    rows.append(card(heading("Ruling"), ident("dispute-ruling", ft.Text(view.ruling, size=14))))
    # Every panel as wide as the screen, whatever its text.
    return ft.Column(rows, spacing=10, tight=True, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


def dispute_button(pad: Any, act: Act, match_id: Any) -> ft.Control:
    """The History line's way into the Dispute screen for a stored match."""
    return button(f"dispute-{match_id}", "Dispute", act(pad.open_dispute, match_id), kind="text")


def record_file_button(pad: Any, act: Act) -> ft.Control:
    """Choose a sniff-record/1 file and open it on the Dispute screen (read in the page, never stored)."""

    async def choose(_e: Any) -> None:
        files = await ft.FilePicker().pick_files(
            dialog_title="A sniff-record/1 file",
            file_type=ft.FilePickerFileType.CUSTOM,
            allowed_extensions=["json"],
            with_data=True,
        )
        if files and files[0].bytes is not None:
            act(pad.open_record, files[0].bytes, files[0].name)()

    return tappable(
        "dispute-record-file",
        ft.OutlinedButton(content="Check a record file", icon=ft.Icons.UPLOAD_FILE, on_click=choose, height=TOUCH),
    )
