"""The tournament service on SQLite and PostgreSQL: events, registration, rounds, confirmations, standings."""

from __future__ import annotations

import threading
from itertools import combinations

import pytest

from scorepad.access import Who
from scorepad.store import open_store
from scorepad.tournament import TournamentError, TournamentService
from scorepad.tournament import rounds as rounds_module

from .conftest import PASSWORD
from .helpers import confirm_all, game_hands, new_event, opposing, play_hands, play_round


def test_a_round_robin_of_four_plays_everyone_once_with_confirmed_standings(service: TournamentService) -> None:
    event, director = new_event(service, ["Ann", "Bob", "Cy", "Dee"], rounds=3)
    met = []
    for number in (1, 2, 3):
        view = service.pair_round(director, event)
        assert view.method == "round-robin" and view.number == number
        assert all(not t.bye for t in view.tables) and len(view.tables) == 2
        met += [frozenset(t.entrants) for t in view.tables]
        # Each table's game is an ordinary stored match, seated in pairing order.
        for table in view.tables:
            assert service.store.load(table.match_id).players == list(table.names)
        play_round(service, event, view, seed=10 * number)
        if number == 1:
            with pytest.raises(TournamentError, match="round robin's schedule is fixed"):
                service.register(director, event, ["Eve"])
        assert service.lock_round(director, event) == number
    assert sorted(map(sorted, met)) == sorted(map(sorted, map(frozenset, combinations((1, 2, 3, 4), 2))))
    table = service.standings(None, event)
    assert sum(s.games_won for s in table) == 6
    assert all(not s.provisional for s in table)
    assert table[0].game_points >= table[-1].game_points
    assert sum(s.game_points for s in table) > 0
    for number in (1, 2, 3):
        assert service.verify_pairings(None, event, number).ok
    with pytest.raises(TournamentError, match="all 3 rounds"):
        service.pair_round(director, event)


def test_swiss_with_a_forbidden_pair_a_late_entry_and_a_withdrawal(service: TournamentService) -> None:
    event, director = new_event(service, ["Ann", "Bob", "Cy", "Dee", "Eve"], rounds=3, pairing="swiss", unit="hands")
    service.forbid(director, event, "Ann", "Bob", "family")
    one = service.pair_round(director, event)
    assert one.method == "swiss"
    assert frozenset((1, 2)) not in {frozenset(t.entrants) for t in one.tables}
    (bye1,) = [t.entrants[0] for t in one.tables if t.bye]
    with pytest.raises(TournamentError, match="not locked"):
        service.pair_round(director, event)
    play_round(service, event, one, hands=1)
    service.lock_round(director, event)
    fay = service.register(director, event, ["Fay"])
    assert service.withdraw(director, event, "Cy") == 2
    two = service.pair_round(director, event)
    seated = [x for t in two.tables for x in t.entrants]
    assert fay.number == 6 and sorted(seated) == sorted([1, 2, 4, 5, fay.id])
    assert 3 not in seated
    byes2 = [t.entrants[0] for t in two.tables if t.bye]
    assert bye1 not in byes2
    assert not ({frozenset(t.entrants) for t in two.tables if not t.bye} & {frozenset(t.entrants) for t in one.tables})
    assert frozenset((1, 2)) not in {frozenset(t.entrants) for t in two.tables}
    # Cy's result of round 1 stays in the standings.
    assert any(s.name == "Cy" and s.rounds == 1 for s in service.standings(None, event))
    audit = [line.action for line in service.audit(None, event)]
    assert audit.count("register") == 6 and "withdraw" in audit and "forbid" in audit and audit.count("pair") == 2


def test_only_confirmed_hands_count_and_a_correction_unconfirms(service: TournamentService) -> None:
    event, director = new_event(service, ["Ann", "Bob"], rounds=1)
    view = service.pair_round(director, event)
    (table,) = view.tables
    tablet = service.join_table(event, view.codes[1])
    hands = game_hands("smartt", 2, 3, (("target", 60),))
    play_hands(service, tablet, event, table.match_id, hands)
    before = service.standings(None, event)
    assert all(s.provisional and s.games_won == 0 and s.game_points == 0 for s in before)
    # The round's one game is played: the table may not start another.
    with pytest.raises(TournamentError, match="played its 1 game for"):
        service.start_hand(tablet, event, table.match_id, 0)
    confirm_all(service, tablet, event, 1, table.match_id)
    after = service.standings(None, event)
    assert sum(s.games_won for s in after) == 1 and not any(s.provisional for s in after)
    winner = after[0]
    # The director takes back the last hand's last entry: that hand is unconfirmed again.
    service.undo(director, event, table.match_id)
    assert sum(s.games_won for s in service.standings(None, event)) == 0
    last = hands[-1]
    if "remaining" in last:
        service.settle(director, event, table.match_id, last["remaining"])
    else:
        service.append(director, event, table.match_id, last["events"][-1])
    # Entered again exactly as confirmed, the hand counts again.
    assert service.standings(None, event)[0] == winner


