"""Backing up an SQLite database while it serves, and putting a backup back.

Copying ``scorepad.db`` alone while the server runs misses what still waits
in its ``-wal`` (issue 17: 4 of 6 matches). ``back_up`` uses SQLite's online
backup API instead: it copies the database as one consistent snapshot,
``-wal`` included, while readers and writers go on (in WAL mode a reader never
blocks a writer). The copy is written beside its target, checked, and renamed
into place, so a half-written backup never carries the target's name.

``restore`` puts a backup back, and only when that is safe: the backup must
be a whole scorepad database, and nothing else may have the database open
(SQLite lets a connection leave WAL mode only when it is the only one, which
is how a running server is noticed). The database as it was is first copied
aside, so a restore never loses anything either.

PostgreSQL has its own tools, and these say so: ``pg_dump`` and
``pg_restore`` (see docs/store.md).
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy.engine import URL

# Tables every scorepad database holds, whatever its schema revision.
_REQUIRED_TABLES = ("alembic_version", "matches", "events")


class BackupRefused(ValueError):
    """A backup or restore that cannot be made safely; ``str(err)`` is one plain sentence."""


@dataclass(frozen=True)
class BackupDone:
    """What a backup or a restore did: the file written, the matches it holds, and (restore) where the old one went."""

    path: Path
    matches: int
    kept_aside: Path | None = None


def sqlite_file(url: URL, *, doing: str) -> Path:
    """The SQLite file ``url`` names; ``BackupRefused`` for PostgreSQL (its own tools) or an in-memory database."""
    if url.get_backend_name() != "sqlite":
        tool = "pg_dump" if doing == "back up" else "pg_restore (or psql for a plain dump)"
        raise BackupRefused(f"this database is on PostgreSQL: {doing} with {tool}, not scorepad (see docs/store.md)")
    if url.database in (None, "", ":memory:"):
        raise BackupRefused(f"an in-memory database cannot {doing}")
    return Path(url.database).expanduser()


def back_up(database: Path, target: Path) -> BackupDone:
    """Copy the SQLite ``database`` into the new file ``target``, safely while a server writes to it.

    Raises ``BackupRefused`` when ``database`` does not exist or is not a
    scorepad database, or ``target`` exists already; ``OSError`` or
    ``sqlite3.Error`` when the copy cannot be written.
    """
    if not database.is_file():
        raise BackupRefused(f"there is no database at {database}")
    if target.exists():
        raise BackupRefused(f"{target} exists already: give the backup a new name")
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        source = sqlite3.connect(f"{database.resolve().as_uri()}?mode=ro", uri=True)
        try:
            _check_scorepad(source, database)
            copy = sqlite3.connect(partial)
            try:
                # One step (pages=-1): the whole database as of one moment, the -wal's pages included.
                source.backup(copy)
                matches = _check_scorepad(copy, target)
                copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal beside it
            finally:
                copy.close()
        finally:
            source.close()
        _sync(partial)
        os.replace(partial, target)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    return BackupDone(path=target, matches=matches)


def restore(backup: Path, database: Path, *, now: datetime | None = None) -> BackupDone:
    """Put the backup ``backup`` back as the SQLite ``database``, keeping the database as it was aside.

    Refuses (``BackupRefused``) a backup that is missing, damaged or not a
    scorepad database, and a database that another program (a running
    ``scorepad web``) has open. The old database is first copied to
    ``<database>.before-restore-<UTC time>``; then the backup is copied in
    through SQLite's backup API, in one transaction of the database's own.
    """
    if not backup.is_file():
        raise BackupRefused(f"there is no backup at {backup}")
    if database.exists() and database.resolve() == backup.resolve():
        raise BackupRefused("the backup and the database are the same file")
    source = sqlite3.connect(f"{backup.resolve().as_uri()}?mode=ro", uri=True)
    try:
        matches = _check_scorepad(source, backup)
        existed = database.exists()
        target = sqlite3.connect(database, isolation_level=None, timeout=0)
        try:
            _only_user(target, database)
            kept_aside = None
            if existed:
                stamp = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%SZ")
                kept_aside = database.with_name(f"{database.name}.before-restore-{stamp}")
                back_up(database, kept_aside)
            source.backup(target)
            target.execute("PRAGMA journal_mode=WAL")
        finally:
            target.close()
    finally:
        source.close()
    return BackupDone(path=database, matches=matches, kept_aside=kept_aside)


def _only_user(connection: sqlite3.Connection, database: Path) -> None:
    """Raise ``BackupRefused`` unless ``connection`` is the only one open on ``database``.

    Leaving WAL mode needs every other connection closed: SQLite answers
    "database is locked" at once (``timeout=0``) while a server has it open.
    """
    try:
        mode = connection.execute("PRAGMA journal_mode=DELETE").fetchone()[0]
    except sqlite3.OperationalError as err:
        if "locked" not in str(err) and "busy" not in str(err):
            raise
        mode = "wal"
    if str(mode).lower() != "delete":
        raise BackupRefused(
            f"{database} is in use (a scorepad web or another program has it open): stop it, then restore"
        )


def _check_scorepad(connection: sqlite3.Connection, name: Path) -> int:
    """The number of matches in a whole scorepad database; ``BackupRefused`` for anything else."""
    try:
        if connection.execute("PRAGMA quick_check").fetchone()[0] != "ok":
            raise BackupRefused(f"{name} is damaged")
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not set(_REQUIRED_TABLES) <= tables:
            raise BackupRefused(f"{name} is not a scorepad database")
        return int(connection.execute("SELECT count(*) FROM matches").fetchone()[0])
    except sqlite3.DatabaseError as err:
        raise BackupRefused(f"{name} is not a scorepad database ({err})") from None


def _sync(path: Path) -> None:
    """Flush ``path`` to the disk before it is renamed into place."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
