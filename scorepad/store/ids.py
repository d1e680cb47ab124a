"""Match ids as users type them: on the command line (``export ID``) and in page addresses (``/match/ID``)."""

from __future__ import annotations

from scorepad.store.errors import UnknownMatch

# Ids are stored as 32-bit integers on PostgreSQL (and fit SQLite's 64): a larger number is no match,
# and must not reach the database ("Python int too large to convert to SQLite INTEGER").
MAX_MATCH_ID = 2**31 - 1


def parse_match_id(text: str) -> int:
    """The match id in ``text``; raises ``UnknownMatch`` for anything that cannot be a stored match's id.

    Only ASCII digits count (``int()`` would also take ``'٣'`` or ``'1_000'``,
    and ``'²'.isdigit()`` is true yet ``int('²')`` fails), from 1 to ``MAX_MATCH_ID``.
    """
    digits = text.strip()
    if not (digits.isascii() and digits.isdigit()):
        raise UnknownMatch(repr(text))
    if len(digits) > 10 or not 1 <= int(digits) <= MAX_MATCH_ID:
        raise UnknownMatch(digits)
    return int(digits)
