"""The director settles a finished hand again with the right figures: scores, standings, refusals, audit, roles.

Each test runs on SQLite and on PostgreSQL (the ``service`` fixture).
"""

from __future__ import annotations

from typing import Any

import pytest

from scorepad.rules import parse_record, replay
from scorepad.tournament import AccessDenied, TournamentError, TournamentService
from scorepad.tournament.service import read_remaining

from .helpers import game_hands, new_event, opposing, play_hands

FOUR = ["Ann", "Bob", "Cy", "Dee"]
TARGET = (("target", 60),)


def _table_one(service: TournamentService, seed: int, hands: int) -> tuple[int, str, Any, str]:
    """An event whose table 1 has played ``hands`` hands of a simulated game: (event, director, table, its token)."""
    event, director = new_event(service, FOUR, rounds=2, pairing="swiss")
    view = service.pair_round(director, event)
    one = view.tables[0]
    tablet = service.join_table(event, view.codes[one.number])
    play_hands(service, tablet, event, one.match_id, game_hands("smartt", 2, seed, TARGET)[:hands])
    return event, director, one, tablet


def _replayed(service: TournamentService, match_id: int, remaining: list[Any]) -> Any:
    """The engine's own replay of the match's record with its last hand settled with ``remaining``."""
    record = service.store.export_record(match_id)
    record["hands"][-1] = {**record["hands"][-1], "remaining": remaining}
    return replay(parse_record(record))


def test_a_hand_settled_again_changes_the_scores_and_the_standings_once_confirmed_again(
    service: TournamentService,
) -> None:
    # Seed 5's first hand: seat 1 goes out and its settlement (17 pips in seat 0's hand, 15) wins the game to 60.
    event, director, one, tablet = _table_one(service, 5, 1)
    seat0, seat1 = one.names
    assert service.confirm(tablet, event, one.number, by=opposing(service, one.match_id, 1)) == [1]
    before = {s.name: s for s in service.standings(None, event)}
    assert before[seat1].games_won == 1 and before[seat1].game_points > 0
    # Counted again, the hand held 6 pips: 5 to seat 1, whose 55 no longer reaches the target.
    expected = _replayed(service, one.match_id, [6, 0])
    assert expected.games() == [], "the new figures no longer win the game"
    done = service.resettle(director, event, one.number, remaining="6, 0", reason="pips miscounted")
    old = service.store.load(one.match_id)
    assert done.hand == 1 and done.round == 1 and done.table == one.number
    assert done.remaining_before == [["1-4", "1-3", "3-5"], []] and done.remaining_after == [6, 0]
    assert done.scores_after == tuple(expected.hands[-1].scores_after) == tuple(old.hands[-1].scores_after)
    assert done.scores_before != done.scores_after
    assert done.summary == (
        f"hand 1 at table {one.number} is settled again: {seat0} {done.scores_after[0]}, {seat1} 55"
        f" (it was {seat0} {done.scores_before[0]}, {seat1} 65); the hand counts once confirmed again"
    )
    # The hand changed, so its confirmation no longer holds: the table is provisional, nothing counts.
    shown = service.round_view(None, event).tables[0]
    assert shown.result is not None and shown.result.provisional and shown.result.hands_confirmed == 0
    waiting = {s.name: s for s in service.standings(None, event)}
    assert waiting[seat1].games_won == 0 and waiting[seat1].provisional
    # Confirmed again, the standings carry the new figures: no game won, the spread from the new scores.
    assert service.confirm(tablet, event, one.number, by=opposing(service, one.match_id, 1)) == [1]
    after = {s.name: s for s in service.standings(None, event)}
    scores = expected.hands[-1].scores_after
    assert after[seat1].games_won == 0 and after[seat1].game_points == 0
    assert after[seat1].spread == scores[1] - scores[0] and after[seat0].spread == scores[0] - scores[1]
    assert not after[seat1].provisional


