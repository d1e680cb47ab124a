"""The tournament's sentences: counts in the right number, and every refusal or note names the players."""

from __future__ import annotations

import pytest

from scorepad.tournament import TournamentError, TournamentService, wording
from scorepad.tournament.errors import AccessDenied

from .helpers import new_event, play_round


def test_counts_are_said_in_the_right_number() -> None:
    assert wording.round_played(1, "games") == "this table has played its 1 game for the round"
    assert wording.round_played(3, "hands") == "this table has played its 3 hands for the round"
    assert wording.tables_unfinished([1]).startswith("table 1 has not finished")
    assert wording.tables_unfinished([1, 3, 4]).startswith("tables 1, 3 and 4 have not finished")
    assert wording.all_paired(1) == "the one round of this event is paired"
    assert wording.all_paired(4) == "all 4 rounds of this event are paired"
    assert wording.counted(1, "game point") == "1 game point" and wording.counted(2, "entrant") == "2 entrants"


def test_a_table_is_told_what_it_may_not_do_in_words(service: TournamentService) -> None:
    event, director = new_event(service, ["Ann", "Bob"], rounds=1, unit="hands")
    view = service.pair_round(director, event)
    tablet = service.join_table(event, view.codes[1])
    with pytest.raises(AccessDenied) as refused:
        service.repair(tablet, event, [["Ann", "Bob"]], reason="swap")
    assert str(refused.value) == "a table may not re-pair a round: only the director may"
    with pytest.raises(AccessDenied, match=r"^a table may not withdraw an entrant: only the director may$"):
        service.withdraw(tablet, event, "Ann")
    play_round(service, event, view, hands=1)
    service.lock_round(director, event)
    with pytest.raises(TournamentError, match=r"^the one round of this event is paired$"):
        service.pair_round(director, event)


def test_a_round_robin_note_and_a_re_pairing_refusal_name_the_players(service: TournamentService) -> None:
    event, director = new_event(service, ["Ann", "Bob", "Cy", "Dee"], rounds=3, unit="hands")
    one = service.pair_round(director, event)
    assert one.method == "round-robin"
    play_round(service, event, one, hands=1)
    service.lock_round(director, event)
    service.withdraw(director, event, "Dee")
    two = service.pair_round(director, event)
    (bye,) = [t.names[0] for t in two.tables if t.bye]
    assert two.notes == (f"{bye} has a bye: their opponent Dee has withdrawn",)
    assert service.round_view(None, event, 2).notes == two.notes
    others = [n for n in ("Ann", "Bob", "Cy") if n != bye]
    with pytest.raises(TournamentError) as refused:
        service.repair(director, event, [[others[0], "Dee"]], reason="a mistake")
    assert str(refused.value) == (
        "Dee does not play round 2 (withdrawn, or joining later); seat only this round's entrants"
    )
