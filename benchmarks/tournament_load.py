"""Tournament load test (issue 9; not a test): table phones entering real hands through two server processes.

    uv run python benchmarks/tournament_load.py [--tables 100] [--period 2] [--seconds 300]
        [--workers 2] [--hands 0] [--target T] [--seed 9] [--logs DIR]

Needs the PostgreSQL server of the tests (``SCOREPAD_TEST_POSTGRES_URL``,
default 127.0.0.1:5432/test); works in a fresh schema, dropped at the end.
Everything runs on 127.0.0.1, every wait is bounded, and it stops by itself.

One singles event (Smartt) with ``2 x --tables`` players, round 1 paired by
the tournament service, served by ``scorepad web --workers N`` with the
server's timing log on (``SCOREPAD_TIMING``, ``scorepad/app/models/timing.py``).
Every table has two phones (raw WebSocket pages, ``tests/flet_client.py``) on
``/event/ID/table``, each joined with the table's code; a hall page
(``/event/ID/hall``, 1920x1080) is open throughout. The first phone of each
table takes one step every ``--period`` seconds (random phase) for
``--seconds``, as a scorekeeper would: the benchmark deals each hand itself
from a seeded shuffle, asks the engine (``scorepad.rules``) for a legal play,
and taps the page's controls for it: the tile in the picker, the end when
the page asks, Draw, Pass; at the end of a hand it types each seat's
remaining pips and settles, confirms the hand as the opposing side does on
the phone, then starts the next hand (choosing the setter where the rules
leave it open). The second phone only follows, so every entry has to reach
a page that may be in the other process.

It prints:

- entry latency, from the server's timing log: from the tap's WebSocket
  message reaching the server to the entry committed and the redraw handed
  to every page of that match (both phones), p50/p95/p99, split by whether
  the two phones are in one process or not; target p99 < 300 ms. Also the
  client's round trip (tap sent to the tapping phone's patch, and to the
  second phone's next patch), and a check of the log against the client: each
  write's arrival must lie within its tap's round trip (one clock for both);
- the hall's refresh after each confirmed hand: from the confirmation's tap
  to the hall page receiving the first redraw whose reads began after the
  confirmation was committed; target < 2 s;
- server memory: the workers' resident memory before the pages joined and
  at the end, and the difference per table;
- nothing lost or duplicated: every match exported as ``sniff-record/1`` and
  replayed by the referee's engine (``scorepad.rules.records.replay``), its
  entries compared with the taps the client saw answered (counts, the tiles
  in order, the settlements), and its confirmations with the client's;
- the load average during the run.

Exit status 1 when an entry or confirmation was lost or duplicated, a page
failed, or the server logged a traceback; the targets are reported beside
the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import os
import random
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.store_bench import DEFAULT_PG_URL, postgres_schema
from scorepad.app.models.table import ends_to_ask
from scorepad.rules import Draw, MatchState, Pass, Play, SniffError
from scorepad.rules.records import parse_record, replay
from scorepad.rules.tiles import full_set, pips
from scorepad.rules.wording import count_words
from scorepad.store import open_store
from scorepad.tournament import TournamentService
from tests.flet_client import FletClient, WebServer

P99_TARGET_MS = 300.0
HALL_TARGET_S = 2.0
PASSWORD = "load test director password"
TAP_TIMEOUT_S = 30.0  # a tap unanswered this long fails its table (counted, reported)
OPEN_TIMEOUT_S = 120.0  # opening and joining one page
OPEN_BATCH = 10  # pages opened at once
SETTLE_TIMEOUT_S = 30.0  # after the run: for the second phones and the hall to catch up
ENTRIES = ("play", "draw", "pass")  # the steps that are entries of a hand
WORDS = {"start": "new hands", "settle": "settlements"}
Tile = tuple[int, int]


def percentile(values: list[float], q: int) -> float:
    """The q-th percentile (1-99) by linear interpolation between the closest ranks (NaN with no values)."""
    if len(values) < 2:
        return values[0] if values else float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def tile_text(tile: Tile) -> str:
    """A tile as the picker names it and the page writes it: low value first."""
    return f"{min(tile)}-{max(tile)}"


class PageFailed(Exception):
    """A page did not offer what the hand needs next, or did not answer: its table stops."""


# -- the event ----------------------------------------------------------------------


@dataclass(frozen=True)
class Seat:
    """One table of round 1: its number, match, code and players."""

    number: int
    match_id: int
    code: str
    names: tuple[str, ...]


def make_event(db_url: str, tables: int, target: int | None = None) -> tuple[int, list[Seat], Any]:
    """A singles event with ``2 x tables`` players and round 1 paired by the service: (event, tables, rules).

    ``target``: the game's target (None: the rules' own).
    """
    store = open_store(db_url)
    try:
        service = TournamentService(store)
        event = service.create_event(
            name="Load test",
            password=PASSWORD,
            rounds=1,
            rules="smartt",
            options={"target": target} if target else None,
            unit="hands",
            per_round=50,
            seed="load",
        )
        director = service.login_director(event, PASSWORD)
        for n in range(1, 2 * tables + 1):
            service.register(director, event, [f"Player {n}"])
        paired = service.pair_round(director, event)
        seats = [
            Seat(t.number, t.match_id, paired.codes[t.number], tuple(t.names))
            for t in paired.tables
            if t.match_id is not None
        ]
        rules = store.load(seats[0].match_id).rules
        return event, seats, rules
    finally:
        store.close()


# -- one table: the engine's hands, tapped on the phone --------------------------------


@dataclass
class Tap:
    """One control a person touches: a click, or ``text`` typed into a field."""

    identifier: str
    text: str | None = None


@dataclass
class Step:
    """What the scorekeeper does next: the taps, and the engine's change once the last one is answered.

    ``write`` names the store write the last tap makes (``start``, ``play``,
    ``draw``, ``pass``, ``settle``), or None for a confirmation.
    """

    taps: list[Tap]
    write: str | None
    done: Callable[[], None]
    event: Any = None


@dataclass
class Answered:
    """A step whose last tap the page answered."""

    write: str | None
    event: Any
    hand: int
    sent: float  # time.monotonic() when the last tap was sent
    round_trip: float  # seconds until the tapping phone's redraw
    other_draws: int  # the second phone's draws before the tap


class TableRun:
    """One table: the engine's mirror of its match, the deal, and its two phones."""

    def __init__(self, seat: Seat, rules: Any, seed: int, hands: int, timeout: float = TAP_TIMEOUT_S) -> None:
        self.seat = seat
        self.timeout = timeout
        self.rng = random.Random(seed * 1000 + seat.number)
        self.match = MatchState(rules, list(seat.names))
        self.hands = hands
        self.deck: list[Tile] = list(full_set(rules.max_pip))
        self.held: list[list[Tile]] = []
        self.boneyard: list[Tile] = []
        self.confirmed = 0
        self.phone: FletClient | None = None
        self.other: FletClient | None = None
        self.answered: list[Answered] = []
        self.unanswered: Step | None = None
        self.error: str | None = None

    # what comes next, from the engine

    def next_step(self) -> Step | None:
        """The next step of the table as the engine has it (None: the table has played its hands)."""
        hand = self.match.current
        if hand is None or (hand.finished and self.confirmed >= hand.number):
            if self.hands and len(self.match.hands) >= self.hands:
                return None
            return self._new_hand()
        if hand.needs_settlement:
            return self._settle()
        if hand.finished:
            number = hand.number
            return Step([Tap("confirm-hand")], None, lambda: setattr(self, "confirmed", number))
        return self._entry()

    def _new_hand(self) -> Step:
        hand = self.match.current
        nxt = self.match.next_setter()
        taps = []
        setter = nxt.default
        if setter is None:
            setter = self.rng.choice(sorted(nxt.allowed) if nxt.allowed else range(self.match.rules.players))
            taps.append(Tap(f"setter-{setter}"))
        taps.append(Tap("next-game" if hand is not None and hand.winner() is not None else "next-hand"))
        order = self.deck[:]
        self.rng.shuffle(order)

        def start() -> None:
            self.match.start_hand(setter)
            each = self.match.rules.tiles_each
            players = self.match.rules.players
            self.held = [order[seat * each : (seat + 1) * each] for seat in range(players)]
            self.boneyard = order[players * each :]

        return Step(taps, "start", start)

    def _entry(self) -> Step:
        hand = self.match.current
        assert hand is not None
        seat = hand.turn
        held = self.held[seat]
        if not hand.started:
            tile = self.rng.choice(held)
            play = Play(tile_text(tile))
            return Step([Tap(f"tile-{tile_text(tile)}")], "play", lambda: self._lay(seat, tile, play), play)
        moves = [(tile, ends) for tile in held if (ends := ends_to_ask(hand.layout, tile))]
        if moves:
            tile, ends = self.rng.choice(moves)
            at = self.rng.choice(ends)
            play = Play(tile_text(tile), at=at)
            taps = [Tap(f"tile-{tile_text(tile)}")] + ([Tap(f"at-{at}")] if len(ends) > 1 else [])
            return Step(taps, "play", lambda: self._lay(seat, tile, play), play)
        if hand.drawable > 0:
            draw = Draw(1)
            return Step([Tap("draw")], "draw", lambda: self._draw(seat, draw), draw)
        passed = Pass()
        return Step([Tap("pass")], "pass", lambda: self.match.apply(passed), passed)

    def _lay(self, seat: int, tile: Tile, play: Play) -> None:
        self.match.apply(play)
        self.held[seat].remove(tile)

    def _draw(self, seat: int, draw: Draw) -> None:
        self.match.apply(draw)
        self.held[seat].append(self.boneyard.pop())

    def _settle(self) -> Step:
        remaining = [sum(pips(t) for t in tiles) for tiles in self.held]
        taps = [Tap(f"remaining-{seat}", str(total)) for seat, total in enumerate(remaining) if self.held[seat]]
        taps.append(Tap("settle"))
        return Step(taps, "settle", lambda: self.match.settle(remaining), remaining)

    # the phone

    async def perform(self, step: Step) -> None:
        """Tap the step's controls on the phone; the engine's mirror moves once the last tap is answered.

        Raises ``PageFailed`` when the page does not draw a control the step
        needs (the page and the engine disagree) or does not answer in time.
        """
        phone, other = self.phone, self.other
        assert phone is not None and other is not None
        for index, tap in enumerate(step.taps):
            last = index == len(step.taps) - 1
            try:
                await phone.showing(tap.identifier, timeout=self.timeout)
            except TimeoutError:
                raise PageFailed(
                    f"the page does not show {tap.identifier} (it shows {', '.join(sorted(phone.drawn)[:12])} ...)"
                ) from None
            before, draws, sent = len(other.drawn_at), len(phone.drawn_at), time.monotonic()
            try:
                if tap.text is None:
                    await phone.tap(tap.identifier, timeout=self.timeout)
                else:
                    await phone.type(tap.identifier, tap.text, timeout=self.timeout)
                # Every tap on the table redraws it: the round trip ends at that draw (not at a lesser patch).
                await phone.redrawn(draws, timeout=self.timeout)
            except TimeoutError as err:
                if last:
                    self.unanswered = step
                raise PageFailed(str(err)) from None
        step.done()
        hand = self.match.current
        took = phone.drawn_at[draws] - sent
        self.answered.append(Answered(step.write, step.event, hand.number if hand else 0, sent, took, before))

    async def play(self, start: float, end: float, period: float) -> None:
        """Take a step every ``period`` seconds (the first at a random moment of the first period) until ``end``."""
        due = start + self.rng.uniform(0, period)
        while True:
            wait = min(due, end) - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            if time.monotonic() >= end:
                return
            step = self.next_step()
            if step is None:
                return
            try:
                await self.perform(step)
            except (PageFailed, RuntimeError, KeyError, OSError) as err:
                self.error = f"{type(err).__name__}: {err}"
                return
            due += period


