"""Store benchmark: append latency, resume time, listing time (a script, not a test).

    uv run python benchmarks/store_bench.py [--appends 1000] [--matches 10000]
        [--postgres URL | --no-postgres]

It also times an undo and a redo of the last entry of the ten-game match
(each one write, like an append, plus the replay of the hand it touches).

Targets (issue 3): append p99 < 10 ms on SQLite, resume of a 10-game match
< 50 ms, listing 10,000 matches < 100 ms. The SQLite file lives in a
temporary directory (the disk this runs on matters: every commit is fsynced);
PostgreSQL runs in a throw-away schema that is dropped afterwards.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import create_engine, func, insert, select, text
from sqlalchemy.engine import make_url

from scorepad.access import Caller
from scorepad.rules import MatchState, make_ruleset
from scorepad.simulate import simulate
from scorepad.store import Store, open_store
from scorepad.store import repository as repo
from scorepad.store.db import session_scope, writer
from scorepad.store.models import Match, Seat, utcnow
from scorepad.store.summary import summarize

DEFAULT_PG_URL = os.environ.get("SCOREPAD_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


def ten_game_match(seed: int = 1) -> dict[str, Any]:
    """A simulated two-player Smartt match of exactly ten games, as a record."""
    match, _work = simulate("smartt", 2, hands=400, seed=seed)
    record = match.to_record()
    wins = 0
    for index, hand in enumerate(match.hands):
        if hand.winner() is not None:
            wins += 1
            if wins == 10:
                record["hands"] = record["hands"][: index + 1]
                return record
    raise RuntimeError("400 simulated hands did not make ten games; try another seed")


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.2f} ms"


def bench_appends(store: Store, record: dict[str, Any], count: int) -> list[float]:
    """Enter the record's hands entry by entry; the time of each ``append``."""
    timings: list[float] = []
    while len(timings) < count:
        match_id = store.create_match(
            rules=record["rules"], options=record["options"], players=record["players"], caller=Caller.local()
        )
        for hand in record["hands"]:
            store.start_hand(match_id, setter=hand["setter"], caller=Caller.local("bench"))
            for event in hand["events"]:
                started = time.perf_counter()
                store.append(match_id, event, caller=Caller.local("bench"))
                timings.append(time.perf_counter() - started)
                if len(timings) >= count:
                    return timings
            if "remaining" in hand:
                store.settle(match_id, hand["remaining"], caller=Caller.local("bench"))
    return timings


def bench_resume(url: str, match_id: int, runs: int = 15) -> list[float]:
    """Open a match from the database alone (a new store each time, nothing cached)."""
    timings = []
    with open_store(url) as store:
        for _ in range(runs):
            store._cache.clear()  # a cold resume, as after a restart
            started = time.perf_counter()
            store.load(match_id)
            timings.append(time.perf_counter() - started)
    return timings


def bench_corrections(store: Store, match_id: int, runs: int = 40) -> list[float]:
    """Undo then redo the last entry of a long match, ``runs`` times each; the time of each write.

    A correction replays only the hand it touches (the earlier hands are
    shared), so its time should not grow with the length of the match.
    """
    timings = []
    store.load(match_id, device="bench")
    for _ in range(runs):
        for correct in (store.undo, store.redo):
            started = time.perf_counter()
            correct(match_id, caller=Caller.local("bench"))
            timings.append(time.perf_counter() - started)
    return timings


