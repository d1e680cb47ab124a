"""Server benchmark (not a test): entries a second and tap latency with 1, 2 and 4 server processes.

    uv run python benchmarks/server_bench.py [--tables 100] [--period 2] [--seconds 20]
        [--processes 1,2,4] [--ceiling-clients 8] [--ceiling-seconds 10]

Needs the PostgreSQL server of the tests (``SCOREPAD_TEST_POSTGRES_URL``,
default 127.0.0.1:5432/test); works in a fresh schema, dropped at the end.
For each process count it starts ``scorepad web --workers N`` on 127.0.0.1
and drives it with raw WebSocket pages (``tests/flet_client.py``, no
browser), one page per table, each on its own match:

- tables: every page taps every ``--period`` seconds (random phase), for
  ``--seconds``; taps alternate laying the set (``tile-4-6``) and ``undo``,
  each one a store write and a redraw. The latency of a tap is from sending
  the click to the server's next patch for that page. Target (issue 11):
  100 tables every 2 s (50 entries/s) at p99 under 300 ms with 4 processes.
- ceiling: ``--ceiling-clients`` pages tap as fast as the server answers,
  for ``--ceiling-seconds``: the most entries a second the processes give.

Each line also gives the server processes' CPU milliseconds an entry
(``/proc/PID/stat`` of the workers, over the load): target (issue 16) at
most 8 ms on a plain table page.

Every figure is printed beside the 1-process figure of the same run (the
ratio), since absolute numbers depend on the machine. Everything runs on
loopback with bounded loops; the benchmark client shares the machine's
cores with the servers, which the ratios do not remove.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from scorepad.access import Caller

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.tournament_load import cpu_seconds, worker_pids
from scorepad.store import open_store
from tests.flet_client import FletClient, WebServer

TAPS = ("tile-4-6", "undo")
P99_TARGET_MS = 300.0


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0-100) by linear interpolation."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = (len(ordered) - 1) * q / 100
    low, high = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (k - low)


@dataclass
class Run:
    """What one load on one server gave."""

    entries: int
    seconds: float
    latencies: list[float]
    failures: int
    cpu: float = 0.0  # the server processes' CPU seconds during the load

    @property
    def cpu_ms(self) -> float:
        """The server's CPU milliseconds an entry (everything an entry costs: the write, the redraw, the send)."""
        return 1000 * self.cpu / self.entries if self.entries else float("nan")

    @property
    def rate(self) -> float:
        return self.entries / self.seconds if self.seconds else 0.0

    def ms(self, q: float) -> float:
        return percentile(self.latencies, q) * 1000


async def open_pages(server: WebServer, match_ids: list[int]) -> list[FletClient]:
    """One page per match, opened ten at a time."""
    pages: list[FletClient] = []
    for start in range(0, len(match_ids), 10):
        batch = match_ids[start : start + 10]
        pages += await asyncio.gather(
            *(FletClient(server.url, f"/match/{mid}").open(ready="tile-4-6", timeout=120) for mid in batch)
        )
    return pages


async def tables_load(pages: list[FletClient], steps: dict[int, int], *, period: float, seconds: float) -> Run:
    """Each page taps every ``period`` seconds for ``seconds``.

    ``steps`` counts each page's taps across rounds, so its taps keep
    alternating the set and its undo: every tap is an entry.
    """
    latencies: list[float] = []
    failures = 0
    started = time.perf_counter()
    end = started + seconds

    async def table(page: FletClient) -> None:
        nonlocal failures
        due = started + random.uniform(0, period)
        while True:
            wait = min(due, end) - time.perf_counter()
            if wait > 0:
                await asyncio.sleep(wait)
            if time.perf_counter() >= end or due >= end:
                return
            try:
                latencies.append(await page.tap(TAPS[steps[id(page)] % 2], timeout=30))
                steps[id(page)] += 1
            except (TimeoutError, RuntimeError, KeyError):
                failures += 1
            due += period

    await asyncio.gather(*(table(page) for page in pages))
    return Run(len(latencies), time.perf_counter() - started, latencies, failures)


async def ceiling_load(pages: list[FletClient], steps: dict[int, int], *, seconds: float) -> Run:
    """Each page taps again as soon as its last tap was answered, for ``seconds`` (``steps``: as above)."""
    latencies: list[float] = []
    failures = 0
    started = time.perf_counter()
    end = started + seconds

    async def eager(page: FletClient) -> None:
        nonlocal failures
        while time.perf_counter() < end:
            try:
                latencies.append(await page.tap(TAPS[steps[id(page)] % 2], timeout=30))
                steps[id(page)] += 1
            except (TimeoutError, RuntimeError, KeyError):
                failures += 1

    await asyncio.gather(*(eager(page) for page in pages))
    return Run(len(latencies), time.perf_counter() - started, latencies, failures)


def make_matches(db_url: str, count: int) -> list[int]:
    """``count`` two-player matches, each with its first hand started."""
    store = open_store(db_url)
    try:
        ids = []
        for _ in range(count):
            match_id = store.create_match(players=["Ann", "Bob"], caller=Caller.local())
            store.start_hand(match_id, setter=0, caller=Caller.local())
            ids.append(match_id)
        return ids
    finally:
        store.close()


def merged(runs: list[Run]) -> Run:
    """Several rounds of one load as one run."""
    return Run(
        entries=sum(r.entries for r in runs),
        seconds=sum(r.seconds for r in runs),
        latencies=[latency for r in runs for latency in r.latencies],
        failures=sum(r.failures for r in runs),
        cpu=sum(r.cpu for r in runs),
    )


