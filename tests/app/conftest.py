"""Fixtures for the table app's tests: a real store on a temporary SQLite file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from scorepad.store import Store, open_store


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """Keep each phase's report on the test item, so fixtures can tell a failed test at teardown."""
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)


@pytest.fixture(autouse=True)
def _pages_closed() -> Iterator[None]:
    """Close the in-process pages a test left open, so none still follows a match in the next test."""
    yield
    from tests.app.wiring import close_all

    close_all()


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    """A fresh SQLite database file."""
    return f"sqlite:///{tmp_path / 'scorepad.db'}"


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    """The real store on a fresh database."""
    opened = open_store(url=db_url)
    try:
        yield opened
    finally:
        opened.close()
