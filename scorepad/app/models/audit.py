"""The audit page's view-model (``/event/ID/audit`` and ``/event/ID/audit/T?round=R``): plain Python, no Flet.

Everyone who may see the event reads it (the hall's and the spectators'
pages are as open): the service's audit view (``TournamentService.audit_view``)
in words, newest first, since a reader at a table wants the latest act on
top. The phone's one line about the director's latest act at its table is
here too (``DirectorNews``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scorepad.rules.wording import sentence
from scorepad.store import StoreError
from scorepad.tournament import wording
from scorepad.tournament.audit import AuditEntry, audit_heading, director_act, director_line
from scorepad.tournament.errors import TournamentError

# The director's caller writes to a match under this device name ("director: <reason>" for a correction).
DIRECTOR_DEVICE = "director"


def audit_route(event_id: int, table: int | None = None, round_number: int | None = None) -> str:
    """The address of an event's audit page, or of one table's in a round."""
    if table is None:
        return f"/event/{event_id}/audit"
    query = f"?round={round_number}" if round_number is not None else ""
    return f"/event/{event_id}/audit/{table}{query}"


def round_query(text: str | None) -> int | None:
    """The ``round`` of an audit page's address, if it is a whole number of at most five digits."""
    if text and text.isascii() and text.isdigit() and len(text) <= 5 and int(text) > 0:
        return int(text)
    return None


@dataclass(frozen=True)
class AuditRow:
    """One act as the page draws it: when and who above, what (with the figures) and why below."""

    when: str
    head: str
    change: str | None
    reason: str | None
    sentence: str


class AuditView:
    """The audit page: the event's whole audit, or one table's of a round, newest first."""

    def __init__(self, service: Any, event_id: int, *, table: int | None = None, round_number: int | None = None):
        self.service = service
        self.event_id = event_id
        self.table = table
        self.round_number = round_number
        self.title = ""
        self.rows: list[AuditRow] = []
        self.message: str | None = None

    def read(self) -> None:
        """Read the audit again; a refusal or a database fault is said in ``message`` (one sentence)."""
        try:
            info = self.service.event_info(None, self.event_id)
            if self.table is not None and self.round_number is None:
                self.round_number = int(info["rounds_paired"]) or None
            entries = self.service.audit_view(
                None, self.event_id, table=self.table, round_number=self.round_number, newest_first=True
            )
        except (TournamentError, StoreError) as err:
            self.message = str(err)
            return
        self.message = None if entries else wording.AUDIT_EMPTY
        self.title = audit_heading(str(info["name"]), self.table, self.round_number, True)
        self.rows = [_row(e) for e in entries]

    def whole_event(self) -> str | None:
        """The address of the whole event's audit, from a table's (None on the event's own)."""
        return None if self.table is None else audit_route(self.event_id)


def _row(entry: AuditEntry) -> AuditRow:
    return AuditRow(
        when=entry.when,
        head=sentence(f"{entry.who} {entry.what}"),  # a card's heading starts with a capital
        change=entry.change,
        reason=entry.reason,
        sentence=entry.sentence,
    )


class DirectorNews:
    """What a table's phone says of the director's latest act at its table, once, when it is new.

    ``seen`` is the last act already said (or there when the phone joined):
    an older act is never news again, and a change that is not the director's
    costs no reading of the audit.
    """

    def __init__(self, service: Any, event_id: int) -> None:
        self.service = service
        self.event_id = event_id
        self.seen = 0
        # The line of the act ``seen``, when this phone said it (not one from before it joined).
        self.said: str | None = None

    def _latest(self, table: int) -> AuditEntry | None:
        entries = self.service.audit_view(None, self.event_id, table=table)
        return director_act(entries, table, None)

    def joined(self, table: int) -> None:
        """The phone joined ``table``: what the director did before is not news."""
        latest = self._latest(table)
        self.seen = latest.number if latest is not None else 0

    def heard(self, table: int | None, device: str | None) -> str | None:
        """A change of the table's match by ``device`` reached the phone: the director's new act in a line, or None.

        Raises nothing: a refusal or a database fault leaves the usual notice.
        """
        if table is None or not (device or "").startswith(DIRECTOR_DEVICE):
            return None
        try:
            latest = self._latest(table)
        except (TournamentError, StoreError):
            return None
        if latest is None or latest.number <= self.seen:
            return None
        self.seen = latest.number
        self.said = director_line(latest)
        return self.said

    def still(self, device: str | None) -> str | None:
        """For another change by the director: the line of the act already said, or None.

        One act may write several entries (a hand settled again takes the
        settlement back and enters the new one), and they can reach the phone
        one by one: the later ones are the same act, not an entry from
        "another screen", so the phone keeps saying the director's line.
        """
        return self.said if (device or "").startswith(DIRECTOR_DEVICE) else None
