"""Fixtures of the tournament tests: the store's databases (SQLite, PostgreSQL) and a service on each."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

# The store's fixtures (a fresh SQLite file, a throw-away PostgreSQL schema), imported
# under the name pytest gives tests/store/conftest.py, so they are not a second copy.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from store.conftest import db_url, pg_base_url, pg_url, sqlite_url  # noqa: F401

from scorepad.store import Store, open_store
from scorepad.tournament import TournamentService

PASSWORD = "a long director password"


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:  # noqa: F811
    """An open store on each database in turn."""
    opened = open_store(db_url)
    try:
        yield opened
    finally:
        opened.close()


@pytest.fixture
def service(store: Store) -> TournamentService:
    """The tournament service on that store."""
    return TournamentService(store)
