"""Every route to a tournament table's match passes the one door, on SQLite and PostgreSQL.

A table's credential (``Gate.caller``) on another table's match, on its own
match after the lock, a delete of a tournament match from this computer, a
confirmation by the side that scored, and the hall and a spectator sending
every write: each refused in one sentence, with the match's revision, log
and audit and the tournament's own state as they were.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from scorepad.access import Caller, Who
from scorepad.rules import Draw, Play
from scorepad.store import AccessRefused, Store
from scorepad.store.matches import archive_match, delete_match, label_match, rename_player, restore_match
from scorepad.tournament import AccessDenied, TournamentError, TournamentService

from .conftest import PASSWORD
from .helpers import game_hands, play_hands


@dataclass(frozen=True)
class Seen:
    """What a refused write must leave as it was: the match's revision, log and audit, and the round."""

    revision: int
    record: dict[str, Any]
    audit: int
    round: Any


def seen(service: TournamentService, director: str, event: int, match_id: int) -> Seen:
    store = service.store
    return Seen(
        revision=store.load(match_id).revision,
        record=store.export_record(match_id, complete=True),
        audit=len(store.audit(match_id)),
        round=service.round_view(director, event),
    )


@pytest.fixture
def event(service: TournamentService) -> tuple[int, str, Any]:
    """Round 1 of a four-player event: (event id, director token, round view with both tables' codes)."""
    event = service.create_event(name="Open", password=PASSWORD, rounds=2, options={"target": 60}, seed="s")
    director = service.login_director(event, PASSWORD)
    for name in ("Ann", "Bob", "Cy", "Dee"):
        service.register(director, event, [name])
    return event, director, service.pair_round(director, event)


def table_caller(service: TournamentService, event: int, code: str) -> Caller:
    return service.gate.caller(service.join_table(event, code), event)


def writes(store: Store, match_id: int, caller: Caller) -> list[tuple[str, Any]]:
    """Every write a page, a command or an import can make to a stored match, as (what, call)."""
    return [
        ("start a hand", lambda: store.start_hand(match_id, 0, caller=caller)),
        ("lay a tile", lambda: store.append(match_id, Play("6-6"), caller=caller)),
        ("draw", lambda: store.append(match_id, Draw(1), caller=caller)),
        ("settle", lambda: store.settle(match_id, [0, 0], caller=caller)),
        ("amend", lambda: store.amend(match_id, Play("6-6"), caller=caller)),
        ("undo", lambda: store.undo(match_id, caller=caller)),
        ("redo", lambda: store.redo(match_id, caller=caller)),
        ("finish", lambda: store.finish(match_id, caller=caller)),
        ("label", lambda: label_match(store, match_id, "mine", caller=caller)),
        ("rename", lambda: rename_player(store, match_id, 0, "Zed", caller=caller)),
        ("archive", lambda: archive_match(store, match_id, caller=caller)),
        ("delete", lambda: delete_match(store, match_id, caller=caller)),
    ]


def test_a_table_writes_nothing_to_another_tables_match(service: TournamentService, event: Any) -> None:
    event_id, director, view = event
    first, second = view.tables
    mine = table_caller(service, event_id, view.codes[first.number])
    before = seen(service, director, event_id, second.match_id)
    for what, call in writes(service.store, second.match_id, mine):
        with pytest.raises(AccessRefused) as refused:
            call()
        assert f"table {second.number}'s" in str(refused.value) or "never deleted" in str(refused.value), what
        assert seen(service, director, event_id, second.match_id) == before, what
    # Its own match takes its entries.
    assert service.store.start_hand(first.match_id, 0, caller=mine).revision == 1


def test_a_table_stops_at_its_round_s_lock_and_the_director_goes_on(service: TournamentService, event: Any) -> None:
    event_id, director, view = event
    first = view.tables[0]
    mine = table_caller(service, event_id, view.codes[first.number])
    service.store.start_hand(first.match_id, 0, caller=mine)
    service.lock_round(director, event_id, reason="time")
    before = seen(service, director, event_id, first.match_id)
    with pytest.raises(AccessRefused, match="Round 1 is locked"):
        service.store.append(first.match_id, Play("6-6"), caller=mine)
    assert seen(service, director, event_id, first.match_id) == before
    # The service's own route says the same (its credential is refused before the store is asked).
    with pytest.raises(AccessDenied):
        service.append(service.join_table(event_id, view.codes[first.number]), event_id, first.match_id, Play("6-6"))
    assert service.store.load(first.match_id).revision == before.revision