# -- pages ---------------------------------------------------------------------------


async def join(url: str, event: int, code: str) -> FletClient:
    """A phone on the table device page, joined with the table's code as a person types it."""
    phone = await FletClient(url, f"/event/{event}/table").open(ready="table-code", timeout=OPEN_TIMEOUT_S)
    try:
        await phone.type("table-code", code, answered=False)
        await phone.tap("join", timeout=OPEN_TIMEOUT_S)
        await phone.showing("table-title", timeout=OPEN_TIMEOUT_S)
    except BaseException:
        await phone.close()
        raise
    return phone


async def open_phones(url: str, event: int, runs: list[TableRun]) -> None:
    """Two joined phones per table, ``OPEN_BATCH`` pages at a time; a table whose phone fails is marked failed."""
    pending = [(run, slot) for run in runs for slot in ("phone", "other")]
    for start in range(0, len(pending), OPEN_BATCH):
        batch = pending[start : start + OPEN_BATCH]
        opened = await asyncio.gather(*(join(url, event, run.seat.code) for run, _ in batch), return_exceptions=True)
        for (run, slot), page in zip(batch, opened, strict=True):
            if isinstance(page, BaseException):
                run.error = run.error or f"joining: {type(page).__name__}: {page}"
            else:
                setattr(run, slot, page)


