"""Log entries in a few words, for the sentence that tells a screen what was entered first."""

from __future__ import annotations

from typing import Any

from scorepad.store.log import Entry
from scorepad.store.models import AMEND, REDO, SETTLE, START, UNDO

_EVENT_WORDS = {
    "draw": "a draw",
    "pass": "a pass",
    "muggins": "a muggins claim",
    "renege": "a renege",
    "adjust": "an adjustment",
    "void": "the throw-in of the hand",
}


def entry_words(entry: Entry) -> str:
    """What an entry did, e.g. ``1-5``, ``a draw``, ``the start of hand 2``, ``an undo``."""
    if entry.kind == START:
        return f"the start of hand {entry.hand}"
    if entry.kind == SETTLE:
        return f"the settlement of hand {entry.hand}"
    if entry.kind == UNDO:
        return "an undo"
    if entry.kind == REDO:
        return "a redo"
    if entry.kind == AMEND:
        event = entry.payload.get("event")
        return "a withdrawal of the last entry" if event is None else f"a correction to {_event_words(event)}"
    return _event_words(entry.payload)


def _event_words(payload: dict[str, Any]) -> str:
    if "play" in payload:
        return str(payload["play"])
    for kind, words in _EVENT_WORDS.items():
        if kind in payload:
            return words
    return "an entry"


_NOT_SAVED = "this entry was not saved, try again if it is still needed"


def moved_on(latest: Entry | None, *, revision: int, finished: bool) -> str:
    """The sentence for a write refused because the match moved on to ``revision`` first."""
    if latest is None or latest.revision != revision:
        what = "The match was finished" if finished else "The match was changed"
        return f"{what} on another screen first (it is now at revision {revision}); {_NOT_SAVED}."
    who = latest.device or "Another screen"
    what = entry_words(latest)
    return f"{who} entered {what} first (the match is now at revision {revision}); {_NOT_SAVED}."
