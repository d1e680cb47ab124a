"""Shared test settings.

Tests that need PostgreSQL or Chromium carry the ``postgres`` or ``browser``
marker and skip, with the reason, where the thing is absent. CI sets
``SCOREPAD_REQUIRE=postgres,browser`` so that such a skip fails the run
instead: there, both must be present and the tests must run.
"""

from __future__ import annotations

import os

import pytest

REQUIRED = {name.strip() for name in os.environ.get("SCOREPAD_REQUIRE", "").split(",") if name.strip()}


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    """Turn the skip of a test whose resource this run requires into a failure."""
    outcome = yield
    report = outcome.get_result()
    if not (report.skipped and REQUIRED):
        return
    needed = sorted(REQUIRED & {mark.name for mark in item.iter_markers()})
    if needed:
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"SCOREPAD_REQUIRE={','.join(needed)} but the test was skipped: {reason}"
