"""The tournament load test's machinery, run small so that ``benchmarks/tournament_load.py`` cannot rot.

Three tables through ``scorepad web --workers 2`` on PostgreSQL, two phones
each joined by the table's code and a hall page, two short hands a table (a low target) tapped
as fast as the server answers: every match, exported and replayed by the
referee's engine, holds exactly the entries its phone saw answered, and the
server's timing log gave an arrival, a commit and both phones' redraws for
every entry, and a hall redraw for every confirmation.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from benchmarks.tournament_load import Seat, TableRun, replayed, run_load
from scorepad.rules import make_ruleset
from scorepad.rules.errors import IllegalRecordError
from scorepad.rules.records import parse_record, replay

# The store tests' PostgreSQL fixtures (a fresh schema per test), as tests/app/test_tournament.py uses them.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from store.conftest import pg_base_url, pg_url  # noqa: F401

HANDS = 2
# A low target: with the seed below, some hands end with a player out (settled) and some with the game won
# (the next game started), so the phones tap every kind of step.
TARGET = 20
SEED = 3


@pytest.mark.postgres
@pytest.mark.asyncio
async def test_the_load_test_loses_nothing_and_reads_the_timing_log(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    # ``seconds`` only bounds the run: the tables stop after their hands.
    db_url = request.getfixturevalue("pg_url")
    report = await run_load(
        db_url, tmp_path, tables=3, period=0.01, seconds=120, workers=2, hands=HANDS, seed=SEED, target=TARGET
    )
    assert report.errors == {}, report.errors
    assert report.tracebacks == []
    assert report.lost_or_duplicated == [], [c.problems for c in report.lost_or_duplicated]
    assert len(report.checks) == 3
    # Every table played and confirmed its hands, and the store holds them (compared in ``checks``).
    assert all(check.stored >= HANDS * 3 for check in report.checks), [c.stored for c in report.checks]
    assert report.confirms == 3 * HANDS
    latencies = report.latencies
    # Each entry (hands started, tiles, draws, passes, settlements) committed once, timed from its arrival...
    assert report.commits == sum(c.writes for c in report.checks)
    assert latencies.unstamped == 0 and latencies.undelivered == 0
    assert len(latencies.full) == report.commits
    # ... to both phones of its table.
    assert set(latencies.pages.values()) == {2}
    assert all(0 < t < 60 for t in latencies.full)
    assert all(c <= t for c, t in zip(latencies.commit, latencies.full, strict=True))
    # The arrival stamped by the server lies between the client's sending of the tap and its answer.
    assert report.arrivals == (report.commits, report.commits)
    # The hall showed every confirmation, and the client saw each of the hall's redraws.
    assert report.hall_unseen == 0
    assert len(report.hall_client) == 3 * HANDS
    assert all(0 < t < 60 for t in report.hall_client)
    assert report.rss_end > 0 and report.workers == 2


def test_the_scorekeeper_plays_legal_hands_through_whole_games() -> None:
    """The benchmark's own side, without a server: every step it plans is legal, through games won and hands
    gone out or blocked, and the steps of the test above include a game won and a settlement."""
    rules = make_ruleset("smartt", 2, {})
    ends: set[str] = set()
    for seed in range(3):
        run = TableRun(Seat(1, 1, "1-ABCDEF", ("Ann", "Bob")), rules, seed, hands=40)
        while (step := run.next_step()) is not None:
            step.done()  # the engine refuses an illegal event: this would raise
        assert len(run.match.hands) == 40 and run.confirmed == 40
        assert run.match.games(), "no game was won in 40 hands"
        ends |= {hand.how.value for hand in run.match.hands}
    assert ends == {"out", "won", "blocked"}
    tapped: set[str] = set()
    for number in (1, 2, 3):
        run = TableRun(
            Seat(number, 1, "1-ABCDEF", ("Ann", "Bob")), make_ruleset("smartt", 2, {"target": TARGET}), SEED, HANDS
        )
        while (step := run.next_step()) is not None:
            tapped |= {tap.identifier for tap in step.taps}
            step.done()
    assert {"settle", "next-game", "next-hand", "confirm-hand", "draw"} <= tapped


def test_a_match_stopped_before_its_settlement_is_still_replayed() -> None:
    """A run may stop after a hand went out and before its settlement: the record then lacks the hand's
    ``remaining``, which the referee requires, and the benchmark replays that hand's events one by one."""
    run = TableRun(Seat(1, 1, "1-ABCDEF", ("Ann", "Bob")), make_ruleset("smartt", 2, {}), 1, hands=3)
    while (step := run.next_step()) is not None and not (step.write == "settle" and len(run.match.hands) == 2):
        step.done()
    record = run.match.to_record()
    with pytest.raises(IllegalRecordError, match="'remaining' must give"):
        replay(parse_record(record))
    played = replayed(record)
    assert [h.events for h in played.hands] == [h.events for h in run.match.hands]
    assert played.hands[-1].needs_settlement and played.hands[0].settlement is not None
