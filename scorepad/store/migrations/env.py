"""Alembic environment of the store.

Run by ``scorepad.store.migrate.upgrade`` with a connection already inside a
transaction (``config.attributes["connection"]``), or from the command line:
``uv run alembic -c scorepad/store/alembic.ini upgrade head`` (the database
from ``-x db=URL``, else ``SCOREPAD_DATABASE_URL``, else the default file).
"""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from scorepad.store.db import make_engine, writer
from scorepad.store.models import metadata
from scorepad.store.settings import resolve_url

# Any fixed number: PostgreSQL serialises concurrent migrations on this lock,
# so two devices starting at once do not both create the tables.
MIGRATION_LOCK_KEY = 7_140_311


def run_on(connection: Connection) -> None:
    """Run the pending migrations on ``connection``."""
    context.configure(
        connection=connection,
        target_metadata=metadata,
        # SQLite cannot ALTER most things in place; batch mode copies the table.
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        if connection.dialect.name == "postgresql":
            connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK_KEY})")
        context.run_migrations()


def run_from_command_line() -> None:
    """Open the database named by ``-x db=URL`` (or the default) and migrate it."""
    url = resolve_url(context.get_x_argument(as_dictionary=True).get("db"))
    if context.is_offline_mode():
        context.configure(url=url, target_metadata=metadata, literal_binds=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = make_engine(url)
    try:
        with writer(engine).connect() as connection:
            run_on(connection)
            connection.commit()
    finally:
        engine.dispose()


given = context.config.attributes.get("connection")
if given is not None:
    run_on(given)
else:
    run_from_command_line()
