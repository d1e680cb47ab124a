"""Database faults told in one plain sentence: the driver's errors turned into the store's.

Every error the database raises reaches the store's caller as a
``StoreError``: ``StoreConflict`` when another writer got there first (a
taken sequence number, a PostgreSQL serialisation failure or deadlock), and
otherwise a ``DatabaseUnavailable`` that says what is wrong (the disk is
full, another program holds the lock, the connection was lost, the file is
read-only or gone). SQLite is read by its result codes, PostgreSQL by its
SQLSTATE classes; the message text is only a fallback.
"""

from __future__ import annotations

import errno
import logging
import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError, SQLAlchemyError
from sqlmodel import Session

try:
    from psycopg import Error as _PsycopgError
except ImportError:  # PostgreSQL support is optional at run time
    _PsycopgError = sqlite3.Error  # type: ignore[assignment,misc]

from scorepad.store.errors import (
    ConnectionLost,
    DatabaseGone,
    DatabaseLocked,
    DatabaseUnavailable,
    DiskFull,
    ReadOnlyDatabase,
    SaveUncertain,
    StoreConflict,
    StoreError,
)

T = TypeVar("T")
# Any error of the database layer, for a caller above the store that reports it in a sentence
# (only the store imports SQL).
DATABASE_ERRORS: tuple[type[Exception], ...] = (SQLAlchemyError,)
_log = logging.getLogger("scorepad.store")

# PostgreSQL states that mean "another transaction got in the way; retry":
# unique violation, serialization failure, deadlock.
_PG_CONFLICTS = {"23505", "40001", "40P01"}
# PostgreSQL: 53xxx insufficient resources (53100 disk full), 08xxx connection
# exceptions, 57P01-57P03 the server shut the session down (pg_terminate_backend
# is 57P01), 25006 a read-only transaction, 55P03 a lock not available.
_PG_DISK_FULL = {"53100", "53200", "53400"}
_PG_GONE = {"57P01", "57P02", "57P03"}

# SQLite primary result codes (sqlite3.h): the low byte of an extended code.
_SQLITE_BUSY, _SQLITE_LOCKED, _SQLITE_READONLY, _SQLITE_IOERR = 5, 6, 8, 10
_SQLITE_CORRUPT, _SQLITE_FULL, _SQLITE_CANTOPEN, _SQLITE_CONSTRAINT, _SQLITE_NOTADB = 11, 13, 14, 19, 26


