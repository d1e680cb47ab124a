"""Match ids as users type them: on the command line (``export ID``) and in page addresses (``/match/ID``)."""

from __future__ import annotations

from scorepad.rules.numbers import MAX_ID, NumberRefused, read_whole
from scorepad.store.errors import UnknownMatch

# Ids are stored as 32-bit integers on PostgreSQL (and fit SQLite's 64): a larger number is no match,
# and must not reach the database ("Python int too large to convert to SQLite INTEGER").
MAX_MATCH_ID = MAX_ID


def parse_match_id(text: str) -> int:
    """The match id in ``text``; raises ``UnknownMatch`` for anything that cannot be a stored match's id.

    Read by ``scorepad.rules.numbers.read_whole``: ASCII digits only, their
    count checked before conversion, from 1 to ``MAX_MATCH_ID``.
    """
    try:
        return read_whole(text, lowest=1, highest=MAX_MATCH_ID, what="a match id")
    except NumberRefused:
        digits = text.strip()
        if not (digits.isascii() and digits.isdigit()):
            raise UnknownMatch(repr(text)) from None
        raise UnknownMatch(digits if len(digits) <= 20 else f"{digits[:12]}... ({len(digits)} digits)") from None