# -- the server's processes -------------------------------------------------------------


def worker_pids(master: int) -> list[int]:
    """The server's worker processes (uvicorn's children; the server itself when it has none)."""
    children = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        if parent == master and b"resource_tracker" not in cmdline:
            children.append(int(entry.name))
    return sorted(children) or [master]


def started_at(pid: int) -> int | None:
    """When a process started (clock ticks since boot, /proc/PID/stat), or None when there is no such process.

    With its pid, it names one process for good: a pid reused later has another start.
    """
    try:
        return int(stat_fields(pid)[19])
    except (OSError, IndexError, ValueError):
        return None


def stat_fields(pid: int) -> list[str]:
    """The fields of /proc/PID/stat after the command's name (the state is field 0). Raises OSError."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def stop_leftovers(workers: dict[int, int | None], *, timeout: float = 10.0) -> None:
    """Kill those of the server's workers (pid -> start) still running after it stopped: uvicorn's master,
    killed when it does not stop in time, leaves busy workers behind; none outlives the benchmark or its schema."""
    left = [pid for pid, start in workers.items() if start is not None and started_at(pid) == start]
    for pid in left:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and any(started_at(pid) == workers[pid] for pid in left):
        time.sleep(0.1)


def rss_mb(pids: list[int]) -> float:
    """The resident memory of these processes together, in MB (from /proc/PID/status)."""
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


def cpu_seconds(pids: list[int]) -> float:
    """The CPU time (user and system) these processes have used together, in seconds (/proc/PID/stat)."""
    return sum(cpu_each(pids).values())


def cpu_each(pids: list[int]) -> dict[int, float]:
    """Each live process's CPU time (user and system), in seconds, by pid (a process gone is left out)."""
    each = {}
    for pid in pids:
        try:
            fields = stat_fields(pid)
        except OSError:
            continue
        each[pid] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime and stime, in ticks
    return each


