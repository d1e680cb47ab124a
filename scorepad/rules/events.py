"""The events of a hand, in the vocabulary of records.md §4.

Each event is a small value that reads from and writes to the record's JSON
object, so ``event_from_dict(e.to_dict()) == e``. Events are immutable named
tuples: as cheap to build as a slotted class (the simulator builds one a move),
they cannot be changed after a hand has taken them, and two events are equal
only when they are of the same kind.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from scorepad.rules.errors import IllegalEventError

POSITIONS = ("left", "right", "up", "down")


def _same_event(self: tuple, other: object) -> bool:
    # Tuples compare by value alone; events must also be of the same kind (Renege(0) != Muggins(0)).
    return type(self) is type(other) and tuple.__eq__(self, other)  # type: ignore[arg-type]


def _other_event(self: tuple, other: object) -> bool:
    return not _same_event(self, other)


def _event_hash(self: tuple) -> int:
    return hash((type(self).__name__, *self))


class Play(NamedTuple):
    """A tile laid: the set, or a coupling at ``at`` with what the player called."""

    tile: str
    at: str | None = None
    call: int | None = None
    fix: bool = False
    by: int | None = None

    __eq__ = _same_event  # type: ignore[assignment]
    __ne__ = _other_event  # type: ignore[assignment]
    __hash__ = _event_hash  # type: ignore[assignment]

    def to_dict(self) -> dict[str, Any]:
        """The record form of this event."""
        out: dict[str, Any] = {"play": self.tile}
        if self.at is not None:
            out["at"] = self.at
        if self.by is not None:
            out["by"] = self.by
        if self.call is not None:
            out["call"] = self.call
        if self.fix:
            out["fix"] = True
        return out


class Draw(NamedTuple):
    """The player to move drew ``count`` tiles on this visit to the boneyard."""

    count: int
    by: int | None = None

    __eq__ = _same_event  # type: ignore[assignment]
    __ne__ = _other_event  # type: ignore[assignment]
    __hash__ = _event_hash  # type: ignore[assignment]

    def to_dict(self) -> dict[str, Any]:
        """The record form of this event."""
        out: dict[str, Any] = {"draw": self.count}
        if self.by is not None:
            out["by"] = self.by
        return out


class Pass(NamedTuple):
    """The player to move cannot play and may not draw."""

    by: int | None = None

    __eq__ = _same_event  # type: ignore[assignment]
    __ne__ = _other_event  # type: ignore[assignment]
    __hash__ = _event_hash  # type: ignore[assignment]

    def to_dict(self) -> dict[str, Any]:
        """The record form of this event."""
        out: dict[str, Any] = {"pass": True}
        if self.by is not None:
            out["by"] = self.by
        return out


class Muggins(NamedTuple):
    """An opponent claims the score the last player did not call (muggins option)."""

    seat: int

    __eq__ = _same_event  # type: ignore[assignment]
    __ne__ = _other_event  # type: ignore[assignment]
    __hash__ = _event_hash  # type: ignore[assignment]

    def to_dict(self) -> dict[str, Any]:
        """The record form of this event."""
        return {"muggins": self.seat}


class Renege(NamedTuple):
    """A renege by ``seat`` was proved (Smartt §11.1)."""

    seat: int

    __eq__ = _same_event  # type: ignore[assignment]
    __ne__ = _other_event  # type: ignore[assignment]
    __hash__ = _event_hash  # type: ignore[assignment]

    def to_dict(self) -> dict[str, Any]:
        """The record form of this event."""
        return {"renege": self.seat}


class Adjust(NamedTuple):
    """Tiles moved between the boneyard and a seat outside the turn (Smartt §11.4)."""

    seat: int
    count: int

    __eq__ = _same_event  # type: ignore[assignment]
    __ne__ = _other_event  # type: ignore[assignment]
    __hash__ = _event_hash  # type: ignore[assignment]

    def to_dict(self) -> dict[str, Any]:
        """The record form of this event."""
        return {"adjust": self.seat, "count": self.count}


class Void(NamedTuple):
    """The hand is thrown in and redealt (Smartt §11.3)."""

    __eq__ = _same_event  # type: ignore[assignment]
    __ne__ = _other_event  # type: ignore[assignment]
    __hash__ = _event_hash  # type: ignore[assignment]

    def to_dict(self) -> dict[str, Any]:
        """The record form of this event."""
        return {"void": True}


Event = Play | Draw | Pass | Muggins | Renege | Adjust | Void

_KIND_SET = frozenset(("play", "draw", "pass", "muggins", "renege", "adjust", "void"))
_ALLOWED_KEYS = {
    "play": {"play", "at", "by", "call", "fix"},
    "draw": {"draw", "by"},
    "pass": {"pass", "by"},
    "muggins": {"muggins"},
    "renege": {"renege"},
    "adjust": {"adjust", "count"},
    "void": {"void"},
}


def event_from_dict(obj: object) -> Event:
    """Read one event object of a record.

    Raises IllegalEventError, with a plain sentence, when the object is not one
    of the event kinds of records.md §4 or a field has the wrong type.
    """
    if not isinstance(obj, dict):
        raise IllegalEventError(f'an event must be an object such as {{"play": "5-3"}}, not {obj!r}')
    kinds = _KIND_SET.intersection(obj)
    if len(kinds) != 1:
        named = ", ".join(repr(k) for k in obj) or "nothing"
        raise IllegalEventError(
            f"an event names exactly one of play, draw, pass, muggins, renege, adjust, void; this one has {named}"
        )
    (kind,) = kinds
    if not _ALLOWED_KEYS[kind].issuperset(obj):
        extra = set(obj) - _ALLOWED_KEYS[kind]
        raise IllegalEventError(f"a {kind} event does not take " + ", ".join(sorted(repr(k) for k in extra)))
    by = _optional_seat(obj, "by")
    if kind == "play":
        tile = obj["play"]
        if not isinstance(tile, str):
            raise IllegalEventError(f'a play names its tile like "5-3", not {tile!r}')
        at = obj.get("at")
        if at is not None and at not in (*POSITIONS, "set"):
            raise IllegalEventError(f"'at' must be left, right, up or down, not {at!r}")
        call = obj.get("call")
        if call is not None and (not _is_int(call) or call < 0 or call % 5):
            raise IllegalEventError(f"a call is 0 or a multiple of 5, not {call!r}")
        fix = obj.get("fix") or False  # null reads as absent, as it does for call, at and by
        if not isinstance(fix, bool):
            raise IllegalEventError(f"'fix' must be true or false, not {fix!r}")
        return Play(tile=tile, at=at, call=call, fix=fix, by=by)
    if kind == "draw":
        count = obj["draw"]
        if not _is_int(count) or count < 1:
            raise IllegalEventError(f"a draw takes 1 or more tiles, not {count!r}")
        return Draw(count=count, by=by)
    if kind == "pass":
        if obj["pass"] is not True:
            raise IllegalEventError(f'a pass is written "pass": true, not {obj["pass"]!r}')
        return Pass(by=by)
    if kind == "void":
        if obj["void"] is not True:
            raise IllegalEventError(f'a void is written "void": true, not {obj["void"]!r}')
        return Void()
    seat = obj[kind]
    if not _is_int(seat):
        raise IllegalEventError(f"{kind} names a seat number, not {seat!r}")
    if kind == "muggins":
        return Muggins(seat=seat)
    if kind == "renege":
        return Renege(seat=seat)
    count = obj.get("count")
    if not _is_int(count) or count == 0:
        raise IllegalEventError(f"an adjust needs a non-zero whole 'count', not {count!r}")
    return Adjust(seat=seat, count=count)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _optional_seat(obj: dict[str, Any], field: str) -> int | None:
    value = obj.get(field)
    if value is not None and not _is_int(value):
        raise IllegalEventError(f"'{field}' names a seat number, not {value!r}")
    return value
