"""The "Join from another phone" panel: the address, the join code and its QR code (``join-qr``).

What it shows comes from the server (``scorepad.app.models.links.join_link``): when the
score-pad is served beyond this computer (``scorepad web --host 0.0.0.0``)
another phone scans the QR code, whose link carries the join code, or opens the
address and types the code. Served on 127.0.0.1 only, no other phone can reach
it, and the panel says how to change that.
"""

from __future__ import annotations

import flet as ft

from scorepad.app.models.links import JoinLink, join_link, qr_png

QR_SIZE = 200


def join_words(link: JoinLink | None) -> str:
    """The panel's sentence: where to join, or why no other phone can."""
    if link is None:
        return (
            "Only this computer can open the score-pad now. To score from phones at the table, "
            "start it with: scorepad web --host 0.0.0.0"
        )
    return f"Scan the code with another phone, or open {link.address} and type the join code {link.code}."


def join_panel(link: JoinLink | None = None) -> ft.Control:
    """The panel for ``link`` (default: this server's own), identified ``join-qr``.

    The QR code is drawn here as a PNG (no request to any other machine).
    """
    link = link if link is not None else join_link()
    parts: list[ft.Control] = [ft.Text("Join from another phone", size=18, weight=ft.FontWeight.BOLD)]
    if link is not None:
        parts.append(
            ft.Image(
                src=qr_png(link.url),
                width=QR_SIZE,
                height=QR_SIZE,
                semantics_label=f"QR code of {link.address} with the join code",
            )
        )
    parts.append(ft.Text(join_words(link), size=16, selectable=True))
    return ft.Semantics(
        identifier="join-qr",
        label=join_words(link),
        content=ft.Container(content=ft.Column(parts, spacing=8), padding=12),
    )
