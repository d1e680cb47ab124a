"""The standings' edge cases: a late entry from its first round, an unplayed table is no meeting, withdrawn marked."""

from __future__ import annotations

from dataclasses import replace

from scorepad.app.models.tournament import Hall, standing_words
from scorepad.tournament import TournamentService
from scorepad.tournament.exports import STANDINGS_HEADER, standings_rows

from .helpers import new_event, play_round

NAMES = ["Ann", "Bob", "Cy", "Dee"]


def test_a_late_entry_is_listed_from_their_first_round_only(service: TournamentService) -> None:
    event, director = new_event(service, NAMES, rounds=3, pairing="swiss", unit="hands")
    one = service.pair_round(director, event)
    play_round(service, event, one, hands=1)
    service.lock_round(director, event)
    service.register(director, event, ["Gio"])
    # Registered for round 2, not yet paired: nobody's standings after round 1 list Gio.
    assert "Gio" not in {s.name for s in service.standings(None, event)}
    service.pair_round(director, event)
    through_one = service.standings(None, event, through=1)
    assert "Gio" not in {s.name for s in through_one}
    assert [s.place for s in through_one if not s.shared] == sorted({s.place for s in through_one if not s.shared})
    assert max(s.place for s in through_one) <= len(NAMES)
    assert "Gio" in {s.name for s in service.standings(None, event, through=2)}
    assert "Gio" in {s.name for s in service.standings(None, event)}


def test_an_unplayed_table_is_no_meeting(service: TournamentService) -> None:
    event, director = new_event(service, NAMES, rounds=3, pairing="swiss", unit="hands")
    one = service.pair_round(director, event)
    play_round(service, event, one, hands=1)
    service.lock_round(director, event)
    two = service.pair_round(director, event)
    played, unplayed = two.tables
    # Only table 1 plays round 2; table 2 has not begun.
    play_round(service, event, replace(two, tables=(played,)), hands=1)
    lines = {s.name: s for s in service.standings(None, event)}
    for index, name in enumerate(unplayed.names):
        other = unplayed.names[1 - index]
        working = lines[name].working
        (opponents,) = [w for w in working if w.startswith("opponents ")]
        assert other not in opponents, opponents
        assert any("R2 0 (not played yet)" in w for w in working)
        assert lines[name].rounds == 2
    for name in played.names:
        (opponents,) = [w for w in lines[name].working if w.startswith("opponents ")]
        assert all(other in opponents for other in played.names if other != name)
    # The next round is paired from these standings, and verifies.
    service.lock_round(director, event, reason="table 2 did not play")
    service.pair_round(director, event)
    for number in (1, 2, 3):
        assert service.verify_pairings(None, event, number).ok


def test_a_withdrawn_entrant_is_marked_wherever_the_standings_show(service: TournamentService) -> None:
    event, director = new_event(service, NAMES, rounds=3, pairing="swiss", unit="hands")
    one = service.pair_round(director, event)
    play_round(service, event, one, hands=1)
    service.lock_round(director, event)
    assert service.withdraw(director, event, "3") == 2
    lines = service.standings(None, event)
    (cy,) = [s for s in lines if s.name == "Cy"]
    assert cy.withdrawn and cy.withdrawn_from == 2 and cy.marks == " (withdrawn from round 2)"
    assert not any(s.withdrawn for s in lines if s.name != "Cy")
    # The exports' data, the hall's and the pages' lines.
    rows = {r[2]: r for r in standings_rows(lines)}
    assert STANDINGS_HEADER[-1] == "withdrawn" and rows["Cy"][-1] == "from round 2" and rows["Ann"][-1] == ""
    board = Hall(service, event)
    board.load()
    assert [r[1] for r in board.standing_rows() if r[1].startswith("Cy")] == ["Cy (withdrawn)"]
    assert standing_words(cy, True).endswith("(withdrawn from round 2)")