def postgres_pids() -> list[int]:
    """The PostgreSQL server's processes on this machine (the tests' server: the benchmark's database)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if (entry / "comm").read_text().strip() == "postgres":
                    found.append(int(entry.name))
    return found


def cpu_spent(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds spent between two ``cpu_each`` readings by the processes alive at both."""
    return sum(after[pid] - before[pid] for pid in after.keys() & before.keys())


class LoadAverage:
    """The 1-minute load average, sampled every few seconds while the run lasts."""

    def __init__(self) -> None:
        self.samples: list[float] = []

    async def sample(self, every: float = 5.0) -> None:
        """Sample until cancelled."""
        while True:
            self.samples.append(os.getloadavg()[0])
            await asyncio.sleep(every)


# -- the timing log ------------------------------------------------------------------


@dataclass
class Timing:
    """The server's timing log (``scorepad/app/models/timing.py``), read back."""

    commits: list[tuple[int, int, int, float | None, float]] = field(default_factory=list)
    sent: dict[int, dict[str, list[tuple[int, float, int]]]] = field(default_factory=dict)
    confirms: list[tuple[int, int, int, float | None, float]] = field(default_factory=list)
    hall: list[tuple[int, str, int, float, float]] = field(default_factory=list)


def read_timing(path: Path) -> Timing:
    """Parse the timing log: commits, each page's redraws by match, confirmations, hall draws."""
    out = Timing()

    def moment(text: str) -> float | None:
        return None if text == "-" else float(text)

    if not path.exists():
        return out
    for line in path.read_text().splitlines():
        kind, pid_text, *f = line.split("\t")
        pid = int(pid_text)
        if kind == "commit" and f[1] != "None":
            out.commits.append((pid, int(f[0]), int(f[1]), moment(f[2]), float(f[3])))
        elif kind == "sent" and f[2] != "None":
            out.sent.setdefault(int(f[1]), {}).setdefault(f[0], []).append((int(f[2]), float(f[3]), pid))
        elif kind == "confirm":
            out.confirms.append((pid, int(f[0]), int(f[1]), moment(f[2]), float(f[3])))
        elif kind == "hall":
            out.hall.append((pid, f[0], int(f[1]), float(f[2]), float(f[3])))
    return out


@dataclass
class Latencies:
    """Entry latencies from the timing log, in seconds."""

    full: list[float] = field(default_factory=list)  # arrival -> committed and sent to every page
    cross: list[float] = field(default_factory=list)  # the same, where the match's pages are in two processes
    local: list[float] = field(default_factory=list)  # the same, where they are in one
    commit: list[float] = field(default_factory=list)  # arrival -> committed
    spread: list[float] = field(default_factory=list)  # committed -> sent to the last page
    undelivered: int = 0  # commits some page of the match never drew
    unstamped: int = 0  # commits without the tap's arrival
    pages: dict[int, int] = field(default_factory=dict)  # match -> pages that drew it
    split: dict[int, bool] = field(default_factory=dict)  # match -> its pages are in two processes


def entry_latencies(timing: Timing) -> Latencies:
    """For every commit: the first redraw of each page of its match showing that revision or a later one."""
    out = Latencies()
    for match, pages in timing.sent.items():
        out.pages[match] = len(pages)
        out.split[match] = len({lines[0][2] for lines in pages.values()}) > 1
    for _pid, match, revision, arrived, committed in timing.commits:
        if arrived is None:
            out.unstamped += 1
            continue
        pages = timing.sent.get(match, {})
        firsts = [next((t for rev, t, _ in lines if rev >= revision), None) for lines in pages.values()]
        if not firsts or None in firsts:
            out.undelivered += 1
            continue
        last = max(t for t in firsts if t is not None)
        out.full.append(last - arrived)
        (out.cross if out.split.get(match) else out.local).append(last - arrived)
        out.commit.append(committed - arrived)
        out.spread.append(last - committed)
    return out


