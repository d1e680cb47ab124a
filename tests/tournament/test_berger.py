"""Round robin by Berger tables, against the published FIDE table."""

from __future__ import annotations

from itertools import combinations

import pytest

from scorepad.tournament.errors import PairingError
from scorepad.tournament.pairing import Contender, PairingInput, berger_round, round_robin

# The Berger tables of FIDE Handbook C.05, Annex 1 ("Berger Tables for Round-Robin
# Tournaments"), as published by Chris Fox, c.w.fox.tripod.com/chess/berger.html:
# one row per round, tables in order, each pair written first-second (White-Black).
FIDE_BERGER = {
    4: [
        "1-4, 2-3",
        "4-3, 1-2",
        "2-4, 3-1",
    ],
    6: [
        "1-6, 2-5, 3-4",
        "6-4, 5-3, 1-2",
        "2-6, 3-1, 4-5",
        "6-5, 1-4, 2-3",
        "3-6, 4-2, 5-1",
    ],
    8: [
        "1-8, 2-7, 3-6, 4-5",
        "8-5, 6-4, 7-3, 1-2",
        "2-8, 3-1, 4-7, 5-6",
        "8-6, 7-5, 1-4, 2-3",
        "3-8, 4-2, 5-1, 6-7",
        "8-7, 1-6, 2-5, 3-4",
        "4-8, 5-3, 6-2, 7-1",
    ],
}


def _published(row: str) -> list[tuple[int, int]]:
    return [(int(a), int(b)) for a, b in (pair.split("-") for pair in row.split(", "))]


@pytest.mark.parametrize("players", sorted(FIDE_BERGER))
def test_berger_rounds_are_the_published_fide_table(players: int) -> None:
    for number, row in enumerate(FIDE_BERGER[players], 1):
        assert berger_round(players, number) == _published(row), f"{players} players, round {number}"


@pytest.mark.parametrize("players", [4, 6, 8, 10, 12])
def test_a_cycle_meets_everyone_exactly_once(players: int) -> None:
    met = [frozenset(p) for r in range(1, players) for p in berger_round(players, r)]
    assert sorted(map(sorted, met)) == sorted(map(sorted, map(frozenset, combinations(range(1, players + 1), 2))))


def test_berger_refuses_an_odd_count_and_a_round_beyond_the_cycle() -> None:
    with pytest.raises(PairingError, match="even number"):
        berger_round(5, 1)
    with pytest.raises(PairingError, match="rounds 1 to 3"):
        berger_round(4, 4)


def _inputs(roster: tuple[int, ...], number: int, present: tuple[int, ...] | None = None) -> PairingInput:
    ids = present if present is not None else roster
    contenders = tuple(Contender(id=i, name=f"P{i}", score=0, rank=k) for k, i in enumerate(ids, 1))
    return PairingInput("round-robin", number, len(roster), 2, "seed", contenders, roster=roster)


def test_an_odd_field_gives_the_dummys_opponent_the_bye() -> None:
    roster = (11, 12, 13, 14, 15)  # pairing numbers 1..5; number 6 is the bye
    byes = [round_robin(_inputs(roster, r)).byes for r in range(1, 6)]
    # FIDE 6-player table: 6 meets 1, 4, 2, 5, 3 in rounds 1..5.
    assert byes == [(11,), (14,), (12,), (15,), (13,)]


def test_a_withdrawn_players_opponent_has_a_bye_and_the_rest_play_on() -> None:
    roster = (1, 2, 3, 4)
    pairing = round_robin(_inputs(roster, 1, present=(1, 2, 3)))
    assert pairing.tables == ((2, 3),)
    assert pairing.byes == (1,)
    assert "withdrawn" in pairing.notes[0]


def test_a_round_robin_refuses_a_forbidden_pair() -> None:
    inp = _inputs((1, 2, 3, 4), 1)
    inp = PairingInput(**{**inp.__dict__, "forbidden": ((1, 2),)})
    with pytest.raises(PairingError, match="Swiss"):
        round_robin(inp)
