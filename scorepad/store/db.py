"""Engine and session setup for SQLite and PostgreSQL.

SQLite: WAL journal (readers never block the writer, and a crashed writer
leaves the file whole), foreign keys on, a busy timeout, and explicit
``BEGIN`` statements so that write transactions take the write lock up front
(``BEGIN IMMEDIATE``) and migrations run inside a real transaction.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import URL, Connection, Engine
from sqlalchemy.pool import StaticPool
from sqlmodel import Session, create_engine

from scorepad.store.settings import StoreSettings

# Execution option read by the SQLite "begin" hook: how to open a transaction.
SQLITE_BEGIN = "scorepad_sqlite_begin"


def make_engine(url: URL, settings: StoreSettings | None = None) -> Engine:
    """An engine for ``url`` with the store's connection settings applied."""
    settings = settings or StoreSettings()
    if url.get_backend_name() == "sqlite":
        return _sqlite_engine(url, settings)
    # No pre-ping: it is one more round trip on every transaction, and each tap waits for it.
    # A connection found dead is retried once on a fresh one (``faults.transaction``), and
    # SQLAlchemy then replaces every pooled connection older than the failure.
    return create_engine(url)


def _sqlite_engine(url: URL, settings: StoreSettings) -> Engine:
    in_memory = url.database in (None, "", ":memory:")
    kwargs: dict[str, Any] = {"connect_args": {"check_same_thread": False}}
    if in_memory:
        # One shared connection, or every session would see its own empty DB.
        kwargs["poolclass"] = StaticPool
    engine = create_engine(url, **kwargs)

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # pysqlite would otherwise open transactions lazily and commit DDL on
        # its own; the "begin" hook below issues BEGIN instead.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout={int(settings.busy_timeout_ms)}")
        if not in_memory:
            _use_wal(cursor, timeout_ms=settings.busy_timeout_ms)
            cursor.execute(f"PRAGMA synchronous={settings.sqlite_synchronous}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        mode = conn.get_execution_options().get(SQLITE_BEGIN, "DEFERRED")
        conn.exec_driver_sql(f"BEGIN {mode}")

    return engine


def _use_wal(cursor: Any, *, timeout_ms: int) -> None:
    """Put the file in WAL mode (it stays so), waiting out another process doing the same.

    SQLite answers "database is locked" at once, without its busy handler,
    when two connections switch a new file to WAL together: hence the retries.
    """
    deadline = time.monotonic() + timeout_ms / 1000
    while True:
        try:
            if cursor.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as err:
            if "locked" not in str(err) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


def writer(engine: Engine) -> Engine:
    """The same engine, opening transactions for writing.

    On SQLite the write lock is taken at BEGIN (``BEGIN IMMEDIATE``), so a
    writer waits for another (busy timeout) instead of failing half way when
    it upgrades a read lock. Elsewhere it is the engine itself.
    """
    if engine.dialect.name == "sqlite":
        return engine.execution_options(**{SQLITE_BEGIN: "IMMEDIATE"})
    return engine


@contextmanager
def session_scope(engine: Engine) -> Iterator[Session]:
    """A session in one transaction: committed on success, rolled back on error."""
    with Session(engine, expire_on_commit=False) as session, session.begin():
        yield session