def arrivals_in_window(timing: Timing, runs: list[TableRun]) -> tuple[int, int]:
    """How many commits' arrival times lie between their tap's sending and its answer on the client, of how many.

    A check of the timing log against the client (one clock for both): a
    table's commits, in revision order, are its phone's writes answered, in order.
    """
    commits: dict[int, list[tuple[int, float | None]]] = {}
    for _pid, match, revision, arrived, _committed in timing.commits:
        commits.setdefault(match, []).append((revision, arrived))
    inside = total = 0
    for run in runs:
        writes = [a for a in run.answered if a.write is not None]
        for answered, (_revision, arrived) in zip(writes, sorted(commits.get(run.seat.match_id, [])), strict=False):
            total += 1
            # A millisecond's slack: the round trip is timed from just after ``sent`` was read.
            if arrived is not None and answered.sent <= arrived <= answered.sent + answered.round_trip + 0.001:
                inside += 1
    return inside, total


def hall_delays(timing: Timing, runs: list[TableRun], hall: FletClient) -> tuple[list[float], list[float], int]:
    """For each confirmation: (client) its tap to the hall page receiving the first patch after the server handed
    over the first draw read after its commit; (server) the tap's arrival to that draw handed over. Also the
    confirmations never shown.

    The hall is a component that patches only what changed, so a draw's patch is found by time, not by count:
    the first patch the page received after that draw was handed over (both clocks are the machine's monotonic one).
    """
    draws = sorted((read, sent) for _pid, _page, _draw, read, sent in timing.hall)
    taps = {
        (run.seat.match_id, a.hand): a.sent for run in runs for a in run.answered if a.write is None
    }  # (match, hand) -> when its confirmation was tapped
    client, server, unseen = [], [], 0
    for _pid, match, hand, arrived, committed in timing.confirms:
        sent = next((sent for read, sent in draws if read >= committed), None)
        if sent is None:
            unseen += 1
            continue
        if arrived is not None:
            server.append(sent - arrived)
        tapped = taps.get((match, hand))
        patch = _patch_after(hall, sent)
        if tapped is not None and patch is not None:
            client.append(patch - tapped)
    return client, server, unseen


def _patch_after(hall: FletClient, sent: float) -> float | None:
    """When the hall page first received a patch at or after ``sent`` (None: not yet)."""
    return next((at for at in hall.drawn_at if at >= sent), None)


# -- nothing lost or duplicated ----------------------------------------------------------


@dataclass
class Check:
    """One match compared with what its phone entered."""

    table: int
    problems: list[str]
    entries: int  # entries of a hand (tiles, draws, passes) answered on the phone
    stored: int  # the same, stored and replayed
    writes: int  # every store write answered: the entries, new hands and settlements


def replayed(record: dict[str, Any]) -> MatchState:
    """A ``sniff-record/1`` replayed by the referee's engine (``scorepad.rules.records.replay``).

    A match whose last hand went out (or was blocked) when the run stopped,
    before its settlement was entered, has no ``remaining`` for that hand,
    which a record needs: that hand's events are played through the engine
    one by one instead, and the settlement left out.
    """
    parsed = parse_record(record)
    last = parsed.hands[-1] if parsed.hands else None
    if last is None or last.remaining is not None:
        return replay(parsed)
    match = replay(dataclasses.replace(parsed, hands=parsed.hands[:-1]))
    hand = match.start_hand(last.setter)
    for event in last.events:
        hand.apply(event)
    return match


def compare(db_url: str, event: int, runs: list[TableRun]) -> list[Check]:
    """Export every match, replay it with the referee's engine, and compare it with the taps answered."""
    store = open_store(db_url)
    try:
        confirmed = {
            view.number: view.result.hands_confirmed if view.result is not None else 0
            for view in TournamentService(store).round_view(None, event).tables
        }
        checks = []
        for run in runs:
            try:
                played = replayed(store.export_record(run.seat.match_id))
            except SniffError as err:
                checks.append(Check(run.seat.number, [f"the referee refuses its record: {err}"], 0, 0, 0))
                continue
            stored = [(h.number, e) for h in played.hands for e in h.events]
            sent = [(a.hand, a.event) for a in run.answered if a.write in ENTRIES]
            counts = {kind: sum(1 for a in run.answered if a.write == kind) for kind in ("start", "settle")}
            maybe = run.unanswered.write if run.unanswered is not None else None
            if maybe in ENTRIES and run.unanswered is not None:
                # The last tap went unanswered: its entry may or may not have been stored.
                hand = run.match.current.number if run.match.current else 0
                if stored == [*sent, (hand, run.unanswered.event)]:
                    sent = stored
            problems = []
            if stored != sent:
                first = next((i for i, (x, y) in enumerate(zip(stored, sent, strict=False)) if x != y), None)
                at = min(len(stored), len(sent)) if first is None else first
                problems.append(f"{len(sent)} entries answered, {len(stored)} stored; they differ from entry {at + 1}")
            if [e.tile for _, e in stored if isinstance(e, Play)] != [e.tile for _, e in sent if isinstance(e, Play)]:
                problems.append("the tiles stored are not the tiles tapped, in order")
            for kind, found in (
                ("start", len(played.hands)),
                ("settle", sum(1 for h in played.hands if h.settlement is not None)),
            ):
                if found not in (counts[kind], counts[kind] + (maybe == kind)):
                    problems.append(f"{counts[kind]} {WORDS[kind]} answered, {found} stored")
            if confirmed.get(run.seat.number, 0) != run.confirmed:
                problems.append(
                    f"{run.confirmed} hands confirmed on the phone, {confirmed.get(run.seat.number)} stored"
                )
            writes = sum(1 for a in run.answered if a.write is not None)
            checks.append(Check(run.seat.number, problems, len(sent), len(stored), writes))
        return checks
    finally:
        store.close()


