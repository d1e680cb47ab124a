"""Alembic owns the schema: an empty database upgraded to head matches the models."""

from __future__ import annotations

import multiprocessing
import threading

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text
from sqlalchemy.engine import make_url

from scorepad.store import SchemaTooNew, open_store
from scorepad.store.db import make_engine
from scorepad.store.migrate import alembic_config, downgrade, upgrade
from scorepad.store.models import metadata


def _differences(engine) -> list:  # type: ignore[no-untyped-def]
    with engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        return compare_metadata(context, metadata)


def test_empty_database_upgraded_to_head_matches_the_models(db_url: str) -> None:
    engine = make_engine(make_url(db_url))
    try:
        assert inspect(engine).get_table_names() == []
        upgrade(engine)
        assert _differences(engine) == []
        head = ScriptDirectory.from_config(alembic_config()).get_current_head()
        with engine.connect() as conn:
            assert MigrationContext.configure(conn).get_current_revision() == head
    finally:
        engine.dispose()


def test_downgrade_to_base_and_back(db_url: str) -> None:
    engine = make_engine(make_url(db_url))
    try:
        upgrade(engine)
        downgrade(engine, "base")
        assert set(inspect(engine).get_table_names()) <= {"alembic_version"}
        upgrade(engine)
        assert _differences(engine) == []
    finally:
        engine.dispose()


def _open_and_close(url: str) -> None:
    open_store(url).close()


def test_two_processes_open_a_fresh_database_at_once(db_url: str) -> None:
    """Two devices starting together: one migrates, the other finds the schema ready."""
    context = multiprocessing.get_context("fork")
    with context.Pool(2) as pool:
        pool.map(_open_and_close, [db_url, db_url])
    with open_store(db_url) as store:
        assert _differences(store.engine) == []


def test_two_threads_open_a_fresh_database_at_once(db_url: str) -> None:
    errors: list[BaseException] = []
    barrier = threading.Barrier(2)

    def start() -> None:
        try:
            barrier.wait()
            open_store(db_url).close()
        except BaseException as err:  # reported below
            errors.append(err)

    threads = [threading.Thread(target=start) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []


def test_a_database_from_a_newer_scorepad_is_refused(db_url: str) -> None:
    with open_store(db_url) as store, store.engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    with pytest.raises(SchemaTooNew, match="newer scorepad") as caught:
        open_store(db_url)
    assert "\n" not in str(caught.value)
