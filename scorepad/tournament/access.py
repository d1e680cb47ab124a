"""Who may do what in a tournament: roles, sign-in, table codes and the rate limit, checked on the server.

Four roles. The *director* signs in with the event's password and may do
everything. A *table* signs in with its table code and may only score and
confirm its own table's match, and only while that table's round is the
event's current round and is not locked: the code expires with the round.
The *hall* screen (a token the director issues) and a *spectator* (no
credential at all) may only read. ``Gate.require`` is called at the start of
every service method, so a web page that hides a button is never the only
guard.

Secrets are never stored in clear: the password and the table codes as
argon2id hashes, session tokens as the SHA-256 of 32 random bytes (a token
is as strong as a key, so a fast digest is enough to look it up); a
director's or hall screen's sign-in lasts ``SESSION_LIFETIME``. Wrong
passwords and codes are rate-limited per event and per source address, in
the database, so the limit holds across server processes.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from datetime import datetime, timedelta
from enum import StrEnum

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from scorepad.access import Caller, Who
from scorepad.rules.numbers import NumberRefused, read_whole
from scorepad.store import tournament_repo as repo
from scorepad.store.db import session_scope, writer
from scorepad.store.models import as_utc, utcnow
from scorepad.store.tournament_repo import Engine
from scorepad.tournament.errors import AccessDenied, TooManyAttempts, TournamentError

# OWASP's lower argon2id parameters, as the app's join code uses: tens of milliseconds a check.
_HASHER = PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1)

# Wrong attempts allowed per event and source within the window, before a wait.
ATTEMPT_LIMIT = 5
ATTEMPT_WINDOW = timedelta(seconds=60)
PASSWORD_MIN = 8
PASSWORD_MAX = 1024
# A director's or hall screen's sign-in lasts a long tournament day, then must be renewed.
SESSION_LIFETIME = timedelta(hours=16)
# Table codes: the table's number, a dash, six letters and digits that cannot be misread.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6


class Role(StrEnum):
    """The four roles of an event."""

    DIRECTOR = "director"
    TABLE = "table"
    HALL = "hall"
    SPECTATOR = "spectator"


class Action(StrEnum):
    """Everything a caller may ask of a tournament."""

    REGISTER = "register"
    WITHDRAW = "withdraw"
    FORBID = "forbid"
    PAIR = "pair"
    REPAIR = "repair"
    LOCK = "lock"
    REOPEN = "reopen a round"  # the latest, locked, with a reason
    ISSUE = "issue"  # hall tokens, new table codes
    EXPORT = "export"
    FORFEIT = "forfeit"  # a forfeit at a table, with a reason
    UNFORFEIT = "take back a forfeit"
    RESETTLE = "settle a hand again"  # a finished hand's settlement, with the right figures and a reason
    SCORE = "score"  # an entry at a table
    CONFIRM = "confirm"
    VIEW = "view"  # pairings, standings, results, the audit, verify-pairings


# What a refusal calls an action whose name is not already words ("a table may not re-pair a round").
ACTION_WORDS = {
    Action.REGISTER: "register an entrant",
    Action.WITHDRAW: "withdraw an entrant",
    Action.FORBID: "keep two entrants apart",
    Action.PAIR: "pair a round",
    Action.REPAIR: "re-pair a round",
    Action.LOCK: "lock a round",
    Action.ISSUE: "issue a code",
    Action.EXPORT: "export the event",
    Action.FORFEIT: "give a forfeit",
    Action.CONFIRM: "confirm a hand",
    Action.VIEW: "view the event",
}

# The door's caller for each stored role.
WHO = {Role.DIRECTOR: Who.DIRECTOR, Role.TABLE: Who.TABLE, Role.HALL: Who.HALL, Role.SPECTATOR: Who.SPECTATOR}

ALLOWED: dict[Action, frozenset[Who]] = {
    **{a: frozenset({Who.DIRECTOR}) for a in Action},
    Action.SCORE: frozenset({Who.DIRECTOR, Who.TABLE}),
    Action.CONFIRM: frozenset({Who.DIRECTOR, Who.TABLE}),
    Action.VIEW: frozenset(WHO.values()),
}


def hash_secret(secret: str) -> str:
    """The argon2id hash of a password or table code (what is stored)."""
    return _HASHER.hash(secret)


def verify_secret(stored: str, given: str) -> bool:
    """Whether ``given`` matches the argon2 hash ``stored`` (slow by design); text that is not UTF-8 never does."""
    try:
        return _HASHER.verify(stored, given)
    except (VerificationError, InvalidHashError, UnicodeEncodeError):
        return False


def check_password(password: object) -> str:
    """A director's password as accepted. Raises ``TournamentError`` for a short, long or missing one.

    A password holding a lone surrogate (bytes that are not UTF-8, as a
    terminal may pass them) cannot be hashed: refused in a sentence too.
    """
    if not isinstance(password, str) or not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise TournamentError(
            f"the director's password needs at least {PASSWORD_MIN} characters (and at most {PASSWORD_MAX})"
        )
    try:
        password.encode("utf-8")
    except UnicodeEncodeError:
        raise TournamentError("the director's password holds a character that is not text (not UTF-8)") from None
    return password


def new_table_code(table_number: int) -> str:
    """A fresh code for a table, such as ``3-K7QM2X`` (shown once, then kept only hashed)."""
    body = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    return f"{table_number}-{body}"


def _token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Gate:
    """Sign-in and the role check for every action, on the store's database."""

    def __init__(self, engine: Engine, *, clock: Callable[[], datetime] | None = None) -> None:
        self._engine = engine
        self._writer = writer(engine)
        self._clock: Callable[[], datetime] = clock or utcnow

    def now(self) -> datetime:
        """The gate's clock (tests may pass their own)."""
        return self._clock()

    # -- sign-in ---------------------------------------------------------------

    def login_director(self, event_id: int, password: str, *, source: str = "local") -> str:
        """A director's token for ``event_id`` if ``password`` is right.

        Raises ``TooManyAttempts`` after ``ATTEMPT_LIMIT`` wrong tries from
        ``source`` within a minute (the password is then not even checked)
        and ``AccessDenied`` for a wrong password or an unknown event.
        """
        key = f"director:{source}"
        attempt = self._count_attempt(event_id, key)
        with session_scope(self._engine) as session:
            event = repo.event(session=session, event_id=event_id)
            stored = event.director_hash if event is not None else None
        ok = stored is not None and verify_secret(stored, password)
        self._attempt_was_right(attempt, ok)
        if not ok:
            raise AccessDenied("wrong password for this event")
        return self._open_session(event_id, Role.DIRECTOR, None)

    def join_table(self, event_id: int, code: str, *, source: str = "local") -> str:
        """A table's token from its code (``3-K7QM2X``), valid while that round is current.

        Raises ``TooManyAttempts`` (as ``login_director``) and ``AccessDenied``
        for a wrong code or a code of a round that is over.
        """
        key = f"table:{source}"
        attempt = self._count_attempt(event_id, key)
        number_text, _, _ = (code or "").strip().upper().partition("-")
        table = None
        with session_scope(self._engine) as session:
            current = repo.latest_round(session=session, event_id=event_id)
            number = _table_number(number_text)
            if current is not None and current.id is not None and number is not None:
                table = repo.table_numbered(session=session, round_id=current.id, number=number)
            locked = current is not None and current.locked_at is not None
        ok = table is not None and table.code_hash is not None and verify_secret(table.code_hash, code.strip().upper())
        self._attempt_was_right(attempt, ok)
        if not ok or table is None:
            raise AccessDenied("that table code is wrong, or its round is over")
        if locked:
            raise AccessDenied("that table's round is locked: its code no longer works")
        return self._open_session(event_id, Role.TABLE, table.id)

    def issue_hall(self, caller: Caller) -> str:
        """A hall screen's token (read-only), issued by the director. Raises ``AccessDenied``."""
        self.permit(caller, Action.ISSUE)
        if caller.event_id is None:
            raise AccessDenied("the hall screen's token is issued by an event's director")
        return self._open_session(caller.event_id, Role.HALL, None)

    # -- the check ---------------------------------------------------------------

    def caller(self, token: str | None, event_id: int) -> Caller:
        """The caller a token stands for in ``event_id``; no token is a spectator.

        Raises ``AccessDenied`` for an unknown token, a token of another
        event, or a table's token whose round is over or locked.
        """
        if not token:
            return Caller(Who.SPECTATOR, event_id=event_id)
        # One statement (it runs before every entry of every table): the credential, its table, that
        # table's round, and the number of the event's latest round (the one tables play now).
        with session_scope(self._engine) as session:
            row = repo.credential(session=session, token_hash=_token_digest(token))
        if row is None or row[0] != event_id:
            raise AccessDenied("this sign-in is unknown for this event; sign in again")
        _event, role_name, created_at, table_id, table_number, match_id, round_event, round_number, locked_at, now = row
        role = Role(role_name)
        if role != Role.TABLE:
            if (as_utc(created_at) or self.now()) + SESSION_LIFETIME < self.now():
                raise AccessDenied("this sign-in has expired; sign in again")
            return Caller(WHO[role], event_id=event_id)
        if table_id is None or round_event != event_id or now is None or round_number != now:
            raise AccessDenied("this table code was for a round that is over")
        if locked_at is not None:
            raise AccessDenied(f"round {round_number} is locked: a table can no longer change it")
        return Caller(
            Who.TABLE,
            event_id=event_id,
            table_id=table_id,
            table_number=table_number,
            round_number=round_number,
            match_id=match_id,
        )

    def permit(self, caller: Caller, action: Action) -> Caller:
        """``caller`` if its role may do ``action``; raises ``AccessDenied`` otherwise."""
        if caller.who not in ALLOWED[action]:
            raise AccessDenied(
                f"{caller.who.value} may not {ACTION_WORDS.get(action, action.value)}: only the director may"
            )
        return caller

    def require(self, token: str | None, event_id: int, action: Action, *, table_id: int | None = None) -> Caller:
        """Check ``token`` for ``action`` in ``event_id`` (and, for a table, that it is ``table_id``).

        Raises ``AccessDenied``: unknown or expired credential, a role that
        may not, a table acting on another table.
        """
        caller = self.permit(self.caller(token, event_id), action)
        if caller.who == Who.TABLE and table_id is not None and caller.table_id != table_id:
            raise AccessDenied(f"table {caller.table_number} may only change its own table")
        return caller

    # -- internals ---------------------------------------------------------------

    def _open_session(self, event_id: int, role: Role, table_id: int | None) -> str:
        token = secrets.token_urlsafe(32)
        with session_scope(self._writer) as session:
            repo.add_session(
                session=session,
                event_id=event_id,
                token_hash=_token_digest(token),
                role=role.value,
                table_id=table_id,
                at=self.now(),
            )
        return token

    def _count_attempt(self, event_id: int, key: str) -> int | None:
        """Count a sign-in attempt as wrong before its secret is checked; returns its row's id (None: no such event).

        The check against the limit and the count are one transaction that
        holds the event's row (``FOR UPDATE`` on PostgreSQL; SQLite's write
        lock, taken at ``BEGIN IMMEDIATE``), so a burst of wrong passwords
        sent at once to several server processes lets at most
        ``ATTEMPT_LIMIT`` through to be checked. A right secret turns the
        count back (``_attempt_was_right``). Raises ``TooManyAttempts``.
        """
        now = self.now()
        with session_scope(self._writer) as session:
            if not repo.hold_event(session=session, event_id=event_id):
                return None
            failures, oldest = repo.failed_attempts(
                session=session, event_id=event_id, key=key, since=now - ATTEMPT_WINDOW
            )
            if failures >= ATTEMPT_LIMIT:
                wait = int(((as_utc(oldest) or now) + ATTEMPT_WINDOW - now).total_seconds()) + 1
                raise TooManyAttempts(f"too many wrong attempts from here; try again in {max(wait, 1)} s")
            return repo.add_attempt(session=session, event_id=event_id, key=key, ok=False, at=now)

    def _attempt_was_right(self, attempt: int | None, ok: bool) -> None:
        """Mark the counted attempt right (it no longer counts against the limit); a wrong one stays counted."""
        if attempt is None or not ok:
            return
        with session_scope(self._writer) as session:
            repo.attempt_was_right(session=session, attempt_id=attempt)


def _table_number(text: str) -> int | None:
    """The table number a code starts with, or None when it is not one (its size checked before conversion)."""
    try:
        return read_whole(text, lowest=1, what="a table number")
    except NumberRefused:
        return None
