"""A screen reloading a match another screen writes to replays only the hands the new entries touch
(``Store._replayed_before``): whatever the entries (new hands, settlements, undos and redos across
hands), the reloaded state is the one a store with nothing in memory builds from the database."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorepad.access import Caller
from scorepad.rules import report
from scorepad.store import NothingToUndo, open_store

from .store_helpers import enter_step, example_records, load_json, record_steps

RECORD = max((load_json(p) for p in example_records()), key=lambda record: len(record["hands"]))
STEPS = record_steps(RECORD["hands"])


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    moves=st.lists(
        st.sampled_from(["enter", "enter", "enter", "undo", "redo", "look"]),
        min_size=1,
        max_size=80,
    )
)
def test_a_reload_after_another_screens_entries_is_the_full_replay(sqlite_url: str, moves: list[str]) -> None:
    with open_store(sqlite_url) as store:
        match_id = store.create_match(
            rules=RECORD["rules"], options=RECORD.get("options"), players=RECORD["players"], caller=Caller.local()
        )
        standing = 0
        looks = 0
        for move in [*moves, "look"]:
            if move == "enter" and standing < len(STEPS):
                enter_step(store, match_id, STEPS[standing], device="writer")
                standing += 1
            elif move in ("undo", "redo"):
                try:
                    getattr(store, move)(match_id, caller=Caller.local("writer"))
                except NothingToUndo:
                    continue
                standing += 1 if move == "redo" else -1
            elif move == "look":
                # The reader's own view of the match is reloaded from the one it held before.
                seen = report(store.load(match_id, device="reader"))
                looks += 1
                with open_store(sqlite_url) as fresh:
                    assert seen == report(fresh.load(match_id)), f"after {looks} looks"


def test_undos_back_into_a_finished_hand_are_replayed(sqlite_url: str) -> None:
    """The reader held three hands; the writer then undid back into the second: the second is replayed."""
    starts = [i for i, (kind, _) in enumerate(STEPS) if kind == "start"]
    with open_store(sqlite_url) as store:
        match_id = store.create_match(
            rules=RECORD["rules"], options=RECORD.get("options"), players=RECORD["players"], caller=Caller.local()
        )
        for step in STEPS[: starts[2] + 2]:
            enter_step(store, match_id, step, device="writer")
        assert len(store.load(match_id, device="reader").hands) == 3
        for _ in range(4):  # two entries of hand 3, its start, hand 2's settlement
            store.undo(match_id, caller=Caller.local("writer"))
        seen = report(store.load(match_id, device="reader"))
        with open_store(sqlite_url) as fresh:
            full = report(fresh.load(match_id))
        assert seen == full
        assert len(store.load(match_id, device="reader").hands) == 2