def test_the_audit_keeps_who_when_why_and_the_figures_before_and_after(service: TournamentService) -> None:
    # Seed 3's first hand: seat 0 goes out; seat 1 was counted 11 pips (10), 14 would have been 15.
    event, director, one, _tablet = _table_one(service, 3, 1)
    store = service.store
    entries = len(store.audit(one.match_id))
    done = service.resettle(director, event, one.number, remaining=[0, 14], reason="the 2-2 was a 3-3", hand=1)
    expected = _replayed(service, one.match_id, [0, 14])
    assert done.scores_after == tuple(expected.hands[0].scores_after)
    assert done.scores_after[0] == done.scores_before[0] + 5
    (line,) = [a for a in service.audit(None, event) if a.action == "resettle"]
    assert line.actor == "director" and line.at
    assert line.detail == {
        "round": 1,
        "table": one.number,
        "match": one.match_id,
        "hand": 1,
        "reason": "the 2-2 was a 3-3",
        "sides": list(one.names),
        "before": {"remaining": [[], ["1-6", "2-2"]], "scores": list(done.scores_before)},
        "after": {"remaining": [0, 14], "scores": list(done.scores_after)},
    }
    # In the match's log: the old settlement taken back and the new one, both under the director's reason.
    added = store.audit(one.match_id)[entries:]
    assert [(a.action, a.device) for a in added] == [
        ("undo", "director: the 2-2 was a 3-3"),
        ("settle", "director: the 2-2 was a 3-3"),
    ]
    assert store.export_record(one.match_id)["hands"][0]["remaining"] == [0, 14]


def test_a_refused_figure_leaves_the_match_and_the_audit_as_they_were(service: TournamentService) -> None:
    event, director, one, _tablet = _table_one(service, 3, 1)
    store = service.store
    revision = store.load(one.match_id).revision
    log = len(store.audit(one.match_id))
    record = store.export_record(one.match_id)
    setting = record["hands"][0]["events"][0]["play"]  # the hand's set: a tile played
    refusals = {
        # The engine's: seat 1 holds two tiles, 2 to 20 pips; a tile played already; one seat short.
        "0, 99": "keeps its settlement: Bob holds 2 tiles, which can weigh 2 to 20 pips, not 99",
        f"0, 2-2 {setting}": f"keeps its settlement: Bob lists {setting}, which has been played",
        "14": "keeps its settlement: 'remaining' needs one entry a seat (2)",
        # The form, before the engine.
        "0,": "type each seat's remaining in seat order, separated by commas",
    }
    for typed, words in refusals.items():
        with pytest.raises(TournamentError) as refused:
            service.resettle(director, event, one.number, remaining=typed, reason="recount")
        assert words in str(refused.value).replace(one.names[1], "Bob"), typed
    # The very figures that stand: nothing to correct.
    with pytest.raises(TournamentError, match="hand 1 at table 1 is already settled with those figures"):
        service.resettle(director, event, one.number, remaining=[[], ["1-6", "2-2"]], reason="recount")
    with pytest.raises(TournamentError, match="gives each seat a list of tiles"):
        service.resettle(director, event, one.number, remaining={"seat": 1}, reason="recount")
    with pytest.raises(TournamentError, match="settling a hand again needs a reason for the audit"):
        service.resettle(director, event, one.number, remaining="0, 14", reason="  ")
    with pytest.raises(TournamentError, match="round 1 has no table 9"):
        service.resettle(director, event, 9, remaining="0, 14", reason="no such table")
    assert store.load(one.match_id).revision == revision
    assert len(store.audit(one.match_id)) == log
    assert store.export_record(one.match_id) == record
    assert not [a for a in service.audit(None, event) if a.action == "resettle"]