def test_a_tournament_match_is_never_deleted_and_the_event_stays_whole(service: TournamentService, event: Any) -> None:
    event_id, director, view = event
    second = view.tables[1]
    mine = table_caller(service, event_id, view.codes[second.number])
    service.store.start_hand(second.match_id, 0, caller=mine)
    before = seen(service, director, event_id, second.match_id)
    for caller in (
        Caller.local("cli"),
        Caller.joined("phone-a", device="web:1"),
        mine,
        service.gate.caller(director, event_id),
    ):
        with pytest.raises(AccessRefused, match="never deleted"):
            delete_match(service.store, second.match_id, caller=caller)
        with pytest.raises(AccessRefused):
            restore_match(service.store, second.match_id, caller=caller)
    assert seen(service, director, event_id, second.match_id) == before
    # The pairings, standings and export still find every match.
    assert [t.match_id for t in service.round_view(director, event_id).tables] == [t.match_id for t in view.tables]
    assert len(service.standings(director, event_id)) == 4


def test_the_hall_and_a_spectator_write_nothing(service: TournamentService, event: Any) -> None:
    event_id, director, view = event
    first = view.tables[0]
    hall = service.gate.caller(service.issue_hall(director, event_id), event_id)
    spectator = service.gate.caller(None, event_id)
    assert (hall.who, spectator.who) == (Who.HALL, Who.SPECTATOR)
    before = seen(service, director, event_id, first.match_id)
    for reader in (hall, spectator):
        for what, call in writes(service.store, first.match_id, reader):
            with pytest.raises(AccessRefused, match="only reads"):
                call()
            assert seen(service, director, event_id, first.match_id) == before, what
        with pytest.raises(AccessRefused, match="only reads"):
            service.store.create_match("smartt", {}, ["A", "B"], caller=reader)


def test_a_hand_is_confirmed_by_the_opposing_side_only(service: TournamentService, event: Any) -> None:
    event_id, _director, view = event
    first = view.tables[0]
    code = view.codes[first.number]
    token = service.join_table(event_id, code)
    match_id = first.match_id
    play_hands(service, token, event_id, match_id, game_hands("smartt", 2, 0, (("target", 60),))[:1])
    state = service.store.load(match_id)
    hand = state.hands[0]
    assert hand.finished
    scorers = [n for s, n in enumerate(state.players) if state.rules.side_of(s) == hand.scoring_side()]
    others = [n for s, n in enumerate(state.players) if state.rules.side_of(s) != hand.scoring_side()]
    with pytest.raises(AccessDenied, match="not by the side that scored it"):
        service.confirm(token, event_id, first.number, by=scorers[0], hand=1)
    # Nothing was kept of the refusal: the opposing side's confirmation is the hand's first.
    assert service.confirm(token, event_id, first.number, by=others[0], hand=1) == [1]


def test_the_round_s_flow_is_the_service_s_on_every_route(service: TournamentService, event: Any) -> None:
    """A table's phone starts its next hand once the last is confirmed; the service's one check says so."""
    event_id, _director, view = event
    first = view.tables[0]
    token = service.join_table(event_id, view.codes[first.number])
    hands = game_hands("smartt", 2, 0, (("target", 60),))
    play_hands(service, token, event_id, first.match_id, hands[:1])
    revision = service.store.load(first.match_id).revision
    with pytest.raises(TournamentError, match="hand 1 waits for the opposing side's confirmation first"):
        service.check_next_hand(token, event_id, first.match_id)
    assert service.store.load(first.match_id).revision == revision
    # The director is not held to it; the table goes on once the hand is confirmed.
    state = service.store.load(first.match_id)
    others = [n for s, n in enumerate(state.players) if state.rules.side_of(s) != state.hands[0].scoring_side()]
    service.confirm(token, event_id, first.number, by=others[0], hand=1)
    assert service.start_hand(token, event_id, first.match_id, hands[1]["setter"]).revision == revision + 1
