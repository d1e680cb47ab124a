"""The event's audit as everyone reads it: each act whole, when, who, what in the players' names, why, before -> after.

Plain Python over the stored lines (``Views.audit``): the page, the command
line and the table's phone draw these. Oldest first by default (a record
read as it happened); ``newest_first`` for a screen that shows the latest on
top. The words are ``wording``'s (its audit block).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scorepad.tournament import wording
from scorepad.tournament.views import AuditLine

# The acts of the director that change a table's play: the phone says the latest of them.
TABLE_ACTS = frozenset({"correct", "resettle", "forfeit", "unforfeit"})
# Acts about a whole round, shown in a table's audit too (they decide the table's play).
ROUND_ACTS = frozenset({"pair", "repair", "lock", "reopen"})


@dataclass(frozen=True)
class AuditEntry:
    """One act of the audit in words; ``sentence`` is the whole line."""

    number: int
    at: str
    when: str
    who: str
    action: str
    round: int | None
    table: int | None
    what: str
    reason: str | None
    change: str | None

    @property
    def sentence(self) -> str:
        """The line whole: when, who, what, the figures before -> after, the reason."""
        return wording.audit_sentence(self.when, self.who, self.what, self.reason, self.change)

    @property
    def by_director(self) -> bool:
        """Whether the director did it."""
        return self.who == wording.actor_words("director")


def _whole(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def audit_entry(line: AuditLine) -> AuditEntry:
    """One stored audit line in words."""
    detail = line.detail
    reason = detail.get("reason")
    who = wording.actor_words(line.actor)
    return AuditEntry(
        number=line.number,
        at=line.at,
        # "2026-12-04T16:42:07.123+00:00" -> "2026-12-04 16:42:07" (UTC, as stored)
        when=line.at[:19].replace("T", " "),
        who=who,
        action=line.action,
        round=_whole(detail.get("round")),
        table=_whole(detail.get("table")),
        what=wording.audit_what(line.action, detail, who),
        reason=str(reason) if reason else None,
        change=wording.audit_change(line.action, detail),
    )


def audit_entries(
    lines: Sequence[AuditLine],
    *,
    table: int | None = None,
    round_number: int | None = None,
    newest_first: bool = False,
) -> list[AuditEntry]:
    """The audit whole, in words: the event's, or one table's (``table`` in round ``round_number``).

    A table's audit holds the acts at that table and the acts about its
    whole round (pairing, re-pairing, lock, reopen); ``round_number`` None
    means every round's table of that number. Oldest first unless ``newest_first``.
    """
    out = []
    for line in lines:
        entry = audit_entry(line)
        if table is not None:
            if round_number is not None and entry.round != round_number:
                continue
            if entry.table != table and not (entry.action in ROUND_ACTS and entry.round is not None):
                continue
        out.append(entry)
    return out[::-1] if newest_first else out


def director_act(entries: Sequence[AuditEntry], table: int, round_number: int | None) -> AuditEntry | None:
    """The director's latest act that changed the play at ``table`` of round ``round_number`` (or None)."""
    for entry in sorted(entries, key=lambda e: e.number, reverse=True):
        if (
            entry.by_director
            and entry.action in TABLE_ACTS
            and entry.table == table
            and (round_number is None or entry.round == round_number)
        ):
            return entry
    return None


def director_line(entry: AuditEntry) -> str:
    """The phone's one line about a director's act: "The director settled hand 1 at table 2 again: Ann 45 -> 50 ..."."""
    return wording.director_said(entry.who, entry.what, entry.reason, entry.change)


def audit_heading(event_name: str, table: int | None, round_number: int | None, newest_first: bool) -> str:
    """The title of an audit: the event's, or one table's of a round, and its order."""
    return wording.audit_title(event_name, table, round_number, newest_first)
