"""Four-player events through the service, and forfeits: standings, audit, refusals (SQLite and PostgreSQL)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from openpyxl import load_workbook
from sqlalchemy import select
from sqlmodel import Session

from scorepad.store.tournament_models import TournamentRound
from scorepad.tournament import KINDS, AccessDenied, Kind, Standing, TournamentError, TournamentService
from scorepad.tournament.exports import export_event
from scorepad.tournament.pairing import PairingInput

from .helpers import game_hands, new_event, play_hands, play_round

NINE = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy"]


def test_the_kinds_are_offered_by_the_service() -> None:
    assert [str(k) for k in KINDS] == ["singles", "threes", "partners", "fours"]
    assert Kind("fours").table_size == 4 and Kind.FOURS.entrant_size == 1 and Kind.FOURS.partnerships


def _gained(before: Standing, after: Standing) -> tuple[int, int, int]:
    """Game points, games won and spread taken in one round."""
    return (
        after.game_points - before.game_points,
        after.games_won - before.games_won,
        after.spread - before.spread,
    )


def test_a_fours_event_rotates_partners_and_credits_each_player_with_the_sides_result(
    service: TournamentService,
) -> None:
    event, director = new_event(service, NINE, rounds=3, kind="fours", unit="hands")
    partners: set[frozenset[int]] = set()
    byes: list[int] = []
    for number in (1, 2, 3):
        view = service.pair_round(director, event)
        assert view.method == "fours"
        tables = [t for t in view.tables if not t.bye]
        assert [len(t.entrants) for t in tables] == [4, 4]
        byes += [t.entrants[0] for t in view.tables if t.bye]
        for table in tables:
            # One player a seat, partners crosswise: seats 0 and 2 against 1 and 3 (records.md §1).
            state = service.store.load(table.match_id)
            assert state.players == list(table.names) and state.rules.partners and state.rules.sides == 2
            a, b, c, d = table.entrants
            assert table.versus == f"{table.names[0]} & {table.names[2]} v {table.names[1]} & {table.names[3]}"
            for pair in (frozenset((a, c)), frozenset((b, d))):
                assert pair not in partners, "a partner repeated in three rounds of nine"
                partners.add(pair)
        before = {s.entrant: s for s in service.standings(None, event)}
        play_round(service, event, view, hands=1, seed=number)
        after = {s.entrant: s for s in service.standings(None, event)}
        gained = {x: _gained(before[x], after[x]) for x in after}
        for table in tables:
            a, b, c, d = table.entrants
            # Partners take the same figures from the table; the sides' spreads mirror each other.
            assert gained[a] == gained[c] and gained[b] == gained[d]
            assert gained[a][2] == -gained[b][2] != 0
        assert service.lock_round(director, event) == number
        assert service.verify_pairings(None, event, number).ok
    assert len(byes) == 3 and len(set(byes)) == 3
    standings = service.standings(None, event)
    assert len(standings) == 9 and not any(s.provisional for s in standings)
    # Opponents' points count the two opponents of each table, not the partner.
    ann = next(s for s in standings if s.name == "Ann")
    opponents_line = next(w for w in ann.working if w.startswith("opponents"))
    tables_played = ann.rounds - (1 if any(b == ann.entrant for b in byes) else 0)
    assert opponents_line.count(" + ") + 1 + ("dropped" in opponents_line) == 2 * tables_played


def test_a_forfeit_scores_as_a_bye_is_audited_and_closes_the_table(service: TournamentService, tmp_path: Path) -> None:
    event, director = new_event(service, ["Ann", "Bob", "Cy", "Dee"], rounds=2, pairing="swiss")
    view = service.pair_round(director, event)
    one, two = view.tables
    tablet = service.join_table(event, view.codes[one.number])
    hall = service.issue_hall(director, event)
    # A hand already played at the table: kept in its match, no longer counted.
    play_hands(service, tablet, event, one.match_id, game_hands("smartt", 2, 3, (("target", 60),))[:1])
    loser, winner = one.names
    for token in (tablet, hall, None):
        with pytest.raises(AccessDenied, match="only the director"):
            service.forfeit(token, event, one.number, [loser], reason="did not turn up")
    with pytest.raises(TournamentError, match="reason"):
        service.forfeit(director, event, one.number, [loser], reason="  ")
    with pytest.raises(TournamentError, match="does not play at table"):
        service.forfeit(director, event, one.number, [two.names[0]], reason="did not turn up")
    given = service.forfeit(director, event, one.number, [loser], reason="walked off after hand 1")
    assert given.loser_names == (loser,) and given.points == 2 and given.games == 1 and given.hands_played == 1
    with pytest.raises(TournamentError, match="already been forfeited"):
        service.forfeit(director, event, one.number, [winner], reason="again")
    # The table takes no more entries or confirmations, from its code or the director.
    with pytest.raises(TournamentError, match="forfeited"):
        service.start_hand(tablet, event, one.match_id, 0)
    with pytest.raises(TournamentError, match="forfeited"):
        service.undo(director, event, one.match_id)
    with pytest.raises(TournamentError, match="forfeited"):
        service.confirm(tablet, event, one.number, by=winner)
    assert len(service.store.load(one.match_id).hands) == 1
    # Pairings, standings with the working, and the audit, which everyone reads.
    shown = service.round_view(None, event).tables[0]
    assert shown.forfeit is not None and shown.forfeit.reason == "walked off after hand 1"
    standings = {s.name: s for s in service.standings(None, event)}
    assert standings[winner].game_points == 2 and standings[winner].games_won == 1
    assert standings[winner].spread == 0 and not standings[winner].provisional
    assert "game points 2 = R1 2 (forfeit win)" in standings[winner].working
    assert standings[loser].game_points == 0 and standings[loser].games_won == 0
    assert "game points 0 = R1 0 (forfeited)" in standings[loser].working
    assert standings[winner].opponents == 0
    (line,) = [a for a in service.audit(None, event) if a.action == "forfeit"]
    assert line.actor == "director" and line.detail == {
        "round": 1,
        "table": one.number,
        "losers": [loser],
        "winners": [winner],
        "reason": "walked off after hand 1",
        "hands_played": 1,
    }
    written = export_event(service, director, event, tmp_path, formats=["csv", "xlsx", "pdf"])
    with (tmp_path / "results.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert {r["entrant"]: r["forfeit"] for r in rows if r["table"] == str(one.number)} == {
        loser: "forfeited: walked off after hand 1",
        winner: "forfeit win: walked off after hand 1",
    }
    assert {p.name for p in written} == {"standings.csv", "results.csv", "event.xlsx", "event.pdf"}
    assert load_workbook(tmp_path / "event.xlsx")["Results"]["M1"].value == "forfeit"
    # A forfeited table is not waited for; table 2 is.
    with pytest.raises(TournamentError, match="table 2 has not finished"):
        service.lock_round(director, event)
    service.lock_round(director, event, reason="table 2 abandoned")
    with pytest.raises(TournamentError, match="locked"):
        service.forfeit(director, event, two.number, [two.names[0]], reason="too late")
    # A forfeit is no meeting: the two may be paired again; the winner had a bye's worth, the loser none.
    service.pair_round(director, event)
    assert service.verify_pairings(None, event, 2).ok
    with Session(service.store.engine) as session:
        stored = session.execute(
            select(TournamentRound.inputs).where(TournamentRound.event_id == event, TournamentRound.number == 2)
        ).scalar_one()
    contenders = {c.name: c for c in PairingInput.from_dict(stored).contenders}
    assert contenders[winner].met == () and contenders[loser].met == ()
    assert contenders[winner].byes == 1 and contenders[loser].byes == 0


def test_at_a_four_player_table_a_forfeit_is_individual(service: TournamentService) -> None:
    event, director = new_event(service, NINE[:8], rounds=1, kind="fours")
    view = service.pair_round(director, event)
    table = view.tables[0]
    absent = table.names[0]
    partner = table.names[2]
    # By entrant number, as the command line allows.
    number = next(s.number for s in service.standings(None, event) if s.name == absent)
    service.forfeit(director, event, table.number, [str(number)], reason="did not turn up")
    standings = {s.name: s for s in service.standings(None, event)}
    # The absentee scores nothing; everyone else at the table, the partner who came included, a forfeit win.
    assert standings[absent].game_points == 0 and "(forfeited)" in standings[absent].working[0]
    for name in (partner, table.names[1], table.names[3]):
        assert standings[name].game_points == 2 and "(forfeit win)" in standings[name].working[0]
    assert [line.detail["losers"] for line in service.audit(None, event) if line.action == "forfeit"] == [[absent]]


def test_a_fours_event_refuses_a_round_robin_and_partners_off(service: TournamentService) -> None:
    with pytest.raises(TournamentError, match="score bands"):
        new_event(service, [], rounds=2, kind="fours", pairing="round-robin")
    with pytest.raises(TournamentError, match="partners on"):
        new_event(service, [], rounds=2, kind="fours", options={"partners": False})
    event, director = new_event(service, NINE[:3], rounds=2, kind="fours")
    with pytest.raises(TournamentError, match="at least 4 players"):
        service.pair_round(director, event)
