"""What one entry on a tournament table's phone costs the server (not a test): queries and milliseconds.

    uv run python benchmarks/tournament_entry_cost.py [--tables 100] [--entries 40] [--seed 9]

Needs the PostgreSQL server of the tests (``SCOREPAD_TEST_POSTGRES_URL``,
default 127.0.0.1:5432/test); works in a fresh schema, dropped at the end.
No web server: the table device's own calls (``scorepad.app.models.tournament``),
as the table page makes them.

A singles event with ``--tables`` tables (``benchmarks/tournament_load.py``'s
``make_event``); every table plays one hand and has it confirmed, through
the store, so each match holds something to read. Then table 1's phone,
joined with its code, scores ``--entries`` steps of its next hands, as the
load test's scorekeeper plays them (tiles, draws, passes, settlements,
confirmations and new hands), through the device's store (``DeviceStore``). For each
part of an entry it prints the SQL statements run and the milliseconds
(median and the worst): the round's check before a new hand
(``TableDevice.check_next_hand``; every other write is checked by the store's
door within its own transaction), and one draw of the phone's confirmation bar
(``TableDevice.waiting``; each entry draws it on both phones of the table).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from scorepad.access import Caller

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import event as sa_event
from sqlalchemy.engine import Engine

from benchmarks.store_bench import DEFAULT_PG_URL, postgres_schema
from benchmarks.tournament_load import PASSWORD, Seat, Step, TableRun, make_event
from scorepad.app.models.tournament import TableDevice
from scorepad.store import open_store
from scorepad.tournament import TournamentService


class Counter:
    """SQL statements and transactions run by every engine of this process (SQLAlchemy events)."""

    def __init__(self) -> None:
        self.statements = 0
        self.transactions = 0
        sa_event.listen(Engine, "before_cursor_execute", self._count)
        sa_event.listen(Engine, "begin", self._begin)

    def _count(self, *_args: Any) -> None:
        self.statements += 1

    def _begin(self, *_args: Any) -> None:
        self.transactions += 1


class Part:
    """One part of an entry measured: statements and milliseconds per call."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.statements: list[int] = []
        self.ms: list[float] = []

    def measure(self, counter: Counter, fn: Callable[[], Any]) -> Any:
        """Call ``fn`` once, counting its statements and timing it."""
        before, started = counter.statements, time.perf_counter()
        value = fn()
        self.ms.append((time.perf_counter() - started) * 1000)
        self.statements.append(counter.statements - before)
        return value

    def line(self) -> str:
        """The part's figures in one line."""
        if not self.ms:
            return f"{self.name}: no calls"
        return (
            f"{self.name}: {statistics.median(self.statements):g} statements,"
            f" {statistics.median(self.ms):.1f} ms median, {max(self.ms):.1f} ms worst ({len(self.ms)} calls)"
        )


def apply(store: Any, match_id: int, run: TableRun, step: Step, confirm: Callable[[int], None], caller: Caller) -> None:
    """Make ``step``'s change in the store (``store`` may be a device's store) as ``caller``, then in the mirror."""
    if step.write is None:
        hand = run.match.current
        assert hand is not None
        confirm(hand.number)
    elif step.write == "start":
        step.done()
        hand = run.match.current
        assert hand is not None
        store.start_hand(match_id, hand.setter, caller=caller)
        return
    elif step.write == "settle":
        store.settle(match_id, step.event, caller=caller)
    else:
        store.append(match_id, step.event, caller=caller)
    step.done()


def fill(db_url: str, event: int, seats: list[Seat], rules: Any, seed: int) -> None:
    """Every table plays one hand to its end and has it confirmed (by the director)."""
    store = open_store(db_url)
    try:
        service = TournamentService(store)
        director = service.login_director(event, PASSWORD)
        for seat in seats:
            run = TableRun(seat, rules, seed, hands=1)

            def confirm(hand: int, seat: Seat = seat) -> None:
                service.confirm(director, event, seat.number, by="the director", hand=hand)

            # The director scores it: the store's door lets a tournament match be written by its table or its director.
            caller = service.authorize_match(director, event, seat.match_id)
            while (step := run.next_step()) is not None:
                apply(store, seat.match_id, run, step, confirm, caller)
    finally:
        store.close()


def measure(db_url: str, event: int, seat: Seat, rules: Any, entries: int, seed: int) -> list[Part]:
    """Table ``seat``'s phone scores ``entries`` steps; the parts of each, measured."""
    store = open_store(db_url)
    counter = Counter()
    start, draw = Part("check before a new hand"), Part("confirmation bar")
    try:
        service = TournamentService(store)
        device = TableDevice(service, event)
        if not device.join(seat.code):
            raise SystemExit(f"the phone could not join: {device.message}")
        match_id = device.match_id
        assert match_id is not None
        guarded = device.guarded(store)
        table_caller = device.caller(view="bench")
        # The same seed deals the same first hand: the mirror goes through the one ``fill`` stored.
        run = TableRun(seat, rules, seed, hands=0)
        step = run.next_step()
        while step is not None and not (step.write == "start" and run.match.hands):
            step.done()
            step = run.next_step()
        for _ in range(entries):
            assert step is not None
            if step.write == "start":
                start.measure(counter, lambda: device.check_next_hand(match_id))
            apply(guarded, match_id, run, step, lambda hand: device.confirm(store.load(match_id), hand), table_caller)
            state = store.load(match_id)
            for _phone in range(2):
                draw.measure(counter, lambda state=state: device.waiting(state))
            step = run.next_step()
    finally:
        store.close()
    return [start, draw]


def event_arguments(description: str) -> argparse.ArgumentParser:
    """The command line of a benchmark on ``filled_event``: ``--tables``, ``--seed``, ``--postgres``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--postgres", default=DEFAULT_PG_URL)
    return parser


@contextmanager
def filled_event(postgres: str, tables: int, seed: int) -> Iterator[tuple[str, int, list[Seat], Any]]:
    """(URL, event, tables, rules): a fresh schema, dropped after, with ``tables`` tables that each played a hand.

    The event is ``tournament_load.make_event``'s; each table's hand is played and confirmed by ``fill``.
    """
    with postgres_schema(postgres) as db_url:
        event, seats, rules = make_event(db_url, tables)
        fill(db_url, event, seats, rules, seed)
        yield db_url, event, seats, rules


def main() -> int:
    """Run the measurement and print it."""
    parser = event_arguments(__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=40)
    args = parser.parse_args()
    with filled_event(args.postgres, args.tables, args.seed) as (db_url, event, seats, rules):
        parts = measure(db_url, event, seats[0], rules, args.entries, args.seed)
    print(f"one table phone's entry with {args.tables} tables (each table one hand played and confirmed):")
    for part in parts:
        print("  " + part.line())
    return 0


if __name__ == "__main__":
    sys.exit(main())
