"""Fixtures for the store tests: an SQLite file per test, a PostgreSQL schema per test."""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from scorepad.store import Store, open_store

DEFAULT_PG_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


@pytest.fixture(scope="session")
def pg_base_url() -> str:
    """The PostgreSQL server's URL.

    Skips, with the reason, only when nothing listens at the server's address;
    a server that answers but refuses us is a failure. (In CI,
    ``SCOREPAD_REQUIRE=postgres`` turns that skip into a failure: tests/conftest.py.)
    """
    url = os.environ.get("SCOREPAD_TEST_POSTGRES_URL", DEFAULT_PG_URL)
    parsed = make_url(url)
    address = (parsed.host or "127.0.0.1", parsed.port or 5432)
    try:
        socket.create_connection(address, timeout=3).close()
    except OSError as err:
        pytest.skip(f"PostgreSQL unreachable at {address[0]}:{address[1]} ({err})")
    engine = create_engine(url, connect_args={"connect_timeout": 5})
    try:
        with engine.connect() as conn:
            conn.execute(text("select 1"))
    finally:
        engine.dispose()
    return url


@pytest.fixture
def pg_url(pg_base_url: str) -> Iterator[str]:
    """A URL whose connections live in a fresh schema, dropped after the test."""
    schema = f"scorepad_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(pg_base_url)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = make_url(pg_base_url).update_query_dict({"options": f"-csearch_path={schema}"})
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """A fresh SQLite file."""
    return f"sqlite:///{tmp_path / 'store.db'}"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest) -> str:
    """Each database in turn: SQLite, then PostgreSQL."""
    if request.param == "sqlite":
        return request.getfixturevalue("sqlite_url")
    return request.getfixturevalue("pg_url")


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    """An open store on each database in turn."""
    opened = open_store(db_url)
    try:
        yield opened
    finally:
        opened.close()
