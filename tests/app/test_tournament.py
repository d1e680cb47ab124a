"""The tournament's web layer (scorepad/app/tournament.py): roles enforced through the service, on a real store.

A table device scores through ``GuardedStore`` and the real ``Table``: a code
for one table cannot write to another table's match, nor to its own once
the round is locked or the next one paired; the hall and spectators have no
credential and every write the service offers refuses them; a wrong
password is rate-limited.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scorepad.app.table import Table
from scorepad.app.tournament import (
    Desk,
    GuardedStore,
    Hall,
    TableDevice,
    Watch,
    parse_event_route,
    query_value,
)
from scorepad.simulate import simulate
from scorepad.store import Store, StoreError, open_store
from scorepad.tournament import TournamentService
from scorepad.tournament.errors import AccessDenied, TooManyAttempts, TournamentError

# The store tests' PostgreSQL fixtures (a fresh schema per test), as tests/tournament uses them.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from store.conftest import pg_base_url, pg_url  # noqa: F401

PASSWORD = "a long director password"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[Store]:
    """A real store on SQLite, then on PostgreSQL (a throw-away schema; skipped where none listens)."""
    url = f"sqlite:///{tmp_path / 'event.db'}" if request.param == "sqlite" else request.getfixturevalue("pg_url")
    opened = open_store(url)
    try:
        yield opened
    finally:
        opened.close()


def first_game_hand(seed: int = 3) -> dict[str, Any]:
    """A simulated first hand (its record form) of a two-player Smartt match."""
    match, _ = simulate("smartt", 2, 200, seed, {})
    return match.to_record()["hands"][0]


@pytest.fixture
def event(store: Store) -> tuple[TournamentService, int, Desk, dict[int, str]]:
    """A paired four-player singles event: the service, its id, the director's desk and the codes."""
    service = TournamentService(store)
    event_id = service.create_event(name="Open", password=PASSWORD, rounds=2, options={"target": 60}, seed="s")
    desk = Desk(service, event_id, source="director-phone")
    assert desk.sign_in(PASSWORD), desk.message
    for name in ("Ann", "Bob", "Cy", "Dee"):
        assert desk.register(name), desk.message
    assert desk.entrants() == ["Ann", "Bob", "Cy", "Dee"]
    assert desk.pair(), desk.message
    return service, event_id, desk, dict(desk.codes)


def device_on(service: TournamentService, event_id: int, code: str, store: Store) -> tuple[TableDevice, Table]:
    device = TableDevice(service, event_id, source="table-phone")
    assert device.join(code), device.message
    assert device.match_id is not None
    return device, Table(device.guarded(store), device.match_id, device="web:test")


def play_hand(table: Table, hand: dict[str, Any]) -> None:
    """Enter one record hand through the table's store, as the screen's taps do."""
    store = table.store
    store.start_hand(table.match_id, hand["setter"], device=table.device)
    for event in hand["events"]:
        store.append(table.match_id, event, device=table.device)
    if "remaining" in hand:
        store.settle(table.match_id, hand["remaining"], device=table.device)
    table.refresh()


def test_routes_are_read_strictly() -> None:
    assert parse_event_route("/event/3/director") == (3, "director", None)
    assert parse_event_route("/event/3/watch/2?delay=30") == (3, "watch", "2")
    assert query_value("/event/3/watch/2?delay=30", "delay") == "30"
    for bad in ("/event/x/hall", "/event/3/admin", "/event/3/watch/", "/event/0/hall", "/match/3", "/event/3"):
        assert parse_event_route(bad) is None


def test_a_table_code_writes_only_its_own_match_in_the_current_round(store: Store, event) -> None:
    service, event_id, desk, codes = event
    one, table_one = device_on(service, event_id, codes[1], store)
    assert table_one.tournament, "no strategy hints at a tournament table"
    table_one.toggle_training()
    assert not table_one.training and table_one.hints() == ()
    two, _table_two = device_on(service, event_id, codes[2], store)
    # Table 1's device aims its guarded store at table 2's match: refused before the store is touched.
    before = store.load(two.match_id).revision
    guarded = one.guarded(store)
    with pytest.raises(StoreError, match="only change its own match"):
        guarded.start_hand(two.match_id, 0, device="web:test")
    assert store.load(two.match_id).revision == before
    # Its own match: the real table screen's model scores through the guard.
    hand = first_game_hand()
    play_hand(table_one, hand)
    assert table_one.state.hands[0].finished
    # Locking the round ends the code: the same device can no longer write, even to its own match.
    assert desk.lock("test over"), desk.message
    with pytest.raises(StoreError):
        guarded.undo(one.match_id, device="web:test")
    assert not TableDevice(service, event_id).join(codes[1])


