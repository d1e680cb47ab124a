"""Undo and redo against a model: any mix of entries, undos and redos leaves the
stored match equal to the script's prefix the model predicts, whether read from
the store's cache or rebuilt from the database alone."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorepad.access import Caller
from scorepad.rules import report
from scorepad.store import NothingToUndo, open_store

from .store_helpers import enter_step, example_records, load_json, record_steps

# The record with the most hands (the contract's american-3p match), so undo and redo cross hand boundaries.
RECORD = max((load_json(p) for p in example_records()), key=lambda record: len(record["hands"]))


STEPS = record_steps(RECORD["hands"])


def _hands_of(prefix: list[tuple[str, Any]]) -> list[dict[str, Any]]:
    hands: list[dict[str, Any]] = []
    for kind, arg in prefix:
        if kind == "start":
            hands.append({"setter": arg, "events": []} if arg is not None else {"events": []})
        elif kind == "event":
            hands[-1]["events"].append(arg)
        else:
            hands[-1]["remaining"] = arg
    return hands


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(moves=st.lists(st.sampled_from(["enter", "enter", "enter", "undo", "redo"]), max_size=50))
def test_undo_redo_follow_the_model(sqlite_url: str, moves: list[str]) -> None:
    with open_store(sqlite_url) as store:
        match_id = store.create_match(
            rules=RECORD["rules"], options=RECORD.get("options"), players=RECORD["players"], caller=Caller.local()
        )
        standing, undone = 0, 0
        for move in moves:
            if move == "enter" and standing < len(STEPS):
                enter_step(store, match_id, STEPS[standing])
                standing, undone = standing + 1, 0
            elif move == "undo":
                if standing == 0:
                    try:
                        store.undo(match_id, caller=Caller.local())
                    except NothingToUndo:
                        continue
                    raise AssertionError("undo with nothing standing")
                store.undo(match_id, caller=Caller.local())
                standing, undone = standing - 1, undone + 1
            elif move == "redo":
                if undone == 0:
                    try:
                        store.redo(match_id, caller=Caller.local())
                    except NothingToUndo:
                        continue
                    raise AssertionError("redo with nothing undone")
                store.redo(match_id, caller=Caller.local())
                standing, undone = standing + 1, undone - 1
        assert store.export_record(match_id)["hands"] == _hands_of(STEPS[:standing])
        cached = report(store.load(match_id))
    with open_store(sqlite_url) as fresh:
        assert report(fresh.load(match_id)) == cached


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(moves=st.lists(st.sampled_from(["enter", "enter", "enter", "amend", "withdraw", "undo", "redo"]), max_size=50))
def test_amend_undo_redo_follow_the_model(sqlite_url: str, moves: list[str]) -> None:
    """Amendments mixed in: each is a version of the top entry, and undo and redo take versions back and forth.

    The model is the stack of standing actions: ``("e", i)`` entered step i,
    ``("a", i, present)`` amended it (to the same event, or withdrawn it).
    """
    with open_store(sqlite_url) as store:
        match_id = store.create_match(
            rules=RECORD["rules"], options=RECORD.get("options"), players=RECORD["players"], caller=Caller.local()
        )
        actions: list[tuple[Any, ...]] = []
        undone: list[tuple[Any, ...]] = []

        def count() -> int:
            return sum(1 for action in actions if action[0] == "e")

        def top_present() -> bool:
            top = count() - 1
            versions = [a for a in actions if a[0] == "a" and a[1] == top]
            return versions[-1][2] if versions else True

        for move in moves:
            top = count() - 1
            amendable = top >= 0 and STEPS[top][0] == "event"
            if move == "enter" and count() < len(STEPS) and top_present():
                enter_step(store, match_id, STEPS[count()])
                actions.append(("e", count()))
                undone.clear()
            elif move in ("amend", "withdraw") and amendable and (move == "amend" or top_present()):
                store.amend(match_id, STEPS[top][1] if move == "amend" else None, caller=Caller.local())
                actions.append(("a", top, move == "amend"))
                undone.clear()
            elif move == "undo" and actions:
                store.undo(match_id, caller=Caller.local())
                undone.append(actions.pop())
            elif move == "redo" and undone:
                store.redo(match_id, caller=Caller.local())
                actions.append(undone.pop())
        expected = _hands_of(STEPS[: count()])
        if count() and not top_present():
            expected[-1]["events"].pop()
        assert store.export_record(match_id)["hands"] == expected
        cached = report(store.load(match_id))
    with open_store(sqlite_url) as fresh:
        assert report(fresh.load(match_id)) == cached
