"""Folding a match's log: which entries stand once undo and redo are applied.

Pure functions over log entries, no database and no rules: the store reads
the entries, folds them here, and hands what stands to the rules engine.

Undo and redo are entries themselves. ``undo`` takes back the last standing
entry of the latest hand that has one (this may be a hand's ``settle`` or
``start``, so an undo can reach back into the previous hand); ``redo`` puts
back the most recently undone entry, as long as nothing new was entered since.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from scorepad.store.models import REDO, SETTLE, START, UNDO


@dataclass(frozen=True)
class Entry:
    """One log entry as the fold sees it."""

    hand: int
    seq: int
    revision: int
    kind: str
    payload: dict[str, Any]
    device: str | None = None


@dataclass
class FoldedLog:
    """What stands of a match's log, hand by hand, and what could be redone."""

    standing: dict[int, list[Entry]] = field(default_factory=dict)
    redoable: list[Entry] = field(default_factory=list)
    last_seq: dict[int, int] = field(default_factory=dict)
    revision: int = 0

    def add(self, entry: Entry) -> None:
        """Take one more entry (entries must come in revision order).

        Raises ``ValueError`` if an undo or redo names an entry that is not
        the one it must act on (a log no writer of this store produces).
        """
        self.last_seq[entry.hand] = max(self.last_seq.get(entry.hand, 0), entry.seq)
        self.revision = max(self.revision, entry.revision)
        if entry.kind == UNDO:
            hand = self.standing.get(entry.hand, [])
            if not hand or hand[-1].seq != entry.payload.get("seq"):
                raise ValueError(f"hand {entry.hand} seq {entry.seq}: undo of an entry not on top")
            self.redoable.append(hand.pop())
        elif entry.kind == REDO:
            if not self.redoable or self.redoable[-1].seq != entry.payload.get("seq"):
                raise ValueError(f"hand {entry.hand} seq {entry.seq}: redo of an entry not undone")
            self.standing.setdefault(entry.hand, []).append(self.redoable.pop())
        else:
            self.standing.setdefault(entry.hand, []).append(entry)
            # A new entry ends the chance to redo what was undone before it.
            self.redoable.clear()

    def next_seq(self, hand: int) -> int:
        """The sequence number the next entry of ``hand`` must take."""
        return self.last_seq.get(hand, 0) + 1

    def started_hands(self) -> list[tuple[int, list[Entry]]]:
        """The hands in play, in order: number and standing entries (``start`` first)."""
        return [
            (number, entries)
            for number, entries in sorted(self.standing.items())
            if entries and entries[0].kind == START
        ]

    def undo_target(self) -> Entry | None:
        """The entry an undo would take back, or None when nothing stands."""
        for number in sorted(self.standing, reverse=True):
            if self.standing[number]:
                return self.standing[number][-1]
        return None

    def redo_target(self) -> Entry | None:
        """The entry a redo would put back, or None."""
        return self.redoable[-1] if self.redoable else None

    def record_hands(self) -> list[dict[str, Any]]:
        """The hands in sniff-record/1 shape (records.md §4), from what stands."""
        hands: list[dict[str, Any]] = []
        for _number, entries in self.started_hands():
            hand: dict[str, Any] = {}
            setter = entries[0].payload.get("setter")
            if setter is not None:
                hand["setter"] = setter
            hand["events"] = [dict(e.payload) for e in entries[1:] if e.kind != SETTLE]
            for entry in entries[1:]:
                if entry.kind == SETTLE:
                    hand["remaining"] = entry.payload["remaining"]
            hands.append(hand)
        return hands

    def standing_count(self) -> int:
        """How many entries stand, over all hands."""
        return sum(len(entries) for entries in self.standing.values())


def fold(entries: Iterable[Entry]) -> FoldedLog:
    """Fold entries given in revision order. Raises ``ValueError`` on a broken log."""
    folded = FoldedLog()
    for entry in entries:
        folded.add(entry)
    return folded
