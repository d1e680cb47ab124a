"""The director's desk without a browser: the model (``models.desk``) on a real store, then its page in process.

Each act is chosen from a table's or an entrant's acts and done through the
form the screen draws (``begin``, ``choose``, ``set_reason``, ``carry_out``),
so nothing but a reason or a hand's figures is typed; every act says what it
did in the players' names, and the service alone decides (a refusal is its
own sentence and changes nothing).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from scorepad.app.models.desk import Desk, table_state
from scorepad.simulate import simulate
from scorepad.store import Store, open_store
from scorepad.tournament import TournamentService
from scorepad.tournament.errors import AccessDenied

from .wiring import Wired

PASSWORD = "a long director password"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = open_store(f"sqlite:///{tmp_path / 'desk.db'}")
    try:
        yield opened
    finally:
        opened.close()


@pytest.fixture
def desk(store: Store) -> Desk:
    """A signed-in desk on a two-round singles event of four players, round 1 paired."""
    service = TournamentService(store)
    event_id = service.create_event(name="Open", password=PASSWORD, rounds=2, seed="desk")
    desk = Desk(service, event_id, source="director-phone")
    assert desk.sign_in(PASSWORD), desk.message
    for name in ("Ann", "Bob", "Cy", "Dee"):
        assert desk.register(name), desk.message
    assert desk.pair(), desk.message
    return desk


def play_hand(desk: Desk, table: int = 1) -> None:
    """Table ``table`` plays a whole hand that goes out (through the service, as its phone would)."""
    hand = simulate("smartt", 2, 200, 3, {})[0].to_record()["hands"][0]
    match_id = next(t.match_id for t in desk.round.tables if t.number == table)
    service, event_id, token = desk.service, desk.event_id, desk.token
    service.start_hand(token, event_id, match_id, hand["setter"])
    for event in hand["events"]:
        service.append(token, event_id, match_id, event)
    service.settle(token, event_id, match_id, hand["remaining"])
    desk.load()


def test_the_round_is_tables_with_their_state_names_code_and_acts(desk: Desk) -> None:
    tables = desk.desk_tables()
    assert [t.number for t in tables] == [1, 2]
    one = tables[0]
    assert one.state == "not started" and len(one.names) == 2 and one.versus == " v ".join(one.names)
    assert one.code is not None and re.fullmatch(r"1-\w{6}", one.code)
    # Nothing played: no correction, no hand to settle again.
    assert one.acts == ("new-code", "qr", "forfeit")
    desk.begin("new-code", table=1)
    assert desk.message == f"Table 1 ({one.versus}) has a new code; the old one no longer joins."
    assert desk.codes[1] != one.code and desk.service.join_table(desk.event_id, desk.codes[1])
    play_hand(desk)
    one = desk.table_numbered(1)
    assert one is not None and one.state == "hand 1 finished"
    assert one.acts == ("new-code", "qr", "correct", "resettle", "forfeit")
    assert one.line.startswith(f"Table 1: {one.versus} - 1 played, 1 finished, 0 confirmed")


def test_every_table_state_has_its_word() -> None:
    class View:
        bye = False
        forfeit = None

        def __init__(self, played: int, finished: int, confirmed: int, games: int) -> None:
            self.result = type("R", (), {})()
            self.result.hands_played, self.result.hands_finished = played, finished
            self.result.hands_confirmed, self.result.games_finished = confirmed, games
            self.result.provisional = confirmed < finished

    games = {"unit": "games", "per_round": 1}
    assert table_state(View(0, 0, 0, 0), games) == "not started"
    assert table_state(View(2, 1, 1, 0), games) == "hand 2 in play"
    assert table_state(View(3, 3, 2, 1), games) == "finished"
    assert table_state(View(3, 3, 3, 1), games) == "confirmed"
    assert table_state(View(2, 2, 2, 0), {"unit": "hands", "per_round": 2}) == "confirmed"


def test_correct_and_settle_again_from_the_tables_menu(desk: Desk) -> None:
    play_hand(desk)
    desk.toggle_menu("table-1")
    assert desk.menu == "table-1"
    desk.begin("resettle", table=1)
    assert desk.menu is None and desk.pending is not None
    desk.set_figure(0, "0")
    desk.set_reason("the 2-2 was a 3-3")
    assert not desk.carry_out() and "each seat" in (desk.message or ""), "a seat left blank is said, not sent"
    desk.set_figure(1, "99")
    assert not desk.carry_out() and "keeps its settlement" in (desk.message or "")
    assert desk.pending is not None, "a refused form stays open with what was typed"
    desk.set_figure(1, "14")
    assert desk.carry_out(), desk.message
    assert "is settled again" in (desk.message or "") and desk.pending is None
    versus = desk.table_numbered(1).versus  # type: ignore[union-attr]
    desk.begin("correct", table=1)
    assert not desk.carry_out() and "reason" in (desk.message or "").lower()
    desk.set_reason("a tile misread")
    assert desk.carry_out(), desk.message
    assert desk.message == f"Table 1 corrected ({versus}): its hand is provisional until confirmed again."
    assert any("at table 1" in line and line.endswith("(reason: a tile misread)") for line in desk.audit_lines())


def test_a_forfeit_picks_who_from_the_table_and_is_taken_back(desk: Desk) -> None:
    table = desk.table_numbered(2)
    assert table is not None
    desk.begin("forfeit", table=2)
    desk.set_reason("did not turn up")
    assert not desk.carry_out() and desk.message == "Tap who forfeits first."
    desk.choose(table.names[0])
    assert desk.message is None, "choosing who forfeits answers the refusal"
    assert desk.carry_out(), desk.message
    assert desk.message == f"Table 2 forfeited by {table.names[0]}: the others score a forfeit win."
    after = desk.table_numbered(2)
    assert after is not None and after.state == "forfeit" and after.acts == ("new-code", "qr", "unforfeit")
    desk.begin("unforfeit", table=2)
    desk.set_reason("at the bar")
    assert desk.carry_out(), desk.message
    assert (
        desk.message
        == f"The forfeit at table 2 ({table.versus}) is taken back: the table plays on and its hands count."
    )
    assert desk.table_numbered(2).state == "not started"  # type: ignore[union-attr]


def test_a_live_reload_brings_the_audit_and_the_entrants_another_director_changed(desk: Desk) -> None:
    """The desk's page reloads in the background when a followed match changes (``read`` then ``show``).

    That reload must bring the event's audit too: the audit lines and the
    entrants drawn from it (withdrawn or not) would otherwise stay as they
    were at this desk's own last act.
    """
    other = Desk(desk.service, desk.event_id, source="second-director-phone")
    assert other.sign_in(PASSWORD), other.message
    dee = next(e for e in other.desk_entrants() if e.name == "Dee")
    other.begin("withdraw", entrant=dee.number)
    assert other.carry_out(), other.message
    assert not any("withdrew Dee" in line for line in desk.audit_lines()), "nothing read yet"
    desk.show(desk.read())  # what the page's live reload does, in a worker thread then on the page
    assert "the director withdrew Dee from round" in desk.audit_lines()[0], desk.audit_lines()[:3]
    withdrawn = next(e for e in desk.desk_entrants() if e.name == "Dee")
    assert withdrawn.withdrawn and "withdraw" not in withdrawn.acts


def test_entrants_are_kept_apart_withdrawn_and_swapped_by_picking(desk: Desk) -> None:
    people = {e.name: e for e in desk.desk_entrants()}
    assert [e.number for e in desk.desk_entrants()] == [1, 2, 3, 4]
    assert people["Ann"].acts == ("withdraw", "forbid", "repair")
    desk.begin("forbid", entrant=people["Ann"].number)
    desk.set_reason("husband and wife")
    assert not desk.carry_out() and desk.message == "Tap the player to keep apart from Ann."
    desk.choose(str(people["Bob"].number))
    assert desk.carry_out(), desk.message
    assert desk.message == "Ann and Bob will never be paired at one table."
    assert desk.entrant_named(people["Ann"].number).apart_from == ("Bob",)  # type: ignore[union-attr]
    # Swap Ann's and Cy's seats: the round is re-seated by hand, with new codes.
    old = dict(desk.codes)
    seat_of = {e.name: e.where for e in desk.desk_entrants()}
    desk.begin("repair", entrant=people["Ann"].number)
    desk.choose(str(people["Cy"].number))
    desk.set_reason("Ann's lift")
    assert desk.carry_out(), desk.message
    assert "(Ann and Cy swap seats)" in (desk.message or "")
    now = {e.name: e.where for e in desk.desk_entrants()}
    assert (now["Ann"], now["Cy"]) == (seat_of["Cy"], seat_of["Ann"])
    assert set(desk.codes) == set(old) and all(desk.codes[n] != old[n] for n in old)
    desk.begin("withdraw", entrant=people["Dee"].number)
    assert desk.carry_out(), desk.message
    assert desk.message == "Dee withdrawn: not paired from round 2 on; their results stay."
    dee = desk.entrant_named(people["Dee"].number)
    assert dee is not None and dee.withdrawn and dee.where == "withdrawn" and "withdraw" not in dee.acts


def test_a_fresh_sign_in_gives_every_code_back_in_one_step(desk: Desk) -> None:
    again = Desk(desk.service, desk.event_id, source="laptop")
    assert again.sign_in(PASSWORD), again.message
    # Only the codes' hashes are stored: the new page holds none, and says how to get them.
    assert again.missing_codes() == [1, 2] and all(t.code is None for t in again.desk_tables())
    assert "Show every table's code again" in (again.message or "")
    old = dict(desk.codes)
    assert again.codes_back(), again.message
    assert again.missing_codes() == [] and again.qr_shown == {1, 2}
    assert again.message is not None and again.message.startswith("2 tables have a new code")
    # The old codes no longer join; the new ones do.
    with pytest.raises(AccessDenied):
        desk.service.join_table(desk.event_id, old[1])
    assert desk.service.join_table(desk.event_id, again.codes[1])


def test_table_cards_are_a_pdf_page_a_table(desk: Desk) -> None:
    pdf = desk.cards()
    assert pdf is not None and pdf.startswith(b"%PDF")
    assert len(re.findall(rb"/Type /Page\b", pdf)) == 2
    assert desk.message == "Table cards for round 1: 2 pages."
    # A fresh page lacks the codes: the cards issue them first, and say so.
    again = Desk(desk.service, desk.event_id)
    assert again.sign_in(PASSWORD)
    assert again.cards() is not None
    assert "Every table has a new code on its card" in (again.message or "")


def test_nothing_but_the_service_decides(desk: Desk) -> None:
    # A desk signed out (a dead page) still offers its menus, but the service refuses every act.
    desk.token = None
    before = desk.service.audit(None, desk.event_id)
    desk.begin("correct", table=1)
    desk.set_reason("x")
    assert not desk.carry_out() and desk.message
    assert not desk.codes_back()
    assert desk.service.audit(None, desk.event_id) == before


@pytest.mark.asyncio
async def test_the_desk_page_follows_a_hand_and_acts_by_tapping(store: Store) -> None:
    service = TournamentService(store)
    event_id = service.create_event(name="Open", password=PASSWORD, rounds=2, seed="desk")
    token = service.login_director(event_id, PASSWORD)
    for name in ("Ann", "Bob", "Cy", "Dee"):
        service.register(token, event_id, [name])
    service.pair_round(token, event_id)
    page = await Wired(store, route=f"/event/{event_id}/director", width=360, height=640).open()
    await page.type("password", PASSWORD)
    await page.tap("sign-in")
    assert page.exists("codes-back") and not page.exists("table-code-1")
    # The event's audit, a tap away in a new tab.
    audit = page.find("desk-audit").content
    assert audit.url.url == f"/event/{event_id}/audit" and audit.url.target.value == "_blank"  # type: ignore[union-attr]
    await page.tap("codes-back")
    assert page.text("table-code-1").startswith("code 1-")
    holder = Desk(service, event_id)
    holder.token = token
    holder.load()
    play_hand(holder)
    for _ in range(100):  # the page follows the match (its follower's reload), with no tap
        await asyncio.sleep(0.05)
        if page.text("table-state-1") == "hand 1 finished":
            break
    assert page.text("table-state-1") == "hand 1 finished"
    await page.tap("table-menu-1")
    await page.tap("correct-1")
    await page.type("correct-reason", "a tile misread")
    await page.tap("correct")
    assert page.text("message").startswith("Table 1 corrected (")
    assert not page.exists("correct-reason"), "the form closes once done"


@pytest.mark.asyncio
async def test_before_pairing_the_desk_says_which_method_auto_chose_and_why(store: Store) -> None:
    service = TournamentService(store)
    event_id = service.create_event(name="Open", password=PASSWORD, rounds=3, seed="desk")
    token = service.login_director(event_id, PASSWORD)
    for name in ("Ann", "Bob", "Cy", "Dee"):
        service.register(token, event_id, [name])
    page = await Wired(store, route=f"/event/{event_id}/director", width=360, height=640).open()
    await page.type("password", PASSWORD)
    await page.tap("sign-in")
    said = page.text("pairing-choice")
    assert said == service.pairing_choice(token, event_id).why
    assert said.startswith("Auto chooses a round robin") and "Nobody can join after round 1" in said
    await page.tap("pair")
    assert not page.exists("pairing-choice"), "once paired, the round's tables take its place"
