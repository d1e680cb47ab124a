"""The tournament's web layer (scorepad/app/models/tournament.py): roles enforced through the service, on a real store.

A table device scores through ``DeviceStore`` and the real ``Table``: a code
for one table cannot write to another table's match, nor to its own once
the round is locked or the next one paired; the hall and spectators have no
credential and every write the service offers refuses them; a wrong
password is rate-limited.
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import flet as ft
import pytest
from sqlalchemy import MetaData, select

from scorepad.access import Caller
from scorepad.app.models.desk import Desk, signed_in_desk
from scorepad.app.models.limits import SlidingLimit
from scorepad.app.models.table import Table
from scorepad.app.models.tournament import (
    Creation,
    DeviceStore,
    Hall,
    TableDevice,
    Watch,
    event_number,
    game_scores,
    query_value,
    table_number,
)
from scorepad.app.shell.router import Shell, resolve
from scorepad.simulate import simulate
from scorepad.store import Store, StoreError, open_store
from scorepad.tournament import KINDS, TournamentService
from scorepad.tournament.errors import AccessDenied, TooManyAttempts, TournamentError
from scorepad.tournament.events import PAIRINGS

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
    return device, Table(device.guarded(store), device.match_id, caller=device.caller(view="web:test"), tournament=True)


def play_hand(table: Table, hand: dict[str, Any]) -> None:
    """Enter one record hand through the table's store, as the screen's taps do."""
    store = table.store
    store.start_hand(table.match_id, hand["setter"], caller=table.caller)
    for event in hand["events"]:
        store.append(table.match_id, event, caller=table.caller)
    if "remaining" in hand:
        store.settle(table.match_id, hand["remaining"], caller=table.caller)
    table.refresh()


def test_routes_are_read_strictly() -> None:
    director, watch = resolve("/event/3/director"), resolve("/event/3/watch/2?delay=30")
    assert (director.shell, director.page, event_number(director.part("event"))) == (Shell.EVENT, "director", 3)
    assert (watch.page, event_number(watch.part("event")), table_number(watch.part("table"))) == ("watch", 3, 2)
    assert query_value("/event/3/watch/2?delay=30", "delay") == "30"
    # No page of the tournament's: the score-pad's home screen draws them.
    for elsewhere in ("/event/3/admin", "/event/3/watch/", "/event/3", "/match/3", "/nowhere"):
        assert resolve(elsewhere).shell is Shell.PAD, elsewhere
    # A tournament page at a number no event or table can have: the page says so (NO_SUCH_EVENT, NO_SUCH_TABLE).
    for number in ("x", "0", "²", "9" * 20, None):
        assert event_number(number) is None, number
    assert table_number("123456") is None and table_number("x") is None and table_number("12345") == 12345


def test_a_table_code_writes_only_its_own_match_in_the_current_round(store: Store, event) -> None:
    service, event_id, desk, codes = event
    one, table_one = device_on(service, event_id, codes[1], store)
    assert table_one.tournament, "no strategy hints at a tournament table"
    table_one.toggle_training()
    assert not table_one.training and table_one.hints() == ()
    two, _table_two = device_on(service, event_id, codes[2], store)
    # Table 1's device aims its store at table 2's match: the door refuses it, nothing is written.
    before = store.load(two.match_id).revision
    guarded = one.guarded(store)
    with pytest.raises(StoreError, match=r"only change its own match|table 2's"):
        guarded.start_hand(two.match_id, 0, caller=table_one.caller)
    assert store.load(two.match_id).revision == before
    # Its own match: the real table screen's model scores through the guard.
    hand = first_game_hand()
    play_hand(table_one, hand)
    assert table_one.state.hands[0].finished
    # Locking the round ends the code: the same device can no longer write, even to its own match.
    assert desk.lock("test over"), desk.message
    with pytest.raises(StoreError):
        guarded.undo(one.match_id, caller=table_one.caller)
    assert not TableDevice(service, event_id).join(codes[1])


def test_a_past_rounds_code_cannot_edit_the_new_round(store: Store, event) -> None:
    service, event_id, desk, codes = event
    old, old_table = device_on(service, event_id, codes[1], store)
    assert desk.lock("skip round 1"), desk.message
    assert desk.pair(), desk.message
    new_match = desk.tables()[0].match_id
    with pytest.raises(StoreError):
        old.guarded(store).start_hand(new_match, 0, caller=old_table.caller)
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
    assert any("at table 1" in line and line.endswith("(reason: misread tile)") for line in desk.audit_lines())
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
    # A page picked by a tap stays through the next turn of the rotation, which then goes on from it.
    hall.pick_page("standings")
    assert hall.page() == "standings"
    hall.rotate()
    assert hall.page() == "standings"
    hall.rotate()
    assert hall.page() == "results"
    hall.pick_page("nothing such")
    assert hall.page() == "results"
    assert hall.by_name()[0].startswith("Ann: table")
    assert desk.lock("next"), desk.message
    assert desk.pair(), desk.message
    hall.load()
    assert hall.last_round()
    assert "standings" not in hall.pages()


class Clock:
    """A clock a test moves by hand (seconds since the epoch, as ``time.time``)."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_a_spectator_sees_the_table_after_its_delay(store: Store, event) -> None:
    service, event_id, _desk, codes = event
    _device, table = device_on(service, event_id, codes[1], store)
    clock = Clock(time.time())
    watch = Watch(service, event_id, 1, delay=30, clock=clock)
    assert watch.find()
    play_hand(table, first_game_hand())
    clock.now += 1
    watch.saw()
    assert watch.shown().hands == []  # the first state seen, until 30 s have passed
    assert watch.next_due() == pytest.approx(30.0)
    clock.now += 31
    assert len(watch.shown().hands) == 1
    assert any(line == "Hand 1" for line in watch.lines())


