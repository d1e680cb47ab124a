"""The audit page's shell: read the audit the route names and draw it (``screens.audit.AuditScreen``).

Read-only, for everyone who may see the event (as the hall and the
spectators' pages): it holds no credential and makes no write.
"""

from __future__ import annotations

import flet as ft

from scorepad.app.models.audit import AuditView, round_query
from scorepad.app.screens.audit import AuditScreen
from scorepad.tournament.service import TournamentService


def open_audit(
    page: ft.Page, service: TournamentService, event_id: int, table: int | None, round_text: str | None
) -> None:
    """Draw the event's audit, or table ``table``'s of round ``round_text`` (None: the latest round)."""
    view = AuditView(service, event_id, table=table, round_number=round_query(round_text))
    view.read()
    page.title = "Sniff tournament: audit"
    page.render(AuditScreen, view)
