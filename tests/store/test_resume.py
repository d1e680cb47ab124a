"""Resume: a match opened from the database alone is exactly the match that was played."""

from __future__ import annotations

from typing import Any

import pytest

from scorepad.access import Caller
from scorepad.rules import MatchState, parse_record, replay, report
from scorepad.simulate import simulate
from scorepad.store import Store, open_store

from .store_helpers import enter_step, record_steps

CASES = [
    ("smartt", 2, {}),
    ("smartt", 4, {}),
    ("american", 3, {}),
    ("jaques", 2, {"muggins": True}),
]


def _cut(record: dict[str, Any], keep: float) -> dict[str, Any]:
    """The record with its last hand stopped part way (an unfinished hand)."""
    last = record["hands"][-1]
    last["events"] = last["events"][: max(1, int(len(last["events"]) * keep))]
    last.pop("remaining", None)
    return record


def _table(state: MatchState) -> dict[str, Any]:
    """What a scorer sees: layout, turn, boneyard, tiles held, scores, pending call."""
    hand = state.current
    assert hand is not None
    return {
        "report": report(state),
        "turn": hand.turn,
        "boneyard": hand.boneyard,
        "drawable": hand.drawable,
        "tiles_held": list(hand.tiles_held),
        "open_ends": hand.layout.open_ends(),
        "board_count": hand.layout.board_count,
        "claim_open": hand.claim_open,
        "last_play": repr(hand.last_play),
        "scores": state.scores,
        "next": state.next_setter() if hand.finished else None,
    }


@pytest.mark.parametrize(("rules", "players", "options"), CASES, ids=[c[0] + str(c[1]) for c in CASES])
@pytest.mark.parametrize("keep", [0.5, 1.0], ids=["mid-hand", "hand-over"])
def test_resume_rebuilds_the_exact_table(
    store: Store, db_url: str, rules: str, players: int, options: dict[str, Any], keep: float
) -> None:
    played, _work = simulate(rules, players, hands=12, seed=players, options=options)
    record = played.to_record()
    if keep < 1:
        record = _cut(record, keep)
    expected = replay(parse_record(record))
    imported = store.import_record(record, caller=Caller.local())
    entered = _enter(store, record)
    with open_store(db_url) as elsewhere:
        for match_id in (imported, entered):
            assert _table(elsewhere.load(match_id)) == _table(expected)
            exported = elsewhere.export_record(match_id)
            assert report(replay(parse_record(exported))) == report(expected)


def _enter(store: Store, record: dict[str, Any]) -> int:
    """Enter a record write by write, as a scorer at the table would."""
    match_id = store.create_match(
        rules=record["rules"], options=record["options"], players=record["players"], caller=Caller.local()
    )
    for step in record_steps(record["hands"]):
        enter_step(store, match_id, step)
    return match_id