# -- the run -------------------------------------------------------------------------------


@dataclass
class Report:
    """Everything one run measured."""

    tables: int
    seconds: float
    latencies: Latencies
    round_trips: list[float]
    other_trips: list[float]
    hall_client: list[float]
    hall_server: list[float]
    hall_unseen: int
    rss_idle: float
    rss_end: float
    cpu: float  # the workers' CPU seconds while the pages played
    cpu_workers: list[float]  # each worker's share of ``cpu``
    cpu_client: float  # this benchmark's own CPU seconds (every page's client) while the pages played
    cpu_postgres: float  # the PostgreSQL server's, over the same time
    workers: int
    load: list[float]
    checks: list[Check]
    errors: dict[int, str]
    commits: int
    confirms: int
    hall_draws: int
    hall_patches: int
    arrivals: tuple[int, int]  # commits whose arrival lies within their tap's round trip, of how many
    tracebacks: list[str]  # the exception of each traceback the server logged during the run

    @property
    def lost_or_duplicated(self) -> list[Check]:
        """The matches whose store differs from what their phone entered."""
        return [c for c in self.checks if c.problems]


async def run_load(
    db_url: str,
    logs: Path,
    *,
    tables: int,
    period: float,
    seconds: float,
    workers: int,
    hands: int,
    seed: int,
    target: int | None = None,
    tap_timeout: float = TAP_TIMEOUT_S,
) -> Report:
    """Set up the event, serve it, play it for ``seconds`` (or ``hands`` hands a table), measure, check."""
    event, seats, rules = make_event(db_url, tables, target)
    timing_path = logs / "timing.log"
    env = {"SCOREPAD_PAGES_PER_ADDRESS": "10000", "SCOREPAD_TIMING": str(timing_path)}
    server = WebServer(db_url, logs / "server.log", workers=workers, env=env)
    runs = [TableRun(seat, rules, seed, hands, tap_timeout) for seat in seats]
    pages: list[FletClient] = []
    spawned: dict[int, int | None] = {}
    try:
        server.start(timeout=OPEN_TIMEOUT_S)
        assert server.process is not None
        pids = worker_pids(server.process.pid)
        spawned = {pid: started_at(pid) for pid in pids if pid != server.process.pid}
        rss_idle = rss_mb(pids)
        hall = await FletClient(server.url, f"/event/{event}/hall", width=1920, height=1080).open(
            ready="hall-draws", timeout=OPEN_TIMEOUT_S
        )
        pages.append(hall)
        await open_phones(server.url, event, runs)
        pages += [p for run in runs for p in (run.phone, run.other) if p is not None]
        playing = [run for run in runs if run.error is None]
        load = LoadAverage()
        start = time.monotonic()
        cpu_start = cpu_each(pids)
        client_start = time.process_time()
        postgres_start = cpu_each(postgres_pids())
        end = start + seconds
        sampler = asyncio.create_task(load.sample())
        tasks = {asyncio.create_task(run.play(start, end, period)): run for run in playing}
        # Each table stops at ``end`` and a step under way is bounded by its taps' timeouts; this is the backstop.
        _done, late = await asyncio.wait(tasks, timeout=seconds + tap_timeout * 8 + 30)
        for task in late:
            task.cancel()
            tasks[task].error = "its step was still under way long after the run's end"
        elapsed = time.monotonic() - start
        cpu_end = cpu_each(pids)
        cpu_client = time.process_time() - client_start
        cpu_postgres = cpu_spent(postgres_start, cpu_each(list(postgres_start)))
        sampler.cancel()
        await caught_up(hall, timing_path)
        rss_end = rss_mb(pids)
        # What went wrong while the pages played (a worker still busy at the stop may log more, after the schema).
        tracebacks = server_errors(server.log())
        await asyncio.gather(*(page.close() for page in pages))
        pages = []
    finally:
        await asyncio.gather(*(page.close() for page in pages), return_exceptions=True)
        server.stop()
        stop_leftovers(spawned)
    # The hall page's draws as the client received them, beside the server's log (to look into by hand).
    (logs / "hall-patches.log").write_text("".join(f"{at:.6f}\n" for at in hall.drawn_at))
    timing = read_timing(timing_path)
    hall_client, hall_server, unseen = hall_delays(timing, runs, hall)
    round_trips = [a.round_trip for run in runs for a in run.answered if a.write is not None]
    other_trips = []
    for run in runs:
        if run.other is None:
            continue
        for a in run.answered:
            if a.write is not None and a.other_draws < len(run.other.drawn_at):
                other_trips.append(run.other.drawn_at[a.other_draws] - a.sent)
    return Report(
        tables=len(seats),
        seconds=elapsed,
        latencies=entry_latencies(timing),
        round_trips=round_trips,
        other_trips=other_trips,
        hall_client=hall_client,
        hall_server=hall_server,
        hall_unseen=unseen,
        rss_idle=rss_idle,
        rss_end=rss_end,
        cpu=cpu_spent(cpu_start, cpu_end),
        cpu_workers=[cpu_end[pid] - cpu_start[pid] for pid in sorted(cpu_end.keys() & cpu_start.keys())],
        cpu_client=cpu_client,
        cpu_postgres=cpu_postgres,
        workers=len(pids),
        load=load.samples,
        checks=compare(db_url, event, runs),
        errors={run.seat.number: run.error for run in runs if run.error is not None},
        commits=len(timing.commits),
        confirms=len(timing.confirms),
        hall_draws=sum(1 for line in timing.hall if line[2] > 0),
        hall_patches=len(hall.drawn_at),
        arrivals=arrivals_in_window(timing, runs),
        tracebacks=tracebacks,
    )


