"""Tests only: a bug injected into a served score-pad, so a browser test can watch a page die.

A server started with this folder on ``PYTHONPATH`` imports this module at
start-up (Python's ``sitecustomize`` hook). With ``SCOREPAD_TEST_BUG=6-6``
in its environment, tapping that tile on a table raises, as a bug in the
view-model would; every other tile works, so a reloaded page can go on.
Nothing of this ships in the score-pad.
"""

from __future__ import annotations

import os

BUG_TILE = os.environ.get("SCOREPAD_TEST_BUG", "")

if BUG_TILE:
    from typing import Any

    from scorepad.app.models.table import Table

    _tap_tile = Table.tap_tile

    def _buggy_tap_tile(self: Table, a: int, b: int, *args: Any, **kwargs: Any) -> Any:
        if f"{min(a, b)}-{max(a, b)}" == BUG_TILE:
            raise RuntimeError(f"injected bug on tile {BUG_TILE}: SELECT * FROM entries in /srv/table.py")
        return _tap_tile(self, a, b, *args, **kwargs)

    Table.tap_tile = _buggy_tap_tile  # type: ignore[method-assign]
