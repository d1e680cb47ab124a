"""Replaying a stored log through the rules engine, and the event helpers it needs."""

from __future__ import annotations

from typing import Any

from scorepad.rules import Event, MatchState, SniffError, event_from_dict, make_ruleset
from scorepad.store.errors import BrokenLog
from scorepad.store.log import FoldedLog
from scorepad.store.models import SETTLE
from scorepad.store.repository import MatchHeader


def event_kind(event: Event) -> str:
    """The log entry kind of an event (``play``, ``draw``... as in records.md §4)."""
    return type(event).__name__.lower()


def as_event(event: Event | dict[str, Any]) -> Event:
    """An event given as an engine value or a record dict; raises ``IllegalEventError``."""
    if isinstance(event, dict):
        return event_from_dict(event)
    if not isinstance(event, Event):  # type: ignore[arg-type, misc]
        raise TypeError(f"not an event: {event!r}")
    return event


def entries_in_state(state: MatchState) -> int:
    """How many log entries stand behind a state (to notice a state changed by a caller)."""
    # One start per hand, its events, and its settlement if it had one.
    return sum(1 + len(h.events) + (h.settlement is not None) for h in state.hands)


def rebuild(header: MatchHeader, log: FoldedLog) -> MatchState:
    """Replay what stands of a match's log through the rules engine.

    Raises ``BrokenLog`` if the engine refuses a stored entry.
    """
    rules = make_ruleset(header.rules, len(header.players), header.options)
    state = MatchState(rules, list(header.players))
    for number, entries in log.started_hands():
        entry = entries[0]
        try:
            state.start_hand(entry.payload.get("setter"))
            for entry in entries[1:]:
                if entry.kind == SETTLE:
                    state.settle(entry.payload["remaining"])
                else:
                    state.apply(event_from_dict(entry.payload))
        except SniffError as err:
            raise BrokenLog(f"match {header.id} hand {number} entry {entry.seq} no longer replays: {err}") from err
    return state
