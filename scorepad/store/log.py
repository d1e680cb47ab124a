"""Folding a match's log: which entries stand once undo and redo are applied.

Pure functions over log entries, no database and no rules: the store reads
the entries, folds them here, and hands what stands to the rules engine.

Undo and redo are entries themselves. ``undo`` takes back the last standing
entry of the latest hand that has one (this may be a hand's ``settle`` or
``start``, so an undo can reach back into the previous hand); ``redo`` puts
back the most recently undone entry, as long as nothing new was entered since.

``amend`` ``{"seq": n, "event": {...} or null}`` is a new version of the last
standing event: it stands in the place of entry ``n`` (an event, or an
earlier amendment), and ``"event": null`` withdraws it (it then stands as an
empty place, so the next undo puts the withdrawn event back). An undo of an
amendment restores the version it replaced; a redo puts the amendment back.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from scorepad.store.models import AMEND, REDO, SETTLE, START, UNDO


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
    # (hand, seq of an amendment) -> the version it replaced, for its undo.
    replaced: dict[tuple[int, int], Entry] = field(default_factory=dict)
    # How many standing entries are withdrawn events (empty places), kept as they come and go.
    withdrawn: int = 0

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
            taken = self._pop(hand)
            if taken.kind == AMEND:
                self._push(hand, self.replaced[(taken.hand, taken.seq)])
            self.redoable.append(taken)
        elif entry.kind == REDO:
            if not self.redoable or self.redoable[-1].seq != entry.payload.get("seq"):
                raise ValueError(f"hand {entry.hand} seq {entry.seq}: redo of an entry not undone")
            back = self.redoable.pop()
            hand = self.standing.setdefault(entry.hand, [])
            if back.kind == AMEND:
                if not hand or hand[-1].seq != back.payload.get("seq"):
                    raise ValueError(f"hand {entry.hand} seq {entry.seq}: redo of an amendment not on top")
                self._pop(hand)
            self._push(hand, back)
        elif entry.kind == AMEND:
            hand = self.standing.get(entry.hand, [])
            if not hand or hand[-1].seq != entry.payload.get("seq") or hand[-1].kind in (START, SETTLE):
                raise ValueError(f"hand {entry.hand} seq {entry.seq}: amendment of an entry not on top")
            self.replaced[(entry.hand, entry.seq)] = self._pop(hand)
            self._push(hand, entry)
            self.redoable.clear()
        else:
            self.standing.setdefault(entry.hand, []).append(entry)
            # A new entry ends the chance to redo what was undone before it.
            self.redoable.clear()

    def _pop(self, hand: list[Entry]) -> Entry:
        taken = hand.pop()
        self.withdrawn -= _is_withdrawal(taken)
        return taken

    def _push(self, hand: list[Entry], entry: Entry) -> None:
        hand.append(entry)
        self.withdrawn += _is_withdrawal(entry)

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

    def amend_target(self) -> Entry | None:
        """The entry an amendment would replace: the last standing entry, if it is an event (or a version of one)."""
        target = self.undo_target()
        if target is None or target.kind in (START, SETTLE):
            return None
        return target

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
            hand["events"] = [dict(event) for event in map(event_payload, entries[1:]) if event is not None]
            for entry in entries[1:]:
                if entry.kind == SETTLE:
                    hand["remaining"] = entry.payload["remaining"]
            hands.append(hand)
        return hands

    def standing_count(self) -> int:
        """How many entries stand, over all hands (a withdrawn event's empty place not counted)."""
        return sum(len(entries) for entries in self.standing.values()) - self.withdrawn


def _is_withdrawal(entry: Entry) -> bool:
    return entry.kind == AMEND and entry.payload.get("event") is None


def event_payload(entry: Entry) -> dict[str, Any] | None:
    """The record event an entry stands for (an amendment's new version), or None (start, settle, withdrawn)."""
    if entry.kind in (START, SETTLE):
        return None
    if entry.kind == AMEND:
        return entry.payload.get("event")
    return entry.payload


def fold(entries: Iterable[Entry]) -> FoldedLog:
    """Fold entries given in revision order. Raises ``ValueError`` on a broken log."""
    folded = FoldedLog()
    for entry in entries:
        folded.add(entry)
    return folded
