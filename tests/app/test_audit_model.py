"""The audit page's view-model and the phone's line about the director (plain Python, a real SQLite store)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scorepad.app.models.audit import AuditView, DirectorNews, audit_route, round_query
from scorepad.app.models.tournament import table_number
from scorepad.app.shell.router import resolve
from scorepad.simulate import simulate
from scorepad.store import open_store
from scorepad.tournament import TournamentService

PASSWORD = "a long director password"


@pytest.fixture
def event(tmp_path: Path) -> Iterator[tuple[TournamentService, int, str, Any]]:
    """Four entrants, round 1 paired, table 1's first hand played and settled: (service, id, director, table 1)."""
    with open_store(f"sqlite:///{tmp_path / 'audit.db'}") as store:
        service = TournamentService(store)
        event_id = service.create_event(name="Club night", password=PASSWORD, rounds=2, seed="audit")
        director = service.login_director(event_id, PASSWORD)
        for name in ("Ann", "Bob", "Cy", "Dee"):
            service.register(director, event_id, [name])
        one = service.pair_round(director, event_id).tables[0]
        hand = simulate("smartt", 2, 200, 3, {})[0].to_record()["hands"][0]
        service.start_hand(director, event_id, one.match_id, hand["setter"])
        for entry in hand["events"]:
            service.append(director, event_id, one.match_id, entry)
        service.settle(director, event_id, one.match_id, hand["remaining"])
        yield service, event_id, director, one


def test_the_routes_of_the_audit_pages() -> None:
    whole, table = resolve("/event/3/audit"), resolve("/event/3/audit/2?round=1")
    assert (whole.page, whole.part("event"), whole.part("table")) == ("audit", "3", None)
    assert (table.page, table.part("event"), table.part("table")) == ("audit", "3", "2")
    assert table_number(resolve("/event/3/audit/x").part("table")) is None  # the page says NO_SUCH_TABLE
    assert audit_route(3) == "/event/3/audit"
    assert audit_route(3, 2, 1) == "/event/3/audit/2?round=1"
    assert [round_query(t) for t in ("1", "0", "", None, "x", "²", "999999")] == [1, None, None, None, None, None, None]


def test_the_page_reads_the_whole_audit_newest_first_and_a_tables_own(event: Any) -> None:
    service, event_id, director, one = event
    service.resettle(director, event_id, 1, remaining="0, 14", reason="the 2-2 was a 3-3")
    whole = AuditView(service, event_id)
    whole.read()
    assert whole.title == "Club night: the audit, newest first, times UTC"
    assert whole.whole_event() is None and whole.message is None
    latest = whole.rows[0]
    assert latest.head == "The director settled hand 1 at table 1 again"
    assert latest.reason == "the 2-2 was a 3-3"
    assert latest.change is not None and "->" in latest.change and one.names[0] in latest.change
    assert whole.rows[-1].head.startswith("The director created the event 'Club night'")
    table = AuditView(service, event_id, table=2)
    table.read()
    assert table.title == "Club night: table 2 of round 1, its audit, newest first, times UTC"
    assert [r.head.split(":")[0] for r in table.rows] == ["The director paired round 1 (round-robin)"]
    assert table.whole_event() == f"/event/{event_id}/audit"
    missing = AuditView(service, event_id + 100)
    missing.read()
    assert missing.message is not None and not missing.rows


def test_the_phone_hears_the_directors_act_once_and_nothing_else(event: Any) -> None:
    service, event_id, director, one = event
    news = DirectorNews(service, event_id)
    news.joined(1)
    assert news.seen == 0
    # Another phone's entry, or the director's before the audit line is written: no reading, no line.
    assert news.heard(1, "web:1234abcd") is None
    assert news.heard(1, "director: recount") is None
    service.resettle(director, event_id, 1, remaining="0, 14", reason="the 2-2 was a 3-3")
    said = news.heard(1, "director: the 2-2 was a 3-3")
    a, b = one.names
    assert said is not None and said.startswith("The director settled hand 1 at table 1 again: ")
    assert said.endswith(" (reason: the 2-2 was a 3-3).") and a in said and b in said
    assert news.heard(1, "director") is None, "the same act is not news twice"
    # ... but a later entry of it by the director is still its act, not "another screen"'s entry.
    assert news.still("director: the 2-2 was a 3-3") == said
    assert news.still("web:1234abcd") is None, "a phone's entry is not the director's act"
    # A phone that joins after the act is not told of it.
    late = DirectorNews(service, event_id)
    late.joined(1)
    assert late.heard(1, "director") is None
    assert late.still("director") is None, "nor is it said again by a later entry"
    assert news.heard(2, "director") is None, "table 2's phone hears nothing of table 1"


def test_a_settlement_taken_back_is_said_with_the_scores_it_had(event: Any) -> None:
    service, event_id, director, one = event
    news = DirectorNews(service, event_id)
    news.joined(1)
    before = service.store.load(one.match_id).hands[0].scores_after
    service.correct(director, event_id, one.match_id, reason="recount at the table", undo=True)
    state = service.store.load(one.match_id)
    scores = ", ".join(f"{state.side_name(s)} {v}" for s, v in enumerate(before))
    assert news.heard(1, "director: recount at the table") == (
        f"The director took back an entry of hand 1 at table 1: the settlement of hand 1 ({scores}) -> taken back"
        " (reason: recount at the table)."
    )
