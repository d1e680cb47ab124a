"""The director takes back a forfeit and reopens a locked round: refusals, audit, role (SQLite, PostgreSQL)."""

from __future__ import annotations

from typing import Any

import pytest

from scorepad.tournament import AccessDenied, TournamentError, TournamentService
from scorepad.tournament import rounds as rounds_module

from .helpers import confirm_all, game_hands, new_event, play_hands, play_round

FOUR = ["Ann", "Bob", "Cy", "Dee"]


def test_a_forfeit_taken_back_is_audited_with_what_it_was_and_the_table_plays_on(service: TournamentService) -> None:
    event, director = new_event(service, FOUR, rounds=2, pairing="swiss")
    view = service.pair_round(director, event)
    one, two = view.tables
    tablet = service.join_table(event, view.codes[one.number])
    hall = service.issue_hall(director, event)
    hands = game_hands("smartt", 2, 3, (("target", 60),))
    play_hands(service, tablet, event, one.match_id, hands[:1])
    loser, winner = one.names
    with pytest.raises(TournamentError, match="table 1 has no forfeit to take back"):
        service.unforfeit(director, event, one.number, reason="nothing to take back")
    with pytest.raises(TournamentError, match="round 1 has no table 9"):
        service.unforfeit(director, event, 9, reason="no such table")
    given = service.forfeit(director, event, one.number, [loser], reason="did not turn up")
    with pytest.raises(TournamentError, match="forfeited"):
        service.start_hand(tablet, event, one.match_id, 0)
    # Only the director takes it back: the table's own code, the hall and a spectator are refused.
    for token in (tablet, hall, None):
        with pytest.raises(AccessDenied, match="may not take back a forfeit: only the director may"):
            service.unforfeit(token, event, one.number, reason="I was here all along")
    with pytest.raises(TournamentError, match="reason"):
        service.unforfeit(director, event, one.number, reason=" ")
    assert service.round_view(None, event).tables[0].forfeit is not None, "a refusal changed nothing"
    taken = service.unforfeit(director, event, one.number, reason="wrong table: Ann was at table 2's seat")
    assert taken == given
    (line,) = [a for a in service.audit(None, event) if a.action == "unforfeit"]
    assert line.actor == "director" and line.at
    assert line.detail == {
        "round": 1,
        "table": one.number,
        "reason": "wrong table: Ann was at table 2's seat",
        "before": {
            "losers": [loser],
            "reason": "did not turn up",
            "actor": "director",
            "at": given.at,
            "hands_played": 1,
        },
    }
    with pytest.raises(TournamentError, match="no forfeit to take back"):
        service.unforfeit(director, event, one.number, reason="twice")
    # The table's match takes entries again, from its own code, and its hands count when confirmed.
    shown = service.round_view(None, event).tables[0]
    assert shown.forfeit is None and shown.result is not None and shown.result.hands_played == 1
    play_hands(service, tablet, event, one.match_id, hands[1:])
    assert confirm_all(service, tablet, event, one.number, one.match_id)
    standings = {s.name: s for s in service.standings(None, event)}
    assert not any("forfeit" in w for s in standings.values() for w in s.working)
    assert standings[loser].games_won + standings[winner].games_won == 1
    # Once the round is locked, a forfeit is taken back only after reopening it.
    service.forfeit(director, event, two.number, [two.names[0]], reason="did not turn up")
    service.lock_round(director, event)
    with pytest.raises(TournamentError, match="round 1 is locked: reopen it before taking back a forfeit there"):
        service.unforfeit(director, event, two.number, reason="too late")
    service.reopen_round(director, event, reason="the forfeit at table 2 was a mistake")
    assert service.unforfeit(director, event, two.number, reason="they were at the bar").loser_names == (two.names[0],)


def test_a_locked_round_reopens_for_its_tables_until_the_next_is_paired(service: TournamentService) -> None:
    event, director = new_event(service, FOUR, rounds=3, pairing="swiss")
    with pytest.raises(TournamentError, match="no round is paired yet"):
        service.reopen_round(director, event, reason="nothing yet")
    view = service.pair_round(director, event)
    one = view.tables[0]
    tablet = service.join_table(event, view.codes[one.number])
    hall = service.issue_hall(director, event)
    with pytest.raises(TournamentError, match="round 1 is not locked: it is still in play"):
        service.reopen_round(director, event, reason="not locked yet")
    play_round(service, event, view)
    locked = service.lock_round(director, event)
    assert locked == 1 and service.round_view(None, event).locked
    # The lock refuses the table's code and its phone.
    with pytest.raises(AccessDenied, match="locked"):
        service.start_hand(tablet, event, one.match_id, 0)
    with pytest.raises(AccessDenied, match="locked"):
        service.join_table(event, view.codes[one.number])
    for token in (tablet, hall, None):
        with pytest.raises(AccessDenied):
            service.reopen_round(token, event, reason="let us play on")
    with pytest.raises(TournamentError, match="reason"):
        service.reopen_round(director, event, reason="")
    assert service.round_view(None, event).locked, "a refusal changed nothing"
    (lock,) = [a for a in service.audit(None, event) if a.action == "lock"]
    assert service.reopen_round(director, event, reason="table 1's last hand was misread") == 1
    assert not service.round_view(None, event).locked
    (line,) = [a for a in service.audit(None, event) if a.action == "reopen"]
    assert line.actor == "director"
    assert line.detail.pop("locked_at").startswith(lock.at[:16])  # when it was locked, to the minute
    assert line.detail == {"round": 1, "reason": "table 1's last hand was misread"}
    # The codes work again, and the phone that joined before the lock scores again.
    assert service.join_table(event, view.codes[one.number])
    service.undo(tablet, event, one.match_id)
    # The next round waits for the round to be locked again.
    with pytest.raises(TournamentError, match="round 1 is not locked yet"):
        service.pair_round(director, event)
    service.lock_round(director, event, reason="table 1 replays its hand next round")
    service.pair_round(director, event)
    # Round 1's results made round 2's pairing: it can no longer be reopened; round 2 is in play.
    with pytest.raises(TournamentError, match="round 1 cannot be reopened: round 2 is already paired"):
        service.reopen_round(director, event, reason="too late", number=1)
    with pytest.raises(TournamentError, match="round 2 is not locked"):
        service.reopen_round(director, event, reason="still in play")
    with pytest.raises(TournamentError, match="round 5 is not paired"):
        service.reopen_round(director, event, reason="no such round", number=5)
    assert [a.action for a in service.audit(None, event)].count("reopen") == 1


def test_a_round_reopened_while_the_next_is_being_paired_stops_that_pairing(
    service: TournamentService, monkeypatch: pytest.MonkeyPatch
) -> None:
    event, director = new_event(service, FOUR, rounds=2, pairing="swiss")
    service.pair_round(director, event)
    service.lock_round(director, event, reason="nobody played")
    matches = len(service.store.list_matches())
    real_pair = rounds_module.pair

    def pair_meanwhile_reopened(inputs: Any) -> Any:
        # Another device reopens round 1 after this pairing read it locked, before the round is written.
        service.reopen_round(director, event, reason="a result to correct")
        return real_pair(inputs)

    monkeypatch.setattr(rounds_module, "pair", pair_meanwhile_reopened)
    with pytest.raises(TournamentError, match="round 1 was reopened meanwhile; lock it before pairing"):
        service.pair_round(director, event)
    # Nothing of round 2 was kept: no round, no matches made for its tables.
    assert service.event_info(None, event)["rounds_paired"] == 1
    assert len(service.store.list_matches()) == matches
    assert not service.round_view(None, event).locked
