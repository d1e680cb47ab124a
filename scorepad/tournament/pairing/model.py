"""What a pairing reads and gives: the contenders, the input kept with a round, the round, and a format.

``PAIRING_VERSION`` is part of every round's engine version: bump it
whenever a change to any format could pair the same input differently.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from scorepad.tournament.errors import PairingError
from scorepad.tournament.kinds import Kind

# Bump whenever a change here could pair the same input differently (the registry keeps the earlier
# behaviour for rounds paired by it). 2: Swiss seats drawn in rank order, not in the order of the
# database's ids; an unplayed table is no meeting in the standing a round is paired from.
PAIRING_VERSION = "2"


@dataclass(frozen=True)
class Contender:
    """One entrant as the pairing sees them before the round.

    ``score`` is the first standing figure (total game points, or games won
    where the rules have no game points); ``rank`` the place in the standings
    (1 is the top; distinct). ``met`` lists every entrant met before, once
    per meeting; ``byes`` how many byes they have had. ``partnered`` (four-player
    tables with rotating partners) lists every partner so far, once per round.
    """

    id: int
    name: str
    score: int
    rank: int
    byes: int = 0
    met: tuple[int, ...] = ()
    partnered: tuple[int, ...] = ()


@dataclass(frozen=True)
class PairingInput:
    """Everything a round's pairing depends on (kept with the round, as JSON)."""

    method: str
    round: int
    rounds: int
    table_size: int
    seed: str
    contenders: tuple[Contender, ...]
    forbidden: tuple[tuple[int, int], ...] = ()
    # The most that ``score`` can rise in one round (who can still catch the leader).
    max_per_round: int = 0
    # Round robin: every entrant of the schedule, by pairing number (1 first).
    roster: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form that ``from_dict`` reads back to an equal input."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PairingInput:
        """The input stored with a round. Raises ``PairingError`` if it is not one."""
        try:
            return cls(
                method=str(data["method"]),
                round=int(data["round"]),
                rounds=int(data["rounds"]),
                table_size=int(data["table_size"]),
                seed=str(data["seed"]),
                contenders=tuple(
                    Contender(
                        id=int(c["id"]),
                        name=str(c["name"]),
                        score=int(c["score"]),
                        rank=int(c["rank"]),
                        byes=int(c["byes"]),
                        met=tuple(int(m) for m in c["met"]),
                        # Inputs stored before four-player tables existed have no partners.
                        partnered=tuple(int(m) for m in c.get("partnered", ())),
                    )
                    for c in data["contenders"]
                ),
                forbidden=tuple((int(a), int(b)) for a, b in data["forbidden"]),
                max_per_round=int(data["max_per_round"]),
                roster=tuple(int(x) for x in data["roster"]),
            )
        except (KeyError, TypeError, ValueError) as err:
            raise PairingError(f"the stored pairing input is unreadable ({err})") from None


@dataclass(frozen=True)
class Pairing:
    """A round: the tables (entrant ids in seat order, table 1 first), the byes, and notes."""

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...]
    notes: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {"tables": [list(t) for t in self.tables], "byes": list(self.byes), "notes": list(self.notes)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Pairing:
        """A pairing stored as ``to_dict`` wrote it."""
        return cls(
            tables=tuple(tuple(int(x) for x in t) for t in data["tables"]),
            byes=tuple(int(x) for x in data["byes"]),
            notes=tuple(str(n) for n in data.get("notes", ())),
        )

    def fingerprint(self) -> str:
        """SHA-256 of the tables and byes (the notes are explanation, not pairing)."""
        body = json.dumps({"tables": [list(t) for t in self.tables], "byes": list(self.byes)}, separators=(",", ":"))
        return hashlib.sha256(body.encode()).hexdigest()


@dataclass(frozen=True)
class PairingFormat:
    """One way of pairing a round: its name (stored with the round's input), its entry point, and its terms.

    ``kind`` is the kind of event always seated by this format (tables of
    three, of four); None for a format the director chooses (or ``auto``
    chooses) for tables of two sides. ``schedule``: the whole event is drawn
    at round 1 (a round robin), so nobody joins later and the draw is kept
    with each round. ``suits`` (field, rounds, any forbidden pair): whether
    ``auto`` chooses this format for such a field; None: ``auto`` never does
    by itself.
    """

    name: str
    pair: Callable[[PairingInput], Pairing]
    kind: Kind | None = None
    schedule: bool = False
    suits: Callable[[int, int, bool], bool] | None = None