def stored_entries(db_url: str, match_ids: list[int]) -> int:
    """The entries (appends and undos) stored in these matches after their first hand was started."""
    store = open_store(db_url)
    try:
        return sum(len(store.audit(match_id)) - 2 for match_id in match_ids)
    finally:
        store.close()


async def measure(db_url: str, counts: list[int], args: argparse.Namespace, logs: Path) -> dict[int, tuple[Run, Run]]:
    """The tables load and the ceiling on each process count, in interleaved rounds.

    All the servers run side by side (each on its own schema's matches, one
    port each) and take turns: round by round, each gets the same share of
    the load, so a neighbour's load on the machine falls on every count alike.
    """
    env = {"SCOREPAD_PAGES_PER_ADDRESS": "10000"}
    servers = {n: WebServer(db_url, logs / f"server-{n}.log", workers=n, env=env) for n in counts}
    try:
        for server in servers.values():
            server.start(timeout=120)
        matches = {n: make_matches(db_url, args.tables + args.ceiling_clients) for n in counts}
        tables = {n: await open_pages(servers[n], matches[n][: args.tables]) for n in counts}
        eager = {n: await open_pages(servers[n], matches[n][args.tables :]) for n in counts}
        steps = {id(page): 0 for n in counts for page in tables[n] + eager[n]}
        loads: dict[int, list[Run]] = {n: [] for n in counts}
        ceilings: dict[int, list[Run]] = {n: [] for n in counts}
        for _round in range(args.rounds):
            for n in counts:
                pids = server_pids(servers[n])
                spent = cpu_seconds(pids)
                load = await tables_load(tables[n], steps, period=args.period, seconds=args.seconds / args.rounds)
                load.cpu, spent = cpu_seconds(pids) - spent, cpu_seconds(pids)
                loads[n].append(load)
                ceiling = await ceiling_load(eager[n], steps, seconds=args.ceiling_seconds / args.rounds)
                ceiling.cpu = cpu_seconds(pids) - spent
                ceilings[n].append(ceiling)
        for n in counts:
            await asyncio.gather(*(page.close() for page in tables[n] + eager[n]))
            if "Traceback" in servers[n].log():
                print(f"  (the {n}-process server logged a traceback: {servers[n].log_path})")
        results = {n: (merged(loads[n]), merged(ceilings[n])) for n in counts}
        for n in counts:
            counted = results[n][0].entries + results[n][1].entries
            stored = stored_entries(db_url, matches[n])
            if stored != counted:
                print(f"  ({n} processes: {counted} taps answered but {stored} entries stored)")
        return results
    finally:
        for server in servers.values():
            server.stop()


def server_pids(server: WebServer) -> list[int]:
    """The processes serving pages: the workers under ``--workers N``, else the server itself."""
    assert server.process is not None
    return worker_pids(server.process.pid)


def line(name: str, run: Run, base: Run | None) -> str:
    ratio = f"  x{run.rate / base.rate:.2f} entries/s, p99 x{run.ms(99) / base.ms(99):.2f}" if base else ""
    return (
        f"  {name:<8} {run.rate:7.1f} entries/s  p50 {run.ms(50):7.1f} ms  p95 {run.ms(95):7.1f} ms"
        f"  p99 {run.ms(99):7.1f} ms  server CPU {run.cpu_ms:5.1f} ms an entry"
        f"  ({run.entries} entries, {run.failures} failed){ratio}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--period", type=float, default=2.0)
    parser.add_argument("--seconds", type=float, default=20.0, help="tables load per process count (all rounds)")
    parser.add_argument("--processes", default="1,2,4")
    parser.add_argument("--ceiling-clients", type=int, default=8)
    parser.add_argument("--ceiling-seconds", type=float, default=10.0)
    parser.add_argument("--rounds", type=int, default=2, help="turns each process count takes")
    args = parser.parse_args()
    counts = [int(n) for n in args.processes.split(",")]
    if not (1 <= args.tables <= 500 and 0 < args.seconds <= 300 and 0 < args.ceiling_seconds <= 300):
        parser.error("keep it bounded: 1-500 tables, at most 300 s per load")
    if not 1 <= args.rounds <= 10:
        parser.error("--rounds is 1 to 10")

    base_url = os.environ.get("SCOREPAD_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
    schema = f"scorepad_bench_{uuid.uuid4().hex[:10]}"
    admin = create_engine(base_url)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    db_url = make_url(base_url).update_query_dict({"options": f"-csearch_path={schema}"})
    print(
        f"server bench: {args.tables} tables tapping every {args.period:g} s"
        f" ({args.tables / args.period:.0f} entries/s offered) for {args.seconds:g} s;"
        f" ceiling with {args.ceiling_clients} eager pages for {args.ceiling_seconds:g} s;"
        f" {args.rounds} interleaved rounds; {os.cpu_count()} cores"
    )
    try:
        with tempfile.TemporaryDirectory() as logs:
            results = asyncio.run(measure(db_url.render_as_string(hide_password=False), counts, args, Path(logs)))
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()
    base = results[counts[0]]
    for n in counts:
        load, ceiling = results[n]
        first = n == counts[0]
        print(f"{n} process{'es' if n > 1 else ''}:")
        print(line("tables", load, None if first else base[0]))
        print(line("ceiling", ceiling, None if first else base[1]))
    best = results[max(counts)][0]
    verdict = "met" if best.ms(99) < P99_TARGET_MS and best.failures == 0 else "not met"
    print(
        f"target (p99 < {P99_TARGET_MS:.0f} ms at {args.tables / args.period:.0f} entries/s offered"
        f" with {max(counts)} processes): {verdict} (p99 {best.ms(99):.0f} ms, {best.rate:.1f} entries/s)"
    )


if __name__ == "__main__":
    main()
