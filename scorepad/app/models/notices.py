"""What another screen did to the match, in words: the live notice and the refusal of a stale tap.

Plain Python, no Flet. The words for an entry are the engine's narration
(``scorepad.rules.narrate``), asked in one place: ``entry_words``.
"""

from __future__ import annotations

from typing import Any

from scorepad.rules import narrate


def revision_of(state: Any) -> int | None:
    """The store revision a state was read at (the store's snapshots carry it), or None."""
    revision = getattr(state, "revision", None)
    return revision if isinstance(revision, int) else None


def entry_words(state: Any) -> str:
    """The last entry of the current hand as the engine narrates it, shortened to its head.

    "Bob plays 1-6 right", "Ann sets 4-4", "Cy draws 1", "Bob passes". The
    count's explanation after the colon is left to the table's own panels.
    """
    hand = state.current
    if hand is None or not hand.events:
        return "the hand's first entry was taken back"
    # "Bob plays 1-6 right: right 6 + ..." -> "Bob plays 1-6 right"
    return narrate.event_line(state, hand, len(hand.events) - 1).split(": ", 1)[0]


def change_words(before: Any, after: Any) -> str:
    """What changed from ``before`` to ``after`` (two states of one match), in a few words."""
    hand, prev = after.current, before.current if before is not None else None
    if hand is None:
        return "the first hand was taken back"
    if prev is None or len(after.hands) > len(before.hands):
        return f"hand {hand.number} started, {after.players[hand.setter]} to set"
    if len(after.hands) < len(before.hands):
        return f"hand {prev.number} was taken back"
    if len(hand.events) < len(prev.events):
        return "the last entry was taken back"
    if hand.settlement is not None and prev.settlement is None:
        return f"hand {hand.number} was settled"
    if prev.settlement is not None and hand.settlement is None:
        return f"the settlement of hand {hand.number} was taken back"
    return entry_words(after)


def notice_from_elsewhere(before: Any, after: Any) -> str:
    """The one-line notice a screen shows when another screen's entry reaches it."""
    return f"Entered on another screen: {change_words(before, after)}."


def refused_as_stale(before: Any, after: Any) -> str:
    """Why a tap made on ``before`` was not applied: ``after`` had moved on (another screen was first)."""
    return (
        f"Another screen was first ({change_words(before, after)}): your tap was not applied;"
        " the table shows the match as it is now."
    )
