"""Text made safe for a terminal: what the command line prints of names and other stored text.

A name that holds a newline or an escape sequence (``ESC[2J``) would forge a
line of the referee's account or clear the screen; a lone surrogate cannot be
written as UTF-8 at all. Every text the command line prints goes through
``printable``, which writes such characters as visible escapes instead.
"""

from __future__ import annotations


def _escape(char: str) -> str:
    code = ord(char)
    if char == "\n":
        return "\\n"
    if char == "\t":
        return "\\t"
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def printable(text: str) -> str:
    """``text`` with every character a terminal would act on, or cannot show, written as an escape.

    Control characters (C0, DEL, C1), invisible format characters such as a
    right-to-left override, line and paragraph separators and lone surrogates
    become ``\\x1b``, ``\\n``, ``\\u202e`` ...; spaces and every visible
    character of any script are kept. A backslash is kept as it is.
    """
    if text.isprintable():
        return text
    return "".join(char if char == " " or char.isprintable() else _escape(char) for char in text)