def clock_past(moment: float) -> None:
    """Wait until the clock has passed ``moment`` (the audit's time of the last entry), so the next entry is later."""
    while time.time() <= moment:
        time.sleep(0.001)


def test_a_fresh_delayed_page_starts_its_delay_behind(store: Store, event) -> None:
    # Issue 18 §5: a page opened 60 s after the first half of a hand was entered shows that half, not the
    # live table, and then each later entry 60 s after it was made.
    service, event_id, _desk, codes = event
    _device, table = device_on(service, event_id, codes[1], store)
    hand = first_game_hand()
    half = len(hand["events"]) // 2
    play_hand(table, {"setter": hand["setter"], "events": hand["events"][:half]})
    then = store.load(table.match_id)
    cut = store.audit(table.match_id)[-1].at.timestamp()
    clock_past(cut)
    rest = store.audit(table.match_id)
    for event_ in hand["events"][half:]:
        store.append(table.match_id, event_, caller=table.caller)
    store.settle(table.match_id, hand["remaining"], caller=table.caller)
    now = store.load(table.match_id)
    later = [a.at.timestamp() for a in store.audit(table.match_id)[len(rest) :]]
    assert min(later) > cut

    clock = Clock(cut + 60)
    watch = Watch(service, event_id, 1, delay=60, clock=clock)
    assert watch.find()
    shown = watch.shown()
    assert shown.revision == then.revision < now.revision
    assert len(shown.hands[0].events) == half and not shown.hands[0].finished
    assert watch.next_due() == pytest.approx(later[0] + 60 - clock.now)
    first_lines = watch.lines()
    # As the clock moves on, each later entry is shown 60 s after it was made: the last is the match now.
    clock.now = later[-1] + 60
    assert watch.shown().revision == now.revision
    assert watch.shown().hands[0].finished
    assert watch.next_due() is None
    # A page without a delay shows the match now.
    live = Watch(service, event_id, 1, clock=clock)
    assert live.find() and live.shown().revision == now.revision
    # What the fresh page drew first was not the live table's account.
    assert first_lines != live.lines() and live.lines() == watch.lines()


