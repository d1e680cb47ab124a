"""One family of errors, each carrying one plain sentence for the user.

Modelled on python-chess: every error is a ``ValueError`` whose message says
what is wrong and what the rules allowed, so callers can show ``str(err)``.
"""

from __future__ import annotations


class SniffError(ValueError):
    """Base of every error the rules engine raises; ``str()`` is one plain line."""


class RecordFormatError(SniffError):
    """The input is not a readable sniff-record/1 (the referee exits with 2)."""


class IllegalEventError(SniffError):
    """One event (a play, draw, pass, claim, settlement ...) the rules refuse here.

    The hand or match it was offered to is left exactly as it was.
    """


class IllegalRecordError(SniffError):
    """A readable record that the rules refuse (the referee exits with 1).

    The message starts ``hand H event E:`` or ``hand H:`` (numbered from 1).
    """

    def __init__(self, message: str, *, hand: int | None = None, event: int | None = None):
        where = ""
        if hand is not None:
            where = f"hand {hand} event {event}: " if event is not None else f"hand {hand}: "
        super().__init__(where + message)
        self.hand = hand
        self.event = event
