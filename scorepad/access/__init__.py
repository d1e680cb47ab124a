"""The one door: who is calling, and may they make this write. Every write from every route passes here.

The store calls ``authorize`` inside the transaction of every write to a
match (``scorepad.store``), with the facts it has just read of that match, so
no page, command or service can write around it; the tournament service
calls it for the acts that are its own (a confirmation). The policy is pure:
it reads no database and imports neither Flet nor SQL.
"""

from scorepad.access.callers import Caller, Who
from scorepad.access.policy import MatchFacts, Refused, TableFacts, Write, authorize, authorize_confirmation

__all__ = [
    "Caller",
    "MatchFacts",
    "Refused",
    "TableFacts",
    "Who",
    "Write",
    "authorize",
    "authorize_confirmation",
]