def is_conflict(err: BaseException) -> bool:
    """Whether a database error means another writer got there first (retrying is safe)."""
    orig = getattr(err, "orig", err)
    state = getattr(orig, "sqlstate", None)
    if state is not None:
        return state in _PG_CONFLICTS
    code = getattr(orig, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF == _SQLITE_CONSTRAINT and "unique" in str(orig).lower()
    return "unique constraint failed" in str(orig).lower()


def is_disconnect(err: BaseException) -> bool:
    """Whether the error means the connection itself died (SQLAlchemy invalidated it)."""
    if isinstance(err, DBAPIError) and err.connection_invalidated:
        return True
    orig = getattr(err, "orig", err)
    state = getattr(orig, "sqlstate", None)
    return state is not None and (state.startswith("08") or state in _PG_GONE)


def classify(err: BaseException, *, saving: bool = True) -> StoreError:
    """The store's error for a database error ``err``: one plain sentence, never the driver's text."""
    if isinstance(err, StoreError):
        return err
    if is_conflict(err):
        return StoreConflict()
    if is_disconnect(err):
        return ConnectionLost(saving=saving)
    orig = getattr(err, "orig", err)
    state = getattr(orig, "sqlstate", None)
    if state is not None:
        return _classify_postgres(state, saving=saving)
    code = getattr(orig, "sqlite_errorcode", None)
    text = str(orig).lower()
    if code is not None:
        found = _classify_sqlite(code & 0xFF, saving=saving)
        if found is not None:
            return found
    if "disk is full" in text or "disk full" in text:
        return DiskFull(saving=saving)
    if "locked" in text or "busy" in text:
        return DatabaseLocked(saving=saving)
    if "readonly" in text or "read-only" in text:
        return ReadOnlyDatabase(saving=saving)
    if "unable to open" in text:
        return DatabaseUnavailable("the database file cannot be opened", saving=saving)
    if "disk i/o" in text:
        return DatabaseUnavailable("the disk reported an error", saving=saving)
    return DatabaseUnavailable(saving=saving)


def _classify_postgres(state: str, *, saving: bool) -> StoreError:
    if state in _PG_DISK_FULL:
        return DiskFull(saving=saving)
    if state == "25006":
        return ReadOnlyDatabase("the database server is read-only", saving=saving)
    if state == "55P03":
        return DatabaseLocked(saving=saving)
    if state.startswith("28") or state == "3D000":
        return DatabaseUnavailable("the database server refused this score-pad", saving=saving)
    return DatabaseUnavailable(saving=saving)


def _classify_sqlite(code: int, *, saving: bool) -> StoreError | None:
    if code == _SQLITE_FULL:
        return DiskFull(saving=saving)
    if code in (_SQLITE_BUSY, _SQLITE_LOCKED):
        return DatabaseLocked(saving=saving)
    if code == _SQLITE_READONLY:
        return ReadOnlyDatabase(saving=saving)
    if code == _SQLITE_CANTOPEN:
        return DatabaseUnavailable("the database file cannot be opened", saving=saving)
    if code in (_SQLITE_CORRUPT, _SQLITE_NOTADB):
        return DatabaseUnavailable("the database file is damaged", saving=saving)
    if code == _SQLITE_IOERR:
        return DatabaseUnavailable("the disk reported an error", saving=saving)
    return None


@contextmanager
def told(*, saving: bool = True) -> Iterator[None]:
    """Turn any database error raised inside into the store's one-sentence error.

    The store's own errors pass through; SQLAlchemy's, the drivers' and the
    file system's become ``StoreConflict`` or a ``DatabaseUnavailable``.
    """
    try:
        yield
    except StoreError:
        raise
    except (SQLAlchemyError, sqlite3.Error, _PsycopgError) as err:
        raise classify(err, saving=saving) from err
    except OSError as err:
        raise DatabaseUnavailable(_os_reason(err), saving=saving) from err


def _os_reason(err: OSError) -> str:
    if err.errno == errno.ENOSPC:
        return "the disk is full"
    if err.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return "the database file is read-only"
    if err.errno == errno.ENOENT:
        return "the database file has disappeared"
    return "the disk reported an error"


def transaction(
    engine: Engine,
    body: Callable[[Session], T],
    *,
    saving: bool = True,
    check: Callable[[], None] | None = None,
) -> T:
    """Run ``body(session)`` in one transaction and commit it; every database error told in one sentence.

    A connection found dead before the commit was sent (a PostgreSQL backend
    terminated, a server restarted) is retried once on a fresh connection:
    nothing of the first try can have been committed, and SQLAlchemy has
    marked every older pooled connection for replacement. A connection
    lost during the COMMIT itself is not retried (it may have landed):
    ``SaveUncertain``. ``check()`` runs before each try (the SQLite file's
    identity). Raises ``StoreConflict``, a ``DatabaseUnavailable``, or what
    ``body`` raises.
    """
    for attempt in (1, 2):
        committing = False
        try:
            if check is not None:
                check()
            with Session(engine, expire_on_commit=False) as session, session.begin():
                result = body(session)
                # Everything is sent before the COMMIT (the store's writes are Core statements,
                # sent at once; ORM objects are flushed here): an error up to here left nothing behind.
                if session.new or session.dirty or session.deleted:
                    session.flush()
                committing = True
            return result
        except StoreError:
            raise
        except (SQLAlchemyError, sqlite3.Error, _PsycopgError) as err:
            if is_disconnect(err):
                if committing and saving:
                    raise SaveUncertain() from err
                if attempt == 1:
                    _log.warning("the database connection was lost; trying once more on a new one")
                    continue
            raise classify(err, saving=saving) from err
        except OSError as err:
            raise DatabaseUnavailable(_os_reason(err), saving=saving) from err
    raise AssertionError("unreachable")  # pragma: no cover


class FileGuard:
    """Notices that an SQLite database file vanished, was replaced, or stopped taking writes.

    A connection keeps writing to the file it opened even after that file was
    deleted or renamed over, and those writes are lost at the next start
    (issue 11: six entries acknowledged into a deleted file). So the store
    compares the file's identity (``st_dev``, ``st_ino``) with the one it
    opened before each write, and asks the kernel whether the files may be
    written (``os.access`` sees ``chattr +i`` and read-only mounts even for
    root).
    """

    def __init__(self, path: str) -> None:
        self.path = os.path.abspath(path)
        # None until the file exists (SQLite creates it on the first connection).
        self.identity: tuple[int, int] | None = None
        if os.path.exists(self.path):
            info = os.stat(self.path)
            self.identity = (info.st_dev, info.st_ino)

    def check(self, *, writing: bool = True) -> None:
        """Raise ``DatabaseGone`` or ``ReadOnlyDatabase`` if the file cannot take this store's writes."""
        try:
            info = os.stat(self.path)
        except FileNotFoundError:
            if self.identity is None:
                return
            raise DatabaseGone(saving=writing) from None
        except OSError as err:
            raise DatabaseUnavailable(_os_reason(err), saving=writing) from err
        if self.identity is None:
            self.identity = (info.st_dev, info.st_ino)
        elif (info.st_dev, info.st_ino) != self.identity:
            raise DatabaseGone("the database file was replaced by another file", saving=writing)
        if writing:
            for name in (self.path, self.path + "-wal", self.path + "-shm"):
                if not os.access(name, os.W_OK) and (name == self.path or os.path.exists(name)):
                    raise ReadOnlyDatabase(saving=writing)
