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
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError, SQLAlchemyError
from sqlmodel import Session

try:
    from psycopg import Error as _PsycopgError
except ImportError:  # PostgreSQL support is optional at run time
    _PsycopgError = sqlite3.Error  # type: ignore[assignment,misc]

from scorepad.store.errors import (
    CompanionLost,
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
    settle: Callable[[Any], None] | None = None,
) -> T:
    """Run ``body(session)`` in one transaction and commit it; every database error told in one sentence.

    A connection found dead before the commit was sent (a PostgreSQL backend
    terminated, a server restarted) is retried once on a fresh connection:
    nothing of the first try can have been committed, and SQLAlchemy has
    marked every older pooled connection for replacement. A connection
    lost during the COMMIT itself is not retried (it may have landed):
    ``SaveUncertain``. ``check()`` runs before each try (the SQLite file's
    identity); ``settle(dbapi_connection)`` runs after the commit, on the
    connection that made it, before the result is handed back (the SQLite
    file's companions: see ``FileGuard.settle``). Raises ``StoreConflict``, a
    ``DatabaseUnavailable``, or what ``body`` raises.
    """
    for attempt in (1, 2):
        committing = False
        try:
            if check is not None:
                check()
            with engine.connect() as connection:
                with Session(connection, expire_on_commit=False) as session, session.begin():
                    result = body(session)
                    # Everything is sent before the COMMIT (the store's writes are Core statements,
                    # sent at once; ORM objects are flushed here): an error up to here left nothing behind.
                    if session.new or session.dirty or session.deleted:
                        session.flush()
                    committing = True
                if settle is not None:
                    settle(connection.connection.driver_connection)
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


# The files SQLite keeps beside a database in WAL mode: the log of the latest commits, and its index
# (shared memory, which every connection maps into its process).
COMPANIONS = ("-wal", "-shm")


@dataclass(frozen=True)
class _Seen:
    """A companion file as the guard last saw it."""

    device: int
    inode: int
    size: int


