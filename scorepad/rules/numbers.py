"""Whole numbers from outside (typed, in a page's address, in a record file), read with their size checked first.

Python's ``int()`` refuses a text of more than 4,300 digits with a
``ValueError`` of its own, takes ``'٣'``, ``'1_000'`` and ``' 7 '``, and a
number it does take may still be too large for the database (ids and table
numbers are 32-bit integers on PostgreSQL; SQLite refuses more than 64
bits). So every number from outside is read here: ASCII digits only, its
length checked before it is converted, then its range. The engine, the
store, the tournament and the app use these, never ``int()`` on what a
user or a file gave.
"""

from __future__ import annotations

# Ids and numbers the database stores as 32-bit integers (PostgreSQL's INTEGER).
MAX_ID = 2**31 - 1
# A record's numbers are read up to Python's own limit for int() (4,300 digits): a call of 10**30 is a
# legal record (records.md: a multiple of 5) that the rules then judge; past the limit, int() would raise
# an error of its own, so such a number is refused here as an unreadable record, its digits counted first.
MAX_RECORD_DIGITS = 4300


class NumberRefused(ValueError):
    """A text that is not a whole number in the range asked for; ``str(err)`` says what is allowed."""


def read_whole(text: str, *, lowest: int = 0, highest: int = MAX_ID, what: str = "a number") -> int:
    """``text`` (spaces around it aside) as a whole number from ``lowest`` to ``highest``.

    Raises ``NumberRefused`` ("the event must be a whole number from 1 to
    2147483647, not '12x'"), its digits counted before any conversion; a
    leading minus is read only when ``lowest`` is below zero.
    """
    digits = text.strip()
    negative = lowest < 0 and digits.startswith("-")
    body = digits[1:] if negative else digits
    widest = len(str(max(abs(lowest), abs(highest))))
    if body.isascii() and body.isdigit() and len(body.lstrip("0") or "0") <= widest:
        value = -int(body) if negative else int(body)
        if lowest <= value <= highest:
            return value
    shown = digits if len(digits) <= 20 else f"{digits[:12]}... ({len(digits)} characters)"
    raise NumberRefused(f"{what} must be a whole number from {lowest} to {highest}, not {shown!r}")


def record_int(text: str) -> int:
    """An integer written in a record's JSON (``json.loads(..., parse_int=record_int)``).

    Raises ``NumberRefused`` for one of more than ``MAX_RECORD_DIGITS``
    digits, before converting it.
    """
    length = len(text.removeprefix("-"))
    if length > MAX_RECORD_DIGITS:
        raise NumberRefused(f"a number of {length} digits is too long; at most {MAX_RECORD_DIGITS} digits are read")
    return int(text)


def count_words(number: int, thing: str) -> str:
    """``1 tile``, ``2 tiles``: a count with its noun in the right number."""
    return f"{number} {thing}" if number == 1 else f"{number} {thing}s"