def test_a_past_rounds_code_cannot_edit_the_new_round(store: Store, event) -> None:
    service, event_id, desk, codes = event
    old, _ = device_on(service, event_id, codes[1], store)
    assert desk.lock("skip round 1"), desk.message
    assert desk.pair(), desk.message
    new_match = desk.tables()[0].match_id
    with pytest.raises(StoreError):
        old.guarded(store).start_hand(new_match, 0, device="web:test")
    with pytest.raises(AccessDenied):
        service.authorize_match(old.token, event_id, new_match)


def test_the_hall_and_spectators_change_nothing(store: Store, event) -> None:
    service, event_id, _desk, _codes = event
    hall = Hall(service, event_id)
    hall.load()
    match_id = hall.match_ids()[0]
    # The hall's and a spectator's credential is none at all: every write the service has refuses it.
    for write in (
        lambda: service.register(hall.token, event_id, ["Eve"]),
        lambda: service.pair_round(hall.token, event_id),
        lambda: service.lock_round(hall.token, event_id, reason="x"),
        lambda: service.start_hand(hall.token, event_id, match_id, 0),
        lambda: service.append(hall.token, event_id, match_id, {"play": "6-6"}),
        lambda: service.correct(hall.token, event_id, match_id, reason="x", undo=True),
        lambda: service.confirm(hall.token, event_id, 1, by="Ann"),
        lambda: service.new_code(hall.token, event_id, 1),
        lambda: service.forfeit(hall.token, event_id, 1, ["Ann"], reason="x"),
    ):
        with pytest.raises(AccessDenied):
            write()
    watch = Watch(service, event_id, 1)
    assert watch.find()
    assert not hasattr(watch, "token")
    with pytest.raises(AccessDenied):
        service.authorize_match(None, event_id, match_id)


def test_a_wrong_password_is_rate_limited(store: Store, event) -> None:
    service, event_id, _desk, _codes = event
    desk = Desk(service, event_id, source="guessing-phone")
    for _ in range(5):
        assert not desk.sign_in("wrong")
        assert desk.message is not None and "password" in desk.message.lower()
    assert not desk.sign_in(PASSWORD)  # held for the rest of the minute, the right one not even checked
    assert desk.message is not None and "too many" in desk.message.lower()
    assert not desk.signed_in
    with pytest.raises(TooManyAttempts):
        service.login_director(event_id, PASSWORD, source="guessing-phone")
    # Another address is not held.
    assert Desk(service, event_id, source="elsewhere").sign_in(PASSWORD)


def test_the_opposing_side_confirms_and_the_director_corrects(store: Store, event) -> None:
    service, event_id, desk, codes = event
    device, table = device_on(service, event_id, codes[1], store)
    play_hand(table, first_game_hand())
    state = table.state
    assert device.waiting(state) == [1]
    confirmers = device.confirmers(state, 1)
    scored = state.hands[0].settlement.to if state.hands[0].settlement else state.hands[0].won_side
    assert confirmers == [n for seat, n in enumerate(state.players) if seat != scored]
    hall = Hall(service, event_id)
    hall.load()
    assert "provisional" in hall.tables()[0].state
    assert device.confirm(state, 1), device.message
    assert device.waiting(state) == []
    hall.load()
    assert not hall.tables()[0].provisional
    before = [line for line in hall.standing_lines()]
    # The director takes the hand's settlement (or last entry) back, with a reason: audited, provisional again.
    desk.load()
    assert not desk.correct(1, "  "), "a correction without a reason"
    assert desk.correct(1, "misread tile"), desk.message
    assert any("correct table 1 - misread tile" in line for line in desk.audit_lines())
    hall.load()
    assert hall.standing_lines() != before
    assert "provisional" in hall.tables()[0].state or hall.tables()[0].state.startswith("1 played, 0 finished")


def test_the_hall_rotates_and_hides_standings_in_the_last_round(store: Store, event) -> None:
    service, event_id, desk, _codes = event
    hall = Hall(service, event_id, hide_last=True)
    hall.load()
    assert hall.pages() == ["tables", "names", "standings", "results"]
    seen = []
    for _ in range(4):
        seen.append(hall.page())
        hall.rotate()
    assert seen == hall.pages()
    assert hall.by_name()[0].startswith("Ann: table")
    assert desk.lock("next"), desk.message
    assert desk.pair(), desk.message
    hall.load()
    assert hall.last_round()
    assert "standings" not in hall.pages()


