"""The kinds of event: who an entrant is and how a table is seated (for the service, the command line and forms)."""

from __future__ import annotations

from enum import StrEnum


class Kind(StrEnum):
    """An event's kind; its value is the name stored with the event and typed after ``--kind``."""

    SINGLES = "singles"
    THREES = "threes"
    PARTNERS = "partners"
    FOURS = "fours"

    @property
    def table_size(self) -> int:
        """Players at a table."""
        return _TABLE_SIZE[self]

    @property
    def entrant_size(self) -> int:
        """Players an entrant registers: two for a fixed partnership, else one."""
        return 2 if self is Kind.PARTNERS else 1

    @property
    def entrants_per_table(self) -> int:
        """Entrants seated at one table."""
        return self.table_size // self.entrant_size

    @property
    def sides(self) -> int:
        """Sides at a table: two for partnerships, else one a player."""
        return 2 if self.partnerships else self.table_size

    @property
    def partnerships(self) -> bool:
        """The table plays in two partnerships, crosswise (seats 0 and 2 against 1 and 3, records.md §1)."""
        return self in (Kind.PARTNERS, Kind.FOURS)

    @property
    def description(self) -> str:
        """One line for a form or a help text."""
        return _DESCRIPTION[self]


_TABLE_SIZE = {Kind.SINGLES: 2, Kind.THREES: 3, Kind.PARTNERS: 4, Kind.FOURS: 4}
_DESCRIPTION = {
    Kind.SINGLES: "singles: two players a table",
    Kind.THREES: "threes: three players a table",
    Kind.PARTNERS: "partners: fixed partnerships, two a table",
    Kind.FOURS: "fours: individual players, four a table in partnerships that rotate every round",
}
# Every kind, in the order a form offers them.
KINDS: tuple[Kind, ...] = tuple(Kind)
