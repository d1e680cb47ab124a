"""Applying the Alembic migrations (the only way the schema is created)."""

from __future__ import annotations

import threading
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.util import CommandError
from sqlalchemy.engine import Engine

from scorepad.store.db import writer
from scorepad.store.errors import SchemaTooNew

MIGRATIONS = Path(__file__).with_name("migrations")
# Alembic keeps its running context in module globals, so two threads of one
# process must not migrate at once. Separate processes are kept apart by the
# database (BEGIN IMMEDIATE on SQLite, an advisory lock on PostgreSQL).
_ALEMBIC = threading.Lock()


def alembic_config() -> Config:
    """An Alembic configuration pointing at the store's migrations."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the database up to ``revision`` in one transaction.

    A crash half way leaves the previous schema (DDL is transactional on both
    SQLite and PostgreSQL). Raises ``SchemaTooNew`` for a database migrated by
    a newer scorepad, and SQLAlchemy's errors if it cannot be reached or written.
    """
    config = alembic_config()
    with _ALEMBIC, writer(engine).begin() as connection:
        config.attributes["connection"] = connection
        try:
            command.upgrade(config, revision)
        except CommandError as err:
            # The database names a schema revision this scorepad does not have:
            # a newer version wrote it. Never guess at an unknown schema.
            raise SchemaTooNew(
                f"the database was written by a newer scorepad ({err}); update scorepad to open it"
            ) from err


def downgrade(engine: Engine, revision: str = "base") -> None:
    """Take the database down to ``revision`` (for tests and developers)."""
    config = alembic_config()
    with _ALEMBIC, writer(engine).begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, revision)
