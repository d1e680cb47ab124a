"""The audit page (``/event/ID/audit``, ``/event/ID/audit/T``): each act as a card, newest first, readable at 360 px.

Draws ``models.audit.AuditView``; read-only (nothing on it writes). *Read
again* reads the audit afresh.
"""

from __future__ import annotations

import flet as ft

from scorepad.app.models.audit import AuditRow, AuditView
from scorepad.app.screens.common import TOUCH, button, card, ident, note, tappable, with_theme


@ft.component
def AuditScreen(view: AuditView) -> ft.Control:
    """The audit as ``view`` read it; *Read again* reads it afresh and redraws."""
    _reads, set_reads = ft.use_state(0)

    def again() -> None:
        view.read()
        set_reads(lambda n: n + 1)

    whole = view.whole_event()
    top: list[ft.Control] = [
        with_theme(
            ident(
                "audit-title",
                ft.Text(view.title or f"Event {view.event_id}: the audit", size=18, weight=ft.FontWeight.BOLD),
            )
        ),
        ft.Row(
            [
                button("audit-again", "Read again", again, icon=ft.Icons.REFRESH, expand=False),
                *(
                    [
                        ident(
                            "audit-event",
                            ft.TextButton(
                                content="The whole event's audit", url=ft.Url(whole, target=ft.UrlTarget.SELF)
                            ),
                        )
                    ]
                    if whole
                    else []
                ),
            ],
            wrap=True,
        ),
    ]
    if view.message:
        top.append(note(view.message, identifier="audit-message", size=15, color=ft.Colors.PRIMARY))
    rows = [_row(i, row) for i, row in enumerate(view.rows, 1)]
    return ft.SafeArea(
        content=ft.Column(
            [ft.Container(content=ft.Column([*top, *rows], spacing=10), padding=16)],
            scroll=ft.ScrollMode.AUTO,
            expand=True,
        ),
        expand=True,
    )


def _row(index: int, row: AuditRow) -> ft.Control:
    """One act: when, then who did what, the figures before → after, and the reason."""
    parts: list[ft.Control] = [
        ft.Text(row.when, size=12, color=ft.Colors.OUTLINE),
        ft.Text(row.head, size=15, weight=ft.FontWeight.BOLD),
    ]
    if row.change:
        parts.append(ft.Text(row.change, size=15))
    if row.reason:
        parts.append(ft.Text(f"Reason: {row.reason}", size=15, italic=True))
    # The line whole is the card's label: what a screen reader (and a test) reads.
    return ident(f"audit-line-{index}", card(*parts, spacing=4), label=row.sentence)


def audit_link(identifier: str, text: str, route: str, *, icon_only: bool = False) -> ft.Control:
    """A link to an audit page, opened in a new tab (the page it is on keeps its place, a phone its table).

    ``icon_only``: the icon alone, named by ``text`` (its tooltip), for a phone's crowded header.
    """
    url = ft.Url(route, target=ft.UrlTarget.BLANK)
    if icon_only:
        return tappable(
            identifier, ft.IconButton(icon=ft.Icons.HISTORY, tooltip=text, url=url, width=TOUCH, height=TOUCH)
        )
    return tappable(identifier, ft.TextButton(content=text, icon=ft.Icons.HISTORY, url=url, height=TOUCH))
