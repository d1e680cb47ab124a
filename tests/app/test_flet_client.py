"""The test client's copy of a page (``tests.flet_client.PageTree``) stays what the server holds.

Flet sends a component page's redraws as patches of what changed; the load
test and the server tests know what a page shows only from the client's own
tree with every patch applied. After a run of taps that add, change and
remove controls, the tree must equal what a fresh page of the same match
shows: the same identified controls, the same words in them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scorepad.access import Caller
from scorepad.store import open_store
from tests.flet_client import FletClient, PageTree, WebServer

TAPS = ["tile-4-6", "tile-6-6", "undo", "undo", "redo", "draw", "pass", "tile-4-6"]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[WebServer, int]]:
    db_url = f"sqlite:///{tmp_path / 'client.db'}"
    store = open_store(db_url)
    try:
        match_id = store.create_match(players=["Ann", "Bob"], caller=Caller.local())
        store.start_hand(match_id, setter=0, caller=Caller.local())
    finally:
        store.close()
    web = WebServer(db_url, tmp_path / "server.log").start()
    yield web, match_id
    web.stop()


def shown(tree: PageTree) -> dict[str, Any]:
    """Each identified control of the tree with what it says (a text's value, a field's value, a label)."""
    out: dict[str, Any] = {}
    for identifier, control_id in tree.shown.items():
        inner = tree.index[control_id]
        out[identifier] = (
            inner.get("_c"),
            inner.get("value"),
            inner.get("content") if isinstance(inner.get("content"), str) else None,
        )
    return out


def test_the_clients_tree_after_taps_is_a_fresh_pages(server: tuple[WebServer, int]) -> None:
    web, match_id = server

    async def run() -> None:
        page = await FletClient(web.url, f"/match/{match_id}").open(ready="tile-4-6", timeout=60)
        try:
            patches = page.patches
            for tap in TAPS:
                await page.tap(tap, timeout=30)
            assert page.patches > patches and page.crashed is None
            fresh = await FletClient(web.url, f"/match/{match_id}").open(ready="board-count", timeout=60)
            try:
                assert page.tree is not None and fresh.tree is not None
                # A refusal said to the tapping page (a draw or pass the rules refuse) is that page's alone.
                mine = {k: v for k, v in shown(page.tree).items() if k != "message"}
                assert mine == shown(fresh.tree)
                assert shown(page.tree)["board-count"][1] == shown(fresh.tree)["board-count"][1]
            finally:
                await fresh.close()
        finally:
            await page.close()

    asyncio.run(run())