def server_errors(log: str) -> list[str]:
    """The last line (the exception) of each traceback in a server's log."""
    out = []
    lines = log.splitlines()
    for index, line in enumerate(lines):
        if line.startswith("Traceback"):
            rest = (text for text in lines[index + 1 :] if text and not text.startswith(" "))
            out.append(next(rest, "(cut off)"))
    return out


async def caught_up(hall: FletClient, timing_path: Path) -> None:
    """Wait (bounded) until the timing log shows every entry drawn on both phones and every confirmation in a hall
    draw the hall page has received: the run's last entries are measured too."""
    deadline = time.monotonic() + SETTLE_TIMEOUT_S
    while time.monotonic() < deadline:
        timing = read_timing(timing_path)
        draws = sorted((read, sent) for _pid, _page, _draw, read, sent in timing.hall)
        shown = [next((sent for read, sent in draws if read >= committed), None) for *_, committed in timing.confirms]
        if entry_latencies(timing).undelivered == 0 and all(
            sent is not None and _patch_after(hall, sent) is not None for sent in shown
        ):
            return
        await asyncio.sleep(0.5)


# -- the report ---------------------------------------------------------------------------


def ms(values: list[float], q: int) -> str:
    """A percentile in milliseconds."""
    return f"{percentile(values, q) * 1000:.0f} ms"


def figures(values: list[float]) -> str:
    """p50, p95 and p99 of ``values`` (seconds) in milliseconds, with the count."""
    if not values:
        return "no samples"
    return f"p50 {ms(values, 50)}, p95 {ms(values, 95)}, p99 {ms(values, 99)} ({len(values)})"