def test_a_spectator_sees_the_table_after_its_delay(store: Store, event) -> None:
    service, event_id, _desk, codes = event
    _device, table = device_on(service, event_id, codes[1], store)
    watch = Watch(service, event_id, 1, delay=30)
    assert watch.find()
    play_hand(table, first_game_hand())
    watch.saw(now=100.0)
    assert watch.shown(now=100.0).hands == []  # the first state seen, until 30 s have passed
    assert watch.next_due(now=100.0) == pytest.approx(30.0)
    assert len(watch.shown(now=131.0).hands) == 1
    assert any(line == "Hand 1" for line in watch.lines(now=131.0))


def test_guarded_store_turns_a_refusal_into_one_sentence() -> None:
    class Inner:
        def append(self, match_id: int, event: Any, device: str) -> str:
            return "written"

        def load(self, match_id: int) -> str:
            return "read"

    def refuse(match_id: Any, action: str) -> None:
        if match_id != 1:
            raise TournamentError("table 1 may only change its own match")

    guarded = GuardedStore(Inner(), refuse)
    assert guarded.append(1, {}, device="d") == "written"
    assert guarded.load(2) == "read"
    with pytest.raises(StoreError, match=r"^Table 1 may only change its own match\.$"):
        guarded.append(2, {}, device="d")


def test_a_table_device_cannot_forfeit_and_the_directors_forfeit_closes_the_table(store: Store, event) -> None:
    service, event_id, desk, codes = event
    device, table = device_on(service, event_id, codes[1], store)
    line = desk.tables()[0]
    loser, _winner = line.names
    # The table's own credential, at its own table: refused by the service, not only hidden by the page.
    with pytest.raises(AccessDenied, match="only the director"):
        service.forfeit(device.token, event_id, 1, [loser], reason="they left")
    assert not any(a.action == "forfeit" for a in service.audit(None, event_id))
    assert not desk.forfeit(1, "", "did not turn up"), "a forfeit without anyone named"
    assert not desk.forfeit(1, loser, " "), "a forfeit without a reason"
    assert desk.message is not None and "reason" in desk.message
    assert desk.forfeit(1, loser, "did not turn up"), desk.message
    assert desk.tables()[0].state == f"forfeited by {loser} (did not turn up)"
    assert any("forfeit table 1 - did not turn up" in a for a in desk.audit_lines())
    assert "    game points 2 = R1 2 (forfeit win)" in desk.working()
    # The table's phone can no longer write to its match.
    with pytest.raises(StoreError, match="forfeited"):
        device.guarded(store).start_hand(device.match_id, 0, device="web:test")
    assert table.state.hands == []


def test_a_fours_table_phone_plays_a_partnership_hand_and_the_other_side_confirms(store: Store) -> None:
    service = TournamentService(store)
    event_id = service.create_event(name="Fours", password=PASSWORD, rounds=2, kind="fours", seed="s", unit="hands")
    desk = Desk(service, event_id)
    assert desk.sign_in(PASSWORD), desk.message
    for name in ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"):
        assert desk.register(name), desk.message
    assert desk.pair(), desk.message
    line = desk.tables()[0]
    a, b, c, d = line.names
    assert line.versus == f"{a} & {c} v {b} & {d}"
    hall = Hall(service, event_id)
    hall.load()
    assert f"{a}: table 1 (with {c} v {b}, {d})" in hall.by_name()
    device, table = device_on(service, event_id, desk.codes[1], store)
    assert table.state.players == [a, b, c, d] and table.state.rules.partners
    match, _ = simulate("smartt", 4, 200, 5, {"partners": True})
    hand = match.to_record()["hands"][0]
    play_hand(table, hand)
    assert table.state.hands[0].finished
    # The side that did not score the hand confirms it: both its players are named.
    confirmers = device.confirmers(table.state, 1)
    assert sorted(confirmers) in (sorted([a, c]), sorted([b, d]))
    assert device.confirm(table.state, 1), device.message
    standings = {s.name: s for s in service.standings(None, event_id)}
    assert standings[a].spread == standings[c].spread == -standings[b].spread == -standings[d].spread
