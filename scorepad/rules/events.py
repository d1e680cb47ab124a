"""The events of a hand, in the vocabulary of records.md §4.

Each event is a small frozen value that reads from and writes to the record's
JSON object, so ``event_from_dict(e.to_dict()) == e``. Two events are equal
only when they are of the same kind (``Renege(0) != Muggins(0)``), and none can
be changed after a hand has taken it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scorepad.rules.errors import IllegalEventError

POSITIONS = ("left", "right", "up", "down")


@dataclass(frozen=True, slots=True)
class Play:
    """A tile laid: the set, or a coupling at ``at`` with what the player called.

    ``stands`` marks an illegal coupling that stood (records.md §4; Smartt §11.5).
    """

    tile: str
    at: str | None = None
    call: int | None = None
    fix: bool = False
    by: int | None = None
    stands: bool = False

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
        if self.stands:
            out["stands"] = True
        return out


@dataclass(frozen=True, slots=True)
class Draw:
    """The player to move drew ``count`` tiles on this visit to the boneyard."""

    count: int
    by: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """The record form of this event."""
        out: dict[str, Any] = {"draw": self.count}
        if self.by is not None:
            out["by"] = self.by
        return out


@dataclass(frozen=True, slots=True)
class Pass:
    """The player to move cannot play and may not draw."""

    by: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """The record form of this event."""
        out: dict[str, Any] = {"pass": True}
        if self.by is not None:
            out["by"] = self.by
        return out


@dataclass(frozen=True, slots=True)
class Muggins:
    """An opponent claims the score the last player did not call (muggins option)."""

    seat: int

    def to_dict(self) -> dict[str, Any]:
        """The record form of this event."""
        return {"muggins": self.seat}


@dataclass(frozen=True, slots=True)
class Renege:
    """A renege by ``seat`` was proved (Smartt §11.1)."""

    seat: int

    def to_dict(self) -> dict[str, Any]:
        """The record form of this event."""
        return {"renege": self.seat}


@dataclass(frozen=True, slots=True)
class Adjust:
    """Tiles moved between the boneyard and a seat outside the turn (Smartt §11.4)."""

    seat: int
    count: int

    def to_dict(self) -> dict[str, Any]:
        """The record form of this event."""
        return {"adjust": self.seat, "count": self.count}


@dataclass(frozen=True, slots=True)
class Void:
    """The hand is thrown in and redealt (Smartt §11.3)."""

    def to_dict(self) -> dict[str, Any]:
        """The record form of this event."""
        return {"void": True}


Event = Play | Draw | Pass | Muggins | Renege | Adjust | Void

_KIND_SET = frozenset(("play", "draw", "pass", "muggins", "renege", "adjust", "void"))
_ALLOWED_KEYS = {
    "play": {"play", "at", "by", "call", "fix", "stands"},
    "draw": {"draw", "by"},
    "pass": {"pass", "by"},
    "muggins": {"muggins"},
    "renege": {"renege"},
    "adjust": {"adjust", "count"},
    "void": {"void"},
}


# Events already read, by their fields with each value's type (so that 1 is never taken for true):
# a record repeats the same few hundred event objects, and each is a frozen value.
_READ: dict[tuple[tuple[tuple[str, object], ...], tuple[type, ...]], Event] = {}
_READ_MAX = 4096


def event_from_dict(obj: object) -> Event:
    """Read one event object of a record.

    Raises IllegalEventError, with a plain sentence, when the object is not one
    of the event kinds of records.md §4 or a field has the wrong type.
    """
    if type(obj) is dict:
        try:
            # Each value with its type (1, 1.0 and true are equal keys otherwise), in two C-level passes.
            seen = (tuple(obj.items()), tuple(map(type, obj.values())))
            found = _READ.get(seen)
        except TypeError:  # a list or an object among the values: read it the long way (and refuse it)
            return _read_event(obj)
        if found is None:
            found = _read_event(obj)
            if len(_READ) < _READ_MAX:
                _READ[seen] = found
        return found
    return _read_event(obj)


def _read_event(obj: object) -> Event:
    """``event_from_dict`` without the memory of events already read."""
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
        stands = "stands" in obj
        if stands and obj["stands"] is not True:
            # records.md §4: a legal play needs no mark, so "stands" is only ever true.
            raise IllegalEventError(
                f"'stands' is only ever true (leave it out for a legal play), not {obj['stands']!r}"
            )
        if stands and at in (None, "set"):
            raise IllegalEventError("a tile that stood names the open end it was laid at with 'at'")
        return Play(tile=tile, at=at, call=call, fix=fix, by=by, stands=stands)
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
    if not isinstance(count, int) or isinstance(count, bool) or count == 0:
        raise IllegalEventError(f"an adjust needs a non-zero whole 'count', not {count!r}")
    return Adjust(seat=seat, count=count)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _optional_seat(obj: dict[str, Any], field: str) -> int | None:
    value = obj.get(field)
    if value is not None and not _is_int(value):
        raise IllegalEventError(f"'{field}' names a seat number, not {value!r}")
    return value