def test_the_hall_shows_live_scores_byes_names_standings_and_game_scores(store: Store) -> None:
    # Issue 18 §10: each table's live score and hand while it plays, "Table 3: Eve, bye", everyone by name in
    # alphabetical order with a table number, the standings in columns with their working, results with games.
    service = TournamentService(store)
    event_id = service.create_event(name="Hall", password=PASSWORD, rounds=2, seed="h")
    desk = Desk(service, event_id)
    assert desk.sign_in(PASSWORD), desk.message
    for name in ("eve", "Dee", "Cy", "Bob", "Ann"):
        assert desk.register(name), desk.message
    assert desk.pair(), desk.message
    hall = Hall(service, event_id)
    hall.load()
    tables = hall.hall_tables()
    bye = next(t for t in tables if t.bye)
    assert bye.line == f"Table {bye.number}: {bye.sides[0]}, bye" and bye.hand == "bye"
    assert all(t.hand == "not started" and t.scores == () for t in tables if not t.bye)
    names = [name for name, _where in hall.name_rows()]
    assert names == ["Ann", "Bob", "Cy", "Dee", "eve"]
    for name, where in hall.name_rows():
        table = next(t for t in tables if any(name in side for side in t.sides))
        assert where == ("bye" if table.bye else f"table {table.number}")
    # Half a hand at table 1: the hall reads the match as it stands, not only what is confirmed.
    _device, table = device_on(service, event_id, desk.codes[1], store)
    hand = first_game_hand()
    half = len(hand["events"]) // 2
    play_hand(table, {"setter": hand["setter"], "events": hand["events"][:half]})
    hall.load()
    one = hall.hall_tables()[0]
    assert one.hand == "hand 1 in play"
    assert one.scores == tuple(table.state.scores) and len(one.scores) == 2
    assert hall.standing_columns()[:2] == ("#", "Name")
    rows = hall.standing_rows()
    assert len(rows) == 5 and all(len(row) == len(hall.standing_columns()) for row in rows)
    name, working = hall.working(0)
    assert name == hall.standings[0].name and working == tuple(hall.standings[0].working)
    assert any(title == bye.line and figures == "no game this round" for title, figures in hall.result_rows())
    # A table that has finished no hand has no result yet: no zero figures, as if it had ended nil-all.
    results = dict(hall.result_rows())
    assert results[one.line] == "nothing confirmed yet"
    assert all(results[t.line] == "nothing confirmed yet" for t in hall.hall_tables() if not t.bye)


def test_game_scores_are_the_finished_games_final_scores() -> None:
    match, _ = simulate("smartt", 2, 200, 3, {"target": 60})
    games = match.games()
    assert games, "the simulated match finished a game"
    assert game_scores(match) == "games " + ", ".join(f"{g.scores[0]}-{g.scores[1]}" for g in games)
    assert game_scores(None) == ""


def test_a_device_store_turns_the_rounds_refusal_into_one_sentence() -> None:
    class Inner:
        def start_hand(self, match_id: int, setter: int | None = None, **_kwargs: Any) -> str:
            return "started"

        def append(self, match_id: int, event: Any, **_kwargs: Any) -> str:
            return "written"

    class Device:
        def check_next_hand(self, match_id: int) -> None:
            if match_id != 1:
                raise TournamentError("table 1 has played its games for the round")

    store = DeviceStore(cast(Any, Inner()), cast(Any, Device()))
    caller = Caller.local("d")
    assert store.start_hand(1, 0, caller=caller) == "started"
    # Only a new hand asks the round; every other write is the door's to check, in the store.
    assert store.append(2, {}, caller=caller) == "written"
    with pytest.raises(StoreError, match=r"^Table 1 has played its games for the round\.$"):
        store.start_hand(2, 0, caller=caller)


def every_row(store: Store) -> dict[str, list[str]]:
    """Every row of every table of the store's database, as text, by table."""
    meta = MetaData()
    meta.reflect(store.engine)
    with store.engine.connect() as conn:
        return {t.name: [" ".join(str(v) for v in row) for row in conn.execute(select(t))] for t in meta.sorted_tables}


def filled(creation: Creation, **typed: str) -> Creation:
    """The creation form with a valid event typed in, then ``typed`` over it."""
    for name, text in {"name": "Club night", "password": PASSWORD, "again": PASSWORD, **typed}.items():
        creation.enter(name, text)
    return creation


