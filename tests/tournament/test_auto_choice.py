"""Auto says which format it chose and why before pairing, and whether late entries can join."""

from __future__ import annotations

import pytest

from scorepad.tournament import TournamentError, TournamentService

from .conftest import PASSWORD
from .helpers import new_event, play_round


def test_auto_says_a_round_robin_takes_no_late_entry_before_round_1(service: TournamentService) -> None:
    event, director = new_event(service, ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"], rounds=3, unit="hands")
    before = service.pairing_choice(None, event)
    assert (before.method, before.auto, before.fixed, before.late_entries) == ("round-robin", True, False, False)
    assert before.why == (
        "Auto chooses a round robin, as the field stands now: 6 entrants and 3 rounds fit one round-robin cycle."
        " Nobody can join after round 1 is paired: a round robin's schedule is fixed then"
        " (an event paired by Swiss takes late entries)."
    )
    one = service.pair_round(director, event)
    assert one.method == "round-robin"
    after = service.pairing_choice(None, event)
    assert after.fixed and after.why.startswith("Auto chose a round robin: 6 entrants and 3 rounds fit one")
    play_round(service, event, one, hands=1)
    service.lock_round(director, event)
    # The refusal a late entry meets is the one the choice announced.
    with pytest.raises(TournamentError, match="Gio cannot join: a round robin's schedule is fixed") as refused:
        service.register(director, event, ["Gio"])
    assert "Swiss takes late entries" in str(refused.value)


def test_auto_says_swiss_takes_a_late_entry_and_why(service: TournamentService) -> None:
    names = [f"P{n}" for n in range(1, 13)]
    event, director = new_event(service, names, rounds=3, unit="hands")
    choice = service.pairing_choice(director, event)
    assert (choice.method, choice.late_entries) == ("swiss", True)
    assert choice.why == (
        "Auto chooses Swiss, as the field stands now: 12 entrants are more than a round robin's 10."
        " Late entries join from the next round paired."
    )
    one = service.pair_round(director, event)
    assert one.method == "swiss"
    play_round(service, event, one, hands=1)
    service.lock_round(director, event)
    late = service.register(director, event, ["Gio"])
    assert late.number == 13 and late.joined_round == 2
    two = service.pair_round(director, event)
    assert late.id in {x for t in two.tables for x in t.entrants}


def test_auto_says_a_forbidden_pair_switches_it_to_swiss(service: TournamentService) -> None:
    event, director = new_event(service, ["Ann", "Bob", "Cy", "Dee"], rounds=3, unit="hands")
    assert service.pairing_choice(None, event).method == "round-robin"
    service.forbid(director, event, "Bob", "Ann", "family")
    choice = service.pairing_choice(None, event)
    assert choice.method == "swiss" and choice.late_entries
    assert choice.why.startswith(
        "Auto chooses Swiss, as the field stands now: Ann and Bob are kept apart,"
        " and a round robin makes everyone meet."
    )
    assert service.pair_round(director, event).method == "swiss"
    assert service.pairing_choice(None, event).why.startswith("Auto chose Swiss: Ann and Bob are kept apart")


def test_auto_says_too_many_rounds_for_one_cycle(service: TournamentService) -> None:
    event, _director = new_event(service, ["Ann", "Bob", "Cy", "Dee"], rounds=4, unit="hands")
    assert service.pairing_choice(None, event).why.startswith(
        "Auto chooses Swiss, as the field stands now: 4 rounds are more than one round-robin cycle of 4 entrants"
        " (3 rounds)."
    )


def test_auto_with_nobody_yet_says_how_it_will_choose(service: TournamentService) -> None:
    event = service.create_event(name="Club night", password=PASSWORD, rounds=3)
    choice = service.pairing_choice(None, event)
    assert choice.auto and not choice.fixed
    assert choice.why.startswith("Auto chooses when round 1 is paired: a round robin for 2 to 10 entrants")
