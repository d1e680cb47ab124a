"""The Dispute screen: one match, event by event, with why every count and ruling is what it is.

Phone first (360x640): Back and Next fixed at the bottom, at the thumb; above
them, scrolling, the hand's findings (each one tap from its event, with the
ruling it leads to, who pays and its tiles), the layout picture, the board
count part by part with the rule behind each, the call judged, what the
analysis found, the settlement and the hand's ruling. It only draws a
``DisputeView`` and forwards taps to the ``Dispute`` model.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from scorepad.app.models.dispute import Dispute, DisputeView
from scorepad.app.screens.common import TOUCH, button, card, heading, ident, note, tappable, tile_face, wrap_row
from scorepad.app.screens.picture import layout_picture

Act = Callable[..., Callable[[], None]]
STRETCH = ft.CrossAxisAlignment.STRETCH
HAND_BUTTONS = 9  # hand buttons around the one shown; a long match is not a wall of buttons


def hand_numbers(view: DisputeView) -> list[int]:
    """The hands offered to jump to: the first, the last, and those around the one shown."""
    half = HAND_BUTTONS // 2
    start = max(1, min(view.hand - half, view.hands - HAND_BUTTONS + 1))
    near = range(start, min(view.hands, start + HAND_BUTTONS - 1) + 1)
    return sorted({1, view.hands, *near})


def dispute_screen(dispute: Dispute, act: Act, header: ft.Control, *, width: float = 360) -> ft.Control:
    """Draw the dispute at the event shown: what it shows scrolls, Back and Next stay at the thumb."""
    view = dispute.view()
    # Back and Next sit below the scrolling part, so every event is one tap away without a scroll.
    moves = ft.Row(
        [
            button(
                "dispute-back",
                "Back",
                act(dispute.back),
                icon=ft.Icons.CHEVRON_LEFT,
                disabled=not view.can_back,
                expand=True,
            ),
            button(
                "dispute-next",
                "Next",
                act(dispute.next),
                icon=ft.Icons.CHEVRON_RIGHT,
                kind="filled",
                disabled=not view.can_next,
                expand=True,
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
    # The count once: its parts with the rule behind each, summed.
    count = card(heading("Board count"), ident("dispute-count", ft.Text(view.count_words, size=13)))
    judged: list[ft.Control] = []
    if view.call:
        judged.append(note(view.call, identifier="dispute-call", size=13))
    found = [note(line, identifier=f"dispute-note-{i}", size=13) for i, line in enumerate(view.notes)]
    rows: list[ft.Control] = [
        heading(view.title, size=16),
        note(view.where, identifier="dispute-where", size=13),
        hands,
        ident("dispute-event", ft.Text(view.event, size=15, weight=ft.FontWeight.BOLD)),
    ]
    if view.findings:
        rows.append(findings_card(dispute, view, act))
    rows += [layout_picture(view.picture, room=int(max(width, 320)) - 48), count]
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
    shown = ft.Column(rows, spacing=10, scroll=ft.ScrollMode.AUTO, expand=True, horizontal_alignment=STRETCH)
    return ft.Column([header, shown, moves], spacing=8, expand=True, horizontal_alignment=STRETCH)


def findings_card(dispute: Dispute, view: DisputeView, act: Act) -> ft.Control:
    """The hand's findings: one tap on a finding shows its event; the finding shown gives its ruling."""
    entries: list[ft.Control] = [heading(f"Findings in hand {view.hand}")]
    for line in view.findings:
        n = line.index
        entries.append(
            button(
                f"finding-{n}",
                f"Event {line.event} · {line.title}",
                act(dispute.open_finding, n),
                kind="filled" if line.shown else "outlined",
            )
        )
        evidence: list[ft.Control] = [tile_face(a, b, flat=True, size=18, label=f"tile {a}-{b}") for a, b in line.tiles]
        if line.pays:
            evidence.append(note(line.pays, identifier=f"finding-{n}-pays", size=13))
        entries.append(ident(f"finding-{n}-tiles", wrap_row(evidence, spacing=6)))
        if line.shown:
            entries.append(note(line.ruling, identifier=f"finding-{n}-ruling", size=13))
    return card(*entries)


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