def fill_matches(store: Store, total: int) -> None:
    """Store matches until there are ``total``, as real ones are: seats, players, cache.

    Bulk inserts (this is setting the stage, not what is measured).
    """
    missing = total - len(store.list_matches())
    state = MatchState(make_ruleset("smartt", 2), ["Ann", "Bob"])
    now = utcnow()
    summary = summarize(state, started=now)
    matches, seats = Match.__table__, Seat.__table__
    with session_scope(writer(store.engine)) as session:
        names = [f"Player {n}" for n in range(200)]
        player_ids = repo.ensure_players(session=session, names=names, now=now)
        first = session.execute(select(func.coalesce(func.max(matches.c.id), 0))).scalar_one()
        session.execute(
            insert(matches),
            [
                {
                    "rules": "smartt",
                    "options": {},
                    "created_at": now,
                    "device": "bench",
                    "revision": 0,
                    "status": summary["status"],
                    "summary": {**summary, "players": [names[n % 97], names[n % 89 + 100]]},
                }
                for n in range(missing)
            ],
        )
        new_ids = session.execute(select(matches.c.id).where(matches.c.id > first)).scalars()
        session.execute(
            insert(seats),
            [
                {"match_id": match_id, "seat": seat, "player_id": player_ids[pick]}
                for n, match_id in enumerate(new_ids)
                for seat, pick in enumerate((n % 97, n % 89 + 100))
            ],
        )


def bench_listing(store: Store, runs: int = 7) -> tuple[list[float], int]:
    timings = []
    listed = 0
    for _ in range(runs):
        started = time.perf_counter()
        listed = len(store.list_matches())
        timings.append(time.perf_counter() - started)
    return timings, listed


def report_line(name: str, values: list[float]) -> str:
    return (
        f"  {name:<44} median {ms(statistics.median(values))}   "
        f"p99 {ms(percentile(values, 0.99))}   min {ms(min(values))}   (n={len(values)})"
    )


def run(label: str, url: str, args: argparse.Namespace, record: dict[str, Any]) -> None:
    print(f"\n{label}: {make_url(url).render_as_string(hide_password=True)}")
    with open_store(url) as store:
        appends = bench_appends(store, record, args.appends)
        print(report_line("append", appends))
        match_id = store.import_record(record, caller=Caller.local("bench"))
    resume = bench_resume(url, match_id)
    state_hands = len(record["hands"])
    events = sum(len(h["events"]) for h in record["hands"])
    print(report_line(f"resume (10 games, {state_hands} hands, {events} events)", resume))
    with open_store(url) as store:
        print(report_line("undo / redo at the end of that match", bench_corrections(store, match_id)))
    with open_store(url) as store:
        started = time.perf_counter()
        fill_matches(store, args.matches)
        print(f"  (stored {args.matches} matches in {time.perf_counter() - started:.1f} s)")
        listing, listed = bench_listing(store)
        print(report_line(f"listing ({listed} matches)", listing))


@contextmanager
def postgres_schema(base_url: str) -> Iterator[str]:
    """A URL into a fresh schema of the server, dropped afterwards."""
    schema = f"scorepad_bench_{uuid.uuid4().hex[:10]}"
    admin = create_engine(base_url, connect_args={"connect_timeout": 3})
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        url = make_url(base_url).update_query_dict({"options": f"-csearch_path={schema}"})
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


def timed(what: str, make: Callable[[], Any]) -> Any:
    started = time.perf_counter()
    value = make()
    print(f"{what} in {time.perf_counter() - started:.1f} s")
    return value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--appends", type=int, default=1000)
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--postgres", default=DEFAULT_PG_URL, metavar="URL")
    parser.add_argument("--no-postgres", action="store_true")
    args = parser.parse_args()
    record = timed("simulated a ten-game match", ten_game_match)
    with tempfile.TemporaryDirectory() as directory:
        run("SQLite (WAL, synchronous=FULL)", f"sqlite:///{directory}/bench.db", args, record)
    if args.no_postgres:
        return
    try:
        schema = postgres_schema(args.postgres)
        url = schema.__enter__()
    except Exception as err:  # no server: say so, the SQLite figures stand
        print(f"\nPostgreSQL skipped: cannot reach {args.postgres}: {str(err).splitlines()[0]}")
        return
    try:
        run("PostgreSQL", url, args, record)
    finally:
        schema.__exit__(None, None, None)


if __name__ == "__main__":
    main()
