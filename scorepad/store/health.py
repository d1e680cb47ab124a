"""Is the database usable? The check ``scorepad web`` and the store commands make before they start.

A server that starts on a database it cannot use greets every visitor with a
crash screen (issue 11 §4). ``check_database`` opens the store the way the
app will (which brings the schema to head, or refuses one written by a newer
scorepad), then proves the database takes a write with a change it rolls
back. It raises ``DatabaseUnusable`` with one plain sentence naming the
database and the reason: the server refused the connection, no such
PostgreSQL database, a newer schema, a file that is not a database, a missing
directory, a read-only file.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.engine import URL
from sqlalchemy.exc import SQLAlchemyError

from scorepad.store.db import session_scope, writer
from scorepad.store.errors import SchemaTooNew, StoreError
from scorepad.store.settings import StoreSettings, load_settings, resolve_url
from scorepad.store.store import Store, open_store


class DatabaseUnusable(StoreError):
    """The database cannot be opened, migrated or written; ``str(err)`` says which and why."""


def describe(url: URL) -> str:
    """The database as a user would name it: the SQLite file, or the URL without its password."""
    if url.get_backend_name() == "sqlite":
        return url.database or "an in-memory SQLite database"
    return url.render_as_string(hide_password=True)


def _reason(err: BaseException) -> str:
    """The first line of the driver's own message, which is already plain ("Connection refused")."""
    inner = getattr(err, "orig", None) or err
    lines = [line.strip() for line in str(inner).strip().splitlines() if line.strip()]
    return " ".join(lines[0].rstrip(".").split()) if lines else type(inner).__name__


def open_checked(url: str | None = None, *, settings: StoreSettings | None = None) -> Store:
    """Open the store and check that it takes writes; the caller closes it.

    Raises ``DatabaseUnusable`` (one sentence) for any reason the database
    cannot serve the score-pad, ``ValueError`` for a URL that cannot be read
    (``SettingsError`` for a bad ``SCOREPAD_*`` setting).
    """
    settings = settings or load_settings()
    resolved = resolve_url(url, settings)
    name = describe(resolved)
    if resolved.get_backend_name() == "sqlite" and resolved.database not in (None, "", ":memory:"):
        folder = Path(resolved.database).expanduser().parent
        if not folder.is_dir():
            raise DatabaseUnusable(f"cannot use the database {name}: the folder {folder} does not exist")
    try:
        store = open_store(resolved.render_as_string(hide_password=False), settings=settings)
    except SchemaTooNew as err:
        raise DatabaseUnusable(f"cannot use the database {name}: {err}") from err
    except (SQLAlchemyError, sqlite3.Error, OSError) as err:
        raise DatabaseUnusable(f"cannot use the database {name}: {_reason(err)}") from err
    try:
        _prove_writable(store)
    except (SQLAlchemyError, sqlite3.Error, OSError) as err:
        store.close()
        raise DatabaseUnusable(f"cannot write to the database {name}: {_reason(err)}") from err
    return store


def check_database(url: str | None = None, *, settings: StoreSettings | None = None) -> None:
    """Check that the database can serve the score-pad, and close it again.

    Raises ``DatabaseUnusable`` with one plain sentence, or ``ValueError``
    for a URL that cannot be read.
    """
    open_checked(url, settings=settings).close()


class _Probe(Exception):
    """Raised inside the probe's transaction so that it is rolled back."""


def _prove_writable(store: Store) -> None:
    """Write to the schema's own version row and roll it back: read-only files and roles fail here."""
    try:
        with session_scope(writer(store.engine)) as session:
            session.execute(text("UPDATE alembic_version SET version_num = version_num"))
            raise _Probe
    except _Probe:
        return
