"""Standings golden tests: the tiebreak order, the working, shared places; table results from the engine."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorepad.access import Caller
from scorepad.store import open_store
from scorepad.tournament.results import confirmed_prefix, hand_fingerprint, table_result
from scorepad.tournament.standings import Entry, Outcome, compute_standings, tiebreak_order
from tests.store.store_helpers import enter_step, record_steps

DATA = Path(__file__).resolve().parents[1] / "data"
A, B, C, D = 1, 2, 3, 4
ENTRIES = [Entry(A, 1, "Ann"), Entry(B, 2, "Bob"), Entry(C, 3, "Cy"), Entry(D, 4, "Dee")]


def _o(who, rnd, table, opp, gp, gw, spread, against, rubes=0) -> Outcome:
    return Outcome(who, rnd, table, (opp,), gp, gw, rubes, spread, against)


# Round 1: Ann beats Cy 4-2 in game points over two games (one each); Bob beats Dee.
# Round 2: Ann beats Bob; Cy beats Dee. Ann and Cy then tie on game points (6), games won (2),
# Rubes (0), spread (60) and opponents' game points with the worst dropped (6); head-to-head
# (4 against 2) puts Ann first.
OUTCOMES = [
    _o(A, 1, 1, C, 4, 1, 40, {C: 4}),
    _o(C, 1, 1, A, 2, 1, -40, {A: 2}),
    _o(B, 1, 2, D, 2, 1, 10, {D: 2}),
    _o(D, 1, 2, B, 0, 0, -10, {B: 0}),
    _o(A, 2, 1, B, 2, 1, 20, {B: 2}),
    _o(B, 2, 1, A, 0, 0, -20, {A: 0}),
    _o(C, 2, 2, D, 4, 1, 100, {D: 4}),
    _o(D, 2, 2, C, 0, 0, -100, {C: 0}),
]


def test_game_points_order_with_head_to_head_deciding_and_the_working_shown() -> None:
    table = compute_standings(ENTRIES, OUTCOMES, game_points=True)
    assert [(s.place, s.shared, s.name) for s in table] == [
        (1, False, "Ann"),
        (2, False, "Cy"),
        (3, False, "Bob"),
        (4, False, "Dee"),
    ]
    ann, cy, bob, dee = table
    assert (ann.game_points, ann.games_won, ann.rubes, ann.spread, ann.opponents, ann.head_to_head) == (
        6,
        2,
        0,
        60,
        6,
        4,
    )
    assert (cy.game_points, cy.games_won, cy.rubes, cy.spread, cy.opponents, cy.head_to_head) == (6, 2, 0, 60, 6, 2)
    assert (bob.game_points, bob.spread, bob.opponents) == (2, -10, 6)
    assert (dee.game_points, dee.spread, dee.opponents) == (0, -110, 6)
    assert ann.working == (
        "game points 6 = R1 4 + R2 2",
        "games won 2 = R1 1 + R2 1",
        "Rubes 0 = R1 0 + R2 0",
        "spread 60 = R1 40 + R2 20",
        "opponents 6 = Cy 6 (Bob 2 dropped)",
        "head-to-head 4 against Cy (tied on everything above)",
    )
    assert bob.working[-1] == "opponents 6 = Ann 6 (Dee 0 dropped)"


def test_without_game_points_games_won_then_spread_and_equal_entrants_share_a_place() -> None:
    # Without game points the head-to-head counts games: Ann and Cy won one each against the other.
    outcomes = [
        Outcome(
            o.entrant,
            o.round,
            o.table,
            o.opponents,
            0,
            o.games_won,
            0,
            o.spread,
            {k: 1 if v else 0 for k, v in o.against.items()},
        )
        for o in OUTCOMES
    ]
    table = compute_standings(ENTRIES, outcomes, game_points=False)
    assert [(s.place, s.shared, s.name) for s in table] == [
        (1, True, "Ann"),
        (1, True, "Cy"),
        (3, False, "Bob"),
        (4, False, "Dee"),
    ]
    assert table[0].working[0] == "games won 2 = R1 1 + R2 1"
    assert not any(line.startswith("game points") for line in table[0].working)
    assert tiebreak_order(False) == ("games won", "spread", "opponents' games won, worst dropped", "head-to-head")


def test_rubes_decide_before_spread() -> None:
    outcomes = [
        _o(A, 1, 1, B, 12, 1, 100, {B: 12}, rubes=1),
        _o(B, 1, 1, A, 0, 0, -100, {A: 0}),
        _o(C, 1, 2, D, 12, 1, 240, {D: 12}),
        _o(D, 1, 2, C, 0, 0, -240, {C: 0}),
    ]
    names = [s.name for s in compute_standings(ENTRIES, outcomes, game_points=True)]
    assert names == ["Ann", "Cy", "Bob", "Dee"]


def test_a_bye_counts_its_points_but_no_opponent() -> None:
    outcomes = [
        Outcome(A, 1, None, (), 2, 1, 0, 0),
        _o(B, 1, 1, C, 4, 1, 30, {C: 4}),
        _o(C, 1, 1, B, 0, 0, -30, {B: 0}),
    ]
    table = compute_standings(ENTRIES[:3], outcomes, game_points=True)
    assert [s.name for s in table] == ["Bob", "Ann", "Cy"]
    assert table[1].working[0] == "game points 2 = R1 2 (bye)"
    assert table[1].opponents == 0


def test_the_engine_gives_a_tables_figures_game_points_rube_and_spread() -> None:
    record = json.loads((DATA / "smartt-2p-game-to-250.json").read_text())
    expected = json.loads((DATA / "smartt-2p-game-to-250.expected.json").read_text())["games"][0]
    hands = len(record["hands"])
    result = table_result(record, hands)
    winner, loser = result.sides
    margin = expected["scores"][0] - expected["scores"][1]
    assert (winner.game_points, winner.games_won, winner.rubes, winner.spread) == (
        expected["game_points"],
        1,
        1,
        margin,
    )
    assert (loser.game_points, loser.games_won, loser.rubes, loser.spread) == (0, 0, 0, -margin)
    assert dict(winner.against) == {1: expected["game_points"]}
    assert not result.provisional


def test_only_the_confirmed_run_of_hands_counts() -> None:
    record = json.loads((DATA / "smartt-2p-game-to-250.json").read_text())
    prints = {n: {hand_fingerprint(h)} for n, h in enumerate(record["hands"], 1)}
    assert confirmed_prefix(record, prints) == len(record["hands"])
    # The last hand was confirmed as it stood before a correction: it no longer counts.
    prints[len(record["hands"])] = {"a fingerprint of another version of the hand"}
    assert confirmed_prefix(record, prints) == len(record["hands"]) - 1
    del prints[1]
    assert confirmed_prefix(record, prints) == 0
    # The game is won in hand 3 (hand 4 is still being played): two confirmed hands win nothing yet.
    assert table_result(record, 3).sides[0].games_won == 1
    partial = table_result(record, 2)
    assert partial.provisional and partial.hands_finished == 3
    assert [s.games_won for s in partial.sides] == [0, 0]
    assert partial.sides[0].spread == -partial.sides[1].spread


@pytest.mark.parametrize("name", sorted(p.name for p in DATA.glob("*.json") if not p.name.endswith(".expected.json")))
def test_a_tables_figures_from_the_stored_state_are_the_replayed_records(tmp_path: Path, name: str) -> None:
    """The service's path (``Store.record_and_state``, ``played=``) gives what replaying the record gives.

    At every write of the match, a hand awaiting its settlement included, with none, half, all but
    one and all of its hands confirmed.
    """
    record = json.loads((DATA / name).read_text())
    with open_store(f"sqlite:///{tmp_path / 'club.db'}") as store:
        match_id = store.create_match(
            rules=record["rules"], options=record.get("options"), players=record["players"], caller=Caller.local()
        )
        for step in record_steps(record["hands"]):
            enter_step(store, match_id, step)
            stored, played = store.record_and_state(match_id)
            # Only a finished hand can be confirmed.
            finished = sum(1 for hand in played.hands if hand.finished)
            for confirmed in sorted({0, finished // 2, max(finished - 1, 0), finished}):
                assert table_result(stored, confirmed, played=played) == table_result(stored, confirmed)