def test_the_new_event_form_refuses_bad_input_with_one_sentence_and_creates_nothing(store: Store) -> None:
    service = TournamentService(store)
    creation = Creation(service, source="phone", limit=SlidingLimit(per_client=5, in_all_max=50, window=600))
    assert resolve("/event/new").page == "new-event" and resolve("/event/new/x").shell is Shell.PAD
    # The choices come from the engine's presets and the tournament service, not from the page.
    assert creation.kinds() == list(KINDS) and creation.pairings() == list(PAIRINGS)
    refusals = {
        "no name": ({"name": "  "}, "name of 1 to 80"),
        "rounds not a number": ({"rounds": "three"}, "number of rounds as a whole number"),
        "rounds a superscript": ({"rounds": "²"}, "whole number"),
        "no rounds": ({"rounds": "0"}, "1 to 50 rounds"),
        "games a round": ({"per_round": "-1"}, "games a round as a whole number"),
        "bye points": ({"bye_points": "2.5"}, "bye's points as a whole number"),
        "passwords differ": ({"again": PASSWORD + "!"}, "passwords differ"),
        "short password": ({"password": "short", "again": "short"}, "at least 8 characters"),
        "target": ({}, "The target must be a whole number from 1 to 9999"),
    }
    for case, (typed, words) in refusals.items():
        form = filled(creation, **{"name": "Club night", "rounds": "3", "per_round": "1", "bye_points": ""})
        form.form.match.target = "lots" if case == "target" else ""
        filled(creation, **typed)
        assert not creation.create(), case
        message = creation.message or ""
        assert words in message, (case, message)
        assert message[0].isupper() and message.endswith(".") and "\n" not in message, message
        assert creation.event_id is None and creation.token is None
    # Threes are not a round robin: the service's own rule, said by the page.
    filled(creation, rounds="3", again=PASSWORD, password=PASSWORD)
    creation.form.match.target = ""
    creation.choose_kind("threes")
    creation.choose_pairing("round-robin")
    assert not creation.create()
    assert "round robin" in (creation.message or "")
    assert every_row(store)["tournament_events"] == [], "a refused form created an event"
    # Choices outside the service's lists are ignored, not stored.
    creation.choose_kind("fives")
    creation.choose_pairing("knockout")
    creation.choose_rules("cribbage")
    assert (creation.form.kind, creation.form.pairing, creation.form.match.rules) == ("threes", "round-robin", "smartt")


def test_the_new_event_form_creates_the_event_and_signs_the_director_in(store: Store) -> None:
    service = TournamentService(store)
    limit = SlidingLimit(per_client=2, in_all_max=50, window=600)
    clock = [1000.0]
    creation = Creation(service, source="phone", limit=limit, clock=lambda: clock[0])
    filled(creation, rounds="4", per_round="2", bye_points="3")
    creation.choose_rules("american")
    creation.choose_kind("partners")
    creation.choose_unit("hands")
    creation.choose_pairing("swiss")
    creation.form.match.target = "150"
    assert "partners" in creation.summary()
    assert creation.create(), creation.message
    assert creation.form.password == creation.form.again == "", "the password is not kept on the page"
    info = service.event_info(None, creation.event_id)
    assert (info["name"], info["rules"], info["kind"], info["rounds"], info["unit"], info["per_round"]) == (
        "Club night",
        "american",
        "partners",
        4,
        "hands",
        2,
    )
    assert info["options"]["target"] == 150 and info["options"]["partners"] is True
    desk = signed_in_desk(creation)
    assert desk.signed_in and desk.title() == "Club night: no round paired yet"
    assert desk.register("Ann & Bob"), desk.message  # the token is the director's: a director's write works
    # Stored only as its argon2 hash.
    dump = repr(every_row(store))
    assert "$argon2id$" in dump and PASSWORD not in dump
    # A second creation from the address, then the limit holds it; another address is not held.
    second = filled(Creation(service, source="phone", limit=limit, clock=lambda: clock[0]))
    assert second.create(), second.message
    third = filled(Creation(service, source="phone", limit=limit, clock=lambda: clock[0]))
    assert not third.create()
    assert "too many events created from here" in (third.message or "").lower()
    assert filled(Creation(service, source="laptop", limit=limit, clock=lambda: clock[0])).create()
    clock[0] += 601
    assert third.create(), "the window slides"