def test_threes_seat_tables_of_three_with_a_bye(service: TournamentService) -> None:
    event, director = new_event(service, [f"P{i}" for i in range(1, 8)], rounds=2, kind="threes", unit="hands")
    one = service.pair_round(director, event)
    assert one.method == "threes"
    assert [len(t.entrants) for t in one.tables] == [3, 3, 1]
    play_round(service, event, one, hands=1)
    service.lock_round(director, event)
    two = service.pair_round(director, event)
    assert [t.entrants for t in one.tables if t.bye] != [t.entrants for t in two.tables if t.bye]
    standings = service.standings(None, event)
    assert len(standings) == 7


def test_partnerships_sit_crosswise(service: TournamentService) -> None:
    event, director = new_event(
        service, ["Ann+Cy", "Bob+Dee", "Eve+Gus", "Fay+Hal"], rounds=1, kind="partners", unit="hands"
    )
    view = service.pair_round(director, event)
    table = view.tables[0]
    first, second = (name.split(" & ") for name in table.names)
    assert service.store.load(table.match_id).players == [first[0], second[0], first[1], second[1]]
    assert service.store.load(table.match_id).rules.partners
    play_round(service, event, view, hands=1)
    assert len(service.standings(None, event)) == 4


def test_a_manual_repairing_is_audited_and_verify_tells_it_apart(service: TournamentService) -> None:
    event, director = new_event(service, ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"], rounds=3, pairing="swiss")
    view = service.pair_round(director, event)
    old_matches = [t.match_id for t in view.tables]
    with pytest.raises(TournamentError, match="reason"):
        service.repair(director, event, [["Ann", "Bob"], ["Cy", "Dee"], ["Eve", "Fay"]], reason=" ")
    new = service.repair(
        director, event, [["Ann", "Bob"], ["Cy", "Dee"], ["Eve", "Fay"]], reason="Ann must leave early"
    )
    assert [t.names for t in new.tables] == [("Ann", "Bob"), ("Cy", "Dee"), ("Eve", "Fay")]
    assert not set(old_matches) & {t.match_id for t in new.tables}
    report = service.verify_pairings(None, event, 1)
    assert report.ok and report.repaired
    (line,) = [a for a in service.audit(None, event) if a.action == "repair"]
    assert line.detail["reason"] == "Ann must leave early" and line.detail["before"]
    # A code of the tables before the re-pairing no longer opens anything.
    with pytest.raises(TournamentError):
        service.join_table(event, view.codes[1])
    # Once a table has started its first hand, the round stays as it is.
    later = new.tables[1]
    service.start_hand(director, event, later.match_id, 0)
    with pytest.raises(TournamentError, match=f"table {later.number} has started playing"):
        service.repair(director, event, [["Ann", "Cy"], ["Bob", "Dee"], ["Eve", "Fay"]], reason="again")


def test_verify_pairings_notices_a_result_changed_after_the_next_round_was_paired(service: TournamentService) -> None:
    event, director = new_event(service, ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"], rounds=3, pairing="swiss")
    one = service.pair_round(director, event)
    play_round(service, event, one)
    service.lock_round(director, event)
    service.pair_round(director, event)
    assert service.verify_pairings(None, event, 2).ok
    service.undo(director, event, one.tables[0].match_id)
    report = service.verify_pairings(None, event, 2)
    assert not report.same_inputs and report.same_pairing and not report.ok


def test_bad_settings_are_refused_in_one_sentence(service: TournamentService) -> None:
    cases = [
        ({"rounds": 0}, "1 to 50 rounds"),
        ({"rounds": 3, "kind": "quads"}, "singles, threes, partners or fours"),
        ({"rounds": 3, "rules": "chess"}, "unknown rules"),
        ({"rounds": 3, "options": {"target": -5}}, "option 'target'"),
        ({"rounds": 3, "kind": "threes", "pairing": "round-robin"}, "score bands"),
    ]
    for settings, words in cases:
        with pytest.raises(TournamentError, match=words):
            service.create_event(name="x", password=PASSWORD, **settings)
    with pytest.raises(TournamentError, match="at least 8"):
        service.create_event(name="x", password="short", rounds=1)
    event, director = new_event(service, ["Ann"], rounds=1)
    with pytest.raises(TournamentError, match="already registered"):
        service.register(director, event, ["ann"])
    with pytest.raises(TournamentError, match="nobody called"):
        service.withdraw(director, event, "Zed")


def test_a_directors_correction_keeps_its_reason_and_unconfirms_the_hand(service: TournamentService) -> None:
    event, director = new_event(service, ["Ann", "Bob"], rounds=1)
    view = service.pair_round(director, event)
    (table,) = view.tables
    tablet = service.join_table(event, view.codes[1])
    hands = game_hands("smartt", 2, 3, (("target", 60),))
    play_hands(service, tablet, event, table.match_id, hands)
    confirm_all(service, tablet, event, 1, table.match_id)
    assert sum(s.games_won for s in service.standings(None, event)) == 1
    with pytest.raises(TournamentError, match="reason"):
        service.correct(director, event, table.match_id, reason="", undo=True)
    with pytest.raises(TournamentError, match="only the director"):
        service.correct(tablet, event, table.match_id, reason="we agreed", undo=True)
    service.correct(director, event, table.match_id, reason="the last tile was misread", undo=True)
    # The hand is reopened: provisional, its game no longer counted.
    assert sum(s.games_won for s in service.standings(None, event)) == 0
    (line,) = [a for a in service.audit(None, event) if a.action == "correct"]
    assert line.actor == "director" and line.detail["reason"] == "the last tile was misread"
    assert line.detail["entry"]["action"] == "undo" and line.detail["table"] == 1
    # The match's own log keeps the compensating entry and says who and why.
    assert service.store.audit(table.match_id)[-1].device == "director: the last tile was misread"


def test_two_directors_pairing_at_once_store_one_round(service: TournamentService, db_url: str, monkeypatch) -> None:
    event, director = new_event(service, ["Ann", "Bob", "Cy", "Dee"], rounds=2, pairing="swiss")
    # Both have read the event and computed the round before either stores it.
    both_computed = threading.Barrier(2, timeout=60)
    real_pair = rounds_module.pair

    def pair_then_wait(inputs):
        result = real_pair(inputs)
        both_computed.wait()
        return result

    monkeypatch.setattr(rounds_module, "pair", pair_then_wait)
    with open_store(db_url) as other_store:
        other = TournamentService(other_store)
        other_token = other.login_director(event, PASSWORD)
        outcomes: list[object] = []

        def run(svc: TournamentService, token: str) -> None:
            try:
                outcomes.append(svc.pair_round(token, event))
            except TournamentError as err:
                outcomes.append(err)

        threads = [threading.Thread(target=run, args=a) for a in ((service, director), (other, other_token))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
    errors = [o for o in outcomes if isinstance(o, TournamentError)]
    views = [o for o in outcomes if not isinstance(o, TournamentError)]
    assert len(views) == 1 and len(errors) == 1
    assert "paired meanwhile" in str(errors[0])
    stored = service.round_view(None, event, 1)
    assert [t.match_id for t in stored.tables] == [t.match_id for t in views[0].tables]
    # The loser's matches are marked deleted: only the stored round's are listed.
    assert {m.id for m in service.store.list_matches()} == {t.match_id for t in stored.tables}


def test_one_tables_view_is_its_line_of_the_round(service: TournamentService) -> None:
    """``table_view`` reads one table alone: the same line as ``round_view``'s, as it is played and confirmed."""
    event, director = new_event(service, ["Ann", "Bob", "Cy", "Dee", "Eve"], rounds=1, unit="hands", per_round=3)
    view = service.pair_round(director, event)
    played = [t for t in view.tables if not t.bye]
    first, other = played[0], played[1]
    tablet = service.join_table(event, view.codes[first.number])
    hands = game_hands("smartt", 2, 2, (("target", 60),))
    assert len(hands) == 2
    play_hands(service, tablet, event, first.match_id, hands)

    def same_as_the_round() -> None:
        lines = {t.number: t for t in service.round_view(None, event).tables}
        for table in view.tables:
            assert service.table_view(None, event, table.number) == lines[table.number]
        # A table's own token names its own table.
        assert service.table_view(tablet, event) == lines[first.number]

    same_as_the_round()
    own = service.table_view(tablet, event)
    assert own.result is not None and own.result.hands_finished == 2 and own.result.hands_confirmed == 0
    service.confirm(tablet, event, first.number, by=opposing(service, first.match_id, 1), hand=1)
    assert service.table_view(tablet, event).result.hands_confirmed == 1
    same_as_the_round()
    # The director's correction of the confirmed hand's table: it stays confirmed only as it stood.
    service.confirm(director, event, first.number, by="the director")
    assert service.table_view(None, event, first.number).result.hands_confirmed == 2
    service.undo(director, event, first.match_id)
    assert service.table_view(None, event, first.number).result.hands_confirmed == 1
    same_as_the_round()
    with pytest.raises(TournamentError, match="has no table 9"):
        service.table_view(None, event, 9)
    # Every write is still checked on the server: a table's token writes only to its own match.
    with pytest.raises(TournamentError, match="only change its own match"):
        service.authorize_match(tablet, event, other.match_id)
    assert service.authorize_match(director, event, other.match_id).who == Who.DIRECTOR
