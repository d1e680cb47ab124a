"""What one read of the tournament hall costs the server (not a test): each match loaded alone, or all in one read.

    uv run python benchmarks/hall_read_cost.py [--tables 100] [--reads 30] [--seed 9]

Needs the PostgreSQL server of the tests (``SCOREPAD_TEST_POSTGRES_URL``,
default 127.0.0.1:5432/test); works in a fresh schema, dropped at the end.
No web server: the hall page's own read (``scorepad.app.models.tournament.Hall.read``).

A singles event with ``--tables`` tables, each with one hand played and
confirmed (``benchmarks/tournament_entry_cost.py``'s ``fill``). Then, in the
same process and taking turns read by read, so that both see the same
machine:

- the hall's whole read (the board: event, round, standings; and every
  table's match as it stands) as it was before issue 16, each match with its
  own ``Store.load`` (one transaction each), and as it is, every match in one
  ``Store.load_many``. Nothing moved between reads, as on a hall between two
  entries: every match comes from the store's cache after its revision is read;
- the same reads of the matches alone (without the board's);
- the matches alone on a store that never read them (``Store`` anew on the
  same engine): every header and log read and every match replayed, one
  ``load`` a match or one ``load_many``.

For each: the SQL statements and transactions, and the milliseconds of wall
and CPU time of this process (median and the worst), and the ratio before /
after of the medians. The 1-minute load average is printed before and after.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.tournament_entry_cost import Counter, event_arguments, filled_event
from scorepad.app.models.tournament import Board, BoardData, Hall
from scorepad.store import MatchSnapshot, Store, open_store
from scorepad.tournament import TournamentService


class Way:
    """One way of reading, measured call by call: statements, transactions, wall and CPU milliseconds."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.statements: list[int] = []
        self.transactions: list[int] = []
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def measure(self, counter: Counter, fn: Callable[[], Any]) -> Any:
        """Call ``fn`` once and keep its figures."""
        statements, transactions = counter.statements, counter.transactions
        wall, cpu = time.perf_counter(), time.process_time()
        value = fn()
        self.cpu.append((time.process_time() - cpu) * 1000)
        self.wall.append((time.perf_counter() - wall) * 1000)
        self.statements.append(counter.statements - statements)
        self.transactions.append(counter.transactions - transactions)
        return value

    def line(self) -> str:
        """The figures in one line."""
        return (
            f"{self.name}: {statistics.median(self.statements):g} statements in"
            f" {statistics.median(self.transactions):g} transactions;"
            f" wall {statistics.median(self.wall):.1f} ms median ({max(self.wall):.1f} worst),"
            f" CPU {statistics.median(self.cpu):.1f} ms median ({max(self.cpu):.1f} worst)"
        )


def ratio(before: Way, after: Way) -> str:
    """Before / after of the medians, wall and CPU."""
    wall = statistics.median(before.wall) / statistics.median(after.wall)
    cpu = statistics.median(before.cpu) / statistics.median(after.cpu)
    return f"  before / after: wall {wall:.1f}x, CPU {cpu:.1f}x"


def per_match_read(hall: Hall) -> BoardData:
    """The hall's read before ``Store.load_many`` (issue 16): the board, then each match in a ``load`` of its own."""
    data = Board.read(hall)
    live = {}
    if data.round is not None:
        for view in data.round.tables:
            if view.match_id is not None:
                live[view.match_id] = hall.service.store.load(view.match_id)
    return replace(data, live=live)


def same(live: dict[int, Any], other: dict[int, Any]) -> bool:
    """Both readings hold the same matches at the same revisions with the same hands."""
    return {m: (s.revision, s.to_record()) for m, s in live.items()} == {
        m: (s.revision, s.to_record()) for m, s in other.items()
    }


def cold_loads(store: Store, ids: list[int]) -> dict[int, MatchSnapshot]:
    """Every match loaded alone on a store that never read them."""
    fresh = Store(store.engine)
    return {match_id: fresh.load(match_id) for match_id in ids}


def measure(db_url: str, event: int, reads: int) -> list[tuple[Way, Way]]:
    """The hall's read and the cold loads, before and after, taking turns ``reads`` times."""
    store = open_store(db_url)
    counter = Counter()
    hall_before, hall_after = Way("hall read, a load a match"), Way("hall read, load_many")
    warm_before, warm_after = Way("its matches alone, a load a match"), Way("its matches alone, load_many")
    cold_before, cold_after = Way("matches cold, a load a match"), Way("matches cold, load_many")
    try:
        hall = Hall(TournamentService(store), event)
        ids = [view.match_id for view in hall.read().round.tables if view.match_id is not None]
        for _ in range(reads):
            old = hall_before.measure(counter, lambda: per_match_read(hall))
            new = hall_after.measure(counter, hall.read)
            if not same(old.live, new.live) or len(new.live) != len(ids):
                raise SystemExit("the two hall reads differ")
            # The same reads of the matches, without the board's (the event, the round, the standings).
            warm_before.measure(counter, lambda: [store.load(match_id) for match_id in ids])
            warm_after.measure(counter, lambda: store.load_many(ids))
            old_cold = cold_before.measure(counter, lambda: cold_loads(store, ids))
            new_cold = cold_after.measure(counter, lambda: Store(store.engine).load_many(ids))
            if not same(old_cold, new_cold):
                raise SystemExit("the two cold reads differ")
    finally:
        store.close()
    return [(hall_before, hall_after), (warm_before, warm_after), (cold_before, cold_after)]


def main() -> int:
    """Run the measurement and print it."""
    parser = event_arguments(__doc__.splitlines()[0])
    parser.add_argument("--reads", type=int, default=30)
    args = parser.parse_args()
    with filled_event(args.postgres, args.tables, args.seed) as (db_url, event, _seats, _rules):
        load_before = os.getloadavg()[0]
        pairs = measure(db_url, event, args.reads)
        load_after = os.getloadavg()[0]
    print(f"one hall read with {args.tables} tables (each one hand played and confirmed), {args.reads} reads each way:")
    for before, after in pairs:
        print("  " + before.line())
        print("  " + after.line())
        print(ratio(before, after))
    print(f"load average (1 min): {load_before:.2f} before, {load_after:.2f} after")
    return 0


if __name__ == "__main__":
    sys.exit(main())