@pytest.mark.asyncio
async def test_the_new_event_page_is_wired_from_the_home_screen(tmp_path: Any) -> None:
    from .wiring import Wired

    store = open_store(f"sqlite:///{tmp_path / 'wired.db'}")
    wired = await Wired(store, width=360, height=640).open()
    try:
        await wired.tap("new-event")
        assert wired.page.route == "/event/new"
        # Every field is labelled, every button is 48 px high.
        for name in ("name", "rounds", "per-round", "bye-points", "password", "again", "target"):
            assert wired.find(name).content.label, name
        buttons = [c for c in wired.all() if isinstance(c, ft.FilledButton | ft.OutlinedButton)]
        assert len(buttons) >= 10 and all(b.height >= 48 for b in buttons)
        await wired.type("name", "Club night")
        await wired.type("password", PASSWORD)
        await wired.type("again", "another password")
        await wired.tap("create-event")
        assert wired.text("create-message") == "The two passwords differ: type the same one twice."
        assert every_row(store)["tournament_events"] == []
        await wired.type("again", PASSWORD)
        assert not wired.exists("create-message"), "the refusal goes once the form is mended"
        await wired.type("rounds", "2")
        await wired.tap("kind-threes")
        await wired.tap("rules-american")
        assert "american, 3 players" in wired.text("rules-summary")
        await wired.tap("create-event")
        # The director's page of the new event, signed in: no password asked.
        assert wired.text("event-title") == "Club night: no round paired yet"
        assert not wired.exists("password")
        assert wired.exists("register")
        info = TournamentService(store).event_info(None, 1)
        assert (info["kind"], info["rules"], info["rounds"]) == ("threes", "american", 2)
    finally:
        wired.close()
        store.close()


@pytest.mark.asyncio
async def test_an_event_address_opened_in_the_home_pages_tab_shows_the_event_page(tmp_path: Any) -> None:
    from .wiring import Wired

    store = open_store(f"sqlite:///{tmp_path / 'wired.db'}")
    event_id = TournamentService(store).create_event(name="Open", password=PASSWORD, rounds=1)
    wired = await Wired(store).open()
    try:
        assert wired.exists("new-match")
        # The browser comes back to this page's session with another address, as Flet's web server does.
        route = f"/event/{event_id}/director"
        assert wired.session is not None
        wired.connection.page_url = "http://127.0.0.1:8550"  # what the web server's connection knows
        wired.session.apply_page_patch({"route": route})
        await wired.page._trigger_event("route_change", {"route": route})
        await wired.settle()
        assert wired.exists("password") and wired.exists("sign-in")
        assert not wired.exists("new-match")
    finally:
        wired.close()
        store.close()


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
    assert any("gave a forfeit at table 1" in a and a.endswith("(reason: did not turn up)") for a in desk.audit_lines())
    assert any("game points 2 = R1 2 (forfeit win)" in working for _, working in desk.working())
    # The table's phone can no longer write to its match.
    with pytest.raises(StoreError, match="forfeited"):
        device.guarded(store).start_hand(device.match_id, 0, caller=table.caller)
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
    # The hall shows the partnerships, not four names in a row (issue 18 §10).
    assert hall.hall_tables()[0].line == f"Table 1: {a} & {c} v {b} & {d}"
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


@pytest.mark.asyncio
async def test_a_tables_qr_code_joins_its_phone_at_once(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The director shows table 1's QR code; its link opens the table page with the code, which joins at once."""
    import urllib.parse

    from scorepad.app.models import links

    from .wiring import Wired

    store = open_store(f"sqlite:///{tmp_path / 'wired.db'}")
    event_id = TournamentService(store).create_event(name="Open", password=PASSWORD, rounds=1, seed="s")
    link = links.JoinLink(
        url="http://192.168.1.5:8550/join?code=123456", code="123456", address="http://192.168.1.5:8550/"
    )
    monkeypatch.setattr(links, "_current", link)
    director = await Wired(store, route=f"/event/{event_id}/director").open()
    pages = [director]
    try:
        await director.type("password", PASSWORD)
        await director.tap("sign-in")
        for name in ("Ann", "Bob", "Cy", "Dee"):
            await director.type("player", name)
            await director.tap("register")
        await director.tap("pair")
        assert not director.exists("table-qr-1")
        await director.tap("table-menu-1")  # the table's menu holds its QR code
        await director.tap("qr-1")
        qr = director.find("table-qr-1")
        assert qr.label == "QR code that joins table 1"
        code = re.search(r"code (\d+-\w+)", director.text("table-code-1"))
        assert code is not None, director.text("table-code-1")
        images = [c for c in director.all() if isinstance(c, ft.Image)]
        assert len(images) == 1 and isinstance(images[0].src, bytes) and images[0].src.startswith(b"\x89PNG")
        # What the picture holds: the door's join code, then on to this table's page with its code.
        url = links.page_link(f"/event/{event_id}/table?code={code.group(1)}")
        assert url is not None
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)
        assert query["code"] == ["123456"]
        assert query["next"] == [f"/event/{event_id}/table?code={code.group(1)}"]
        await director.tap("table-menu-1")
        await director.tap("qr-1")
        assert not director.exists("table-qr-1")
        # The phone that scanned it: the table's screen straight away, no code to type.
        phone = await Wired(store, route=query["next"][0], width=360, height=640).open()
        pages.append(phone)
        assert not phone.exists("table-code"), sorted(phone.identified())
        assert phone.exists("board-count"), sorted(phone.identified())
        # A link with a wrong code says so, with the code typed in the field to correct it.
        wrong = await Wired(store, route=f"/event/{event_id}/table?code=1-WRONG", width=360, height=640).open()
        pages.append(wrong)
        assert wrong.find("table-code").content.value == "1-WRONG"
        assert not wrong.exists("board-count")
        assert wrong.exists("join")
    finally:
        for page in pages:
            page.close()
        store.close()


