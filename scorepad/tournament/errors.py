"""The tournament's errors: each message is one plain sentence for the director or the table."""

from __future__ import annotations


class TournamentError(ValueError):
    """A tournament action that cannot be done as asked (the message says why)."""


class PairingError(TournamentError):
    """No round can be made from these entrants, byes and forbidden pairs."""


class AccessDenied(TournamentError):
    """The caller's role may not do this (or the credential is unknown or expired)."""


class TooManyAttempts(AccessDenied):
    """Too many wrong passwords or table codes from one place: wait before trying again."""
