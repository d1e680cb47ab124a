"""Swiss seats depend only on the pairing's inputs, never on the database's ids; old rounds still verify."""

from __future__ import annotations

from functools import partial

import pytest

from scorepad.store import tournament_repo as repo
from scorepad.store.db import session_scope
from scorepad.tournament import TournamentService, rounds
from scorepad.tournament.pairing import PAIRING_VERSION, Contender, PairingInput, pair
from scorepad.tournament.rounds import paired_by

from .helpers import new_event, play_round

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


def _field(offset: int, size: int) -> PairingInput:
    """A Swiss round 1 of ``size`` entrants P1..Pn (P1 ranked first) whose ids start at ``offset`` + 1."""
    people = tuple(Contender(id=offset + i, name=f"P{i}", score=0, rank=i) for i in range(1, size + 1))
    return PairingInput(method="swiss", round=1, rounds=4, table_size=2, seed="s", contenders=people, max_per_round=14)


def _seats(inp: PairingInput, version: str = PAIRING_VERSION) -> list[tuple[str, ...]]:
    names = {c.id: c.name for c in inp.contenders}
    done = pair(inp, version)
    return [tuple(names[x] for x in t) for t in done.tables] + [("bye", names[x]) for x in done.byes]


@pytest.mark.parametrize("size", [6, 7, 8, 9])
def test_the_same_field_under_other_ids_has_the_same_seats(size: int) -> None:
    seats = _seats(_field(0, size))
    for offset in (100, 1000, 7919):
        assert _seats(_field(offset, size)) == seats


def test_version_1_rounds_re_pair_as_they_were_paired() -> None:
    # What pairing version 1 gave these inputs (its seats followed the ids): verify-pairings re-runs it so.
    assert _seats(_field(0, 8), "1") == [("P7", "P1"), ("P2", "P4"), ("P3", "P5"), ("P8", "P6")]
    assert _seats(_field(100, 8), "1") == [("P1", "P7"), ("P4", "P2"), ("P5", "P3"), ("P6", "P8")]
    assert paired_by("scorepad 0.1 pairing/1 networkx 3.4") == "1"
    assert paired_by(f"scorepad 0.1 pairing/{PAIRING_VERSION} networkx 3.4") == PAIRING_VERSION


def _two_rounds(service: TournamentService, names: list[str]) -> tuple[int, list[list[tuple[str, ...]]]]:
    """An eight-player Swiss event paired, played and paired again: each round's seats by name."""
    event, director = new_event(service, names, rounds=3, pairing="swiss", unit="hands")
    seats = []
    view = service.pair_round(director, event)
    seats.append([t.names for t in view.tables])
    play_round(service, event, view, hands=1)
    service.lock_round(director, event)
    view = service.pair_round(director, event)
    seats.append([t.names for t in view.tables])
    return event, seats


def test_swiss_seats_do_not_follow_the_databases_ids(service: TournamentService) -> None:
    first, seats = _two_rounds(service, NAMES)
    # Another event takes ids first: the same entrants, registered in the same order, get other ids.
    new_event(service, [f"Warm-up {n}" for n in range(1, 38)], rounds=1)
    second, again = _two_rounds(service, NAMES)
    ids = [{e.name: e.id for e in service.entrants(None, event)} for event in (first, second)]
    assert ids[0]["Ann"] != ids[1]["Ann"]
    assert again == seats
    for event in (first, second):
        for number in (1, 2):
            assert service.verify_pairings(None, event, number).ok


def test_a_round_paired_by_version_1_still_verifies(
    service: TournamentService, monkeypatch: pytest.MonkeyPatch
) -> None:
    event, director = new_event(service, NAMES, rounds=3, pairing="swiss", unit="hands")
    # Pair round 1 as pairing version 1 did, and store it under that version.
    monkeypatch.setattr(rounds, "engine_version", lambda: "scorepad old pairing/1 networkx old")
    monkeypatch.setattr(rounds, "pair", partial(pair, version="1"))
    monkeypatch.setattr(rounds, "pairing_input", partial(rounds.pairing_input, version="1"))
    service.pair_round(director, event)
    monkeypatch.undo()
    stored = service.verify_pairings(None, event, 1)
    assert stored.ok and not stored.same_engine
    assert "paired by scorepad old pairing/1 networkx old" in stored.lines[-1]
    # Today's version seats these inputs otherwise: only re-running by version 1 verifies the round.
    with session_scope(service.store.engine) as session:
        row = repo.round_numbered(session=session, event_id=event, number=1)
        assert row is not None
        inputs, fingerprint = PairingInput.from_dict(row.inputs), row.fingerprint
    assert pair(inputs, "1").fingerprint() == fingerprint != pair(inputs).fingerprint()