def test_the_desk_withdraws_forbids_and_repairs_by_hand_with_new_codes(store: Store, event) -> None:
    service, event_id, desk, codes = event
    # Refusals are one sentence, and nothing is sent without what the service needs.
    assert not desk.withdraw("  ") and desk.message == "Type who withdraws: a name or an entrant number."
    assert not desk.withdraw("Zed") and desk.message == "Nobody called or numbered 'Zed' is registered in this event."
    assert not desk.forbid("Ann", "", "family") and desk.message is not None and "two entrants" in desk.message
    assert not desk.forbid("Ann", "Bob", " ") and desk.message is not None and "Say why" in desk.message
    assert not desk.repair(" ; ", "lift") and desk.message is not None and "seat order" in desk.message
    # A desk without the director's sign-in is refused by the service itself.
    stranger = Desk(service, event_id)
    assert (
        not stranger.withdraw("Ann")
        and stranger.message == "A spectator may not withdraw an entrant: only the director may."
    )
    assert not stranger.repair("Ann,Bob; Cy,Dee", "x") and stranger.message is not None
    assert "only the director" in stranger.message
    assert desk.forbid("1", "Bob", "family"), desk.message
    assert desk.message == "Ann and Bob will never be paired at one table."
    assert not desk.repair("Ann,Bob; Cy,Dee", "swap"), "a forbidden pair seated by hand"
    assert desk.message == "Ann and Bob may not meet (family)."
    # Dee is left out: a bye. Every table has a new code; the old ones no longer join.
    assert desk.repair("Ann,Cy", "Bob and Dee came late"), desk.message
    assert desk.message == "Round 1 re-paired by hand: give each table its new code (Bob, Dee have a bye)."
    lines = desk.tables()
    assert [(t.versus, t.bye) for t in lines] == [("Ann v Cy", False), ("Bob", True), ("Dee", True)]
    assert list(desk.codes) == [1] and desk.codes[1] != codes[1]
    assert not TableDevice(service, event_id).join(codes[1])
    assert TableDevice(service, event_id).join(desk.codes[1])
    assert any(
        "re-paired round" in line and line.endswith("(reason: Bob and Dee came late)") for line in desk.audit_lines()
    )
    assert desk.withdraw("Dee"), desk.message
    assert desk.message == "Dee withdrawn: not paired from round 2 on; their results stay."
    assert not desk.withdraw("4") and desk.message == "Dee has already withdrawn (from round 2)."


def test_the_desk_takes_back_a_forfeit_and_reopens_the_round(store: Store, event) -> None:
    service, event_id, desk, codes = event
    device, table = device_on(service, event_id, codes[1], store)
    loser = desk.tables()[0].names[0]
    assert not desk.unforfeit(1, "mistake") and desk.message == "Table 1 has no forfeit to take back."
    assert desk.forfeit(1, loser, "did not turn up"), desk.message
    # The table's own credential may not take it back; the desk says the refusal in one sentence.
    with pytest.raises(AccessDenied, match="only the director"):
        service.unforfeit(device.token, event_id, 1, reason="we are here")
    assert not desk.unforfeit(1, "") and desk.message is not None and "reason" in desk.message
    assert desk.unforfeit(1, "wrong table"), desk.message
    assert desk.message == "The forfeit at table 1 (Ann v Dee) is taken back: the table plays on and its hands count."
    assert desk.tables()[0].state == "not started"
    play_hand(table, first_game_hand())
    assert table.state.hands[0].finished, "the table's phone scores again"
    assert not desk.reopen("x") and desk.message == "Round 1 is not locked: it is still in play."
    assert desk.lock("done for tonight"), desk.message
    assert desk.title().endswith("locked")
    with pytest.raises(StoreError, match="locked"):
        device.guarded(store).undo(device.match_id, caller=table.caller)
    assert not desk.reopen(" ") and desk.message is not None and "reason" in desk.message
    assert desk.reopen("table 1 misread a tile"), desk.message
    assert desk.message == (
        "Round 1 reopened: its table codes work again; lock it again before pairing the next round."
    )
    assert not desk.title().endswith("locked")
    assert any(
        "reopened round" in line and line.endswith("(reason: table 1 misread a tile)") for line in desk.audit_lines()
    )
    device.guarded(store).undo(device.match_id, caller=table.caller)
    table.refresh()
    assert not table.state.hands[0].finished


