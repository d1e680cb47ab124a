"""Replaying a stored log through the rules engine, and the event helpers it needs."""

from __future__ import annotations

from typing import Any

from scorepad.rules import Event, MatchState, SniffError, event_from_dict, make_ruleset
from scorepad.store.errors import BrokenLog
from scorepad.store.log import FoldedLog
from scorepad.store.models import AMEND, SETTLE
from scorepad.store.repository import MatchHeader
from scorepad.store.snapshot import MatchSnapshot


def event_kind(event: Event) -> str:
    """The log entry kind of an event (``play``, ``draw``... as in records.md §4)."""
    return type(event).__name__.lower()


def as_event(event: Event | dict[str, Any]) -> Event:
    """An event given as an engine value or a record dict; raises ``IllegalEventError``."""
    if isinstance(event, dict):
        return event_from_dict(event)
    if not isinstance(event, Event):
        raise TypeError(f"not an event: {event!r}")
    return event


def entries_in_state(state: MatchState) -> int:
    """How many log entries stand behind a state (to notice a state changed by a caller)."""
    # One start per hand, its events, and its settlement if it had one.
    return sum(1 + len(h.events) + (h.settlement is not None) for h in state.hands)


def rebuild(
    header: MatchHeader,
    log: FoldedLog,
    *,
    base: MatchState | None = None,
    from_hand: int = 1,
    checking: bool = False,
) -> MatchSnapshot:
    """Replay what stands of a match's log through the rules engine (unsealed: the caller seals it).

    With ``base``, hands numbered below ``from_hand`` are taken from it as they
    are (finished hands never change) and only the later ones are replayed:
    an undo replays its own hand, not the match. Raises ``BrokenLog`` if the
    engine refuses a stored entry; with ``checking`` (a log not stored yet,
    such as an amendment offered) the engine's own ``IllegalEventError``.
    """
    if base is not None:
        rules = base.rules
    else:
        rules = make_ruleset(header.rules, len(header.players), header.options)
        from_hand = 1
    state = MatchSnapshot(rules, list(header.players), match_id=header.id)
    engine_apply = MatchState.apply
    if base is not None:
        state.hands.extend(base.hands[: from_hand - 1])
    for number, entries in log.started_hands():
        if number < from_hand:
            continue
        entry = entries[0]
        try:
            state.start_hand(entry.payload.get("setter"))
            for entry in entries[1:]:
                if entry.kind == SETTLE:
                    state.settle(entry.payload["remaining"])
                    continue
                # The hot loop of a resume (thousands of entries): the snapshot is not sealed
                # yet, so the engine's own apply is called without the snapshot's check.
                event = entry.payload if entry.kind != AMEND else entry.payload.get("event")
                if event is not None:
                    engine_apply(state, event_from_dict(event))
        except SniffError as err:
            if checking:
                raise
            raise BrokenLog(f"match {header.id} hand {number} entry {entry.seq} no longer replays: {err}") from err
    return state
