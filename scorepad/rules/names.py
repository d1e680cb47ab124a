"""Player names and other texts people type: what they may hold, checked in one place.

A name is printed on the table screen, in the referee's account and in the
match listing, and stored in the database. So it is limited (issue 11,
"Limits"): at most ``MAX_NAME_LENGTH`` characters, not blank, and printable
only: no control characters (a newline or ``ESC[2J`` would forge or wipe
lines of the referee's output), no invisible format characters (a
right-to-left override), no lone surrogates (which cannot be written as UTF-8
at all). Anything else, letters of any script and emoji included, is kept as
typed. A name that shows nothing (spaces, a Hangul filler, the braille blank,
combining marks alone) is blank.

The players of one match, and the entrants of one tournament, must have
names that differ once case, runs of spaces and the way a letter is encoded
are set aside (``name_key``: "Ann", "ann " and an "Ann" with its letters
written in another Unicode form are one name; issue 17). Matches, imports and
tournament registrations all check their names here (``check_names``,
``clean_names``); a tournament's other texts (its name, a club, a reason)
through ``check_text``.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from scorepad.rules.errors import RecordFormatError

MAX_NAME_LENGTH = 40
# Letters and symbols to Unicode that print as nothing: Hangul fillers and the braille blank.
_SHOWS_NOTHING = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def check_name(name: object, *, seat: int | None = None) -> str:
    """Return ``name`` when it is a usable player name; raise ``RecordFormatError`` saying why not.

    ``seat`` (from 0) names the player in the message ("player 2's name ...").
    The name is returned as given: a form strips the spaces around what was
    typed before calling this; a record's names are kept exactly.
    """
    who = f"player {seat + 1}'s name" if seat is not None else "a player's name"
    if not isinstance(name, str):
        raise RecordFormatError(f"{who} must be text, not {type(name).__name__}")
    if len(name) > MAX_NAME_LENGTH:
        raise RecordFormatError(f"{who} is {len(name)} characters long; at most {MAX_NAME_LENGTH} are allowed")
    _printable(name, who)
    if _shows_nothing(name):
        raise RecordFormatError(f"{who} is blank")
    return name


def name_key(name: str) -> str:
    """The form two names are compared in: spaces collapsed, NFKC, case folded ("Ann", "ann " and "ＡＮＮ" alike)."""
    folded = unicodedata.normalize("NFKC", " ".join(name.split())).casefold()
    return unicodedata.normalize("NFKC", folded)


def check_names(names: Sequence[object], *, who: str = "players") -> list[str]:
    """Each name checked by ``check_name``, and no two alike (``name_key``); the names as given.

    Raises ``RecordFormatError`` with the engine's reason, or "two players are
    called Ann: give each player a different name" (``who`` names them).
    """
    checked = [check_name(name, seat=seat) for seat, name in enumerate(names)]
    seen: set[str] = set()
    for name in checked:
        key = name_key(name)
        if key in seen:
            one = who.removesuffix("s")
            raise RecordFormatError(f"two {who} are called {name.strip()}: give each {one} a different name")
        seen.add(key)
    return checked


def clean_names(names: Sequence[object], *, who: str = "players") -> list[str]:
    """Names as a form stores them: runs of spaces made one and trimmed, then ``check_names``.

    Raises ``RecordFormatError`` (see ``check_names``).
    """
    return check_names([" ".join(str(name).split()) for name in names], who=who)


def check_text(text: object, *, what: str, most: int, required: bool = True) -> str | None:
    """A text typed for a tournament (its name, a club, a reason), trimmed; None for a blank optional one.

    Printable only and at most ``most`` characters, so nothing typed can
    forge a line of output or fill the database. Raises
    ``RecordFormatError`` naming ``what`` ("the event's name ...").
    """
    value = " ".join(str(text or "").split()) if isinstance(text, str | None) else None
    if value is None:
        raise RecordFormatError(f"{what} must be text, not {type(text).__name__}")
    if not value or _shows_nothing(value):
        if required:
            raise RecordFormatError(f"{what} is blank")
        return None
    if len(value) > most:
        raise RecordFormatError(f"{what} is {len(value)} characters long; at most {most} are allowed")
    _printable(value, what)
    return value


def _printable(text: str, who: str) -> None:
    for char in text:
        if char != " " and not char.isprintable():
            kind = "a control character" if unicodedata.category(char) == "Cc" else "a character that cannot be shown"
            raise RecordFormatError(f"{who} holds {kind} (U+{ord(char):04X}); use letters, digits and spaces")


def _shows_nothing(text: str) -> bool:
    """Whether ``text`` prints as nothing: only spaces, fillers and marks that combine with no letter."""
    return all(
        char.isspace() or char in _SHOWS_NOTHING or unicodedata.category(char) in ("Mn", "Me", "Cf") for char in text
    )