def test_the_desk_settles_a_hand_again_and_the_table_confirms_it_again(store: Store, event) -> None:
    service, event_id, desk, codes = event
    device, table = device_on(service, event_id, codes[1], store)
    play_hand(table, first_game_hand())  # seat 0 goes out; seat 1's two tiles were counted 11 pips
    state = table.state
    assert device.confirm(state, 1), device.message
    desk.load()
    assert not desk.tables()[0].provisional
    first, second = state.players
    old = state.hands[0].scores_after
    assert not desk.resettle(1, " ", "recount")
    assert desk.message == 'Type what each seat still held, in seat order: pips or tiles, such as "12, 0".'
    assert not desk.resettle(1, "0, 99", "recount")
    assert desk.message == (
        f"Hand 1 at table 1 keeps its settlement: {second} holds 2 tiles, which can weigh 2 to 20 pips, not 99."
    )
    assert not desk.resettle(1, "0, 14", "") and desk.message is not None and "reason" in desk.message
    assert store.load(device.match_id).revision == state.revision, "a refusal wrote nothing"
    # The table's own code may not settle a hand again: only the director.
    with pytest.raises(AccessDenied, match="only the director"):
        service.resettle(device.token, event_id, 1, remaining="0, 14", reason="we counted again")
    assert desk.resettle(1, "0, 14", "the 2-2 was a 3-3"), desk.message
    assert desk.message == (
        f"Hand 1 at table 1 is settled again: {first} {old[0] + 5}, {second} {old[1]}"
        f" (it was {first} {old[0]}, {second} {old[1]}); the hand counts once confirmed again."
    )
    assert any(
        "settled hand 1 at table 1 again" in line and line.endswith("(reason: the 2-2 was a 3-3)")
        for line in desk.audit_lines()
    )
    # The hand changed: it waits for the opposing side's confirmation again, on the table's phone too.
    assert desk.tables()[0].provisional
    table.refresh()
    assert table.state.hands[0].scores_after == [old[0] + 5, old[1]]
    assert device.waiting(table.state) == [1]
    assert device.confirm(table.state, 1), device.message
    desk.load()
    assert not desk.tables()[0].provisional


def test_the_desk_names_entrants_by_number_and_says_autos_choice_before_pairing(store: Store) -> None:
    # Issue 18 §1-2: the reply names the player with the event's own entrant number; the page can say
    # which format Auto chooses, and that a round robin takes no late entry, before the round is paired.
    service = TournamentService(store)
    event_id = service.create_event(name="Words", password=PASSWORD, rounds=3, seed="w", unit="hands")
    desk = Desk(service, event_id)
    assert desk.sign_in(PASSWORD), desk.message
    for number, name in enumerate(("Ann", "Bob", "Cy", "Dee"), 1):
        assert desk.register(name), desk.message
        assert desk.message == f"{name} registered as entrant {number}."
    assert desk.pairing_words().startswith("Auto chooses a round robin, as the field stands now: 4 entrants")
    assert "Nobody can join after round 1 is paired" in desk.pairing_words()
    assert desk.forbid("1", "2", "family"), desk.message
    assert desk.pairing_words().startswith("Auto chooses Swiss, as the field stands now: Ann and Bob are kept apart")
    assert desk.pair(), desk.message
    table = next(t for t in desk.tables() if not t.bye)
    loser = service.round_view(None, event_id).tables[table.number - 1]
    number = service.entrant(None, event_id, loser.names[0]).number
    assert desk.forfeit(table.number, str(number), "did not turn up"), desk.message
    assert desk.message == f"Table {table.number} forfeited by {loser.names[0]}: the others score a forfeit win."
