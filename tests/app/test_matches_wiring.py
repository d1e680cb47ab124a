"""The new identifiers of issue 8 in a real Flet session (no browser): labels, renames, irregularities, history."""

from __future__ import annotations

import pytest

from scorepad.store import Store
from scorepad.store.matches import match_label

from .wiring import Wired

pytestmark = pytest.mark.asyncio


async def test_label_rename_irregularities_and_history_are_wired(store: Store) -> None:
    wired = await Wired(store, width=360, height=640).open()
    try:
        await wired.tap("new-match")
        await wired.type("match-label", "Table 2")
        await wired.tap("start-match")
        assert wired.text("turn") == "Ann to set"
        match_id = store.list_matches()[0].id
        assert match_label(store, match_id) == "Table 2"

        await wired.tap("irregular")
        assert {"void", "misdeal", "stands", "cancel-irregular", "confirm-irregular"} <= set(wired.identified())
        await wired.tap("misdeal")
        await wired.tap("misdeal-seat-0")
        preview = wired.text("irregular-preview")
        assert preview.startswith("Misdeal: Ann was dealt one tile too few and takes the missing tile")
        await wired.tap("cancel-irregular")
        assert not wired.exists("irregular-preview")

        await wired.tap("show-sheet")
        assert {"match-label", "rename-0", "rename-1", "save-names", "save-label"} <= set(wired.identified())
        await wired.type("rename-0", "Annie")
        await wired.tap("save-names")
        await wired.tap("show-table")
        assert wired.text("turn") == "Annie to set"

        await wired.tap("home")
        await wired.tap("history")
        assert wired.text(f"match-{match_id}").startswith("Table 2 · Annie, Bob · Smartt")
        await wired.tap(f"delete-{match_id}")
        assert "Delete Table 2: Annie, Bob" in wired.text("match-action-question")
        await wired.tap("cancel-match-action")
        assert wired.exists(f"match-{match_id}")
    finally:
        wired.close()