def test_only_the_last_settled_hand_with_nothing_after_it(service: TournamentService) -> None:
    event, director, one, tablet = _table_one(service, 3, 1)
    # The next hand has started: its start is a later entry, taken back first with Correct.
    service.start_hand(tablet, event, one.match_id, None)
    later = "take back the later entries first with Correct, then settle hand 1 again"
    with pytest.raises(TournamentError, match=f"hand 2 has started at table 1 since hand 1's settlement: {later}"):
        service.resettle(director, event, one.number, remaining="0, 14", reason="recount")
    with pytest.raises(TournamentError, match=f"hand 1 at table 1 is not the last hand: {later}"):
        service.resettle(director, event, one.number, remaining="0, 14", reason="recount", hand=1)
    with pytest.raises(TournamentError, match="table 1 has no hand 3"):
        service.resettle(director, event, one.number, remaining="0, 14", reason="recount", hand=3)
    service.correct(director, event, one.match_id, reason="hand 1 to recount", undo=True)
    service.resettle(director, event, one.number, remaining="0, 14", reason="recount")
    # A settlement taken back by Correct is settled, not settled again.
    service.correct(director, event, one.match_id, reason="recount once more", undo=True)
    with pytest.raises(TournamentError, match="hand 1 at table 1 is not settled yet: settle it as any hand"):
        service.resettle(director, event, one.number, remaining="0, 14", reason="recount")


def test_a_renege_entered_after_the_settlement_is_a_later_entry(service: TournamentService) -> None:
    event, director, one, tablet = _table_one(service, 3, 1)
    # Smartt's renege (rollback25) may be proved after the hand's settlement: it stands after it in the log.
    service.append(tablet, event, one.match_id, {"renege": 1})
    with pytest.raises(TournamentError, match="something was entered at table 1 after hand 1's settlement"):
        service.resettle(director, event, one.number, remaining="0, 14", reason="recount")


def test_refused_in_a_locked_round_at_a_forfeited_table_and_before_any_hand(service: TournamentService) -> None:
    event, director = new_event(service, FOUR, rounds=2, pairing="swiss")
    with pytest.raises(TournamentError, match="no round is paired yet"):
        service.resettle(director, event, 1, remaining="0, 14", reason="recount")
    view = service.pair_round(director, event)
    one, two = view.tables
    with pytest.raises(TournamentError, match="table 1 has not played a hand yet"):
        service.resettle(director, event, one.number, remaining="0, 14", reason="recount")
    tablet = service.join_table(event, view.codes[one.number])
    play_hands(service, tablet, event, one.match_id, game_hands("smartt", 2, 3, TARGET)[:1])
    service.forfeit(director, event, two.number, [two.names[0]], reason="did not turn up")
    with pytest.raises(TournamentError, match="table 2 was forfeited: its hands no longer count"):
        service.resettle(director, event, two.number, remaining="0, 14", reason="recount")
    service.lock_round(director, event, reason="closing time")
    with pytest.raises(TournamentError, match="round 1 is locked: reopen it before settling a hand again there"):
        service.resettle(director, event, one.number, remaining="0, 14", reason="recount")
    service.reopen_round(director, event, reason="table 1 recounts hand 1")
    assert service.resettle(director, event, one.number, remaining="0, 14", reason="recount").hand == 1


def test_only_the_director_settles_a_hand_again(service: TournamentService) -> None:
    event, director, one, tablet = _table_one(service, 3, 1)
    hall = service.issue_hall(director, event)
    revision = service.store.load(one.match_id).revision
    for token in (tablet, hall, None):
        with pytest.raises(AccessDenied, match="may not settle a hand again: only the director may"):
            service.resettle(token, event, one.number, remaining="0, 14", reason="we counted again")
    assert service.store.load(one.match_id).revision == revision


def test_the_typed_form_of_the_remaining() -> None:
    assert read_remaining("12, 0") == [12, 0]
    assert read_remaining(" 6-6 5-4 ,0") == [["6-6", "5-4"], 0]
    # Superscript digits are not a pip total: they go to the engine as a tile, which it refuses.
    assert read_remaining("²,0") == [["²"], 0]
    for typed in ("", "12,,0", " , "):
        with pytest.raises(TournamentError, match='such as "12, 0" or "6-6 5-4, 0"'):
            read_remaining(typed)