def print_report(report: Report) -> None:
    """The figures beside their targets."""
    lat = report.latencies
    split = sum(report.latencies.split.values())
    p99 = percentile(lat.full, 99) * 1000 if lat.full else float("nan")
    print(
        f"ran {report.seconds:.0f} s: {report.commits} writes committed (tiles, draws, passes, settlements,"
        f" new hands), {report.confirms} hands confirmed"
    )
    print(
        f"entry latency (server: tap's arrival -> committed and sent to both phones): {figures(lat.full)};"
        f" target p99 < {P99_TARGET_MS:.0f} ms: {'met' if p99 < P99_TARGET_MS else 'not met'}"
    )
    print(f"  phones in two processes ({count_words(split, 'table')}): {figures(lat.cross)}")
    print(f"  phones in one process ({count_words(len(lat.split) - split, 'table')}): {figures(lat.local)}")
    print(f"  arrival -> committed: {figures(lat.commit)}; committed -> sent to the last phone: {figures(lat.spread)}")
    inside, total = report.arrivals
    print(f"  (the log's arrival time lies within the client's round trip of its tap for {inside} of {total} writes)")
    if lat.undelivered or lat.unstamped:
        print(f"  ({lat.undelivered} entries never drawn on some phone, {lat.unstamped} without an arrival time)")
    print(f"client round trip: tap -> the tapping phone's redraw {figures(report.round_trips)}")
    print(f"  tap -> the second phone's next patch {figures(report.other_trips)}")
    worst = max(report.hall_client, default=float("nan"))
    verdict = "met" if worst < HALL_TARGET_S and not report.hall_unseen else "not met"
    if not report.hall_client and not report.hall_unseen:
        verdict = "no hand was confirmed in the run"
    print(
        f"hall refresh after a confirmed hand (confirmation tap -> hall page's patch): {figures(report.hall_client)},"
        f" max {worst * 1000:.0f} ms; target < {HALL_TARGET_S:g} s: {verdict}"
    )
    print(
        f"  server (confirmation's arrival -> hall redraw sent): {figures(report.hall_server)};"
        f" {report.hall_unseen} confirmations not shown; hall draws {report.hall_draws}, patches received"
        f" {report.hall_patches}"
    )
    per_write = 1000 * report.cpu / report.commits if report.commits else float("nan")
    print(
        f"server CPU while the pages played: {report.cpu:.1f} s of the workers' for {report.commits} writes,"
        f" {per_write:.1f} ms a write (everything a write costs: the check, the commit, both phones' redraws,"
        " its share of the hall's)"
    )
    if report.seconds > 0:
        # Where the machine's cores went while the pages played: a worker is one Python thread of
        # work (the GIL), so one near 1.0 queues every page it serves, however idle the other cores.
        busy = ", ".join(f"{c / report.seconds:.2f}" for c in report.cpu_workers)
        print(
            f"cores busy while the pages played: the workers {report.cpu / report.seconds:.2f} (each {busy}),"
            f" PostgreSQL {report.cpu_postgres / report.seconds:.2f}, this benchmark's clients"
            f" {report.cpu_client / report.seconds:.2f}; {os.cpu_count()} cores"
        )
    per_table = (report.rss_end - report.rss_idle) / report.tables if report.tables else float("nan")
    print(
        f"server memory ({report.workers} workers): {report.rss_idle:.0f} MB idle before the pages joined,"
        f" {report.rss_end:.0f} MB at the end: {per_table:.2f} MB per table (2 phones each, and the hall)"
    )
    bad = report.lost_or_duplicated
    entries = sum(c.entries for c in report.checks)
    stored = sum(c.stored for c in report.checks)
    print(
        f"nothing lost or duplicated: {len(report.checks) - len(bad)} of {len(report.checks)} matches replayed by"
        f" the referee match their phone ({entries} entries answered, {stored} stored)"
        + ("" if not bad else "; NOT for:")
    )
    for check in bad[:20]:
        print(f"  table {check.table}: {'; '.join(check.problems)}")
    if report.tracebacks:
        print(f"the server logged {len(report.tracebacks)} tracebacks; the first ends: {report.tracebacks[0]}")
    if report.errors:
        print(f"pages that failed: {len(report.errors)}")
        for number, error in sorted(report.errors.items())[:20]:
            print(f"  table {number}: {error}")
    if report.load:
        print(
            f"load average (1 min) during the run: mean {statistics.fmean(report.load):.1f},"
            f" max {max(report.load):.1f} ({os.cpu_count()} cores)"
        )


def main() -> int:
    """Run the load test and print its figures; 1 when something was lost or duplicated, a page failed, or the
    server logged a traceback."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--period", type=float, default=2.0, help="seconds between a table's steps")
    parser.add_argument("--seconds", type=float, default=300.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--hands", type=int, default=0, help="stop a table after this many hands (0: no limit)")
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--target", type=int, help="the game's target (default: the rules' own, 250)")
    parser.add_argument("--tap-timeout", type=float, default=TAP_TIMEOUT_S, help="seconds before a tap fails its table")
    parser.add_argument("--logs", type=Path, help="keep the server's log and timing log in this directory")
    args = parser.parse_args()
    if not (1 <= args.tables <= 200 and 0 < args.seconds <= 900 and 0.01 <= args.period <= 60):
        parser.error("keep it bounded: 1-200 tables, at most 900 s, a period of 0.01-60 s")
    if not (1 <= args.workers <= 8 and 0 <= args.hands <= 50 and (args.target is None or args.target > 0)):
        parser.error("--workers is 1 to 8, --hands 0 to 50, --target a positive number")
    print(
        f"tournament load: {args.tables} tables ({2 * args.tables} players), a step every {args.period:g} s"
        f" ({args.tables / args.period:.0f} a second offered) for {args.seconds:g} s through"
        f" scorepad web --workers {args.workers} on PostgreSQL; {os.cpu_count()} cores"
    )
    with postgres_schema(DEFAULT_PG_URL) as db_url, tempfile.TemporaryDirectory() as scratch:
        logs = args.logs or Path(scratch)
        logs.mkdir(parents=True, exist_ok=True)
        report = asyncio.run(
            run_load(
                db_url,
                logs,
                tables=args.tables,
                period=args.period,
                seconds=args.seconds,
                workers=args.workers,
                hands=args.hands,
                seed=args.seed,
                target=args.target,
                tap_timeout=args.tap_timeout,
            )
        )
    print_report(report)
    return 1 if report.lost_or_duplicated or report.errors or report.tracebacks else 0


if __name__ == "__main__":
    raise SystemExit(main())
