"""Undo and redo against a model: any mix of entries, undos and redos leaves the
stored match equal to the script's prefix the model predicts, whether read from
the store's cache or rebuilt from the database alone."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorepad.rules import report
from scorepad.store import NothingToUndo, Store, open_store

from .store_helpers import example_records, load_json

# A record with several hands, so undo and redo cross hand boundaries.
RECORD = load_json(next(p for p in example_records() if "american-3p" in p.name))


def _steps(hands: list[dict[str, Any]]) -> list[tuple[int, str, Any]]:
    steps: list[tuple[int, str, Any]] = []
    for number, hand in enumerate(hands):
        steps.append((number, "start", hand.get("setter")))
        steps.extend((number, "event", event) for event in hand["events"])
        if "remaining" in hand:
            steps.append((number, "settle", hand["remaining"]))
    return steps


STEPS = _steps(RECORD["hands"])


def _hands_of(prefix: list[tuple[int, str, Any]]) -> list[dict[str, Any]]:
    hands: list[dict[str, Any]] = []
    for _number, kind, arg in prefix:
        if kind == "start":
            hands.append({"setter": arg, "events": []} if arg is not None else {"events": []})
        elif kind == "event":
            hands[-1]["events"].append(arg)
        else:
            hands[-1]["remaining"] = arg
    return hands


def _enter(store: Store, match_id: int, step: tuple[int, str, Any]) -> None:
    _number, kind, arg = step
    if kind == "start":
        store.start_hand(match_id, setter=arg)
    elif kind == "event":
        store.append(match_id, arg)
    else:
        store.settle(match_id, arg)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(moves=st.lists(st.sampled_from(["enter", "enter", "enter", "undo", "redo"]), max_size=50))
def test_undo_redo_follow_the_model(sqlite_url: str, moves: list[str]) -> None:
    with open_store(sqlite_url) as store:
        match_id = store.create_match(rules=RECORD["rules"], options=RECORD.get("options"), players=RECORD["players"])
        standing, undone = 0, 0
        for move in moves:
            if move == "enter" and standing < len(STEPS):
                _enter(store, match_id, STEPS[standing])
                standing, undone = standing + 1, 0
            elif move == "undo":
                if standing == 0:
                    try:
                        store.undo(match_id)
                    except NothingToUndo:
                        continue
                    raise AssertionError("undo with nothing standing")
                store.undo(match_id)
                standing, undone = standing - 1, undone + 1
            elif move == "redo":
                if undone == 0:
                    try:
                        store.redo(match_id)
                    except NothingToUndo:
                        continue
                    raise AssertionError("redo with nothing undone")
                store.redo(match_id)
                standing, undone = standing + 1, undone - 1
        assert store.export_record(match_id)["hands"] == _hands_of(STEPS[:standing])
        cached = report(store.load(match_id))
    with open_store(sqlite_url) as fresh:
        assert report(fresh.load(match_id)) == cached
