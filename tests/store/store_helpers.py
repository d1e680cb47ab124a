"""Helpers shared by the store tests: example records and a whole-store snapshot."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from scorepad.access import Caller
from scorepad.store import Store
from scorepad.store.models import metadata

# The contract's examples (copied from shared/spec into tests/data/contract) and the golden records.
DATA = Path(__file__).resolve().parents[1] / "data"
EXAMPLES = DATA / "contract"


def example_records() -> list[Path]:
    """The example records of the spec and the golden records of tests/data (not their
    expected outputs); the spec's copy wins where both have a file of the same name."""
    found: dict[str, Path] = {}
    for source in (DATA, EXAMPLES):
        for path in source.glob("*.json"):
            if not path.name.endswith(".expected.json"):
                found[path.name] = path
    assert found, f"no example records in {EXAMPLES} or {DATA}"
    return [found[name] for name in sorted(found)]


def load_json(path: Path) -> dict[str, Any]:
    """A record file, decoded."""
    return json.loads(path.read_text())


def snapshot(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every store table, to show that a refused write changed nothing."""
    out: dict[str, list[tuple[Any, ...]]] = {}
    with store.engine.connect() as conn:
        for table in metadata.sorted_tables:
            rows = conn.execute(table.select().order_by(*table.primary_key.columns)).all()
            out[table.name] = [tuple(row) for row in rows]
    return out


def record_steps(hands: list[dict[str, Any]]) -> list[tuple[str, Any]]:
    """A record's hands as the writes a scorer makes: start, each event, settle."""
    steps: list[tuple[str, Any]] = []
    for hand in hands:
        steps.append(("start", hand.get("setter")))
        steps.extend(("event", event) for event in hand["events"])
        if "remaining" in hand:
            steps.append(("settle", hand["remaining"]))
    return steps


def enter_step(store: Store, match_id: int, step: tuple[str, Any], *, device: str | None = None) -> None:
    """Make one write of ``record_steps`` through the store's API."""
    kind, arg = step
    if kind == "start":
        store.start_hand(match_id, setter=arg, caller=Caller.local(device))
    elif kind == "event":
        store.append(match_id, arg, caller=Caller.local(device))
    else:
        store.settle(match_id, arg, caller=Caller.local(device))