class FileGuard:
    """Notices that an SQLite database file or a file beside it vanished, was replaced, or stopped taking writes.

    A connection keeps writing to the file it opened even after that file was
    deleted or renamed over, and those writes are lost at the next start
    (issue 11: six entries acknowledged into a deleted file). So the store
    compares the file's identity (``st_dev``, ``st_ino``) with the one it
    opened before each write, and asks the kernel whether the files may be
    written (``os.access`` sees ``chattr +i`` and read-only mounts even for
    root).

    The same holds for the companions SQLite keeps beside the file (issue 17):
    entries committed into a ``-wal`` that was deleted live only in the
    connections that still have it open, so the guard watches the ``-wal``
    and ``-shm`` too, as long as this process has a connection open (SQLite
    itself removes them when the last one closes). When one is lost, what it
    held is copied into the database file through a connection that still
    has it open (a checkpoint), the pool is reopened on fresh files, and the
    caller is told in one sentence. A ``-shm`` that cannot be written or was
    cut short is refused before SQLite touches it, reading too: SQLite maps it
    into memory, and a page of the map that the file no longer backs, or that
    may not be written, kills the process with SIGBUS.
    """

    def __init__(self, path: str, engine: Engine | None = None) -> None:
        self.path = os.path.abspath(path)
        # None until the file exists (SQLite creates it on the first connection).
        self.identity: tuple[int, int] | None = None
        if os.path.exists(self.path):
            info = os.stat(self.path)
            self.identity = (info.st_dev, info.st_ino)
        self.companions: dict[str, _Seen] = {}
        self._engine = engine
        self._lock = threading.RLock()
        # The pool's connections of this process seen open on the file (by their pool record).
        self._open: set[Any] = set()
        if engine is not None:
            event.listen(engine.pool, "checkout", self._checked_out)
            event.listen(engine.pool, "close", self._closed)
            event.listen(engine.pool, "close_detached", self._closed)

    def _checked_out(self, _dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        with self._lock:
            self._open.add(record)

    def _closed(self, _dbapi_connection: Any, record: Any = None) -> None:
        with self._lock:
            self._open.discard(record)
            if not self._open:
                # SQLite removes the companions when its last connection closes: they are not lost.
                self.companions.clear()

    def check(self, *, writing: bool = True) -> None:
        """Raise a ``DatabaseUnavailable`` if the files cannot take this store's reads (or writes, ``writing``).

        ``DatabaseGone`` for a database file removed or replaced,
        ``ReadOnlyDatabase`` for files that may not be written (a read-only
        ``-shm`` also stops reads), ``CompanionLost`` for a ``-wal`` or
        ``-shm`` removed, replaced or cut short while in use, after what it
        held was copied into the database (``kept`` says whether that worked).
        """
        with self._lock:
            self._check_file(writing=writing)
            lost = self._lost_companion(writing=writing)
            if lost is not None:
                kept = self._keep(lost, None)
                raise CompanionLost(lost, saving=writing, kept=kept)

    def settle(self, dbapi_connection: Any) -> None:
        """After a commit on ``dbapi_connection``, before it is acknowledged: make sure the entry is on disk.

        If a companion was lost while the entry was being written, the entry
        went into a file nobody will find again; it is copied into the
        database through this very connection (which still has the file open).
        Raises ``SaveUncertain`` when that copy failed: the entry may be lost.
        """
        with self._lock:
            lost = self._lost_companion(writing=False, shm_usable=False)
            if lost is not None and not self._keep(lost, dbapi_connection):
                raise SaveUncertain(f"{lost}, and this entry may not have been kept")

    def _check_file(self, *, writing: bool) -> None:
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
        if writing and not os.access(self.path, os.W_OK):
            raise ReadOnlyDatabase(saving=writing)

    def _lost_companion(self, *, writing: bool, shm_usable: bool = True) -> str | None:
        """What happened to a companion file this process has open (a reason), or None if all is well.

        Raises ``ReadOnlyDatabase`` for a companion that may not be written
        (``shm_usable``: the ``-shm`` for reads too, the ``-wal`` for writes).
        """
        for suffix in COMPANIONS:
            name = self.path + suffix
            shown = os.path.basename(name)
            seen = self.companions.get(suffix)
            try:
                info = os.stat(name)
            except FileNotFoundError:
                if seen is not None:
                    return f"the file {shown} beside the database disappeared"
                continue
            except OSError as err:
                raise DatabaseUnavailable(_os_reason(err), saving=writing) from err
            if seen is not None and (info.st_dev, info.st_ino) != (seen.device, seen.inode):
                return f"the file {shown} beside the database was replaced by another file"
            if seen is not None and suffix == "-shm" and info.st_size < seen.size:
                return f"the file {shown} beside the database was cut short"
            if (shm_usable if suffix == "-shm" else writing) and not os.access(name, os.W_OK):
                raise ReadOnlyDatabase(f"the file {shown} beside the database is read-only", saving=writing)
            if self._open:
                self.companions[suffix] = _Seen(info.st_dev, info.st_ino, max(info.st_size, seen.size if seen else 0))
        return None

    def _keep(self, lost: str, dbapi_connection: Any) -> bool:
        """Copy what the lost companion held into the database file; then reopen the pool on fresh files.

        The copy is SQLite's checkpoint, run on a connection that still has
        the old files open (``dbapi_connection``, else one idle in the pool).
        A ``-shm`` cut short is first given its length back: the bytes lost
        read as zeros, which SQLite takes for an index to rebuild from the
        ``-wal``. Returns whether the copy was complete.
        """
        _log.error("%s; copying what it held into the database and reopening it", lost)
        shm = self.companions.get("-shm")
        shm_path = self.path + "-shm"
        try:
            if shm is not None and os.path.exists(shm_path) and os.stat(shm_path).st_size < shm.size:
                os.truncate(shm_path, shm.size)
        except OSError:
            pass  # cannot be given back (immutable too): reopening is all that is left
        if not os.access(shm_path, os.W_OK) and os.path.exists(shm_path):
            # Closing a connection writes into the -shm: with that refused, the process would die.
            return False
        kept = False
        try:
            if dbapi_connection is not None:
                kept = _checkpoint(dbapi_connection)
            elif self._engine is not None:
                raw = self._engine.raw_connection()
                try:
                    kept = _checkpoint(raw.driver_connection)
                finally:
                    raw.close()
        except (SQLAlchemyError, sqlite3.Error) as err:
            _log.error("the copy into the database failed: %s", err)
        self.companions.clear()
        if self._engine is not None:
            self._engine.dispose()
        return kept


def _checkpoint(dbapi_connection: Any) -> bool:
    """Copy every committed page of the WAL into the database file and empty the WAL; whether all were copied."""
    busy, _log_pages, _copied = dbapi_connection.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    return busy == 0
