"""The Dispute screen's model: stepping through a stored match or a record file, and what it shows."""

from __future__ import annotations

import json
from pathlib import Path

from scorepad.access import Caller
from scorepad.app.models.dispute import Dispute
from scorepad.app.models.state import DISPUTE, HOME, ScorePad
from scorepad.app.shell.router import open_pad_route

DATA = Path(__file__).parent.parent / "data" / "analysis"


def record_text(name: str) -> str:
    return (DATA / f"{name}.json").read_text()


def test_steps_next_back_and_jump() -> None:
    dispute = Dispute.from_record(record_text("renege-cleared"), name="cleared")
    view = dispute.view()
    assert view.where == "Hand 1 of 1 (game 1) · event 1 of 14"
    assert view.event == "Ann sets 6-6 (Boxcars): count 12, no score"
    assert view.can_back is not False or dispute.step == 1
    dispute.back()
    assert dispute.view().event == "Start of hand 1: Ann sets"
    assert not dispute.view().can_back
    for _ in range(20):
        dispute.next()
    view = dispute.view()
    assert view.where.endswith("event 14 of 14") and not view.can_next
    dispute.jump(1)
    assert dispute.step == 1


def test_count_breakdown_cites_the_rule_behind_each_part() -> None:
    dispute = Dispute.from_record(record_text("renege-cleared"), name="cleared")
    dispute.go_to(1, 9)  # Bob's 1-2 left: 2 + 1 + the Sniff's 12 = 15
    view = dispute.view()
    assert view.count == 15
    assert [(p.label, p.points, p.section) for p in view.parts] == [
        ("left 2", 2, "Smartt §7.1"),
        ("right 1", 1, "Smartt §7.1"),
        ("Sniff 6-6 (both short ends uncovered: 12)", 12, "Smartt §6"),
    ]
    assert view.count_words.endswith("= 15")
    assert view.call == "Called right: 15 scored."


def test_renege_evidence_settlement_and_ruling() -> None:
    dispute = Dispute.from_record(record_text("renege-cleared"), name="cleared")
    dispute.go_to(1, 2)
    assert any(
        n.startswith("Renege cleared: Bob drew 2 at event 2 and passed holding nothing that fitted")
        and "every tile Bob held then is known" in n
        for n in dispute.view().notes
    )
    dispute.go_to(1, 14)
    view = dispute.view()
    assert view.settlement == (
        "Bob holds 15 pips",
        "15 rounds to 15 (Smartt §9.2)",
        "Ann scores 15 (Smartt §9.1)",
    )
    assert view.ruling == "Hand 1: Ann went out, and Ann takes 15; Ann 15, Bob 15."
    proved = Dispute.from_record(record_text("renege-proved"), name="proved")
    proved.go_to(1, 2)
    assert any(n.startswith("Renege proved: Bob drew 1 at event 2 and played it") for n in proved.view().notes)


def test_a_bad_record_file_is_one_sentence(store) -> None:
    pad = ScorePad(store, caller=Caller.local())
    pad.open_record(b"{not json", "mine.json")
    assert pad.screen == HOME and pad.message is not None and pad.message.startswith("mine.json: not JSON")
    pad.open_record(record_text("episcopal").encode(), "episcopal.json")
    assert pad.screen == DISPUTE and pad.route == "/dispute"
    assert any(n.startswith("Episcopal!") for n in _walk_notes(pad.dispute))


def _walk_notes(dispute: Dispute | None) -> list[str]:
    assert dispute is not None
    notes: list[str] = []
    for step in range(len(dispute.match.hands[0].events) + 1):
        dispute.go_to(1, step)
        notes += dispute.view().notes
    return notes


def test_a_stored_match_opens_from_its_route(store) -> None:
    match_id = store.import_record(record_text("renege-proved"), caller=Caller.local())
    pad = ScorePad(store, caller=Caller.local())
    open_pad_route(pad, f"/dispute/{match_id}")
    assert pad.screen == DISPUTE and pad.route == f"/dispute/{match_id}"
    assert pad.dispute is not None and pad.dispute.view().event == "Ann sets 5-5 (Gold Nuggets): count 10, scores 10"
    open_pad_route(pad, "/dispute/99999")
    assert pad.screen == HOME and pad.message == "There is no match 99999 in this score-pad."


def test_a_jaques_game_never_cites_smartt() -> None:
    text = (DATA.parent / "jaques-2p-double-nine.json").read_text()
    dispute = Dispute.from_record(text, name="jaques")
    seen: list[str] = []
    for step in range(len(dispute.match.hands[0].events) + 1):
        dispute.go_to(1, step)
        view = dispute.view()
        seen += [view.count_words, view.call or "", view.ruling, *view.notes, *view.settlement]
        assert {p.section for p in view.parts} <= {"Jaques, 'Winning and scoring'", "Jaques, 'The fine points'"}
    # Never a Smartt citation; Smartt's table words are shown marked as his (issue 20, item 5).
    assert not any("Smartt §" in line for line in seen)
    assert all("not of this book" in line for line in seen if "Smartt" in line)
    assert any("Jaques" in line for line in seen)


def test_the_hands_findings_jump_to_their_event_with_the_ruling_and_the_tiles() -> None:
    # Bob draws at event 2 holding 3-5, which fitted the 5s open then, and shows it at event 5 (Smartt §11.1).
    dispute = Dispute.from_record(record_text("renege-proved-long"), name="long")
    dispute.go_to(1, 19)
    (finding,) = dispute.view().findings
    assert (finding.index, finding.event, finding.kind, finding.title) == (0, 2, "renege", "Renege by Bob, proved")
    assert finding.tiles == ((3, 5),) and not finding.shown
    # The engine's §11.1 preview: the hand stops, Bob goes back to 0 less 25, and Bob pays.
    assert "Bob goes back to 0 (start of hand) less 25 = -25" in finding.ruling
    assert "Scores: Ann 40, Bob -25, instead of Ann 40, Bob 0." in finding.ruling
    assert finding.pays == "Bob pays"
    dispute.open_finding(0)
    view = dispute.view()
    assert view.where == "Hand 1 of 1 (game 1) · event 2 of 20" and view.findings[0].shown
    dispute.open_finding(5)  # no such finding: nothing moves
    assert dispute.step == 2


def test_a_partnership_pays_together_for_a_renege() -> None:
    # Four players, deduct50: P3 draws at event 4 and, at event 9, shows 5-3, which fitted the 5s then.
    events = [{"play": "5-5"}, {"play": "5-6", "at": "left"}, {"play": "6-6", "at": "left"}, {"draw": 1}]
    events += [{"play": "5-1", "at": "right"}, {"play": "6-2", "at": "left"}, {"play": "1-1", "at": "right"}]
    events += [{"play": "2-2", "at": "left"}, {"play": "5-3", "at": "up"}]
    record = {
        "format": "sniff-record/1",
        "rules": "smartt",
        "players": ["Ann", "Bob", "Cat", "Dan"],
        "options": {"renege": "deduct50"},
        "hands": [{"setter": 0, "events": events}],
    }
    dispute = Dispute.from_record(json.dumps(record), name="partners")
    (finding,) = [f for f in dispute.view().findings if f.kind == "renege"]
    assert finding.pays == "Bob & Dan pay"
    assert "Bob & Dan lose 50 when the hand ends" in finding.ruling
    assert finding.tiles == ((3, 5),)
