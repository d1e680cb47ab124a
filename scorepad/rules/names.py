"""Player names: what a name may hold, checked in one place for records, imports and the form.

A name is printed on the table screen, in the referee's account and in the
match listing, and stored in the database. So it is limited (issue 11,
"Limits"): at most ``MAX_NAME_LENGTH`` characters, not blank, and printable
only: no control characters (a newline or ``ESC[2J`` would forge or wipe
lines of the referee's output), no invisible format characters (a
right-to-left override), no lone surrogates (which cannot be written as UTF-8
at all). Anything else, letters of any script and emoji included, is kept as
typed.
"""

from __future__ import annotations

import unicodedata

from scorepad.rules.errors import RecordFormatError

MAX_NAME_LENGTH = 40


def check_name(name: object, *, seat: int | None = None) -> str:
    """Return ``name`` when it is a usable player name; raise ``RecordFormatError`` saying why not.

    ``seat`` (from 0) names the player in the message ("player 2's name ...").
    The name is returned as given: a form strips the spaces around what was
    typed before calling this; a record's names are kept exactly.
    """
    who = f"player {seat + 1}'s name" if seat is not None else "a player's name"
    if not isinstance(name, str):
        raise RecordFormatError(f"{who} must be text, not {type(name).__name__}")
    if not name.strip():
        raise RecordFormatError(f"{who} is blank")
    if len(name) > MAX_NAME_LENGTH:
        raise RecordFormatError(f"{who} is {len(name)} characters long; at most {MAX_NAME_LENGTH} are allowed")
    for char in name:
        if char != " " and not char.isprintable():
            kind = "a control character" if unicodedata.category(char) == "Cc" else "a character that cannot be shown"
            raise RecordFormatError(f"{who} holds {kind} (U+{ord(char):04X}); use letters, digits and spaces")
    return name
