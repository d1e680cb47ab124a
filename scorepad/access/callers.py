"""Who is calling: this computer, a joined device, a tournament table, the director, the hall, a spectator."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Who(StrEnum):
    """The kinds of caller, named as a refusal names them."""

    LOCAL = "this computer"
    DEVICE = "a joined device"
    TABLE = "a table"
    DIRECTOR = "the director"
    HALL = "the hall screen"
    SPECTATOR = "a spectator"


@dataclass(frozen=True)
class Caller:
    """A caller as the door knows it, its credential already checked by whoever made it.

    ``device`` names the screen (a page, the command line) for the store's
    per-screen views and the audit; ``owner`` a joined browser, from the
    door's cookie, as a casual match's creator is kept; a tournament
    caller carries its event, and a table its table, round and match, as
    read with its credential (``scorepad.tournament.access.Gate``).
    """

    who: Who
    device: str | None = None
    owner: str | None = None
    event_id: int | None = None
    table_id: int | None = None
    table_number: int | None = None
    round_number: int | None = None
    match_id: int | None = None

    @classmethod
    def local(cls, device: str | None = None) -> Caller:
        """This computer: the command line, or a page opened on 127.0.0.1 or in the desktop window."""
        return cls(Who.LOCAL, device=device)

    @classmethod
    def joined(cls, owner: str, device: str | None = None) -> Caller:
        """A browser that joined with the join code: ``owner`` is its own (stable while it keeps its cookie)."""
        return cls(Who.DEVICE, device=device, owner=owner)

    @property
    def creator(self) -> str | None:
        """How a match this caller starts keeps its creator: the joined browser, an event's director, the screen."""
        if self.who == Who.DEVICE:
            return self.owner
        if self.who == Who.DIRECTOR:
            return f"director:{self.event_id}"
        return self.device

    @property
    def label(self) -> str:
        """How the audit trail names the caller."""
        if self.who == Who.TABLE:
            return f"table {self.table_number} (round {self.round_number})"
        if self.who in (Who.LOCAL, Who.DEVICE):
            return self.device or self.who.value
        return self.who.name.lower()

    @property
    def view(self) -> str | None:
        """The key of this caller's view in the store (the device, or the tournament role and table)."""
        if self.device is not None:
            return self.device
        if self.who == Who.TABLE:
            return f"table:{self.table_id}"
        return self.who.name.lower() if self.who != Who.LOCAL else None
